/*
 * test_options.c - fio job files and command-line options into a job list
 * (core/options.c, core/job.c): [global] scoping, inline comments, include,
 * ${VAR}, command-line defaults, implicit stonewalls, groups, every option
 * family, the error messages, fio --showcmd, and the seeds' job files
 * (tests/fixtures/jobs/seed*.fio, copied verbatim from ../shared/seeds).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_util.h"
#include "core/engine.h"
#include "core/options.h"

static char dir[PATH_MAX];

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static void setup(void)
{
	rb_test_tmpl(dir, sizeof(dir), "options");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}

/* Writes a file under the test's directory; returns its path (a small ring of buffers). */
static const char *put(const char *name, const char *text)
{
	static char paths[8][PATH_MAX];
	static int next;
	char *p = paths[next++ % 8], *slash;
	FILE *f;

	snprintf(p, PATH_MAX, "%s/%s", dir, name);
	slash = strrchr(p, '/');
	*slash = '\0';
	mkdir(p, 0755);
	*slash = '/';
	f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	return p;
}

static const char *fixture(const char *name)
{
	static char path[PATH_MAX];
	const char *src = getenv("SRCDIR");

	if (src) {
		snprintf(path, sizeof(path), "%s/tests/fixtures/jobs/%s", src, name);
	} else {
		/* run by hand: the fixtures sit next to this source file's directory */
		const char *f = __FILE__, *end = strstr(f, "unit/test_options.c");

		snprintf(path, sizeof(path), "%.*sfixtures/jobs/%s", (int)(end - f), f, name);
	}
	return path;
}

static char err[1024];

/* Loads one job file holding text (plus command-line options); asserts success. */
static void load_ok(struct job_list *jl, const char *text, const struct cmd_opt *opts,
		    size_t nr_opts)
{
	char *files[1] = { (char *)put("job.fio", text) };
	int ret;

	err[0] = '\0';
	ret = jobs_load(jl, opts, nr_opts, files, 1, err, sizeof(err));
	ck_assert_msg(ret == 0, "jobs_load failed (%d): %s", ret, err);
}

/* Loads text and expects failure: err must be "<path of job.fio>" + tail. */
static void load_fails(const char *text, int want_ret, const char *tail)
{
	char *files[1] = { (char *)put("job.fio", text) };
	struct job_list jl;
	char want[1200];
	int ret;

	snprintf(want, sizeof(want), "%s%s", files[0], tail);
	ret = jobs_load(&jl, NULL, 0, files, 1, err, sizeof(err));
	ck_assert_int_eq(ret, want_ret);
	ck_assert_str_eq(err, want);
	/* nothing is left allocated on failure */
	ck_assert_ptr_null(jl.jobs);
	ck_assert_uint_eq(jl.nr, 0);
	ck_assert_ptr_null(jl.global_options);
}

/* One job from a one-section file. */
static void one_job(struct job_list *jl, const char *text)
{
	load_ok(jl, text, NULL, 0);
	ck_assert_uint_eq(jl->nr, 1);
}

START_TEST(defaults)
{
	static const double want[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5,
				       99.9, 99.95, 99.99 };
	struct job_list jl;
	struct job_spec *j;
	unsigned i;

	one_job(&jl, "[j]\n");
	j = &jl.jobs[0];
	ck_assert_str_eq(j->name, "j");
	ck_assert_ptr_null(j->description);
	ck_assert_uint_eq(j->rw, RW_READ);
	ck_assert_uint_eq(j->rwmixread, 50);
	for (i = 0; i < DDIR_RWDIR_CNT; i++) {
		ck_assert_uint_eq(j->bs[i], 4096);
		ck_assert_uint_eq(j->bs_max[i], 4096);
		ck_assert_uint_eq(j->nr_bssplit[i], 0);
		ck_assert_uint_eq(j->percentage_random[i], 100);
		ck_assert_uint_eq(j->ba[i], 0);
	}
	ck_assert_str_eq(j->ioengine, "libaio");
	ck_assert_uint_eq(j->iodepth, 1);
	ck_assert_uint_eq(j->iodepth_batch_submit, 1);
	ck_assert_uint_eq(j->iodepth_batch_complete_min, 1);
	ck_assert_uint_eq(j->iodepth_batch_complete_max, 1);
	ck_assert_uint_eq(j->iodepth_low, 1);
	ck_assert_uint_eq(j->numjobs, 1);
	ck_assert_uint_eq(j->loops, 1);
	ck_assert_uint_eq(j->nrfiles, 1);
	ck_assert(j->randrepeat);
	ck_assert_uint_eq(j->randseed, 0x89);
	ck_assert(j->invalidate && j->scramble_buffers && j->do_verify && j->clat_percentiles);
	ck_assert(!j->direct && !j->lat_percentiles && !j->slat_percentiles && !j->time_based);
	ck_assert_double_eq(j->dist_center, -1);
	ck_assert_uint_eq(j->bwavgtime_ms, 500);
	ck_assert_uint_eq(j->iopsavgtime_ms, 500);
	ck_assert_uint_eq(j->kb_base, 1024);
	ck_assert_int_eq(j->verify, VERIFY_NONE);
	ck_assert_int_eq(j->sync, SYNC_NONE);
	ck_assert_uint_eq(j->nr_percentiles, 17);
	for (i = 0; i < 17; i++)
		ck_assert_double_eq_tol(j->percentiles[i], want[i], 1e-9);
	ck_assert_ptr_null(j->filenames);
	ck_assert_int_eq(j->groupid, 0);
	ck_assert_int_eq(j->src_line, 1);
	ck_assert_uint_eq(j->nr_job_options, 0);
	job_list_release(&jl);
}
END_TEST

START_TEST(globals_apply_only_to_later_jobs)
{
	struct job_list jl;

	load_ok(&jl, "[a]\nbs=8k\n[global]\nbs=16k\nrw=write\n[b]\n[c]\nbs=32k\n"
		"[global]\niodepth=4\n[d]\n", NULL, 0);
	ck_assert_uint_eq(jl.nr, 4);
	ck_assert_uint_eq(jl.jobs[0].bs[DDIR_READ], 8192);
	ck_assert_uint_eq(jl.jobs[0].rw, RW_READ);
	ck_assert_uint_eq(jl.jobs[1].bs[DDIR_READ], 16384);
	ck_assert_uint_eq(jl.jobs[1].rw, RW_WRITE);
	ck_assert_uint_eq(jl.jobs[1].iodepth, 1);
	ck_assert_uint_eq(jl.jobs[2].bs[DDIR_READ], 32768);
	/* a second [global] adds to the first */
	ck_assert_uint_eq(jl.jobs[3].bs[DDIR_READ], 16384);
	ck_assert_uint_eq(jl.jobs[3].iodepth, 4);
	ck_assert_uint_eq(jl.nr_global_options, 3);
	ck_assert_str_eq(jl.global_options[2].key, "iodepth");
	job_list_release(&jl);

	/* any section starting with "global" is one */
	load_ok(&jl, "[global-big]\nbs=1m\n[a]\n", NULL, 0);
	ck_assert_uint_eq(jl.nr, 1);
	ck_assert_uint_eq(jl.jobs[0].bs[DDIR_WRITE], 1048576);
	job_list_release(&jl);
}
END_TEST

START_TEST(comments_and_blanks)
{
	struct job_list jl;
	struct job_spec *j;

	one_job(&jl, "; leading comment\n# another\n\n  [a]   ; after a header\n"
		"bs=8k ; inline\n  iodepth = 4 # inline\n\t; indented comment\n"
		"rw=write#glued\ndescription=a;b\r\n");
	j = &jl.jobs[0];
	ck_assert_uint_eq(j->bs[DDIR_READ], 8192);
	ck_assert_uint_eq(j->iodepth, 4);
	ck_assert_uint_eq(j->rw, RW_WRITE);
	ck_assert_str_eq(j->description, "a");
	ck_assert_uint_eq(j->nr_job_options, 4);
	ck_assert_str_eq(j->job_options[1].key, "iodepth");
	ck_assert_str_eq(j->job_options[1].value, "4");
	job_list_release(&jl);
}
END_TEST

START_TEST(bom_and_stdin)
{
	struct job_list jl;
	char *dash[1] = { "-" };

	one_job(&jl, "\xef\xbb\xbf[a]\nbs=2k\n");
	ck_assert_uint_eq(jl.jobs[0].bs[DDIR_READ], 2048);
	job_list_release(&jl);

	/* "-" reads the job file from standard input, as fio does */
	ck_assert_ptr_nonnull(freopen(put("in.fio", "[from-stdin]\niodepth=3\n"), "r", stdin));
	ck_assert_int_eq(jobs_load(&jl, NULL, 0, dash, 1, err, sizeof(err)), 0);
	ck_assert_str_eq(jl.jobs[0].name, "from-stdin");
	ck_assert_uint_eq(jl.jobs[0].iodepth, 3);
	job_list_release(&jl);
}
END_TEST

START_TEST(bare_flags)
{
	struct job_list jl;
	struct job_spec *j;

	one_job(&jl, "[a]\ntime_based\nruntime=10\ngroup_reporting\nnorandommap=0\n"
		"stonewall=1\nnew_group\nzero_buffers\nrefill_buffers=1\nthread\n");
	j = &jl.jobs[0];
	ck_assert(j->time_based && j->group_reporting && j->stonewall && j->new_group);
	ck_assert(j->zero_buffers && j->refill_buffers);
	ck_assert(!j->norandommap);
	ck_assert_str_eq(j->job_options[0].key, "time_based");
	ck_assert_ptr_null(j->job_options[0].value);
	ck_assert_str_eq(j->job_options[3].value, "0");
	job_list_release(&jl);
}
END_TEST

START_TEST(include_nested_relative)
{
	struct job_list jl;
	struct job_spec *j;

	put("inc/one.fio", "; included\nbs=8k\ninclude two.fio\n");
	put("inc/two.fio", "iodepth=7  # nested, relative to inc/\n");
	one_job(&jl, "[a]\ninclude inc/one.fio\nrw=write\n");
	j = &jl.jobs[0];
	ck_assert_uint_eq(j->bs[DDIR_READ], 8192);
	ck_assert_uint_eq(j->iodepth, 7);
	ck_assert_uint_eq(j->rw, RW_WRITE);
	ck_assert_uint_eq(j->nr_job_options, 3);
	ck_assert_str_eq(j->job_options[0].key, "bs");
	ck_assert_str_eq(j->job_options[1].key, "iodepth");
	ck_assert_str_eq(j->job_options[2].key, "rw");
	job_list_release(&jl);
}
END_TEST

START_TEST(include_errors)
{
	char tail[512];

	load_fails("[a]\ninclude missing.fio\n", -ENOENT,
		   ":2: include 'missing.fio': No such file or directory");
	put("sect.fio", "bs=4k\n[b]\n");
	snprintf(tail, sizeof(tail), ":2: section '[b]' in an included file (included files "
		 "hold options only)");
	{
		/* the error names the included file and its line */
		char *files[1] = { (char *)put("job.fio", "[a]\ninclude sect.fio\n") };
		struct job_list jl;
		char want[1024];

		ck_assert_int_eq(jobs_load(&jl, NULL, 0, files, 1, err, sizeof(err)), -EINVAL);
		snprintf(want, sizeof(want), "%s/sect.fio%s", dir, tail);
		ck_assert_str_eq(err, want);
	}
	put("loop.fio", "include loop.fio\n");
	{
		char *files[1] = { (char *)put("job.fio", "[a]\ninclude loop.fio\n") };
		struct job_list jl;

		ck_assert_int_eq(jobs_load(&jl, NULL, 0, files, 1, err, sizeof(err)), -EINVAL);
		ck_assert_msg(strstr(err, "nested deeper than 16 (an include loop?)"), "%s", err);
	}
	load_fails("include x.fio\n[a]\n", -EINVAL,
		   ":1: option 'include x.fio' outside of a [section]");
}
END_TEST

START_TEST(env_expansion)
{
	struct job_list jl;
	struct job_spec *j;

	setenv("RB_TEST_BS", "16k", 1);
	unsetenv("RB_TEST_UNSET");
	one_job(&jl, "[a]\nbs=${RB_TEST_BS}\nfilename=/tmp/x${RB_TEST_UNSET}y\n"
		"description=$RB_TEST_BS\n");
	j = &jl.jobs[0];
	ck_assert_uint_eq(j->bs[DDIR_READ], 16384);
	ck_assert_str_eq(j->filenames[0], "/tmp/xy");
	ck_assert_str_eq(j->description, "$RB_TEST_BS");	/* bare $VAR stays */
	ck_assert_str_eq(j->job_options[0].value, "16k");	/* recorded expanded */
	job_list_release(&jl);

	load_fails("[a]\nbs=$RB_TEST_BS\n", -EINVAL,
		   ":2: option 'bs': bad size '$RB_TEST_BS' (expected a size such as 4k, 1m, 512)");
}
END_TEST

START_TEST(cmdline_defaults_under_first_file)
{
	struct cmd_opt opts[] = { { "bs", "64k" }, { "--iodepth", "2" }, { "time_based", NULL } };
	char *files[2] = { (char *)put("a.fio", "[global]\nbs=4k\n[a1]\n[a2]\niodepth=8\n"),
			   (char *)put("b.fio", "[b1]\n") };
	struct job_list jl;
	int ret;

	ret = jobs_load(&jl, opts, 3, files, 2, err, sizeof(err));
	ck_assert_msg(ret == 0, "%s", err);
	ck_assert_uint_eq(jl.nr, 3);
	/* the file's [global] wins over the command line's default */
	ck_assert_uint_eq(jl.jobs[0].bs[DDIR_READ], 4096);
	ck_assert_uint_eq(jl.jobs[0].iodepth, 2);
	ck_assert(jl.jobs[0].time_based == false);	/* no runtime: fio drops it */
	ck_assert_uint_eq(jl.jobs[1].iodepth, 8);
	/* the second file starts from fio's defaults */
	ck_assert_uint_eq(jl.jobs[2].bs[DDIR_READ], 4096);
	ck_assert_uint_eq(jl.jobs[2].iodepth, 1);
	ck_assert_uint_eq(jl.nr_global_options, 4);
	ck_assert_str_eq(jl.global_options[0].key, "bs");
	ck_assert_str_eq(jl.global_options[1].key, "iodepth");
	ck_assert_ptr_null(jl.global_options[2].value);
	ck_assert_str_eq(jl.global_options[3].value, "4k");
	job_list_release(&jl);
}
END_TEST

/* A profile's values give way to the user's: overrides win over [global] and the job's own. */
START_TEST(overrides_win_over_the_file)
{
	struct cmd_opt defs[] = { { "size", "64m" } };
	struct cmd_opt over[] = { { "runtime", "3" }, { "--blocksize", "8k" } };
	char *files[1] = { (char *)put("p.fio", "[global]\nruntime=2\ntime_based\nsize=1g\n"
					   "[a]\nbs=4k\n[b]\nruntime=9\n") };
	struct job_list jl;
	size_t k, n;
	int ret;

	ret = jobs_load_over(&jl, defs, 1, files, 1, over, 2, err, sizeof(err));
	ck_assert_msg(ret == 0, "%s", err);
	ck_assert_uint_eq(jl.nr, 2);
	ck_assert_uint_eq(jl.jobs[0].runtime_us, 3000000);
	ck_assert_uint_eq(jl.jobs[1].runtime_us, 3000000);
	ck_assert_uint_eq(jl.jobs[0].bs[DDIR_READ], 8192);
	ck_assert(jl.jobs[0].time_based);
	/* defaults stay underneath: the file's size wins over them */
	ck_assert_uint_eq(jl.jobs[0].size, 1ull << 30);
	/* said once among the globals; again, replacing its own, in a job that set it */
	for (k = n = 0; k < jl.jobs[0].nr_job_options; k++)
		if (!strcmp(jl.jobs[0].job_options[k].key, "bs")) {
			n++;
			ck_assert_str_eq(jl.jobs[0].job_options[k].value, "8k");
		}
	ck_assert_uint_eq(n, 1);
	for (k = n = 0; k < jl.jobs[1].nr_job_options; k++)
		if (!strcmp(jl.jobs[1].job_options[k].key, "runtime")) {
			n++;
			ck_assert_str_eq(jl.jobs[1].job_options[k].value, "3");
		}
	ck_assert_uint_eq(n, 1);
	for (k = n = 0; k < jl.nr_global_options; k++)
		if (!strcmp(jl.global_options[k].key, "runtime")) {
			n++;
			ck_assert_str_eq(jl.global_options[k].value, "3");
		}
	ck_assert_uint_eq(n, 1);
	job_list_release(&jl);
}
END_TEST

START_TEST(cmdline_jobs_and_implicit_stonewall)
{
	struct cmd_opt opts[] = { { "rw", "write" }, { "name", "c1" }, { "bs", "8k" },
				  { "--name", "c2" } };
	char *files[2] = { (char *)put("a.fio", "[a1]\n[a2]\n"),
			   (char *)put("b.fio", "[global]\nbs=2k\n[b1]\n[b2]\n") };
	struct job_list jl;
	int ret;

	ret = jobs_load(&jl, opts, 4, files, 2, err, sizeof(err));
	ck_assert_msg(ret == 0, "%s", err);
	ck_assert_uint_eq(jl.nr, 6);
	ck_assert_str_eq(jl.jobs[0].name, "c1");
	ck_assert_str_eq(jl.jobs[1].name, "c2");
	ck_assert_str_eq(jl.jobs[2].name, "a1");
	ck_assert_str_eq(jl.jobs[4].name, "b1");
	ck_assert_str_eq(jl.jobs[0].src_file, "<command line>");
	ck_assert_str_eq(jl.jobs[2].src_file, files[0]);
	ck_assert_uint_eq(jl.jobs[0].bs[DDIR_READ], 8192);
	ck_assert_uint_eq(jl.jobs[1].bs[DDIR_READ], 4096);
	ck_assert_uint_eq(jl.jobs[1].rw, RW_WRITE);	/* command-line globals */
	ck_assert_uint_eq(jl.jobs[2].rw, RW_WRITE);
	ck_assert_uint_eq(jl.jobs[4].rw, RW_READ);
	/* a command-line job echoes its name first, as fio's "job options" */
	ck_assert_uint_eq(jl.jobs[0].nr_job_options, 2);
	ck_assert_str_eq(jl.jobs[0].job_options[0].key, "name");
	ck_assert_str_eq(jl.jobs[0].job_options[1].key, "bs");
	/* command-line jobs share group 0 with the first file; b.fio opens group 1 */
	ck_assert_int_eq(jl.jobs[0].groupid, 0);
	ck_assert_int_eq(jl.jobs[3].groupid, 0);
	ck_assert(!jl.jobs[2].stonewall);
	ck_assert(jl.jobs[4].stonewall);
	ck_assert(!jl.jobs[5].stonewall);
	ck_assert_int_eq(jl.jobs[4].groupid, 1);
	ck_assert_int_eq(jl.jobs[5].groupid, 1);
	job_list_release(&jl);
}
END_TEST

START_TEST(cmdline_name_global)
{
	struct cmd_opt opts[] = { { "name", "a" }, { "name", "global" }, { "iodepth", "4" },
				  { "name", "b" } };
	struct job_list jl;

	ck_assert_msg(jobs_load(&jl, opts, 4, NULL, 0, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(jl.nr, 2);
	ck_assert_uint_eq(jl.jobs[0].iodepth, 1);
	ck_assert_uint_eq(jl.jobs[1].iodepth, 4);
	ck_assert_uint_eq(jl.nr_global_options, 1);
	job_list_release(&jl);
}
END_TEST

START_TEST(groups)
{
	struct job_list jl;
	static const int want[] = { 0, 0, 1, 2, 2, 3, 3 };
	size_t i;

	load_ok(&jl, "[a]\nstonewall\n[b]\n[c]\nstonewall\n[d]\nnew_group\n[e]\n"
		"[f]\nwait_for_previous\n[g]\n", NULL, 0);
	ck_assert_uint_eq(jl.nr, 7);
	for (i = 0; i < jl.nr; i++)
		ck_assert_int_eq(jl.jobs[i].groupid, want[i]);
	job_list_release(&jl);
}
END_TEST

START_TEST(no_jobs_and_missing_files)
{
	struct job_list jl;
	char *files[1] = { (char *)put("g.fio", "[global]\nbs=4k\n") };
	char *missing[1] = { "/nonexistent/raidbench-none.fio" };
	struct cmd_opt opts[] = { { "bs", "4k" } };

	ck_assert_int_eq(jobs_load(&jl, NULL, 0, NULL, 0, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "no jobs defined (give a job file with a [job] section, or --name=)");
	ck_assert_int_eq(jobs_load(&jl, opts, 1, NULL, 0, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(jobs_load(&jl, NULL, 0, files, 1, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "no jobs defined (give a job file with a [job] section, or --name=)");
	ck_assert_ptr_null(jl.global_options);
	ck_assert_int_eq(jobs_load(&jl, NULL, 0, missing, 1, err, sizeof(err)), -ENOENT);
	ck_assert_str_eq(err, "/nonexistent/raidbench-none.fio: No such file or directory");
}
END_TEST

START_TEST(error_messages)
{
	char have[512], tail[1024];

	/* a number too large for its field is out of range, not "not a number" */
	load_fails("[a]\niodepth=99999999999999999999\n", -EINVAL,
		   ":2: option 'iodepth': '99999999999999999999' is out of range (expected at least 1)");
	load_fails("[a]\nrwmixread=99999999999999999999\n", -EINVAL,
		   ":2: option 'rwmixread': '99999999999999999999' is out of range (expected 0 to 100)");
	load_fails("[a]\nsize=99999999999999999999\n", -EINVAL,
		   ":2: option 'size': '99999999999999999999' is out of range (too large for a size "
		   "in bytes)");
	load_fails("[a]\nruntime=99999999999999999999\n", -EINVAL,
		   ":2: option 'runtime': '99999999999999999999' is out of range (too large for a "
		   "time in microseconds)");
	load_fails("[a]\nbs=16777216t\n", -EINVAL,
		   ":2: option 'bs': '16777216t' is out of range (too large for a size in bytes)");
	load_fails("[a]\n\nbs=x4k\n", -EINVAL,
		   ":3: option 'bs': bad size 'x4k' (expected a size such as 4k, 1m, 512)");
	load_fails("[a]\nrw=read\n\n\nblocksz=4k\n", -EINVAL,
		   ":5: unknown option 'blocksz' (did you mean 'blocksize'?)");
	load_fails("[a]\niodpeth=4\n", -EINVAL,
		   ":2: unknown option 'iodpeth' (did you mean 'iodepth'?)");
	load_fails("[a]\nfrobnicate=1\n", -EINVAL, ":2: unknown option 'frobnicate'");
	load_fails("[a]\nzonemode=zns\n", -EINVAL,
		   ":2: option 'zonemode': bad value 'zns' (expected none, strided or zbd)");
	load_fails("[a]\nread_iolog=x.log\n", -EINVAL,
		   ":2: option 'read_iolog' is a fio option raidbench does not support: "
		   "raidbench does not replay fio iologs or blktraces");
	load_fails("[a]\nlatency_percentile=0\n", -EINVAL,
		   ":2: option 'latency_percentile': bad percentile '0' (expected a number above "
		   "0, at most 100)");
	engine_names(have, sizeof(have));
	snprintf(tail, sizeof(tail), ":2: option 'ioengine': 'vsync' is a fio ioengine raidbench "
		 "does not support: raidbench does not have this engine yet (supported: %s)", have);
	load_fails("[a]\nioengine=vsync\n", -EINVAL, tail);
	snprintf(tail, sizeof(tail), ":2: option 'ioengine': 'rdma' is a fio ioengine raidbench "
		 "does not support: it needs a cluster or service client (GlusterFS, Ceph, HDFS, "
		 "NFS, RDMA, HTTP) raidbench does not drive; its network engines are net, nbd and "
		 "libiscsi (supported: %s)", have);
	load_fails("[a]\nioengine=rdma\n", -EINVAL, tail);
	load_fails("[a]\nverb=read\n", -EINVAL,
		   ":2: option 'verb' belongs to fio's rdma engine, which raidbench does not "
		   "run");
	/* an engine's own refusals name the job's section and the option */
	load_fails("[a]\nioengine=net\nprotocol=udp\nport=9\nlisten\nsize=1m\n", -EINVAL,
		   ":1: job 'a': ioengine=net: option 'listen' is for protocol=tcp only (a udp "
		   "reader always listens)");
	load_fails("[a]\nioengine=exec\nruntime=1\n", -EINVAL,
		   ":1: job 'a': ioengine=exec needs program= (the command to run)");
	snprintf(tail, sizeof(tail), ":2: option 'ioengine': unknown ioengine 'spdk' "
		 "(supported: %s)", have);
	load_fails("[a]\nioengine=spdk\n", -EINVAL, tail);
	load_fails("bs=4k\n[a]\n", -EINVAL, ":1: option 'bs=4k' outside of a [section]");
	load_fails("[a]\nrwmixread=101\n", -EINVAL,
		   ":2: option 'rwmixread': '101' is out of range (expected 0 to 100)");
	load_fails("[a]\niodepth=0\n", -EINVAL,
		   ":2: option 'iodepth': '0' is out of range (expected at least 1)");
	load_fails("[a]\nnumjobs=0\n", -EINVAL,
		   ":2: option 'numjobs': '0' is out of range (expected at least 1)");
	load_fails("[a]\nbs=0\n", -EINVAL,
		   ":2: option 'bs': '0' is out of range (expected at least 1)");
	load_fails("[a]\nbssplit=4k/50:8k/40\n", -EINVAL,
		   ":2: option 'bssplit': percentages add up to 90 (must be 100) (for read)");
	load_fails("[a]\nverify=sha257\n", -EINVAL,
		   ":2: option 'verify': bad value 'sha257' (expected 0, none, crc32c, "
		   "crc32c-intel or md5)");
	load_fails("[a]\nio_submit_mode=later\n", -EINVAL,
		   ":2: option 'io_submit_mode': bad value 'later' (expected one of "
		   "inline|offload)");
	load_fails("[a]\nrandom_distribution=zoned:50/5:30/15\n", -EINVAL,
		   ":2: option 'random_distribution': zone access percentages in "
		   "'zoned:50/5:30/15' add up to 80, not 100");
	load_fails("[a]\nrw=randread:-8k\n", -EINVAL,
		   ":2: option 'rw': bad suffix in 'randread:-8k' (a random pattern takes a "
		   "count of I/Os per offset, not a negative number)");
	load_fails("[a]\ndirect\n", -EINVAL, ":2: option 'direct' needs a value");
	load_fails("[a]\nbs=\n", -EINVAL, ":2: option 'bs' needs a value");
	load_fails("[a]\ndirect=yes\n", -EINVAL, ":2: option 'direct': bad value 'yes' (expected 0 or 1)");
	load_fails("[a]\nruntime=10sec\n", -EINVAL,
		   ":2: option 'runtime': bad time '10sec' (expected a whole number with an "
		   "optional unit us, ms, s, m, h or d; a bare number is seconds)");
	load_fails("[a]\nnice=20\n", -EINVAL, ":2: option 'nice': '20' is out of range (expected -20 to 19)");
	load_fails("[a]\nsync=always\n", -EINVAL,
		   ":2: option 'sync': bad value 'always' (expected none, 0, sync, 1 or dsync)");
	load_fails("[a]\nkb_base=2000\n", -EINVAL,
		   ":2: option 'kb_base': bad value '2000' (expected 1024 or 1000)");
	load_fails("[a\nbs=4k\n", -EINVAL, ":1: bad section header '[a' (expected [name])");
	load_fails("[ ]\n", -EINVAL, ":1: empty section name '[]'");
	load_fails("[a]\n=4k\n", -EINVAL, ":2: missing option name in '=4k'");
	load_fails("[a]\nio_size=20%\n", -EINVAL,
		   ":2: option 'io_size': bad size '20%' (expected a size such as 4k, 1m, 512)");
	load_fails("[a]\nrate=1m\nrate_iops=100\n", -EINVAL,
		   ":1: job 'a': options 'rate' and 'rate_iops' are mutually exclusive");
	load_fails("[a]\nsize=2k\n", -EINVAL,
		   ":1: job 'a': size 2048 is smaller than the block size 4096");
	/* the error stops the load even after good jobs */
	load_fails("[a]\n[b]\ncpus_allowed=3-1\n", -EINVAL,
		   ":3: option 'cpus_allowed': bad CPU range 3-1 (the first CPU must come first)");
}
END_TEST

/* fio 3.33's options the examples use: taken, with fio's meaning where raidbench has it */
START_TEST(fio_example_options)
{
	struct job_list jl;
	struct job_spec *j;
	char *notes;

	one_job(&jl, "[a]\nrw=read:-8k\nnumber_ios=10\noffset_increment=1m\n"
		"zonemode=strided\nzonesize=256m\nzoneskip=2g\nzonerange=512m\n"
		"random_distribution=zoned:50/5:30/15:20/\ncpumask=0x3\n"
		"percentage_sequential=30\nbsrange=512/25:1k:25:2k:25:4k/25\n"
		"verify=sha256\nverify_backlog=1m\ngtod_reduce=1\nthreads=1\n"
		"io_submit_mode=offload\nflow=2\nbuffer_pattern=0xdeadface\n");
	j = &jl.jobs[0];
	ck_assert_int_eq(j->rw_gap, -8192);
	ck_assert_uint_eq(j->number_ios, 10);
	ck_assert_uint_eq(j->offset_increment, 1 << 20);
	ck_assert(j->zone_strided);
	ck_assert_uint_eq(j->zonesize, 256ull << 20);
	ck_assert_uint_eq(j->zoneskip, 2ull << 30);
	ck_assert_uint_eq(j->zonerange, 512ull << 20);
	ck_assert_uint_eq(j->nr_dzones, 3);
	ck_assert_uint_eq(j->dzones[2].access, 20);
	ck_assert_uint_eq(j->dzones[2].size, 80);	/* the blank size takes the rest */
	ck_assert(j->norandommap);			/* non-uniform: no random map, as fio */
	ck_assert(j->has_cpus_allowed);
	ck_assert_int_eq(CPU_COUNT(&j->cpus_allowed), 2);
	ck_assert_uint_eq(j->percentage_random[DDIR_READ], 70);
	ck_assert_uint_eq(j->bs[DDIR_READ], 512);	/* fio reads it as 512-1k */
	ck_assert_uint_eq(j->bs_max[DDIR_READ], 1024);
	ck_assert_int_eq(j->verify, VERIFY_CRC32C);
	/* where the effect differs, the notes say so, naming job and option */
	notes = jobs_notes(&jl);
	ck_assert_ptr_nonnull(notes);
	ck_assert_ptr_nonnull(strstr(notes, "job 'a': option 'verify': blocks carry raidbench's "
				     "own verify header (crc32c)"));
	ck_assert_ptr_nonnull(strstr(notes, "job 'a': option 'gtod_reduce': "));
	ck_assert_ptr_nonnull(strstr(notes, "job 'a': option 'io_submit_mode': "));
	ck_assert_ptr_null(strstr(notes, "'flow'"));	/* honoured since flow control exists */
	ck_assert_ptr_nonnull(strstr(notes, "job 'a': option 'bsrange': read as fio does"));
	ck_assert_ptr_null(strstr(notes, "'number_ios'"));	/* honoured: nothing to say */
	free(notes);
	job_list_release(&jl);

	/* a sequential gap stays a byte gap; a random :N is not a gap */
	one_job(&jl, "[a]\nrw=write:4k\n");
	ck_assert_int_eq(jl.jobs[0].rw_gap, 4096);
	job_list_release(&jl);
	/* fio's verify_interval fixup: at most the smallest write, a factor of all of them */
	one_job(&jl, "[a]\nrw=write\nbs=512\nverify=md5\nverify_interval=1m\n");
	ck_assert_uint_eq(job_verify_interval(&jl.jobs[0]), 512);
	job_list_release(&jl);
	one_job(&jl, "[a]\nrw=write\nbssplit=64k/20:4k/50:16k/30\nverify=md5\n");
	ck_assert_uint_eq(job_verify_interval(&jl.jobs[0]), 4096);
	job_list_release(&jl);
	one_job(&jl, "[a]\nrw=write\nbsrange=3k-10k\nverify=md5\n");
	ck_assert_uint_eq(job_verify_interval(&jl.jobs[0]), 1024);
	job_list_release(&jl);
	/* the section names the job, not a name= among the globals (fio's jobname) */
	load_ok(&jl, "[global]\nname=glob\n[file1]\n[file2]\nname=own\n", NULL, 0);
	ck_assert_str_eq(jl.jobs[0].name, "file1");
	ck_assert_str_eq(jl.jobs[1].name, "own");
	job_list_release(&jl);
	one_job(&jl, "[a]\nrw=randread:8\n");
	ck_assert_int_eq(jl.jobs[0].rw_gap, 0);
	notes = jobs_notes(&jl);
	ck_assert_str_eq(notes, "");
	free(notes);
	job_list_release(&jl);
}
END_TEST

/*
 * Every option fio 3.33 documents (tests/fixtures/fio-3.33-options.txt, from
 * its HOWTO) is taken, or refused naming why: never "unknown option".
 */
START_TEST(fio_documented_options)
{
	char path[PATH_MAX], line[512], text[256];
	const char *f = fixture("x"), *src = getenv("SRCDIR");
	FILE *in;
	unsigned names = 0, taken = 0;

	if (src)
		snprintf(path, sizeof(path), "%s/tests/fixtures/fio-3.33-options.txt", src);
	else
		snprintf(path, sizeof(path), "%.*sfio-3.33-options.txt",
			 (int)(strstr(f, "jobs/x") - f), f);
	in = fopen(path, "r");
	ck_assert_msg(in != NULL, "%s: cannot open", path);
	while (fgets(line, sizeof(line), in)) {
		char kind[16], list[256], *name, *save = NULL;

		if (line[0] == '#' || sscanf(line, "%15s %255s", kind, list) != 2)
			continue;
		for (name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
			struct job_list jl;
			char *files[1];
			int ret;

			names++;
			ck_assert_msg(option_is_job_option(name), "fio's '%s' is not known", name);
			snprintf(text, sizeof(text), "[a]\n%s=1\n", name);
			files[0] = (char *)put("job.fio", text);
			ret = jobs_load(&jl, NULL, 0, files, 1, err, sizeof(err));
			if (!ret) {
				taken++;
				job_list_release(&jl);
				continue;
			}
			/* a bad value "1" is fine; an unexplained refusal is not */
			ck_assert_msg(!strstr(err, "unknown option") &&
				      (!strstr(err, "does not support") || strstr(err, "support:") ||
				       strstr(err, "ioengine")), "%s: %s", name, err);
		}
	}
	fclose(in);
	ck_assert_uint_gt(names, 300);
	ck_assert_uint_gt(taken, 150);
}
END_TEST

START_TEST(cmdline_errors)
{
	struct cmd_opt bad[] = { { "bs", "x" } };
	struct cmd_opt noname[] = { { "name", NULL } };
	struct cmd_opt typo[] = { { "name", "j" }, { "--runtmie", "5" } };
	struct job_list jl;

	ck_assert_int_eq(jobs_load(&jl, bad, 1, NULL, 0, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "command line: option 'bs': bad size 'x' (expected a size such "
			 "as 4k, 1m, 512)");
	ck_assert_int_eq(jobs_load(&jl, noname, 1, NULL, 0, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "command line: option 'name' needs a value");
	ck_assert_int_eq(jobs_load(&jl, typo, 2, NULL, 0, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "command line: unknown option 'runtmie' (did you mean 'runtime'?)");
}
END_TEST

START_TEST(err_untouched_on_success)
{
	struct cmd_opt opts[] = { { "name", "x" }, { "ioengine", "null" } };
	struct job_list jl;

	strcpy(err, "sentinel");
	ck_assert_int_eq(jobs_load(&jl, opts, 2, NULL, 0, err, sizeof(err)), 0);
	ck_assert_str_eq(err, "sentinel");
	ck_assert_str_eq(jl.jobs[0].ioengine, "null");
	job_list_release(&jl);
}
END_TEST

START_TEST(kb_base_first)
{
	struct job_list jl;

	/* fio parses kb_base before the section's other options */
	one_job(&jl, "[a]\nbs=4k\nkb_base=1000\nsize=1MiB\n");
	ck_assert_uint_eq(jl.jobs[0].bs[DDIR_READ], 4000);
	ck_assert_uint_eq(jl.jobs[0].size, 1048576);
	ck_assert_str_eq(jl.jobs[0].job_options[0].key, "bs");	/* still in typed order */
	job_list_release(&jl);

	load_ok(&jl, "[global]\nkb_base=1000\n[a]\nbs=8k\n", NULL, 0);
	ck_assert_uint_eq(jl.jobs[0].bs[DDIR_READ], 8000);
	job_list_release(&jl);
}
END_TEST

START_TEST(per_direction_values)
{
	struct job_list jl;
	struct job_spec *j;

	load_ok(&jl, "[a]\nbs=8k,32k\n[b]\nbs=,8k\n[c]\nbs=4k-16k\n[d]\nbsrange=4k-16k\n"
		"[e]\nbssplit=4k/10:64k/50:32k/40,8k\n[f]\nrate=1m,500k\n[g]\nrate_iops=,,5\n"
		"[h]\nbsrange=4k-16k,2k-8k\nbs=8k\n[i]\nbssplit=4k/50:16k/50\nbs=8k\nbsrange=,1k-2k\n",
		NULL, 0);
	j = &jl.jobs[0];
	ck_assert_uint_eq(j->bs[DDIR_READ], 8192);
	ck_assert_uint_eq(j->bs[DDIR_WRITE], 32768);
	ck_assert_uint_eq(j->bs[DDIR_TRIM], 32768);
	j = &jl.jobs[1];
	ck_assert_uint_eq(j->bs[DDIR_READ], 4096);
	ck_assert_uint_eq(j->bs[DDIR_WRITE], 8192);
	ck_assert_uint_eq(j->bs[DDIR_TRIM], 8192);
	j = &jl.jobs[2];	/* fio 3.33's quirk: not a range */
	ck_assert_uint_eq(j->bs[DDIR_READ], 4096);
	ck_assert_uint_eq(j->bs_max[DDIR_READ], 4096);
	ck_assert_uint_eq(j->bs[DDIR_WRITE], 16384);
	ck_assert_uint_eq(j->bs_max[DDIR_TRIM], 16384);
	j = &jl.jobs[3];
	ck_assert_uint_eq(j->bs[DDIR_WRITE], 4096);
	ck_assert_uint_eq(j->bs_max[DDIR_WRITE], 16384);
	j = &jl.jobs[4];
	ck_assert_uint_eq(j->nr_bssplit[DDIR_READ], 3);
	ck_assert_uint_eq(j->bs[DDIR_READ], 4096);
	ck_assert_uint_eq(j->bs_max[DDIR_READ], 65536);
	ck_assert_uint_eq(j->bssplit[DDIR_READ][2].bs, 65536);
	ck_assert_uint_eq(j->nr_bssplit[DDIR_TRIM], 1);
	ck_assert_uint_eq(j->bssplit[DDIR_WRITE][0].bs, 8192);
	ck_assert_uint_eq(j->bssplit[DDIR_WRITE][0].perc, 100);
	j = &jl.jobs[5];
	ck_assert_uint_eq(j->rate[DDIR_READ], 1048576);
	ck_assert_uint_eq(j->rate[DDIR_TRIM], 512000);
	j = &jl.jobs[6];
	ck_assert_uint_eq(j->rate_iops[DDIR_READ], 0);
	ck_assert_uint_eq(j->rate_iops[DDIR_TRIM], 5);
	j = &jl.jobs[7];	/* as fio: bs= only where bsrange=/bssplit= set no bounds, in any order */
	ck_assert_uint_eq(j->bs[DDIR_READ], 4096);
	ck_assert_uint_eq(j->bs_max[DDIR_READ], 16384);
	ck_assert_uint_eq(j->bs[DDIR_TRIM], 2048);
	ck_assert_uint_eq(j->bs_max[DDIR_TRIM], 8192);
	j = &jl.jobs[8];
	ck_assert_uint_eq(j->nr_bssplit[DDIR_READ], 2);
	ck_assert_uint_eq(j->bs[DDIR_READ], 4096);
	ck_assert_uint_eq(j->bs_max[DDIR_READ], 16384);
	ck_assert_uint_eq(j->nr_bssplit[DDIR_WRITE], 2);	/* the range bounds the split */
	ck_assert_uint_eq(j->bs[DDIR_WRITE], 1024);
	ck_assert_uint_eq(j->bs_max[DDIR_WRITE], 2048);
	job_list_release(&jl);

	one_job(&jl, "[a]\nrw=randrw\npercentage_random=50,20\nba=4k\nbs=8k\n");
	j = &jl.jobs[0];
	ck_assert_uint_eq(j->percentage_random[DDIR_READ], 50);
	ck_assert_uint_eq(j->percentage_random[DDIR_WRITE], 20);
	ck_assert_uint_eq(j->percentage_random[DDIR_TRIM], 20);
	ck_assert_uint_eq(j->ba[DDIR_WRITE], 4096);
	ck_assert(j->norandommap);	/* "Any use of blockalign= turns off randommap" */
	job_list_release(&jl);
}
END_TEST

START_TEST(rw_and_mix)
{
	struct job_list jl;

	load_ok(&jl, "[a]\nrw=randrw\nrwmixread=30\nrwmixwrite=20\n"
		"[b]\nreadwrite=rw\nrwmixwrite=20\nrwmixread=30\n[c]\nrw=randread:8\n", NULL, 0);
	ck_assert_uint_eq(jl.jobs[0].rw, RW_READ | RW_WRITE | RW_RANDOM);
	ck_assert_uint_eq(jl.jobs[0].rwmixread, 80);	/* the later one wins */
	ck_assert_uint_eq(jl.jobs[1].rw, RW_READ | RW_WRITE);
	ck_assert_uint_eq(jl.jobs[1].rwmixread, 30);
	ck_assert_uint_eq(jl.jobs[2].rw_nr, 8);
	/* a random pattern's :N is I/Os per random offset: 1 without it, 0 never */
	ck_assert_uint_eq(jl.jobs[0].rw_seq_nr, 1);
	ck_assert_uint_eq(jl.jobs[2].rw_seq_nr, 8);
	ck_assert_int_eq(jl.jobs[2].rw_sequencer, RW_SEQ_SEQUENTIAL);
	job_list_release(&jl);
	load_ok(&jl, "[a]\nrw=randrw:0\nrw_sequencer=identical\n[b]\nrw=write:8\n", NULL, 0);
	ck_assert_uint_eq(jl.jobs[0].rw_seq_nr, 0);
	ck_assert_int_eq(jl.jobs[0].rw_sequencer, RW_SEQ_IDENTICAL);
	ck_assert_uint_eq(jl.jobs[1].rw_seq_nr, 1);
	ck_assert_int_eq(jl.jobs[1].rw_gap, 8);
	job_list_release(&jl);
}
END_TEST

START_TEST(sizes_times_and_places)
{
	struct job_list jl;
	struct job_spec *j;

	one_job(&jl, "[a]\nsize=20%\noffset=10%\nio_size=1g\nfilesize=64m\nnr_files=4\n"
		"runtime=1m\nramp_time=500ms\nthinktime=100\nthinktime_spin=200\n"
		"startdelay=2\nfilename=a\\:b:/dev/sdb\ndirectory=/d1:/d2\n"
		"cpus_allowed=0,5,8-15\ncpus_allowed_policy=split\nnuma_cpu_nodes=0-1\n"
		"numa_mem_policy=bind:0-1\nnice=-20\nloops=0\nrandseed=1234\nrandrepeat=0\n"
		"random_distribution=normal:10:0.25\n");
	j = &jl.jobs[0];
	ck_assert_uint_eq(j->size, 0);
	ck_assert_uint_eq(j->size_percent, 20);
	ck_assert_uint_eq(j->offset_percent, 10);
	ck_assert_uint_eq(j->io_size, 1073741824);
	ck_assert_uint_eq(j->filesize, 67108864);
	ck_assert_uint_eq(j->nrfiles, 4);
	ck_assert_uint_eq(j->runtime_us, 60000000);
	ck_assert_uint_eq(j->ramp_time_us, 500000);
	ck_assert_uint_eq(j->thinktime_us, 100);
	ck_assert_uint_eq(j->thinktime_spin_us, 100);	/* capped at thinktime */
	ck_assert_uint_eq(j->startdelay_us, 2000000);
	ck_assert_uint_eq(j->nr_filenames, 2);
	ck_assert_str_eq(j->filenames[0], "a:b");
	ck_assert_str_eq(j->filenames[1], "/dev/sdb");
	ck_assert_ptr_null(j->filenames[2]);
	ck_assert_uint_eq(j->nr_directories, 2);
	ck_assert_str_eq(j->directories[1], "/d2");
	ck_assert(j->has_cpus_allowed && j->cpus_allowed_split);
	ck_assert_int_eq(CPU_COUNT(&j->cpus_allowed), 10);
	ck_assert_str_eq(j->numa_cpu_nodes, "0-1");
	ck_assert_str_eq(j->numa_mem_policy, "bind:0-1");
	ck_assert_int_eq(j->nice, -20);
	ck_assert_uint_eq(j->loops, 1);
	ck_assert_uint_eq(j->randseed, 1234);
	/* fio seeds from randseed whenever it is given, randrepeat=0 or not */
	ck_assert(j->randseed_set);
	ck_assert_int_eq(j->random_distribution, DIST_NORMAL);
	ck_assert_double_eq_tol(j->dist_param, 10, 1e-12);
	ck_assert_double_eq_tol(j->dist_center, 0.25, 1e-12);
	ck_assert(j->norandommap);
	job_list_release(&jl);
}
END_TEST

START_TEST(fio_fixups)
{
	struct job_list jl;
	struct job_spec *j;

	load_ok(&jl, "[a]\niodepth=32\n[b]\niodepth=32\niodepth_low=4\niodepth_batch=8\n"
		"iodepth_batch_complete=4\n[c]\niodepth=2\niodepth_batch_submit=0\n"
		"iodepth_low=9\n[d]\nverify=md5\nwrite_bw_log\nwrite_lat_log=lat\n"
		"[e]\nverify=crc32c\nrefill_buffers=0\n[f]\nname=renamed\nwrite_iops_log\n", NULL, 0);
	j = &jl.jobs[0];
	ck_assert_uint_eq(j->iodepth_low, 32);
	/* not given: submit and reap whatever is ready, up to the depth, per call */
	ck_assert_uint_eq(j->iodepth_batch_submit, 32);
	ck_assert_uint_eq(j->iodepth_batch_complete_min, 1);
	ck_assert_uint_eq(j->iodepth_batch_complete_max, 32);
	ck_assert(j->uring_fixedbufs && !j->uring_fixedbufs_given);
	j = &jl.jobs[1];
	ck_assert_uint_eq(j->iodepth_low, 4);
	ck_assert_uint_eq(j->iodepth_batch_submit, 8);
	ck_assert_uint_eq(j->iodepth_batch_complete_min, 4);
	ck_assert_uint_eq(j->iodepth_batch_complete_max, 32);
	j = &jl.jobs[2];
	ck_assert_uint_eq(j->iodepth_batch_submit, 2);
	ck_assert_uint_eq(j->iodepth_low, 2);
	j = &jl.jobs[3];
	ck_assert_int_eq(j->verify, VERIFY_MD5);
	ck_assert(j->refill_buffers);
	ck_assert_str_eq(j->write_bw_log, "d");	/* bare: named after the job */
	ck_assert_str_eq(j->write_lat_log, "lat");
	ck_assert_ptr_null(j->write_iops_log);
	ck_assert(!jl.jobs[4].refill_buffers);
	ck_assert_str_eq(jl.jobs[5].name, "renamed");
	ck_assert_str_eq(jl.jobs[5].write_iops_log, "renamed");
	job_list_release(&jl);
	/* given, fio's rules hold: one per call, max raised to min */
	load_ok(&jl, "[a]\niodepth=32\niodepth_batch=1\niodepth_batch_complete_max=1\n"
		"fixedbufs\n[b]\niodepth=16\niodepth_batch_complete_min=4\n"
		"iodepth_batch_complete_max=2\nfixedbufs=0\nsqthread_poll\nsqthread_poll_cpu=1\nhipri\n",
		NULL, 0);
	j = &jl.jobs[0];
	ck_assert_uint_eq(j->iodepth_batch_submit, 1);
	ck_assert_uint_eq(j->iodepth_batch_complete_max, 1);
	ck_assert(j->uring_fixedbufs && j->uring_fixedbufs_given);
	ck_assert(!j->uring_sqpoll && !j->uring_hipri);
	ck_assert_uint_eq(j->uring_sqpoll_cpu, UINT_MAX);
	j = &jl.jobs[1];
	ck_assert_uint_eq(j->iodepth_batch_complete_max, 4);
	ck_assert(!j->uring_fixedbufs && !j->uring_fixedbufs_given);
	ck_assert(j->uring_sqpoll && j->uring_hipri);
	ck_assert_uint_eq(j->uring_sqpoll_cpu, 1);
	job_list_release(&jl);
}
END_TEST

/* file_service_type=: fio's words, counts and distributions; anything else is refused */
START_TEST(file_service_type)
{
	struct job_list jl;
	struct job_spec *j;

	load_ok(&jl, "[a]\n[b]\nfile_service_type=roundrobin:4\n[c]\nfile_service_type=sequential\n"
		"[d]\nfile_service_type=random: 3\n[e]\nfile_service_type=zipf\n"
		"[f]\nfile_service_type=pareto:0.3:0.5\n[g]\nfile_service_type=gauss:5\n"
		"[h]\nfile_service_type=roundrobin:0\n", NULL, 0);
	ck_assert_uint_eq(jl.nr, 8);
	j = jl.jobs;
	ck_assert_int_eq(j[0].file_service, FSVC_ROUNDROBIN);
	ck_assert_uint_eq(j[0].file_service_nr, 1);
	ck_assert_int_eq(j[1].file_service, FSVC_ROUNDROBIN);
	ck_assert_uint_eq(j[1].file_service_nr, 4);
	ck_assert_int_eq(j[2].file_service, FSVC_SEQUENTIAL);
	ck_assert_int_eq(j[3].file_service, FSVC_RANDOM);
	ck_assert_uint_eq(j[3].file_service_nr, 3);
	/* fio's default theta, no center */
	ck_assert_int_eq(j[4].file_service, FSVC_ZIPF);
	ck_assert_double_eq_tol(j[4].fs_param, 1.1, 1e-12);
	ck_assert_double_eq_tol(j[4].fs_center, -1, 1e-12);
	ck_assert_int_eq(j[5].file_service, FSVC_PARETO);
	ck_assert_double_eq_tol(j[5].fs_param, 0.3, 1e-12);
	ck_assert_double_eq_tol(j[5].fs_center, 0.5, 1e-12);
	ck_assert_int_eq(j[6].file_service, FSVC_NORMAL);
	ck_assert_double_eq_tol(j[6].fs_param, 5, 1e-12);
	/* fio holds the file to its end then (its count of I/Os left wraps) */
	ck_assert_uint_eq(j[7].file_service_nr, 0);
	/* the offsets' distribution is another option */
	ck_assert_int_eq(j[4].random_distribution, DIST_RANDOM);
	job_list_release(&jl);

	load_fails("[a]\nfile_service_type=bogus\n", -EINVAL,
		   ":2: option 'file_service_type': bad value 'bogus' (expected roundrobin[:N], "
		   "sequential, random[:N], zipf[:theta], pareto[:h] or normal[:sigma], the last "
		   "three with an optional :center)");
	load_fails("[a]\nfile_service_type=random:4k\n", -EINVAL,
		   ":2: option 'file_service_type': bad count in 'random:4k' (expected random:N, "
		   "N a whole number of I/Os)");
	load_fails("[a]\nfile_service_type=roundrobin:-1\n", -EINVAL,
		   ":2: option 'file_service_type': bad count in 'roundrobin:-1' (expected "
		   "roundrobin:N, N a whole number of I/Os)");
	load_fails("[a]\nfile_service_type=zipf:1\n", -EINVAL,
		   ":2: option 'file_service_type': zipf theta must not be 1.0 in 'zipf:1'");
	load_fails("[a]\nfile_service_type=pareto:x\n", -EINVAL,
		   ":2: option 'file_service_type': bad value 'pareto:x' (expected "
		   "pareto:number[:center])");
}
END_TEST

START_TEST(misc_options)
{
	struct job_list jl;
	struct job_spec *j;

	one_job(&jl, "[a]\ndescription=\"Big block reads\"\nbuffered=0\nsync=dsync\nfsync=8\n"
		"fdatasync=2\nend_fsync=1\ninvalidate=0\ncontinue_on_error=io\n"
		"verify=crc32c-intel\ndo_verify=0\nverify_fatal=1\npercentile_list=99.9:50\n"
		"clat_percentiles=0\nlat_percentiles=1\nslat_percentiles=1\nlog_avg_msec=1000\n"
		"bwavgtime=250\niopsavgtime=100\nscramble_buffers=0\nflow_id=3\nioengine=io_uring\n"
		"random_generator=lfsr\nverify_only\n");
	j = &jl.jobs[0];
	ck_assert_str_eq(j->description, "Big block reads");
	ck_assert_str_eq(j->job_options[0].value, "\"Big block reads\"");	/* as typed */
	ck_assert(j->direct && j->end_fsync && !j->invalidate);
	ck_assert_int_eq(j->sync, SYNC_DSYNC);
	ck_assert_uint_eq(j->fsync_blocks, 8);
	ck_assert_uint_eq(j->fdatasync_blocks, 2);
	ck_assert_uint_eq(j->continue_on_error, COE_IO);
	ck_assert_int_eq(j->verify, VERIFY_CRC32C);
	ck_assert(!j->do_verify && j->verify_fatal && j->verify_only);
	ck_assert_uint_eq(j->nr_percentiles, 2);
	ck_assert_double_eq_tol(j->percentiles[0], 50, 1e-9);
	ck_assert(!j->clat_percentiles && j->lat_percentiles && j->slat_percentiles);
	ck_assert_uint_eq(j->log_avg_msec, 1000);
	ck_assert_uint_eq(j->bwavgtime_ms, 250);
	ck_assert_uint_eq(j->iopsavgtime_ms, 100);
	ck_assert(!j->scramble_buffers);
	ck_assert_str_eq(j->ioengine, "io_uring");
	job_list_release(&jl);
}
END_TEST

START_TEST(copy_is_deep)
{
	struct job_list jl;
	struct job_spec c;

	one_job(&jl, "[a]\nfilename=/x:/y\ndescription=d\nwrite_bw_log=bw\nioengine=psync\n"
		"numa_mem_policy=local\nnuma_cpu_nodes=0\n");
	ck_assert_int_eq(job_spec_copy(&c, &jl.jobs[0]), 0);
	ck_assert_ptr_ne(c.filenames, jl.jobs[0].filenames);
	ck_assert_ptr_ne(c.filenames[1], jl.jobs[0].filenames[1]);
	ck_assert_str_eq(c.filenames[1], "/y");
	ck_assert_ptr_ne(c.job_options, jl.jobs[0].job_options);
	ck_assert_str_eq(c.job_options[5].key, "numa_cpu_nodes");
	ck_assert_str_eq(c.ioengine, "psync");
	c.filenames[0][0] = 'Z';
	ck_assert_str_eq(jl.jobs[0].filenames[0], "/x");
	job_list_release(&jl);
	ck_assert_str_eq(c.write_bw_log, "bw");
	job_spec_release(&c);
	ck_assert_ptr_null(c.name);
	/* an engine string of someone else's is copied and freed, not shared */
	job_spec_defaults(&c);
	c.ioengine = strdup("null");
	{
		struct job_spec d;

		ck_assert_int_eq(job_spec_copy(&d, &c), 0);
		ck_assert_ptr_ne(d.ioengine, c.ioengine);
		job_spec_release(&d);
	}
	job_spec_release(&c);
}
END_TEST

START_TEST(showcmd)
{
	struct job_list jl;
	char *cmd;

	load_ok(&jl, "[global]\nioengine=null\nsize=4m\nbs=4k\n[j1]\nrw=read\n"
		"[j2]\nrw=read\nbs=8k\n", NULL, 0);
	cmd = jobs_to_cmdline(&jl);
	ck_assert_str_eq(cmd, "fio --ioengine=null --size=4m --bs=4k --name=j1 --rw=read "
			 "--name=j2 --rw=read --bs=8k");
	free(cmd);
	job_list_release(&jl);

	load_ok(&jl, "[a b]\ndescription=\"it's big\"\ntime_based\nruntime=5\nfilename=a\\:b\n"
		"name=c\n", NULL, 0);
	cmd = jobs_to_cmdline(&jl);
	ck_assert_str_eq(cmd, "fio --name=c --description='it'\\''s big' --time_based "
			 "--runtime=5 --filename='a\\:b'");
	free(cmd);
	job_list_release(&jl);
}
END_TEST

START_TEST(job_option_names)
{
	ck_assert(option_is_job_option("bs"));
	ck_assert(option_is_job_option("blocksize"));
	ck_assert(option_is_job_option("--bs"));
	ck_assert(option_is_job_option("name"));
	ck_assert(option_is_job_option("zonemode"));	/* refused later, by name */
	ck_assert(!option_is_job_option("output-format"));
	ck_assert(!option_is_job_option("parse-only"));
	ck_assert(!option_is_job_option("frobnicate"));
}
END_TEST

static void load_fixture(struct job_list *jl, const char *name, const struct cmd_opt *opts,
			 size_t nr)
{
	char *files[1] = { (char *)fixture(name) };
	int ret = jobs_load(jl, opts, nr, files, 1, err, sizeof(err));

	ck_assert_msg(ret == 0, "%s: %s", name, err);
}

START_TEST(seed000_profile)
{
	static const char *const names[] = { "job0-rbb", "job1-wbb", "job2-r4b", "job3-w4b" };
	static const char *const descs[] = { "Big block reads", "Big block writes",
					     "Random 4K block reads", "Random 4K block writes" };
	static const unsigned rws[] = { RW_READ, RW_WRITE, RW_READ | RW_RANDOM,
					RW_WRITE | RW_RANDOM };
	struct job_list jl;
	size_t i;

	load_fixture(&jl, "seed000-profile.fio", NULL, 0);
	ck_assert_uint_eq(jl.nr, 4);
	ck_assert_uint_eq(jl.nr_global_options, 9);
	ck_assert_str_eq(jl.global_options[0].key, "directory");
	ck_assert_str_eq(jl.global_options[8].value, "60");
	for (i = 0; i < 4; i++) {
		struct job_spec *j = &jl.jobs[i];

		ck_assert_str_eq(j->name, names[i]);
		ck_assert_str_eq(j->description, descs[i]);
		ck_assert_int_eq(j->groupid, (int)i);
		ck_assert(j->stonewall && j->direct && j->group_reporting);
		ck_assert_uint_eq(j->rw, rws[i]);
		ck_assert_str_eq(j->directories[0], "/mnt/dasd3/");
		ck_assert_str_eq(j->filenames[0], "test.file");
		ck_assert_str_eq(j->ioengine, "libaio");
		ck_assert_uint_eq(j->size, 2147483648ull);
		ck_assert_uint_eq(j->io_size, 10737418240ull);
		ck_assert_uint_eq(j->loops, 4);
		ck_assert_uint_eq(j->runtime_us, 60000000);
		ck_assert_uint_eq(j->bs[DDIR_WRITE], i < 2 ? 1048576 : 4096);
		ck_assert_uint_eq(j->iodepth, i < 2 ? 32 : 1);
		ck_assert_uint_eq(j->fsync_blocks, i < 2 ? 10000 : 1);
		ck_assert_uint_eq(j->nr_job_options, 6);
		ck_assert_str_eq(j->job_options[1].key, "stonewall");
		ck_assert_ptr_null(j->job_options[1].value);
	}
	/* typed "blocksize", echoed under fio's canonical name */
	ck_assert_str_eq(jl.jobs[3].job_options[2].key, "bs");
	ck_assert_int_eq(jl.jobs[2].src_line, 33);
	job_list_release(&jl);
}
END_TEST

START_TEST(seed001_random)
{
	struct job_list jl;
	struct job_spec *j;

	load_fixture(&jl, "seed001-random.fio", NULL, 0);
	ck_assert_uint_eq(jl.nr, 1);
	j = &jl.jobs[0];
	ck_assert_str_eq(j->name, "random");
	ck_assert_uint_eq(j->rw, RW_READ | RW_RANDOM);
	ck_assert_uint_eq(j->size, 1073741824);
	ck_assert_str_eq(j->directories[0], "/iops");
	ck_assert_uint_eq(j->iodepth, 403);
	ck_assert(j->direct && j->group_reporting);
	ck_assert_uint_eq(j->bs[DDIR_READ], 4096);
	ck_assert_uint_eq(j->numjobs, 16);
	ck_assert_uint_eq(j->nrfiles, 1);
	ck_assert_str_eq(j->ioengine, "sync");
	ck_assert_uint_eq(j->loops, 1);
	ck_assert_uint_eq(jl.nr_global_options, 0);
	ck_assert_uint_eq(j->nr_job_options, 11);
	job_list_release(&jl);
}
END_TEST

/* The seed ran these with the command line below (002_*.txt). */
static void check_seed002(const char *file, unsigned rw, unsigned rwmixread)
{
	static const struct cmd_opt opts[] = {
		{ "time_based", "1" }, { "thinktime", "0" }, { "runtime", "45" },
		{ "iodepth", "64" }, { "ramp_time", "10" }, { "group_reporting", NULL },
	};
	struct job_list jl;
	struct job_spec *j;
	int d;

	load_fixture(&jl, file, opts, 6);
	ck_assert_uint_eq(jl.nr, 1);
	j = &jl.jobs[0];
	ck_assert_str_eq(j->name, "Target0");
	ck_assert(j->direct);
	ck_assert_int_eq(j->sync, SYNC_NONE);
	ck_assert(j->scramble_buffers);
	ck_assert_uint_eq(j->nr_percentiles, 17);
	ck_assert_double_eq_tol(j->percentiles[16], 99.99, 1e-9);
	ck_assert_uint_eq(j->offset, 0);
	ck_assert_str_eq(j->ioengine, "libaio");
	ck_assert(j->has_cpus_allowed);
	ck_assert_int_eq(CPU_COUNT(&j->cpus_allowed), 4);
	ck_assert(CPU_ISSET(3, &j->cpus_allowed));
	ck_assert(j->norandommap);
	ck_assert_int_eq(j->random_distribution, DIST_RANDOM);
	ck_assert(!j->do_verify && !j->randrepeat);
	ck_assert_uint_eq(j->continue_on_error, 0);
	ck_assert_int_eq(j->nice, -5);
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		ck_assert_uint_eq(j->ba[d], 4096);
		ck_assert_uint_eq(j->bs[d], 1048576);
		ck_assert_uint_eq(j->percentage_random[d], 100);
	}
	ck_assert_uint_eq(j->rw, rw);
	ck_assert_uint_eq(j->rwmixread, rwmixread);
	ck_assert_uint_eq(j->nr_filenames, 1);
	ck_assert_str_eq(j->filenames[0], "/dev/sda");
	ck_assert_uint_eq(j->numjobs, 1);
	/* command-line defaults under the file */
	ck_assert(j->time_based && j->group_reporting);
	ck_assert_uint_eq(j->runtime_us, 45000000);
	ck_assert_uint_eq(j->ramp_time_us, 10000000);
	ck_assert_uint_eq(j->iodepth, 64);
	ck_assert_uint_eq(j->iodepth_low, 64);
	ck_assert_uint_eq(j->thinktime_us, 0);
	ck_assert_uint_eq(jl.nr_global_options, 6 + 20);
	ck_assert_str_eq(jl.global_options[6].key, "buffered");
	ck_assert_ptr_null(jl.global_options[15].value);	/* norandommap */
	ck_assert_uint_eq(j->nr_job_options, 3);
	ck_assert_str_eq(j->job_options[2].key, "flow_id");
	job_list_release(&jl);
}

START_TEST(seed002_rand_read)
{
	check_seed002("seed002-1024K-rand-read.fio", RW_READ | RW_RANDOM, 100);
}
END_TEST

START_TEST(seed002_rand_write)
{
	check_seed002("seed002-1024K-rand-write.fio", RW_WRITE | RW_RANDOM, 0);
}
END_TEST

static Suite *options_suite(void)
{
	Suite *s = suite_create("options");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, defaults);
	tcase_add_test(tc, globals_apply_only_to_later_jobs);
	tcase_add_test(tc, comments_and_blanks);
	tcase_add_test(tc, bom_and_stdin);
	tcase_add_test(tc, bare_flags);
	tcase_add_test(tc, include_nested_relative);
	tcase_add_test(tc, include_errors);
	tcase_add_test(tc, env_expansion);
	tcase_add_test(tc, cmdline_defaults_under_first_file);
	tcase_add_test(tc, overrides_win_over_the_file);
	tcase_add_test(tc, cmdline_jobs_and_implicit_stonewall);
	tcase_add_test(tc, cmdline_name_global);
	tcase_add_test(tc, groups);
	tcase_add_test(tc, no_jobs_and_missing_files);
	tcase_add_test(tc, error_messages);
	tcase_add_test(tc, cmdline_errors);
	tcase_add_test(tc, fio_example_options);
	tcase_add_test(tc, fio_documented_options);
	tcase_add_test(tc, err_untouched_on_success);
	tcase_add_test(tc, kb_base_first);
	tcase_add_test(tc, per_direction_values);
	tcase_add_test(tc, rw_and_mix);
	tcase_add_test(tc, sizes_times_and_places);
	tcase_add_test(tc, fio_fixups);
	tcase_add_test(tc, file_service_type);
	tcase_add_test(tc, misc_options);
	tcase_add_test(tc, copy_is_deep);
	tcase_add_test(tc, showcmd);
	tcase_add_test(tc, job_option_names);
	tcase_add_test(tc, seed000_profile);
	tcase_add_test(tc, seed001_random);
	tcase_add_test(tc, seed002_rand_read);
	tcase_add_test(tc, seed002_rand_write);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(options_suite)
