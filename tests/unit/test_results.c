/*
 * test_results.c - loading saved results and fio's JSON (merging clones,
 * repeated job names, warnings before the JSON, truncated, foreign, empty
 * and missing files), the results directory listing, the profile name of a
 * job list, and compare's arithmetic, all on inputs with known numbers.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_util.h"
#include "compare.h"
#include "job.h"
#include "results.h"

#define TOL 1e-6

/* Two jobs; "seq" ran as two clones without group_reporting. */
static const char two_jobs[] =
	"{ \"fio version\" : \"fio-3.33\", \"timestamp\" : 1700000000,\n"
	"  \"timestamp_ms\" : 1700000000123,\n"
	"  \"global options\" : { \"filename\" : \"/dev/sdz\" },\n"
	"  \"jobs\" : [\n"
	"  { \"jobname\" : \"seq\", \"groupid\" : 0, \"desc\" : \"Sequential\",\n"
	"    \"read\" : { \"total_ios\" : 100, \"iops\" : 1000.0, \"bw_bytes\" : 4096000,\n"
	"      \"bw\" : 4000, \"clat_ns\" : { \"mean\" : 1000.0,\n"
	"      \"percentile\" : { \"50.000000\" : 900, \"99.000000\" : 2000 } } },\n"
	"    \"write\" : { \"total_ios\" : 0, \"iops\" : 0.0, \"bw_bytes\" : 0 },\n"
	"    \"trim\" : { \"total_ios\" : 0 } },\n"
	"  { \"jobname\" : \"seq\", \"groupid\" : 0, \"desc\" : \"Sequential\",\n"
	"    \"read\" : { \"total_ios\" : 300, \"iops\" : 3000.0, \"bw_bytes\" : 12288000,\n"
	"      \"clat_ns\" : { \"mean\" : 3000.0,\n"
	"      \"percentile\" : { \"99.000000\" : 5000 } } } },\n"
	"  { \"jobname\" : \"mix\", \"groupid\" : 1,\n"
	"    \"read\" : { \"total_ios\" : 70, \"iops\" : 700.0, \"bw\" : 2800,\n"
	"      \"clat_ns\" : { \"mean\" : 10000.0, \"percentile\" : { \"99.000000\" : 40000 } } },\n"
	"    \"write\" : { \"total_ios\" : 30, \"iops\" : 300.0, \"bw_bytes\" : 1228800,\n"
	"      \"clat_ns\" : { \"mean\" : 20000.0 } } },\n"
	"  { \"jobname\" : \"seq\", \"groupid\" : 2,\n"
	"    \"read\" : { \"total_ios\" : 10, \"iops\" : 10.0, \"bw_bytes\" : 40960,\n"
	"      \"clat_ns\" : { \"mean\" : 500.0 } } }\n"
	"  ] }\n";

static const struct result_phase *phase(const struct result *r, const char *name, int ddir)
{
	size_t i;

	for (i = 0; i < r->nr_phases; i++)
		if (r->phases[i].ddir == ddir && !strcmp(r->phases[i].name, name))
			return &r->phases[i];
	return NULL;
}

static int parse_str(struct result *r, const char *text, char *err, size_t errlen)
{
	return result_parse(r, "mem.json", text, strlen(text), err, errlen);
}

START_TEST(merges_clones_and_splits_directions)
{
	struct result r;
	char err[512] = "";
	const struct result_phase *p;

	ck_assert_int_eq(parse_str(&r, two_jobs, err, sizeof(err)), 0);
	ck_assert_str_eq(r.generator, "fio-3.33");
	ck_assert(!r.raidbench);
	ck_assert_str_eq(r.target, "/dev/sdz");
	ck_assert_int_eq(r.time_ms, 1700000000123LL);
	ck_assert_uint_eq(r.nr_phases, 4);

	p = phase(&r, "seq", DDIR_READ);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p->nr_entries, 2);
	ck_assert_uint_eq(p->total_ios, 400);
	ck_assert_double_eq_tol(p->iops, 4000.0, TOL);
	ck_assert_double_eq_tol(p->bw_bytes, 16384000.0, TOL);
	/* (100 * 1000 + 300 * 3000) / 400 */
	ck_assert_double_eq_tol(p->lat_mean_ns, 2500.0, TOL);
	ck_assert_double_eq_tol(p->lat_p99_ns, 5000.0, TOL);
	ck_assert_str_eq(p->desc, "Sequential");
	ck_assert_ptr_null(phase(&r, "seq", DDIR_WRITE));

	p = phase(&r, "mix", DDIR_READ);
	ck_assert_ptr_nonnull(p);
	/* no bw_bytes: fio's bw is KiB/s */
	ck_assert_double_eq_tol(p->bw_bytes, 2800.0 * 1024, TOL);
	ck_assert_double_eq_tol(p->lat_p99_ns, 40000.0, TOL);
	p = phase(&r, "mix", DDIR_WRITE);
	ck_assert_ptr_nonnull(p);
	ck_assert_double_eq_tol(p->iops, 300.0, TOL);
	ck_assert_double_eq_tol(p->lat_p99_ns, -1.0, TOL);

	/* the same job name in a later group is a phase of its own */
	p = phase(&r, "seq#2", DDIR_READ);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(p->groupid, 2);
	ck_assert_double_eq_tol(p->iops, 10.0, TOL);
	result_release(&r);
}
END_TEST

START_TEST(skips_warnings_before_and_text_after)
{
	static const char text[] =
		"fio: this platform does not support process shared mutexes, forcing use of threads\n"
		"note: both iodepth >= 1 and synchronous I/O engine are selected\n"
		"{ \"fio version\" : \"fio-3.33\", \"jobs\" : [ { \"jobname\" : \"j\", \"groupid\" : 0,\n"
		"  \"read\" : { \"total_ios\" : 5, \"iops\" : 50.0, \"bw_bytes\" : 204800 } } ] }\n"
		"j: (groupid=0, jobs=1): err= 0: pid=1\n";
	struct result r;
	char err[512] = "";

	ck_assert_int_eq(parse_str(&r, text, err, sizeof(err)), 0);
	ck_assert_uint_eq(r.nr_phases, 1);
	ck_assert_double_eq_tol(r.phases[0].iops, 50.0, TOL);
	result_release(&r);
}
END_TEST

START_TEST(truncated_file_is_named)
{
	char cut[200], err[512] = "";
	struct result r;
	int ret;

	memcpy(cut, two_jobs, sizeof(cut) - 1);
	cut[sizeof(cut) - 1] = '\0';
	ret = parse_str(&r, cut, err, sizeof(err));
	ck_assert_int_eq(ret, -ENODATA);
	ck_assert_msg(strstr(err, "mem.json") && strstr(err, "truncated"), "err: %s", err);
	ck_assert_ptr_null(r.phases);
}
END_TEST

START_TEST(foreign_json_is_refused)
{
	struct result r;
	char err[512] = "";

	ck_assert_int_eq(parse_str(&r, "{ \"controllers\" : [], \"md_arrays\" : [] }\n", err,
				   sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "mem.json") && strstr(err, "\"jobs\""), "err: %s", err);
	ck_assert_int_eq(parse_str(&r, "{ \"jobs\" : [ { \"name\" : 1 } ] }", err, sizeof(err)),
			 -EINVAL);
	ck_assert_msg(strstr(err, "jobname"), "err: %s", err);
	ck_assert_int_eq(parse_str(&r, "read: IOPS=543, BW=544MiB/s\n", err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "no JSON object"), "err: %s", err);
	ck_assert_int_eq(parse_str(&r, "{ \"jobs\" : [ ] ]", err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "not valid JSON"), "err: %s", err);
	ck_assert_int_eq(parse_str(&r, " \n", err, sizeof(err)), -ENODATA);
	ck_assert_msg(strstr(err, "empty"), "err: %s", err);
}
END_TEST

START_TEST(missing_file_is_named)
{
	struct result r;
	char err[512] = "";

	ck_assert_int_eq(result_load(&r, "/nonexistent/raidbench-x.json", err, sizeof(err)), -ENOENT);
	ck_assert_msg(strstr(err, "/nonexistent/raidbench-x.json"), "err: %s", err);
}
END_TEST

/* fio 3.33's own output of ../shared/reference/fio-sample.fio */
START_TEST(reads_fio_sample)
{
	const char *src = getenv("SRCDIR");
	char path[4096], err[512] = "";
	const struct result_phase *p;
	struct result r;

	snprintf(path, sizeof(path), "%s/tests/fixtures/results/fio-3.33-sample.json",
		 src ? src : ".");
	ck_assert_msg(result_load(&r, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(r.generator, "fio-3.33");
	ck_assert_str_eq(r.target, "/tmp/fiotest/sample.dat");
	ck_assert_uint_eq(r.nr_phases, 2);
	p = phase(&r, "mixed", DDIR_READ);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p->total_ios, 99136);
	ck_assert_double_eq_tol(p->iops, 33034.321893, TOL);
	ck_assert_double_eq_tol(p->bw_bytes, 135308582.0, TOL);
	ck_assert_double_eq_tol(p->lat_mean_ns, 137727.135289, TOL);
	ck_assert_double_eq_tol(p->lat_p99_ns, 468992.0, TOL);
	p = phase(&r, "mixed", DDIR_WRITE);
	ck_assert_ptr_nonnull(p);
	ck_assert_double_eq_tol(p->iops, 14099.633456, TOL);
	ck_assert_double_eq_tol(p->lat_p99_ns, 1044480.0, TOL);
	result_release(&r);
}
END_TEST

START_TEST(reads_raidbench_section)
{
	static const char text[] =
		"{ \"fio version\" : \"raidbench-0.1.0\", \"jobs\" : [ { \"jobname\" : \"a\",\n"
		"  \"groupid\" : 0, \"read\" : { \"total_ios\" : 1, \"iops\" : 1.0 } } ],\n"
		"  \"raidbench\" : { \"host\" : \"srv1\", \"start_ms\" : 1700000001000,\n"
		"    \"profile\" : \"cdm-standard\", \"targets\" : [\n"
		"    { \"path\" : \"/dev/md0\", \"device\" : \"/dev/md0\", \"model\" : null,\n"
		"      \"raid_level\" : \"5\" },\n"
		"    { \"path\" : \"/dev/md1\" } ] } }\n";
	struct result r;
	char err[512] = "";

	ck_assert_int_eq(parse_str(&r, text, err, sizeof(err)), 0);
	ck_assert(r.raidbench);
	ck_assert_str_eq(r.host, "srv1");
	ck_assert_str_eq(r.profile, "cdm-standard");
	ck_assert_int_eq(r.time_ms, 1700000001000LL);
	ck_assert_str_eq(r.target, "/dev/md0 RAID 5 +1 more");
	result_release(&r);
}
END_TEST

/* Outside text longer than the summary's buffer is cut, never written past it. */
START_TEST(long_target_names_are_cut)
{
	static const size_t path_lens[] = { 600, 500, 505, 509 };

	for (size_t k = 0; k < sizeof(path_lens) / sizeof(path_lens[0]); k++) {
		size_t plen = path_lens[k], dlen = 3000, n = 0;
		char *text = malloc(plen + dlen + 1024), err[512] = "";
		struct result r;

		ck_assert_ptr_nonnull(text);
		n += (size_t)sprintf(text, "{ \"jobs\" : [ { \"jobname\" : \"j\", \"read\" : {},"
				     " \"write\" : {} } ], \"raidbench\" : { \"targets\" : [ {"
				     " \"path\" : \"");
		memset(text + n, 'A', plen);
		n += plen;
		n += (size_t)sprintf(text + n, "\", \"device\" : \"");
		memset(text + n, 'B', dlen);
		n += dlen;
		sprintf(text + n, "\", \"model\" : \"M\", \"raid_level\" : \"5\","
			" \"file_system\" : \"ext4\" }, { \"path\" : \"x\" } ] } }");
		ck_assert_msg(parse_str(&r, text, err, sizeof(err)) == 0, "%s", err);
		ck_assert_ptr_nonnull(r.target);
		ck_assert_msg(strlen(r.target) < 512, "path %zu: summary of %zu bytes", plen,
			      strlen(r.target));
		ck_assert_msg(strspn(r.target, "A") == (plen < 511 ? plen : 511),
			      "path %zu: %zu A's kept", plen, strspn(r.target, "A"));
		result_release(&r);
		free(text);
	}
}
END_TEST

/* Numbers no integer holds are unknown (0), not the undefined result of a cast. */
START_TEST(numbers_out_of_range_are_not_cast)
{
	static const char text[] =
		"{ \"jobs\" : [ { \"jobname\" : \"a\", \"groupid\" : 1e300,\n"
		"  \"read\" : { \"total_ios\" : 1e30, \"iops\" : 1.0 } },\n"
		"  { \"jobname\" : \"b\", \"groupid\" : -1e10,\n"
		"  \"read\" : { \"total_ios\" : 5, \"iops\" : 1.0 } } ],\n"
		"  \"raidbench\" : { \"start_ms\" : -1e300, \"targets\" : [] } }\n";
	struct result r;
	char err[512] = "";

	ck_assert_msg(parse_str(&r, text, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(r.time_ms, 0);
	ck_assert_ptr_nonnull(phase(&r, "a", DDIR_READ));
	ck_assert_int_eq(phase(&r, "a", DDIR_READ)->groupid, 0);
	ck_assert_uint_eq(phase(&r, "a", DDIR_READ)->total_ios, 0);
	ck_assert_int_eq(phase(&r, "b", DDIR_READ)->groupid, 0);
	ck_assert_uint_eq(phase(&r, "b", DDIR_READ)->total_ios, 5);
	result_release(&r);
}
END_TEST

static void make_result(struct result *r, double iops, double bw, double mean_ns, double p99_ns)
{
	char text[1024], err[256];

	snprintf(text, sizeof(text),
		 "{ \"jobs\" : [ { \"jobname\" : \"rnd4k\", \"groupid\" : 0, \"read\" : {\n"
		 "  \"total_ios\" : 10, \"iops\" : %f, \"bw_bytes\" : %f, \"clat_ns\" : {\n"
		 "  \"mean\" : %f, \"percentile\" : { \"99.000000\" : %f } } } } ] }",
		 iops, bw, mean_ns, p99_ns);
	ck_assert_msg(parse_str(r, text, err, sizeof(err)) == 0, "%s", err);
}

START_TEST(compare_maths)
{
	struct result rs[3];
	struct compare c;
	const struct compare_cell *x;

	make_result(&rs[0], 1000, 4096000, 100000, 250000);
	make_result(&rs[1], 1250, 5120000, 80000, 500000);
	ck_assert_int_eq(parse_str(&rs[2], two_jobs, (char[256]){ 0 }, 256), 0);
	ck_assert_int_eq(compare_build(&c, rs, 3), 0);
	ck_assert_uint_eq(c.nr_cols, 3);
	/* rnd4k read, then the third file's seq, mix read, mix write, seq#2 */
	ck_assert_uint_eq(c.nr_rows, 5);
	ck_assert_str_eq(c.rows[0].phase, "rnd4k");
	ck_assert_int_eq(c.rows[0].ddir, DDIR_READ);

	x = &c.rows[0].cells[0];
	ck_assert(x->present);
	ck_assert_double_eq_tol(x->mb_s, 4.096, TOL);
	ck_assert_double_eq_tol(x->lat_mean_us, 100.0, TOL);
	ck_assert_double_eq_tol(x->lat_p99_us, 250.0, TOL);
	ck_assert(isnan(x->iops_pct) == 0 && fabs(x->iops_pct) < TOL);

	x = &c.rows[0].cells[1];
	ck_assert_double_eq_tol(x->iops, 1250.0, TOL);
	ck_assert_double_eq_tol(x->iops_pct, 25.0, TOL);
	ck_assert_double_eq_tol(x->mb_s_pct, 25.0, TOL);
	ck_assert_double_eq_tol(x->lat_mean_pct, -20.0, TOL);
	ck_assert_double_eq_tol(x->lat_p99_pct, 100.0, TOL);

	/* the third file has no rnd4k; its phases have no base in the first */
	ck_assert(!c.rows[0].cells[2].present);
	ck_assert(isnan(c.rows[0].cells[2].iops_pct));
	ck_assert_str_eq(c.rows[1].phase, "seq");
	ck_assert(!c.rows[1].cells[0].present);
	ck_assert(c.rows[1].cells[2].present);
	ck_assert(isnan(c.rows[1].cells[2].iops_pct));
	ck_assert_double_eq_tol(c.rows[1].cells[2].iops, 4000.0, TOL);
	ck_assert_str_eq(c.rows[1].desc, "Sequential");
	/* mix write has no p99 */
	ck_assert_str_eq(c.rows[3].phase, "mix");
	ck_assert_int_eq(c.rows[3].ddir, DDIR_WRITE);
	ck_assert_double_eq_tol(c.rows[3].cells[2].lat_p99_us, -1.0, TOL);
	compare_release(&c);
	result_release(&rs[0]);
	result_release(&rs[1]);
	result_release(&rs[2]);
}
END_TEST

START_TEST(change_pct_edges)
{
	ck_assert_double_eq_tol(compare_change_pct(200.0, 150.0), -25.0, TOL);
	ck_assert(isnan(compare_change_pct(0.0, 5.0)));
	ck_assert(isnan(compare_change_pct(-1.0, 5.0)));
	ck_assert(isnan(compare_change_pct(5.0, -1.0)));
	ck_assert(isnan(compare_change_pct(NAN, 5.0)));
}
END_TEST

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

START_TEST(lists_results_dir_with_a_corrupt_file)
{
	char tmpl[256], dir[512], path[600], err[256] = "";
	struct result_entry *list;
	size_t nr;

	ck_assert_ptr_nonnull(mkdtemp(rb_test_tmpl(tmpl, sizeof(tmpl), "results")));
	setenv("XDG_DATA_HOME", tmpl, 1);
	ck_assert_int_eq(results_dir(dir, sizeof(dir), err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/20260101-000000-a.json", dir);
	write_file(path, two_jobs);
	snprintf(path, sizeof(path), "%s/20260102-000000-b.json", dir);
	write_file(path, "{ \"fio version\" : \"raidbench-0.1.0\", \"jobs\" : [ { \"jobn");
	snprintf(path, sizeof(path), "%s/notes.txt", dir);
	write_file(path, "not a result");

	ck_assert_int_eq(results_list(&list, &nr, err, sizeof(err)), 0);
	ck_assert_uint_eq(nr, 2);
	ck_assert_str_eq(list[0].err, "");
	ck_assert_uint_eq(list[0].r.nr_phases, 4);
	ck_assert_msg(strstr(list[1].err, "truncated") && strstr(list[1].err, "-b.json"),
		      "err: %s", list[1].err);
	ck_assert_ptr_nonnull(strstr(list[1].r.path, "20260102-000000-b.json"));
	results_list_free(list, nr);

	unlink(path);
	snprintf(path, sizeof(path), "%s/20260101-000000-a.json", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/20260102-000000-b.json", dir);
	unlink(path);
	rmdir(dir);
	snprintf(path, sizeof(path), "%s/raidbench", tmpl);
	rmdir(path);
	rmdir(tmpl);
}
END_TEST

START_TEST(profile_name_from_job_file)
{
	struct job_spec jobs[2];
	struct job_list jl = { .jobs = jobs, .nr = 2 };
	char name[64];

	memset(jobs, 0, sizeof(jobs));
	jobs[0].src_file = "<command line>";
	jobs[1].src_file = "/usr/share/raidbench/profiles/cdm-standard.fio";
	ck_assert_str_eq(results_profile_name(&jl, name, sizeof(name)), "cdm-standard");
	jobs[1].src_file = "/home/u/myprofiles/cdm-standard.fio";
	ck_assert_ptr_null(results_profile_name(&jl, name, sizeof(name)));
	jobs[1].src_file = "profiles/x.fio";
	ck_assert_str_eq(results_profile_name(&jl, name, sizeof(name)), "x");
	jobs[1].src_file = "x.fio";
	ck_assert_ptr_null(results_profile_name(&jl, name, sizeof(name)));
	jobs[1].src_file = "./profiles/oltp.fio";
	ck_assert_str_eq(results_profile_name(&jl, name, sizeof(name)), "oltp");
}
END_TEST

static Suite *results_suite(void)
{
	Suite *s = suite_create("results");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, merges_clones_and_splits_directions);
	tcase_add_test(tc, skips_warnings_before_and_text_after);
	tcase_add_test(tc, truncated_file_is_named);
	tcase_add_test(tc, foreign_json_is_refused);
	tcase_add_test(tc, missing_file_is_named);
	tcase_add_test(tc, reads_fio_sample);
	tcase_add_test(tc, reads_raidbench_section);
	tcase_add_test(tc, long_target_names_are_cut);
	tcase_add_test(tc, numbers_out_of_range_are_not_cast);
	tcase_add_test(tc, compare_maths);
	tcase_add_test(tc, change_pct_edges);
	tcase_add_test(tc, lists_results_dir_with_a_corrupt_file);
	tcase_add_test(tc, profile_name_from_job_file);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(results_suite)
