/*
 * report_svg.h - the charts of a report as SVG text: lines over time (linear
 * or log axis, a min-max band under each line), histograms on a log axis,
 * and grouped bars. Each chart carries its numbers as data-* attributes and
 * its plot area and axis range, so a test can read back what was drawn.
 *
 * All text is escaped here (xml_puts); callers pass raw strings. Writes to
 * the caller's FILE; never opens files, never prints.
 */
#ifndef RB_REPORT_SVG_H
#define RB_REPORT_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Writes s with &, <, >, " and ' escaped and control characters dropped. */
void xml_puts(FILE *f, const char *s);

/* How axis ticks and values read: a count ("12.3k"), bytes/s ("1.2 GB/s"), ns ("850 us"), %. */
enum svg_unit { SVG_COUNT, SVG_RATE, SVG_NS, SVG_PCT, SVG_SECONDS };

/* v in unit as short text into buf. */
void svg_fmt(char *buf, size_t len, double v, enum svg_unit unit);

struct svg_line {
	const char *name;	/* legend text */
	const char *color;	/* "#1f77b4" */
	bool dashed;
	size_t n;
	const double *x;
	const double *y;	/* NAN: no value there (a gap) */
	const double *lo, *hi;	/* the band under the line, or NULL */
};

struct svg_chart {
	const char *title;
	const char *id;		/* element id and the file stem with --format=svg */
	enum svg_unit xunit, yunit;
	bool ylog;
	bool standalone;	/* a file of its own: XML declaration and namespace */
};

void svg_line_chart(FILE *f, const struct svg_chart *c, const struct svg_line *lines, size_t n);

/* Bars over log-spaced buckets: edges has n + 1 values, counts n. */
void svg_histogram(FILE *f, const struct svg_chart *c, const char *color, const double *edges,
		   const double *counts, size_t n);

/*
 * Grouped bars: nr_groups metrics ("IOPS", "MB/s", "p99") side by side, one
 * bar per item in each, each group on its own scale. values[g * nr_items + i]
 * (< 0 unknown); notes likewise (the "% change" text), best[g] the index of
 * the marked bar or -1.
 */
struct svg_bars {
	size_t nr_groups, nr_items;
	const char *const *group_names;
	const enum svg_unit *group_units;
	const char *const *item_names;
	const double *values;
	const char *const *notes;
	const int *best;
};

void svg_bar_chart(FILE *f, const struct svg_chart *c, const struct svg_bars *b);

/* A colour per item of a comparison, cycling through a fixed palette. */
const char *svg_color(size_t i);

#endif
