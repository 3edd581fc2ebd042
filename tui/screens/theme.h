/*
 * theme.h - colors by meaning and glyph sets. Screens ask for an element
 * (STATUS_FAILED, GAUGE_READ, ...), never for a color. Monochrome when
 * NO_COLOR is set or the terminal has no colors; an ASCII twin for every
 * glyph set (--ascii, or a locale that is not UTF-8).
 */
#ifndef RB_THEME_H
#define RB_THEME_H

#include <curses.h>
#include <stdbool.h>

#define THEME_ELEMENTS(X) \
	X(DEFAULT)        \
	X(HEADER)         \
	X(TAB)            \
	X(TAB_ACTIVE)     \
	X(KEY)            \
	X(KEY_LABEL)      \
	X(SELECTED)       \
	X(DIM)            \
	X(TITLE)          \
	X(BOX)            \
	X(MESSAGE)        \
	X(ERROR)          \
	X(STATUS_OK)      \
	X(STATUS_WARN)    \
	X(STATUS_FAILED)  \
	X(STATUS_BUSY)    \
	X(GAUGE_READ)     \
	X(GAUGE_WRITE)    \
	X(GRAPH_P50)      \
	X(GRAPH_P99)      \
	X(GRAPH_P999)     \
	X(SAFE)           \
	X(UNSAFE)         \
	X(BIG_NUMBER)

enum theme_el {
#define THEME_ENUM(name) EL_##name,
	THEME_ELEMENTS(THEME_ENUM)
#undef THEME_ENUM
	EL_COUNT
};

struct glyphs {
	const char *eighths[9];		/* "" .. full block, for bars (left to right) */
	const char *vbars[9];		/* "" .. full block, for graphs (bottom to top) */
	const char *tree_mid;		/* "├─" */
	const char *tree_last;		/* "└─" */
	const char *tree_vert;		/* "│ " */
	const char *hline;
	const char *vline;
	const char *tl, *tr, *bl, *br;
	const char *bullet;
	const char *arrow;
	/* charts: a glyph per series, so they read without colour */
	const char *graph_read, *graph_write;		/* stacked rate cells */
	const char *mark_p50, *mark_p99, *mark_p999;	/* latency marks */
	const char *axis_tick;				/* before an axis label */
	const char *times;		/* "×": clones of a job, "random ×16" */
};

struct theme {
	bool color;
	attr_t attr[EL_COUNT];
	const struct glyphs *g;
};

/* After initscr/newterm: picks colors or monochrome and the glyph set. */
const struct theme *theme_init(bool ascii);

static inline attr_t theme_attr(const struct theme *t, enum theme_el el)
{
	return t->attr[el];
}

/* true when the locale's charset is UTF-8 */
bool theme_locale_utf8(void);

#endif
