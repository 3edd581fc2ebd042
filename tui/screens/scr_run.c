/*
 * scr_run.c - the Run screen: big interval IOPS and MB/s per direction,
 * time-series graphs of IOPS, MB/s and latency (p50/p99/p99.9), per-job
 * rows (a job's clones as one row, 'x' opens them), member-device activity,
 * phase, elapsed, ETA, a progress bar and dropped records; a job that fails
 * says so at once (its row, and its error in the message area until the
 * run's own error list takes that place at the end); at the end, the run's
 * summary as saved. The live figures come decoded (core/live_view.h)
 * from the records the engine pushes through the ring; nothing here waits
 * for the engine.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "live_view.h"
#include "results.h"
#include "run_graph.h"
#include "run_next.h"
#include "run_summary.h"
#include "scr_run_int.h"
#include "tui.h"
#include "run_hosts.h"
#include "run_jobtext.h"
#include "tui_int.h"
#include "widgets.h"


static void *run_init(struct app *app)
{
	struct run_state *st = calloc(1, sizeof(struct run_state));

	(void)app;
	if (st && !(st->hosts = run_hosts_new())) {
		free(st);
		return NULL;
	}
	return st;
}

static void layout_free(struct run_state *st)
{
	if (st->have_view)
		live_view_release(&st->view);
	st->have_view = false;
	if (st->have_fin)
		result_release(&st->fin);
	st->have_fin = false;
	free(st->job_names);
	free(st->job_groups);
	free(st->job_nodes);
	free(st->grp);
	free(st->whole);
	st->job_names = NULL;
	st->job_groups = NULL;
	st->job_nodes = NULL;
	st->has_nodes = false;
	st->grp = NULL;
	st->whole = NULL;
}

static void run_release(void *p)
{
	struct run_state *st = p;

	if (!st)
		return;
	layout_free(st);
	run_hosts_free(st->hosts);
	free(st);
}

void scr_run_reset(void *p)
{
	struct run_state *st = p;
	struct run_hosts *hosts = st->hosts;
	bool g = st->graph_bw, x = st->expand;

	layout_free(st);
	memset(st, 0, sizeof(*st));
	st->graph_bw = g;
	st->expand = x;
	st->hosts = hosts;
	run_hosts_reset(hosts);
}

void scr_run_host_state(void *p, size_t host, const char *state, const char *why)
{
	struct run_state *st = p;

	run_hosts_state(st->hosts, host, state, why);
}

void scr_run_layout(void *p, const struct job_list *jl, const struct run_layout *lay)
{
	struct run_state *st = p;
	size_t i, n = lay->nr_workers;

	(void)jl;
	layout_free(st);
	st->live_err[0] = '\0';
	st->nr_errors = 0;
	st->job_names = calloc(n ? n : 1, sizeof(*st->job_names));
	st->job_groups = calloc(n ? n : 1, sizeof(*st->job_groups));
	st->job_nodes = calloc(n ? n : 1, sizeof(*st->job_nodes));
	st->grp = calloc(n ? n : 1, sizeof(*st->grp));
	st->whole = calloc(n ? n : 1, sizeof(*st->whole));
	st->have_view = !live_view_init(&st->view, n, lay->nr_disks, lay->disk_names);
	if (!st->job_names || !st->job_groups || !st->job_nodes || !st->grp || !st->whole ||
	    !st->have_view) {
		/* no memory: the run goes on, its final results do not need the screen */
		layout_free(st);
		return;
	}
	st->nr_jobs = n;
	st->nr_disks = lay->nr_disks;
	for (i = 0; i < n; i++) {
		snprintf(st->job_names[i], sizeof(st->job_names[i]), "%s", lay->worker_names[i]);
		st->job_groups[i] = lay->worker_groups[i];
		st->job_nodes[i] = lay->worker_nodes ? lay->worker_nodes[i] : -1;
		st->has_nodes = st->has_nodes || st->job_nodes[i] >= 0;
		/* clones are the workers of one job: side by side, same name and group */
		if (st->nr_grp && !strcmp(st->job_names[i], st->job_names[st->grp[st->nr_grp - 1].first]) &&
		    st->job_groups[i] == st->job_groups[st->grp[st->nr_grp - 1].first])
			st->grp[st->nr_grp - 1].n++;
		else
			st->grp[st->nr_grp++] = (struct job_group){ i, 1 };
	}
	run_hosts_layout(st->hosts, lay);
	st->started = true;
}

static void push_hist(double *h, size_t n, double v)
{
	if (n == HIST_LEN)
		memmove(h, h + 1, (HIST_LEN - 1) * sizeof(*h));
	h[n == HIST_LEN ? HIST_LEN - 1 : n] = v;
}

static void io_now_of(struct io_now *o, const struct live_io *io)
{
	o->iops = io->iops;
	o->bw = io->bw;
	o->p50 = io->p50_ns;
	o->p99 = io->p99_ns;
	o->p999 = io->p999_ns;
	o->max = io->max_ns;
	o->tot_ios = io->tot_ios;
}

/* Whole-run figures of each job, from the cumulative counts of its run phase. */
static void follow_jobs(struct run_state *st, const struct live_tick *t)
{
	size_t j;
	int d;

	for (j = 0; j < st->nr_jobs; j++) {
		const struct live_job *lj = &t->jobs[j];
		struct job_whole *w = &st->whole[j];
		double secs;

		if (!lj->seen || w->done)
			continue;
		w->last = *lj;
		w->seen = true;
		for (d = 0; d < LIVE_NR_DDIR; d++)
			if (lj->io[d].seen && lj->io[d].p99_ns > w->p99)
				w->p99 = lj->io[d].p99_ns;
		if (!w->counting && lj->phase >= PHASE_RUN) {
			/* the counts up to the end of ramp do not belong to the run */
			w->counting = true;
			w->t0_ns = t->t_ns - t->interval_ns;
			for (d = 0; d < LIVE_NR_DDIR; d++) {
				w->ios0[d] = lj->io[d].tot_ios - lj->io[d].ios;
				w->bytes0[d] = lj->io[d].tot_bytes - lj->io[d].bytes;
			}
		}
		if (!w->counting)
			continue;
		w->t1_ns = t->t_ns;
		for (d = 0; d < LIVE_NR_DDIR; d++)
			if (lj->io[d].seen) {
				w->ios1[d] = lj->io[d].tot_ios;
				w->bytes1[d] = lj->io[d].tot_bytes;
			}
		if (lj->phase != PHASE_DONE)
			continue;
		w->done = true;
		secs = (double)(w->t1_ns - w->t0_ns) / 1e9;
		for (d = 0; d < LIVE_NR_DDIR; d++) {
			w->iops[d] = secs > 0 && w->ios1[d] > w->ios0[d] ?
					     (double)(w->ios1[d] - w->ios0[d]) / secs : 0;
			w->bw[d] = secs > 0 && w->bytes1[d] > w->bytes0[d] ?
					   (double)(w->bytes1[d] - w->bytes0[d]) / secs : 0;
		}
	}
}

static void end_tick(struct run_state *st)
{
	const struct live_tick *t = &st->view.now;
	double iops = 0, bw = 0;
	uint32_t p50 = 0, p99 = 0, p999 = 0;
	int d;

	st->interval_s = (double)t->interval_ns / 1e9;
	/* a stopped run's workers all read "done": keep the progress it had */
	if (t->total.running)
		st->percent = t->total.percent;
	st->eta_s = t->total.eta_s;
	st->drops = t->drops;
	st->running = t->total.running;
	st->ramp = t->total.ramp;
	st->inflight = t->total.inflight;
	st->elapsed_ns = t->t_ns;
	follow_jobs(st, t);
	run_hosts_tick(st->hosts, t);
	/* the last tick of a run says little: the summary replaces it (scr_run_finished) */
	if (!st->running && st->h_n)
		return;
	for (d = 0; d < LIVE_NR_DDIR; d++) {
		io_now_of(&st->tot[d], &t->total.io[d]);
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
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		push_hist(st->h_dir_iops[d], st->h_n, st->tot[d].iops);
		push_hist(st->h_dir_bw[d], st->h_n, st->tot[d].bw);
	}
	push_hist(st->h_t, st->h_n, st->elapsed_ns / 1e9);
	if (st->h_n < HIST_LEN)
		st->h_n++;
}

void scr_run_record(void *p, const struct live_rec *rec)
{
	struct run_state *st = p;

	if (!st->have_view)
		return;
	if (live_view_feed(&st->view, rec))
		end_tick(st);
	if (st->view.nr_errors != st->nr_errors) {
		size_t j = st->view.last_error, len = strlen(st->live_err);
		char line[LIVE_ERROR_MAX + 64];

		st->nr_errors = st->view.nr_errors;
		live_view_error_line(&st->view, j, st->job_names[j], line, sizeof(line));
		/* full: the first ones stay (the run's end lists them all) */
		if (len + strlen(line) + 2 < sizeof(st->live_err))
			snprintf(st->live_err + len, sizeof(st->live_err) - len, "%s\n", line);
	}
	if (st->view.ended) {
		st->ended = true;
		st->running = 0;
	}
}

void scr_run_finished(void *p, const struct job_list *jl, const struct run_result *res)
{
	struct run_state *st = p;
	struct run_report rep;

	if (st->have_fin)
		result_release(&st->fin);
	run_report_init(&rep, jl, res);
	st->have_fin = !result_from_run(&st->fin, &rep, res, st->fin_err, sizeof(st->fin_err));
	st->ended = true;
	st->running = 0;
}

static void draw_status(struct app *app, struct run_state *st, int y, int x, int w)
{
	const struct theme *t = app->theme;
	uint64_t el = st->elapsed_ns / 1000000000ull;
	bool stopped = st->ended && app->run.have_result && app->run.res.interrupted;
	double pct = st->ended && !stopped ? 100.0 : st->percent;
	char line[160];
	int bar;

	char elapsed[32], eta[32];

	fmt_duration(elapsed, sizeof(elapsed), (unsigned long long)el);
	fmt_duration(eta, sizeof(eta), (unsigned long long)st->eta_s);
	snprintf(line, sizeof(line), "%s  elapsed %s  eta %s  depth %u%s",
		 stopped ? "stopped early" : st->ended ? "finished" :
		 st->ramp ? "ramp (no statistics yet)" : "running", elapsed, eta,
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
	struct graph_hist h = { st->h_t, st->h_n };
	struct rect a = *r, b = *r;
	char max[32], title[80];
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
		m = fmax(m, st->graph_bw ? st->h_bw[i] : st->h_iops[i]);
	if (st->graph_bw)
		fmt_rate(max, sizeof(max), m);
	else
		fmt_count(max, sizeof(max), m);
	graph_rates(t, &a, st->graph_bw ? "MB/s" : "IOPS", max,
		    st->graph_bw ? st->h_dir_bw[DDIR_READ] : st->h_dir_iops[DDIR_READ],
		    st->graph_bw ? st->h_dir_bw[DDIR_WRITE] : st->h_dir_iops[DDIR_WRITE], &h);
	m = 0;
	for (i = 0; i < st->h_n; i++)
		m = fmax(m, st->h_p999[i]);
	fmt_ns(max, sizeof(max), m);
	snprintf(title, sizeof(title), "latency, log scale (max %s)", m > 0 ? max : "-");
	graph_latency(t, &b, title, st->h_p50, st->h_p99, st->h_p999, &h);
}

/*
 * The end of a run: each phase's whole run as the saved result has it
 * (core/results.h reads the same JSON), never the last interval. One unit
 * per column so the numbers compare with the file as they stand.
 */
static int draw_summary(struct app *app, struct run_state *st, int y, int x, int w, int h)
{
	const struct theme *t = app->theme;
	static const char *const dname[] = { "read", "write", "trim" };
	int y0 = y;
	size_t i;

	if (h < 2)
		return 0;
	if (!st->have_fin) {
		w_text(y++, x, w, theme_attr(t, EL_ERROR), true, "no summary: %s", st->fin_err);
		return y - y0;
	}
	w_text(y++, x, w, theme_attr(t, EL_TITLE), true,
	       "%-20s %-5s %9s %9s %9s %9s %9s %9s %9s %17s %6s", "phase (whole run)", "dir",
	       "IOPS", "MB/s", "mean us", "p50 us", "p99 us", "p99.9 us", "max us",
	       "IOPS min-max", "errors");
	for (i = 0; i < st->fin.nr_phases && y < y0 + h; i++) {
		const struct result_phase *p = &st->fin.phases[i];
		char lat[5][16], range[32];
		const double v[5] = { p->lat_mean_ns, p->lat_p50_ns, p->lat_p99_ns, p->lat_p999_ns,
				      p->lat_max_ns };
		int k;

		if (y == y0 + h - 1 && i + 1 < st->fin.nr_phases) {
			w_text(y++, x, w, theme_attr(t, EL_DIM), true, "+%zu more phases (F6 lists them)",
			       st->fin.nr_phases - i);
			break;
		}
		for (k = 0; k < 5; k++)
			if (v[k] < 0)
				snprintf(lat[k], sizeof(lat[k]), "-");
			else
				snprintf(lat[k], sizeof(lat[k]), "%.1f", v[k] / 1e3);
		if (p->iops_min < 0 || p->iops_max < 0)
			snprintf(range, sizeof(range), "-");
		else
			snprintf(range, sizeof(range), "%.0f-%.0f", p->iops_min, p->iops_max);
		w_text(y++, x, w, p->errors ? theme_attr(t, EL_ERROR) : A_NORMAL, true,
		       "%-20.20s %-5s %9.0f %9.1f %9s %9s %9s %9s %9s %17s %6llu", p->name,
		       p->ddir >= 0 && p->ddir < 3 ? dname[p->ddir] : "?", p->iops, p->bw_bytes / 1e6,
		       lat[0], lat[1], lat[2], lat[3], lat[4], range, (unsigned long long)p->errors);
	}
	return y - y0;
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
	int rows_tables, top, cap_tables, msg_rows;
	const char *msg;

	run_next_update(&st->next, app);
	if (!st->started) {
		w_text(r->y + 1, 2, r->w - 4, theme_attr(t, EL_TITLE), false, "%s",
		       app->run.error[0] ? "The run did not start." : "No run yet.");
		w_text(r->y + 3, 2, r->w - 4, A_BOLD, false, "Next: %s", st->next.what);
		w_wrap(r->y + 4, 8, r->w - 10, 2, A_NORMAL, st->next.how);
		w_text(r->y + 6, 2, r->w - 4, A_NORMAL, false,
		       "Press Enter to start. F3 picks a profile, F4 a target.");
		if (app->run.error[0])
			w_wrap(r->y + 8, 2, r->w - 4, r->h - 9, theme_attr(t, EL_ERROR),
			       app->run.error);
		return;
	}
	draw_status(app, st, r->y, r->x + 1, r->w - 2);
	/* the bottom: a stop to confirm, or the run's errors and notes (a program's output
	 * under exec's std_redirect=0 among them), wrapped over a few rows; while it runs, the
	 * jobs that failed so far (the run's own list replaces them at its end: never twice);
	 * until there are any, what jobs say as they run (that program's latest output) */
	msg = app->run.error[0] ? app->run.error : st->live_err;
	msg_rows = st->confirm_stop ? 1 :
		   msg[0] ? w_wrap_rows(r->w - 1, r->h / 6 > 1 ? r->h / 6 : 1, msg) :
		   st->have_view ? run_jobtext_rows(&st->view, r->h >= 24 ? 3 : 1) : 0;
	if (msg_rows > 4)
		msg_rows = 4;
	/* the run is over: its summary stands where the interval's numbers were */
	if (st->have_fin || st->fin_err[0]) {
		int want = (int)st->fin.nr_phases + 1, room = r->h / 3 > 2 ? r->h / 3 : 2;

		top = 1 + draw_summary(app, st, r->y + 1, r->x + 1, r->w - 2, want < room ? want : room);
	} else {
		draw_big(app, st, r->y + 1, r->x + 1, r->w - 2);
		top = 3;
	}
	rows_tables = run_hosts_active(st->hosts) ? run_hosts_rows(st->hosts) :
		      (int)run_table_rows(st) + (st->nr_disks ? (int)st->nr_disks + 1 : 0) + 1;
	/* several devices on a tall screen: the tables may take half of it, a row per device */
	cap_tables = st->nr_disks > 1 && r->h >= 30 ? r->h / 2 : r->h / 3;
	if (rows_tables > cap_tables)
		rows_tables = cap_tables;
	g.y = r->y + top;
	g.x = r->x;
	g.w = r->w;
	g.h = r->h - top - rows_tables - msg_rows - (app_run_active(app) ? 0 : 1);
	/* tall terminals: graphs of a readable height, then the latency distribution (of an
	 * interval: not once the run is over) */
	if (g.h > 22 && !st->have_fin) {
		struct rect lat = { g.y + g.h - 7, r->x, 7, r->w };

		g.h -= 7;
		draw_latency(app, st, &lat);
	}
	draw_graphs(app, st, &g);
	tab.y = r->y + r->h - rows_tables - msg_rows - (app_run_active(app) ? 0 : 1);
	tab.x = r->x + 1;
	tab.w = r->w - 2;
	tab.h = rows_tables;
	if (run_hosts_active(st->hosts))
		run_hosts_draw(app, st->hosts, &tab);
	else
		run_table_draw(app, st, &tab);
	if (st->confirm_stop)
		w_text(r->y + r->h - 1, 0, r->w, theme_attr(t, EL_ERROR), true,
		       " Stop the run? y stops it (the results so far are kept), any other key goes on.");
	else if (msg[0])
		w_wrap(r->y + r->h - msg_rows, 1, r->w - 1, msg_rows, theme_attr(t, EL_ERROR), msg);
	else if (msg_rows) {
		struct rect said = { r->y + r->h - msg_rows, 1, msg_rows, r->w - 1 };

		run_jobtext_draw(t, &st->view, st->job_names, &said);
	}
	if (app_run_active(app))
		return;
	/* the run shown is over (or is a sweep's): say what Enter would start now */
	tab.y = r->y + r->h - 1 - msg_rows;
	if (app->sweep_busy)
		w_text(tab.y, 0, r->w, theme_attr(t, EL_STATUS_BUSY), true,
		       " A RAID sweep's run (F2, w shows the sweep); Enter starts nothing until it ends");
	else
		w_text(tab.y, 0, r->w, theme_attr(t, EL_TITLE), true, " Next (Enter): %s: %s",
		       st->next.what, st->next.how);
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
	if (run_hosts_key(st->hosts, ch))
		return EV_HANDLED;
	switch (ch) {
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (app_run_active(app))
			return EV_HANDLED;
		if (app->sweep_busy) {
			app_message(app, "A RAID sweep is running: a run starts when it has ended");
			return EV_HANDLED;
		}
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
	case 'x':
	case 'X':
		st->expand = !st->expand;
		return EV_HANDLED;
	default:
		return EV_NONE;
	}
}

static const struct key_hint run_hints[] = {
	{ "Enter", "Start" }, { "s", "Stop" }, { "g", "IOPS/MB/s" }, { "x", "Clones" },
	{ NULL, NULL },
};

const struct screen_ops scr_run_ops = {
	.title = "Run",
	.init = run_init,
	.release = run_release,
	.draw = run_draw,
	.key = run_key,
	.hints = run_hints,
};
