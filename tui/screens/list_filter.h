/*
 * list_filter.h - `/` to filter a long list, as htop and tig do: typing
 * narrows the list to the rows whose text holds the filter (case does not
 * matter), Enter keeps it, Esc clears it. UI thread only.
 */
#ifndef RB_LIST_FILTER_H
#define RB_LIST_FILTER_H

#include <stdbool.h>
#include <stddef.h>

#include "tui.h"

struct list_filter {
	char text[64];		/* "" = every row */
	bool typing;		/* the field has the keys */
};

/*
 * A key for the filter: '/' starts typing; while typing, Enter keeps the
 * filter, Esc clears it, the editing keys change it. Returns whether the
 * key was the filter's; *changed tells the list to narrow again.
 */
bool list_filter_key(struct list_filter *f, int ch, bool *changed);
/* Whether s passes (always, when there is no filter). */
bool list_filter_match(const struct list_filter *f, const char *s);
bool list_filter_active(const struct list_filter *f);
/* One line: "/raid5_  (3 of 57; Enter keeps, Esc clears)" while typing or filtering. */
void list_filter_draw(const struct theme *t, const struct list_filter *f, int y, int x, int w,
		      size_t shown, size_t total);

#endif
