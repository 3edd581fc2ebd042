/*
 * sweep_task.c - the sweep screen's worker thread: sweep_preview / sweep_run
 * / sweep_cleanup off the UI thread, their events copied into a small
 * mutex-protected queue and the run's live records boiled down to one
 * "now" figure. Never calls curses and never touches struct app.
 */
#include "sweep_task.h"
#include "ui_thread.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ring.h"
#include "run.h"
#include "job.h"

void sweep_task_init(struct sweep_task *t)
{
	memset(t, 0, sizeof(*t));
	atomic_init(&t->done, false);
	pthread_mutex_init(&t->lock, NULL);
	t->plan.strip_bytes = -1;
	t->plan.wait_init = true;
}

int sweep_task_set(struct sweep_task *t, const char **field, const char *s)
{
	char *c = s ? strdup(s) : NULL;

	if (s && !c)
		return -ENOMEM;
	free((char *)*field);
	*field = c;
	(void)t;
	return 0;
}

static int push(char ***v, size_t *nr, const char *s)
{
	char **p = realloc(*v, (*nr + 2) * sizeof(**v));

	if (!p)
		return -ENOMEM;
	*v = p;
	if (!(p[*nr] = strdup(s)))
		return -ENOMEM;
	p[++*nr] = NULL;
	return 0;
}

int sweep_task_add_drive(struct sweep_task *t, const char *drive)
{
	return push(&t->plan.drives, &t->plan.nr_drives, drive);
}

int sweep_task_add_level(struct sweep_task *t, const char *level)
{
	return push(&t->plan.levels, &t->plan.nr_levels, level);
}

/* ---- on the worker thread ------------------------------------------------------- */

static void cpy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

static void on_event(void *arg, const struct sweep_event *ev)
{
	struct sweep_task *t = arg;
	struct sweep_msg *m;

	pthread_mutex_lock(&t->lock);
	if (t->nr == SWEEP_TASK_QUEUE) {
		/* the UI is away: the oldest progress line goes, never the last word */
		t->head = (t->head + 1) % SWEEP_TASK_QUEUE;
		t->nr--;
		t->dropped++;
	}
	m = &t->queue[(t->head + t->nr++) % SWEEP_TASK_QUEUE];
	memset(m, 0, sizeof(*m));
	m->kind = ev->kind;
	m->index = ev->index;
	m->count = ev->count;
	m->progress_pct = ev->progress_pct;
	cpy(m->level, sizeof(m->level), ev->level);
	cpy(m->ld, sizeof(m->ld), ev->ld);
	cpy(m->os_device, sizeof(m->os_device), ev->os_device);
	cpy(m->command, sizeof(m->command), ev->command);
	cpy(m->message, sizeof(m->message), ev->message);
	cpy(m->result_path, sizeof(m->result_path), ev->result_path);
	pthread_mutex_unlock(&t->lock);
}

/* Live records: one tick's totals, published at the tick's end. */
static void on_record(void *arg, const struct live_rec *rec)
{
	struct sweep_task *t = arg;

	switch (rec->type) {
	case LIVE_IO:
		if (rec->job == LIVE_TOTAL && rec->ddir < DDIR_RWDIR_CNT) {
			t->tick_ios += rec->u.io.ios;
			t->tick_bytes += (double)rec->u.io.bytes;
		}
		break;
	case LIVE_STATUS:
		if (rec->job == LIVE_TOTAL) {
			t->tick_ns = (double)rec->u.st.interval_ns;
			t->tick_pct = rec->u.st.percent;
		}
		break;
	case LIVE_TICK_END:
		pthread_mutex_lock(&t->lock);
		if (t->tick_ns > 0) {
			t->live.valid = true;
			t->live.iops = t->tick_ios * 1e9 / t->tick_ns;
			t->live.bw_bytes = t->tick_bytes * 1e9 / t->tick_ns;
			t->live.percent = t->tick_pct;
			t->live.seq++;
		}
		pthread_mutex_unlock(&t->lock);
		t->tick_ios = t->tick_bytes = 0;
		break;
	default:
		break;
	}
}

static void *worker(void *p)
{
	struct sweep_task *t = p;
	struct run_observer obs = { NULL, on_record, t, 0 };
	struct sweep_callbacks cb = { on_event, t, &obs, &t->interrupt };

	switch (t->kind) {
	case SWEEP_TASK_PREVIEW:
		t->ret = sweep_preview(&t->plan, &t->report, t->err, sizeof(t->err));
		break;
	case SWEEP_TASK_RUN:
		t->ret = sweep_run(&t->plan, &cb, &t->report, t->err, sizeof(t->err));
		break;
	case SWEEP_TASK_CLEANUP:
		t->ret = sweep_cleanup(true, &cb, t->err, sizeof(t->err));
		break;
	}
	/* pairs with the acquire load in sweep_task_done() */
	atomic_store_explicit(&t->done, true, memory_order_release);
	return NULL;
}

/* ---- on the UI thread ------------------------------------------------------------ */

int sweep_task_start(struct sweep_task *t, enum sweep_task_kind kind, bool sync)
{
	int ret;

	sweep_report_release(&t->report);
	memset(&t->report, 0, sizeof(t->report));
	t->kind = kind;
	t->ret = 0;
	t->err[0] = '\0';
	t->interrupt = 0;
	memset(&t->live, 0, sizeof(t->live));
	atomic_store_explicit(&t->done, false, memory_order_relaxed);
	if (sync) {
		worker(t);
		return 0;
	}
	ret = app_thread_start(&t->thread, worker, t);
	if (ret) {
		snprintf(t->err, sizeof(t->err), "cannot start a thread: %s", strerror(ret));
		return -ret;
	}
	t->started = true;
	return 0;
}

size_t sweep_task_drain(struct sweep_task *t, struct sweep_msg *out, size_t max)
{
	size_t n = 0;

	pthread_mutex_lock(&t->lock);
	while (t->nr && n < max) {
		out[n++] = t->queue[t->head];
		t->head = (t->head + 1) % SWEEP_TASK_QUEUE;
		t->nr--;
	}
	pthread_mutex_unlock(&t->lock);
	return n;
}

struct sweep_live sweep_task_live(struct sweep_task *t)
{
	struct sweep_live l;

	pthread_mutex_lock(&t->lock);
	l = t->live;
	pthread_mutex_unlock(&t->lock);
	return l;
}

void sweep_task_stop(struct sweep_task *t)
{
	t->interrupt = 1;
}

bool sweep_task_done(struct sweep_task *t)
{
	/* pairs with the release store at the end of worker() */
	if (!atomic_load_explicit(&t->done, memory_order_acquire))
		return false;
	if (t->started) {
		pthread_join(t->thread, NULL);
		t->started = false;
	}
	return true;
}

bool sweep_task_running(const struct sweep_task *t)
{
	return t->started;
}

static void free_list(char **v, size_t nr)
{
	for (size_t i = 0; v && i < nr; i++)
		free(v[i]);
	free(v);
}

void sweep_task_release(struct sweep_task *t)
{
	if (t->started) {
		/* the sweep deletes the array of the step it is in before it returns */
		t->interrupt = 1;
		pthread_join(t->thread, NULL);
		t->started = false;
	}
	sweep_report_release(&t->report);
	free((char *)t->plan.tool);
	free((char *)t->plan.controller);
	free((char *)t->plan.profile);
	free((char *)t->plan.size);
	free_list(t->plan.drives, t->plan.nr_drives);
	free_list(t->plan.levels, t->plan.nr_levels);
	pthread_mutex_destroy(&t->lock);
	sweep_task_init(t);
}
