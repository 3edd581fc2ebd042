/*
 * test_run_end.c - what a finished run leaves: no descriptor on its targets
 * once run_jobs() returns (another program may use them while the caller
 * still holds the result), and a summary read from the run that is the
 * saved file's numbers exactly.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_util.h"
#include "options.h"
#include "results.h"
#include "run.h"
#include "worker.h"

static char dir[PATH_MAX], target[PATH_MAX + 16], jobfile[PATH_MAX + 16];

static void setup(void)
{
	rb_test_tmpl(dir, sizeof(dir), "run-end");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(target, sizeof(target), "%s/target", dir);
	snprintf(jobfile, sizeof(jobfile), "%s/job.fio", dir);
	setenv("XDG_DATA_HOME", dir, 1);
}

static void teardown(void)
{
	char cmd[PATH_MAX + 32];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static void load(struct job_list *jl, const char *text)
{
	char err[1024] = "", *files[1] = { jobfile };
	FILE *f = fopen(jobfile, "w");

	ck_assert_ptr_nonnull(f);
	fprintf(f, "%s", text);
	fclose(f);
	ck_assert_msg(jobs_load(jl, NULL, 0, files, 1, err, sizeof(err)) == 0, "jobs_load: %s", err);
}

/* Descriptors of this process open on path (or on anything, path NULL). */
static int fds_on(const char *path)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d))) {
		char link[PATH_MAX + 32], to[PATH_MAX];
		ssize_t len;

		if (e->d_name[0] == '.')
			continue;
		snprintf(link, sizeof(link), "/proc/self/fd/%s", e->d_name);
		len = readlink(link, to, sizeof(to) - 1);
		if (len < 0)
			continue;
		to[len] = '\0';
		if (!path || !strcmp(to, path))
			n++;
	}
	closedir(d);
	return n - (path ? 0 : 1);	/* the directory stream itself */
}

static void released_after(const char *engine)
{
	struct run_params p = { 0 };
	struct run_result res;
	struct job_list jl;
	char err[1024] = "", text[1024];
	int before;

	snprintf(text, sizeof(text),
		 "[global]\nfilename=%s\nsize=1m\nbs=4k\nioengine=%s\niodepth=4\n"
		 "[w]\nrw=randwrite\nnumjobs=3\n[r]\nstonewall\nrw=randread\n", target, engine);
	load(&jl, text);
	before = fds_on(NULL);
	ck_assert_msg(run_jobs(&jl, &p, &res, err, sizeof(err)) == 0, "%s: %s", engine, err);
	/* the caller still holds the result: the targets must be free already */
	ck_assert_msg(fds_on(target) == 0, "%s: %d descriptors still on %s", engine,
		      fds_on(target), target);
	ck_assert_msg(fds_on(NULL) == before, "%s: %d descriptors before the run, %d after",
		      engine, before, fds_on(NULL));
	/* what the report needs of the targets stays */
	ck_assert_str_eq(res.workers[0].files[0].path, target);
	ck_assert(res.workers[0].files[0].was_open);
	run_result_release(&res);
	job_list_release(&jl);
}

START_TEST(targets_released_psync)
{
	released_after("psync");
}
END_TEST

START_TEST(targets_released_libaio)
{
	released_after("libaio");
}
END_TEST

/* libaio's rings mapped into this process ("/[aio]" in its maps) */
static int aio_rings(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int n = 0;

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "/[aio]"))
			n++;
	fclose(f);
	return n;
}

/*
 * Each job's engine context goes with its own thread: once the run is over
 * (run_drain true), before run_end, no libaio context is left. Their
 * io_destroy waits out an RCU grace period each, so 64 jobs' of them one after
 * another in run_end held the end of a run by seconds.
 */
START_TEST(engine_contexts_end_with_their_jobs)
{
	struct run_params p = { 0 };
	struct run_result res;
	struct run_handle *h;
	struct job_list jl;
	char err[1024] = "", text[1024];

	snprintf(text, sizeof(text),
		 "[global]\nfilename=%s\nsize=1m\nbs=4k\nioengine=libaio\niodepth=4\n"
		 "[r]\nrw=randread\nnumjobs=4\n", target);
	load(&jl, text);
	ck_assert_int_eq(aio_rings(), 0);
	ck_assert_msg(run_begin(&jl, &p, &res, &h, err, sizeof(err)) == 0, "%s", err);
	while (!run_drain(h))
		usleep(1000);
	ck_assert_int_eq(aio_rings(), 0);
	ck_assert_msg(run_end(h, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(res.workers[0].ts.dir[0].total_ios, 256);
	run_result_release(&res);
	job_list_release(&jl);
}
END_TEST

/* Every number of the end-of-run summary equals the saved file's. */
START_TEST(summary_is_the_saved_file)
{
	struct run_params p = { 0 };
	struct run_result res;
	struct run_report rep;
	struct result live, saved;
	struct job_list jl;
	char err[1024] = "", path[PATH_MAX], text[1024];
	size_t i;

	snprintf(text, sizeof(text),
		 "[global]\nfilename=%s\nsize=2m\nbs=4k\nioengine=psync\n"
		 "[mixed]\nrw=randrw\nnumjobs=2\n[seq]\nstonewall\nrw=read\n", target);
	load(&jl, text);
	ck_assert_msg(run_jobs(&jl, &p, &res, err, sizeof(err)) == 0, "%s", err);
	run_report_init(&rep, &jl, &res);
	ck_assert_msg(result_from_run(&live, &rep, &res, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(results_save(&rep, &res, NULL, path, sizeof(path), err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_msg(result_load(&saved, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(live.nr_phases, saved.nr_phases);
	/* mixed read, mixed write, seq read */
	ck_assert_uint_eq(live.nr_phases, 3);
	for (i = 0; i < live.nr_phases; i++) {
		const struct result_phase *a = &live.phases[i], *b = &saved.phases[i];

		ck_assert_str_eq(a->name, b->name);
		ck_assert_int_eq(a->ddir, b->ddir);
		ck_assert_uint_eq(a->total_ios, b->total_ios);
		ck_assert_double_eq(a->iops, b->iops);
		ck_assert_double_eq(a->bw_bytes, b->bw_bytes);
		ck_assert_double_eq(a->lat_mean_ns, b->lat_mean_ns);
		ck_assert_double_eq(a->lat_p50_ns, b->lat_p50_ns);
		ck_assert_double_eq(a->lat_p99_ns, b->lat_p99_ns);
		ck_assert_double_eq(a->lat_p999_ns, b->lat_p999_ns);
		ck_assert_double_eq(a->lat_max_ns, b->lat_max_ns);
		ck_assert_double_eq(a->iops_min, b->iops_min);
		ck_assert_double_eq(a->iops_max, b->iops_max);
		ck_assert_double_eq(a->bw_min, b->bw_min);
		ck_assert_double_eq(a->bw_max, b->bw_max);
		ck_assert_uint_eq(a->errors, b->errors);
		/* the whole run's figures are there, not placeholders (percentiles are bucket
		 * values, so p99.9 may pass the exact max) */
		ck_assert_msg(a->iops > 0 && a->lat_p50_ns > 0 && a->lat_p999_ns >= a->lat_p99_ns &&
			      a->lat_max_ns > 0 && a->iops_max >= a->iops_min, "phase %s: iops %.0f p50 %.0f "
			      "p99 %.0f p99.9 %.0f max %.0f", a->name, a->iops, a->lat_p50_ns,
			      a->lat_p99_ns, a->lat_p999_ns, a->lat_max_ns);
	}
	ck_assert(!live.interrupted && !saved.interrupted);
	result_release(&live);
	result_release(&saved);
	run_result_release(&res);
	job_list_release(&jl);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("run_end");
	TCase *tc = tcase_create("run_end");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, targets_released_psync);
	tcase_add_test(tc, targets_released_libaio);
	tcase_add_test(tc, summary_is_the_saved_file);
	tcase_add_test(tc, engine_contexts_end_with_their_jobs);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(suite)
