/*
 * list_filter.c - the `/` filter the long lists share (Devices, Results):
 * a case-insensitive substring over each row's text. The screens keep
 * their own rows; this file only decides and draws the field.
 */
#include <string.h>

#include "list_filter.h"
#include "widgets.h"

bool list_filter_key(struct list_filter *f, int ch, bool *changed)
{
	char before[sizeof(f->text)];

	*changed = false;
	if (!f->typing && ch == 27 && f->text[0]) {
		f->text[0] = '\0';
		*changed = true;
		return true;
	}
	if (!f->typing) {
		if (ch != '/')
			return false;
		f->typing = true;
		return true;
	}
	memcpy(before, f->text, sizeof(before));
	switch (ch) {
	case 27:
		f->text[0] = '\0';
		f->typing = false;
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
		f->typing = false;
		break;
	default:
		/* every other key stays in the field: q must not quit mid-typing */
		w_edit_key(f->text, sizeof(f->text), ch);
		break;
	}
	*changed = strcmp(before, f->text) != 0;
	return true;
}

bool list_filter_active(const struct list_filter *f)
{
	return f->typing || f->text[0];
}

bool list_filter_match(const struct list_filter *f, const char *s)
{
	return !f->text[0] || (s && strcasestr(s, f->text));
}

void list_filter_draw(const struct theme *t, const struct list_filter *f, int y, int x, int w,
		      size_t shown, size_t total)
{
	if (!list_filter_active(f))
		return;
	w_text(y, x, w, theme_attr(t, f->typing ? EL_MESSAGE : EL_TITLE), true,
	       " /%s%s  (%zu of %zu; %s)", f->text, f->typing ? "_" : "", shown, total,
	       f->typing ? "Enter keeps, Esc clears" : "/ changes, Esc clears");
}
