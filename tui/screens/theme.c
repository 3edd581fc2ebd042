/*
 * theme.c - the color table by meaning (ncdu's UI_COLORS, htop's color
 * schemes) and the glyph sets. Colors come from curses color pairs; with
 * NO_COLOR or a monochrome terminal every element maps to bold, reverse,
 * underline or plain so meaning survives without color.
 */
#include <langinfo.h>
#include <stdlib.h>
#include <string.h>

#include "theme.h"

static const struct glyphs utf8_glyphs = {
	.eighths = { " ", "▏", "▎", "▍", "▌", "▋", "▊", "▉", "█" },
	.vbars = { " ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" },
	.tree_mid = "├─", .tree_last = "└─", .tree_vert = "│ ",
	.hline = "─", .vline = "│", .tl = "┌", .tr = "┐", .bl = "└", .br = "┘",
	.bullet = "●", .arrow = "▶", .times = "×",
	.graph_read = "█", .graph_write = "▒",
	.mark_p50 = "·", .mark_p99 = "•", .mark_p999 = "×",
	.axis_tick = "╵",
};

static const struct glyphs ascii_glyphs = {
	.eighths = { " ", " ", " ", "-", "-", "=", "=", "#", "#" },
	.vbars = { " ", ".", ".", "-", "-", "=", "=", "#", "#" },
	.tree_mid = "|-", .tree_last = "`-", .tree_vert = "| ",
	.hline = "-", .vline = "|", .tl = "+", .tr = "+", .bl = "+", .br = "+",
	.bullet = "*", .arrow = ">", .times = "x",
	.graph_read = "#", .graph_write = "%",
	.mark_p50 = ".", .mark_p99 = "o", .mark_p999 = "x",
	.axis_tick = "|",
};

/* fg, bg (-1 = terminal default), extra attribute; and the monochrome twin */
struct el_style {
	short fg, bg;
	attr_t extra;
	attr_t mono;
};

static const struct el_style styles[EL_COUNT] = {
	[EL_DEFAULT] = { -1, -1, 0, 0 },
	[EL_HEADER] = { COLOR_BLACK, COLOR_CYAN, 0, A_REVERSE },
	[EL_TAB] = { COLOR_WHITE, COLOR_BLUE, 0, A_REVERSE },
	[EL_TAB_ACTIVE] = { COLOR_BLACK, COLOR_WHITE, A_BOLD, A_BOLD | A_UNDERLINE },
	[EL_KEY] = { COLOR_WHITE, -1, A_BOLD, A_BOLD },
	[EL_KEY_LABEL] = { COLOR_BLACK, COLOR_CYAN, 0, A_REVERSE },
	[EL_SELECTED] = { COLOR_BLACK, COLOR_CYAN, 0, A_REVERSE },
	[EL_DIM] = { COLOR_BLUE, -1, A_BOLD, A_DIM },
	[EL_TITLE] = { COLOR_CYAN, -1, A_BOLD, A_BOLD },
	[EL_BOX] = { COLOR_BLUE, -1, 0, 0 },
	[EL_MESSAGE] = { COLOR_BLACK, COLOR_YELLOW, 0, A_REVERSE },
	[EL_ERROR] = { COLOR_WHITE, COLOR_RED, A_BOLD, A_REVERSE | A_BOLD },
	[EL_STATUS_OK] = { COLOR_GREEN, -1, 0, 0 },
	[EL_STATUS_WARN] = { COLOR_YELLOW, -1, A_BOLD, A_BOLD },
	[EL_STATUS_FAILED] = { COLOR_RED, -1, A_BOLD, A_BOLD | A_UNDERLINE },
	[EL_STATUS_BUSY] = { COLOR_MAGENTA, -1, A_BOLD, A_BOLD },
	[EL_GAUGE_READ] = { COLOR_GREEN, -1, A_BOLD, A_BOLD },
	[EL_GAUGE_WRITE] = { COLOR_RED, -1, A_BOLD, 0 },
	[EL_GRAPH_P50] = { COLOR_GREEN, -1, 0, 0 },
	[EL_GRAPH_P99] = { COLOR_YELLOW, -1, 0, A_BOLD },
	[EL_GRAPH_P999] = { COLOR_RED, -1, 0, A_UNDERLINE },
	[EL_SAFE] = { COLOR_GREEN, -1, 0, 0 },
	[EL_UNSAFE] = { COLOR_RED, -1, A_BOLD, A_BOLD },
	[EL_BIG_NUMBER] = { COLOR_WHITE, -1, A_BOLD, A_BOLD },
};

static struct theme the_theme;

bool theme_locale_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "utf8"));
}

const struct theme *theme_init(bool ascii)
{
	const char *no_color = getenv("NO_COLOR");
	int i;

	the_theme.g = ascii ? &ascii_glyphs : &utf8_glyphs;
	the_theme.color = has_colors() && !(no_color && *no_color);
	if (the_theme.color && start_color() == OK) {
		use_default_colors();
		for (i = 0; i < EL_COUNT; i++) {
			init_pair((short)(i + 1), styles[i].fg, styles[i].bg);
			the_theme.attr[i] = COLOR_PAIR(i + 1) | styles[i].extra;
		}
	} else {
		the_theme.color = false;
		for (i = 0; i < EL_COUNT; i++)
			the_theme.attr[i] = styles[i].mono;
	}
	return &the_theme;
}
