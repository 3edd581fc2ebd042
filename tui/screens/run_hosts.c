/*
 * run_hosts.c - the Hosts pane of the Run screen (run_hosts.h): rows from
 * the fleet's live layout (a total row per host, then its job rows), rates
 * from the last decoded tick (core/live_view.h), states and reasons from the fleet.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "live_view.h"
#include "run.h"
#include "run_hosts.h"
#include "tui_int.h"
#include "widgets.h"

#define RH_MAX_ROWS 512
#define RH_MAX_HOSTS 128

struct rh_row {
	char name[64];
	int host;		/* host number */
	bool total;		/* the host's own row */
	double iops[2], bw[2];	/* the last tick */
	uint32_t p99[2];
	uint64_t errors;
};

struct run_hosts {
	bool active;
	size_t nr_rows;
	struct rh_row rows[RH_MAX_ROWS];
	size_t nr_hosts;
	size_t host_row[RH_MAX_HOSTS];	/* the total row of each host */
	char state[RH_MAX_HOSTS][16];
	char why[RH_MAX_HOSTS][160];
	size_t cursor;			/* host number */
	bool drill;			/* showing the cursor host's jobs */
};

struct run_hosts *run_hosts_new(void)
{
	return calloc(1, sizeof(struct run_hosts));
}

void run_hosts_free(struct run_hosts *rh)
{
	free(rh);
}

void run_hosts_reset(struct run_hosts *rh)
{
	memset(rh, 0, sizeof(*rh));
}

bool run_hosts_layout(struct run_hosts *rh, const struct run_layout *lay)
{
	size_t i;
	int host = -1;

	run_hosts_reset(rh);
	if (!lay->worker_hosts)
		return false;
	for (i = 0; i < lay->nr_workers && i < RH_MAX_ROWS; i++) {
		struct rh_row *r = &rh->rows[i];

		r->total = lay->worker_groups[i] < 0;
		if (r->total && rh->nr_hosts < RH_MAX_HOSTS) {
			host = (int)rh->nr_hosts++;
			rh->host_row[host] = i;
			snprintf(rh->state[host], sizeof(rh->state[host]), "connecting");
		}
		r->host = host < 0 ? 0 : host;
		snprintf(r->name, sizeof(r->name), "%s", r->total ? lay->worker_hosts[i] :
			 lay->worker_names[i]);
	}
	rh->nr_rows = i;
	rh->active = rh->nr_hosts > 0;
	return rh->active;
}

bool run_hosts_active(const struct run_hosts *rh)
{
	return rh->active;
}

void run_hosts_tick(struct run_hosts *rh, const struct live_tick *t)
{
	size_t i;
	int d;

	if (!rh->active)
		return;
	/* the tick's rates: every row at once, as the rest of the screen */
	for (i = 0; i < rh->nr_rows; i++) {
		const struct live_job *j = &t->jobs[i];
		struct rh_row *r = &rh->rows[i];

		for (d = 0; d < 2; d++) {
			r->iops[d] = j->io[d].iops;
			r->bw[d] = j->io[d].bw;
			r->p99[d] = j->io[d].p99_ns;
		}
		if (j->seen)
			r->errors = j->errors;
	}
}

void run_hosts_state(struct run_hosts *rh, size_t host, const char *state, const char *why)
{
	if (host >= rh->nr_hosts)
		return;
	snprintf(rh->state[host], sizeof(rh->state[host]), "%s", state);
	snprintf(rh->why[host], sizeof(rh->why[host]), "%s", why ? why : "");
}

static size_t jobs_of(const struct run_hosts *rh, size_t host)
{
	size_t i, n = 0;

	for (i = 0; i < rh->nr_rows; i++)
		if (!rh->rows[i].total && (size_t)rh->rows[i].host == host)
			n++;
	return n;
}

int run_hosts_rows(const struct run_hosts *rh)
{
	size_t i, why = 0;

	if (!rh->active)
		return 0;
	for (i = 0; i < rh->nr_hosts; i++)
		why += rh->why[i][0] != '\0';
	/* title, the rows, and a line per host that failed (its reason) */
	return 1 + (int)(rh->drill ? jobs_of(rh, rh->cursor) + 1 : rh->nr_hosts + why);
}

static bool failed_state(const char *s)
{
	static const char *const ok[] = { "connecting", "setup", "running", "stopping", "done" };
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (!strcmp(s, ok[i]))
			return false;
	return true;
}

static void draw_row(struct app *app, int y, const struct rect *r, const struct rh_row *row,
		     const char *state, attr_t attr)
{
	char ri[16], wi[16], rb[16], wb[16], p[16], er[16];
	uint32_t p99 = row->p99[0] > row->p99[1] ? row->p99[0] : row->p99[1];

	(void)app;
	fmt_count(ri, sizeof(ri), row->iops[0]);
	fmt_count(wi, sizeof(wi), row->iops[1]);
	snprintf(rb, sizeof(rb), "%.1f", row->bw[0] / 1e6);
	snprintf(wb, sizeof(wb), "%.1f", row->bw[1] / 1e6);
	if (p99)
		fmt_ns(p, sizeof(p), p99);
	else
		snprintf(p, sizeof(p), "-");	/* no I/O this interval */
	snprintf(er, sizeof(er), "%llu", (unsigned long long)row->errors);
	w_text(y, r->x, r->w, attr, true, "%-18.18s %-8.8s %7s %7s %7s %7s %9s %4s", row->name,
	       state, ri, wi, rb, wb, p, er);
}

void run_hosts_draw(struct app *app, struct run_hosts *rh, const struct rect *r)
{
	const struct theme *t = app->theme;
	int y = r->y, last = r->y + r->h;
	size_t h, i;

	if (rh->drill) {
		const struct rh_row *hr = &rh->rows[rh->host_row[rh->cursor]];

		w_text(y++, r->x, r->w, theme_attr(t, EL_TITLE), true,
		       "%-18s %-8s %7s %7s %7s %7s %9s %4s", "job on", "state", "r IOPS",
		       "w IOPS", "r MB/s", "w MB/s", "p99", "err");
		draw_row(app, y++, r, hr, rh->state[rh->cursor], theme_attr(t, EL_SELECTED));
		for (i = 0; i < rh->nr_rows && y < last; i++)
			if (!rh->rows[i].total && (size_t)rh->rows[i].host == rh->cursor)
				draw_row(app, y++, r, &rh->rows[i], rh->state[rh->cursor], A_NORMAL);
		return;
	}
	w_text(y++, r->x, r->w, theme_attr(t, EL_TITLE), true,
	       "%-18s %-8s %7s %7s %7s %7s %9s %4s", "host", "state", "r IOPS", "w IOPS",
	       "r MB/s", "w MB/s", "p99", "err");
	for (h = 0; h < rh->nr_hosts && y < last; h++) {
		bool bad = failed_state(rh->state[h]);
		attr_t a = h == rh->cursor ? theme_attr(t, EL_SELECTED) :
			   bad ? theme_attr(t, EL_STATUS_FAILED) : A_NORMAL;

		draw_row(app, y++, r, &rh->rows[rh->host_row[h]], rh->state[h], a);
		if (rh->why[h][0] && y < last)
			w_text(y++, r->x, r->w, theme_attr(t, EL_ERROR), true, "  %s", rh->why[h]);
	}
}

int run_hosts_key(struct run_hosts *rh, int ch)
{
	if (!rh->active)
		return EV_NONE;
	switch (ch) {
	case KEY_UP:
		if (rh->cursor > 0)
			rh->cursor--;
		return EV_HANDLED;
	case KEY_DOWN:
		if (rh->cursor + 1 < rh->nr_hosts)
			rh->cursor++;
		return EV_HANDLED;
	case KEY_RIGHT:
	case 'j':
		rh->drill = true;
		return EV_HANDLED;
	case KEY_LEFT:
	case 27:
		if (!rh->drill)
			return EV_NONE;
		rh->drill = false;
		return EV_HANDLED;
	default:
		return EV_NONE;
	}
}
