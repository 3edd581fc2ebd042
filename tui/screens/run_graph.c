/*
 * run_graph.c - the Run screen's charts. One column per live tick, newest
 * at the right. Every series has a glyph of its own and the legend names
 * it, so colour only repeats what the glyphs already say; the time axis
 * labels seconds since the run started. Latency spans decades (a 40 ms
 * spike over 100 us medians), so it is drawn on a log scale.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "run_graph.h"
#include "widgets.h"

void graph_fmt_time(char *buf, size_t len, double s)
{
	long long v = (long long)(s + 0.5);

	if (v < 60)
		snprintf(buf, len, "%llds", v);
	else if (v < 3600)
		snprintf(buf, len, "%lld:%02lld", v / 60, v % 60);
	else
		snprintf(buf, len, "%lld:%02lld:%02lld", v / 3600, v / 60 % 60, v % 60);
}

/* The first sample shown and the column it sits in (newest at the right edge). */
static size_t first_shown(size_t n, int w, int *dx0)
{
	size_t first = n > (size_t)w ? n - (size_t)w : 0;

	*dx0 = w - (int)(n - first);
	return first;
}

/* The bottom row: a tick and a label where a whole step of seconds begins. */
static void time_axis(const struct theme *t, int y, int x, int w, const struct graph_hist *h)
{
	static const double steps[] = { 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600 };
	double span, step = steps[sizeof(steps) / sizeof(steps[0]) - 1];
	int dx0, last_end = -1;
	size_t first, i;

	if (w <= 0 || !h->n)
		return;
	first = first_shown(h->n, w, &dx0);
	span = h->t_s[h->n - 1] - h->t_s[first];
	/* about one label per 10 columns */
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (span / steps[i] <= w / 10.0 + 1) {
			step = steps[i];
			break;
		}
	for (i = first; i < h->n; i++) {
		int dx = dx0 + (int)(i - first);
		char label[24];

		if (i > first && floor(h->t_s[i] / step) == floor(h->t_s[i - 1] / step))
			continue;
		if (i == first && fmod(h->t_s[i], step) > 0.15)
			continue;	/* not the start of a step: no label */
		graph_fmt_time(label, sizeof(label), floor(h->t_s[i] / step + 0.01) * step);
		if (dx <= last_end || dx + w_width(label) > w)
			continue;
		w_text(y, x + dx, w - dx, theme_attr(t, EL_DIM), false, "%s%s", t->g->axis_tick, label);
		last_end = dx + w_width(label) + 1;
	}
}

void graph_rates(const struct theme *t, const struct rect *r, const char *what, const char *peak,
		 const double *rd, const double *wr, const struct graph_hist *h)
{
	attr_t ar = theme_attr(t, EL_GAUGE_READ), aw = theme_attr(t, EL_GAUGE_WRITE);
	char title[160];
	struct rect in;
	double max = 0;
	size_t first, i;
	int dx0, plot_h;

	snprintf(title, sizeof(title), "%s (peak %s)", what, peak);
	w_box(t, r, title);
	in = w_inner(r);
	plot_h = in.h - 1;	/* the last row is the time axis */
	if (in.w <= 0 || plot_h <= 0)
		return;
	/* the legend in the top border's right end: the glyph is the meaning, colour repeats it */
	{
		int lw = w_width(t->g->graph_read) + w_width(t->g->graph_write) + 15;
		int lx = r->x + r->w - lw - 2;

		if (lx > r->x + w_width(title) + 4) {
			w_text(r->y, lx, lw, ar, false, " %s read ", t->g->graph_read);
			w_text(r->y, lx + w_width(t->g->graph_read) + 7, lw, aw, false, " %s write ",
			       t->g->graph_write);
		}
	}
	for (i = 0; i < h->n; i++)
		if (rd[i] + wr[i] > max)
			max = rd[i] + wr[i];
	first = first_shown(h->n, in.w, &dx0);
	for (i = first; i < h->n && max > 0; i++) {
		int dx = dx0 + (int)(i - first), row;
		double rc = rd[i] / max * plot_h, tc = (rd[i] + wr[i]) / max * plot_h;
		int rfull, tfull;

		if (dx < 0 || dx >= in.w)
			continue;
		/* writes above reads, whole cells each, so both stay visible; at least a sliver each */
		rfull = (int)(rc + 0.5);
		tfull = (int)(tc + 0.5);
		if (rd[i] > 0 && rfull == 0)
			rfull = 1;
		if (wr[i] > 0 && tfull <= rfull)
			tfull = rfull + 1;
		if (tfull > plot_h)
			tfull = plot_h;
		if (rfull > tfull)
			rfull = tfull;
		if (!wr[i] && rd[i] > 0) {
			/* reads alone keep the eighths' resolution */
			for (row = 0; row < plot_h; row++) {
				double fill = rc - row;
				int e = fill >= 1 ? 8 : fill <= 0 ? 0 : (int)(fill * 8 + 0.5);

				if (row == 0 && !e)
					e = 1;
				if (e) {
					attrset(ar);
					mvaddstr(in.y + plot_h - 1 - row, in.x + dx, t->g->vbars[e]);
				}
			}
			continue;
		}
		for (row = 0; row < tfull; row++) {
			attrset(row < rfull ? ar : aw);
			mvaddstr(in.y + plot_h - 1 - row, in.x + dx,
				 row < rfull ? t->g->graph_read : t->g->graph_write);
		}
	}
	attrset(A_NORMAL);
	time_axis(t, in.y + in.h - 1, in.x, in.w, h);
}

void graph_latency(const struct theme *t, const struct rect *r, const char *title,
		   const double *p50, const double *p99, const double *p999,
		   const struct graph_hist *h)
{
	const double *series[3] = { p999, p99, p50 };
	static const enum theme_el el[3] = { EL_GRAPH_P999, EL_GRAPH_P99, EL_GRAPH_P50 };
	const char *mark[3] = { t->g->mark_p999, t->g->mark_p99, t->g->mark_p50 };
	struct rect in, plot;
	double lo = INFINITY, hi = 0;
	size_t first, i;
	int dx0, k, lbl = 6;

	w_box(t, r, title);
	in = w_inner(r);
	/* the legend, right end of the top border: " · p50  • p99  × p99.9 " */
	{
		char one[3][32];
		int lw = 1, x;

		for (k = 2; k >= 0; k--) {
			snprintf(one[k], sizeof(one[k]), " %s %s ", mark[k],
				 k == 2 ? "p50" : k == 1 ? "p99" : "p99.9");
			lw += w_width(one[k]);
		}
		x = r->x + r->w - lw - 1;
		if (x > r->x + w_width(title) + 6)
			for (k = 2; k >= 0; k--) {
				w_text(r->y, x, w_width(one[k]), theme_attr(t, el[k]), false, "%s", one[k]);
				x += w_width(one[k]);
			}
	}
	plot = in;
	plot.x += lbl;
	plot.w -= lbl;
	plot.h -= 1;	/* time axis */
	if (plot.w <= 0 || plot.h <= 0)
		return;
	for (k = 0; k < 3; k++)
		for (i = 0; i < h->n; i++)
			if (series[k][i] > 0) {
				lo = fmin(lo, series[k][i]);
				hi = fmax(hi, series[k][i]);
			}
	if (hi <= 0) {
		time_axis(t, in.y + in.h - 1, plot.x, plot.w, h);
		return;
	}
	/* whole decades, at least one */
	lo = floor(log10(lo));
	hi = ceil(log10(hi));
	if (hi <= lo)
		hi = lo + 1;
	/* decade labels on the left: 10us, 100us, 1ms ... */
	for (double d = lo; d <= hi; d++) {
		int row = (int)lround((d - lo) / (hi - lo) * (plot.h - 1));
		char v[16];

		fmt_ns(v, sizeof(v), pow(10, d));
		/* "100.0 us" -> "100us": a label is a decade */
		{
			char *dot = strchr(v, '.'), *sp = strchr(v, ' ');

			if (dot && sp && sp > dot)
				memmove(dot, sp, strlen(sp) + 1);
			if ((sp = strchr(v, ' ')))
				memmove(sp, sp + 1, strlen(sp));
		}
		w_text(plot.y + plot.h - 1 - row, in.x, lbl, theme_attr(t, EL_DIM), false, "%5s%s", v,
		       t->g->axis_tick);
	}
	first = first_shown(h->n, plot.w, &dx0);
	for (k = 0; k < 3; k++) {
		attrset(theme_attr(t, el[k]));
		for (i = first; i < h->n; i++) {
			int dx = dx0 + (int)(i - first), row;

			if (series[k][i] <= 0 || dx < 0 || dx >= plot.w)
				continue;
			row = (int)lround((log10(series[k][i]) - lo) / (hi - lo) * (plot.h - 1));
			if (row < 0)
				row = 0;
			if (row >= plot.h)
				row = plot.h - 1;
			mvaddstr(plot.y + plot.h - 1 - row, plot.x + dx, mark[k]);
		}
	}
	attrset(A_NORMAL);
	time_axis(t, in.y + in.h - 1, plot.x, plot.w, h);
}
