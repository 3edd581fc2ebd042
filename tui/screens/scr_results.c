/*
 * scr_results.c - the Results screen: the summary of the run just made (per
 * job and direction: IOPS, MB/s, mean and p99 completion latency; a
 * CrystalDiskMark-style grid for the cdm-* presets), fio's own report of
 * the selected job on 'd', the saved runs (core/results.h) with the summary
 * of any of them on Enter, and a side-by-side compare (core/compare.h) of
 * the runs marked with Space.
 *
 * Reads results only: it never starts, stops or saves a run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "compare_view.h"
#include "config.h"
#include "results.h"
#include "run_summary.h"
#include "text_view.h"
#include "tui.h"
#include "list_filter.h"
#include "widgets.h"

#define MAX_GRID 32
#define GRID_LABEL 14		/* "SEQ128K Q32T1" */

enum pane { PANE_SUMMARY, PANE_SAVED };
enum view { VIEW_MAIN, VIEW_DETAIL, VIEW_COMPARE };

struct results_state {
	/* saved runs, oldest first as results_list gives them; shown newest first */
	struct result_entry *list;
	size_t nr;
	bool *marked;
	char list_error[512];
	int sel, top;			/* saved list cursor, in display order */
	/* the summary pane: the last run (-1) or a saved run (index into list) */
	int shown;
	int row, sum_top;		/* summary cursor */
	bool table;			/* 'g': the table instead of the grid */
	enum pane pane;
	enum view view;
	struct text_view detail;	/* fio's report of the selected job */
	struct compare_view cmp;	/* borrows list: closed before a reload */
	/* where things were drawn, for clicks and paging */
	struct rect sum_rows, saved_rows;
	int body_h;
	/* '/': the saved runs shown, newest first, as list indices */
	struct list_filter filter;
	size_t *vis, nvis;
};

/* ---- the shown run ----------------------------------------------------------- */

static const struct result *shown_saved(const struct results_state *st)
{
	if (st->shown < 0 || (size_t)st->shown >= st->nr || st->list[st->shown].err[0])
		return NULL;
	return &st->list[st->shown].r;
}

static const char *last_profile(const struct app *app, char *buf, size_t len)
{
	const char *p = app->run.have_jobs ? results_profile_name(&app->run.jl, buf, len) : NULL;

	if (p)
		return p;
	return app->profile.name[0] ? app->profile.name : "default";
}

/* The rows of whatever the summary pane shows; false when there is nothing. */
static bool build_summary(struct app *app, struct results_state *st, struct run_summary *s,
			  const char **profile, char *buf, size_t len)
{
	const struct result *r = shown_saved(st);

	memset(s, 0, sizeof(*s));
	if (r) {
		*profile = r->profile;
		return !run_summary_from_result(s, r);
	}
	if (!app->run.have_result)
		return false;
	*profile = last_profile(app, buf, len);
	return !run_summary_from_run(s, &app->run.res);
}

/* ---- the saved runs -------------------------------------------------------- */

static void close_compare(struct results_state *st)
{
	compare_view_close(&st->cmp);
	if (st->view == VIEW_COMPARE)
		st->view = VIEW_MAIN;
}

/* The saved runs the filter lets through (its file, profile, target, first phase), newest first. */
static void refilter(struct results_state *st)
{
	size_t *vis = realloc(st->vis, (st->nr ? st->nr : 1) * sizeof(*vis));

	if (!vis)
		return;
	st->vis = vis;
	st->nvis = 0;
	for (size_t d = 0; d < st->nr; d++) {
		const struct result_entry *e = &st->list[st->nr - 1 - d];

		if (list_filter_match(&st->filter, e->r.path ? strrchr(e->r.path, '/') ?
				      strrchr(e->r.path, '/') + 1 : e->r.path : NULL) ||
		    list_filter_match(&st->filter, e->r.profile) ||
		    list_filter_match(&st->filter, e->r.target) ||
		    (e->r.nr_phases && list_filter_match(&st->filter, e->r.phases[0].name)))
			st->vis[st->nvis++] = st->nr - 1 - d;
	}
	if (st->sel >= (int)st->nvis)
		st->sel = st->nvis ? (int)st->nvis - 1 : 0;
}

static void reload(struct results_state *st)
{
	struct result_entry *list = NULL;
	int shown = -1;
	size_t nr = 0, i, k;
	bool *marked;

	close_compare(st);
	st->list_error[0] = '\0';
	/* on an error list is empty and list_error says why */
	results_list(&list, &nr, st->list_error, sizeof(st->list_error));
	marked = calloc(nr ? nr : 1, sizeof(*marked));
	if (!marked) {
		results_list_free(list, nr);
		list = NULL;
		nr = 0;
	}
	/* marks and the shown run survive a reload, by path */
	for (i = 0; i < nr; i++)
		for (k = 0; k < st->nr; k++)
			if (list[i].r.path && st->list[k].r.path &&
			    !strcmp(list[i].r.path, st->list[k].r.path)) {
				marked[i] = st->marked[k];
				if ((int)k == st->shown)
					shown = (int)i;
			}
	results_list_free(st->list, st->nr);
	free(st->marked);
	st->list = list;
	st->nr = nr;
	st->marked = marked;
	st->shown = shown;
	refilter(st);
}

/* A listing error names the file by its full path; the row already shows the name. */
static const char *entry_error(const struct result_entry *e)
{
	size_t n = e->r.path ? strlen(e->r.path) : 0;

	if (n && !strncmp(e->err, e->r.path, n) && e->err[n] == ':')
		return e->err + n + 1 + (e->err[n + 1] == ' ');
	return e->err;
}

/* display row -> list index: newest first, what the filter lets through */
static size_t at(const struct results_state *st, int display)
{
	return st->vis[display];
}

static void open_compare(struct app *app, struct results_state *st)
{
	int ret = compare_view_open(&st->cmp, st->list, st->marked, st->nr);

	if (ret == -EINVAL)
		app_message(app, "Mark two or more saved runs with Space, then c compares them");
	else if (ret)
		app_message(app, "Out of memory comparing the runs");
	else
		st->view = VIEW_COMPARE;
}

/*
 * "export report": an HTML report (tui/cmd_report.c) of the marked saved
 * runs, else the selected one, else the run shown in the summary; the
 * message says where it went.
 */
static void export_report(struct app *app, struct results_state *st)
{
	char out[4096 + 64], err[1024];
	char **paths = calloc(st->nr + 1, sizeof(*paths));
	size_t n = 0, i;

	if (!paths) {
		app_message(app, "Out of memory exporting the report");
		return;
	}
	for (i = 0; st->pane == PANE_SAVED && i < st->nr; i++)
		if (st->marked[i] && !st->list[i].err[0])
			paths[n++] = st->list[i].r.path;
	if (!n && st->pane == PANE_SAVED && st->nr) {
		const struct result_entry *e = &st->list[at(st, st->sel)];

		if (e->err[0]) {
			app_message(app, "That file cannot be read, so it has no report: %s",
				    entry_error(e));
			free(paths);
			return;
		}
		paths[n++] = e->r.path;
	}
	if (!n && st->pane == PANE_SUMMARY && shown_saved(st))
		paths[n++] = shown_saved(st)->path;
	if (!n && st->pane == PANE_SUMMARY && app->run.have_result && app->run.saved_path[0])
		paths[n++] = app->run.saved_path;
	if (!n) {
		app_message(app, "No saved run to report on: run one, or pick one under Tab");
	} else if (report_export_path(paths[0], out, sizeof(out), err, sizeof(err)) ||
		   report_export(paths, n, out, err, sizeof(err))) {
		app_message(app, "The report was not written: %s", err);
	} else {
		app_message(app, "Report of %zu run%s written to %s", n, n == 1 ? "" : "s", out);
	}
	free(paths);
}

/* ---- fio-style detail ---------------------------------------------------------- */

static const struct group_stat *group_of(const struct run_result *res, int groupid)
{
	size_t i;

	for (i = 0; i < res->nr_gs; i++)
		if (res->gs[i].groupid == groupid)
			return &res->gs[i];
	return NULL;
}

/* fio's normal report of the given thread stats, kept as text to scroll. */
static void open_detail(struct app *app, struct results_state *st, const int *ts, int n)
{
	const struct run_result *res = &app->run.res;
	char *text = NULL, title[160];
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	int i;

	if (!m)
		return;
	for (i = 0; i < n; i++) {
		const struct group_stat *g = group_of(res, res->ts[ts[i]].groupid);
		struct run_report rep;

		memset(&rep, 0, sizeof(rep));
		rep.jobs = &app->run.jl;
		rep.ts = &res->ts[ts[i]];
		rep.nr_ts = 1;
		rep.gs = (struct group_stat *)g;
		rep.nr_gs = g ? 1 : 0;
		rep.when = (time_t)(res->start_realtime_ms / 1000);
		rep.when_ms = res->start_realtime_ms;
		rep.version = "raidbench-" PACKAGE_VERSION;
		report_normal(m, &rep);
	}
	if (fclose(m) || !text) {
		free(text);
		return;
	}
	snprintf(title, sizeof(title), "fio-style detail: %s%s", res->ts[ts[0]].name,
		 n > 1 ? " and its write" : "");
	text_view_set(&st->detail, text, title);
	st->view = VIEW_DETAIL;
}

/* ---- drawing: the summary -------------------------------------------------------- */

static const char *const ddir_name[] = { "read", "write", "trim" };

/* MB/s in at most width characters: decimals while they fit (a fast run passes 10^7) */
static void mbs_text(char *buf, size_t len, double v, int prec, int width)
{
	snprintf(buf, len, "%.*f", prec, v);
	if ((int)strlen(buf) > width)
		snprintf(buf, len, "%.0f", v);
}

static void draw_grid(struct app *app, struct results_state *st, const struct run_summary *s,
		      const struct cdm_row *g, size_t ng, int y, const struct rect *in)
{
	const struct theme *t = app->theme;
	int bw = (in->w - GRID_LABEL - 2 * 21) / 2, i, d;
	double max = 0;
	size_t k;

	if (bw < 0)
		bw = 0;
	for (k = 0; k < ng; k++)
		for (d = 0; d < 2; d++)
			if (g[k].row[d] >= 0 && s->rows[g[k].row[d]].mb_s > max)
				max = s->rows[g[k].row[d]].mb_s;
	w_text(y++, in->x, in->w, theme_attr(t, EL_TITLE), true, "%-*s %10s %8s %-*s %10s %8s",
	       GRID_LABEL, "test", "Read MB/s", "IOPS", bw, "", "Write MB/s", "IOPS");
	st->sum_rows = (struct rect){ y, in->x, in->y + in->h - y, in->w };
	if (st->row >= (int)ng)
		st->row = ng ? (int)ng - 1 : 0;
	for (i = 0; (size_t)i < ng && y < in->y + in->h; i++, y++) {
		bool cur = i == st->row && st->pane == PANE_SUMMARY;
		int x = in->x + GRID_LABEL;

		w_text(y, in->x, GRID_LABEL, cur ? theme_attr(t, EL_SELECTED) : A_BOLD, true, "%s",
		       g[i].label);
		for (d = 0; d < 2; d++) {
			const struct summary_row *r = g[i].row[d] >= 0 ? &s->rows[g[i].row[d]] : NULL;
			char iops[16], mbs[32];

			fmt_count(iops, sizeof(iops), r ? r->iops : 0);
			mbs_text(mbs, sizeof(mbs), r ? r->mb_s : 0, 2, 10);
			if (r)
				w_text(y, x, 21, theme_attr(t, EL_BIG_NUMBER), false, " %10s %8s", mbs,
				       iops);
			else
				w_text(y, x, 21, theme_attr(t, EL_DIM), false, " %10s %8s", "-", "-");
			x += 21;
			if (d == 0 && bw > 0) {
				w_hbar(t, y, x + 1, bw - 1, r && max > 0 ? r->mb_s / max : 0,
				       theme_attr(t, EL_GAUGE_READ));
				x += bw;
			} else if (d == 1 && bw > 0) {
				w_hbar(t, y, x + 1, bw - 1, r && max > 0 ? r->mb_s / max : 0,
				       theme_attr(t, EL_GAUGE_WRITE));
			}
		}
	}
}

static void draw_table(struct app *app, struct results_state *st, const struct run_summary *s,
		       int y, const struct rect *in)
{
	const struct theme *t = app->theme;
	bool wide = in->w >= 100;
	int i, rows;

	w_text(y++, in->x, in->w, theme_attr(t, EL_TITLE), true, "%-22s %-5s %9s %9s %10s %10s%s",
	       "job", "dir", "IOPS", "MB/s", "mean lat", "p99 lat", wide ? "  description" : "");
	rows = in->y + in->h - y;
	st->sum_rows = (struct rect){ y, in->x, rows, in->w };
	if (st->row >= (int)s->nr)
		st->row = s->nr ? (int)s->nr - 1 : 0;
	if (st->row < st->sum_top)
		st->sum_top = st->row;
	if (rows > 0 && st->row >= st->sum_top + rows)
		st->sum_top = st->row - rows + 1;
	for (i = st->sum_top; (size_t)i < s->nr && y < in->y + in->h; i++, y++) {
		const struct summary_row *r = &s->rows[i];
		bool cur = i == st->row && st->pane == PANE_SUMMARY;
		char iops[16], mean[24], p99[24], mbs[32];

		fmt_count(iops, sizeof(iops), r->iops);
		mbs_text(mbs, sizeof(mbs), r->mb_s, 1, 9);
		fmt_ns(mean, sizeof(mean), r->mean_ns);
		if (r->p99_ns < 0)
			snprintf(p99, sizeof(p99), "-");
		else
			fmt_ns(p99, sizeof(p99), r->p99_ns);
		w_text(y, in->x, in->w, cur ? theme_attr(t, EL_SELECTED) : A_NORMAL, true,
		       "%-22.22s %-5s %9s %9s %10s %10s%s%s", r->name, ddir_name[r->ddir], iops,
		       mbs, mean, p99, wide ? "  " : "", wide ? r->desc : "");
	}
}

/* The first lines of the summary pane: what is shown. Returns the next row. */
static int draw_heading(struct app *app, struct results_state *st, const char *profile,
			const struct rect *in)
{
	const struct theme *t = app->theme;
	const struct result *r = shown_saved(st);
	int y = in->y;

	if (r) {
		char when[32];

		run_summary_fmt_time(when, sizeof(when), r->time_ms);
		w_text(y++, in->x, in->w, A_BOLD, false, "Saved run %s: %s on %s%s", when,
		       profile ? profile : r->nr_phases ? r->phases[0].name : "?",
		       r->target ? r->target : "an unknown target",
		       r->interrupted ? ", stopped early (the results so far)" : "");
		w_text(y++, in->x, in->w, theme_attr(t, EL_DIM), false, "%s%s%s; Esc shows the last run",
		       r->generator ? r->generator : "unknown generator", r->host ? " on " : "",
		       r->host ? r->host : "");
		return y;
	}
	w_text(y++, in->x, in->w, A_BOLD, false, "Last run: %s on %s, %s", profile,
	       app->target.path[0] ? app->target.path : "the scratch file",
	       app->run.res.interrupted ? "stopped early (the results so far)" : "finished");
	if (app->run.error[0])
		w_text(y++, in->x, in->w, theme_attr(t, EL_ERROR), false, "%s", app->run.error);
	else
		w_text(y++, in->x, in->w, theme_attr(t, EL_DIM), false, "%s%s",
		       app->run.saved_path[0] ? "saved as " : "not saved",
		       app->run.saved_path[0] ? (strrchr(app->run.saved_path, '/') ?
						 strrchr(app->run.saved_path, '/') + 1 :
						 app->run.saved_path) : "");
	return y;
}

static void draw_nothing(struct app *app, struct results_state *st, const struct rect *in)
{
	const struct theme *t = app->theme;
	int y = in->y;

	st->sum_rows = (struct rect){ in->y, in->x, 0, 0 };
	if (app_run_active(app)) {
		w_text(y++, in->x, in->w, A_BOLD, false, "A run is in progress.");
		w_text(y++, in->x, in->w, A_NORMAL, false,
		       "Its results appear here when it ends; F5 shows it live.");
		return;
	}
	w_text(y++, in->x, in->w, A_BOLD, false, "No run yet in this session.");
	if (app->run.error[0])	/* the last try did not start: say why */
		w_text(y++, in->x, in->w, theme_attr(t, EL_ERROR), false, "The last try did not start: %s",
		       app->run.error);
	w_text(y++, in->x, in->w, A_NORMAL, false,
	       "To start one: F3 picks a profile, F4 a target, F5 then Enter runs it.");
	w_text(y++, in->x, in->w, theme_attr(t, EL_DIM), false,
	       "Saved runs are below: Enter on one shows its summary here.");
}

/* Rows the summary pane wants inside its box. */
static int summary_rows(const struct app *app, const struct results_state *st,
			const struct run_summary *s, bool have, const char *profile)
{
	struct cdm_row g[MAX_GRID];

	if (!have)
		return 3 + (app_run_active(app) ? 0 : app->run.error[0] != 0);
	if (run_summary_is_cdm(profile) && !st->table)
		return 3 + (int)run_summary_cdm(s, g, MAX_GRID);
	return 3 + (int)(s->nr ? s->nr : 1);
}

static void draw_summary(struct app *app, struct results_state *st, const struct rect *r,
			 const struct run_summary *s, bool have, const char *profile)
{
	const struct theme *t = app->theme;
	struct rect in = w_inner(r);
	struct cdm_row g[MAX_GRID];
	char title[64];
	int y;

	snprintf(title, sizeof(title), "%s%sSummary", st->pane == PANE_SUMMARY ? t->g->arrow : "",
		 st->pane == PANE_SUMMARY ? " " : "");
	w_box(t, r, title);
	if (!have) {
		draw_nothing(app, st, &in);
		return;
	}
	y = draw_heading(app, st, profile, &in);
	if (!s->nr) {
		w_text(y, in.x, in.w, theme_attr(t, EL_DIM), false, "No job did any I/O.");
		st->sum_rows = (struct rect){ y, in.x, 0, 0 };
		return;
	}
	if (run_summary_is_cdm(profile) && !st->table)
		draw_grid(app, st, s, g, run_summary_cdm(s, g, MAX_GRID), y, &in);
	else
		draw_table(app, st, s, y, &in);
}

/* ---- drawing: the saved runs ----------------------------------------------------- */

static void peak_text(char *buf, size_t len, const struct result *r, bool wide)
{
	double ri, rb, wi, wb;
	char a[16], b[16];

	result_peak(r, DDIR_READ, &ri, &rb);
	result_peak(r, DDIR_WRITE, &wi, &wb);
	fmt_count(a, sizeof(a), ri);
	fmt_count(b, sizeof(b), wi);
	if (wide)
		snprintf(buf, len, "R %7.1f MB/s %6s IOPS  W %7.1f MB/s %6s IOPS", rb / 1e6, a,
			 wb / 1e6, b);
	else
		snprintf(buf, len, "R %7.1f  W %7.1f MB/s", rb / 1e6, wb / 1e6);
}

static void draw_saved(struct app *app, struct results_state *st, const struct rect *r)
{
	const struct theme *t = app->theme;
	struct rect in = w_inner(r);
	bool wide = in.w >= 120;
	/* "[x] " time name target peak: the target takes what is left */
	int name_w = wide ? 20 : 14, peak_w = wide ? 54 : 25;
	int target_w = in.w - 23 - name_w - peak_w, i, y;
	char title[96];

	snprintf(title, sizeof(title), "%s%sSaved runs (%zu, newest first; MB/s, IOPS: each run's best phase)",
		 st->pane == PANE_SAVED ? t->g->arrow : "", st->pane == PANE_SAVED ? " " : "", st->nr);
	w_box(t, r, title);
	if (list_filter_active(&st->filter) && in.h > 1) {
		in.h--;
		list_filter_draw(t, &st->filter, in.y + in.h, in.x, in.w, st->nvis, st->nr);
	}
	st->saved_rows = in;
	if (!st->nr) {
		w_text(in.y, in.x, in.w, st->list_error[0] ? theme_attr(t, EL_ERROR) : A_NORMAL, false,
		       "%s", st->list_error[0] ? st->list_error :
		       "No saved runs yet: every run is saved when it ends.");
		return;
	}
	if (st->sel < st->top)
		st->top = st->sel;
	if (in.h > 0 && st->sel >= st->top + in.h)
		st->top = st->sel - in.h + 1;
	for (i = st->top, y = in.y; (size_t)i < st->nvis && y < in.y + in.h; i++, y++) {
		size_t k = at(st, i);
		const struct result_entry *e = &st->list[k];
		bool cur = i == st->sel && st->pane == PANE_SAVED;
		attr_t a = cur ? theme_attr(t, EL_SELECTED) : (int)k == st->shown ? A_BOLD : A_NORMAL;
		const char *base = e->r.path ? (strrchr(e->r.path, '/') ? strrchr(e->r.path, '/') + 1
								   : e->r.path) : "?";
		char when[32], peak[96], name[160];

		if (e->err[0]) {
			w_text(y, in.x, in.w, cur ? a : theme_attr(t, EL_ERROR), true,
			       "%s %s: %s", st->marked[k] ? "[x]" : "[ ]", base, entry_error(e));
			continue;
		}
		run_summary_fmt_time(when, sizeof(when), e->r.time_ms);
		peak_text(peak, sizeof(peak), &e->r, wide);
		w_text(y, in.x, in.w, a, true, "%s %-16s %-*.*s %-*.*s %s",
		       st->marked[k] ? "[x]" : "[ ]", when, name_w, name_w,
		       result_name(&e->r, name, sizeof(name)),
		       target_w > 0 ? target_w : 0, target_w > 0 ? target_w : 0,
		       e->r.target ? e->r.target : "-", peak);
	}
}

static void draw_hint(struct app *app, struct results_state *st, int y, int w, bool cdm)
{
	const char *h;

	if (st->view == VIEW_DETAIL)
		h = "Up/Down/PgUp/PgDn scroll  d or Esc closes";
	else if (st->view == VIEW_COMPARE)
		h = "m next metric (IOPS, MB/s, mean, p99)  Up/Down scroll  Esc closes";
	else if (st->pane == PANE_SAVED)
		h = "Space marks  c compares  x exports a report  Enter shows one  Tab: summary";
	else if (cdm)
		h = "Up/Down select  d fio-style detail  g grid/table  x report  Tab: saved runs";
	else
		h = "Up/Down select  d fio-style detail  x report  Tab: saved runs";
	w_text(y, 0, w, theme_attr(app->theme, EL_DIM), false, " %s", h);
}

static void results_draw(struct app *app, void *p, const struct rect *r)
{
	struct results_state *st = p;
	struct run_summary s;
	const char *profile = NULL;
	char pbuf[128];
	bool have = build_summary(app, st, &s, &profile, pbuf, sizeof(pbuf));
	struct rect body = { r->y, r->x, r->h - 1, r->w }, top, bottom;
	int want;

	st->body_h = body.h;
	if (st->view == VIEW_DETAIL)
		text_view_draw(app, &st->detail, &body);
	else if (st->view == VIEW_COMPARE)
		compare_view_draw(app, &st->cmp, &body);
	else {
		want = summary_rows(app, st, &s, have, profile) + 2;
		if (want > body.h * 3 / 5)
			want = body.h * 3 / 5;
		top = (struct rect){ body.y, body.x, want, body.w };
		bottom = (struct rect){ body.y + want, body.x, body.h - want, body.w };
		draw_summary(app, st, &top, &s, have, profile);
		draw_saved(app, st, &bottom);
	}
	draw_hint(app, st, r->y + r->h - 1, r->w, have && run_summary_is_cdm(profile));
	run_summary_release(&s);
}

/* ---- keys ------------------------------------------------------------------------- */

static void clamp(int *v, int n)
{
	if (*v >= n)
		*v = n - 1;
	if (*v < 0)
		*v = 0;
}

/* Up/Down/PgUp/PgDn/Home/End on a cursor (End: far down, the caller clamps). */
static bool nav(int ch, int page, int *v)
{
	return w_list_key(ch, v, page, 1 << 20);
}

static void detail_of_row(struct app *app, struct results_state *st)
{
	struct run_summary s;
	const char *profile = NULL;
	char pbuf[128];
	int ts[2], n = 0;

	if (shown_saved(st)) {
		app_message(app, "fio-style detail is kept for the run made in this session; "
			    "c compares saved runs");
		return;
	}
	if (!build_summary(app, st, &s, &profile, pbuf, sizeof(pbuf)) || !s.nr) {
		app_message(app, "No run to detail yet");
		run_summary_release(&s);
		return;
	}
	if (run_summary_is_cdm(profile) && !st->table) {
		struct cdm_row g[MAX_GRID];
		size_t ng = run_summary_cdm(&s, g, MAX_GRID);
		int d;

		for (d = 0; ng && d < 2; d++)
			if (g[st->row < (int)ng ? st->row : 0].row[d] >= 0)
				ts[n++] = s.rows[g[st->row < (int)ng ? st->row : 0].row[d]].ts;
		if (n == 2 && ts[0] == ts[1])
			n = 1;
	} else {
		ts[n++] = s.rows[st->row < (int)s.nr ? st->row : 0].ts;
	}
	if (n)
		open_detail(app, st, ts, n);
	run_summary_release(&s);
}

static int main_key(struct app *app, struct results_state *st, int ch)
{
	int page = st->body_h / 2 > 1 ? st->body_h / 2 : 1;
	bool changed;

	if (list_filter_key(&st->filter, ch, &changed)) {
		st->pane = PANE_SAVED;
		if (changed)
			refilter(st);
		return EV_HANDLED;
	}
	switch (ch) {
	case '\t':
	case KEY_BTAB:
		st->pane = st->pane == PANE_SAVED ? PANE_SUMMARY : PANE_SAVED;
		return EV_HANDLED;
	case 'd':
	case 'D':
		detail_of_row(app, st);
		return EV_HANDLED;
	case 'c':
	case 'C':
		open_compare(app, st);
		return EV_HANDLED;
	case 'x':
	case 'X':
		export_report(app, st);
		return EV_HANDLED;
	case 'g':
	case 'G':
		st->table = !st->table;
		st->row = 0;
		return EV_HANDLED;
	case 27:
		if (st->shown >= 0) {
			st->shown = -1;
			st->row = 0;
			return EV_HANDLED;
		}
		return EV_NONE;
	default:
		break;
	}
	if (st->pane == PANE_SUMMARY) {
		if (nav(ch, page, &st->row)) {
			if (st->row < 0)
				st->row = 0;	/* draw clamps the other end */
			return EV_HANDLED;
		}
		return EV_NONE;
	}
	if (nav(ch, page, &st->sel)) {
		clamp(&st->sel, (int)st->nvis);
		return EV_HANDLED;
	}
	if (!st->nvis)
		return EV_NONE;
	switch (ch) {
	case ' ':
		st->marked[at(st, st->sel)] = !st->marked[at(st, st->sel)];
		if (st->sel + 1 < (int)st->nvis)
			st->sel++;
		return EV_HANDLED;
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (st->list[at(st, st->sel)].err[0]) {
			app_message(app, "That file cannot be read: %s", entry_error(&st->list[at(st, st->sel)]));
			return EV_HANDLED;
		}
		st->shown = (int)at(st, st->sel);
		st->row = 0;
		st->sum_top = 0;
		return EV_HANDLED;
	default:
		return EV_NONE;
	}
}

static int results_key(struct app *app, void *p, int ch)
{
	struct results_state *st = p;
	int page = st->body_h > 3 ? st->body_h - 3 : 1;

	if (st->view == VIEW_DETAIL) {
		if (ch == 27 || ch == 'd' || ch == 'D') {
			st->view = VIEW_MAIN;
			return EV_HANDLED;
		}
		return text_view_key(&st->detail, ch, page);
	}
	if (st->view == VIEW_COMPARE) {
		if (ch == 27 || ch == 'c' || ch == 'C') {
			close_compare(st);
			return EV_HANDLED;
		}
		return compare_view_key(&st->cmp, ch, page);
	}
	return main_key(app, st, ch);
}

static int results_click(struct app *app, void *p, int y, int x)
{
	struct results_state *st = p;
	const struct rect *s = &st->sum_rows, *v = &st->saved_rows;

	(void)app;
	if (st->view != VIEW_MAIN)
		return EV_NONE;
	if (y >= v->y && y < v->y + v->h && x >= v->x && x < v->x + v->w &&
	    st->top + (y - v->y) < (int)st->nvis) {
		st->pane = PANE_SAVED;
		st->sel = st->top + (y - v->y);
		return EV_HANDLED;
	}
	if (y >= s->y && y < s->y + s->h && x >= s->x && x < s->x + s->w) {
		st->pane = PANE_SUMMARY;
		st->row = st->sum_top + (y - s->y);	/* draw clamps */
		return EV_HANDLED;
	}
	return EV_NONE;
}

static void results_enter(struct app *app, void *p)
{
	struct results_state *st = p;

	/* a run may have ended and been saved since: read the directory again */
	reload(st);
	st->view = st->view == VIEW_DETAIL ? VIEW_DETAIL : VIEW_MAIN;
	if (!app->run.have_result && st->shown < 0 && st->nr)
		st->pane = PANE_SAVED;
}

static void *results_init(struct app *app)
{
	struct results_state *st = calloc(1, sizeof(*st));

	(void)app;
	if (st)
		st->shown = -1;
	return st;
}

static void results_release(void *p)
{
	struct results_state *st = p;

	close_compare(st);
	results_list_free(st->list, st->nr);
	free(st->marked);
	free(st->vis);
	text_view_release(&st->detail);
	free(st);
}

static const struct key_hint results_hints[] = {
	{ "d", "Detail" }, { "c", "Compare" }, { NULL, NULL },
};

const struct screen_ops scr_results_ops = {
	.title = "Results",
	.init = results_init,
	.release = results_release,
	.enter = results_enter,
	.draw = results_draw,
	.key = results_key,
	.click = results_click,
	.hints = results_hints,
};
