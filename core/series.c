/*
 * series.c - keeps the live ticks of a run as bounded time series for its
 * saved result (series.h says what and how bounded). The records are
 * decoded by core/live_view.h; counts come from their cumulative totals, so
 * a record the ring dropped widens one bucket's span but never loses an I/O.
 * Never prints.
 */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "live_view.h"
#include "run.h"
#include "series.h"
#include "strmap.h"
#include "worker.h"

/* One worker across ticks: its phase and the cumulative totals counted so far. */
struct series_worker {
	size_t phase;
	int state;			/* PHASE_* from its last status record */
	uint64_t last_ios[DDIR_RWDIR_CNT], last_bytes[DDIR_RWDIR_CNT];
};

/* What one worker did in one tick, per direction: counted from its cumulative totals. */
struct worker_tick {
	uint64_t ios[DDIR_RWDIR_CNT], bytes[DDIR_RWDIR_CNT];
	uint32_t pct[DDIR_RWDIR_CNT][3];
	bool touched[DDIR_RWDIR_CNT];
};

struct series_phase {
	int track[DDIR_RWDIR_CNT];	/* index into tracks, -1 before its first tick */
	const char *job;
	int group;
	char *label;
	/* the tick being gathered */
	uint64_t ios[DDIR_RWDIR_CNT], bytes[DDIR_RWDIR_CNT];
	uint32_t pct[DDIR_RWDIR_CNT][3];
	bool touched[DDIR_RWDIR_CNT], active, running;
	bool was_active;		/* in the tick before: a whole interval of I/O */
};

struct series {
	struct live_view view;		/* the records decoded into ticks */
	struct series_worker *workers;
	struct worker_tick *wt;		/* per worker, what the tick being taken brought */
	size_t nr_workers;
	struct series_phase *phases;
	size_t nr_phases;
	struct series_track tracks[SERIES_MAX_TRACKS];
	size_t nr_tracks;
	struct series_track devices[SERIES_MAX_DEVICES];
	size_t nr_devices;
	const char *const *disk_names;
	unsigned tick_ms;
	uint64_t last_tick_ns;
	uint64_t left_out;		/* phase-direction series past SERIES_MAX_TRACKS */
	uint64_t ticks;
};

/* Phase labels as core/results.c gives them: the k-th group reusing a name is "name#k". */
static int make_phases(struct series *s, const struct run_layout *lay)
{
	struct strmap seen, groups;
	size_t i;
	int ret = 0;

	strmap_init(&seen);
	strmap_init(&groups);
	s->phases = calloc(lay->nr_workers ? lay->nr_workers : 1, sizeof(*s->phases));
	if (!s->phases)
		return -ENOMEM;
	for (i = 0; i < lay->nr_workers && !ret; i++) {
		const char *name = lay->worker_names[i] ? lay->worker_names[i] : "";
		int group = lay->worker_groups ? lay->worker_groups[i] : 0;
		size_t idx, same = 0;
		char *key;

		if (asprintf(&key, "%d\x1f%s", group, name) < 0)
			return -ENOMEM;
		if (strmap_get(&seen, key, &idx)) {
			s->workers[i].phase = idx;
			free(key);
			continue;
		}
		strmap_get(&groups, name, &same);
		idx = s->nr_phases++;
		s->phases[idx].job = name;
		s->phases[idx].group = group;
		for (int d = 0; d < DDIR_RWDIR_CNT; d++)
			s->phases[idx].track[d] = -1;
		if ((same ? asprintf(&s->phases[idx].label, "%s#%zu", name, same + 1) :
			    asprintf(&s->phases[idx].label, "%s", name)) < 0) {
			s->phases[idx].label = NULL;
			ret = -ENOMEM;
		} else if (strmap_put(&seen, key, idx) || strmap_put(&groups, name, same + 1)) {
			ret = -ENOMEM;
		}
		s->workers[i].phase = idx;
		free(key);
	}
	strmap_release(&seen);
	strmap_release(&groups);
	return ret;
}

struct series *series_new(const struct run_layout *lay)
{
	struct series *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->nr_workers = lay->nr_workers;
	s->workers = calloc(lay->nr_workers ? lay->nr_workers : 1, sizeof(*s->workers));
	s->tick_ms = lay->interval_ms;
	s->disk_names = lay->disk_names;
	s->wt = calloc(lay->nr_workers ? lay->nr_workers : 1, sizeof(*s->wt));
	if (!s->workers || !s->wt || make_phases(s, lay) ||
	    live_view_init(&s->view, lay->nr_workers, lay->nr_disks, lay->disk_names)) {
		series_free(s);
		return NULL;
	}
	return s;
}

static void track_release(struct series_track *t)
{
	free(t->label);
	free(t->job);
	free(t->pts);
}

void series_free(struct series *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr_phases; i++)
		free(s->phases[i].label);
	for (i = 0; i < s->nr_tracks; i++)
		track_release(&s->tracks[i]);
	for (i = 0; i < s->nr_devices; i++)
		track_release(&s->devices[i]);
	free(s->phases);
	free(s->workers);
	free(s->wt);
	live_view_release(&s->view);
	free(s);
}

/* ---- buckets ---------------------------------------------------------------- */

static void stat_merge(struct series_stat *a, const struct series_stat *b)
{
	if (!b->n)
		return;
	if (!a->n || b->min < a->min)
		a->min = b->min;
	if (!a->n || b->max > a->max)
		a->max = b->max;
	a->sum += b->sum;
	a->n += b->n;
}

static void stat_one(struct series_stat *st, double v)
{
	st->min = st->max = st->sum = v;
	st->n = 1;
}

static void point_merge(struct series_point *a, const struct series_point *b)
{
	if (b->t0_ns < a->t0_ns)
		a->t0_ns = b->t0_ns;
	if (b->t1_ns > a->t1_ns)
		a->t1_ns = b->t1_ns;
	a->ticks += b->ticks;
	a->ios += b->ios;
	a->bytes += b->bytes;
	for (int k = 0; k < SERIES_NR_STATS; k++)
		stat_merge(&a->st[k], &b->st[k]);
}

/* Adds one tick's point; a full series first merges its buckets pairwise. */
static void track_add(struct series_track *t, const struct series_point *p)
{
	size_t i;

	if (!t->pts)
		return;
	if (t->nr == SERIES_MAX_POINTS && t->pts[t->nr - 1].ticks >= t->per_point) {
		for (i = 0; i < t->nr / 2; i++) {
			struct series_point m = t->pts[2 * i];

			point_merge(&m, &t->pts[2 * i + 1]);
			t->pts[i] = m;
		}
		t->nr /= 2;
		t->per_point *= 2;
	}
	if (t->nr && t->pts[t->nr - 1].ticks < t->per_point)
		point_merge(&t->pts[t->nr - 1], p);
	else
		t->pts[t->nr++] = *p;
}

static int track_open(struct series_track *t, const char *label, const char *job, int group,
		      int ddir)
{
	memset(t, 0, sizeof(*t));
	t->label = strdup(label ? label : "");
	t->job = job ? strdup(job) : NULL;
	t->pts = calloc(SERIES_MAX_POINTS, sizeof(*t->pts));
	t->group = group;
	t->ddir = ddir;
	t->per_point = 1;
	if (!t->label || (job && !t->job) || !t->pts) {
		track_release(t);
		memset(t, 0, sizeof(*t));
		return -ENOMEM;
	}
	return 0;
}

/* ---- feeding ---------------------------------------------------------------- */

static void add_device(struct series *s, size_t i, const struct live_dev *dv)
{
	struct series_point p = { 0 };
	struct series_track *t;

	if (!dv->seen || !dv->raw.interval_ms)
		return;
	while (s->nr_devices <= i && s->nr_devices < SERIES_MAX_DEVICES) {
		size_t k = s->nr_devices;

		if (track_open(&s->devices[k], s->disk_names[k], NULL, 0, -1))
			return;
		s->devices[k].util_meaningful = -1;
		s->nr_devices++;
	}
	if (i >= s->nr_devices)
		return;
	t = &s->devices[i];
	t->util_meaningful = dv->raw.util_meaningful;
	p.t1_ns = dv->t_ns;
	p.t0_ns = dv->t_ns - dv->raw.interval_ms * 1000000u;
	p.ticks = 1;
	p.ios = dv->raw.r_ios + dv->raw.w_ios;
	p.bytes = (dv->raw.r_sectors + dv->raw.w_sectors) * 512;
	stat_one(&p.st[0], dv->busy_pct);
	track_add(t, &p);
}

/* The phase's track for direction d, opened on its first tick; NULL past the bound. */
static struct series_track *phase_track(struct series *s, struct series_phase *ph, int d)
{
	if (ph->track[d] < 0) {
		if (s->nr_tracks == SERIES_MAX_TRACKS) {
			s->left_out++;
			ph->track[d] = -2;
			return NULL;
		}
		if (track_open(&s->tracks[s->nr_tracks], ph->label, ph->job, ph->group, d))
			return NULL;
		ph->track[d] = (int)s->nr_tracks++;
	}
	return ph->track[d] >= 0 ? &s->tracks[ph->track[d]] : NULL;
}

/* Counts what each worker did; false when none did any I/O. */
static bool count_workers(struct series *s, const struct live_tick *t, struct worker_tick *wt)
{
	bool any = false;

	for (size_t i = 0; i < s->nr_workers; i++) {
		const struct live_job *j = &t->jobs[i];
		struct series_worker *w = &s->workers[i];

		if (j->seen)
			w->state = j->phase;
		for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
			const struct live_io *io = &j->io[d];

			wt->touched[d] = io->seen;
			wt->ios[d] = wt->bytes[d] = 0;
			memset(wt->pct[d], 0, sizeof(wt->pct[d]));
			if (!io->seen)
				continue;
			/* cumulative totals: what a dropped record carried is counted here */
			wt->ios[d] = io->tot_ios - w->last_ios[d];
			wt->bytes[d] = io->tot_bytes - w->last_bytes[d];
			w->last_ios[d] = io->tot_ios;
			w->last_bytes[d] = io->tot_bytes;
			if (io->ios) {
				wt->pct[d][0] = io->p50_ns;
				wt->pct[d][1] = io->p99_ns;
				wt->pct[d][2] = io->p999_ns;
			}
			any |= wt->ios[d] > 0;
		}
		wt++;
	}
	return any;
}

/*
 * One decoded tick into the series; partial: the records after the last
 * tick's end, kept only when they bring I/O.
 */
static void take_tick(struct series *s, const struct live_tick *t, bool partial)
{
	uint64_t t_ns = t->t_ns;
	double secs = (double)(t_ns - s->last_tick_ns) / 1e9;
	size_t i, active[DDIR_RWDIR_CNT] = { 0 };
	struct worker_tick *wts = s->wt;
	int d, k;

	for (i = 0; i < s->view.nr_devs; i++)
		add_device(s, i, &t->devs[i]);
	if (!count_workers(s, t, wts) && partial)
		return;
	for (i = 0; i < s->nr_workers; i++) {
		const struct worker_tick *w = &wts[i];
		struct series_phase *ph = &s->phases[s->workers[i].phase];
		int state = s->workers[i].state;

		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			if (!w->touched[d])
				continue;
			ph->touched[d] = true;
			ph->ios[d] += w->ios[d];
			ph->bytes[d] += w->bytes[d];
			if (w->ios[d]) {
				/* clones side by side: the slowest clone's percentile */
				for (k = 0; k < 3; k++)
					if (w->pct[d][k] > ph->pct[d][k])
						ph->pct[d][k] = w->pct[d][k];
				ph->active = true;
			}
		}
		/* ramp and setup ticks count no I/O and are left out */
		if (state == PHASE_RUN || state == PHASE_VERIFY)
			ph->active = true;
		if (state != PHASE_DONE)
			ph->running = true;
	}
	for (i = 0; i < s->nr_phases; i++)
		for (d = 0; d < DDIR_RWDIR_CNT; d++)
			active[d] += s->phases[i].active && s->phases[i].touched[d];
	for (i = 0; i < s->nr_phases; i++) {
		struct series_phase *ph = &s->phases[i];

		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			const struct live_io *tot = &t->total.io[d];
			struct series_point p = { 0 };
			struct series_track *tr;

			if (!ph->touched[d] || (!ph->active && !ph->ios[d]))
				continue;
			if (!(tr = phase_track(s, ph, d)))
				continue;
			/* the only phase in this direction: the merged histogram's exact percentiles */
			if (active[d] == 1 && tot->seen && tot->ios > 0) {
				ph->pct[d][0] = tot->p50_ns;
				ph->pct[d][1] = tot->p99_ns;
				ph->pct[d][2] = tot->p999_ns;
			}
			p.t0_ns = s->last_tick_ns;
			p.t1_ns = t_ns;
			p.ticks = 1;
			p.ios = ph->ios[d];
			p.bytes = ph->bytes[d];
			/*
			 * A tick in which the phase started (setup, the end of a ramp) or
			 * ended did I/O for only part of the interval: its counts are
			 * kept, a rate over the whole tick would read as a dip at each end.
			 */
			if (secs > 0 && ph->running && ph->was_active) {
				stat_one(&p.st[SERIES_IOPS], (double)p.ios / secs);
				stat_one(&p.st[SERIES_BW], (double)p.bytes / secs);
			}
			if (p.ios)
				for (k = 0; k < 3; k++)
					stat_one(&p.st[SERIES_P50 + k], ph->pct[d][k]);
			track_add(tr, &p);
		}
		memset(ph->ios, 0, sizeof(ph->ios));
		memset(ph->bytes, 0, sizeof(ph->bytes));
		memset(ph->pct, 0, sizeof(ph->pct));
		memset(ph->touched, 0, sizeof(ph->touched));
		ph->was_active = ph->active && ph->running;
		ph->active = false;
		ph->running = false;
	}
	s->last_tick_ns = t_ns;
	s->ticks++;
}

void series_feed(struct series *s, const struct live_rec *rec)
{
	if (!s)
		return;
	if (live_view_feed(&s->view, rec))
		take_tick(s, &s->view.now, false);
	/* records after the last tick's end (none unless the ring dropped that end) */
	else if (rec->type == LIVE_END && live_view_flush(&s->view, rec->t_ns))
		take_tick(s, &s->view.now, true);
}

/* ---- JSON ------------------------------------------------------------------ */

static const char *ddir_key(int d)
{
	return d == DDIR_READ ? "read" : d == DDIR_WRITE ? "write" : "trim";
}

enum col { COL_T0, COL_T1, COL_TICKS, COL_IOS, COL_BYTES, COL_MIN, COL_MEAN, COL_MAX };

/* A number as short text (counts exact, rates to 4 digits, times to the us); NULL is JSON's null. */
static json_object *num(double v, enum col c)
{
	char buf[48];

	if (!isfinite(v))
		return NULL;
	if (c == COL_T0 || c == COL_T1)
		snprintf(buf, sizeof(buf), "%.3f", v);
	else if (v == floor(v) && fabs(v) < 9e15)
		snprintf(buf, sizeof(buf), "%.0f", v);
	else
		snprintf(buf, sizeof(buf), "%.4g", v);
	return json_object_new_double_s(v, buf);
}

static void add_col(json_object *o, const struct series_track *t, const char *key, enum col c,
		    int stat)
{
	json_object *a = json_object_new_array_ext((int)t->nr);

	for (size_t i = 0; i < t->nr; i++) {
		const struct series_point *p = &t->pts[i];
		const struct series_stat *st = stat >= 0 ? &p->st[stat] : NULL;
		double v = NAN;

		switch (c) {
		case COL_T0: v = (double)p->t0_ns / 1e6; break;
		case COL_T1: v = (double)p->t1_ns / 1e6; break;
		case COL_TICKS: v = p->ticks; break;
		case COL_IOS: v = (double)p->ios; break;
		case COL_BYTES: v = (double)p->bytes; break;
		case COL_MIN: v = st->n ? st->min : NAN; break;
		case COL_MEAN: v = st->n ? st->sum / st->n : NAN; break;
		case COL_MAX: v = st->n ? st->max : NAN; break;
		}
		json_object_array_add(a, num(v, c));
	}
	json_object_object_add(o, key, a);
}

static void add_stat(json_object *o, const struct series_track *t, const char *name, int stat)
{
	char key[48];

	snprintf(key, sizeof(key), "%s_min", name);
	add_col(o, t, key, COL_MIN, stat);
	snprintf(key, sizeof(key), "%s_mean", name);
	add_col(o, t, key, COL_MEAN, stat);
	snprintf(key, sizeof(key), "%s_max", name);
	add_col(o, t, key, COL_MAX, stat);
}

static void add_head(json_object *o, const struct series_track *t)
{
	json_object_object_add(o, "ticks_per_point", json_object_new_int64(t->per_point));
	add_col(o, t, "t_start_ms", COL_T0, -1);
	add_col(o, t, "t_end_ms", COL_T1, -1);
	add_col(o, t, "ticks", COL_TICKS, -1);
	add_col(o, t, "ios", COL_IOS, -1);
	add_col(o, t, "bytes", COL_BYTES, -1);
}

json_object *series_json(const struct series *s)
{
	json_object *root = json_object_new_object(), *phases = json_object_new_array();
	json_object *devices = json_object_new_array();
	size_t i;

	json_object_object_add(root, "version", json_object_new_int(1));
	json_object_object_add(root, "tick_ms", json_object_new_int64(s->tick_ms));
	json_object_object_add(root, "max_points", json_object_new_int(SERIES_MAX_POINTS));
	json_object_object_add(root, "ticks", json_object_new_int64((int64_t)s->ticks));
	json_object_object_add(root, "series_left_out", json_object_new_int64((int64_t)s->left_out));
	for (i = 0; i < s->nr_tracks; i++) {
		const struct series_track *t = &s->tracks[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "phase", json_object_new_string(t->label));
		json_object_object_add(o, "jobname", json_object_new_string(t->job ? t->job : ""));
		json_object_object_add(o, "groupid", json_object_new_int(t->group));
		json_object_object_add(o, "ddir", json_object_new_string(ddir_key(t->ddir)));
		add_head(o, t);
		add_stat(o, t, "iops", SERIES_IOPS);
		add_stat(o, t, "bw_bytes", SERIES_BW);
		add_stat(o, t, "p50_ns", SERIES_P50);
		add_stat(o, t, "p99_ns", SERIES_P99);
		add_stat(o, t, "p99_9_ns", SERIES_P999);
		json_object_array_add(phases, o);
	}
	for (i = 0; i < s->nr_devices; i++) {
		const struct series_track *t = &s->devices[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "name", json_object_new_string(t->label));
		json_object_object_add(o, "util_meaningful", t->util_meaningful < 0 ? NULL :
				       json_object_new_boolean(t->util_meaningful));
		add_head(o, t);
		add_stat(o, t, "util_pct", 0);
		json_object_array_add(devices, o);
	}
	json_object_object_add(root, "phases", phases);
	json_object_object_add(root, "devices", devices);
	return root;
}

size_t series_nr_tracks(const struct series *s, int devices)
{
	return devices ? s->nr_devices : s->nr_tracks;
}

const struct series_track *series_track_at(const struct series *s, int devices, size_t i)
{
	return devices ? &s->devices[i] : &s->tracks[i];
}
