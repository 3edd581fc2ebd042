/*
 * sweep_task.c - the sweep screen's worker thread: sweep_preview / sweep_run
 * / sweep_cleanup off the UI thread, their events copied into a small
 * mutex-protected queue, each level's run handed to the UI thread to drain.
 * Never calls curses and never touches struct app.
 */
#include "sweep_task.h"
#include "ui_thread.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "job.h"

void sweep_task_init(struct sweep_task *t)
{
	memset(t, 0, sizeof(*t));
	atomic_init(&t->done, false);
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->cond, NULL);
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

/* The run's layout, on the worker thread inside run_begin(): kept until the handle is published. */
static void on_setup(void *arg, const struct job_list *jl, const struct run_layout *lay)
{
	struct sweep_task *t = arg;

	t->next_jl = jl;
	t->next_lay = lay;
}

/* A record the UI thread drained: to its sink (none when the UI has gone). */
static void on_record(void *arg, const struct live_rec *rec)
{
	struct sweep_task *t = arg;

	if (t->sink && t->sink->record)
		t->sink->record(t->sink->arg, rec);
}

/* A level's run: started here, drained by the UI thread (sweep_task_pump), ended here. */
static int run_level(void *arg, const struct job_list *jl, const struct run_params *p,
		     struct run_result *res, char *err, size_t errlen)
{
	struct sweep_task *t = arg;
	struct run_handle *h;
	int ret;

	if (t->sync)
		return run_jobs(jl, p, res, err, errlen);
	t->next_jl = NULL;
	t->next_lay = NULL;
	ret = run_begin(jl, p, res, &h, err, errlen);
	if (ret)
		return ret;
	pthread_mutex_lock(&t->lock);
	t->run = h;
	t->run_jl = t->next_jl;
	t->run_lay = t->next_lay;
	t->run_fresh = true;
	t->run_drained = false;
	while (!t->run_drained && !t->ui_gone)
		pthread_cond_wait(&t->cond, &t->lock);
	/* from here this thread is the consumer: the UI drains no more (the mutex orders it) */
	t->run = NULL;
	t->run_jl = NULL;
	t->run_lay = NULL;
	pthread_mutex_unlock(&t->lock);
	return run_end(h, err, errlen);
}

static void *worker(void *p)
{
	struct sweep_task *t = p;
	struct run_observer obs = { on_setup, on_record, t, 0 };
	struct sweep_callbacks cb = { on_event, t, &obs, &t->interrupt, run_level };

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
	t->sync = sync;
	t->ui_gone = false;
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

void sweep_task_pump(struct sweep_task *t, const struct run_observer *ui)
{
	pthread_mutex_lock(&t->lock);
	if (t->run && !t->run_drained) {
		if (t->run_fresh && t->run_lay && ui && ui->setup_done)
			ui->setup_done(ui->arg, t->run_jl, t->run_lay);
		t->run_fresh = false;
		t->sink = ui;
		if (run_drain(t->run)) {
			t->run_drained = true;
			pthread_cond_signal(&t->cond);
		}
		t->sink = NULL;
	}
	pthread_mutex_unlock(&t->lock);
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
		pthread_mutex_lock(&t->lock);
		t->ui_gone = true;
		pthread_cond_signal(&t->cond);
		pthread_mutex_unlock(&t->lock);
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
	pthread_cond_destroy(&t->cond);
	sweep_task_init(t);
}
