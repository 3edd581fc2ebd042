/*
 * compare_view.c - draws the compare of saved runs: a line per run (when,
 * what, where), then per phase and direction the chosen metric of each run
 * and its change against the first. Changes under 5% are dim; larger ones
 * say better or worse by color (more IOPS and MB/s is better, more latency
 * is worse). Columns that do not fit are left out with a note.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_view.h"
#include "run_summary.h"
#include "widgets.h"
#include "bufcat.h"

#define LABEL_W 26
#define COL_W 20	/* value 10, change 8, gaps */

static const char *const ddir_name[] = { "read", "write", "trim" };
static const char *const metric_name[CMP_METRIC_COUNT] = { "IOPS", "MB/s", "mean clat",
							     "p99 clat" };

int compare_view_open(struct compare_view *cv, const struct result_entry *list,
		      const bool *marked, size_t nr)
{
	size_t i, n = 0;

	compare_view_close(cv);
	for (i = 0; i < nr; i++)
		n += marked[i] && !list[i].err[0];
	if (n < 2)
		return -EINVAL;
	cv->rs = calloc(n, sizeof(*cv->rs));
	if (!cv->rs)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		if (marked[i] && !list[i].err[0])
			cv->rs[cv->nr++] = list[i].r;
	if (compare_build(&cv->cmp, cv->rs, cv->nr)) {
		free(cv->rs);
		cv->rs = NULL;
		cv->nr = 0;
		return -ENOMEM;
	}
	cv->open = true;
	cv->top = 0;
	return 0;
}

void compare_view_close(struct compare_view *cv)
{
	if (cv->open)
		compare_release(&cv->cmp);
	cv->open = false;
	free(cv->rs);
	cv->rs = NULL;
	cv->nr = 0;
}

static double metric_of(const struct compare_cell *c, enum compare_metric m, double *pct)
{
	switch (m) {
	case CMP_IOPS:
		*pct = c->iops_pct;
		return c->iops;
	case CMP_MBS:
		*pct = c->mb_s_pct;
		return c->mb_s;
	case CMP_MEAN:
		*pct = c->lat_mean_pct;
		return c->lat_mean_us;
	default:
		*pct = c->lat_p99_pct;
		return c->lat_p99_us;
	}
}

static void cell_text(char *buf, size_t len, const struct compare_cell *c, enum compare_metric m)
{
	double pct, v = metric_of(c, m, &pct);

	if (!c->present || v < 0)
		snprintf(buf, len, "-");
	else if (m == CMP_IOPS)
		fmt_count(buf, len, v);
	else if (m == CMP_MBS)
		snprintf(buf, len, "%.1f", v);
	else
		fmt_ns(buf, len, v * 1000.0);
}

/* The header line; returns how many result columns fit. */
static size_t draw_header(const struct app *app, const struct compare_view *cv, int y,
			  const struct rect *in)
{
	int fit = (in->w - LABEL_W - 11) / COL_W + 1;
	size_t k, shown = cv->nr < (size_t)fit ? cv->nr : (size_t)(fit > 1 ? fit : 1);
	char head[512];
	size_t used = bufcat(head, sizeof(head), 0, "%-*s %10s", LABEL_W, metric_name[cv->metric],
			     "[1]");

	for (k = 1; k < shown; k++) {
		char h[32];

		snprintf(h, sizeof(h), "[%zu]", k + 1);
		used = bufcat(head, sizeof(head), used, " %10s %8s", h, "change");
	}
	w_text(y, in->x, in->w, theme_attr(app->theme, EL_TITLE), true, "%s%s", head,
	       shown < cv->nr ? "  (widen for more)" : "");
	return shown;
}

static void draw_row(const struct app *app, const struct compare_view *cv,
		     const struct compare_row *row, size_t shown, int y, const struct rect *in)
{
	const struct theme *t = app->theme;
	char label[160], v[24];
	int x = in->x;
	size_t k;

	snprintf(label, sizeof(label), "%s (%s)", row->phase, ddir_name[row->ddir]);
	w_text(y, x, LABEL_W, A_NORMAL, true, "%s", label);
	x += LABEL_W + 1;
	cell_text(v, sizeof(v), &row->cells[0], cv->metric);
	w_text(y, x, 10, A_BOLD, false, "%10s", v);
	x += 10;
	for (k = 1; k < shown; k++) {
		const struct compare_cell *c = &row->cells[k];
		double pct;
		bool better;
		char chg[16] = "";

		metric_of(c, cv->metric, &pct);
		/* more IOPS and MB/s are better; more latency is worse */
		better = cv->metric <= CMP_MBS ? pct > 0 : pct < 0;
		cell_text(v, sizeof(v), c, cv->metric);
		w_text(y, x + 1, 10, A_BOLD, false, "%10s", v);
		if (!isnan(pct))
			snprintf(chg, sizeof(chg), fabs(pct) < 1000 ? "%+.1f%%" : "%+.0f%%", pct);
		w_text(y, x + 12, 8, isnan(pct) || fabs(pct) < 5 ? theme_attr(t, EL_DIM) :
		       theme_attr(t, better ? EL_STATUS_OK : EL_STATUS_WARN), false, "%8s", chg);
		x += COL_W;
	}
}

void compare_view_draw(const struct app *app, struct compare_view *cv, const struct rect *r)
{
	const struct theme *t = app->theme;
	struct rect in = w_inner(r);
	int y = in.y, i;
	size_t k, shown;
	char title[128];

	snprintf(title, sizeof(title), "Compare %zu runs: %s (m: next metric, Esc: back)", cv->nr,
		 metric_name[cv->metric]);
	w_box(t, r, title);
	for (k = 0; k < cv->nr && y < in.y + in.h; k++) {
		const struct result *rr = &cv->rs[k];
		char when[32], name[160];

		run_summary_fmt_time(when, sizeof(when), rr->time_ms);
		w_text(y++, in.x, in.w, A_NORMAL, false, "[%zu] %s  %s  %s%s", k + 1, when,
		       result_name(rr, name, sizeof(name)), rr->target ? rr->target : "-",
		       k == 0 ? "  (the base of each change)" : "");
	}
	if (y >= in.y + in.h)
		return;
	shown = draw_header(app, cv, y++, &in);
	if (!cv->cmp.nr_rows)
		w_text(y, in.x, in.w, theme_attr(t, EL_DIM), false, "No phase with I/O in these runs.");
	if (cv->top > (int)cv->cmp.nr_rows - 1)
		cv->top = cv->cmp.nr_rows ? (int)cv->cmp.nr_rows - 1 : 0;
	for (i = cv->top; (size_t)i < cv->cmp.nr_rows && y < in.y + in.h; i++, y++)
		draw_row(app, cv, &cv->cmp.rows[i], shown, y, &in);
}

int compare_view_key(struct compare_view *cv, int ch, int page)
{
	switch (ch) {
	case 'm':
	case 'M':
	case KEY_RIGHT:
		cv->metric = (enum compare_metric)((cv->metric + 1) % CMP_METRIC_COUNT);
		return EV_HANDLED;
	case KEY_UP:
	case 'k':
		cv->top--;
		break;
	case KEY_DOWN:
	case 'j':
		cv->top++;
		break;
	case KEY_PPAGE:
		cv->top -= page;
		break;
	case KEY_NPAGE:
		cv->top += page;
		break;
	case KEY_HOME:
		cv->top = 0;
		break;
	default:
		return EV_NONE;
	}
	if (cv->top < 0)
		cv->top = 0;
	return EV_HANDLED;
}
