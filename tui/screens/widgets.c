/*
 * widgets.c - drawing helpers shared by the screens. They clip to the
 * width given and count display cells, not bytes, so UTF-8 text and glyphs
 * never spill into a neighbour.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "tty_text.h"
#include "widgets.h"

/*
 * One character of s: its display cells, and in *n the bytes it takes. A
 * control character, an invalid byte or one the locale cannot show is one
 * byte drawn as *subst ('?'; a blank for tab and newline): ncurses would
 * draw ESC as "^[" in two cells and break every column count, and a
 * terminal would act on it. *subst is '\0' for a character drawn as it is.
 */
static int char_cells(const char *s, size_t *n, char *subst)
{
	size_t len = tty_char_len(s);
	mbstate_t st;
	wchar_t wc;
	int cw;

	*n = 1;
	*subst = *s == '\t' || *s == '\n' ? ' ' : '?';
	if (!len)
		return 1;
	memset(&st, 0, sizeof(st));
	if (mbrtowc(&wc, s, len, &st) != len || (cw = wcwidth(wc)) < 0)
		return 1;
	*n = len;
	*subst = '\0';
	return cw;
}

int w_width(const char *s)
{
	int cells = 0;
	size_t n;
	char subst;

	while (*s) {
		cells += char_cells(s, &n, &subst);
		s += n;
	}
	return cells;
}

/* The mark of a cut line: "…", or "~" where only ASCII is drawn (w_set_ascii). */
static const char *ellipsis = "\u2026";

void w_set_ascii(bool ascii)
{
	ellipsis = ascii ? "~" : "\u2026";
}

/*
 * Copies at most w display cells of s to out; returns the cells used. Text
 * that does not fit ends in an ellipsis, so a cut line says it was cut.
 */
static int clip(const char *s, int w, char *out, size_t outlen)
{
	size_t o = 0, n, marks[1100];
	int cells = 0, cw_at[1100], k = 0;
	char subst;

	while (*s && o + 8 < outlen) {
		int cw = char_cells(s, &n, &subst);

		if (cells + cw > w)
			break;
		if (k < 1100) {
			marks[k] = o;
			cw_at[k++] = cw;
		}
		if (subst) {
			out[o++] = subst;
		} else {
			memcpy(out + o, s, n);
			o += n;
		}
		s += n;
		cells += cw;
	}
	/* cut (not just trailing blanks): give back characters until the ellipsis fits */
	if (s[strspn(s, " ")] && k && o + 4 < outlen) {
		while (k && cells + 1 > w) {
			k--;
			o = marks[k];
			cells -= cw_at[k];
		}
		memcpy(out + o, ellipsis, strlen(ellipsis));
		o += strlen(ellipsis);
		cells++;
	}
	out[o] = '\0';
	return cells;
}

void w_text(int y, int x, int w, attr_t attr, bool pad, const char *fmt, ...)
{
	char buf[1024], out[1100];
	va_list ap;
	int used;

	if (w <= 0 || y < 0 || y >= LINES || x >= COLS)
		return;
	if (x + w > COLS)
		w = COLS - x;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	used = clip(buf, w, out, sizeof(out));
	attrset(attr);
	mvaddstr(y, x, out);
	if (pad)
		for (; used < w; used++)
			addch(' ');
	attrset(A_NORMAL);
}

bool w_edit_key(char *buf, size_t size, int ch)
{
	size_t n = strlen(buf);

	if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		if (n)
			buf[n - 1] = '\0';
		return true;
	}
	/* readline's Ctrl-U (the whole field) and Ctrl-W (the word before the end) */
	if (ch == 21) {
		buf[0] = '\0';
		return true;
	}
	if (ch == 23) {
		while (n && buf[n - 1] == ' ')
			n--;
		while (n && buf[n - 1] != ' ' && buf[n - 1] != '/')
			n--;
		/* a path loses one component at a time, as the shell's unix-filename-rubout */
		if (n == strlen(buf) && n && buf[n - 1] == '/')
			for (n--; n && buf[n - 1] != '/'; n--)
				;
		buf[n] = '\0';
		return true;
	}
	if (ch >= 32 && ch < 127) {
		if (n + 1 < size) {
			buf[n] = (char)ch;
			buf[n + 1] = '\0';
		}
		return true;
	}
	return false;
}

/* w_wrap's lines, drawn or (draw false) only counted */
static int wrap(int y, int x, int w, int max_rows, attr_t attr, const char *text, bool draw)
{
	const char *p = text;
	int rows = 0;

	while (*p && rows < max_rows) {
		size_t len, cut;
		char line[1024];

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		len = strlen(p);
		if ((int)len > w) {
			/* the last space that keeps the line within w, else a hard cut */
			for (cut = (size_t)w; cut > 0 && p[cut] != ' '; cut--)
				;
			if (!cut)
				cut = (size_t)w;
		} else {
			cut = len;
		}
		if (cut >= sizeof(line))
			cut = sizeof(line) - 1;
		memcpy(line, p, cut);
		line[cut] = '\0';
		if (draw)
			w_text(y + rows, x, w, attr, false, "%s", line);
		rows++;
		p += cut;
	}
	return rows;
}

int w_wrap(int y, int x, int w, int max_rows, attr_t attr, const char *text)
{
	return wrap(y, x, w, max_rows, attr, text, true);
}

int w_wrap_rows(int w, int max_rows, const char *text)
{
	return w > 0 ? wrap(0, 0, w, max_rows, A_NORMAL, text, false) : 0;
}

void w_clear(const struct rect *r, attr_t attr)
{
	int y;

	attrset(attr);
	for (y = r->y; y < r->y + r->h; y++) {
		move(y, r->x);
		for (int x = 0; x < r->w && r->x + x < COLS; x++)
			addch(' ');
	}
	attrset(A_NORMAL);
}

void w_box(const struct theme *t, const struct rect *r, const char *title)
{
	const struct glyphs *g = t->g;
	attr_t a = theme_attr(t, EL_BOX);
	int y, x;

	if (r->h < 2 || r->w < 2)
		return;
	attrset(a);
	mvaddstr(r->y, r->x, g->tl);
	for (x = 1; x < r->w - 1; x++)
		addstr(g->hline);
	addstr(g->tr);
	for (y = 1; y < r->h - 1; y++) {
		mvaddstr(r->y + y, r->x, g->vline);
		mvaddstr(r->y + y, r->x + r->w - 1, g->vline);
	}
	mvaddstr(r->y + r->h - 1, r->x, g->bl);
	for (x = 1; x < r->w - 1; x++)
		addstr(g->hline);
	addstr(g->br);
	attrset(A_NORMAL);
	if (title && *title)
		w_text(r->y, r->x + 2, r->w - 4, theme_attr(t, EL_TITLE), false, " %s ", title);
}

struct rect w_inner(const struct rect *r)
{
	struct rect in = { r->y + 1, r->x + 1, r->h - 2, r->w - 2 };

	if (in.h < 0)
		in.h = 0;
	if (in.w < 0)
		in.w = 0;
	return in;
}

void w_hbar(const struct theme *t, int y, int x, int w, double fraction, attr_t attr)
{
	int eighths, full, i;

	if (w <= 0)
		return;
	if (fraction < 0)
		fraction = 0;
	if (fraction > 1)
		fraction = 1;
	eighths = (int)(fraction * w * 8 + 0.5);
	full = eighths / 8;
	attrset(attr);
	move(y, x);
	for (i = 0; i < full; i++)
		addstr(t->g->eighths[8]);
	if (full < w) {
		addstr(t->g->eighths[eighths % 8]);
		for (i = full + 1; i < w; i++)
			addch(' ');
	}
	attrset(A_NORMAL);
}

void w_graph(const struct theme *t, const struct rect *r, const double *values, size_t n,
	     double max, attr_t attr)
{
	size_t i, first;
	int col, row;

	if (r->w <= 0 || r->h <= 0)
		return;
	if (max <= 0)
		for (i = 0; i < n; i++)
			if (values[i] > max)
				max = values[i];
	first = n > (size_t)r->w ? n - (size_t)r->w : 0;
	attrset(attr);
	for (col = 0; col < r->w; col++) {
		size_t idx = first + (size_t)col;
		/* right-aligned: the newest sample sits at the right edge */
		int dx = r->w - (int)(n - first) + col;
		double v, cells;

		if (idx >= n || dx < 0 || dx >= r->w)
			continue;
		v = values[idx];
		cells = max > 0 ? v / max * r->h : 0;
		for (row = 0; row < r->h; row++) {
			double fill = cells - row;
			int e = fill >= 1 ? 8 : fill <= 0 ? 0 : (int)(fill * 8 + 0.5);

			if (v > 0 && row == 0 && e == 0)
				e = 1;	/* something happened: show a sliver */
			/* empty cells are left alone, so graphs can be overlaid */
			if (e)
				mvaddstr(r->y + r->h - 1 - row, r->x + dx, t->g->vbars[e]);
		}
	}
	attrset(A_NORMAL);
}

bool w_list_key(int ch, int *sel, int page, int nr)
{
	switch (ch) {
	case KEY_UP:
	case 'k':
		*sel -= 1;
		return true;
	case KEY_DOWN:
	case 'j':
		*sel += 1;
		return true;
	case KEY_PPAGE:
		*sel -= page;
		return true;
	case KEY_NPAGE:
		*sel += page;
		return true;
	case KEY_HOME:
		*sel = 0;
		return true;
	case KEY_END:
		*sel = nr - 1;
		return true;
	default:
		return false;
	}
}
