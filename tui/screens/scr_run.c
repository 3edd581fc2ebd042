/*
 * scr_run.c - the Run screen: big interval IOPS and MB/s per direction,
 * time-series graphs of IOPS, MB/s and latency (p50/p99/p99.9), per-job
 * rows, member-device activity, phase, elapsed, ETA, a progress bar and
 * dropped records. Everything comes from the live records the engine pushes
 * through the ring; nothing here waits for the engine.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"
#include "tui_int.h"
#include "widgets.h"
#include "worker.h"

#define HIST_LEN 600		/* a minute of 100 ms ticks */
#define MAX_JOBS 64
#define MAX_DISKS 16

struct io_now {
	double iops, bw;	/* per second, this interval */
	uint32_t p50, p99, p999, max;
	uint64_t tot_ios;
};

struct run_state {
	/* names, from the layout */
	size_t nr_jobs;
	char job_names[MAX_JOBS][48];
	size_t nr_disks;
	char disk_names[MAX_DISKS][32];
	/* the tick being gathered, then shown */
	struct io_now tot[DDIR_RWDIR_CNT], tot_next[DDIR_RWDIR_CNT];
	struct io_now job[MAX_JOBS][DDIR_RWDIR_CNT], job_next[MAX_JOBS][DDIR_RWDIR_CNT];
	int job_phase[MAX_JOBS];
	struct live_rec disk[MAX_DISKS], disk_next[MAX_DISKS];
	bool disk_seen[MAX_DISKS];
	double interval_s;
	uint64_t elapsed_ns;
	float percent;
	uint64_t eta_s;
	uint64_t drops;
	uint32_t running, ramp, inflight;
	bool started, ended;
	/* history for the graphs, oldest first */
	double h_iops[HIST_LEN], h_bw[HIST_LEN], h_p50[HIST_LEN], h_p99[HIST_LEN],
		h_p999[HIST_LEN];
	size_t h_n;
	bool graph_bw;		/* 'g' toggles IOPS / MB/s */
	bool confirm_stop;
};

static void *run_init(struct app *app)
{
	(void)app;
	return calloc(1, sizeof(struct run_state));
}

static void run_release(void *st)
{
	free(st);
}

void scr_run_reset(void *p)
{
	struct run_state *st = p;
	bool g = st->graph_bw;

	memset(st, 0, sizeof(*st));
	st->graph_bw = g;
}

void scr_run_layout(void *p, const struct job_list *jl, const struct run_layout *lay)
{
	struct run_state *st = p;
	size_t i;

	(void)jl;
	st->nr_jobs = lay->nr_workers < MAX_JOBS ? lay->nr_workers : MAX_JOBS;
	for (i = 0; i < st->nr_jobs; i++)
		snprintf(st->job_names[i], sizeof(st->job_names[i]), "%s", lay->worker_names[i]);
	st->nr_disks = lay->nr_disks < MAX_DISKS ? lay->nr_disks : MAX_DISKS;
	for (i = 0; i < st->nr_disks; i++)
		snprintf(st->disk_names[i], sizeof(st->disk_names[i]), "%s", lay->disk_names[i]);
	st->started = true;
}

static void push_hist(double *h, size_t n, double v)
{
	if (n == HIST_LEN)
		memmove(h, h + 1, (HIST_LEN - 1) * sizeof(*h));
	h[n == HIST_LEN ? HIST_LEN - 1 : n] = v;
}

static bool idle(const struct io_now *io)
{
	int d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		if (io[d].iops > 0 || io[d].bw > 0)
			return false;
	return true;
}

static void end_tick(struct run_state *st)
{
	double iops = 0, bw = 0;
	uint32_t p50 = 0, p99 = 0, p999 = 0;
	size_t j;
	int d;

	/*
	 * A job that is done keeps showing its last whole interval (the tail
	 * between the last tick and its end is short and says little), and so do
	 * the totals once nothing runs: a finished run does not read as zeros.
	 */
	for (j = 0; j < st->nr_jobs; j++)
		if (st->job_phase[j] != PHASE_DONE || idle(st->job[j]))
			memcpy(st->job[j], st->job_next[j], sizeof(st->job[j]));
	memcpy(st->disk, st->disk_next, sizeof(st->disk));
	if (!st->running && st->h_n) {
		memset(st->tot_next, 0, sizeof(st->tot_next));
		memset(st->job_next, 0, sizeof(st->job_next));
		return;
	}
	memcpy(st->tot, st->tot_next, sizeof(st->tot));
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		iops += st->tot[d].iops;
		bw += st->tot[d].bw;
		/* the graph follows the slower direction's latency */
		if (st->tot[d].p99 > p99) {
			p50 = st->tot[d].p50;
			p99 = st->tot[d].p99;
			p999 = st->tot[d].p999;
		}
	}
	push_hist(st->h_iops, st->h_n, iops);
	push_hist(st->h_bw, st->h_n, bw);
	push_hist(st->h_p50, st->h_n, p50);
	push_hist(st->h_p99, st->h_n, p99);
	push_hist(st->h_p999, st->h_n, p999);
	if (st->h_n < HIST_LEN)
		st->h_n++;
	memset(st->tot_next, 0, sizeof(st->tot_next));
	memset(st->job_next, 0, sizeof(st->job_next));
}

void scr_run_record(void *p, const struct live_rec *rec)
{
	struct run_state *st = p;
	struct io_now *io;

	switch (rec->type) {
	case LIVE_IO:
		if (rec->ddir >= DDIR_RWDIR_CNT)
			break;
		if (rec->job == LIVE_TOTAL)
			io = &st->tot_next[rec->ddir];
		else if (rec->job < MAX_JOBS)
			io = &st->job_next[rec->job][rec->ddir];
		else
			break;
		/* rates use the tick's interval, which the status record brings; keep counts */
		io->iops = rec->u.io.ios;
		io->bw = (double)rec->u.io.bytes;
		io->p50 = rec->u.io.p50_ns;
		io->p99 = rec->u.io.p99_ns;
		io->p999 = rec->u.io.p999_ns;
		io->max = rec->u.io.max_ns;
		io->tot_ios = rec->u.io.tot_ios;
		break;
	case LIVE_STATUS:
		if (rec->job == LIVE_TOTAL) {
			double s = (double)rec->u.st.interval_ns / 1e9;
			size_t j;
			int d;

			st->interval_s = s;
			/* a stopped run's workers all read "done": keep the progress it had */
			if (rec->u.st.running)
				st->percent = rec->u.st.percent;
			st->eta_s = rec->u.st.eta_s;
			st->drops = rec->u.st.drops;
			st->running = rec->u.st.running;
			st->ramp = rec->u.st.ramp;
			st->inflight = rec->u.st.inflight;
			st->elapsed_ns = rec->t_ns;
			for (d = 0; d < DDIR_RWDIR_CNT && s > 0; d++) {
				st->tot_next[d].iops /= s;
				st->tot_next[d].bw /= s;
				for (j = 0; j < st->nr_jobs; j++) {
					st->job_next[j][d].iops /= s;
					st->job_next[j][d].bw /= s;
				}
			}
		} else if (rec->job < MAX_JOBS)
			st->job_phase[rec->job] = rec->ddir;
		break;
	case LIVE_DISK:
		if (rec->job < MAX_DISKS) {
			st->disk_next[rec->job] = *rec;
			st->disk_seen[rec->job] = true;
		}
		break;
	case LIVE_TICK_END:
		end_tick(st);
		break;
	case LIVE_END:
		st->ended = true;
		st->running = 0;
		break;
	default:
		break;
	}
}

static const char *phase_name(int phase)
{
	static const char *const names[] = { "setup", "layout", "ramp", "run", "verify", "done" };

	return phase >= 0 && phase < 6 ? names[phase] : "?";
}

static void draw_status(struct app *app, struct run_state *st, int y, int x, int w)
{
	const struct theme *t = app->theme;
	uint64_t el = st->elapsed_ns / 1000000000ull;
	bool stopped = st->ended && app->run.have_result && app->run.res.interrupted;
	double pct = st->ended && !stopped ? 100.0 : st->percent;
	char line[160];
	int bar;

	snprintf(line, sizeof(line), "%s  elapsed %02llu:%02llu  eta %02llu:%02llu  depth %u%s",
		 stopped ? "stopped early" : st->ended ? "finished" :
		 st->ramp ? "ramp (no statistics yet)" : "running",
		 (unsigned long long)(el / 60), (unsigned long long)(el % 60),
		 (unsigned long long)(st->eta_s / 60), (unsigned long long)(st->eta_s % 60),
		 st->inflight, st->drops ? "  live records dropped (display only)" : "");
	w_text(y, x, w, theme_attr(t, st->drops ? EL_STATUS_WARN : EL_DEFAULT), false, "%s", line);
	bar = w - w_width(line) - 9;
	if (bar > 10) {
		w_hbar(t, y, x + w - bar - 8, bar, pct / 100.0, theme_attr(t, EL_STATUS_BUSY));
		w_text(y, x + w - 7, 7, A_BOLD, false, "%5.1f%%", pct);
	}
}

static void draw_big(struct app *app, struct run_state *st, int y, int x, int w)
{
	const struct theme *t = app->theme;
	static const char *const label[] = { "READ", "WRITE" };
	int d, col = w / 2;

	for (d = 0; d < 2; d++) {
		char iops[32], bw[32], p50[32], p99[32];
		attr_t a = theme_attr(t, d ? EL_GAUGE_WRITE : EL_GAUGE_READ);

		fmt_count(iops, sizeof(iops), st->tot[d].iops);
		fmt_rate(bw, sizeof(bw), st->tot[d].bw);
		fmt_ns(p50, sizeof(p50), st->tot[d].p50);
		fmt_ns(p99, sizeof(p99), st->tot[d].p99);
		w_text(y, x + d * col, col, a, false, "%-5s", label[d]);
		w_text(y, x + d * col + 6, col - 6, theme_attr(t, EL_BIG_NUMBER), false,
		       "%s IOPS  %s", iops, bw);
		/* no completions in the interval: no latency to speak of */
		w_text(y + 1, x + d * col + 6, col - 6, theme_attr(t, EL_DIM), false,
		       "p50 %s  p99 %s", st->tot[d].iops > 0 ? p50 : "-",
		       st->tot[d].iops > 0 ? p99 : "-");
	}
}

static void draw_graphs(struct app *app, struct run_state *st, const struct rect *r)
{
	const struct theme *t = app->theme;
	struct rect a = *r, b = *r, in;
	char max[32];
	double m = 0;
	size_t i;

	if (r->w >= 120) {
		a.w = r->w / 2;
		b.x = r->x + a.w;
		b.w = r->w - a.w;
	} else {
		a.h = r->h / 2;
		b.y = r->y + a.h;
		b.h = r->h - a.h;
	}
	for (i = 0; i < st->h_n; i++)
		m = (st->graph_bw ? st->h_bw[i] : st->h_iops[i]) > m ?
			    (st->graph_bw ? st->h_bw[i] : st->h_iops[i]) : m;
	if (st->graph_bw)
		fmt_rate(max, sizeof(max), m);
	else {
		fmt_count(max, sizeof(max), m);
		strcat(max, " IOPS");
	}
	{
		char title[64];

		snprintf(title, sizeof(title), "%s (peak %s)", st->graph_bw ? "MB/s" : "IOPS", max);
		w_box(t, &a, title);
	}
	in = w_inner(&a);
	w_graph(t, &in, st->graph_bw ? st->h_bw : st->h_iops, st->h_n, m,
		theme_attr(t, EL_GAUGE_READ));
	m = 0;
	for (i = 0; i < st->h_n; i++)
		m = st->h_p999[i] > m ? st->h_p999[i] : m;
	fmt_ns(max, sizeof(max), m);
	{
		char title[80];

		snprintf(title, sizeof(title), "latency p50/p99/p99.9 (max %s)", max);
		w_box(t, &b, title);
	}
	in = w_inner(&b);
	/* p99.9 first, then p99 and p50 over it: the lower percentiles stay visible */
	w_graph(t, &in, st->h_p999, st->h_n, m, theme_attr(t, EL_GRAPH_P999));
	w_graph(t, &in, st->h_p99, st->h_n, m, theme_attr(t, EL_GRAPH_P99));
	w_graph(t, &in, st->h_p50, st->h_n, m, theme_attr(t, EL_GRAPH_P50));
}

static void draw_tables(struct app *app, struct run_state *st, const struct rect *r)
{
	const struct theme *t = app->theme;
	int y = r->y, last = r->y + r->h;
	size_t i;

	w_text(y++, r->x, r->w, theme_attr(t, EL_TITLE), true,
	       "%-16s %-7s %8s %9s %8s %9s %9s", "job", "phase", "r IOPS", "r MB/s",
	       "w IOPS", "w MB/s", "p99");
	for (i = 0; i < st->nr_jobs && y < last - (st->nr_disks ? 2 : 0); i++) {
		char ri[16], wi[16], rb[24], wb[24], p[24];
		uint32_t p99 = st->job[i][0].p99 > st->job[i][1].p99 ? st->job[i][0].p99
								 : st->job[i][1].p99;

		fmt_count(ri, sizeof(ri), st->job[i][0].iops);
		fmt_count(wi, sizeof(wi), st->job[i][1].iops);
		snprintf(rb, sizeof(rb), "%.1f", st->job[i][0].bw / 1e6);
		snprintf(wb, sizeof(wb), "%.1f", st->job[i][1].bw / 1e6);
		fmt_ns(p, sizeof(p), p99);
		w_text(y++, r->x, r->w, A_NORMAL, true, "%-16.16s %-7s %8s %9s %8s %9s %9s",
		       st->job_names[i], phase_name(st->job_phase[i]), ri, rb, wi, wb, p);
	}
	if (!st->nr_disks || y >= last)
		return;
	w_text(y++, r->x, r->w, theme_attr(t, EL_TITLE), true,
	       "%-12s %8s %8s %8s %8s %6s %7s %7s %5s", "device", "r/s", "w/s", "rMB/s",
	       "wMB/s", "aqu-sz", "r_await", "w_await", "%util");
	for (i = 0; i < st->nr_disks && y < last; i++) {
		const struct live_rec *d = &st->disk[i];
		double s = d->u.disk.interval_ms / 1000.0;
		char util[16];

		if (!st->disk_seen[i] || s <= 0)
			continue;
		/* the kernel's busy time can run a tick ahead of the interval: capped, as iostat */
		if (d->u.disk.util_meaningful)
			snprintf(util, sizeof(util), "%.0f",
				 fmin(100.0, 100.0 * d->u.disk.io_ticks /
					     (d->u.disk.interval_ms ? d->u.disk.interval_ms : 1)));
		else
			snprintf(util, sizeof(util), "n/a");
		w_text(y++, r->x, r->w, A_NORMAL, true,
		       "%-12.12s %8.0f %8.0f %8.1f %8.1f %6.1f %7.2f %7.2f %5s", st->disk_names[i],
		       d->u.disk.r_ios / s, d->u.disk.w_ios / s, d->u.disk.r_sectors * 512.0 / 1e6 / s,
		       d->u.disk.w_sectors * 512.0 / 1e6 / s,
		       (double)d->u.disk.queue_ticks / (d->u.disk.interval_ms ? d->u.disk.interval_ms : 1),
		       d->u.disk.r_ios ? (double)d->u.disk.r_ticks / d->u.disk.r_ios : 0.0,
		       d->u.disk.w_ios ? (double)d->u.disk.w_ticks / d->u.disk.w_ios : 0.0, util);
	}
}

/* The interval's latency distribution per direction: p50, p99, p99.9 and max as bars. */
static void draw_latency(struct app *app, struct run_state *st, const struct rect *r)
{
	const struct theme *t = app->theme;
	static const char *const dname[] = { "read", "write" };
	static const char *const pname[] = { "p50", "p99", "p99.9", "max" };
	static const enum theme_el pel[] = { EL_GRAPH_P50, EL_GRAPH_P99, EL_GRAPH_P999,
					     EL_STATUS_FAILED };
	struct rect in;
	double max = 0;
	int d, k, y, col;

	if (r->h < 4)
		return;
	w_box(t, r, "latency this interval (completion latency)");
	in = w_inner(r);
	for (d = 0; d < 2; d++) {
		if (st->tot[d].max > max)
			max = st->tot[d].max;
		if (st->tot[d].p999 > max)
			max = st->tot[d].p999;
	}
	col = in.w / 2;
	for (d = 0; d < 2; d++) {
		const struct io_now *io = &st->tot[d];
		uint32_t v[4] = { io->p50, io->p99, io->p999, io->max };

		y = in.y;
		w_text(y++, in.x + d * col + 1, col - 2, theme_attr(t, EL_TITLE), false, "%s",
		       dname[d]);
		for (k = 0; k < 4 && y < in.y + in.h; k++, y++) {
			char val[24];
			int bw = col - 20;

			fmt_ns(val, sizeof(val), v[k]);
			w_text(y, in.x + d * col + 1, 6, A_NORMAL, false, "%s", pname[k]);
			if (bw > 4)
				w_hbar(t, y, in.x + d * col + 7, bw, max > 0 ? v[k] / max : 0,
				       theme_attr(t, pel[k]));
			w_text(y, in.x + d * col + 8 + (bw > 4 ? bw : 0), 11, A_NORMAL, false, "%s",
			       val);
		}
	}
}

static void run_draw(struct app *app, void *p, const struct rect *r)
{
	struct run_state *st = p;
	const struct theme *t = app->theme;
	struct rect g, tab;
	int rows_tables;

	if (!st->started) {
		const char *target = app->target.path[0] ? app->target.path : "the scratch file";

		w_text(r->y + 1, 2, r->w - 4, theme_attr(t, EL_TITLE), false, "%s",
		       app->run.error[0] ? "The run did not start." : "No run yet.");
		w_text(r->y + 3, 2, r->w - 4, A_NORMAL, false, "Profile: %s",
		       app->profile.name[0] ? app->profile.name : "default (quick look, 4 phases)");
		w_text(r->y + 4, 2, r->w - 4, A_NORMAL, false, "Target:  %s", target);
		w_text(r->y + 6, 2, r->w - 4, A_NORMAL, false,
		       "Press Enter to start. F3 picks a profile, F4 a target.");
		if (app->run.error[0])
			w_wrap(r->y + 8, 2, r->w - 4, r->h - 9, theme_attr(t, EL_ERROR),
			       app->run.error);
		return;
	}
	draw_status(app, st, r->y, r->x + 1, r->w - 2);
	draw_big(app, st, r->y + 1, r->x + 1, r->w - 2);
	rows_tables = (int)st->nr_jobs + (st->nr_disks ? (int)st->nr_disks + 1 : 0) + 1;
	if (rows_tables > r->h / 3)
		rows_tables = r->h / 3;
	g.y = r->y + 3;
	g.x = r->x;
	g.w = r->w;
	g.h = r->h - 3 - rows_tables - (st->confirm_stop || app->run.error[0] ? 1 : 0);
	/* tall terminals: graphs of a readable height, then the latency distribution */
	if (g.h > 22) {
		struct rect lat = { g.y + g.h - 7, r->x, 7, r->w };

		g.h -= 7;
		draw_latency(app, st, &lat);
	}
	draw_graphs(app, st, &g);
	tab.y = r->y + r->h - rows_tables - (st->confirm_stop || app->run.error[0] ? 1 : 0);
	tab.x = r->x + 1;
	tab.w = r->w - 2;
	tab.h = rows_tables;
	draw_tables(app, st, &tab);
	if (st->confirm_stop)
		w_text(r->y + r->h - 1, 0, r->w, theme_attr(t, EL_ERROR), true,
		       " Stop the run? y stops it (the results so far are kept), any other key goes on.");
	else if (app->run.error[0])
		w_text(r->y + r->h - 1, 0, r->w, theme_attr(t, EL_ERROR), true, " %s", app->run.error);
}

static int run_key(struct app *app, void *p, int ch)
{
	struct run_state *st = p;

	if (st->confirm_stop) {
		st->confirm_stop = false;
		if (ch == 'y' || ch == 'Y')
			app_run_stop(app);
		return EV_HANDLED;
	}
	switch (ch) {
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (app_run_active(app))
			return EV_HANDLED;
		if (app_run_start(app))
			app_message(app, "The run did not start: %s", app->run.error);
		return EV_HANDLED;
	case 's':
	case 'S':
		if (app_run_active(app))
			st->confirm_stop = true;
		return EV_HANDLED;
	case 'g':
	case 'G':
		st->graph_bw = !st->graph_bw;
		return EV_HANDLED;
	default:
		return EV_NONE;
	}
}

static const struct key_hint run_hints[] = {
	{ "Enter", "Start" }, { "s", "Stop" }, { "g", "IOPS/MB/s" }, { NULL, NULL },
};

const struct screen_ops scr_run_ops = {
	.title = "Run",
	.init = run_init,
	.release = run_release,
	.draw = run_draw,
	.key = run_key,
	.hints = run_hints,
};
