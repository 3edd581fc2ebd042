/*
 * array_apply.c - the worker behind the builder's and the sweep screen's
 * array changes: run validated commands in order, judge each in the
 * vendor's words, re-read the tool's configuration. The same steps as
 * `raidbench array` (tui/cli/cmd_array.c), without printing and off the UI
 * thread. Never calls curses and never touches struct app.
 */
#include "array_apply.h"
#include "ui_thread.h"
#include "bufcat.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void array_job_init(struct array_job *job)
{
	memset(job, 0, sizeof(*job));
	atomic_init(&job->done, false);
}

int array_job_find_tool(struct array_job *job, const char *tool, char *err, size_t errlen)
{
	job->ops = raidtool_by_name(tool);
	if (!job->ops) {
		snprintf(err, errlen, "unknown tool '%s'", tool);
		return -ENOENT;
	}
	if (raidtool_find(job->ops, job->bin, sizeof(job->bin))) {
		size_t n = (size_t)snprintf(err, errlen, "%s is not installed (none of",
					    job->ops->name);

		for (size_t i = 0; job->ops->binaries[i] && n < errlen; i++)
			n = bufcat(err, errlen, n, " %s", job->ops->binaries[i]);
		if (n < errlen)
			snprintf(err + n, errlen - n, " is on PATH)");
		return -ENOENT;
	}
	return 0;
}

/* ---- owned copies of an op ---------------------------------------------------- */

static char **copy_list(char *const *v, size_t nr)
{
	char **c;

	if (!nr)
		return NULL;
	c = calloc(nr, sizeof(*c));
	for (size_t i = 0; c && i < nr; i++)
		if (!(c[i] = strdup(v[i]))) {
			while (i--)
				free(c[i]);
			free(c);
			return NULL;
		}
	return c;
}

static void free_list(char **v, size_t nr)
{
	for (size_t i = 0; v && i < nr; i++)
		free(v[i]);
	free(v);
}

/* s copied into the step's store; NULL stays NULL. */
static const char *keep(struct array_step *s, const char *str, bool *oom)
{
	for (size_t i = 0; str && i < sizeof(s->store) / sizeof(s->store[0]); i++)
		if (!s->store[i]) {
			s->store[i] = strdup(str);
			*oom |= !s->store[i];
			return s->store[i];
		}
	*oom |= str != NULL;
	return NULL;
}

static void step_release(struct array_step *s)
{
	free_list(s->op.drives, s->op.nr_drives);
	free_list(s->op.spares, s->op.nr_spares);
	for (size_t i = 0; i < sizeof(s->store) / sizeof(s->store[0]); i++)
		free(s->store[i]);
	raidtool_argv_release(&s->av);
	free(s->line);
	memset(s, 0, sizeof(*s));
}

static int step_copy(struct array_step *s, const struct array_op *op)
{
	bool oom = false;

	memset(s, 0, sizeof(*s));
	s->op = *op;
	s->op.drives = copy_list(op->drives, op->nr_drives);
	s->op.spares = copy_list(op->spares, op->nr_spares);
	s->op.level = keep(s, op->level, &oom);
	s->op.ld = keep(s, op->ld, &oom);
	s->op.array = keep(s, op->array, &oom);
	s->op.name = keep(s, op->name, &oom);
	s->op.mode = keep(s, op->mode, &oom);
	s->op.pattern = keep(s, op->pattern, &oom);
	if (oom || (op->nr_drives && !s->op.drives) || (op->nr_spares && !s->op.spares)) {
		step_release(s);
		return -ENOMEM;
	}
	return 0;
}

static int step_build(struct array_job *job, struct array_step *s,
		      const struct array_plan *plan, const struct inventory *inv, char *err,
		      size_t errlen)
{
	int ret = array_build(&s->op, plan, inv, job->bin, &s->av, err, errlen);

	if (ret)
		return ret;
	s->line = raidtool_argv_format((const char *const *)s->av.v);
	return s->line ? 0 : -ENOMEM;
}

int array_job_add(struct array_job *job, const struct array_op *op,
		  const struct array_plan *plan, const struct inventory *inv, char *err,
		  size_t errlen)
{
	struct array_op sp;
	bool followup = array_spare_followup(op, plan, &sp);
	struct array_step *s;
	int ret;

	if (job->nr_steps + (followup ? 2 : 1) > ARRAY_JOB_MAX_STEPS) {
		snprintf(err, errlen, "too many changes at once");
		return -E2BIG;
	}
	s = &job->steps[job->nr_steps];
	if ((ret = step_copy(s, op)) || (ret = step_build(job, s, plan, inv, err, errlen))) {
		if (ret == -ENOMEM)
			snprintf(err, errlen, "out of memory");
		step_release(s);
		return ret;
	}
	job->nr_steps++;
	if (!followup)
		return 0;
	/* the tool creates first, then gives the new array its spares */
	{
		struct array_plan none = { 0 };

		s = &job->steps[job->nr_steps];
		if ((ret = step_copy(s, &sp)) || (ret = step_build(job, s, &none, inv, err, errlen))) {
			step_release(s);
			job->nr_steps--;
			step_release(&job->steps[job->nr_steps]);
			return ret;
		}
		s->followup = true;
		job->nr_steps++;
	}
	return 0;
}

/* ---- the worker ------------------------------------------------------------------- */

static int read_state(struct array_job *job)
{
	job->read_err[0] = '\0';
	if (job->have_after)
		inventory_release(&job->after);
	job->have_after = false;
	memset(&job->after, 0, sizeof(job->after));
	if (raidtool_read(job->ops, job->bin, &job->after, job->timeout_ms, job->read_err,
			  sizeof(job->read_err))) {
		inventory_release(&job->after);
		return -EIO;
	}
	job->have_after = true;
	return 0;
}

/* One command: 0, or -errno with the vendor's words in job->err. */
static int run_step(struct array_job *job, struct array_step *s)
{
	struct raidtool_run run;
	int ret;

	memset(&run, 0, sizeof(run));
	job->ran = true;
	ret = raidtool_exec((const char *const *)s->av.v, job->timeout_ms, &run, job->err,
			    sizeof(job->err));
	if (!ret)
		ret = job->ops->check(&run, job->err, sizeof(job->err));
	else if (ret == -ETIMEDOUT)
		snprintf(job->err + strlen(job->err), sizeof(job->err) - strlen(job->err),
			 "; the change may or may not have happened: the state is read again");
	if (!ret && run.errout && *run.errout) {	/* mdadm reports success on stderr */
		size_t n = strlen(job->notes);

		snprintf(job->notes + n, sizeof(job->notes) - n, "%s", run.errout);
	}
	raidtool_run_release(&run);
	if (ret)
		job->hint = array_hint(&s->op, job->err);
	return ret;
}

static void *worker(void *p)
{
	struct array_job *job = p;
	int ret = 0;

	for (size_t i = 0; !ret && i < job->nr_steps; i++) {
		struct array_step *s = &job->steps[i];

		if (s->followup) {
			struct array_plan plan = { 0 };

			/* validated again, against what the tool says after the create */
			if (read_state(job)) {
				snprintf(job->err, sizeof(job->err), "the spares were not added: "
					 "the state could not be read back: %s", job->read_err);
				ret = -EIO;
			} else if ((ret = array_validate(&s->op, &job->after, NULL, &plan, job->err,
							 sizeof(job->err)))) {
				char why[sizeof(job->err)];

				snprintf(why, sizeof(why), "%s", job->err);
				snprintf(job->err, sizeof(job->err), "the spares were not added: %s",
					 why);
			}
			array_plan_release(&plan);
		}
		if (!ret)
			ret = run_step(job, s);
		if (ret)
			job->failed_step = i;
	}
	job->ret = ret;
	/* whatever happened, what the tool says now */
	read_state(job);
	/* pairs with the acquire load in array_job_done() */
	atomic_store_explicit(&job->done, true, memory_order_release);
	return NULL;
}

int array_job_start(struct array_job *job, bool sync)
{
	int ret;

	atomic_store_explicit(&job->done, false, memory_order_relaxed);
	if (sync) {
		worker(job);
		return 0;
	}
	ret = app_thread_start(&job->thread, worker, job);
	if (ret) {
		snprintf(job->err, sizeof(job->err), "cannot start a thread: %s", strerror(ret));
		return -ret;
	}
	job->started = true;
	return 0;
}

bool array_job_done(struct array_job *job)
{
	/* pairs with the release store at the end of worker() */
	if (!atomic_load_explicit(&job->done, memory_order_acquire))
		return false;
	if (job->started) {
		pthread_join(job->thread, NULL);
		job->started = false;
	}
	return true;
}

bool array_job_running(const struct array_job *job)
{
	return job->started;
}

void array_job_release(struct array_job *job)
{
	if (job->started)
		pthread_join(job->thread, NULL);
	for (size_t i = 0; i < job->nr_steps; i++)
		step_release(&job->steps[i]);
	if (job->have_after)
		inventory_release(&job->after);
	array_job_init(job);
}

/* ---- which controller --------------------------------------------------------------- */

static bool same(const char *a, const char *b)
{
	return a && b && !strcasecmp(a, b);
}

/* "0000:05:00.0" and "05:00.0" name the same function. */
static bool same_pci(const char *a, const char *b)
{
	size_t la, lb;

	if (!a || !b)
		return false;
	if (!strncmp(a, "0000:", 5))
		a += 5;
	if (!strncmp(b, "0000:", 5))
		b += 5;
	la = strlen(a);
	lb = strlen(b);
	return la && la == lb && !strcasecmp(a, b);
}

const struct inv_controller *array_find_controller(const struct inventory *tool_inv,
						   const char *tool,
						   const struct inv_controller *ctl)
{
	const struct inv_controller *only = NULL;
	size_t n = 0;

	for (int pass = 0; pass < 4; pass++)
		for (size_t i = 0; ctl && i < tool_inv->nr_controllers; i++) {
			const struct inv_controller *c = &tool_inv->controllers[i];
			bool hit = pass == 0 ? same(c->id, ctl->id) :
				   pass == 1 ? same_pci(c->pci, ctl->pci) :
				   pass == 2 ? same(c->serial, ctl->serial) :
					       same(c->slot, ctl->slot);

			if (hit && c->source && !strcmp(c->source, tool))
				return c;
		}
	for (size_t i = 0; i < tool_inv->nr_controllers; i++)
		if (tool_inv->controllers[i].source &&
		    !strcmp(tool_inv->controllers[i].source, tool)) {
			only = &tool_inv->controllers[i];
			n++;
		}
	return n == 1 ? only : NULL;
}
