/*
 * sweep_task.h - the RAID sweep screen's worker: runs sweep_preview,
 * sweep_run or sweep_cleanup (hw/sweep.h, which block for seconds to
 * minutes) on a thread of its own, and hands what happens to the UI as
 * small event structs in a queue. A level's run is started by the worker
 * but its live ring is drained by the UI thread (sweep_task_pump): the
 * records reach the screen through the run's one ring, never a copy.
 *
 * Threading contract: the UI thread fills the plan, calls sweep_task_start()
 * and then only calls sweep_task_drain(), sweep_task_pump(),
 * sweep_task_stop() and sweep_task_done() until done returns true; after
 * that the report, ret and err are the UI thread's. The worker thread only
 * pushes into the queue and publishes its run's handle, both under the
 * task's mutex, and never calls curses. While a handle is published the
 * UI thread is the ring's consumer (it drains under the mutex); the worker
 * waits on the condition until the UI has drained the run to its end, or
 * has gone (sweep_task_release), and only then ends the run. The done
 * flag's release store (worker) pairs with the acquire load in
 * sweep_task_done().
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

struct run_handle;
struct run_layout;

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
	bool sync;			/* runs on the UI thread (screen tests) */
	pthread_mutex_t lock;
	pthread_cond_t cond;		/* the run was drained to its end, or the UI went */
	struct sweep_msg queue[SWEEP_TASK_QUEUE];
	size_t head, nr;		/* under lock */
	unsigned long dropped;		/* under lock: events that did not fit */
	/* the level's run while the UI drains it; under lock */
	struct run_handle *run;
	const struct job_list *run_jl;
	const struct run_layout *run_lay;
	bool run_fresh;			/* the UI has not seen its layout yet */
	bool run_drained;		/* the UI saw its end */
	bool ui_gone;
	const struct job_list *next_jl;	/* worker only: from setup_done to publishing */
	const struct run_layout *next_lay;
	const struct run_observer *sink;	/* the UI's, only while it drains */
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
/*
 * Every frame: the records of the running level's run to ui (its
 * setup_done once per run, then each record), on the calling UI thread.
 */
void sweep_task_pump(struct sweep_task *t, const struct run_observer *ui);
/* Asks the sweep to stop after its current step (the array is deleted). */
void sweep_task_stop(struct sweep_task *t);
bool sweep_task_done(struct sweep_task *t);
bool sweep_task_running(const struct sweep_task *t);
/* Stops and joins a running worker, frees the plan and the report. */
void sweep_task_release(struct sweep_task *t);

#endif
