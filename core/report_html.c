/*
 * report_html.c - lays out a report (report_html.h): which charts a result,
 * a comparison or a sweep gets, the tables of numbers and identity beside
 * them, and the CSV of the series. The drawing itself is report_svg.c's;
 * every string from a results file goes out through xml_puts or csv_str.
 * Never prints.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "config.h"
#include "report_html.h"
#include "report_svg.h"

static const char *const ddir_names[] = { "read", "write", "trim" };
static const char *const ddir_colors[] = { "#1f77b4", "#ff7f0e", "#2ca02c" };

struct ctx {
	const struct report_sink *s;
	char *err;
	size_t errlen;
	int ret;
	unsigned nr_charts;
};

/* A file stem from outside text: safe characters only, never a hidden or parent name. */
static void make_stem(char *out, size_t len, const char *a, const char *b, const char *c)
{
	size_t n = 0;
	const char *parts[3] = { a, b, c };

	for (int k = 0; k < 3; k++) {
		if (!parts[k])
			continue;
		if (n && n + 1 < len)
			out[n++] = '-';
		for (const char *p = parts[k]; *p && n + 1 < len && n < 100; p++)
			out[n++] = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
				   (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' ? *p : '_';
	}
	out[n] = '\0';
	if (!n || out[0] == '.')
		snprintf(out, len, "chart");
}

/* The FILE a chart goes to: the document itself, or a file of its own. */
static FILE *chart_begin(struct ctx *x, struct svg_chart *c, const char *stem)
{
	FILE *f;
	char name[160];

	if (x->ret)
		return NULL;
	c->id = stem;
	c->standalone = !x->s->html;
	if (x->s->html) {
		fputs("<div class=\"fig\">", x->s->html);
		return x->s->html;
	}
	snprintf(name, sizeof(name), "%02u-%s", ++x->nr_charts, stem);
	f = x->s->chart_open(x->s->arg, name, x->err, x->errlen);
	if (!f)
		x->ret = -EIO;
	return f;
}

static void chart_end(struct ctx *x, FILE *f)
{
	int r;

	if (x->s->html) {
		fputs("</div>\n", x->s->html);
		return;
	}
	r = x->s->chart_close(x->s->arg, f, x->err, x->errlen);
	if (r && !x->ret)
		x->ret = r;
}

/* Text into the document (no-op for charts only). */
static void html(struct ctx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void html(struct ctx *x, const char *fmt, ...)
{
	va_list ap;

	if (!x->s->html)
		return;
	va_start(ap, fmt);
	vfprintf(x->s->html, fmt, ap);
	va_end(ap);
}

static void text(struct ctx *x, const char *s)
{
	if (x->s->html)
		xml_puts(x->s->html, s);
}

/* A table cell with the exact value in data-v and the readable one shown. */
static void num_cell(struct ctx *x, double v, enum svg_unit u)
{
	char buf[48];

	svg_fmt(buf, sizeof(buf), v, u);
	if (isfinite(v) && v >= 0)
		html(x, "<td data-v=\"%.9g\">%s</td>", v, buf);
	else
		html(x, "<td data-v=\"\">-</td>");
}

/* ---- one phase of one result -------------------------------------------------- */

static double *mid_seconds(const struct rdoc_track *t)
{
	double *v = calloc(t->n ? t->n : 1, sizeof(double));

	for (size_t i = 0; v && i < t->n; i++)
		v[i] = (t->t0_ms[i] + t->t1_ms[i]) / 2000.0;
	return v;
}

static void rate_chart(struct ctx *x, const struct rdoc *d, const size_t *idx, size_t nr,
		       int stat, const char *title, enum svg_unit u, const char *stem)
{
	struct svg_line lines[DDIR_RWDIR_CNT];
	double *xs[DDIR_RWDIR_CNT] = { 0 };
	struct svg_chart c = { .title = title, .xunit = SVG_SECONDS, .yunit = u };
	size_t n = 0, i;
	FILE *f;

	for (i = 0; i < nr; i++) {
		const struct rdoc_track *t = d->phases[idx[i]].series;
		int dd = d->phases[idx[i]].rp->ddir;

		if (!t || !(xs[n] = mid_seconds(t)))
			continue;
		lines[n] = (struct svg_line){ ddir_names[dd], ddir_colors[dd], dd == DDIR_WRITE, t->n,
					      xs[n], t->v[stat][RD_MEAN], t->v[stat][RD_MIN],
					      t->v[stat][RD_MAX] };
		n++;
	}
	if (n && (f = chart_begin(x, &c, stem))) {
		svg_line_chart(f, &c, lines, n);
		chart_end(x, f);
	}
	for (i = 0; i < n; i++)
		free(xs[i]);
}

static void latency_chart(struct ctx *x, const struct rdoc *d, const size_t *idx, size_t nr,
			  const char *title, const char *stem)
{
	static const char *const pname[3] = { "p50", "p99", "p99.9" };
	static const char *const pcolor[3][DDIR_RWDIR_CNT] = {
		{ "#1f77b4", "#ff7f0e", "#2ca02c" },
		{ "#0b3d66", "#a64b00", "#135e13" },
		{ "#7aaed6", "#ffbb78", "#98df8a" },
	};
	struct svg_line lines[3 * DDIR_RWDIR_CNT];
	char names[3 * DDIR_RWDIR_CNT][32];
	double *xs[DDIR_RWDIR_CNT] = { 0 };
	struct svg_chart c = { .title = title, .xunit = SVG_SECONDS, .yunit = SVG_NS, .ylog = true };
	size_t n = 0, i, nx = 0;
	FILE *f;

	for (i = 0; i < nr; i++) {
		const struct rdoc_track *t = d->phases[idx[i]].series;
		int dd = d->phases[idx[i]].rp->ddir;

		if (!t || !(xs[nx] = mid_seconds(t)))
			continue;
		for (int p = 0; p < 3; p++) {
			snprintf(names[n], sizeof(names[n]), "%s %s", ddir_names[dd], pname[p]);
			lines[n] = (struct svg_line){ names[n], pcolor[p][dd], dd == DDIR_WRITE, t->n,
						      xs[nx], t->v[RD_P50 + p][RD_MEAN], NULL, NULL };
			n++;
		}
		nx++;
	}
	if (n && (f = chart_begin(x, &c, stem))) {
		svg_line_chart(f, &c, lines, n);
		chart_end(x, f);
	}
	for (i = 0; i < nx; i++)
		free(xs[i]);
}

/* fio's fine bins regrouped log-linearly: 1, 2, ... 9 times each power of ten (ns). */
static void histogram_chart(struct ctx *x, const struct rdoc_phase *p, const char *title,
			    const char *stem)
{
	struct svg_chart c = { .title = title };
	int lo = 1 << 30, hi = -1, b;
	double *edges, *counts;
	size_t n;
	FILE *f;

	for (size_t i = 0; i < p->nr_bins; i++) {
		double ns = p->bin_ns[i] >= 1 ? p->bin_ns[i] : 1;
		int k = (int)floor(log10(ns)), m = (int)floor(ns / pow(10, k));

		b = k * 9 + (m < 1 ? 1 : m > 9 ? 9 : m) - 1;
		lo = b < lo ? b : lo;
		hi = b > hi ? b : hi;
	}
	if (hi < 0)
		return;
	n = (size_t)(hi - lo + 1);
	edges = calloc(n + 1, sizeof(double));
	counts = calloc(n, sizeof(double));
	if (edges && counts) {
		for (size_t i = 0; i <= n; i++) {
			int bb = lo + (int)i, k = bb / 9, m = bb % 9 + 1;

			edges[i] = m * pow(10, k);
		}
		for (size_t i = 0; i < p->nr_bins; i++) {
			double ns = p->bin_ns[i] >= 1 ? p->bin_ns[i] : 1;
			int k = (int)floor(log10(ns)), m = (int)floor(ns / pow(10, k));

			b = k * 9 + (m < 1 ? 1 : m > 9 ? 9 : m) - 1;
			counts[b - lo] += p->bin_count[i];
		}
		if ((f = chart_begin(x, &c, stem))) {
			svg_histogram(f, &c, ddir_colors[p->rp->ddir], edges, counts, n);
			chart_end(x, f);
		}
	}
	free(edges);
	free(counts);
}

/* The devices' utilisation over the phase's span of the run. */
static void device_chart(struct ctx *x, const struct rdoc *d, const size_t *idx, size_t nr,
			 const char *title, const char *stem)
{
	double from = INFINITY, to = -INFINITY;
	struct svg_line *lines;
	double **xs, **ys, **lo, **hi;
	char **names;
	struct svg_chart c = { .title = title, .xunit = SVG_SECONDS, .yunit = SVG_PCT };
	size_t n = 0, i, k;
	FILE *f;

	for (i = 0; i < nr; i++) {
		const struct rdoc_track *t = d->phases[idx[i]].series;

		if (t && t->n) {
			from = fmin(from, t->t0_ms[0]);
			to = fmax(to, t->t1_ms[t->n - 1]);
		}
	}
	if (!d->nr_devs || !isfinite(from))
		return;
	lines = calloc(d->nr_devs, sizeof(*lines));
	xs = calloc(d->nr_devs, sizeof(*xs));
	ys = calloc(d->nr_devs, sizeof(*ys));
	lo = calloc(d->nr_devs, sizeof(*lo));
	hi = calloc(d->nr_devs, sizeof(*hi));
	names = calloc(d->nr_devs, sizeof(*names));
	for (i = 0; lines && xs && ys && lo && hi && names && i < d->nr_devs; i++) {
		const struct rdoc_track *t = &d->devs[i].t;
		size_t m = 0;

		xs[n] = calloc(t->n + 1, sizeof(double));
		ys[n] = calloc(t->n + 1, sizeof(double));
		lo[n] = calloc(t->n + 1, sizeof(double));
		hi[n] = calloc(t->n + 1, sizeof(double));
		if (!xs[n] || !ys[n] || !lo[n] || !hi[n])
			break;
		/* buckets that overlap the phase */
		for (k = 0; k < t->n; k++) {
			if (t->t1_ms[k] <= from || t->t0_ms[k] >= to)
				continue;
			xs[n][m] = (t->t0_ms[k] + t->t1_ms[k]) / 2000.0;
			ys[n][m] = t->v[0][RD_MEAN][k];
			lo[n][m] = t->v[0][RD_MIN][k];
			hi[n][m] = t->v[0][RD_MAX][k];
			m++;
		}
		/* iostat's own manual: %util says little for devices that serve in parallel */
		if (d->devs[i].util_meaningful == 0 &&
		    asprintf(&names[n], "%s (%%util misleads: NVMe, md, dm)", d->devs[i].name) < 0)
			names[n] = NULL;
		lines[n] = (struct svg_line){ names[n] ? names[n] : d->devs[i].name, svg_color(i), false,
					      m, xs[n], ys[n], lo[n], hi[n] };
		n++;
	}
	if (n && (f = chart_begin(x, &c, stem))) {
		svg_line_chart(f, &c, lines, n);
		chart_end(x, f);
	}
	/* every slot, also one a failed allocation left half made */
	for (i = 0; i < d->nr_devs && xs && ys && lo && hi && names; i++) {
		free(names[i]);
		free(xs[i]);
		free(ys[i]);
		free(lo[i]);
		free(hi[i]);
	}
	free(lines);
	free(xs);
	free(ys);
	free(lo);
	free(hi);
	free(names);
}

static void phase_table(struct ctx *x, const struct rdoc *d, const size_t *idx, size_t nr)
{
	html(x, "<table class=\"nums\"><tr><th>direction</th><th>IOPS</th><th>bytes/s</th>"
		"<th>mean</th><th>p50</th><th>p99</th><th>p99.9</th><th>I/Os</th></tr>\n");
	for (size_t i = 0; i < nr; i++) {
		const struct rdoc_phase *p = &d->phases[idx[i]];

		html(x, "<tr class=\"phase\" data-phase=\"");
		text(x, p->rp->name);
		html(x, "\" data-ddir=\"%s\"><td>%s</td>", ddir_names[p->rp->ddir],
		     ddir_names[p->rp->ddir]);
		num_cell(x, p->rp->iops, SVG_COUNT);
		num_cell(x, p->rp->bw_bytes, SVG_RATE);
		num_cell(x, p->rp->lat_mean_ns, SVG_NS);
		num_cell(x, p->p50_ns, SVG_NS);
		num_cell(x, p->p99_ns, SVG_NS);
		num_cell(x, p->p999_ns, SVG_NS);
		html(x, "<td data-v=\"%llu\">%llu</td></tr>\n", (unsigned long long)p->rp->total_ios,
		     (unsigned long long)p->rp->total_ios);
	}
	html(x, "</table>\n");
}

/* One phase (a job name and group) of one result: its directions together. */
static void phase_section(struct ctx *x, const struct rdoc *d, size_t di, const size_t *idx,
			  size_t nr)
{
	const struct result_phase *rp = d->phases[idx[0]].rp;
	char stem[160], title[400], dn[16];
	bool any_series = false;

	snprintf(dn, sizeof(dn), "%zu", di + 1);
	html(x, "<h3>");
	text(x, rp->name);
	html(x, "</h3>\n");
	if (rp->desc) {
		html(x, "<p class=\"desc\">");
		text(x, rp->desc);
		html(x, "</p>\n");
	}
	phase_table(x, d, idx, nr);
	for (size_t i = 0; i < nr; i++)
		any_series |= d->phases[idx[i]].series != NULL;
	if (!any_series)
		html(x, "<p class=\"note\">No per-interval series for this phase in the file: the "
			"time charts are missing.</p>\n");
	make_stem(stem, sizeof(stem), dn, rp->name, "iops");
	snprintf(title, sizeof(title), "%.300s: IOPS over time", rp->name);
	rate_chart(x, d, idx, nr, RD_IOPS, title, SVG_COUNT, stem);
	make_stem(stem, sizeof(stem), dn, rp->name, "bw");
	snprintf(title, sizeof(title), "%.300s: bandwidth over time", rp->name);
	rate_chart(x, d, idx, nr, RD_BW, title, SVG_RATE, stem);
	make_stem(stem, sizeof(stem), dn, rp->name, "latency");
	snprintf(title, sizeof(title), "%.300s: completion latency p50 / p99 / p99.9 (log)",
		 rp->name);
	latency_chart(x, d, idx, nr, title, stem);
	for (size_t i = 0; i < nr; i++) {
		const struct rdoc_phase *p = &d->phases[idx[i]];

		if (!p->nr_bins) {
			html(x, "<p class=\"note\">No latency histogram for %s in the file (fio's json+ "
				"has one; plain json does not).</p>\n", ddir_names[p->rp->ddir]);
			continue;
		}
		make_stem(stem, sizeof(stem), dn, rp->name, ddir_names[p->rp->ddir]);
		strncat(stem, "-histogram", sizeof(stem) - strlen(stem) - 1);
		snprintf(title, sizeof(title), "%.300s: %s latency histogram", rp->name,
			 ddir_names[p->rp->ddir]);
		histogram_chart(x, p, title, stem);
	}
	if (any_series && !d->nr_devs)
		html(x, "<p class=\"note\">No device utilisation: the run touched no block device "
			"raidbench could follow.</p>\n");
	make_stem(stem, sizeof(stem), dn, rp->name, "devices");
	snprintf(title, sizeof(title), "%.300s: device utilisation", rp->name);
	device_chart(x, d, idx, nr, title, stem);
}

static void identity_table(struct ctx *x, const struct rdoc *d)
{
	html(x, "<table class=\"meta\">\n");
	for (size_t i = 0; i < d->nr_meta; i++) {
		html(x, "<tr><th>");
		text(x, d->meta[i].key);
		html(x, "</th><td>");
		text(x, d->meta[i].val);
		html(x, "</td></tr>\n");
	}
	html(x, "</table>\n");
}

static void result_section(struct ctx *x, const struct rdoc *d, size_t di, bool open)
{
	size_t *idx = calloc(d->r.nr_phases + 1, sizeof(*idx));
	bool *done = calloc(d->r.nr_phases + 1, sizeof(*done));

	if (!idx || !done) {
		x->ret = -ENOMEM;
		snprintf(x->err, x->errlen, "out of memory");
		free(idx);
		free(done);
		return;
	}
	html(x, "<section class=\"result\"><details%s><summary><h2>", open ? " open=\"open\"" : "");
	text(x, d->label);
	html(x, "</h2></summary>\n");
	identity_table(x, d);
	if (!d->has_series)
		html(x, "<p class=\"note\">This file has no per-interval series (saved by fio, or by "
			"an older raidbench): the report shows its totals and histograms only.</p>\n");
	else if (d->tick_ms > 0)
		html(x, "<p class=\"note\">Series: one point per live tick of %.0f ms, long runs in "
			"wider buckets; lines are the bucket means, bands their min to max.</p>\n",
		     d->tick_ms);
	for (size_t i = 0; i < d->r.nr_phases && !x->ret; i++) {
		size_t nr = 0;

		if (done[i])
			continue;
		for (size_t k = i; k < d->r.nr_phases; k++)
			if (!done[k] && !strcmp(d->r.phases[k].name, d->r.phases[i].name)) {
				done[k] = true;
				idx[nr++] = k;
			}
		phase_section(x, d, di, idx, nr);
	}
	if (!d->r.nr_phases)
		html(x, "<p class=\"note\">No phase in this file did any I/O.</p>\n");
	html(x, "</details></section>\n");
	free(idx);
	free(done);
}

/* ---- several results ---------------------------------------------------------- */

/*
 * One compare row as the bar chart's numbers: IOPS, MB/s and p99 (ns) per
 * result, "% change" notes against the first, and the best of each metric.
 */
static void fill_row(const struct compare_row *row, size_t n, double *vals, char **notes,
		     int best[3])
{
	size_t i;
	int g;

	for (i = 0; i < n; i++) {
		const struct compare_cell *cell = &row->cells[i];
		const double pct[3] = { cell->iops_pct, cell->mb_s_pct, cell->lat_p99_pct };

		vals[0 * n + i] = cell->present ? cell->iops : -1;
		vals[1 * n + i] = cell->present ? cell->mb_s : -1;
		vals[2 * n + i] = cell->present && cell->lat_p99_us >= 0 ? cell->lat_p99_us * 1000 : -1;
		for (g = 0; g < 3; g++) {
			double v = vals[g * n + i];

			free(notes[g * n + i]);
			notes[g * n + i] = NULL;
			if (v < 0)
				continue;
			if (!i)
				notes[g * n + i] = strdup("base");
			else if (isfinite(pct[g]) && asprintf(&notes[g * n + i], "%+.1f%%", pct[g]) < 0)
				notes[g * n + i] = NULL;
			if (best[g] < 0 || (g == 2 ? v < vals[g * n + best[g]] : v > vals[g * n + best[g]]))
				best[g] = (int)i;
		}
	}
}

static void compare_section(struct ctx *x, const struct rdoc *docs, size_t n, bool sweep)
{
	static const char *const gnames[3] = { "IOPS", "MB/s", "p99 latency" };
	static const enum svg_unit gunits[3] = { SVG_COUNT, SVG_COUNT, SVG_NS };
	struct result *rs = calloc(n, sizeof(*rs));
	const char **items = calloc(n, sizeof(*items));
	double *vals = calloc(3 * n, sizeof(double));
	char **notes = calloc(3 * n, sizeof(char *));
	struct compare c;
	size_t i, r;

	if (!rs || !items || !vals || !notes)
		goto nomem;
	for (i = 0; i < n; i++) {
		rs[i] = docs[i].r;	/* compare_build reads them; the docs keep ownership */
		items[i] = docs[i].label;
	}
	if (compare_build(&c, rs, n))
		goto nomem;
	html(x, "<section class=\"compare\"><h2>%s</h2>\n<p class=\"note\">", sweep ?
	     "RAID-level sweep: each phase across the levels" : "Comparison: each phase side by side");
	html(x, "Changes are against the first result (%s); the best bar of each metric is outlined "
		"(highest IOPS and MB/s, lowest p99 latency).</p>\n", sweep ? "the first level" :
		"the first file");
	html(x, "<div class=\"wide\"><table class=\"nums cmp\"><tr><th rowspan=\"2\">phase</th>"
		"<th rowspan=\"2\">dir</th>");
	for (i = 0; i < n; i++) {
		html(x, "<th colspan=\"4\">");
		text(x, docs[i].label);
		html(x, "</th>");
	}
	html(x, "</tr>\n<tr>");
	for (i = 0; i < n; i++)
		html(x, "<th>IOPS</th><th>change</th><th>MB/s</th><th>p99</th>");
	html(x, "</tr>\n");
	for (r = 0; r < c.nr_rows && !x->ret; r++) {
		const struct compare_row *row = &c.rows[r];
		int best[3] = { -1, -1, -1 };
		struct svg_bars b = { 3, n, gnames, gunits, items, vals, (const char *const *)notes,
				      best };
		struct svg_chart ch = { 0 };
		char title[400], stem[160];
		FILE *f;

		fill_row(row, n, vals, notes, best);
		html(x, "<tr class=\"cmprow\" data-phase=\"");
		text(x, row->phase);
		html(x, "\" data-ddir=\"%s\"><td>", ddir_names[row->ddir]);
		text(x, row->phase);
		html(x, "</td><td>%s</td>", ddir_names[row->ddir]);
		for (i = 0; i < n; i++) {
			num_cell(x, vals[i], SVG_COUNT);
			html(x, "<td>%s%s</td>", notes[i] ? notes[i] : "-",
			     best[0] == (int)i ? " best" : "");
			num_cell(x, vals[n + i], SVG_COUNT);
			num_cell(x, vals[2 * n + i], SVG_NS);
		}
		html(x, "</tr>\n");
		snprintf(title, sizeof(title), "%.300s %s%s", row->phase, ddir_names[row->ddir],
			 sweep ? " across RAID levels" : "");
		make_stem(stem, sizeof(stem), sweep ? "sweep" : "compare", row->phase,
			  ddir_names[row->ddir]);
		ch.title = title;
		if (x->s->html)
			continue;	/* the charts come after the table in the document */
		if ((f = chart_begin(x, &ch, stem))) {
			svg_bar_chart(f, &ch, &b);
			chart_end(x, f);
		}
	}
	html(x, "</table></div>\n");
	/* the document: the charts below the table, one per phase */
	for (r = 0; x->s->html && r < c.nr_rows && !x->ret; r++) {
		const struct compare_row *row = &c.rows[r];
		int best[3] = { -1, -1, -1 };
		struct svg_bars b = { 3, n, gnames, gunits, items, vals, (const char *const *)notes,
				      best };
		struct svg_chart ch = { 0 };
		char title[400], stem[160];
		FILE *f;

		fill_row(row, n, vals, notes, best);
		snprintf(title, sizeof(title), "%.300s %s%s", row->phase, ddir_names[row->ddir],
			 sweep ? " across RAID levels" : "");
		make_stem(stem, sizeof(stem), sweep ? "sweep" : "compare", row->phase,
			  ddir_names[row->ddir]);
		ch.title = title;
		if ((f = chart_begin(x, &ch, stem))) {
			svg_bar_chart(f, &ch, &b);
			chart_end(x, f);
		}
	}
	html(x, "</section>\n");
	compare_release(&c);
	goto out;
nomem:
	x->ret = -ENOMEM;
	snprintf(x->err, x->errlen, "out of memory");
out:
	for (i = 0; notes && i < 3 * n; i++)
		free(notes[i]);
	free(notes);
	free(vals);
	free(items);
	free(rs);
}

static const char style[] =
	"body{font-family:sans-serif;margin:1.5em;color:#222;max-width:1100px}"
	"h1{font-size:1.5em}h2{font-size:1.25em;display:inline}h3{margin-top:1.5em}"
	"table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;"
	"padding:2px 8px;text-align:left;font-size:.9em}table.nums td{text-align:right}"
	"table.meta th{background:#f4f4f4;font-weight:normal}"
	".note{color:#555;font-style:italic}.fig{margin:.6em 0}section{margin:1em 0}"
	"summary{cursor:pointer;margin:.5em 0}svg{max-width:100%;height:auto}"
	".wide{overflow-x:auto}table.cmp td,table.cmp th{font-size:.8em;padding:2px 5px;"
	"white-space:nowrap}";

int report_write(const struct report_sink *s, const struct rdoc *docs, size_t n, char *err,
		 size_t errlen)
{
	struct ctx x = { s, err, errlen, 0, 0 };
	bool sweep = n > 1;

	for (size_t i = 0; i < n; i++)
		sweep &= docs[i].sweep_level != NULL;
	html(&x, "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n"
		 "<head>\n<meta charset=\"utf-8\"/>\n"
		 /* nothing may load or run: a crafted result cannot reach the network */
		 "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		 "style-src 'unsafe-inline'; img-src data:\"/>\n<title>raidbench report: ");
	for (size_t i = 0; i < n && i < 8; i++) {
		html(&x, "%s", i ? ", " : "");
		text(&x, docs[i].label);
	}
	html(&x, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>raidbench report</h1>\n", style);
	html(&x, "<p class=\"gen\">Made by raidbench-%s from %zu result%s.</p>\n", PACKAGE_VERSION,
	     n, n == 1 ? "" : "s");
	if (n > 1)
		compare_section(&x, docs, n, sweep);
	for (size_t i = 0; i < n && !x.ret; i++)
		result_section(&x, &docs[i], i, n == 1);
	html(&x, "</body>\n</html>\n");
	return x.ret;
}

/* ---- CSV ----------------------------------------------------------------------- */

/* A CSV field from outside text: quoted, and a leading formula character defused. */
static void csv_str(FILE *f, const char *s)
{
	fputc('"', f);
	if (s && strchr("=+-@\t\r", *s) && *s)
		fputc('\'', f);
	for (; s && *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
	}
	fputc('"', f);
}

static void csv_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, ",%.9g", v);
	else
		fputs(",", f);
}

static void csv_track(FILE *f, const char *file, const char *kind, const char *name,
		      const char *dir, const struct rdoc_track *t, int nr_stats)
{
	for (size_t i = 0; i < t->n; i++) {
		csv_str(f, file);
		fputc(',', f);
		fputs(kind, f);
		fputc(',', f);
		csv_str(f, name);
		fprintf(f, ",%s", dir);
		csv_num(f, t->t0_ms[i]);
		csv_num(f, t->t1_ms[i]);
		csv_num(f, t->ios[i]);
		csv_num(f, t->bytes[i]);
		for (int s = 0; s < RD_NR_STATS; s++)
			for (int k = 0; k < 3; k++)
				csv_num(f, s < nr_stats ? t->v[s][k][i] : NAN);
		fputc('\n', f);
	}
}

int report_csv(FILE *f, const struct rdoc *docs, size_t n)
{
	fputs("file,kind,name,ddir,t_start_ms,t_end_ms,ios,bytes,"
	      "iops_min,iops_mean,iops_max,bw_bytes_min,bw_bytes_mean,bw_bytes_max,"
	      "p50_ns_min,p50_ns_mean,p50_ns_max,p99_ns_min,p99_ns_mean,p99_ns_max,"
	      "p99_9_ns_min,p99_9_ns_mean,p99_9_ns_max\n", f);
	for (size_t i = 0; i < n; i++) {
		const struct rdoc *d = &docs[i];

		for (size_t k = 0; k < d->r.nr_phases; k++)
			if (d->phases[k].series)
				csv_track(f, d->r.path, "phase", d->r.phases[k].name,
					  ddir_names[d->r.phases[k].ddir], d->phases[k].series,
					  RD_NR_STATS);
		/* device rows: utilisation % in the iops columns' place would mislead; own kind */
		for (size_t k = 0; k < d->nr_devs; k++)
			csv_track(f, d->r.path, "device_util_pct", d->devs[k].name, "", &d->devs[k].t,
				  1);
	}
	return ferror(f) ? -EIO : 0;
}
