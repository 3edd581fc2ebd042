/*
 * child.h - a program a job starts (exec's program=, exec_prerun=,
 * exec_postrun=): spawned in its own process group with the usual signals,
 * its stdin/stdout/stderr on descriptors the caller chose (stdin /dev/null
 * unless one is given), stopped as a group (SIGTERM, then SIGKILL after a
 * grace time) and reaped. Never prints.
 *
 * Threading contract: a struct child belongs to the thread that spawned it.
 */
#ifndef RB_CHILD_H
#define RB_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct child {
	pid_t pid;		/* 0 before the start, -1 once reaped */
	int status;		/* wait status once reaped */
	bool killed;		/* ended by child_stop()'s signals, not on its own */
};

/*
 * Starts file (searched in PATH when it has no '/') with argv and with
 * in/out/err as its fds 0, 1, 2: in -1 is /dev/null, never raidbench's own
 * stdin; out or err -1 is raidbench's own. 0 or -errno from posix_spawn
 * (also when /dev/null cannot be opened); a program that cannot be executed
 * shows as exit status 127 once reaped.
 */
int child_spawn(struct child *c, const char *file, char *const argv[], int in, int out, int err);

/* Collects its status if it has ended (block: waits); true once it has. */
bool child_reaped(struct child *c, bool block);

/* SIGTERM to its group, SIGKILL grace_s later if it is still there; reaps it. */
void child_stop(struct child *c, unsigned grace_s);

/* SIGKILL to its group and reaps it (a job torn down early). */
void child_kill(struct child *c);

/*
 * How a reaped child ended, for messages: 0 for exit status 0 (buf ""),
 * otherwise -ENOENT for status 127 (not found or not executable), -ECHILD
 * for any other status or a signal, with buf saying which.
 */
int child_status(const struct child *c, char *buf, size_t len);

/*
 * The terminal belongs to a screen (the TUI, from initscr to endwin): a
 * child must not write on it. Process-wide; set by the UI thread before any
 * run starts, read by the workers.
 */
void child_set_screen_owned(bool owned);
bool child_screen_owned(void);

/*
 * A child's output caught in a pipe instead of the terminal: the owner
 * drains it now and then (it never blocks) and keeps the last
 * CHILD_TAIL_MAX bytes, shown as text a terminal cannot act on.
 */
#define CHILD_TAIL_MAX 480
struct child_capture {
	int rfd;		/* the pipe's read end, -1 when closed */
	size_t len;		/* bytes in tail */
	unsigned long long total;	/* bytes the child wrote in all */
	char tail[CHILD_TAIL_MAX];
};
/* 0 with *wfd the write end to give the child (close it once spawned), or -errno. */
int child_capture_open(struct child_capture *cc, int *wfd);
/* Reads what is waiting, without blocking. */
void child_capture_drain(struct child_capture *cc);
/*
 * The tail as one line: newlines as " | ", printable ASCII as it is, every
 * other byte (ESC, other controls, anything past ASCII) as \xNN.
 */
void child_capture_text(const struct child_capture *cc, char *buf, size_t len);
/*
 * The end of the same text that fits in len: the latest whole lines, or
 * "..." and the end of the last one when even that is too long. For a live
 * view, where the newest output matters most.
 */
void child_capture_latest(const struct child_capture *cc, char *buf, size_t len);
void child_capture_close(struct child_capture *cc);

#endif
