/*
 * run_jobtext.c - the rows of run_jobtext.h. The texts arrive escaped and
 * checked (core/live_view.c): nothing here can reach the terminal but
 * printable ASCII.
 */
#include <stdio.h>
#include <string.h>

#include "run_jobtext.h"
#include "widgets.h"

void run_jobtext_fit(char *out, size_t len, const char *text, int cols)
{
	size_t n = strlen(text), want = cols > 0 ? (size_t)cols : 0, q, k;
	const char *sep;

	if (n <= want) {
		snprintf(out, len, "%s", text);
		return;
	}
	/* the first line start from which the rest fits */
	for (sep = strstr(text, " | "); sep; sep = strstr(sep + 1, " | "))
		if (n - (size_t)(sep + 3 - text) <= want) {
			snprintf(out, len, "%s", sep + 3);
			return;
		}
	if (want <= 3) {
		snprintf(out, len, "%.*s", (int)want, "...");
		return;
	}
	q = n - (want - 3);
	/* not inside a "\xNN": start after it */
	for (k = 1; k <= 3 && k <= q; k++)
		if (text[q - k] == '\\' && text[q - k + 1] == 'x') {
			q = q - k + 4 < n ? q - k + 4 : n;
			break;
		}
	snprintf(out, len, "...%s", text + q);
}

int run_jobtext_rows(const struct live_view *v, int max)
{
	size_t j;
	int n = 0;

	for (j = 0; v->text && j < v->nr_jobs; j++)
		n += v->text[j][0] != '\0';
	return n < max ? n : max;
}

/*
 * Clones share their job's name: "#k" tells them apart, as the job table
 * does. others: jobs with output that get no row of their own (never a silent cut).
 */
static void label(char *buf, size_t len, const struct live_view *v, const char (*names)[48],
		  size_t j, int others)
{
	size_t first = j, last = j, pos;

	while (first > 0 && !strcmp(names[first - 1], names[j]))
		first--;
	while (last + 1 < v->nr_jobs && !strcmp(names[last + 1], names[j]))
		last++;
	pos = (size_t)snprintf(buf, len, "job '%s'", names[j]);
	if (first != last && pos < len)
		pos += (size_t)snprintf(buf + pos, len - pos, " #%zu", j - first + 1);
	if (pos < len)
		snprintf(buf + pos, len - pos, others ? " output (+%d more): " : " output: ", others);
}

void run_jobtext_draw(const struct theme *t, const struct live_view *v, const char (*names)[48],
		      const struct rect *r)
{
	int rows = run_jobtext_rows(v, r->h), shown = 0, more = 0, y = r->y;
	char head[96], fit[LIVE_TEXT_MAX];
	size_t j;

	for (j = 0; v->text && j < v->nr_jobs; j++)
		more += v->text[j][0] != '\0';
	for (j = 0; v->text && j < v->nr_jobs && shown < rows; j++) {
		if (!v->text[j][0])
			continue;
		if (shown == rows - 1 && more > 1 && rows > 1) {
			w_text(y, r->x, r->w, theme_attr(t, EL_DIM), true,
			       "+%d more jobs with output", more);
			return;
		}
		/* one row for several: the first, saying how many more */
		label(head, sizeof(head), v, names, j, rows == 1 ? more - 1 : 0);
		run_jobtext_fit(fit, sizeof(fit), v->text[j], r->w - w_width(head));
		w_text(y++, r->x, r->w, theme_attr(t, EL_DEFAULT), true, "%s%s", head, fit);
		shown++;
		more--;
	}
}
