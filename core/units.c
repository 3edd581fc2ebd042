/*
 * units.c - the value grammar of fio job options: sizes with fio's units
 * (k = 1024 but kib = 1000 under the default kb_base), times, numbers,
 * per-direction lists, bssplit, percentile lists, CPU and node lists and
 * ':'-separated path lists. Rules: ../shared/reference/fio.md section 1.2.
 *
 * Stricter than fio where fio silently misreads: "1.5g" is 1 byte to fio
 * and "10sec" 10 microseconds; here both are errors. Pure functions: no
 * I/O, no globals.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "options.h"
#include "units.h"

int units_errf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (buf && len) {
		va_start(ap, fmt);
		vsnprintf(buf, len, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/*
 * Leading unsigned integer, decimal or 0x hex; *end is left on the first
 * character after it. Signs and blanks are refused (strtoull takes both).
 */
static int scan_uint(const char *s, uint64_t *out, const char **end)
{
	unsigned long long v;
	char *e;
	int base = 10;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		if (!isxdigit((unsigned char)s[2]))
			return -EINVAL;
		base = 16;
	} else if (!isdigit((unsigned char)s[0])) {
		return -EINVAL;
	}
	errno = 0;
	v = strtoull(s, &e, base);
	/* a number, only too large: callers say "out of range", not "not a number" */
	if (errno == ERANGE)
		return -ERANGE;
	*out = v;
	*end = e;
	return 0;
}

static uint64_t upow(uint64_t base, unsigned n)
{
	uint64_t r = 1;

	while (n--)
		r *= base;
	return r;
}

/*
 * fio's __get_mult_bytes: k/m/g/t/p with an optional "b" or "i" use
 * kb_base; only the three-letter "kib".."pib" use the other base (fio's
 * "compatibility mode" inversion).
 */
static int size_mult(const char *suf, unsigned kb_base, uint64_t *mult)
{
	static const char prefixes[] = "kmgtp";
	const char *p;
	unsigned other = kb_base == 1000 ? 1024 : 1000;

	if (!*suf || !strcasecmp(suf, "b")) {
		*mult = 1;
		return 0;
	}
	p = strchr(prefixes, tolower((unsigned char)suf[0]));
	if (!p)
		return -EINVAL;
	if (!suf[1] || !strcasecmp(suf + 1, "b") || !strcasecmp(suf + 1, "i"))
		*mult = upow(kb_base, (unsigned)(p - prefixes) + 1);
	else if (!strcasecmp(suf + 1, "ib"))
		*mult = upow(other, (unsigned)(p - prefixes) + 1);
	else
		return -EINVAL;
	return 0;
}

int units_size(const char *s, unsigned kb_base, uint64_t *out, unsigned *percent)
{
	const char *end;
	uint64_t v, mult;

	if (percent)
		*percent = 0;
	int ret;

	if (kb_base != 1000)
		kb_base = 1024;
	if ((ret = scan_uint(s, &v, &end)))
		return ret;
	if (end[0] == '%' && end[1] == '\0') {
		if (!percent || v > 100)
			return -EINVAL;
		*percent = (unsigned)v;
		*out = 0;
		return 0;
	}
	if (size_mult(end, kb_base, &mult))
		return -EINVAL;
	if (__builtin_mul_overflow(v, mult, out))
		return -ERANGE;
	return 0;
}

int parse_size(const char *s, unsigned kb_base, uint64_t *out)
{
	uint64_t v;

	if (!s || units_size(s, kb_base, &v, NULL))
		return -EINVAL;
	*out = v;
	return 0;
}

int units_time_us(const char *s, uint64_t default_unit_us, uint64_t *out)
{
	static const struct {
		const char *suffix;
		uint64_t us;
	} units[] = {
		{ "us", 1 }, { "usec", 1 },
		{ "ms", 1000 }, { "msec", 1000 },
		{ "s", 1000000 },
		{ "m", 60ull * 1000000 },
		{ "h", 3600ull * 1000000 },
		{ "d", 86400ull * 1000000 },
	};
	const char *end;
	uint64_t v, mult = 0;
	size_t i;
	int ret;

	if ((ret = scan_uint(s, &v, &end)))
		return ret;
	if (!*end) {
		mult = default_unit_us;
	} else {
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (!strcasecmp(end, units[i].suffix))
				mult = units[i].us;
		if (!mult)
			return -EINVAL;
	}
	if (__builtin_mul_overflow(v, mult, out))
		return -ERANGE;
	return 0;
}

int parse_time_us(const char *s, uint64_t default_unit_us, uint64_t *out)
{
	uint64_t v;

	if (!s || units_time_us(s, default_unit_us, &v))
		return -EINVAL;
	*out = v;
	return 0;
}

int units_int(const char *s, long long *out)
{
	const char *end;
	uint64_t v;
	bool neg = false;

	int ret;

	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	if ((ret = scan_uint(s, &v, &end)))
		return ret;
	if (*end)
		return -EINVAL;
	if (v > (uint64_t)LLONG_MAX)
		return -ERANGE;
	*out = neg ? -(long long)v : (long long)v;
	return 0;
}

int units_float(const char *s, double *out)
{
	char *end;
	double v;

	if (!*s || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (*end || errno == ERANGE || !isfinite(v))
		return -EINVAL;
	*out = v;
	return 0;
}

int units_bool(const char *s, bool *out)
{
	if (!strcmp(s, "0") || !strcmp(s, "1")) {
		*out = s[0] == '1';
		return 0;
	}
	return -EINVAL;
}

char *units_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

int units_ddir_split(char *s, bool commas_only, char *part[DDIR_RWDIR_CNT],
		     char *why, size_t whylen)
{
	char *tok[DDIR_RWDIR_CNT + 1];
	unsigned n = 0, i, d;
	bool any = false;
	char *p = s;

	for (;;) {
		char *sep = strchr(p, ',');

		/*
		 * fio's handle_option: a comma ends the value only when a
		 * comma is left; otherwise ':' then '-' (for plain numbers).
		 */
		if (!sep && !commas_only) {
			sep = strchr(p, ':');
			if (!sep)
				sep = strchr(p, '-');
		}
		if (sep)
			*sep = '\0';
		if (n == DDIR_RWDIR_CNT) {
			if (*units_trim(p) || sep)
				return units_errf(why, whylen,
						  "too many values (at most read,write,trim)");
			break;
		}
		tok[n++] = units_trim(p);
		if (!sep)
			break;
		p = sep + 1;
	}

	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		part[d] = NULL;
	for (i = 0; i < n; i++) {
		if (!*tok[i])
			continue;
		any = true;
		part[i] = tok[i];
		/* the last value given also covers the directions after it */
		if (i == n - 1)
			for (d = i + 1; d < DDIR_RWDIR_CNT; d++)
				part[d] = tok[i];
	}
	if (!any)
		return units_errf(why, whylen, "no value given");
	return 0;
}

const char *units_ddir_name(int d)
{
	return d == DDIR_READ ? "read" : d == DDIR_WRITE ? "write" : "trim";
}

int units_bssplit(char *s, unsigned kb_base, struct bssplit_entry *out,
		  unsigned *nr, char *why, size_t whylen)
{
	bool blank[RB_MAX_BSSPLIT];
	unsigned n = 0, i, j, sum = 0, nblank = 0, share, extra;
	char *entry, *rest = s;

	while ((entry = strsep(&rest, ":")) != NULL) {
		char *slash, *bs_str;
		long long perc = 0;

		entry = units_trim(entry);
		if (!*entry)
			continue;
		if (n == RB_MAX_BSSPLIT)
			return units_errf(why, whylen, "more than %d entries",
					  RB_MAX_BSSPLIT);
		slash = strchr(entry, '/');
		if (slash)
			*slash = '\0';
		bs_str = units_trim(entry);
		if (units_size(bs_str, kb_base, &out[n].bs, NULL) || !out[n].bs)
			return units_errf(why, whylen,
					  "bad block size '%s' (expected %s)",
					  bs_str, UNITS_SIZE_HINT);
		if (slash && *units_trim(slash + 1)) {
			char *p = units_trim(slash + 1);

			if (units_int(p, &perc) || perc < 0 || perc > 100)
				return units_errf(why, whylen,
						  "bad percentage '%s' for %s (expected 0 to 100)",
						  p, bs_str);
		}
		/* fio's split_parse_ddir: a percentage of 0 counts as blank */
		blank[n] = perc == 0;
		out[n].perc = (uint32_t)perc;
		sum += (unsigned)perc;
		nblank += blank[n];
		n++;
	}
	if (!n)
		return units_errf(why, whylen, "no block sizes given");
	if (sum > 100 || (!nblank && sum != 100))
		return units_errf(why, whylen,
				  "percentages add up to %u (must be 100)", sum);

	/*
	 * fio gives each blank (100 - sum) / nblank and loses the rounding;
	 * handing the rest to the first blanks keeps the total at exactly 100.
	 */
	if (nblank) {
		share = (100 - sum) / nblank;
		extra = (100 - sum) % nblank;
		for (i = 0; i < n; i++) {
			if (!blank[i])
				continue;
			out[i].perc = share + (extra ? 1 : 0);
			if (extra)
				extra--;
		}
	}

	/* fio sorts by percentage (its lookup walks them in that order); stable here */
	for (i = 1; i < n; i++) {
		struct bssplit_entry e = out[i];

		for (j = i; j > 0 && out[j - 1].perc > e.perc; j--)
			out[j] = out[j - 1];
		out[j] = e;
	}
	*nr = n;
	return 0;
}

int units_bssplit_ddir(const char *s, unsigned kb_base,
		       struct bssplit_entry out[DDIR_RWDIR_CNT][RB_MAX_BSSPLIT],
		       unsigned nr[DDIR_RWDIR_CNT], bool got[DDIR_RWDIR_CNT],
		       char *why, size_t whylen)
{
	char *copy = strdup(s), *part[DDIR_RWDIR_CNT], msg[200];
	int ret, d;

	if (!copy)
		return -ENOMEM;
	/* fio's str_split_parse: only commas separate directions here */
	ret = units_ddir_split(copy, true, part, why, whylen);
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		char *one;

		got[d] = !ret && part[d];
		if (!got[d])
			continue;
		/* propagated directions share one string; parse a copy each */
		one = strdup(part[d]);
		if (!one) {
			ret = -ENOMEM;
			break;
		}
		ret = units_bssplit(one, kb_base, out[d], &nr[d], msg, sizeof(msg));
		free(one);
		if (ret) {
			units_errf(why, whylen, "%s (for %s)", msg, units_ddir_name(d));
			break;
		}
	}
	free(copy);
	return ret;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int units_percentiles(const char *s, double *out, unsigned max, unsigned *nr,
		      char *why, size_t whylen)
{
	char *copy = strdup(s), *rest = copy, *p;
	unsigned n = 0;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	while ((p = strsep(&rest, ":")) != NULL) {
		double v;

		p = units_trim(p);
		if (n == max) {
			ret = units_errf(why, whylen, "more than %u percentiles", max);
			goto out;
		}
		if (units_float(p, &v) || v <= 0.0 || v > 100.0) {
			ret = units_errf(why, whylen,
					 "bad percentile '%s' (expected a number above 0 and at most 100)",
					 p);
			goto out;
		}
		out[n++] = v;
	}
	qsort(out, n, sizeof(*out), cmp_double);
	*nr = n;
out:
	free(copy);
	return ret;
}

/* A whole number without sign or unit, as a CPU or node index. */
static int scan_index(const char *s, const char **end, long *out)
{
	char *e;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*out = strtol(s, &e, 10);
	if (errno)
		return -EINVAL;
	*end = e;
	return 0;
}

int units_cpu_list(const char *s, cpu_set_t *set, char *why, size_t whylen)
{
	const char *p = s;
	bool any = false;

	CPU_ZERO(set);
	while (*p) {
		const char *end;
		long lo, hi;

		while (isspace((unsigned char)*p))
			p++;
		if (scan_index(p, &end, &lo))
			return units_errf(why, whylen, "bad CPU list '%s' (expected a list such as 0,5,8-15)", s);
		hi = lo;
		if (*end == '-' && scan_index(end + 1, &end, &hi))
			return units_errf(why, whylen, "bad CPU list '%s' (expected a list such as 0,5,8-15)", s);
		while (isspace((unsigned char)*end))
			end++;
		if (*end && *end != ',')
			return units_errf(why, whylen, "bad CPU list '%s' (expected a list such as 0,5,8-15)", s);
		if (hi < lo)
			return units_errf(why, whylen, "bad CPU range %ld-%ld (the first CPU must come first)", lo, hi);
		if (hi >= CPU_SETSIZE)
			return units_errf(why, whylen, "CPU %ld is beyond the %d CPUs supported", hi, CPU_SETSIZE);
		for (; lo <= hi; lo++)
			CPU_SET((size_t)lo, set);
		any = true;
		p = *end ? end + 1 : end;
	}
	if (!any)
		return units_errf(why, whylen, "empty CPU list");
	return 0;
}

int units_node_list(const char *s)
{
	const char *p = s, *end;
	long lo, hi;

	if (!strcmp(s, "all"))
		return 0;
	if (*p == '!' || *p == '+')
		p++;
	for (;;) {
		if (scan_index(p, &end, &lo))
			return -EINVAL;
		if (*end == '-') {
			if (scan_index(end + 1, &end, &hi) || hi < lo)
				return -EINVAL;
		}
		if (!*end)
			return 0;
		if (*end != ',')
			return -EINVAL;
		p = end + 1;
	}
}

void units_list_free(char **list)
{
	char **p;

	if (!list)
		return;
	for (p = list; *p; p++)
		free(*p);
	free(list);
}

int units_path_list(const char *s, char ***out, unsigned *nr)
{
	size_t len = strlen(s), n = 0, i, most = 1;
	char **list = NULL;
	char *buf = NULL, *w;

	/* counted before anything is allocated: a long list is refused, not built */
	for (i = 0; i < len; i++)
		most += s[i] == ':';
	if (most > UNITS_MAX_PATHS)
		return -E2BIG;
	list = calloc(most + 1, sizeof(*list));
	buf = malloc(len + 1);
	w = buf;
	if (!list || !buf)
		goto nomem;
	for (i = 0; i <= len; i++) {
		if (s[i] == '\\' && s[i + 1] == ':') {
			*w++ = ':';
			i++;
			continue;
		}
		if (s[i] != ':' && s[i] != '\0') {
			*w++ = s[i];
			continue;
		}
		*w = '\0';
		if (w > buf) {
			list[n] = strdup(buf);
			if (!list[n++])
				goto nomem;
		}
		w = buf;
	}
	free(buf);
	if (!n) {
		free(list);
		return -EINVAL;
	}
	*out = list;
	*nr = (unsigned)n;
	return 0;
nomem:
	free(buf);
	units_list_free(list);
	return -ENOMEM;
}

/* ---- keyword values ------------------------------------------------------ */

/*
 * What follows a word's colon ("read: 4k", "zipf:1.2 "), blanks cut off both
 * ends as fio's get_opt_postfix cuts them; NULL when out of memory. The
 * caller frees it.
 */
static char *postfix_dup(const char *colon)
{
	char *copy = strdup(colon + 1), *t;

	if (!copy)
		return NULL;
	t = units_trim(copy);
	memmove(copy, t, strlen(t) + 1);
	return copy;
}

static int find_word(const char *const *names, const char *s, size_t n)
{
	int i;

	for (i = 0; names[i]; i++)
		if (strlen(names[i]) == n && !strncmp(names[i], s, n))
			return i;
	return -1;
}

/*
 * A random pattern's ":N" as fio 3.33 reads it, with atoi(): blanks, an
 * optional '+', then the leading decimal digits; whatever follows is ignored,
 * so "8k" is 8 and "4m" is 4, not sizes. Where fio's atoi finds no digits
 * ("abc") or only a 0 before other characters ("0x10"), fio runs with 0: no
 * random offset at all, every I/O sequential. That turns a random test into
 * a sequential one over what is surely a typo, so raidbench refuses it.
 */
static int rand_suffix(const char *s, const char *sfx, uint64_t *v, char *why, size_t whylen)
{
	const char *p = sfx, *digits;

	while (isspace((unsigned char)*p))
		p++;
	if (*p == '-')
		return units_errf(why, whylen, "bad suffix in '%s' (a random pattern takes a count "
				  "of I/Os per offset, not a negative number)", s);
	if (*p == '+')
		p++;
	digits = p;
	for (*v = 0; isdigit((unsigned char)*p); p++) {
		*v = *v * 10 + (uint64_t)(*p - '0');
		if (*v > UINT_MAX)
			return units_errf(why, whylen, "bad suffix '%s' in '%s' (a count of I/Os "
					  "per random offset, at most %u)", sfx, s, UINT_MAX);
	}
	if (p == digits)
		return units_errf(why, whylen, "bad suffix '%s' in '%s' (expected a whole number "
				  "of I/Os per random offset; fio 3.33 would read it as 0, every I/O "
				  "sequential: write :0 if that is meant)", sfx, s);
	while (isspace((unsigned char)*p))
		p++;
	if (!*v && *p)
		return units_errf(why, whylen, "bad suffix '%s' in '%s' (fio 3.33 reads only its "
				  "leading decimal digits, 0 here: every I/O sequential; write :0 if "
				  "that is meant, or the count in decimal)", sfx, s);
	return 0;
}

int units_rw(const char *s, unsigned kb_base, unsigned *bits, unsigned *nr,
	     char *why, size_t whylen)
{
	static const char *const names[] = {
		"read", "write", "trim", "randread", "randwrite", "randtrim",
		"rw", "readwrite", "randrw", "trimwrite", "randtrimwrite", NULL,
	};
	static const unsigned modes[] = {
		RW_READ, RW_WRITE, RW_TRIM, RW_READ | RW_RANDOM, RW_WRITE | RW_RANDOM,
		RW_TRIM | RW_RANDOM, RW_READ | RW_WRITE, RW_READ | RW_WRITE,
		RW_READ | RW_WRITE | RW_RANDOM, RW_TRIM | RW_WRITE, RW_TRIM | RW_WRITE | RW_RANDOM,
	};
	const char *colon = strchr(s, ':');
	size_t n = colon ? (size_t)(colon - s) : strlen(s);
	int i = find_word(names, s, n);
	uint64_t v = 0;

	if (i < 0)
		return units_errf(why, whylen, "bad value '%s' (expected read, write, trim, "
				  "randread, randwrite, randtrim, rw, readwrite, randrw, "
				  "trimwrite or randtrimwrite, with an optional :N)", s);
	/* fio: ":N" is I/Os per random offset for random modes, a byte gap for sequential */
	if (colon && (modes[i] & RW_RANDOM)) {
		int ret = rand_suffix(s, colon + 1, &v, why, whylen);

		if (ret)
			return ret;
	} else if (colon) {
		char *sfx = postfix_dup(colon);
		int bad;

		if (!sfx)
			return -ENOMEM;
		bad = units_size(sfx, kb_base, &v, NULL) || v > UINT_MAX;
		free(sfx);
		if (bad)
			return units_errf(why, whylen, "bad suffix '%s' in '%s' (expected a whole "
					  "number)", colon + 1, s);
	}
	*bits = modes[i];
	*nr = (unsigned)v;
	return 0;
}

int units_verify(const char *s, enum verify_type *out, char *why, size_t whylen)
{
	static const char *const names[] = { "0", "none", "crc32c", "crc32c-intel", "md5", NULL };
	static const enum verify_type types[] = {
		VERIFY_NONE, VERIFY_NONE, VERIFY_CRC32C, VERIFY_CRC32C, VERIFY_MD5,
	};
	static const char *const fio_types[] = {
		"crc64", "crc32", "crc16", "crc7", "sha1", "sha256", "sha512", "sha3-224",
		"sha3-256", "sha3-384", "sha3-512", "xxhash", "meta", "pattern", "null", NULL,
	};
	int i = find_word(names, s, strlen(s));

	if (i >= 0) {
		*out = types[i];
		return 0;
	}
	if (find_word(fio_types, s, strlen(s)) >= 0)
		return units_errf(why, whylen, "'%s' is a fio verify type raidbench does not "
				  "support (supported: 0/none, crc32c, crc32c-intel, md5)", s);
	return units_errf(why, whylen, "bad value '%s' (expected 0, none, crc32c, "
			  "crc32c-intel or md5)", s);
}

int units_distribution(const char *s, enum rand_dist *dist, double *param,
		       double *center, char *why, size_t whylen)
{
	static const char *const names[] = { "random", "zipf", "pareto", "normal", NULL };
	static const double defaults[] = { 0, 1.1, 0.2, 0 };	/* fio's FIO_DEF_* */
	const char *colon = strchr(s, ':');
	size_t n = colon ? (size_t)(colon - s) : strlen(s);
	int i = find_word(names, s, n);
	double p, c = -1;

	if (i < 0 && ((n == 5 && !strncmp(s, "zoned", 5)) || (n == 9 && !strncmp(s, "zoned_abs", 9))))
		return units_errf(why, whylen, "'%.*s' is a fio distribution raidbench does "
				  "not support", (int)n, s);
	if (i < 0)
		return units_errf(why, whylen, "bad value '%s' (expected random, zipf:theta, "
				  "pareto:h or normal:sigma[:center])", s);
	p = defaults[i];
	/* fio ignores whatever follows "random:" */
	if (colon && i != DIST_RANDOM) {
		/* blanks around either number are fio's too (its sscanf skips them) */
		char *copy = postfix_dup(colon), *c2;
		int bad;

		if (!copy)
			return -ENOMEM;
		c2 = strchr(copy, ':');
		if (c2)
			*c2++ = '\0';
		bad = units_float(units_trim(copy), &p) || (c2 && units_float(units_trim(c2), &c));
		free(copy);
		if (bad)
			return units_errf(why, whylen, "bad value '%s' (expected %s:number[:center])",
					  s, names[i]);
		if (c2 && (c < 0 || c > 1))
			return units_errf(why, whylen, "center out of range in '%s' (expected 0 to 1)", s);
	}
	if (i == DIST_ZIPF && p == 1.0)
		return units_errf(why, whylen, "zipf theta must not be 1.0 in '%s'", s);
	if (i == DIST_PARETO && (p <= 0 || p >= 1))
		return units_errf(why, whylen, "pareto h out of range in '%s' (expected above 0 "
				  "and below 1)", s);
	if (i == DIST_NORMAL && (p < 0 || p >= 100))
		return units_errf(why, whylen, "normal sigma out of range in '%s' (expected 0 "
				  "to below 100)", s);
	*dist = (enum rand_dist)i;
	*param = p;
	*center = c;
	return 0;
}

int units_mem_policy(const char *s, char *why, size_t whylen)
{
	enum { DEFAULT, PREFER, BIND, INTERLEAVE, LOCAL };
	static const char *const modes[] = { "default", "prefer", "bind", "interleave", "local", NULL };
	const char *colon = strchr(s, ':'), *nodes = colon ? colon + 1 : NULL;
	int m = find_word(modes, s, colon ? (size_t)(colon - s) : strlen(s));

	if (m < 0)
		return units_errf(why, whylen, "bad value '%s' (expected default, prefer:N, "
				  "bind:nodes, interleave[:nodes] or local)", s);
	/* fio's str_numa_mpol_cb rules */
	if ((m == DEFAULT || m == LOCAL) && nodes)
		return units_errf(why, whylen, "'%s' takes no node list", s);
	if ((m == PREFER || m == BIND) && !nodes)
		return units_errf(why, whylen, "'%s' needs %s", s,
				  m == PREFER ? "one node (prefer:N)" : "a node list (bind:nodes)");
	if (m == PREFER && (!*nodes || strspn(nodes, "0123456789") != strlen(nodes)))
		return units_errf(why, whylen, "'prefer' takes one node number in '%s'", s);
	if (nodes && units_node_list(nodes))
		return units_errf(why, whylen, "bad node list '%s' in '%s'", nodes, s);
	return 0;
}

int units_range(const char *s, unsigned kb_base, uint64_t *lo, uint64_t *hi)
{
	char *copy = strdup(s), *sep;
	int ret = -EINVAL;

	if (!copy)
		return -ENOMEM;
	sep = strchr(copy, '-');
	if (!sep)
		sep = strchr(copy, ':');
	if (sep) {
		char *end;

		*sep = '\0';
		/* as fio: "512/25:1k:25:2k" is 512-1k; a bound ends at '/', the range at its second bound */
		end = sep + 1 + strcspn(sep + 1, ":-");
		*end = '\0';
		copy[strcspn(copy, "/")] = '\0';
		sep[1 + strcspn(sep + 1, "/")] = '\0';
		if (!units_size(units_trim(copy), kb_base, lo, NULL) &&
		    !units_size(units_trim(sep + 1), kb_base, hi, NULL) && *lo && *hi)
			ret = 0;
	}
	free(copy);
	if (!ret && *lo > *hi) {
		uint64_t t = *lo;

		*lo = *hi;
		*hi = t;
	}
	return ret;
}
