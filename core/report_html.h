/*
 * report_html.h - reports people look at, from saved results
 * (core/report_doc.h): one self-contained HTML file (inline SVG and CSS, no
 * script, no network: a Content-Security-Policy says so to the browser), the
 * same charts as separate SVG files, or the series as CSV.
 *
 * One result: per phase IOPS and MB/s over time, latency percentiles over
 * time on a log axis, the latency histogram, the devices' utilisation, and
 * what identifies the run. Several: side-by-side bars per phase with the
 * change against the first and the best marked; results of a RAID-level
 * sweep: one chart per phase across the levels.
 *
 * Writes only to what the caller hands in; never prints.
 */
#ifndef RB_REPORT_HTML_H
#define RB_REPORT_HTML_H

#include <stdio.h>
#include "report_doc.h"

/*
 * Where a report goes. html: the document, or NULL for charts only; then
 * chart_open gives a FILE for each chart (stem: letters, digits, '-', '_',
 * '.', never starting with '.') and chart_close closes it, both returning
 * NULL / -errno with err set on failure.
 */
struct report_sink {
	FILE *html;
	FILE *(*chart_open)(void *arg, const char *stem, char *err, size_t errlen);
	int (*chart_close)(void *arg, FILE *f, char *err, size_t errlen);
	void *arg;
};

/* 0, or -errno with err set (a chart file that could not be written). */
int report_write(const struct report_sink *s, const struct rdoc *docs, size_t n, char *err,
		 size_t errlen);

/* Every series bucket of every result as CSV rows, one header line first. */
int report_csv(FILE *f, const struct rdoc *docs, size_t n);

#endif
