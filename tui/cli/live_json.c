/*
 * live_json.c - `raidbench run --live=FILE`: the live records as JSON Lines,
 * one object per engine tick (schema in README.md "Live view"), and one
 * line of its own for each job that fails, as it fails.
 * Interval numbers, not running averages; cumulative totals ride along so a
 * reader that misses lines (or a ring that dropped records) still ends exact.
 * The numbers come decoded (core/live_view.h); this file only writes them.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "live_view.h"

struct live_json {
	struct run_output out;
	const struct run_layout *lay;
};

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
	return 0;
}

static void add_int(json_object *o, const char *k, int64_t v)
{
	json_object_object_add(o, k, json_object_new_int64(v));
}

static void add_double(json_object *o, const char *k, double v)
{
	json_object_object_add(o, k, json_object_new_double(v));
}

static json_object *io_obj(const struct live_io *io)
{
	json_object *o = json_object_new_object(), *lat = json_object_new_object();

	add_int(o, "ios", (int64_t)io->ios);
	add_int(o, "bytes", (int64_t)io->bytes);
	add_int(lat, "mean", io->mean_ns);
	add_int(lat, "p50", io->p50_ns);
	add_int(lat, "p99", io->p99_ns);
	add_int(lat, "p99.9", io->p999_ns);
	add_int(lat, "max", io->max_ns);
	json_object_object_add(o, "clat_ns", lat);
	add_int(o, "total_ios", (int64_t)io->tot_ios);
	add_int(o, "total_bytes", (int64_t)io->tot_bytes);
	add_double(o, "iops", io->iops);
	add_double(o, "bw_bytes", io->bw);
	return o;
}

/* A job's (or the total's) directions, phase, depth and errors. */
static void job_fill(json_object *o, const struct live_job *j)
{
	int d;

	for (d = 0; d < LIVE_NR_DDIR; d++)
		if (j->io[d].seen)
			json_object_object_add(o, live_ddir_name(d), io_obj(&j->io[d]));
	if (!j->seen)
		return;
	if (j->phase >= 0)
		json_object_object_add(o, "phase", json_object_new_string(live_phase_name(j->phase)));
	add_int(o, "inflight", j->inflight);
	add_int(o, "errors", (int64_t)j->errors);
}

static bool job_seen(const struct live_job *j)
{
	int d;

	for (d = 0; d < LIVE_NR_DDIR; d++)
		if (j->io[d].seen)
			return true;
	return j->seen;
}

static json_object *dev_obj(const struct live_dev *d)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "name", json_object_new_string(d->name));
	add_double(o, "r_s", d->r_s);
	add_double(o, "w_s", d->w_s);
	add_double(o, "rMB_s", d->rmb_s);
	add_double(o, "wMB_s", d->wmb_s);
	add_double(o, "aqu_sz", d->aqu_sz);
	add_double(o, "r_await_ms", d->r_await_ms);
	add_double(o, "w_await_ms", d->w_await_ms);
	if (d->util_pct >= 0)
		add_double(o, "util_pct", d->util_pct);
	else
		json_object_object_add(o, "util_pct", NULL);
	return o;
}

static void put_line(struct live_json *lj, json_object *o)
{
	if (fprintf(lj->out.f, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN)) < 0 &&
	    !lj->out.error)
		lj->out.error = errno ? -errno : -EIO;
	if (!lj->out.path)
		run_output_flush(&lj->out);	/* a reader on the pipe sees each line at once */
	json_object_put(o);
}

void live_json_error(struct live_json *lj, uint64_t t_ns, size_t j, const char *error)
{
	json_object *o = json_object_new_object(), *e = json_object_new_object();

	add_int(o, "t_ms", (int64_t)(t_ns / 1000000));
	add_int(e, "job", (int64_t)j);
	if (lj->lay && j < lj->lay->nr_workers) {
		if (lj->lay->worker_hosts)
			json_object_object_add(e, "host",
					       json_object_new_string(lj->lay->worker_hosts[j]));
		json_object_object_add(e, "name", json_object_new_string(lj->lay->worker_names[j]));
		add_int(e, "groupid", lj->lay->worker_groups[j]);
	}
	json_object_object_add(e, "error", json_object_new_string(error));
	json_object_object_add(o, "failed", e);
	put_line(lj, o);
}

void live_json_tick(struct live_json *lj, const struct live_tick *t)
{
	json_object *o = json_object_new_object(), *jobs = json_object_new_array();
	json_object *total = json_object_new_object(), *devs = json_object_new_array(), *hosts = NULL;
	size_t i, nr_jobs = lj->lay ? lj->lay->nr_workers : 0;
	size_t nr_devs = lj->lay ? lj->lay->nr_disks : 0;

	add_double(o, "interval_ms", (double)t->interval_ns / 1e6);
	add_int(o, "running", t->total.running);
	add_double(o, "percent", t->total.percent);
	add_int(o, "eta_s", (int64_t)t->total.eta_s);
	add_int(o, "drops", (int64_t)t->drops);
	add_int(o, "t_ms", (int64_t)(t->t_ns / 1000000));
	for (i = 0; i < nr_jobs; i++) {
		json_object *j;

		if (!job_seen(&t->jobs[i]))
			continue;
		j = json_object_new_object();
		add_int(j, "job", (int64_t)i);
		if (lj->lay->worker_hosts) {
			/* a fleet: every row names its host; a host's total row is only that */
			json_object_object_add(j, "host",
					       json_object_new_string(lj->lay->worker_hosts[i]));
			if (lj->lay->worker_groups[i] < 0) {
				job_fill(j, &t->jobs[i]);
				if (!hosts)
					hosts = json_object_new_array();
				json_object_array_add(hosts, j);
				continue;
			}
		}
		json_object_object_add(j, "name", json_object_new_string(lj->lay->worker_names[i]));
		add_int(j, "groupid", lj->lay->worker_groups[i]);
		job_fill(j, &t->jobs[i]);
		json_object_array_add(jobs, j);
	}
	job_fill(total, &t->total);
	for (i = 0; i < nr_devs; i++)
		if (t->devs[i].seen)
			json_object_array_add(devs, dev_obj(&t->devs[i]));
	if (hosts)
		json_object_object_add(o, "hosts", hosts);
	json_object_object_add(o, "jobs", jobs);
	json_object_object_add(o, "total", total);
	json_object_object_add(o, "devices", devs);
	put_line(lj, o);
}

int live_json_close(struct live_json *lj, char *err, size_t errlen)
{
	int ret;

	if (!lj)
		return 0;
	ret = run_output_close(&lj->out, err, errlen);
	free(lj);
	return ret;
}
