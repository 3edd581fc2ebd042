/*
 * compare.c - the side-by-side table behind `raidbench compare`: rows are
 * (job name, direction) in the order they first appear across the results,
 * columns are the results. The first result is the base of every change.
 * Arithmetic only; cmd_compare.c prints it.
 */
#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "strmap.h"

double compare_change_pct(double base, double v)
{
	if (!(base > 0) || v < 0 || !isfinite(base) || !isfinite(v))
		return NAN;
	return (v - base) / base * 100.0;
}

/* The row of (phase, direction): found through rows_of ("ddir<US>phase" -> rows[]), else added. */
static struct compare_row *row_for(struct compare *c, struct strmap *rows_of, size_t *cap,
				   const struct result_phase *p)
{
	struct compare_row *n;
	size_t i;
	char *key;

	if (asprintf(&key, "%d\x1f%s", p->ddir, p->name) < 0)
		return NULL;
	if (strmap_get(rows_of, key, &i)) {
		free(key);
		return &c->rows[i];
	}
	if (c->nr_rows == *cap) {
		size_t grown = *cap ? 2 * *cap : 16;

		n = realloc(c->rows, grown * sizeof(*n));
		if (!n)
			goto nomem;
		c->rows = n;
		*cap = grown;
	}
	n = &c->rows[c->nr_rows];
	n->phase = p->name;
	n->desc = p->desc;
	n->ddir = p->ddir;
	n->cells = calloc(c->nr_cols, sizeof(*n->cells));
	if (!n->cells)
		goto nomem;
	if (strmap_put(rows_of, key, c->nr_rows)) {
		free(n->cells);
		goto nomem;
	}
	free(key);
	c->nr_rows++;
	return n;
nomem:
	free(key);
	return NULL;
}

int compare_build(struct compare *c, const struct result *rs, size_t nr)
{
	struct strmap rows_of;
	size_t i, k, cap = 0;

	memset(c, 0, sizeof(*c));
	strmap_init(&rows_of);
	c->nr_cols = nr;
	for (k = 0; k < nr; k++) {
		for (i = 0; i < rs[k].nr_phases; i++) {
			const struct result_phase *p = &rs[k].phases[i];
			struct compare_row *row = row_for(c, &rows_of, &cap, p);
			struct compare_cell *cell;

			if (!row) {
				strmap_release(&rows_of);
				compare_release(c);
				return -ENOMEM;
			}
			if (!row->desc)
				row->desc = p->desc;
			cell = &row->cells[k];
			cell->present = true;
			cell->iops = p->iops;
			cell->mb_s = p->bw_bytes / 1e6;
			cell->lat_mean_us = p->lat_mean_ns / 1e3;
			cell->lat_p99_us = p->lat_p99_ns < 0 ? -1 : p->lat_p99_ns / 1e3;
		}
	}
	strmap_release(&rows_of);
	for (i = 0; i < c->nr_rows; i++) {
		const struct compare_cell *b = &c->rows[i].cells[0];

		for (k = 0; k < nr; k++) {
			struct compare_cell *x = &c->rows[i].cells[k];
			bool both = b->present && x->present;

			x->iops_pct = both ? compare_change_pct(b->iops, x->iops) : NAN;
			x->mb_s_pct = both ? compare_change_pct(b->mb_s, x->mb_s) : NAN;
			x->lat_mean_pct = both ? compare_change_pct(b->lat_mean_us, x->lat_mean_us) : NAN;
			x->lat_p99_pct = both ? compare_change_pct(b->lat_p99_us, x->lat_p99_us) : NAN;
		}
	}
	return 0;
}

void compare_release(struct compare *c)
{
	size_t i;

	for (i = 0; i < c->nr_rows; i++)
		free(c->rows[i].cells);
	free(c->rows);
	memset(c, 0, sizeof(*c));
}
