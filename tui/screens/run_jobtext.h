/*
 * run_jobtext.h - the Run screen's rows of what jobs say while they run
 * (exec's program output under the TUI, as core/live_view.h decodes it):
 * one row per job that said something, its latest text at the right end so
 * the newest output is the part that shows. UI thread only; draws on stdscr.
 */
#ifndef RB_RUN_JOBTEXT_H
#define RB_RUN_JOBTEXT_H

#include <stddef.h>

#include "live_view.h"
#include "tui.h"

/* Rows the texts of v want, at most max (the last one then counts the rest). */
int run_jobtext_rows(const struct live_view *v, int max);

/* Draws them over r: "job 'NAME' output: TEXT"; names[i] is worker i's job name. */
void run_jobtext_draw(const struct theme *t, const struct live_view *v, const char (*names)[48],
		      const struct rect *r);

/*
 * The end of text that fits in cols columns (text is printable ASCII): the
 * latest whole " | "-separated lines, else "..." and its end, never half of
 * a "\xNN". In out (len bytes); exposed for tests.
 */
void run_jobtext_fit(char *out, size_t len, const char *text, int cols);

#endif
