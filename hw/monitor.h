/*
 * monitor.h - hot-plug monitor: block devices added, removed and changed
 * (a loop device attached or detached, a disk pulled, a partition table
 * re-read), from the kernel's uevents through libudev, so the TUI knows
 * when to run discovery again.
 *
 * The fd is non-blocking and pollable; put it in the TUI's poll set and
 * call monitor_read() until it returns 0. When udevd runs, events come
 * after udev has processed them (device nodes and links exist); without
 * it (containers, initramfs) they come straight from the kernel.
 *
 * Threading: one monitor per thread; monitors share nothing.
 */
#ifndef RB_MONITOR_H
#define RB_MONITOR_H

#include <stdbool.h>
#include <stddef.h>

struct monitor;

enum monitor_action {
	MONITOR_ADD,
	MONITOR_REMOVE,
	MONITOR_CHANGE,
	MONITOR_OTHER,		/* move, online, offline, bind ... */
};

struct monitor_event {
	enum monitor_action action;
	char action_text[16];	/* the kernel's word: "add", "change", ... */
	char name[64];		/* kernel name: "sdb", "sdb1", "loop3" */
	bool partition;		/* DEVTYPE=partition */
};

/* "add", "remove", "change", "other". */
const char *monitor_action_name(enum monitor_action a);

/*
 * Starts listening for block uevents. Returns a monitor (free with
 * monitor_free()) or NULL with err filled: no netlink socket (seccomp, a
 * network namespace that gets no uevents), or ENOMEM.
 */
struct monitor *monitor_new(char *err, size_t errlen);

/* The fd to poll for POLLIN. */
int monitor_fd(const struct monitor *m);

/* 1 with ev filled, 0 when nothing is pending, -errno on a socket error. */
int monitor_read(struct monitor *m, struct monitor_event *ev);

/* True when events come from udevd (processed), false when from the kernel. */
bool monitor_from_udev(const struct monitor *m);

void monitor_free(struct monitor *m);

#endif
