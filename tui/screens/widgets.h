/*
 * widgets.h - small drawing helpers every screen shares: clipped text,
 * horizontal gauges, time-series graphs, boxes, tables, and number
 * formatting with explicit units. All draw on stdscr, UI thread only.
 */
#ifndef RB_WIDGETS_H
#define RB_WIDGETS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "fmt.h"
#include "tui.h"

/*
 * Text at (y, x), clipped to w columns (UTF-8 aware; a cut ends in an
 * ellipsis), padded with spaces when pad.
 */
void w_text(int y, int x, int w, attr_t attr, bool pad, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/*
 * A one-line input field's editing key: Backspace removes the last
 * character, Ctrl-U clears the field, Ctrl-W removes the last word (of a
 * path, the last component), a printable one is appended while buf (size
 * bytes) has room.
 * Returns whether ch was such a key.
 */
bool w_edit_key(char *buf, size_t size, int ch);
/* text word-wrapped into at most max_rows lines of w cells from (y, x); returns the rows used */
int w_wrap(int y, int x, int w, int max_rows, attr_t attr, const char *text);
/* the rows w_wrap would take (at most max_rows), nothing drawn */
int w_wrap_rows(int w, int max_rows, const char *text);
/* Fills a rectangle with spaces in attr. */
void w_clear(const struct rect *r, attr_t attr);
/* A box around r with a title in its top border. */
void w_box(const struct theme *t, const struct rect *r, const char *title);
/* The inside of a box. */
struct rect w_inner(const struct rect *r);
/* A horizontal gauge: fraction 0..1 of w columns, eighth blocks. */
void w_hbar(const struct theme *t, int y, int x, int w, double fraction, attr_t attr);
/*
 * A time-series graph of n values (oldest first) in r, scaled to max (0 =
 * the largest value); newest at the right edge. Empty cells are not drawn,
 * so several series can share one rectangle (draw the largest first).
 */
void w_graph(const struct theme *t, const struct rect *r, const double *values, size_t n,
	     double max, attr_t attr);

/*
 * List navigation shared by the screens: Up/Down/j/k, PgUp/PgDn (by page),
 * Home/End. When ch is one of them, *sel becomes the wanted row (not yet
 * clamped: the screen's own select function clamps) and true is returned.
 */
bool w_list_key(int ch, int *sel, int page, int nr);

/* The ellipsis of cut text: "~" when only ASCII is drawn, else "…" (theme_init's caller sets it). */
void w_set_ascii(bool ascii);

/* Columns of display cells a UTF-8 string takes. */
int w_width(const char *s);


#endif
