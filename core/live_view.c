/*
 * live_view.c - decodes live records into ticks: counts become rates once
 * the tick's interval is known (the total's status record brings it, after
 * the I/O records), device counters become iostat's figures. The only place
 * that knows which record field means what; never prints.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "live_view.h"
#include "stats.h"

_Static_assert(LIVE_NR_DDIR == DDIR_RWDIR_CNT, "one live_io per direction");

static void tick_clear(struct live_tick *t, size_t nr_jobs, size_t nr_devs)
{
	size_t i;

	t->t_ns = t->interval_ns = t->drops = 0;
	memset(&t->total, 0, sizeof(t->total));
	t->total.phase = -1;
	memset(t->jobs, 0, nr_jobs * sizeof(*t->jobs));
	for (i = 0; i < nr_devs; i++) {
		struct live_dev *d = &t->devs[i];
		char name[sizeof(d->name)];

		memcpy(name, d->name, sizeof(name));
		memset(d, 0, sizeof(*d));
		memcpy(d->name, name, sizeof(name));
	}
}

static int tick_alloc(struct live_tick *t, size_t nr_jobs, size_t nr_devs)
{
	t->jobs = calloc(nr_jobs ? nr_jobs : 1, sizeof(*t->jobs));
	t->devs = calloc(nr_devs ? nr_devs : 1, sizeof(*t->devs));
	return t->jobs && t->devs ? 0 : -ENOMEM;
}

int live_view_init(struct live_view *v, size_t nr_jobs, size_t nr_devs,
		   const char *const *dev_names)
{
	size_t i;

	memset(v, 0, sizeof(*v));
	v->nr_jobs = nr_jobs;
	v->nr_devs = nr_devs;
	v->text = calloc(nr_jobs ? nr_jobs : 1, sizeof(*v->text));
	v->error = calloc(nr_jobs ? nr_jobs : 1, sizeof(*v->error));
	if (!v->text || !v->error || tick_alloc(&v->now, nr_jobs, nr_devs) ||
	    tick_alloc(&v->next, nr_jobs, nr_devs)) {
		live_view_release(v);
		return -ENOMEM;
	}
	for (i = 0; dev_names && i < nr_devs; i++) {
		snprintf(v->now.devs[i].name, sizeof(v->now.devs[i].name), "%s", dev_names[i]);
		snprintf(v->next.devs[i].name, sizeof(v->next.devs[i].name), "%s", dev_names[i]);
	}
	tick_clear(&v->now, nr_jobs, nr_devs);
	tick_clear(&v->next, nr_jobs, nr_devs);
	return 0;
}

void live_view_release(struct live_view *v)
{
	free(v->now.jobs);
	free(v->now.devs);
	free(v->next.jobs);
	free(v->next.devs);
	free(v->text);
	free(v->error);
	memset(v, 0, sizeof(*v));
}

static struct live_job *job_of(struct live_view *v, unsigned job)
{
	if (job == LIVE_TOTAL)
		return &v->next.total;
	return job < v->nr_jobs ? &v->next.jobs[job] : NULL;
}

static void take_io(struct live_io *io, const struct live_rec *rec)
{
	io->seen = true;
	io->ios = rec->u.io.ios;
	io->bytes = rec->u.io.bytes;
	io->mean_ns = rec->u.io.mean_ns;
	io->p50_ns = rec->u.io.p50_ns;
	io->p99_ns = rec->u.io.p99_ns;
	io->p999_ns = rec->u.io.p999_ns;
	io->max_ns = rec->u.io.max_ns;
	io->tot_ios = rec->u.io.tot_ios;
	io->tot_bytes = rec->u.io.tot_bytes;
}

static void take_status(struct live_job *j, const struct live_rec *rec, bool total)
{
	j->seen = true;
	j->phase = total ? -1 : rec->ddir;
	j->running = rec->u.st.running;
	j->ramp = rec->u.st.ramp;
	j->inflight = rec->u.st.inflight;
	j->errors = rec->u.st.errors;
	j->percent = rec->u.st.percent;
	j->eta_s = rec->u.st.eta_s;
}

/* iostat's figures from the raw counts, which may span more than one record */
static void take_disk(struct live_dev *d, const struct live_rec *rec)
{
	uint64_t ms, rio, wio;

	if (!d->name[0])
		snprintf(d->name, sizeof(d->name), "%.*s", (int)sizeof(rec->u.disk.name),
			 rec->u.disk.name);
	if (!d->seen)
		memset(&d->raw, 0, sizeof(d->raw));
	d->seen = true;
	d->t_ns = rec->t_ns;
	d->raw.r_ios += rec->u.disk.r_ios;
	d->raw.w_ios += rec->u.disk.w_ios;
	d->raw.r_sectors += rec->u.disk.r_sectors;
	d->raw.w_sectors += rec->u.disk.w_sectors;
	d->raw.r_ticks += rec->u.disk.r_ticks;
	d->raw.w_ticks += rec->u.disk.w_ticks;
	d->raw.io_ticks += rec->u.disk.io_ticks;
	d->raw.queue_ticks += rec->u.disk.queue_ticks;
	d->raw.interval_ms += rec->u.disk.interval_ms;
	d->raw.util_meaningful = rec->u.disk.util_meaningful != 0;
	ms = d->raw.interval_ms;
	rio = d->raw.r_ios;
	wio = d->raw.w_ios;
	d->interval_s = ms / 1000.0;
	d->r_s = ms ? rio / d->interval_s : 0;
	d->w_s = ms ? wio / d->interval_s : 0;
	d->rmb_s = ms ? d->raw.r_sectors * 512.0 / 1e6 / d->interval_s : 0;
	d->wmb_s = ms ? d->raw.w_sectors * 512.0 / 1e6 / d->interval_s : 0;
	d->aqu_sz = ms ? (double)d->raw.queue_ticks / ms : 0;
	d->r_await_ms = rio ? (double)d->raw.r_ticks / rio : 0;
	d->w_await_ms = wio ? (double)d->raw.w_ticks / wio : 0;
	/* the kernel's busy time can run a tick ahead of the interval: capped, as iostat */
	d->busy_pct = ms ? 100.0 * d->raw.io_ticks / ms : 0;
	if (d->busy_pct > 100)
		d->busy_pct = 100;
	d->util_pct = d->raw.util_meaningful && ms ? d->busy_pct : -1;
}

static void rates(struct live_job *j, double secs)
{
	int d;

	for (d = 0; d < LIVE_NR_DDIR; d++) {
		j->io[d].iops = secs > 0 ? (double)j->io[d].ios / secs : 0;
		j->io[d].bw = secs > 0 ? (double)j->io[d].bytes / secs : 0;
	}
}

static void end_tick(struct live_view *v, uint64_t t_ns)
{
	double secs = (double)v->next.interval_ns / 1e9;
	struct live_tick t;
	size_t i;

	v->next.t_ns = t_ns;
	rates(&v->next.total, secs);
	for (i = 0; i < v->nr_jobs; i++)
		rates(&v->next.jobs[i], secs);
	t = v->now;
	v->now = v->next;
	v->next = t;
	tick_clear(&v->next, v->nr_jobs, v->nr_devs);
	v->ticks++;
	v->gathering = false;
}

/*
 * One part of a job's text or error: parts come in order in records one
 * after another (sequence numbers without a gap); anything else drops it.
 */
static void take_text(struct live_view *v, const struct live_rec *rec)
{
	bool err = rec->type == LIVE_ERROR;
	size_t i, n = rec->u.text.len, max = err ? LIVE_ERROR_MAX : LIVE_TEXT_MAX;

	if (!rec->u.text.part) {
		v->part.on = rec->job < v->nr_jobs && rec->u.text.parts &&
			     rec->u.text.parts <= (err ? LIVE_ERROR_PARTS : LIVE_TEXT_PARTS);
		v->part.type = rec->type;
		v->part.job = rec->job;
		v->part.parts = rec->u.text.parts;
		v->part.next = 0;
		v->part.len = 0;
	} else if (rec->type != v->part.type || rec->job != v->part.job ||
		   rec->u.text.parts != v->part.parts || rec->seq != v->part.seq + 1) {
		v->part.on = false;
	}
	if (!v->part.on || rec->u.text.part != v->part.next || n > LIVE_TEXT_PART ||
	    v->part.len + n >= max) {
		v->part.on = false;
		return;
	}
	/* never a byte a terminal could act on, whatever the sender */
	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)rec->u.text.s[i];

		v->part.s[v->part.len++] = ch >= 0x20 && ch < 0x7f ? (char)ch : '?';
	}
	v->part.seq = rec->seq;
	if (++v->part.next < v->part.parts)
		return;
	v->part.on = false;
	if (!err) {
		memcpy(v->text[v->part.job], v->part.s, v->part.len);
		v->text[v->part.job][v->part.len] = '\0';
		return;
	}
	/* a job fails once: a second error for it (none is sent) would not count again */
	if (v->error[v->part.job][0] || !v->part.len)
		return;
	memcpy(v->error[v->part.job], v->part.s, v->part.len);
	v->error[v->part.job][v->part.len] = '\0';
	v->last_error = v->part.job;
	v->nr_errors++;
}

bool live_view_feed(struct live_view *v, const struct live_rec *rec)
{
	struct live_job *j;

	if (rec->type != LIVE_TEXT && rec->type != LIVE_ERROR)
		v->part.on = false;

	if (rec->type == LIVE_IO || rec->type == LIVE_STATUS || rec->type == LIVE_DISK)
		v->gathering = true;
	switch (rec->type) {
	case LIVE_IO:
		j = job_of(v, rec->job);
		if (j && rec->ddir < LIVE_NR_DDIR)
			take_io(&j->io[rec->ddir], rec);
		break;
	case LIVE_STATUS:
		j = job_of(v, rec->job);
		if (!j)
			break;
		take_status(j, rec, rec->job == LIVE_TOTAL);
		if (rec->job == LIVE_TOTAL) {
			v->next.interval_ns = rec->u.st.interval_ns;
			v->next.drops = rec->u.st.drops;
		}
		break;
	case LIVE_DISK:
		if (rec->job < v->nr_devs)
			take_disk(&v->next.devs[rec->job], rec);
		break;
	case LIVE_TICK_END:
		end_tick(v, rec->t_ns);
		return true;
	case LIVE_END:
		v->ended = true;
		break;
	case LIVE_TEXT:
	case LIVE_ERROR:
		take_text(v, rec);
		break;
	default:
		break;
	}
	return false;
}

bool live_view_flush(struct live_view *v, uint64_t t_ns)
{
	if (!v->gathering)
		return false;
	end_tick(v, t_ns);
	return true;
}

void live_view_error_line(const struct live_view *v, size_t j, const char *name, char *buf,
			  size_t len)
{
	const char *why;
	size_t n = strlen(name);

	if (!len)
		return;
	buf[0] = '\0';
	if (!v->error || j >= v->nr_jobs || !v->error[j][0])
		return;
	why = v->error[j];
	/* the worker's errors begin "job 'NAME': " (core/worker.c) */
	if (!strncmp(why, "job '", 5) && !strncmp(why + 5, name, n) && !strncmp(why + 5 + n, "': ", 3))
		why += 5 + n + 3;
	snprintf(buf, len, "job '%s' failed: %s", name, why);
}

const char *live_phase_name(int phase)
{
	static const char *const names[PHASE_NR] = {
		[PHASE_SETUP] = "setup", [PHASE_LAYOUT] = "layout", [PHASE_RAMP] = "ramp",
		[PHASE_RUN] = "run", [PHASE_VERIFY] = "verify", [PHASE_DONE] = "done",
	};

	return phase >= 0 && phase < PHASE_NR ? names[phase] : "?";
}

const char *live_ddir_name(int ddir)
{
	static const char *const names[LIVE_NR_DDIR] = { "read", "write", "trim" };

	return ddir >= 0 && ddir < LIVE_NR_DDIR ? names[ddir] : "?";
}
