/*
 * compare_view.h - the side-by-side compare on the Results screen: saved
 * runs lined up per phase and direction (core/compare.h), one metric at a
 * time (IOPS, MB/s, mean or p99 latency) with the change against the
 * oldest. It borrows the results: they must outlive the view (close it
 * before the list they come from is freed). UI thread only.
 */
#ifndef RB_COMPARE_VIEW_H
#define RB_COMPARE_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "compare.h"
#include "results.h"
#include "tui.h"

enum compare_metric { CMP_IOPS, CMP_MBS, CMP_MEAN, CMP_P99, CMP_METRIC_COUNT };

struct compare_view {
	bool open;
	struct result *rs;	/* shallow copies of the compared entries */
	size_t nr;
	struct compare cmp;
	enum compare_metric metric;
	int top;		/* first phase row shown */
};

/*
 * Opens the compare of the entries of list that are marked and readable, in
 * list order (oldest first: the first is the base). -EINVAL when fewer than
 * two, -ENOMEM; the view stays closed then.
 */
int compare_view_open(struct compare_view *cv, const struct result_entry *list,
		      const bool *marked, size_t nr);
void compare_view_close(struct compare_view *cv);
void compare_view_draw(const struct app *app, struct compare_view *cv, const struct rect *r);
/* m (or Right) cycles the metric, Up/Down/PgUp/PgDn scroll: EV_HANDLED; else EV_NONE. */
int compare_view_key(struct compare_view *cv, int ch, int page);

#endif
