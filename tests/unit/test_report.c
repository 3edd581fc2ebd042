/*
 * test_report.c - the reporters against real fio 3.33 output. Each run in
 * tests/fixtures/report/ is rebuilt as a thread_stat from the numbers fio
 * printed (bytes, I/Os, runtimes, moments, histogram or its percentiles,
 * distributions, disks); our JSON must then equal fio's key for key (order,
 * types, values), our normal text fio's line for line, our terse line fio's
 * byte for byte. Other tests cover the optional keys, formulas and helpers.
 */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check_util.h"
#include "report.h"
#include "report_int.h"

static char *read_fixture(const char *name)
{
	const char *dir = getenv("SRCDIR");
	char path[4096];
	FILE *f;
	char *buf;
	long len;

	snprintf(path, sizeof(path), "%s/tests/fixtures/report/%s", dir && *dir ? dir : ".",
		 name);
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s: %s", path, strerror(errno));
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)len + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)len, f), (size_t)len);
	buf[len] = '\0';
	fclose(f);
	return buf;
}

/* --- a fio run, rebuilt from its JSON ------------------------------------ */

static struct json_object *jget(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	ck_assert_msg(json_object_object_get_ex(o, key, &v), "fio JSON has no \"%s\"", key);
	return v;
}

#define JU(o, k) ((uint64_t)json_object_get_int64(jget(o, k)))
#define JD(o, k) json_object_get_double(jget(o, k))

/* min, max, mean, stddev as fio printed them */
struct moments {
	uint64_t min, max;
	double mean, sd;
};

static void set_moments(struct lat_stat *s, const struct moments *m, uint64_t n)
{
	s->min = m->min;
	s->max = m->max;
	s->n = n;
	s->mean = m->mean;
	s->m2 = m->sd * m->sd * (double)(n - 1);
}

/*
 * A histogram of n samples whose percentiles are vals[]: just enough samples
 * in each value's bucket for the running count to reach p/100*n there, the
 * rest in the last one. Stands in for fio's when it printed no bins.
 */
static void build_hist(uint64_t *hist, uint64_t n, const double *plist, const uint64_t *vals,
		       unsigned nr)
{
	uint64_t cum = 0;
	unsigned i;

	for (i = 0; i < nr; i++) {
		uint64_t need = (uint64_t)ceill((long double)plist[i] / 100.0L * n);

		hist[hist_index(vals[i])] += need - cum;
		cum = need;
	}
	hist[hist_index(vals[nr - 1])] += n - cum;
}

/*
 * A count that prints as fio's percentage of total. fio shows a nonzero
 * bucket below the floor as the floor itself: one I/O gives that back.
 */
static void load_pcts(struct json_object *o, uint64_t *dst, unsigned nr, uint64_t total,
		      double floor)
{
	unsigned i = 0;

	json_object_object_foreach(o, key, val) {
		double pct = json_object_get_double(val);

		(void)key;
		ck_assert_uint_lt(i, nr);
		dst[i++] = pct <= 0.0 ? 0 : pct <= floor ? 1 :
			   (uint64_t)llround(pct * (double)total / 100.0);
	}
}

/* bw_* or iops_* sample statistics of a direction */
static void load_samples(struct json_object *o, struct lat_stat *s, bool bw)
{
	struct moments m = {
		JU(o, bw ? "bw_min" : "iops_min"), JU(o, bw ? "bw_max" : "iops_max"),
		JD(o, bw ? "bw_mean" : "iops_mean"), JD(o, bw ? "bw_dev" : "iops_stddev"),
	};
	uint64_t n = JU(o, bw ? "bw_samples" : "iops_samples");

	if (n)
		set_moments(s, &m, n);
}

/* {min,max,mean,stddev,N[,percentile][,bins]}; true when it had percentiles */
static bool load_lat(struct json_object *o, struct lat_stat *s, uint64_t *hist,
		     struct job_spec *job)
{
	struct moments m = { JU(o, "min"), JU(o, "max"), JD(o, "mean"), JD(o, "stddev") };
	struct json_object *p, *bins;
	uint64_t vals[RB_MAX_PERCENTILES];

	if (JU(o, "N"))
		set_moments(s, &m, JU(o, "N"));
	if (!json_object_object_get_ex(o, "percentile", &p))
		return false;
	job->nr_percentiles = 0;
	json_object_object_foreach(p, pk, pv) {
		vals[job->nr_percentiles] = (uint64_t)json_object_get_int64(pv);
		job->percentiles[job->nr_percentiles++] = strtod(pk, NULL);
	}
	if (json_object_object_get_ex(o, "bins", &bins)) {
		json_object_object_foreach(bins, key, val)
			hist[hist_index(strtoull(key, NULL, 10))] +=
				(uint64_t)json_object_get_int64(val);
	} else {
		build_hist(hist, s->n, job->percentiles, vals, job->nr_percentiles);
	}
	return true;
}

/* "job options" / "global options"; the strings stay owned by the JSON */
static void load_opts(struct json_object *parent, const char *key, struct opt_kv **kv,
		      size_t *nr)
{
	struct json_object *o = NULL;
	size_t i = 0;

	json_object_object_get_ex(parent, key, &o);
	*nr = o ? (size_t)json_object_object_length(o) : 0;
	*kv = calloc(*nr + 1, sizeof(**kv));
	ck_assert_ptr_nonnull(*kv);
	if (!o)
		return;
	json_object_object_foreach(o, k, v) {
		(*kv)[i].key = k;
		(*kv)[i++].value = (char *)json_object_get_string(v);
	}
}

static void load_job(struct json_object *o, struct thread_stat *ts, struct job_spec *job)
{
	static const char *const dirs[] = { "read", "write", "trim" };
	uint64_t total = 0;
	unsigned d;

	memset(job, 0, sizeof(*job));
	job->name = (char *)json_object_get_string(jget(o, "jobname"));
	job->groupid = (int)JU(o, "groupid");
	job->kb_base = 1024;
	load_opts(o, "job options", &job->job_options, &job->nr_job_options);
	thread_stat_init(ts, job);
	ts->error = (int)JU(o, "error");
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		struct json_object *dj = jget(o, dirs[d]);
		struct ddir_stat *ds = &ts->dir[d];

		ds->io_bytes = JU(dj, "io_bytes");
		ds->total_ios = JU(dj, "total_ios");
		ds->short_ios = JU(dj, "short_ios");
		ds->drop_ios = JU(dj, "drop_ios");
		ds->runtime_ms = JU(dj, "runtime");
		job->slat_percentiles |= load_lat(jget(dj, "slat_ns"), &ds->slat, ds->slat_hist, job);
		job->clat_percentiles |= load_lat(jget(dj, "clat_ns"), &ds->clat, ds->clat_hist, job);
		job->lat_percentiles |= load_lat(jget(dj, "lat_ns"), &ds->lat, ds->lat_hist, job);
		load_samples(dj, &ds->bw, true);
		load_samples(dj, &ds->iops, false);
		total += ds->total_ios;
	}
	ts->sync_total = JU(jget(o, "sync"), "total_ios");
	load_lat(jget(jget(o, "sync"), "lat_ns"), &ts->sync_lat, ts->sync_hist, job);

	ts->elapsed_ms = JU(o, "elapsed") * 1000;
	ts->job_runtime_ms = JU(o, "job_runtime");
	ts->usr_us = (uint64_t)llround(JD(o, "usr_cpu") * (double)ts->job_runtime_ms * 10.0);
	ts->sys_us = (uint64_t)llround(JD(o, "sys_cpu") * (double)ts->job_runtime_ms * 10.0);
	ts->ctx = JU(o, "ctx");
	ts->majf = JU(o, "majf");
	ts->minf = JU(o, "minf");
	/* fio does not print how many submit/reap calls it made: say one per I/O */
	ts->total_submit = ts->total_complete = ts->total_io_u = total;
	load_pcts(jget(o, "iodepth_level"), ts->depth_level, DEPTH_MAP_NR, total, 0.1);
	load_pcts(jget(o, "iodepth_submit"), ts->submit_map, DEPTH_MAP_NR, total, 0.1);
	load_pcts(jget(o, "iodepth_complete"), ts->complete_map, DEPTH_MAP_NR, total, 0.1);
	load_pcts(jget(o, "latency_ns"), ts->lat_n, LAT_N_NR, total, 0.01);
	load_pcts(jget(o, "latency_us"), ts->lat_u, LAT_U_NR, total, 0.01);
	load_pcts(jget(o, "latency_ms"), ts->lat_m, LAT_M_NR, total, 0.01);
	ts->latency_depth = (unsigned)JU(o, "latency_depth");
}

struct run {
	struct json_object *root;	/* fio's document; owns the strings below */
	struct job_list jobs;
	struct job_spec job;
	struct thread_stat ts[2];
	struct disk_util du[4];
	struct run_report r;
};

static void run_groups(struct run *run)
{
	free(run->r.gs);
	ck_assert_int_eq(group_stats_build(run->r.ts, run->r.nr_ts, &run->r.gs, &run->r.nr_gs), 0);
}

/* The one-job run of fixture name. */
static struct run *run_load(const char *name)
{
	struct run *run = calloc(1, sizeof(*run));
	char *text = read_fixture(name);
	struct json_object *du;
	size_t i;

	ck_assert_ptr_nonnull(run);
	run->root = json_tokener_parse(text);
	free(text);
	ck_assert_ptr_nonnull(run->root);
	ck_assert_uint_eq(json_object_array_length(jget(run->root, "jobs")), 1);
	load_opts(run->root, "global options", &run->jobs.global_options,
		  &run->jobs.nr_global_options);
	run->jobs.jobs = &run->job;
	run->jobs.nr = 1;
	load_job(json_object_array_get_idx(jget(run->root, "jobs"), 0), &run->ts[0], &run->job);

	du = jget(run->root, "disk_util");
	for (i = 0; i < json_object_array_length(du) && i < 4; i++) {
		struct json_object *o = json_object_array_get_idx(du, i);
		struct disk_util *d = &run->du[i];

		snprintf(d->name, sizeof(d->name), "%s", json_object_get_string(jget(o, "name")));
		d->read_ios = JU(o, "read_ios");
		d->write_ios = JU(o, "write_ios");
		d->read_merges = JU(o, "read_merges");
		d->write_merges = JU(o, "write_merges");
		d->read_ticks = JU(o, "read_ticks");
		d->write_ticks = JU(o, "write_ticks");
		d->in_queue = JU(o, "in_queue");
		d->util = JD(o, "util");
		run->r.nr_du++;
	}
	run->r.jobs = &run->jobs;
	run->r.ts = run->ts;
	run->r.nr_ts = 1;
	run->r.du = run->du;
	run->r.when = (time_t)JU(run->root, "timestamp");
	run->r.when_ms = JU(run->root, "timestamp_ms");
	run->r.version = json_object_get_string(jget(run->root, "fio version"));
	run_groups(run);
	return run;
}

static void run_free(struct run *run)
{
	free(run->jobs.global_options);
	free(run->job.job_options);
	free(run->r.gs);
	json_object_put(run->root);
	free(run);
}

/* --- comparing ----------------------------------------------------------- */

/* Runs a writer into memory; the caller frees. */
static char *capture(int (*fn)(FILE *, const struct run_report *), const struct run_report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fn(f, r), 0);
	fclose(f);
	return buf;
}

/* want and got agree on keys (and their order), types and, if values, values. */
static void json_same(struct json_object *want, struct json_object *got, const char *path,
		      bool values)
{
	enum json_type tw = json_object_get_type(want), tg = json_object_get_type(got);
	char sub[512], a[256], b[256];
	size_t i, n;

	ck_assert_msg(tw == tg, "%s: type %s, want %s", path, json_type_to_name(tg),
		      json_type_to_name(tw));
	if (tw == json_type_object) {
		struct json_object_iterator iw = json_object_iter_begin(want);
		struct json_object_iterator ig = json_object_iter_begin(got);
		struct json_object_iterator ew = json_object_iter_end(want);
		struct json_object_iterator eg = json_object_iter_end(got);

		for (; !json_object_iter_equal(&iw, &ew) && !json_object_iter_equal(&ig, &eg);
		     json_object_iter_next(&iw), json_object_iter_next(&ig)) {
			const char *kw = json_object_iter_peek_name(&iw);
			const char *kg = json_object_iter_peek_name(&ig);

			ck_assert_msg(!strcmp(kw, kg), "%s: key \"%s\", want \"%s\"", path, kg, kw);
			snprintf(sub, sizeof(sub), "%s.%s", path, kw);
			json_same(json_object_iter_peek_value(&iw),
				  json_object_iter_peek_value(&ig), sub, values);
		}
		ck_assert_msg(json_object_iter_equal(&iw, &ew), "%s: key \"%s\" missing", path,
			      json_object_iter_equal(&iw, &ew) ? "" : json_object_iter_peek_name(&iw));
		ck_assert_msg(json_object_iter_equal(&ig, &eg), "%s: extra key \"%s\"", path,
			      json_object_iter_equal(&ig, &eg) ? "" : json_object_iter_peek_name(&ig));
	} else if (tw == json_type_array) {
		n = json_object_array_length(want);
		ck_assert_msg(json_object_array_length(got) == n, "%s: %zu items, want %zu", path,
			      json_object_array_length(got), n);
		for (i = 0; i < n; i++) {
			snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
			json_same(json_object_array_get_idx(want, i),
				  json_object_array_get_idx(got, i), sub, values);
		}
	} else if (values) {
		/* fio prints "%f" and "%lld": the same text is the same value */
		snprintf(a, sizeof(a), "%s", json_object_to_json_string(want));
		snprintf(b, sizeof(b), "%s", json_object_to_json_string(got));
		if (tw == json_type_double) {
			snprintf(a, sizeof(a), "%f", json_object_get_double(want));
			snprintf(b, sizeof(b), "%f", json_object_get_double(got));
		}
		ck_assert_msg(!strcmp(a, b), "%s: %s, want %s", path, b, a);
	}
}

static struct json_object *json_of(const struct run_report *r, bool plus)
{
	char *s = report_json_string(r, plus);
	struct json_object *o;

	ck_assert_ptr_nonnull(s);
	o = json_tokener_parse(s);
	ck_assert_msg(o != NULL, "our JSON does not parse:\n%s", s);
	free(s);
	return o;
}

/* "pid=123:" -> "pid=X:", so fio's lines and ours compare */
static void mask_pid(char *line)
{
	char *p = strstr(line, " pid="), *q;

	if (!p)
		return;
	p += 5;
	for (q = p; *q >= '0' && *q <= '9'; q++)
		;
	*p = 'X';
	memmove(p + 1, q, strlen(q) + 1);
}

/* want and got equal line for line, pids aside; reports the first difference. */
static void text_same(char *want, char *got)
{
	char *wl, *gl;
	unsigned line = 0;

	for (;;) {
		wl = strsep(&want, "\n");
		gl = strsep(&got, "\n");
		line++;
		if (!wl || !gl)
			break;
		mask_pid(wl);
		mask_pid(gl);
		ck_assert_msg(!strcmp(wl, gl), "line %u:\n got: '%s'\nwant: '%s'", line, gl, wl);
	}
	ck_assert_msg(!wl && !gl, "line %u: output %s early", line, wl ? "ends" : "goes on");
}

static unsigned count_fields(const char *line)
{
	unsigned n = 1;

	for (; *line && *line != '\n'; line++)
		n += *line == ';';
	return n;
}

static void setup(void)
{
	/* fio printed the samples in UTC; ctime() must give the same text */
	setenv("TZ", "UTC", 1);
	tzset();
}

/* --- JSON ---------------------------------------------------------------- */

/* fio's JSON in, ours out: the same document */
static void json_roundtrip(const char *name, bool plus)
{
	struct run *run = run_load(name);
	struct json_object *got = json_of(&run->r, plus), *job;

	/* fio printed INT_MAX for eta with --output; ours is always 0 */
	job = json_object_array_get_idx(jget(run->root, "jobs"), 0);
	json_object_object_add(job, "eta", json_object_new_int(0));
	json_same(run->root, got, "$", true);
	json_object_put(got);
	run_free(run);
}

START_TEST(test_json_equals_fio)
{
	json_roundtrip("fio-3.33-sample.json", false);
}
END_TEST

START_TEST(test_json_plus_equals_fio)
{
	/* real histograms: bins in, every percentile and bin out as fio had them */
	json_roundtrip("fio-3.33-jsonplus.json", true);
}
END_TEST

START_TEST(test_json_formulas)
{
	struct run *run = run_load("fio-3.33-sample.json");
	struct json_object *got, *rd;

	run->ts[0].dir[DDIR_READ].io_bytes = 406104064;
	run_groups(run);
	got = json_of(&run->r, false);
	/* other numbers, the same keys in the same order with the same types */
	json_same(run->root, got, "$", false);

	rd = jget(json_object_array_get_idx(jget(got, "jobs"), 0), "read");
	ck_assert_uint_eq(JU(rd, "bw_bytes"), 135322913);	/* 1000 * bytes / ms */
	ck_assert_uint_eq(JU(rd, "bw"), 135322913 / 1024);
	ck_assert_uint_eq(JU(rd, "io_kbytes"), 406104064 >> 10);
	ck_assert_double_eq_tol(JD(rd, "iops"), 1000.0 * 99136 / 3001, 1e-6);
	/* int(bw_mean) * 100 / (agg / 1024.0) */
	ck_assert_double_eq_tol(JD(rd, "bw_agg"), 124482.0 * 100 / (135322913 / 1024.0), 1e-6);
	json_object_put(got);
	run_free(run);
}
END_TEST

START_TEST(test_json_plus_bins)
{
	struct run *run = run_load("fio-3.33-sample.json");
	struct json_object *got, *rd;
	uint64_t sum = 0;

	got = json_of(&run->r, true);
	rd = jget(json_object_array_get_idx(jget(got, "jobs"), 0), "read");
	json_object_object_foreach(jget(jget(rd, "clat_ns"), "bins"), key, val) {
		uint64_t ns = strtoull(key, NULL, 10);

		ck_assert_uint_eq(hist_value(hist_index(ns)), ns);
		sum += (uint64_t)json_object_get_int64(val);
	}
	ck_assert_uint_eq(sum, 99136);
	/* fio 3.33 adds bins only where percentiles are shown */
	ck_assert(!json_object_object_get_ex(jget(rd, "slat_ns"), "bins", NULL));
	json_object_put(got);
	run_free(run);
}
END_TEST

/* Names of obj's keys joined by ',' */
static void key_list(struct json_object *obj, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	json_object_object_foreach(obj, key, val) {
		(void)val;
		off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? "," : "", key);
		ck_assert_uint_lt(off, len);
	}
}

START_TEST(test_json_optional_keys)
{
	struct run *run = run_load("fio-3.33-sample.json");
	struct opt_kv *globals = run->jobs.global_options, bare = { "time_based", NULL };
	struct json_object *got, *job;
	char keys[2048];
	const char *tail;

	run->job.continue_on_error = COE_IO;
	run->ts[0].description = "a \"quoted\" job";
	run->ts[0].total_err = 3;
	run->ts[0].first_error = 5;
	run->r.nr_du = 0;
	run->jobs.nr_global_options = 0;
	got = json_of(&run->r, false);

	key_list(got, keys, sizeof(keys));
	/* no disk watched, no global option: fio leaves both keys out */
	ck_assert_str_eq(keys, "fio version,timestamp,timestamp_ms,time,jobs");
	job = json_object_array_get_idx(jget(got, "jobs"), 0);
	key_list(job, keys, sizeof(keys));
	tail = strstr(keys, "latency_ms,");
	ck_assert_ptr_nonnull(tail);
	ck_assert_str_eq(tail, "latency_ms,total_err,first_error,latency_depth,latency_target,"
			 "latency_percentile,latency_window,desc");
	ck_assert_uint_eq(JU(job, "total_err"), 3);
	ck_assert_uint_eq(JU(job, "first_error"), 5);
	ck_assert_str_eq(json_object_get_string(jget(job, "desc")), "a \"quoted\" job");
	json_object_put(got);

	/* only bare flags: the object is there, empty, as fio prints it */
	run->jobs.global_options = &bare;
	run->jobs.nr_global_options = 1;
	got = json_of(&run->r, false);
	ck_assert_int_eq(json_object_object_length(jget(got, "global options")), 0);
	json_object_put(got);
	run->jobs.global_options = globals;
	run_free(run);
}
END_TEST

START_TEST(test_json_to_file)
{
	struct run *run = run_load("fio-3.33-sample.json");
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json_object *o;

	ck_assert_int_eq(report_json(f, &run->r, false), 0);
	fclose(f);
	ck_assert_uint_gt(len, 100);
	ck_assert_int_eq(buf[len - 1], '\n');
	/* fio writes paths as they are */
	ck_assert_ptr_nonnull(strstr(buf, "\"/tmp/fiotest/sample.dat\""));
	o = json_tokener_parse(buf);
	ck_assert_ptr_nonnull(o);
	json_object_put(o);
	free(buf);
	run_free(run);
}
END_TEST

/* --- normal -------------------------------------------------------------- */

START_TEST(test_normal_equals_fio)
{
	struct run *run = run_load("fio-3.33-sample.json");
	char *want = read_fixture("fio-3.33-sample.txt"), *got, *w;
	unsigned i;

	got = capture(report_normal, &run->r);
	/* fio's first 4 lines come before the run (the runner's); the split of
	 * the sample dropped the blank line fio starts its report with */
	w = want;
	for (i = 0; i < 4; i++)
		w = strchr(w, '\n') + 1;
	ck_assert_int_eq(got[0], '\n');
	text_same(w, got + 1);
	free(want);
	free(got);
	run_free(run);
}
END_TEST

START_TEST(test_normal_plus_equals_fio)
{
	struct run *run = run_load("fio-3.33-jsonplus.json");
	char *want = read_fixture("fio-3.33-jsonplus.txt"), *got;

	/* slat/clat/lat percentile blocks, 3 decimals, 100th, msec and nsec units */
	got = capture(report_normal, &run->r);
	text_same(want, got);
	free(want);
	free(got);
	run_free(run);
}
END_TEST

START_TEST(test_normal_iops_line)
{
	struct run *run = run_load("fio-3.33-sample.json");
	char *got;

	run->ts[0].dir[DDIR_READ].io_bytes = 406104064;
	run_groups(run);
	got = capture(report_normal, &run->r);
	ck_assert_msg(strstr(got, "  read: IOPS=33.0k, BW=129MiB/s (135MB/s)(387MiB/3001msec)\n"),
		      "no read line in:\n%s", got);
	free(got);
	run_free(run);
}
END_TEST

START_TEST(test_normal_group_and_skip)
{
	struct run *run = run_load("fio-3.33-sample.json");
	struct thread_stat *merged = calloc(1, sizeof(*merged));
	char *got;

	/* two clones under group_reporting read as one entry of 2 jobs */
	ck_assert_ptr_nonnull(merged);
	thread_stat_init(merged, NULL);
	thread_stat_merge(merged, &run->ts[0]);
	thread_stat_merge(merged, &run->ts[0]);
	run->ts[0] = *merged;
	/* a job that did no I/O is not shown, as fio */
	thread_stat_init(&run->ts[1], &run->job);
	snprintf(run->ts[1].name, sizeof(run->ts[1].name), "idle");
	run->r.nr_ts = 2;
	run_groups(run);
	got = capture(report_normal, &run->r);
	ck_assert_msg(!strncmp(got, "\nmixed: (groupid=0, jobs=2): err= 0: pid=", 41), "%s", got);
	ck_assert_msg(strstr(got, "  read: IOPS=66.1k, BW=258MiB/s (271MB/s)(775MiB/3001msec)\n"),
		      "%s", got);
	ck_assert_ptr_null(strstr(got, "idle:"));
	free(got);
	free(merged);
	run_free(run);
}
END_TEST

/* --- terse --------------------------------------------------------------- */

START_TEST(test_terse_equals_fio)
{
	struct run *run = run_load("fio-3.33-sample.json");
	char *want = read_fixture("fio-3.33-sample.terse"), *got, *line, *field = NULL;
	unsigned i;

	got = capture(report_terse, &run->r);
	ck_assert_str_eq(got, want);
	ck_assert_uint_eq(count_fields(got), 130);
	line = got;
	for (i = 1; i <= 3; i++)
		field = strsep(&line, ";");
	ck_assert_str_eq(field, "mixed");
	free(want);
	free(got);
	run_free(run);
}
END_TEST

START_TEST(test_terse_extras)
{
	struct run *run = run_load("fio-3.33-sample.json");
	char *got;

	run->job.continue_on_error = COE_ALL;
	run->ts[0].description = "desc here";
	run->ts[0].total_err = 7;
	run->ts[0].first_error = 5;
	got = capture(report_terse, &run->r);
	ck_assert_uint_eq(count_fields(got), 133);
	ck_assert_msg(strstr(got, ";81.66%;7;5;desc here\n"), "%s", got);
	free(got);

	run->r.nr_du = 0;
	run->job.continue_on_error = 0;
	run->ts[0].description = NULL;
	got = capture(report_terse, &run->r);
	ck_assert_uint_eq(count_fields(got), 121);
	free(got);
	run_free(run);
}
END_TEST

/* --- helpers ------------------------------------------------------------- */

START_TEST(test_parse_formats)
{
	unsigned bits = 0;
	char err[160] = "";

	ck_assert_int_eq(report_parse_formats("normal", &bits, err, sizeof(err)), 0);
	ck_assert_uint_eq(bits, REPORT_NORMAL);
	ck_assert_int_eq(report_parse_formats("normal,json,terse", &bits, err, sizeof(err)), 0);
	ck_assert_uint_eq(bits, REPORT_NORMAL | REPORT_JSON | REPORT_TERSE);
	/* as fio, json+ is json with bins */
	ck_assert_int_eq(report_parse_formats("json+", &bits, err, sizeof(err)), 0);
	ck_assert_uint_eq(bits, REPORT_JSON | REPORT_JSON_PLUS);
	ck_assert_str_eq(err, "");

	bits = 42;
	ck_assert_int_eq(report_parse_formats("json,xml", &bits, err, sizeof(err)), -EINVAL);
	ck_assert_uint_eq(bits, 42);
	ck_assert_str_eq(err, "invalid output format 'xml' (allowed: normal, json, json+, terse)");
	ck_assert_int_eq(report_parse_formats("", &bits, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(report_parse_formats("json,", &bits, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(report_parse_formats("JSON", &bits, err, sizeof(err)), -EINVAL);
}
END_TEST

START_TEST(test_num2str)
{
	static const struct {
		uint64_t num;
		int maxlen;
		bool pow2;
		enum report_unit unit;
		const char *want;
	} cases[] = {
		{ 135308582, 4, true, UNIT_BYTEPERSEC, "129MiB/s" },
		{ 135308582, 4, false, UNIT_BYTEPERSEC, "135MB/s" },
		{ 57752098, 4, true, UNIT_BYTEPERSEC, "55.1MiB/s" },
		{ 57752098, 4, false, UNIT_BYTEPERSEC, "57.8MB/s" },
		{ 406061056, 4, true, UNIT_BYTE, "387MiB" },
		{ 406061056, 4, false, UNIT_BYTE, "406MB" },
		{ 173314048, 4, true, UNIT_BYTE, "165MiB" },
		{ 33034, 4, false, UNIT_NONE, "33.0k" },
		{ 14099, 4, false, UNIT_NONE, "14.1k" },
		{ 999, 4, false, UNIT_NONE, "999" },
		{ 9999, 4, false, UNIT_NONE, "9999" },
		{ 99999, 4, false, UNIT_NONE, "100.0k" },	/* fio's carry quirk */
		{ 99950, 4, false, UNIT_NONE, "99.9k" },
		{ 17357370, 6, false, UNIT_NONE, "17357k" },
		{ 2822700, 6, false, UNIT_NONE, "2822.7k" },
		{ 15958, 6, false, UNIT_NONE, "15958" },
		{ 0, 4, true, UNIT_BYTE, "0B" },
		{ 1000, 4, false, UNIT_BIT, "8000bit" },
		{ 1023999, 4, true, UNIT_BYTE, "1000KiB" },
		{ 1048575, 4, true, UNIT_BYTEPERSEC, "1024KiB/s" },
		{ 999999999999ULL, 4, false, UNIT_NONE, "1000G" },
	};
	char buf[64];
	unsigned i;

	/* expectations printed by fio 3.33's own lib/num2str.c */
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		report_num2str(buf, sizeof(buf), cases[i].num, cases[i].maxlen, 1, cases[i].pow2,
			       cases[i].unit);
		ck_assert_msg(!strcmp(buf, cases[i].want), "%llu: '%s', want '%s'",
			      (unsigned long long)cases[i].num, buf, cases[i].want);
	}
}
END_TEST

START_TEST(test_plist)
{
	static const double def[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5,
				      99.9, 99.95, 99.99 };
	static const double one[] = { 50, 99.5 }, none[] = { 50, 90 }, three[] = { 99.999 };
	static struct thread_stat ts;
	struct job_spec job;
	double plist[RB_MAX_PERCENTILES];
	unsigned i, nr;

	ck_assert_uint_eq(report_plist_precision(def, 17), 2);
	ck_assert_uint_eq(report_plist_precision(one, 2), 1);
	ck_assert_uint_eq(report_plist_precision(none, 2), 0);
	ck_assert_uint_eq(report_plist_precision(three, 1), 3);

	/* no list given: fio's default */
	memset(&job, 0, sizeof(job));
	thread_stat_init(&ts, &job);
	nr = report_plist(&ts, plist);
	ck_assert_uint_eq(nr, 17);
	for (i = 0; i < nr; i++)
		ck_assert_double_eq(plist[i], def[i]);
	/* a user list comes out sorted, and a 0 ends it as in fio */
	job.percentiles[0] = 99;
	job.percentiles[1] = 50;
	job.percentiles[2] = 0;
	job.percentiles[3] = 10;
	job.nr_percentiles = 4;
	nr = report_plist(&ts, plist);
	ck_assert_uint_eq(nr, 2);
	ck_assert_double_eq(plist[0], 50);
	ck_assert_double_eq(plist[1], 99);
}
END_TEST

static Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("fio-3.33");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_json_equals_fio);
	tcase_add_test(tc, test_json_plus_equals_fio);
	tcase_add_test(tc, test_json_formulas);
	tcase_add_test(tc, test_json_plus_bins);
	tcase_add_test(tc, test_json_optional_keys);
	tcase_add_test(tc, test_json_to_file);
	tcase_add_test(tc, test_normal_equals_fio);
	tcase_add_test(tc, test_normal_plus_equals_fio);
	tcase_add_test(tc, test_normal_iops_line);
	tcase_add_test(tc, test_normal_group_and_skip);
	tcase_add_test(tc, test_terse_equals_fio);
	tcase_add_test(tc, test_terse_extras);
	tcase_add_test(tc, test_parse_formats);
	tcase_add_test(tc, test_num2str);
	tcase_add_test(tc, test_plist);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(report_suite)
