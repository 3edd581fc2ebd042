/*
 * run_graph.h - the Run screen's time-series charts: read and write rates
 * stacked in glyphs of their own (and colours by direction), latency
 * percentiles on a log scale, each with a legend and a time axis, so they
 * read the same under NO_COLOR and --ascii. UI thread only; draws on stdscr.
 */
#ifndef RB_RUN_GRAPH_H
#define RB_RUN_GRAPH_H

#include <stddef.h>

#include "tui.h"

/* The last n samples, oldest first; t_s: seconds since the run started, per sample. */
struct graph_hist {
	const double *t_s;
	size_t n;
};

/*
 * A box over r titled "<what> (peak <peak>)" with reads and writes stacked
 * per column (read below, write above), a legend and a time axis.
 */
void graph_rates(const struct theme *t, const struct rect *r, const char *what, const char *peak,
		 const double *rd, const double *wr, const struct graph_hist *h);

/* A box over r: p50, p99 and p99.9 (ns) as marks on a log scale, decades on the left. */
void graph_latency(const struct theme *t, const struct rect *r, const char *title,
		   const double *p50, const double *p99, const double *p999,
		   const struct graph_hist *h);

/* Seconds as the axis labels them: "0s", "45s", "2:30", "1:02:00" (exposed for tests). */
void graph_fmt_time(char *buf, size_t len, double s);

#endif
