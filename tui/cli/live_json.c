/*
 * live_json.c - `raidbench run --live=FILE`: the live records as JSON Lines,
 * one object per engine tick (schema in README.md "Live JSON Lines").
 * Interval numbers, not running averages; cumulative totals ride along so a
 * reader that misses lines (or a ring that dropped records) still ends exact.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ring.h"
#include "worker.h"

struct live_json {
	struct run_output out;
	const struct run_layout *lay;
	json_object *jobs;	/* one object per worker, NULL until seen this tick */
	json_object **job_obj;
	size_t nr_job_obj;	/* the layout is gone by close time; keep its count */
	json_object *total;
	json_object *devices;
	json_object *tick;
};

static const char *phase_names[] = { "setup", "layout", "ramp", "run", "verify", "done" };
static const char *ddir_names[] = { "read", "write", "trim" };

struct live_json *live_json_open(const char *path, const struct guard_consent *consent,
				 char *err, size_t errlen)
{
	struct live_json *lj = calloc(1, sizeof(*lj));

	if (!lj) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (run_output_open(&lj->out, strcmp(path, "-") ? path : NULL, consent, err, errlen)) {
		free(lj);
		return NULL;
	}
	return lj;
}

int live_json_layout(struct live_json *lj, const struct run_layout *lay)
{
	run_output_start(&lj->out);	/* the run starts: only now is an old file emptied */
	lj->lay = lay;
	lj->job_obj = calloc(lay->nr_workers ? lay->nr_workers : 1, sizeof(*lj->job_obj));
	lj->nr_job_obj = lj->job_obj ? lay->nr_workers : 0;
	return lj->job_obj ? 0 : -ENOMEM;
}

static json_object *tick_obj(struct live_json *lj)
{
	if (!lj->tick)
		lj->tick = json_object_new_object();
	return lj->tick;
}

static void add_int(json_object *o, const char *k, int64_t v)
{
	json_object_object_add(o, k, json_object_new_int64(v));
}

static void add_double(json_object *o, const char *k, double v)
{
	json_object_object_add(o, k, json_object_new_double(v));
}

static json_object *io_obj(const struct live_rec *rec)
{
	json_object *o = json_object_new_object(), *lat = json_object_new_object();

	add_int(o, "ios", rec->u.io.ios);
	add_int(o, "bytes", (int64_t)rec->u.io.bytes);
	add_int(lat, "mean", rec->u.io.mean_ns);
	add_int(lat, "p50", rec->u.io.p50_ns);
	add_int(lat, "p99", rec->u.io.p99_ns);
	add_int(lat, "p99.9", rec->u.io.p999_ns);
	add_int(lat, "max", rec->u.io.max_ns);
	json_object_object_add(o, "clat_ns", lat);
	add_int(o, "total_ios", (int64_t)rec->u.io.tot_ios);
	add_int(o, "total_bytes", (int64_t)rec->u.io.tot_bytes);
	return o;
}

static json_object *job_slot(struct live_json *lj, unsigned job)
{
	json_object *o;

	if (job == LIVE_TOTAL) {
		if (!lj->total)
			lj->total = json_object_new_object();
		return lj->total;
	}
	if (!lj->lay || job >= lj->lay->nr_workers)
		return NULL;
	if (!lj->job_obj[job]) {
		o = json_object_new_object();
		add_int(o, "job", job);
		json_object_object_add(o, "name", json_object_new_string(lj->lay->worker_names[job]));
		add_int(o, "groupid", lj->lay->worker_groups[job]);
		lj->job_obj[job] = o;
	}
	return lj->job_obj[job];
}

/* Rates need the tick's interval, which arrives after the I/O records. */
static void add_rates(json_object *job, double secs)
{
	int d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		json_object *io, *v;

		if (!json_object_object_get_ex(job, ddir_names[d], &io))
			continue;
		json_object_object_get_ex(io, "ios", &v);
		add_double(io, "iops", secs > 0 ? json_object_get_int64(v) / secs : 0);
		json_object_object_get_ex(io, "bytes", &v);
		add_double(io, "bw_bytes", secs > 0 ? json_object_get_int64(v) / secs : 0);
	}
}

static void disk_obj(struct live_json *lj, const struct live_rec *rec)
{
	double s = rec->u.disk.interval_ms / 1000.0;
	uint32_t rio = rec->u.disk.r_ios, wio = rec->u.disk.w_ios;
	json_object *o = json_object_new_object();
	const char *name = rec->u.disk.name;

	if (lj->lay && rec->job < lj->lay->nr_disks)
		name = lj->lay->disk_names[rec->job];
	if (!lj->devices)
		lj->devices = json_object_new_array();
	json_object_object_add(o, "name", json_object_new_string(name));
	add_double(o, "r_s", s > 0 ? rio / s : 0);
	add_double(o, "w_s", s > 0 ? wio / s : 0);
	add_double(o, "rMB_s", s > 0 ? rec->u.disk.r_sectors * 512.0 / 1e6 / s : 0);
	add_double(o, "wMB_s", s > 0 ? rec->u.disk.w_sectors * 512.0 / 1e6 / s : 0);
	add_double(o, "aqu_sz", rec->u.disk.interval_ms ?
		   (double)rec->u.disk.queue_ticks / rec->u.disk.interval_ms : 0);
	add_double(o, "r_await_ms", rio ? (double)rec->u.disk.r_ticks / rio : 0);
	add_double(o, "w_await_ms", wio ? (double)rec->u.disk.w_ticks / wio : 0);
	if (rec->u.disk.util_meaningful && rec->u.disk.interval_ms) {
		double u = 100.0 * rec->u.disk.io_ticks / rec->u.disk.interval_ms;

		add_double(o, "util_pct", u > 100 ? 100 : u);
	} else
		json_object_object_add(o, "util_pct", NULL);
	json_object_array_add(lj->devices, o);
}

static void flush_tick(struct live_json *lj, const struct live_rec *end)
{
	json_object *t = tick_obj(lj), *jobs = json_object_new_array(), *v;
	double secs = 0;
	size_t i;

	if (json_object_object_get_ex(t, "interval_ms", &v))
		secs = json_object_get_double(v) / 1000.0;
	add_int(t, "t_ms", (int64_t)(end->t_ns / 1000000));
	if (lj->total)
		add_rates(lj->total, secs);
	for (i = 0; lj->lay && i < lj->lay->nr_workers; i++)
		if (lj->job_obj[i]) {
			add_rates(lj->job_obj[i], secs);
			json_object_array_add(jobs, lj->job_obj[i]);
			lj->job_obj[i] = NULL;
		}
	json_object_object_add(t, "jobs", jobs);
	json_object_object_add(t, "total", lj->total ? lj->total : json_object_new_object());
	json_object_object_add(t, "devices", lj->devices ? lj->devices : json_object_new_array());
	lj->total = NULL;
	lj->devices = NULL;
	if (fprintf(lj->out.f, "%s\n", json_object_to_json_string_ext(t, JSON_C_TO_STRING_PLAIN)) < 0 &&
	    !lj->out.error)
		lj->out.error = errno ? -errno : -EIO;
	if (!lj->out.path)
		run_output_flush(&lj->out);	/* a reader on the pipe sees each tick at once */
	json_object_put(t);
	lj->tick = NULL;
}

void live_json_record(struct live_json *lj, const struct live_rec *rec)
{
	json_object *o;

	switch (rec->type) {
	case LIVE_IO:
		o = job_slot(lj, rec->job);
		if (o && rec->ddir < DDIR_RWDIR_CNT)
			json_object_object_add(o, ddir_names[rec->ddir], io_obj(rec));
		break;
	case LIVE_STATUS:
		if (rec->job == LIVE_TOTAL) {
			json_object *t = tick_obj(lj);

			add_double(t, "interval_ms", (double)rec->u.st.interval_ns / 1e6);
			add_int(t, "running", rec->u.st.running);
			add_double(t, "percent", rec->u.st.percent);
			add_int(t, "eta_s", (int64_t)rec->u.st.eta_s);
			add_int(t, "drops", (int64_t)rec->u.st.drops);
			o = job_slot(lj, LIVE_TOTAL);
		} else
			o = job_slot(lj, rec->job);
		if (!o)
			break;
		if (rec->job != LIVE_TOTAL && rec->ddir < 6)
			json_object_object_add(o, "phase", json_object_new_string(phase_names[rec->ddir]));
		add_int(o, "inflight", rec->u.st.inflight);
		add_int(o, "errors", (int64_t)rec->u.st.errors);
		break;
	case LIVE_DISK:
		disk_obj(lj, rec);
		break;
	case LIVE_TICK_END:
		flush_tick(lj, rec);
		break;
	default:
		break;
	}
}

int live_json_close(struct live_json *lj, char *err, size_t errlen)
{
	int ret;
	size_t i;

	if (!lj)
		return 0;
	ret = run_output_close(&lj->out, err, errlen);
	for (i = 0; i < lj->nr_job_obj; i++)
		json_object_put(lj->job_obj[i]);
	json_object_put(lj->total);
	json_object_put(lj->devices);
	json_object_put(lj->tick);
	free(lj->job_obj);
	free(lj);
	return ret;
}
