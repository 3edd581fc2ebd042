/*
 * text_view.c - a scrollable page of text in a box. Lines are found at
 * draw time (the page is small: one job's report), so a resize needs
 * nothing special.
 */
#include <stdlib.h>
#include <string.h>

#include "text_view.h"
#include "widgets.h"

void text_view_set(struct text_view *tv, char *text, const char *title)
{
	free(tv->text);
	tv->text = text;
	tv->top = 0;
	strncpy(tv->title, title, sizeof(tv->title) - 1);
	tv->title[sizeof(tv->title) - 1] = '\0';
}

void text_view_release(struct text_view *tv)
{
	free(tv->text);
	tv->text = NULL;
}

static int count_lines(const char *p)
{
	int n = 0;

	for (; *p; n++)
		p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n');
	return n;
}

void text_view_draw(const struct app *app, struct text_view *tv, const struct rect *r)
{
	struct rect in = w_inner(r);
	const char *p = tv->text ? tv->text : "";
	int line = 0, y = in.y, n;

	w_box(app->theme, r, tv->title);
	while (*p == '\n')
		p++;	/* fio's report opens with a blank line */
	n = count_lines(p);
	if (tv->top > n - in.h)
		tv->top = n - in.h > 0 ? n - in.h : 0;
	for (; *p && y < in.y + in.h; line++) {
		size_t len = strcspn(p, "\n");

		if (line >= tv->top)
			w_text(y++, in.x, in.w, A_NORMAL, false, "%.*s", (int)len, p);
		p += len + (p[len] == '\n');
	}
}

int text_view_key(struct text_view *tv, int ch, int page)
{
	switch (ch) {
	case KEY_UP:
	case 'k':
		tv->top--;
		break;
	case KEY_DOWN:
	case 'j':
		tv->top++;
		break;
	case KEY_PPAGE:
		tv->top -= page;
		break;
	case KEY_NPAGE:
		tv->top += page;
		break;
	case KEY_HOME:
		tv->top = 0;
		break;
	case KEY_END:
		tv->top = 1 << 20;	/* draw clamps */
		break;
	default:
		return EV_NONE;
	}
	if (tv->top < 0)
		tv->top = 0;
	return EV_HANDLED;
}
