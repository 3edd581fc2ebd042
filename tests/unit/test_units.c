/*
 * test_units.c - the value grammar of fio options (core/units.c): sizes
 * and fio's kib inversion, kb_base=1000, hex, times, per-direction lists
 * and fio's bs=a-b quirk, bssplit, percentile lists, CPU/node/path lists.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "check_util.h"
#include "core/engine.h"
#include "core/options.h"
#include "core/units.h"

static uint64_t size_of(const char *s, unsigned kb_base)
{
	uint64_t v = 0xdead;

	ck_assert_msg(parse_size(s, kb_base, &v) == 0, "parse_size(\"%s\", %u) failed", s, kb_base);
	return v;
}

static void size_bad(const char *s)
{
	uint64_t v = 0xdead;

	ck_assert_msg(parse_size(s, 1024, &v) == -EINVAL, "parse_size(\"%s\") accepted: %llu",
		      s, (unsigned long long)v);
	ck_assert_uint_eq(v, 0xdead);
}

START_TEST(size_plain_units)
{
	ck_assert_uint_eq(size_of("512", 1024), 512);
	ck_assert_uint_eq(size_of("512b", 1024), 512);
	ck_assert_uint_eq(size_of("512B", 1024), 512);
	ck_assert_uint_eq(size_of("0", 1024), 0);
	ck_assert_uint_eq(size_of("4k", 1024), 4096);
	ck_assert_uint_eq(size_of("4K", 1024), 4096);
	ck_assert_uint_eq(size_of("4kb", 1024), 4096);
	ck_assert_uint_eq(size_of("4KB", 1024), 4096);
	ck_assert_uint_eq(size_of("4ki", 1024), 4096);
	ck_assert_uint_eq(size_of("1m", 1024), 1048576);
	ck_assert_uint_eq(size_of("1M", 1024), 1048576);
	ck_assert_uint_eq(size_of("1mb", 1024), 1048576);
	ck_assert_uint_eq(size_of("1MB", 1024), 1048576);
	ck_assert_uint_eq(size_of("1mi", 1024), 1048576);
	ck_assert_uint_eq(size_of("1Mi", 1024), 1048576);
	ck_assert_uint_eq(size_of("2g", 1024), 2147483648ull);
	ck_assert_uint_eq(size_of("1t", 1024), 1099511627776ull);
	ck_assert_uint_eq(size_of("1p", 1024), 1125899906842624ull);
	ck_assert_uint_eq(size_of("1024k", 1024), 1048576);
}
END_TEST

/* fio.md 1.2: only the three-letter kib..pib are 1000-based under kb_base=1024 */
START_TEST(size_kib_inversion)
{
	ck_assert_uint_eq(size_of("1kib", 1024), 1000);
	ck_assert_uint_eq(size_of("1KiB", 1024), 1000);
	ck_assert_uint_eq(size_of("1mib", 1024), 1000000);
	ck_assert_uint_eq(size_of("1MiB", 1024), 1000000);
	ck_assert_uint_eq(size_of("1gib", 1024), 1000000000ull);
	ck_assert_uint_eq(size_of("1tib", 1024), 1000000000000ull);
	ck_assert_uint_eq(size_of("1pib", 1024), 1000000000000000ull);
	ck_assert_uint_eq(size_of("1000ki", 1024), 1024000);
}
END_TEST

START_TEST(size_kb_base_1000)
{
	ck_assert_uint_eq(size_of("4k", 1000), 4000);
	ck_assert_uint_eq(size_of("1m", 1000), 1000000);
	ck_assert_uint_eq(size_of("1mb", 1000), 1000000);
	ck_assert_uint_eq(size_of("1mi", 1000), 1000000);
	ck_assert_uint_eq(size_of("1MiB", 1000), 1048576);
	ck_assert_uint_eq(size_of("1kib", 1000), 1024);
	ck_assert_uint_eq(size_of("1g", 1000), 1000000000ull);
}
END_TEST

START_TEST(size_hex)
{
	ck_assert_uint_eq(size_of("0x1000", 1024), 4096);
	ck_assert_uint_eq(size_of("0X10", 1024), 16);
	ck_assert_uint_eq(size_of("0x10k", 1024), 16384);
	ck_assert_uint_eq(size_of("0x1b", 1024), 27);	/* b is a hex digit first */
	ck_assert_uint_eq(size_of("0x89", 1024), 0x89);
	ck_assert_uint_eq(size_of("0xffffffffffffffff", 1024), UINT64_MAX);
}
END_TEST

START_TEST(size_rejects)
{
	size_bad("x4k");
	size_bad("");
	size_bad("4x");
	size_bad("1.5g");	/* fio reads 1 byte; an error is kinder */
	size_bad("-4k");
	size_bad("+4k");
	size_bad("4 k");
	size_bad(" 4k");
	size_bad("4kibb");
	size_bad("4kbi");
	size_bad("0x");
	size_bad("k");
	size_bad("20%");	/* parse_size takes no percentages */
	size_bad("18446744073709551616");
	size_bad("16777216t");	/* 2^64 */
}
END_TEST

START_TEST(size_percent)
{
	uint64_t v = 1;
	unsigned pct = 7;

	ck_assert_int_eq(units_size("20%", 1024, &v, &pct), 0);
	ck_assert_uint_eq(pct, 20);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(units_size("4k", 1024, &v, &pct), 0);
	ck_assert_uint_eq(pct, 0);
	ck_assert_uint_eq(v, 4096);
	ck_assert_int_eq(units_size("100%", 1024, &v, &pct), 0);
	ck_assert_uint_eq(pct, 100);
	ck_assert_int_eq(units_size("101%", 1024, &v, &pct), -EINVAL);
	ck_assert_int_eq(units_size("20%", 1024, &v, NULL), -EINVAL);
	ck_assert_int_eq(units_size("20%x", 1024, &v, &pct), -EINVAL);
}
END_TEST

static uint64_t time_of(const char *s, uint64_t unit)
{
	uint64_t v = 0xdead;

	ck_assert_msg(parse_time_us(s, unit, &v) == 0, "parse_time_us(\"%s\") failed", s);
	return v;
}

START_TEST(times)
{
	const char *bad[] = { "10sec", "1.5s", "x", "", "10 s", "10min", "-1", "10ns", "s" };
	uint64_t v = 0xdead;
	size_t i;

	ck_assert_uint_eq(time_of("10", 1000000), 10000000);
	ck_assert_uint_eq(time_of("10s", 1000000), 10000000);
	ck_assert_uint_eq(time_of("10S", 1), 10000000);
	ck_assert_uint_eq(time_of("10ms", 1000000), 10000);
	ck_assert_uint_eq(time_of("10MS", 1000000), 10000);
	ck_assert_uint_eq(time_of("10msec", 1000000), 10000);
	ck_assert_uint_eq(time_of("10us", 1000000), 10);
	ck_assert_uint_eq(time_of("10usec", 1000000), 10);
	ck_assert_uint_eq(time_of("2m", 1000000), 120000000);
	ck_assert_uint_eq(time_of("1h", 1000000), 3600000000ull);
	ck_assert_uint_eq(time_of("1d", 1000000), 86400000000ull);
	ck_assert_uint_eq(time_of("500", 1), 500);	/* thinktime: bare is us */
	ck_assert_uint_eq(time_of("0", 1000000), 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(parse_time_us(bad[i], 1000000, &v) == -EINVAL,
			      "parse_time_us(\"%s\") accepted", bad[i]);
	ck_assert_uint_eq(v, 0xdead);
}
END_TEST

START_TEST(ints_floats_bools)
{
	long long i;
	double f;
	bool b;

	ck_assert_int_eq(units_int("-5", &i), 0);
	ck_assert_int_eq(i, -5);
	ck_assert_int_eq(units_int("0x10", &i), 0);
	ck_assert_int_eq(i, 16);
	ck_assert_int_eq(units_int("5k", &i), -EINVAL);
	ck_assert_int_eq(units_int("", &i), -EINVAL);
	ck_assert_int_eq(units_float("99.95", &f), 0);
	ck_assert_double_eq_tol(f, 99.95, 1e-9);
	ck_assert_int_eq(units_float("nan", &f), -EINVAL);
	ck_assert_int_eq(units_float("1x", &f), -EINVAL);
	ck_assert_int_eq(units_bool("1", &b), 0);
	ck_assert(b);
	ck_assert_int_eq(units_bool("0", &b), 0);
	ck_assert(!b);
	ck_assert_int_eq(units_bool("2", &b), -EINVAL);
	ck_assert_int_eq(units_bool("yes", &b), -EINVAL);
}
END_TEST

/* Splits s and checks each direction; NULL means untouched. */
static void check_split(const char *s, bool commas_only, const char *r, const char *w,
			const char *t)
{
	const char *want[3] = { r, w, t };
	char buf[128], why[128] = "";
	char *part[DDIR_RWDIR_CNT];
	int d;

	snprintf(buf, sizeof(buf), "%s", s);
	ck_assert_msg(units_ddir_split(buf, commas_only, part, why, sizeof(why)) == 0,
		      "split of '%s' failed: %s", s, why);
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		if (!want[d])
			ck_assert_msg(part[d] == NULL, "'%s' dir %d: got '%s', want untouched",
				      s, d, part[d]);
		else
			ck_assert_str_eq(part[d] ? part[d] : "(null)", want[d]);
	}
}

START_TEST(ddir_lists)
{
	char buf[64], why[128];
	char *part[DDIR_RWDIR_CNT];

	check_split("8k", false, "8k", "8k", "8k");
	check_split("8k,32k", false, "8k", "32k", "32k");
	check_split(",8k", false, NULL, "8k", "8k");
	check_split("4k,", false, "4k", NULL, NULL);
	check_split("1k,2k,3k", false, "1k", "2k", "3k");
	check_split("1k,,3k", false, "1k", NULL, "3k");
	check_split("1k,2k,3k,", false, "1k", "2k", "3k");
	/* fio 3.33: bs=4k-16k is read 4k, write+trim 16k, not a range */
	check_split("4k-16k", false, "4k", "16k", "16k");
	check_split("4k:16k", false, "4k", "16k", "16k");
	check_split("8k,16k:32k", false, "8k", "16k", "32k");
	check_split("4k-16k", true, "4k-16k", "4k-16k", "4k-16k");
	check_split("4k-16k,8k:9k", true, "4k-16k", "8k:9k", "8k:9k");

	strcpy(buf, "1k,2k,3k,4k");
	ck_assert_int_eq(units_ddir_split(buf, false, part, why, sizeof(why)), -EINVAL);
	ck_assert_str_eq(why, "too many values (at most read,write,trim)");
	strcpy(buf, ",");
	ck_assert_int_eq(units_ddir_split(buf, false, part, why, sizeof(why)), -EINVAL);
	ck_assert_str_eq(why, "no value given");
}
END_TEST

static unsigned split_of(const char *s, struct bssplit_entry *e, char *why)
{
	char buf[1024];
	unsigned nr = 0;

	snprintf(buf, sizeof(buf), "%s", s);
	ck_assert_msg(units_bssplit(buf, 1024, e, &nr, why, 256) == 0, "'%s': %s", s, why);
	return nr;
}

START_TEST(bssplit_basic)
{
	struct bssplit_entry e[RB_MAX_BSSPLIT];
	char why[256] = "";

	/* sorted by percentage, as fio sorts */
	ck_assert_uint_eq(split_of("4k/10:64k/50:32k/40", e, why), 3);
	ck_assert_uint_eq(e[0].bs, 4096);
	ck_assert_uint_eq(e[0].perc, 10);
	ck_assert_uint_eq(e[1].bs, 32768);
	ck_assert_uint_eq(e[1].perc, 40);
	ck_assert_uint_eq(e[2].bs, 65536);
	ck_assert_uint_eq(e[2].perc, 50);

	ck_assert_uint_eq(split_of("4k", e, why), 1);
	ck_assert_uint_eq(e[0].perc, 100);
}
END_TEST

START_TEST(bssplit_blank_percents)
{
	struct bssplit_entry e[RB_MAX_BSSPLIT];
	char why[256] = "";

	/* fio.md 1.2: 4k/50:1k/:32k/ is 50/25/25; ties keep their order */
	ck_assert_uint_eq(split_of("4k/50:1k/:32k/", e, why), 3);
	ck_assert_uint_eq(e[0].bs, 1024);
	ck_assert_uint_eq(e[0].perc, 25);
	ck_assert_uint_eq(e[1].bs, 32768);
	ck_assert_uint_eq(e[1].perc, 25);
	ck_assert_uint_eq(e[2].bs, 4096);
	ck_assert_uint_eq(e[2].perc, 50);

	/* the rounding remainder goes to the first blank: still 100 in all */
	ck_assert_uint_eq(split_of("4k/:8k/:16k", e, why), 3);
	ck_assert_uint_eq(e[0].perc + e[1].perc + e[2].perc, 100);
	ck_assert_uint_eq(e[0].perc, 33);
	ck_assert_uint_eq(e[2].perc, 34);
	ck_assert_uint_eq(e[2].bs, 4096);

	/* fio quirk: an explicit 0 counts as blank */
	ck_assert_uint_eq(split_of("4k/0:8k/50", e, why), 2);
	ck_assert_uint_eq(e[0].perc, 50);
	ck_assert_uint_eq(e[1].perc, 50);
}
END_TEST

START_TEST(bssplit_errors)
{
	struct bssplit_entry e[RB_MAX_BSSPLIT];
	char buf[1024], why[256];
	unsigned nr, i;

	strcpy(buf, "4k/10:8k/20");
	ck_assert_int_eq(units_bssplit(buf, 1024, e, &nr, why, sizeof(why)), -EINVAL);
	ck_assert_str_eq(why, "percentages add up to 30 (must be 100)");
	strcpy(buf, "4k/80:8k/30:16k/");
	ck_assert_int_eq(units_bssplit(buf, 1024, e, &nr, why, sizeof(why)), -EINVAL);
	ck_assert_str_eq(why, "percentages add up to 110 (must be 100)");
	strcpy(buf, "4x/50:8k/50");
	ck_assert_int_eq(units_bssplit(buf, 1024, e, &nr, why, sizeof(why)), -EINVAL);
	ck_assert_str_eq(why, "bad block size '4x' (expected a size such as 4k, 1m, 512)");
	strcpy(buf, "4k/150");
	ck_assert_int_eq(units_bssplit(buf, 1024, e, &nr, why, sizeof(why)), -EINVAL);
	ck_assert_str_eq(why, "bad percentage '150' for 4k (expected 0 to 100)");

	buf[0] = '\0';
	for (i = 0; i < 65; i++)
		strcat(buf, "4k/:");
	ck_assert_int_eq(units_bssplit(buf, 1024, e, &nr, why, sizeof(why)), -EINVAL);
	ck_assert_str_eq(why, "more than 64 entries");
}
END_TEST

START_TEST(bssplit_directions)
{
	struct bssplit_entry e[DDIR_RWDIR_CNT][RB_MAX_BSSPLIT];
	unsigned nr[DDIR_RWDIR_CNT];
	bool got[DDIR_RWDIR_CNT];
	char why[256] = "";

	ck_assert_int_eq(units_bssplit_ddir("2k/50:4k/50,4k/90:8k/10", 1024, e, nr, got,
					    why, sizeof(why)), 0);
	ck_assert(got[0] && got[1] && got[2]);
	ck_assert_uint_eq(nr[DDIR_READ], 2);
	ck_assert_uint_eq(e[DDIR_READ][0].bs, 2048);
	ck_assert_uint_eq(nr[DDIR_TRIM], 2);
	ck_assert_uint_eq(e[DDIR_WRITE][0].bs, 8192);
	ck_assert_uint_eq(e[DDIR_WRITE][0].perc, 10);
	ck_assert_uint_eq(e[DDIR_TRIM][1].bs, 4096);
	ck_assert_uint_eq(e[DDIR_TRIM][1].perc, 90);

	ck_assert_int_eq(units_bssplit_ddir(",4k/10:8k/80", 1024, e, nr, got, why,
					    sizeof(why)), -EINVAL);
	ck_assert_str_eq(why, "percentages add up to 90 (must be 100) (for write)");
}
END_TEST

START_TEST(percentile_lists)
{
	double p[RB_MAX_PERCENTILES];
	char why[256] = "", buf[256] = "";
	unsigned nr = 0, i;

	ck_assert_int_eq(units_percentiles("99:99.9:50", p, RB_MAX_PERCENTILES, &nr, why,
					   sizeof(why)), 0);
	ck_assert_uint_eq(nr, 3);
	ck_assert_double_eq_tol(p[0], 50, 1e-9);
	ck_assert_double_eq_tol(p[1], 99, 1e-9);
	ck_assert_double_eq_tol(p[2], 99.9, 1e-9);

	ck_assert_int_eq(units_percentiles("0", p, RB_MAX_PERCENTILES, &nr, why, sizeof(why)),
			 -EINVAL);
	ck_assert_str_eq(why, "bad percentile '0' (expected a number above 0 and at most 100)");
	ck_assert_int_eq(units_percentiles("101", p, RB_MAX_PERCENTILES, &nr, why, sizeof(why)),
			 -EINVAL);
	ck_assert_int_eq(units_percentiles("99:", p, RB_MAX_PERCENTILES, &nr, why, sizeof(why)),
			 -EINVAL);
	ck_assert_int_eq(units_percentiles("abc", p, RB_MAX_PERCENTILES, &nr, why, sizeof(why)),
			 -EINVAL);
	for (i = 1; i <= 21; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%u", i > 1 ? ":" : "", i);
	ck_assert_int_eq(units_percentiles(buf, p, RB_MAX_PERCENTILES, &nr, why, sizeof(why)),
			 -EINVAL);
	ck_assert_str_eq(why, "more than 20 percentiles");
}
END_TEST

START_TEST(cpu_lists)
{
	cpu_set_t set;
	char why[256] = "";

	ck_assert_int_eq(units_cpu_list("0,5,8-15", &set, why, sizeof(why)), 0);
	ck_assert_int_eq(CPU_COUNT(&set), 10);
	ck_assert(CPU_ISSET(0, &set) && CPU_ISSET(5, &set) && CPU_ISSET(8, &set) &&
		  CPU_ISSET(15, &set));
	ck_assert(!CPU_ISSET(7, &set) && !CPU_ISSET(16, &set));
	ck_assert_int_eq(units_cpu_list("0-3", &set, why, sizeof(why)), 0);
	ck_assert_int_eq(CPU_COUNT(&set), 4);
	ck_assert_int_eq(units_cpu_list("3-1", &set, why, sizeof(why)), -EINVAL);
	ck_assert_str_eq(why, "bad CPU range 3-1 (the first CPU must come first)");
	ck_assert_int_eq(units_cpu_list("x", &set, why, sizeof(why)), -EINVAL);
	ck_assert_str_eq(why, "bad CPU list 'x' (expected a list such as 0,5,8-15)");
	ck_assert_int_eq(units_cpu_list("1024", &set, why, sizeof(why)), -EINVAL);
	ck_assert_int_eq(units_cpu_list("1,,2", &set, why, sizeof(why)), -EINVAL);
}
END_TEST

START_TEST(node_lists_and_policies)
{
	char why[256] = "";

	ck_assert_int_eq(units_node_list("0"), 0);
	ck_assert_int_eq(units_node_list("0-3,5"), 0);
	ck_assert_int_eq(units_node_list("all"), 0);
	ck_assert_int_eq(units_node_list("!1"), 0);
	ck_assert_int_eq(units_node_list("x"), -EINVAL);
	ck_assert_int_eq(units_node_list("1-"), -EINVAL);
	ck_assert_int_eq(units_node_list("3-1"), -EINVAL);

	ck_assert_int_eq(units_mem_policy("default", why, sizeof(why)), 0);
	ck_assert_int_eq(units_mem_policy("local", why, sizeof(why)), 0);
	ck_assert_int_eq(units_mem_policy("prefer:1", why, sizeof(why)), 0);
	ck_assert_int_eq(units_mem_policy("bind:0-1", why, sizeof(why)), 0);
	ck_assert_int_eq(units_mem_policy("interleave", why, sizeof(why)), 0);
	ck_assert_int_eq(units_mem_policy("interleave:0,1", why, sizeof(why)), 0);
	ck_assert_int_eq(units_mem_policy("bind", why, sizeof(why)), -EINVAL);
	ck_assert_str_eq(why, "'bind' needs a node list (bind:nodes)");
	ck_assert_int_eq(units_mem_policy("prefer:0-1", why, sizeof(why)), -EINVAL);
	ck_assert_int_eq(units_mem_policy("local:0", why, sizeof(why)), -EINVAL);
	ck_assert_int_eq(units_mem_policy("spread", why, sizeof(why)), -EINVAL);
}
END_TEST

START_TEST(path_lists)
{
	char **l = NULL;
	unsigned nr = 0;

	ck_assert_int_eq(units_path_list("/dev/sda", &l, &nr), 0);
	ck_assert_uint_eq(nr, 1);
	ck_assert_str_eq(l[0], "/dev/sda");
	ck_assert_ptr_null(l[1]);
	units_list_free(l);

	ck_assert_int_eq(units_path_list("a\\:b:c::d", &l, &nr), 0);
	ck_assert_uint_eq(nr, 3);
	ck_assert_str_eq(l[0], "a:b");
	ck_assert_str_eq(l[1], "c");
	ck_assert_str_eq(l[2], "d");
	ck_assert_ptr_null(l[3]);
	units_list_free(l);

	ck_assert_int_eq(units_path_list("::", &l, &nr), -EINVAL);
}
END_TEST

START_TEST(rw_modes)
{
	unsigned bits = 0, nr = 7;
	char why[256] = "";

	ck_assert_int_eq(units_rw("randrw", 1024, &bits, &nr, why, sizeof(why)), 0);
	ck_assert_uint_eq(bits, RW_READ | RW_WRITE | RW_RANDOM);
	ck_assert_uint_eq(nr, 0);
	ck_assert_int_eq(units_rw("trimwrite", 1024, &bits, &nr, why, sizeof(why)), 0);
	ck_assert_uint_eq(bits, RW_TRIM | RW_WRITE);
	ck_assert_int_eq(units_rw("readwrite", 1024, &bits, &nr, why, sizeof(why)), 0);
	ck_assert_uint_eq(bits, RW_READ | RW_WRITE);
	ck_assert_int_eq(units_rw("randread:8", 1024, &bits, &nr, why, sizeof(why)), 0);
	ck_assert_uint_eq(bits, RW_READ | RW_RANDOM);
	ck_assert_uint_eq(nr, 8);
	ck_assert_int_eq(units_rw("write:4k", 1024, &bits, &nr, why, sizeof(why)), 0);
	ck_assert_uint_eq(nr, 4096);
	/* a random pattern's count as fio's atoi(): leading digits, the rest ignored */
	ck_assert_int_eq(units_rw("randread:8k", 1024, &bits, &nr, why, sizeof(why)), 0);
	ck_assert_uint_eq(nr, 8);
	ck_assert_int_eq(units_rw("randrw: +4m ", 1024, &bits, &nr, why, sizeof(why)), 0);
	ck_assert_uint_eq(nr, 4);
	ck_assert_int_eq(units_rw("randwrite:0", 1024, &bits, &nr, why, sizeof(why)), 0);
	ck_assert_uint_eq(nr, 0);
	/* where fio's atoi() gives 0 from more than a 0: every I/O sequential, refused */
	ck_assert_int_eq(units_rw("randread:abc", 1024, &bits, &nr, why, sizeof(why)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(why, "fio 3.33 would read it as 0"));
	ck_assert_int_eq(units_rw("randread:0x10", 1024, &bits, &nr, why, sizeof(why)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(why, "0 here: every I/O sequential"));
	ck_assert_int_eq(units_rw("randread:", 1024, &bits, &nr, why, sizeof(why)), -EINVAL);
	ck_assert_int_eq(units_rw("randread:4294967296", 1024, &bits, &nr, why, sizeof(why)),
			 -EINVAL);
	ck_assert_int_eq(units_rw("randtrimwrite", 1024, &bits, &nr, why, sizeof(why)), 0);
	ck_assert_uint_eq(bits, RW_TRIM | RW_WRITE | RW_RANDOM);
	ck_assert_int_eq(units_rw("reads", 1024, &bits, &nr, why, sizeof(why)), -EINVAL);
	ck_assert_int_eq(units_rw("read:x", 1024, &bits, &nr, why, sizeof(why)), -EINVAL);
	ck_assert_str_eq(why, "bad suffix 'x' in 'read:x' (expected a whole number)");
}
END_TEST

START_TEST(distributions)
{
	enum rand_dist dist = DIST_NORMAL;
	double p = 5, c = 5;
	char why[256] = "";

	ck_assert_int_eq(units_distribution("random:100", &dist, &p, &c, why, sizeof(why)), 0);
	ck_assert_int_eq(dist, DIST_RANDOM);
	ck_assert_double_eq(c, -1);
	ck_assert_int_eq(units_distribution("zipf", &dist, &p, &c, why, sizeof(why)), 0);
	ck_assert_int_eq(dist, DIST_ZIPF);
	ck_assert_double_eq_tol(p, 1.1, 1e-12);
	ck_assert_int_eq(units_distribution("zipf:1.2", &dist, &p, &c, why, sizeof(why)), 0);
	ck_assert_double_eq_tol(p, 1.2, 1e-12);
	ck_assert_int_eq(units_distribution("normal:10:0.5", &dist, &p, &c, why, sizeof(why)), 0);
	ck_assert_int_eq(dist, DIST_NORMAL);
	ck_assert_double_eq_tol(p, 10, 1e-12);
	ck_assert_double_eq_tol(c, 0.5, 1e-12);
	ck_assert_int_eq(units_distribution("pareto:0.3", &dist, &p, &c, why, sizeof(why)), 0);
	ck_assert_int_eq(dist, DIST_PARETO);
	ck_assert_int_eq(units_distribution("pareto:1.5", &dist, &p, &c, why, sizeof(why)), -EINVAL);
	ck_assert_int_eq(units_distribution("zipf:1", &dist, &p, &c, why, sizeof(why)), -EINVAL);
	ck_assert_str_eq(why, "zipf theta must not be 1.0 in 'zipf:1'");
	ck_assert_int_eq(units_distribution("normal:10:2", &dist, &p, &c, why, sizeof(why)), -EINVAL);
	ck_assert_int_eq(units_distribution("zoned:50/5:50/95", &dist, &p, &c, why, sizeof(why)),
			 -EINVAL);
	ck_assert_str_eq(why, "'zoned' is a fio distribution raidbench does not support");
}
END_TEST

START_TEST(ranges)
{
	uint64_t lo = 0, hi = 0;

	ck_assert_int_eq(units_range("4k-16k", 1024, &lo, &hi), 0);
	ck_assert_uint_eq(lo, 4096);
	ck_assert_uint_eq(hi, 16384);
	ck_assert_int_eq(units_range("16k:4k", 1024, &lo, &hi), 0);
	ck_assert_uint_eq(lo, 4096);
	ck_assert_uint_eq(hi, 16384);
	ck_assert_int_eq(units_range("4k", 1024, &lo, &hi), -EINVAL);
	ck_assert_int_eq(units_range("0-4k", 1024, &lo, &hi), -EINVAL);
}
END_TEST

START_TEST(engines_and_verify)
{
	enum verify_type v = VERIFY_MD5;
	char why[512] = "";

	ck_assert_int_eq(units_verify("none", &v, why, sizeof(why)), 0);
	ck_assert_int_eq(v, VERIFY_NONE);
	ck_assert_int_eq(units_verify("crc32c-intel", &v, why, sizeof(why)), 0);
	ck_assert_int_eq(v, VERIFY_CRC32C);
	ck_assert_int_eq(units_verify("md5", &v, why, sizeof(why)), 0);
	ck_assert_int_eq(v, VERIFY_MD5);
	ck_assert_int_eq(units_verify("sha256", &v, why, sizeof(why)), -EINVAL);
	ck_assert_str_eq(why, "'sha256' is a fio verify type raidbench does not support "
			 "(supported: 0/none, crc32c, crc32c-intel, md5)");
}
END_TEST

static Suite *units_suite(void)
{
	Suite *s = suite_create("units");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, size_plain_units);
	tcase_add_test(tc, size_kib_inversion);
	tcase_add_test(tc, size_kb_base_1000);
	tcase_add_test(tc, size_hex);
	tcase_add_test(tc, size_rejects);
	tcase_add_test(tc, size_percent);
	tcase_add_test(tc, times);
	tcase_add_test(tc, ints_floats_bools);
	tcase_add_test(tc, ddir_lists);
	tcase_add_test(tc, bssplit_basic);
	tcase_add_test(tc, bssplit_blank_percents);
	tcase_add_test(tc, bssplit_errors);
	tcase_add_test(tc, bssplit_directions);
	tcase_add_test(tc, percentile_lists);
	tcase_add_test(tc, cpu_lists);
	tcase_add_test(tc, node_lists_and_policies);
	tcase_add_test(tc, path_lists);
	tcase_add_test(tc, rw_modes);
	tcase_add_test(tc, distributions);
	tcase_add_test(tc, ranges);
	tcase_add_test(tc, engines_and_verify);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(units_suite)
