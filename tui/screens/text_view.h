/*
 * text_view.h - a scrollable page of text in a box: fio's report of a job
 * on the Results screen. The view owns its text. UI thread only.
 */
#ifndef RB_TEXT_VIEW_H
#define RB_TEXT_VIEW_H

#include <stddef.h>

#include "tui.h"

struct text_view {
	char *text;		/* owned, NULL = nothing to show */
	char title[160];
	int top;		/* first line shown */
};

/* Takes text (malloc'd) as the view's page, from its first line. */
void text_view_set(struct text_view *tv, char *text, const char *title);
void text_view_release(struct text_view *tv);
void text_view_draw(const struct app *app, struct text_view *tv, const struct rect *r);
/* Up/Down/PgUp/PgDn/Home/End scroll (EV_HANDLED); other keys EV_NONE. */
int text_view_key(struct text_view *tv, int ch, int page);

#endif
