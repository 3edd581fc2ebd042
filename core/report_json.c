/*
 * report_json.c - the run as fio 3.33's JSON (--output-format=json/json+):
 * the same keys in the same order with the same meanings (fio stat.c
 * show_thread_status_json, add_ddir_status_json, add_ddir_lat_json), so that
 * tools written for fio's JSON read ours unchanged.
 *
 * Builds a json-c tree; report_json_string() (report_common.c) serializes it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "report.h"
#include "report_int.h"

/* Remembers an allocation failure so one check at the end covers the tree. */
struct jb {
	bool failed;
};

static void jput(struct jb *b, struct json_object *o, const char *key, struct json_object *v)
{
	if (!o || !v || json_object_object_add(o, key, v)) {
		json_object_put(v);
		b->failed = true;
	}
}

static void jint(struct jb *b, struct json_object *o, const char *key, uint64_t v)
{
	/* fio prints integers with %lld */
	jput(b, o, key, json_object_new_int64((int64_t)v));
}

static void jdbl(struct jb *b, struct json_object *o, const char *key, double v)
{
	char s[64];

	/*
	 * fio prints floats with "%f"; keep that text. A NaN or infinity would
	 * make the document unparsable, so it becomes 0.
	 */
	if (!isfinite(v))
		v = 0.0;
	snprintf(s, sizeof(s), "%f", v);
	jput(b, o, key, json_object_new_double_s(v, s));
}

static void jstr(struct jb *b, struct json_object *o, const char *key, const char *v)
{
	jput(b, o, key, json_object_new_string(v ? v : ""));
}

static struct json_object *jobj(struct jb *b, struct json_object *parent, const char *key)
{
	struct json_object *o = json_object_new_object();

	if (!o) {
		b->failed = true;
		return NULL;
	}
	jput(b, parent, key, o);
	return b->failed ? NULL : o;
}

/* fio json_add_job_opts: nothing at all when there are no options. */
static void add_options(struct jb *b, struct json_object *parent, const char *key,
			const struct opt_kv *kv, size_t nr)
{
	struct json_object *o;
	size_t i;

	if (!nr)
		return;
	o = jobj(b, parent, key);
	for (i = 0; o && i < nr; i++)
		if (report_option_shown(&kv[i]))
			jstr(b, o, kv[i].key, kv[i].value);
}

/* fio add_ddir_lat_json: {min, max, mean, stddev, N[, percentile][, bins]} */
static void add_lat(struct jb *b, struct json_object *parent, const char *key,
		    const struct thread_stat *ts, const struct lat_stat *s,
		    const uint64_t *hist, bool percentiles, bool plus)
{
	struct json_object *o = jobj(b, parent, key), *p;
	double plist[RB_MAX_PERCENTILES];
	uint64_t vals[RB_MAX_PERCENTILES];
	unsigned nr, i;
	char name[64];

	if (!o)
		return;
	jint(b, o, "min", s->n ? s->min : 0);
	jint(b, o, "max", s->n ? s->max : 0);
	jdbl(b, o, "mean", s->n ? s->mean : 0.0);
	jdbl(b, o, "stddev", lat_stat_stddev(s));
	jint(b, o, "N", s->n);

	if (!percentiles || !s->n)
		return;
	nr = report_plist(ts, plist);
	hist_percentiles(hist, plist, nr, vals);
	p = jobj(b, o, "percentile");
	for (i = 0; p && i < nr; i++) {
		snprintf(name, sizeof(name), "%f", plist[i]);
		jint(b, p, name, vals[i]);
	}

	/* fio 3.33 only dumps bins of the histograms that show percentiles */
	if (!plus)
		return;
	p = jobj(b, o, "bins");
	for (i = 0; p && i < HIST_NR; i++) {
		if (!hist[i])
			continue;
		snprintf(name, sizeof(name), "%llu", (unsigned long long)hist_value(i));
		jint(b, p, name, hist[i]);
	}
}

static void add_ddir(struct jb *b, struct json_object *parent, const struct thread_stat *ts,
		     unsigned d, bool plus)
{
	static const char *const names[] = { "read", "write", "trim" };
	const struct ddir_stat *ds = &ts->dir[d];
	struct json_object *o = jobj(b, parent, names[d]);
	uint64_t bw_bytes = 0;
	double iops = 0.0;

	if (!o)
		return;
	if (ds->runtime_ms) {
		bw_bytes = 1000 * ds->io_bytes / ds->runtime_ms;
		iops = 1000.0 * (double)ds->total_ios / (double)ds->runtime_ms;
	}
	jint(b, o, "io_bytes", ds->io_bytes);
	jint(b, o, "io_kbytes", ds->io_bytes >> 10);
	jint(b, o, "bw_bytes", bw_bytes);
	jint(b, o, "bw", bw_bytes / 1024);
	jdbl(b, o, "iops", iops);
	jint(b, o, "runtime", ds->runtime_ms);
	jint(b, o, "total_ios", ds->total_ios);
	jint(b, o, "short_ios", ds->short_ios);
	jint(b, o, "drop_ios", ds->drop_ios);
	add_lat(b, o, "slat_ns", ts, &ds->slat, ds->slat_hist, report_slat_pct(ts), plus);
	add_lat(b, o, "clat_ns", ts, &ds->clat, ds->clat_hist, report_clat_pct(ts), plus);
	add_lat(b, o, "lat_ns", ts, &ds->lat, ds->lat_hist, report_lat_pct(ts), plus);

	jint(b, o, "bw_min", ds->bw.n ? ds->bw.min : 0);
	jint(b, o, "bw_max", ds->bw.n ? ds->bw.max : 0);
	jdbl(b, o, "bw_agg", ds->bw.n ? ds->bw_agg_pct : 0.0);
	jdbl(b, o, "bw_mean", ds->bw.n ? ds->bw.mean : 0.0);
	jdbl(b, o, "bw_dev", lat_stat_stddev(&ds->bw));
	jint(b, o, "bw_samples", ds->bw.n);
	jint(b, o, "iops_min", ds->iops.n ? ds->iops.min : 0);
	jint(b, o, "iops_max", ds->iops.n ? ds->iops.max : 0);
	jdbl(b, o, "iops_mean", ds->iops.n ? ds->iops.mean : 0.0);
	jdbl(b, o, "iops_stddev", lat_stat_stddev(&ds->iops));
	jint(b, o, "iops_samples", ds->iops.n);
}

/* One percentage object: keys[i] -> pct[i]. */
static void add_pct(struct jb *b, struct json_object *parent, const char *key,
		    const char *const *keys, const double *pct, unsigned nr)
{
	struct json_object *o = jobj(b, parent, key);
	unsigned i;

	for (i = 0; o && i < nr; i++)
		jdbl(b, o, keys[i], pct[i]);
}

static void add_dists(struct jb *b, struct json_object *o, const struct thread_stat *ts)
{
	static const char *const level[] = { "1", "2", "4", "8", "16", "32", ">=64" };
	static const char *const map[] = { "0", "4", "8", "16", "32", "64", ">=64" };
	static const char *const lat[] = { "2", "4", "10", "20", "50", "100", "250", "500",
					   "750", "1000", "2000", ">=2000" };
	double pct[LAT_M_NR];

	report_depth_dist(ts->depth_level, report_total_ios(ts), pct);
	add_pct(b, o, "iodepth_level", level, pct, DEPTH_MAP_NR);
	report_depth_dist(ts->submit_map, ts->total_submit, pct);
	add_pct(b, o, "iodepth_submit", map, pct, DEPTH_MAP_NR);
	report_depth_dist(ts->complete_map, ts->total_complete, pct);
	add_pct(b, o, "iodepth_complete", map, pct, DEPTH_MAP_NR);

	report_lat_dist(ts, ts->lat_n, LAT_N_NR, pct);
	add_pct(b, o, "latency_ns", lat, pct, LAT_N_NR);
	report_lat_dist(ts, ts->lat_u, LAT_U_NR, pct);
	add_pct(b, o, "latency_us", lat, pct, LAT_U_NR);
	report_lat_dist(ts, ts->lat_m, LAT_M_NR, pct);
	add_pct(b, o, "latency_ms", lat, pct, LAT_M_NR);
}

static void add_job(struct jb *b, struct json_object *jobs, const struct thread_stat *ts,
		    bool plus)
{
	struct json_object *o = json_object_new_object(), *sync;
	double usr, sys;
	unsigned d;

	if (!o || json_object_array_add(jobs, o)) {
		json_object_put(o);
		b->failed = true;
		return;
	}
	jstr(b, o, "jobname", ts->name);
	jint(b, o, "groupid", (uint64_t)(ts->groupid < 0 ? 0 : ts->groupid));
	jint(b, o, "error", (uint64_t)ts->error);
	/* the report is written once the run is over: nothing is left */
	jint(b, o, "eta", 0);
	jint(b, o, "elapsed", (ts->elapsed_ms + 999) / 1000);
	if (ts->job)
		add_options(b, o, "job options", ts->job->job_options,
			    ts->job->nr_job_options);

	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		add_ddir(b, o, ts, d, plus);
	sync = jobj(b, o, "sync");
	if (sync) {
		jint(b, sync, "total_ios", ts->sync_total);
		add_lat(b, sync, "lat_ns", ts, &ts->sync_lat, ts->sync_hist,
			report_clat_pct(ts) || report_lat_pct(ts), plus);
	}

	report_cpu(ts, &usr, &sys);
	jint(b, o, "job_runtime", ts->job_runtime_ms);
	jdbl(b, o, "usr_cpu", usr);
	jdbl(b, o, "sys_cpu", sys);
	jint(b, o, "ctx", ts->ctx);
	jint(b, o, "majf", ts->majf);
	jint(b, o, "minf", ts->minf);
	add_dists(b, o, ts);

	if (ts->job && ts->job->continue_on_error) {
		jint(b, o, "total_err", ts->total_err);
		jint(b, o, "first_error", (uint64_t)ts->first_error);
	}
	if (ts->latency_depth) {
		jint(b, o, "latency_depth", ts->latency_depth);
		const struct job_spec *j = ts->job;

		jint(b, o, "latency_target", j ? j->latency_target_us : 0);
		jdbl(b, o, "latency_percentile", j && j->latency_percentile ? j->latency_percentile
									 : 100.0);
		jint(b, o, "latency_window", j ? j->latency_window_us : 0);
	}
	if (ts->description && ts->description[0])
		jstr(b, o, "desc", ts->description);
}

static void add_disks(struct jb *b, struct json_object *root, const struct run_report *r)
{
	struct json_object *arr, *o;
	size_t i;

	/* fio leaves the key out when it watched no disk */
	if (!r->nr_du)
		return;
	arr = json_object_new_array();
	jput(b, root, "disk_util", arr);
	if (b->failed)
		return;
	for (i = 0; i < r->nr_du; i++) {
		const struct disk_util *du = &r->du[i];

		o = json_object_new_object();
		if (!o || json_object_array_add(arr, o)) {
			json_object_put(o);
			b->failed = true;
			return;
		}
		jstr(b, o, "name", du->name);
		jint(b, o, "read_ios", du->read_ios);
		jint(b, o, "write_ios", du->write_ios);
		jint(b, o, "read_merges", du->read_merges);
		jint(b, o, "write_merges", du->write_merges);
		jint(b, o, "read_ticks", du->read_ticks);
		jint(b, o, "write_ticks", du->write_ticks);
		jint(b, o, "in_queue", du->in_queue);
		jdbl(b, o, "util", du->util > 100.0 ? 100.0 : du->util);
	}
}

struct json_object *report_json_build(const struct run_report *r, bool plus)
{
	struct jb b = { false };
	struct json_object *root = json_object_new_object(), *jobs;
	char tbuf[64] = "";
	time_t when = r->when;
	size_t i;

	if (!root)
		return NULL;
	if (ctime_r(&when, tbuf))
		tbuf[strcspn(tbuf, "\n")] = '\0';

	jstr(&b, root, "fio version", r->version ? r->version : "raidbench");
	jint(&b, root, "timestamp", (uint64_t)r->when);
	jint(&b, root, "timestamp_ms", r->when_ms);
	jstr(&b, root, "time", tbuf);
	if (r->jobs)
		add_options(&b, root, "global options", r->jobs->global_options,
			    r->jobs->nr_global_options);

	jobs = json_object_new_array();
	jput(&b, root, "jobs", jobs);
	for (i = 0; !b.failed && i < r->nr_ts; i++)
		add_job(&b, jobs, &r->ts[i], plus);
	add_disks(&b, root, r);

	if (b.failed) {
		json_object_put(root);
		return NULL;
	}
	return root;
}

int report_json(FILE *f, const struct run_report *r, bool plus)
{
	return report_write_text(f, report_json_string(r, plus));
}
