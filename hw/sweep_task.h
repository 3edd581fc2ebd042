/*
 * sweep_task.h - the RAID sweep screen's worker: runs sweep_preview,
 * sweep_run or sweep_cleanup (hw/sweep.h, which block for seconds to
 * minutes) on a thread of its own, and hands what happens to the UI as
 * small event structs in a queue, plus the latest live numbers of the run.
 *
 * Threading contract: the UI thread fills the plan, calls sweep_task_start()
 * and then only calls sweep_task_drain(), sweep_task_live(),
 * sweep_task_stop() and sweep_task_done() until done returns true; after
 * that the report, ret and err are the UI thread's. The worker thread only
 * pushes into the queue and the live numbers, both under the task's mutex,
 * and never calls curses. The done flag's release store (worker) pairs with
 * the acquire load in sweep_task_done().
 */
#ifndef RB_SWEEP_TASK_H
#define RB_SWEEP_TASK_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "sweep.h"

#define SWEEP_TASK_QUEUE 256

enum sweep_task_kind { SWEEP_TASK_PREVIEW, SWEEP_TASK_RUN, SWEEP_TASK_CLEANUP };

/* A copy of one struct sweep_event, small enough to queue. */
struct sweep_msg {
	enum sweep_event_kind kind;
	size_t index, count;
	double progress_pct;
	char level[16];
	char ld[64];
	char os_device[128];
	char command[384];
	char message[512];
	char result_path[256];
};

/* The run in progress, per engine tick (IOPS and bytes/s of every job together). */
struct sweep_live {
	bool valid;
	double iops, bw_bytes, percent;
	unsigned long seq;	/* changes with every tick */
};

struct sweep_task {
	/* input: the UI thread's until start; owned strings, freed by release */
	enum sweep_task_kind kind;
	struct sweep_plan plan;
	/* output: the worker's until done */
	int ret;
	char err[4096];
	struct sweep_report report;
	/* private */
	pthread_t thread;
	bool started;
	atomic_bool done;
	volatile sig_atomic_t interrupt;
	pthread_mutex_t lock;
	struct sweep_msg queue[SWEEP_TASK_QUEUE];
	size_t head, nr;		/* under lock */
	unsigned long dropped;		/* under lock: events that did not fit */
	struct sweep_live live;		/* under lock */
	double tick_ios, tick_bytes, tick_ns, tick_pct;	/* worker only */
};

void sweep_task_init(struct sweep_task *t);
/* Copies s into the plan's owned strings (tool, controller, profile, size). */
int sweep_task_set(struct sweep_task *t, const char **field, const char *s);
/* Appends to the plan's drives or levels. */
int sweep_task_add_drive(struct sweep_task *t, const char *drive);
int sweep_task_add_level(struct sweep_task *t, const char *level);

/* Starts kind on a thread; sync runs it to the end first (screen tests). 0 or -errno. */
int sweep_task_start(struct sweep_task *t, enum sweep_task_kind kind, bool sync);
/* Moves up to max queued events into out; returns how many. */
size_t sweep_task_drain(struct sweep_task *t, struct sweep_msg *out, size_t max);
struct sweep_live sweep_task_live(struct sweep_task *t);
/* Asks the sweep to stop after its current step (the array is deleted). */
void sweep_task_stop(struct sweep_task *t);
bool sweep_task_done(struct sweep_task *t);
bool sweep_task_running(const struct sweep_task *t);
/* Stops and joins a running worker, frees the plan and the report. */
void sweep_task_release(struct sweep_task *t);

#endif
