/*
 * report_svg.c - draws a report's charts as SVG elements (report_svg.h):
 * axes with readable ticks, lines with min-max bands, log-axis histograms
 * and grouped bars. Geometry only; what to chart is report_html.c's
 * business. Never prints, never opens files.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_svg.h"

#define W 760
#define H 270
#define ML 74		/* room for the y tick labels */
#define MR 16
#define MT 30		/* the title */
#define MB 58		/* x tick labels and the legend */

/* Length of the valid UTF-8 sequence at s, or 0 (overlong, surrogate, past U+10FFFF, cut). */
static int utf8_len(const unsigned char *s)
{
	int n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 0;
	unsigned cp;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	cp = s[0] & (0x3fu >> (n - 1));
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3fu);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff)
		return 0;
	return n;
}

void xml_puts(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (p && *p) {
		unsigned char c = *p;
		int n;

		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			if (c >= 0x80) {
				/* bytes that are not UTF-8 would make the document unreadable */
				n = utf8_len(p);
				if (n) {
					fwrite(p, 1, (size_t)n, f);
					p += n;
				} else {
					fputs("\xef\xbf\xbd", f);
					p++;
				}
				continue;
			}
			/* XML 1.0 allows no C0 control but tab and newline; DEL is shown as nothing too */
			if (c >= 0x20 && c != 0x7f)
				fputc(c, f);
			else if (c == '\t' || c == '\n')
				fputc(' ', f);
		}
		p++;
	}
}

/* An id attribute from outside text: letters, digits, '-' and '_' only. */
static void put_id(FILE *f, const char *s)
{
	fputs("rb-", f);
	for (; s && *s; s++) {
		char c = *s;

		fputc((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '-' ? c : '_', f);
	}
}

static void put_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.9g", v);
	else
		fputs("nan", f);
}

void svg_fmt(char *buf, size_t len, double v, enum svg_unit unit)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P" };
	double a = fabs(v);
	int k = 0;

	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return;
	}
	switch (unit) {
	case SVG_PCT:
		snprintf(buf, len, "%.0f%%", v);
		return;
	case SVG_SECONDS:
		snprintf(buf, len, a >= 100 || a == floor(a) ? "%.0f s" : "%.1f s", v);
		return;
	case SVG_NS:
		if (a < 1000)
			snprintf(buf, len, "%.0f ns", v);
		else if (a < 1e6)
			snprintf(buf, len, "%.3g us", v / 1e3);
		else if (a < 1e9)
			snprintf(buf, len, "%.3g ms", v / 1e6);
		else
			snprintf(buf, len, "%.3g s", v / 1e9);
		return;
	case SVG_RATE:
	case SVG_COUNT:
		while (a >= 1000 && k < 5) {
			a /= 1000;
			v /= 1000;
			k++;
		}
		if (unit == SVG_RATE)
			snprintf(buf, len, "%.3g %sB/s", v, si[k]);
		else
			snprintf(buf, len, k ? "%.3g%s" : "%.0f%s", v, si[k]);
		return;
	}
}

/* A step of 1, 2 or 5 times a power of ten giving about n ticks over range. */
static double nice_step(double range, int n)
{
	double raw = range / n, p = pow(10, floor(log10(raw))), m = raw / p;

	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

struct frame {
	double x0, x1, y0, y1;	/* data range */
	bool ylog, xlog;
	double px, py, pw, ph;	/* plot area */
};

static double map_x(const struct frame *fr, double x)
{
	double t = fr->xlog ? (log10(x) - log10(fr->x0)) / (log10(fr->x1) - log10(fr->x0)) :
			      (x - fr->x0) / (fr->x1 - fr->x0);

	return fr->px + t * fr->pw;
}

static double map_y(const struct frame *fr, double y)
{
	double t = fr->ylog ? (log10(y) - log10(fr->y0)) / (log10(fr->y1) - log10(fr->y0)) :
			      (y - fr->y0) / (fr->y1 - fr->y0);

	return fr->py + fr->ph - t * fr->ph;
}

static void open_svg(FILE *f, const struct svg_chart *c, int w, int h, const struct frame *fr)
{
	if (c->standalone)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" id=\"", w, h, w, h);
	put_id(f, c->id);
	fputs("\" data-title=\"", f);
	xml_puts(f, c->title);
	if (fr) {
		fputs("\" data-xmin=\"", f);
		put_num(f, fr->x0);
		fputs("\" data-xmax=\"", f);
		put_num(f, fr->x1);
		fputs("\" data-ymin=\"", f);
		put_num(f, fr->y0);
		fputs("\" data-ymax=\"", f);
		put_num(f, fr->y1);
		fprintf(f, "\" data-xlog=\"%d\" data-ylog=\"%d\" data-plot=\"%g %g %g %g",
			fr->xlog, fr->ylog, fr->px, fr->py, fr->pw, fr->ph);
	}
	fputs("\" font-family=\"sans-serif\" font-size=\"11\">\n", f);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", w, h);
	fputs("<text x=\"8\" y=\"18\" font-size=\"13\" font-weight=\"bold\">", f);
	xml_puts(f, c->title);
	fputs("</text>\n", f);
}

static void axes(FILE *f, const struct frame *fr, enum svg_unit xu, enum svg_unit yu)
{
	char lab[32];
	double v, step;

	fprintf(f, "<rect class=\"plot\" x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" "
		"fill=\"none\" stroke=\"#888888\"/>\n", fr->px, fr->py, fr->pw, fr->ph);
	/* y ticks: decades on a log axis, 1-2-5 steps on a linear one */
	if (fr->ylog) {
		for (v = fr->y0; v <= fr->y1 * 1.0001; v *= 10) {
			double y = map_y(fr, v);

			svg_fmt(lab, sizeof(lab), v, yu);
			fprintf(f, "<line x1=\"%g\" y1=\"%.1f\" x2=\"%g\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>"
				"<text x=\"%g\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", fr->px, y,
				fr->px + fr->pw, y, fr->px - 4, y + 4, lab);
		}
	} else {
		step = nice_step(fr->y1 - fr->y0, 4);
		for (v = fr->y0; v <= fr->y1 + step * 1e-6; v += step) {
			double y = map_y(fr, v);

			svg_fmt(lab, sizeof(lab), v, yu);
			fprintf(f, "<line x1=\"%g\" y1=\"%.1f\" x2=\"%g\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>"
				"<text x=\"%g\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", fr->px, y,
				fr->px + fr->pw, y, fr->px - 4, y + 4, lab);
		}
	}
	if (fr->xlog) {
		for (v = pow(10, ceil(log10(fr->x0) - 1e-9)); v <= fr->x1 * 1.0001; v *= 10) {
			double x = map_x(fr, v);

			svg_fmt(lab, sizeof(lab), v, xu);
			fprintf(f, "<line x1=\"%.1f\" y1=\"%g\" x2=\"%.1f\" y2=\"%g\" stroke=\"#e0e0e0\"/>"
				"<text x=\"%.1f\" y=\"%g\" text-anchor=\"middle\">%s</text>\n", x, fr->py,
				x, fr->py + fr->ph, x, fr->py + fr->ph + 14, lab);
		}
	} else {
		step = nice_step(fr->x1 - fr->x0, 6);
		for (v = ceil(fr->x0 / step) * step; v <= fr->x1 + step * 1e-6; v += step) {
			double x = map_x(fr, v);

			svg_fmt(lab, sizeof(lab), v, xu);
			fprintf(f, "<text x=\"%.1f\" y=\"%g\" text-anchor=\"middle\">%s</text>\n", x,
				fr->py + fr->ph + 14, lab);
		}
	}
}

static void legend(FILE *f, double x, double y, const char *color, bool dashed, const char *name)
{
	fprintf(f, "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"%s\" stroke-width=\"2\"%s/>"
		"<text x=\"%g\" y=\"%g\">", x, y, x + 18, y, color,
		dashed ? " stroke-dasharray=\"5 3\"" : "", x + 22, y + 4);
	xml_puts(f, name);
	fputs("</text>\n", f);
}

static bool usable(const struct frame *fr, double v, bool on_y)
{
	return isfinite(v) && (!(on_y ? fr->ylog : fr->xlog) || v > 0);
}

void svg_line_chart(FILE *f, const struct svg_chart *c, const struct svg_line *lines, size_t n)
{
	struct frame fr = { INFINITY, -INFINITY, INFINITY, -INFINITY, c->ylog, false,
			    ML, MT, W - ML - MR, H - MT - MB };
	size_t i, k;

	for (i = 0; i < n; i++)
		for (k = 0; k < lines[i].n; k++) {
			const double ys[3] = { lines[i].y[k], lines[i].lo ? lines[i].lo[k] : NAN,
					       lines[i].hi ? lines[i].hi[k] : NAN };

			if (!isfinite(lines[i].x[k]))
				continue;
			fr.x0 = fmin(fr.x0, lines[i].x[k]);
			fr.x1 = fmax(fr.x1, lines[i].x[k]);
			for (int j = 0; j < 3; j++)
				if (usable(&fr, ys[j], true)) {
					fr.y0 = fmin(fr.y0, ys[j]);
					fr.y1 = fmax(fr.y1, ys[j]);
				}
		}
	if (!isfinite(fr.x0)) {
		fr.x0 = 0;
		fr.x1 = 1;
	}
	if (fr.x1 <= fr.x0)
		fr.x1 = fr.x0 + 1;
	if (!isfinite(fr.y0)) {
		fr.y0 = fr.ylog ? 1 : 0;
		fr.y1 = fr.ylog ? 10 : 1;
	}
	if (fr.ylog) {
		fr.y0 = pow(10, floor(log10(fr.y0)));
		fr.y1 = pow(10, ceil(log10(fr.y1)));
		if (fr.y1 <= fr.y0)
			fr.y1 = fr.y0 * 10;
	} else {
		double step;

		fr.y0 = 0;	/* rates read against zero */
		if (fr.y1 <= 0)
			fr.y1 = 1;
		step = nice_step(fr.y1, 4);
		fr.y1 = ceil(fr.y1 / step) * step;
	}
	open_svg(f, c, W, H, &fr);
	axes(f, &fr, c->xunit, c->yunit);
	for (i = 0; i < n; i++) {
		const struct svg_line *l = &lines[i];
		bool pen = false;

		/* the band: min up to max, as one polygon per run of usable buckets */
		if (l->lo && l->hi) {
			fprintf(f, "<path class=\"band\" fill=\"%s\" fill-opacity=\"0.15\" stroke=\"none\" "
				"data-name=\"", l->color);
			xml_puts(f, l->name);
			fputs("\" d=\"", f);
			for (k = 0; k < l->n;) {
				size_t a = k, b;

				while (a < l->n && !(usable(&fr, l->lo[a], true) &&
						     usable(&fr, l->hi[a], true)))
					a++;
				for (b = a; b < l->n && usable(&fr, l->lo[b], true) &&
					    usable(&fr, l->hi[b], true); b++)
					;
				if (a < b) {
					for (size_t j = a; j < b; j++)
						fprintf(f, "%c%.1f %.1f ", j == a ? 'M' : 'L',
							map_x(&fr, l->x[j]), map_y(&fr, l->hi[j]));
					for (size_t j = b; j-- > a;)
						fprintf(f, "L%.1f %.1f ", map_x(&fr, l->x[j]),
							map_y(&fr, l->lo[j]));
					fputs("Z ", f);
				}
				k = b > a ? b : a + 1;
			}
			fputs("\"/>\n", f);
		}
		fprintf(f, "<path class=\"line\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\"%s "
			"data-name=\"", l->color, l->dashed ? " stroke-dasharray=\"5 3\"" : "");
		xml_puts(f, l->name);
		fputs("\" data-x=\"", f);
		for (k = 0; k < l->n; k++) {
			fputs(k ? " " : "", f);
			put_num(f, l->x[k]);
		}
		fputs("\" data-y=\"", f);
		for (k = 0; k < l->n; k++) {
			fputs(k ? " " : "", f);
			put_num(f, l->y[k]);
		}
		fputs("\" d=\"", f);
		for (k = 0; k < l->n; k++) {
			if (!usable(&fr, l->y[k], true) || !isfinite(l->x[k])) {
				pen = false;
				continue;
			}
			fprintf(f, "%c%.2f %.2f ", pen ? 'L' : 'M', map_x(&fr, l->x[k]),
				map_y(&fr, l->y[k]));
			pen = true;
		}
		fputs("\"/>\n", f);
		/* a lone bucket has no line to draw: mark it */
		if (l->n == 1 && usable(&fr, l->y[0], true))
			fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"3\" fill=\"%s\"/>\n",
				map_x(&fr, l->x[0]), map_y(&fr, l->y[0]), l->color);
		legend(f, ML + (double)(i % 4) * 170, H - 26 + (double)(i / 4) * 14 - (n > 4 ? 6 : 0),
		       l->color, l->dashed, l->name);
	}
	fputs("</svg>\n", f);
}

void svg_histogram(FILE *f, const struct svg_chart *c, const char *color, const double *edges,
		   const double *counts, size_t n)
{
	struct frame fr = { 0, 0, 0, 0, false, true, ML, MT, W - ML - MR, H - MT - MB };
	double total = 0, top = 0, step;
	size_t i;

	for (i = 0; i < n; i++)
		total += counts[i];
	for (i = 0; i < n; i++)
		top = fmax(top, total > 0 ? 100.0 * counts[i] / total : 0);
	fr.x0 = n && edges[0] > 0 ? edges[0] : 1;
	fr.x1 = n && edges[n] > fr.x0 ? edges[n] : fr.x0 * 10;
	step = nice_step(top > 0 ? top : 1, 4);
	fr.y1 = ceil((top > 0 ? top : 1) / step) * step;
	open_svg(f, c, W, H, &fr);
	axes(f, &fr, SVG_NS, SVG_PCT);
	for (i = 0; i < n; i++) {
		double xa = map_x(&fr, edges[i]), xb = map_x(&fr, edges[i + 1]);
		double pct = total > 0 ? 100.0 * counts[i] / total : 0, y = map_y(&fr, pct);

		fprintf(f, "<rect class=\"bin\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
			"fill=\"%s\" data-lo=\"", xa, y, xb - xa > 0.6 ? xb - xa - 0.3 : 0.3,
			fr.py + fr.ph - y, color);
		put_num(f, edges[i]);
		fputs("\" data-hi=\"", f);
		put_num(f, edges[i + 1]);
		fputs("\" data-count=\"", f);
		put_num(f, counts[i]);
		fputs("\"/>\n", f);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\">share of I/Os per bucket, completion latency on a "
		"log axis</text>\n", ML, H - 20);
	fputs("</svg>\n", f);
}

static const char *const palette[] = { "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
				       "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf" };

const char *svg_color(size_t i)
{
	return palette[i % (sizeof(palette) / sizeof(palette[0]))];
}

void svg_bar_chart(FILE *f, const struct svg_chart *c, const struct svg_bars *b)
{
	size_t rows = (b->nr_items + 3) / 4, g, i;
	int h = 270 + (int)rows * 16;
	double pw = W - 2 * MR, gw = pw / (double)(b->nr_groups ? b->nr_groups : 1);
	double top = MT + 34, base = h - 66 - (double)rows * 16, bw;
	char lab[48];

	bw = (gw - 24) / (double)(b->nr_items ? b->nr_items : 1);
	if (bw > 60)
		bw = 60;
	open_svg(f, c, W, h, NULL);
	for (g = 0; g < b->nr_groups; g++) {
		double gx = MR + (double)g * gw, max = 0;
		double x0 = gx + (gw - bw * (double)b->nr_items) / 2;

		for (i = 0; i < b->nr_items; i++)
			max = fmax(max, b->values[g * b->nr_items + i]);
		fprintf(f, "<text x=\"%.1f\" y=\"%g\" text-anchor=\"middle\" font-weight=\"bold\">",
			gx + gw / 2, (double)MT + 12);
		xml_puts(f, b->group_names[g]);
		fputs("</text>\n", f);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#888888\"/>\n",
			gx + 6, base, gx + gw - 6, base);
		for (i = 0; i < b->nr_items; i++) {
			double v = b->values[g * b->nr_items + i];
			double hh = v > 0 && max > 0 ? (base - top) * v / max : 0;
			double x = x0 + (double)i * bw;
			bool best = b->best && b->best[g] == (int)i;
			const char *note = b->notes ? b->notes[g * b->nr_items + i] : NULL;

			fprintf(f, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				"fill=\"%s\"%s data-group=\"", x + 2, base - hh, bw - 4, hh,
				svg_color(i), best ? " stroke=\"#000000\" stroke-width=\"2\"" : "");
			xml_puts(f, b->group_names[g]);
			fputs("\" data-item=\"", f);
			xml_puts(f, b->item_names[i]);
			fputs("\" data-value=\"", f);
			put_num(f, v);
			fprintf(f, "\" data-best=\"%d\"/>\n", best);
			svg_fmt(lab, sizeof(lab), v, b->group_units[g]);
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"10\">%s"
				"</text>\n", x + bw / 2, base - hh - 4, v >= 0 ? lab : "-");
			if (note && *note) {
				fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
					"font-size=\"10\" fill=\"#444444\">", x + bw / 2, base + 13);
				xml_puts(f, note);
				fputs("</text>\n", f);
			}
			if (best)
				fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
					"font-size=\"10\" font-weight=\"bold\">best</text>\n",
					x + bw / 2, base + 25);
		}
	}
	for (i = 0; i < b->nr_items; i++) {
		double lx = MR + (double)(i % 4) * 185, ly = h - 12 - (double)(rows - 1 - i / 4) * 16;

		fprintf(f, "<rect x=\"%g\" y=\"%g\" width=\"12\" height=\"10\" fill=\"%s\"/>"
			"<text x=\"%g\" y=\"%g\">", lx, ly - 9, svg_color(i), lx + 16, ly);
		xml_puts(f, b->item_names[i]);
		fputs("</text>\n", f);
	}
	fputs("</svg>\n", f);
}
