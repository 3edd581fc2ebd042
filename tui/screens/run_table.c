/*
 * run_table.c - the Run screen's job and device rows: a job's clones as one
 * row (or each, 'x'), its phase, IOPS, MB/s and p99 per direction, "failed"
 * as soon as its error came; a job that is done shows its whole run, and the
 * ended run shows each job as saved. Then iostat's columns for each member
 * device. Nothing is cut without a "+N more" line.
 */
#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "scr_run_int.h"
#include "theme.h"
#include "widgets.h"

/* One row of the job table: a clone, or a job's clones added up. */
struct row_vals {
	double iops[2], bw[2];
	uint32_t p99;
	int phase;		/* -1: not started yet */
	bool failed;		/* the job (a clone of it) failed: its error came */
};

/* The saved form's phase of a job (name and group) in one direction, NULL when none. */
static const struct result_phase *fin_phase(const struct run_state *st, const char *name,
					    int group, int ddir)
{
	size_t i, n = strlen(name);

	for (i = 0; st->have_fin && i < st->fin.nr_phases; i++) {
		const struct result_phase *p = &st->fin.phases[i];

		/* a later group reusing the name is "name#2" */
		if (p->ddir == ddir && p->groupid == group && !strncmp(p->name, name, n) &&
		    (!p->name[n] || p->name[n] == '#'))
			return p;
	}
	return NULL;
}

static void clone_vals(const struct run_state *st, size_t j, struct row_vals *v)
{
	const struct job_whole *w = &st->whole[j];
	int d;

	memset(v, 0, sizeof(*v));
	v->phase = w->seen ? w->last.phase : -1;
	v->failed = st->view.error && st->view.error[j][0];
	for (d = 0; d < 2; d++) {
		/* a job that is done: its whole run, never its last interval */
		v->iops[d] = w->done ? w->iops[d] : w->last.io[d].iops;
		v->bw[d] = w->done ? w->bw[d] : w->last.io[d].bw;
		if (!w->done && w->last.io[d].p99_ns > v->p99)
			v->p99 = w->last.io[d].p99_ns;
	}
	if (w->done)
		v->p99 = w->p99;
}

static void group_vals(const struct run_state *st, const struct job_group *g, struct row_vals *v)
{
	struct row_vals c;
	size_t j;
	int d;

	memset(v, 0, sizeof(*v));
	v->phase = PHASE_NR;
	for (j = g->first; j < g->first + g->n; j++) {
		clone_vals(st, j, &c);
		for (d = 0; d < 2; d++) {
			v->iops[d] += c.iops[d];
			v->bw[d] += c.bw[d];
		}
		v->p99 = c.p99 > v->p99 ? c.p99 : v->p99;
		v->failed = v->failed || c.failed;
		/* the group is as far as its slowest clone */
		v->phase = c.phase < v->phase ? c.phase : v->phase;
	}
	if (!st->have_fin)
		return;
	/* the run is over: the job's whole run as saved */
	v->p99 = 0;
	for (d = 0; d < 2; d++) {
		const struct result_phase *p = fin_phase(st, st->job_names[g->first],
							 st->job_groups[g->first], d);

		v->iops[d] = p ? p->iops : 0;
		v->bw[d] = p ? p->bw_bytes : 0;
		if (p && p->lat_p99_ns > v->p99)
			v->p99 = (uint32_t)p->lat_p99_ns;
	}
}

static void job_row(const struct theme *t, int y, const struct rect *r, const char *name,
		    const struct row_vals *v)
{
	char ri[16], wi[16], rb[24], wb[24], p[24];
	int pad;

	fmt_count(ri, sizeof(ri), v->iops[0]);
	fmt_count(wi, sizeof(wi), v->iops[1]);
	snprintf(rb, sizeof(rb), "%.1f", v->bw[0] / 1e6);
	snprintf(wb, sizeof(wb), "%.1f", v->bw[1] / 1e6);
	fmt_ns(p, sizeof(p), v->p99);
	/* padded by columns, not bytes: "×" is two bytes and one column */
	pad = 20 - w_width(name);
	w_text(y, r->x, r->w, v->failed ? theme_attr(t, EL_ERROR) : A_NORMAL, true,
	       "%s%*s %-7s %8s %9s %8s %9s %9s", name, pad > 0 ? pad : 0, "",
	       v->failed ? "failed" : v->phase < 0 ? "wait" : live_phase_name(v->phase), ri, rb,
	       wi, wb, v->p99 ? p : "-");
}

static int digits(size_t n)
{
	int d = 1;

	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

/* Rows the job table needs: a group, or each clone of it when expanded. */
size_t run_table_rows(const struct run_state *st)
{
	size_t i, n = 0;

	for (i = 0; i < st->nr_grp; i++)
		n += st->expand && st->grp[i].n > 1 ? st->grp[i].n + 1 : 1;
	return n;
}

/*
 * A job cell with the node column: the name padded to 15 columns, then the
 * NUMA node its workers run on ("-" none, "mix" when its clones differ).
 */
static void with_node(char *name, size_t len, const struct run_state *st, size_t first, size_t n)
{
	char node[8], tmp[96];
	int pad = 15 - w_width(name);

	snprintf(node, sizeof(node), "-");
	for (size_t k = first; k < first + n; k++) {
		if (st->job_nodes[k] != st->job_nodes[first]) {
			snprintf(node, sizeof(node), "mix");
			break;
		}
		if (st->job_nodes[k] >= 0)
			snprintf(node, sizeof(node), "%d", st->job_nodes[k]);
	}
	snprintf(tmp, sizeof(tmp), "%s%*s %4s", name, pad > 0 ? pad : 0, "", node);
	snprintf(name, len, "%s", tmp);
}

void run_table_draw(struct app *app, struct run_state *st, const struct rect *r)
{
	const struct theme *t = app->theme;
	size_t g, k, shown = 0, total = run_table_rows(st), cap, nr_dev = 0, dev_shown = 0;
	int dev_want = st->nr_disks ? (int)st->nr_disks + 1 : 0;
	int job_need = (int)total + 1, job_h, y = r->y, last;
	struct row_vals v;
	char name[64];
	int nw = st->has_nodes ? 15 : 20;	/* columns of the job's name */

	/*
	 * Jobs and devices share the rows: every device row where they fit (a
	 * run over several devices is about them), the jobs at least a header,
	 * a row and the "+N more" line; what is cut is always counted.
	 */
	job_h = r->h - dev_want;
	if (job_h < (job_need < 3 ? job_need : 3))
		job_h = job_need < 3 ? job_need : 3;
	if (job_h > job_need)
		job_h = job_need;
	if (job_h > r->h)
		job_h = r->h;
	last = r->y + job_h;

	w_text(y++, r->x, r->w, theme_attr(t, EL_TITLE), true,
	       "%-*s%s %-7s %8s %9s %8s %9s %9s", nw, "job", st->has_nodes ? " node" : "", "phase",
	       "r IOPS", "r MB/s", "w IOPS", "w MB/s", "p99");
	/* never a silent cut: when rows do not fit, the last one says how many did not */
	cap = last - y > 0 ? (size_t)(last - y) : 0;
	if (total > cap && cap)
		cap--;
	for (g = 0; g < st->nr_grp && shown < cap; g++) {
		const struct job_group *gr = &st->grp[g];
		bool open = st->expand && gr->n > 1;

		if (gr->n > 1)
			snprintf(name, sizeof(name), "%.*s %s%zu", nw - 5 - digits(gr->n),
				 st->job_names[gr->first], t->g->times, gr->n);
		else
			snprintf(name, sizeof(name), "%.*s", nw, st->job_names[gr->first]);
		if (st->has_nodes)
			with_node(name, sizeof(name), st, gr->first, gr->n);
		group_vals(st, gr, &v);
		job_row(t, y++, r, name, &v);
		shown++;
		for (k = 0; open && k < gr->n && shown < cap; k++) {
			snprintf(name, sizeof(name), "  %.*s #%zu", nw - 5 - digits(k + 1),
				 st->job_names[gr->first], k + 1);
			if (st->has_nodes)
				with_node(name, sizeof(name), st, gr->first + k, 1);
			clone_vals(st, gr->first + k, &v);
			job_row(t, y++, r, name, &v);
			shown++;
		}
	}
	if (shown < total)
		w_text(y++, r->x, r->w, theme_attr(t, EL_DIM), true, "+%zu more%s", total - shown,
		       st->expand ? "" : "  (x shows every clone)");
	if (!st->nr_disks || y >= r->y + r->h)
		return;
	w_text(y++, r->x, r->w, theme_attr(t, EL_TITLE), true,
	       "%-12s %8s %8s %8s %8s %6s %7s %7s %5s", "device", "r/s", "w/s", "rMB/s",
	       "wMB/s", "aqu-sz", "r_await", "w_await", "%util");
	for (k = 0; k < st->nr_disks; k++)
		if (st->view.now.devs[k].seen && st->view.now.devs[k].interval_s > 0)
			nr_dev++;
	for (k = 0; k < st->nr_disks && y < r->y + r->h; k++) {
		const struct live_dev *d = &st->view.now.devs[k];
		char util[16];

		if (!d->seen || d->interval_s <= 0)
			continue;
		if (y == r->y + r->h - 1 && dev_shown + 1 < nr_dev) {
			w_text(y++, r->x, r->w, theme_attr(t, EL_DIM), true, "+%zu more devices",
			       nr_dev - dev_shown);
			break;
		}
		dev_shown++;
		if (d->util_pct >= 0)
			snprintf(util, sizeof(util), "%.0f", d->util_pct);
		else
			snprintf(util, sizeof(util), "n/a");
		w_text(y++, r->x, r->w, A_NORMAL, true,
		       "%-12.12s %8.0f %8.0f %8.1f %8.1f %6.1f %7.2f %7.2f %5s", d->name, d->r_s,
		       d->w_s, d->rmb_s, d->wmb_s, d->aqu_sz, d->r_await_ms, d->w_await_ms, util);
	}
}
