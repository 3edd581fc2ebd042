/*
 * cmd_fleet.c - `raidbench run --client=HOST ...`: the same jobs on many fio
 * servers at once (core/fleet.h), watched through the same live records as
 * a local run (status line, --live JSON Lines), reported in fio's
 * client-mode shape and saved as one run holding every host's results and
 * the "All clients" sum. Each failed host is named with its reason on
 * stderr; the others' results stand.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include <json-c/json.h>

#include "cli.h"
#include "tty_text.h"
#include "config.h"
#include "fleet.h"
#include "live_view.h"
#include "report.h"
#include "report_fleet.h"
#include "results.h"

static volatile sig_atomic_t fleet_interrupted;

static void on_fleet_signal(int sig)
{
	fleet_interrupted = sig;
}

static const struct job_spec *job_named(const struct job_list *jl, const char *name)
{
	size_t i;

	for (i = 0; i < jl->nr; i++)
		if (!strcmp(jl->jobs[i].name, name))
			return &jl->jobs[i];
	return jl->nr ? &jl->jobs[0] : NULL;
}

/* Every host's results in one report, plus the fio-style sum of them all. */
struct fleet_results {
	struct thread_stat *ts;		/* hosts' entries, then "All clients" */
	size_t nr_ts;
	struct report_fleet_host *hosts;
	size_t *fleet_index;		/* hosts[k] is f->hosts[fleet_index[k]] */
	size_t nr_hosts;
	struct group_stat *gs;
	size_t nr_gs;
	bool have_all;
};

static int gather(const struct fleet *f, const struct job_list *jl, struct fleet_results *r)
{
	size_t total = 0, h, i, n = 0;

	memset(r, 0, sizeof(*r));
	for (h = 0; h < f->nr_hosts; h++)
		total += f->hosts[h].nr_ts;
	r->ts = calloc(total + 1, sizeof(*r->ts));
	r->hosts = calloc(f->nr_hosts + 1, sizeof(*r->hosts));
	r->fleet_index = calloc(f->nr_hosts + 1, sizeof(*r->fleet_index));
	if (!r->ts || !r->hosts || !r->fleet_index)
		return -ENOMEM;
	for (h = 0; h < f->nr_hosts; h++) {
		const struct fleet_host *fh = &f->hosts[h];
		struct report_fleet_host *rh = &r->hosts[r->nr_hosts];
		struct group_stat *gs = NULL;
		size_t nr_gs = 0;

		if (!fh->nr_ts)
			continue;
		rh->hostname = fh->addr.host;	/* fio prints the host part */
		rh->port = fh->addr.port;
		r->fleet_index[r->nr_hosts] = h;
		rh->first = n;
		rh->nr = fh->nr_ts;
		for (i = 0; i < fh->nr_ts; i++) {
			r->ts[n + i] = fh->ts[i];
			r->ts[n + i].job = job_named(jl, fh->ts[i].name);
		}
		/* each host's groups apart: the share of a group's bandwidth is per host, as fio's */
		if (group_stats_build(r->ts + n, fh->nr_ts, &gs, &nr_gs))
			return -ENOMEM;
		free(gs);
		n += fh->nr_ts;
		r->nr_hosts++;
	}
	r->nr_ts = n;
	if (n > 1) {
		struct thread_stat *all = &r->ts[n];

		thread_stat_init(all, r->ts[0].job);
		for (i = 0; i < n; i++)
			thread_stat_merge(all, &r->ts[i]);
		snprintf(all->name, sizeof(all->name), "All clients");
		/* fio sums without the options: no "job options", no latency target keys */
		all->job = NULL;
		all->latency_depth = 0;
		r->have_all = true;
	}
	return group_stats_build(r->ts, n, &r->gs, &r->nr_gs);
}

static void fleet_results_release(struct fleet_results *r)
{
	free(r->ts);
	free(r->hosts);
	free(r->fleet_index);
	free(r->gs);
}

static void print_hosts_line(struct status_line *st, const struct fleet *f)
{
	size_t i, up = 0;

	for (i = 0; i < f->nr_hosts; i++)
		if (f->hosts[i].state <= FLEET_STOPPING)
			up++;
	st->hosts = (unsigned)f->nr_hosts;
	st->hosts_up = (unsigned)up;
}

/* The saved run's "fleet" member: every host, its state and its entries. */
static char *fleet_json(const struct fleet *f, const struct fleet_results *r)
{
	json_object *o = json_object_new_object(), *arr = json_object_new_array();
	char *s;
	size_t h, k;

	for (h = 0; h < f->nr_hosts; h++) {
		const struct fleet_host *fh = &f->hosts[h];
		json_object *e = json_object_new_object();

		json_object_object_add(e, "client", json_object_new_string(fh->addr.name));
		json_object_object_add(e, "port", json_object_new_int64(fh->addr.port));
		json_object_object_add(e, "hostname", fh->probed ?
				       json_object_new_string(fh->probe.hostname) : NULL);
		json_object_object_add(e, "fio_version", fh->probed ?
				       json_object_new_string(fh->probe.fio_version) : NULL);
		json_object_object_add(e, "state", json_object_new_string(fleet_state_name(fh->state)));
		json_object_object_add(e, "fault", json_object_new_string(fleet_fault_name(fh->fault)));
		json_object_object_add(e, "why", fh->why[0] ? json_object_new_string(fh->why) : NULL);
		json_object_object_add(e, "final", json_object_new_boolean(fh->final));
		for (k = 0; k < r->nr_hosts; k++)
			if (r->fleet_index[k] == h) {
				json_object_object_add(e, "first_job", json_object_new_int64(
							       (int64_t)r->hosts[k].first));
				json_object_object_add(e, "nr_jobs", json_object_new_int64(
							       (int64_t)r->hosts[k].nr));
			}
		json_object_array_add(arr, e);
	}
	json_object_object_add(o, "hosts", arr);
	/* what the console handled: make bench divides its CPU time by these */
	json_object_object_add(o, "status_messages", json_object_new_int64((int64_t)f->msgs));
	json_object_object_add(o, "ticks", json_object_new_int64((int64_t)f->ticks));
	json_object_object_add(o, "all_clients", r->have_all ?
			       json_object_new_int64((int64_t)r->nr_ts) : NULL);
	s = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return s;
}

/* One saved run: every host's entries, the sum, and the hosts' states. 0 or -errno, err set. */
static int save_gathered(const struct fleet *f, const struct job_list *jl,
			 const struct fleet_results *r, uint64_t start_ms, bool interrupted,
			 char *path, size_t pathlen, char *err, size_t errlen)
{
	struct run_report rep = { 0 };
	struct run_result res;
	struct results_extra extra = { "fleet", NULL };
	char tmp[4096];
	int ret;

	memset(&res, 0, sizeof(res));
	res.start_realtime_ms = start_ms;
	res.interrupted = interrupted;
	rep.jobs = jl;
	rep.ts = r->ts;
	rep.nr_ts = r->nr_ts + (r->have_all ? 1 : 0);
	rep.gs = r->gs;
	rep.nr_gs = r->nr_gs;
	rep.when = (time_t)(start_ms / 1000);
	rep.when_ms = start_ms;
	rep.version = "raidbench-" PACKAGE_VERSION;
	extra.json = fleet_json(f, r);
	if (!extra.json) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ret = results_save_extra(&rep, &res, NULL, &extra, 1, path ? path : tmp,
				 path ? pathlen : sizeof(tmp), err, errlen);
	free((char *)extra.json);
	return ret;
}

int fleet_save_results(const struct fleet *f, const struct job_list *jl, const void *gathered,
		       uint64_t start_ms, bool interrupted, char *path, size_t pathlen, char *err,
		       size_t errlen)
{
	struct fleet_results own;
	int ret;

	if (gathered)
		return save_gathered(f, jl, gathered, start_ms, interrupted, path, pathlen, err,
				     errlen);
	if (gather(f, jl, &own)) {
		fleet_results_release(&own);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ret = own.nr_ts ? save_gathered(f, jl, &own, start_ms, interrupted, path, pathlen, err,
					 errlen) : -ENODATA;
	if (ret == -ENODATA)
		snprintf(err, errlen, "no host gave results");
	fleet_results_release(&own);
	return ret;
}

static int emit(FILE *out, const struct fleet *f, const struct fleet_results *r,
		const struct job_list *jl, unsigned formats)
{
	struct run_report rep = { 0 };
	struct timeval tv;
	size_t h;
	int ret = 0;

	gettimeofday(&tv, NULL);
	rep.jobs = jl;
	rep.ts = r->ts;
	rep.nr_ts = r->nr_ts;
	rep.gs = r->gs;
	rep.nr_gs = r->nr_gs;
	rep.when = tv.tv_sec;
	rep.when_ms = (uint64_t)tv.tv_sec * 1000 + (uint64_t)tv.tv_usec / 1000;
	rep.version = "raidbench-" PACKAGE_VERSION;
	if (formats & REPORT_NORMAL) {
		for (h = 0; h < r->nr_hosts; h++) {
			struct run_report hr = rep;
			const struct fleet_host *fh = &f->hosts[r->fleet_index[h]];
			hr.ts = r->ts + r->hosts[h].first;
			hr.nr_ts = r->hosts[h].nr;
			hr.gs = NULL;
			hr.nr_gs = 0;
			if (group_stats_build(hr.ts, hr.nr_ts, &hr.gs, &hr.nr_gs))
				return -ENOMEM;
			fprintf(out, "<%s> hostname=%s, fio=%s%s%s\n", fh->addr.name,
				fh->probed ? fh->probe.hostname : "?",
				fh->probed ? fh->probe.fio_version : "?",
				!fh->final ? ", partial: " : "",
				!fh->final ? (fh->why[0] ? fh->why : "stopped") : "");
			ret |= report_normal(out, &hr);
			free(hr.gs);
		}
	}
	if (formats & (REPORT_JSON | REPORT_JSON_PLUS))
		ret |= report_fleet_json(out, &rep, r->hosts, r->nr_hosts,
					 r->have_all ? &r->ts[r->nr_ts] : NULL,
					 formats & REPORT_JSON_PLUS);
	if (formats & REPORT_TERSE)
		ret |= report_terse(out, &rep);
	return ret;
}

int run_fleet(const struct job_list *jl, const struct fleet_cli *fc)
{
	struct fleet_addr *addrs = NULL;
	struct fleet_params fp = { 0 };
	struct fleet f;
	struct status_line st;
	struct live_view view = { 0 };	/* the records decoded, for the status line and --live */
	struct live_json *live = NULL;
	struct run_output out;
	struct fleet_results r;
	char err[1024], werr[1100];
	char *job_text = NULL;
	size_t nr = 0, i, failed = 0, with_results = 0;
	struct timeval tv0;
	int ret, status = 0;

	for (i = 0; i < fc->nr_clients; i++)
		if (fleet_add_clients(fc->clients[i], &addrs, &nr, err, sizeof(err))) {
			tty_fprintf(stderr, "raidbench run: %s\n", err);
			free(addrs);
			return EXIT_USAGE;
		}
	if (fleet_check_writes(jl, fc->consent, err, sizeof(err))) {
		tty_fprintf(stderr, "raidbench run: %s\n", err);
		free(addrs);
		return EXIT_USAGE;
	}
	job_text = fleet_job_text(jl);
	if (!job_text || run_output_open(&out, fc->output, fc->consent, err, sizeof(err))) {
		tty_fprintf(stderr, "raidbench run: --output: %s\n", job_text ? err : "out of memory");
		free(job_text);
		free(addrs);
		return job_text ? EXIT_USAGE : 1;
	}
	if (fc->live) {
		live = live_json_open(fc->live, fc->consent, err, sizeof(err));
		if (!live) {
			tty_fprintf(stderr, "raidbench run: --live: %s\n", err);
			run_output_close(&out, werr, sizeof(werr));
			free(job_text);
			free(addrs);
			return EXIT_USAGE;
		}
	}
	cli_catch_stop_signals(on_fleet_signal);
	signal(SIGPIPE, SIG_IGN);
	status_line_init(&st);
	if (fc->live && !strcmp(fc->live, "-"))
		st.enabled = false;
	fp.job_text = job_text;
	fp.interval_ms = fc->interval_ms ? fc->interval_ms : 100;
	fp.interrupt = &fleet_interrupted;
	if (getenv("RAIDBENCH_TEST_FIO_VERSION"))	/* tests: a client of another version */
		fp.test_version = (uint16_t)atoi(getenv("RAIDBENCH_TEST_FIO_VERSION"));
	gettimeofday(&tv0, NULL);
	ret = fleet_begin(&f, addrs, nr, jl, &fp, err, sizeof(err));
	free(addrs);
	if (ret) {
		tty_fprintf(stderr, "raidbench run: %s\n", err);
		fleet_release(&f);
		free(job_text);
		live_json_close(live, werr, sizeof(werr));
		run_output_close(&out, werr, sizeof(werr));
		return 1;
	}
	run_output_start(&out);
	if (live)
		live_json_layout(live, &f.layout);
	/* without memory the run goes on unwatched: the final results do not need the view */
	if (live_view_init(&view, f.layout.nr_workers, f.layout.nr_disks, f.layout.disk_names))
		tty_fprintf(stderr, "raidbench run: no memory for the live view\n");
	for (;;) {
		struct live_rec recs[256];
		uint32_t n, k;
		bool going = fleet_step(&f, 50);

		print_hosts_line(&st, &f);
		while ((n = ring_pop_batch(&f.ring, recs, 256)) > 0)
			for (k = 0; k < n; k++) {
				if (!view.now.jobs || !live_view_feed(&view, &recs[k]))
					continue;
				status_line_tick(&st, &view.now);
				if (live)
					live_json_tick(live, &view.now);
			}
		if (!going)
			break;
	}
	live_view_release(&view);
	status_line_clear(&st);
	if (live && live_json_close(live, werr, sizeof(werr)) < 0) {
		tty_fprintf(stderr, "raidbench run: --live: %s; the final results are complete\n", werr);
		status = 1;
	}
	for (i = 0; i < f.nr_hosts; i++) {
		const struct fleet_host *h = &f.hosts[i];

		if (h->nr_ts)
			with_results++;
		if (h->state == FLEET_FAILED) {
			failed++;
			tty_fprintf(stderr, "raidbench run: host %s: %s: %s%s\n", h->addr.name,
				fleet_fault_name(h->fault), h->why,
				h->nr_ts && !h->final ?
				" (its last status is in the results, marked partial)" : "");
		}
	}
	if (gather(&f, jl, &r)) {
		tty_fprintf(stderr, "raidbench run: out of memory\n");
		status = 1;
	} else {
		errno = 0;
		if (with_results)
			emit(out.f, &f, &r, jl, fc->formats);
		else
			tty_fprintf(stderr, "raidbench run: no host gave results\n");
		if (run_output_close(&out, werr, sizeof(werr))) {
			tty_fprintf(stderr, "raidbench run: %s\n", werr);
			status = 1;
		}
		if (with_results && !fc->no_save &&
		    fleet_save_results(&f, jl, &r, (uint64_t)tv0.tv_sec * 1000 + (uint64_t)tv0.tv_usec / 1000,
				       fleet_interrupted != 0, NULL, 0, err, sizeof(err))) {
			tty_fprintf(stderr, "raidbench run: the results were not saved: %s\n", err);
			status = 1;
		}
		fleet_results_release(&r);
	}
	if (fleet_interrupted)
		tty_fprintf(stderr, "raidbench run: interrupted; every host was asked to stop, the "
			"results above are partial\n");
	if (!status && (failed || !with_results))
		status = 1;
	if (fleet_interrupted && !status)
		status = EXIT_SIGNAL(fleet_interrupted);
	else if (fleet_interrupted && failed == f.nr_hosts)
		status = EXIT_SIGNAL(fleet_interrupted);
	fleet_release(&f);
	free(job_text);
	return status;
}
