/*
 * monitor.c - block device uevents through libudev's netlink monitor,
 * filtered to the "block" subsystem in the kernel (a socket filter), so the
 * TUI wakes only for storage.
 *
 * The "udev" source is used when udevd is running (its control socket
 * exists): those events arrive after rules ran and nodes exist. Otherwise
 * the "kernel" source, which needs no daemon.
 *
 * Listens only; never prints.
 */
#include "monitor.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libudev.h>

struct monitor {
	struct udev *udev;
	struct udev_monitor *mon;
	bool from_udev;
};

const char *monitor_action_name(enum monitor_action a)
{
	switch (a) {
	case MONITOR_ADD: return "add";
	case MONITOR_REMOVE: return "remove";
	case MONITOR_CHANGE: return "change";
	default: return "other";
	}
}

static bool udevd_running(void)
{
	return access("/run/udev/control", F_OK) == 0;
}

struct monitor *monitor_new(char *err, size_t errlen)
{
	struct monitor *m = calloc(1, sizeof(*m));
	int rc;

	if (!err)
		errlen = 0;
	if (!m) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	m->udev = udev_new();
	if (!m->udev) {
		snprintf(err, errlen, "cannot start libudev: %s", strerror(errno));
		goto fail;
	}
	m->from_udev = udevd_running();
	m->mon = udev_monitor_new_from_netlink(m->udev, m->from_udev ? "udev" : "kernel");
	if (!m->mon) {
		snprintf(err, errlen, "cannot open the uevent netlink socket: %s",
			 strerror(errno ? errno : EPROTONOSUPPORT));
		goto fail;
	}
	rc = udev_monitor_filter_add_match_subsystem_devtype(m->mon, "block", NULL);
	if (rc >= 0)
		rc = udev_monitor_enable_receiving(m->mon);
	if (rc < 0) {
		snprintf(err, errlen, "cannot listen for uevents: %s", strerror(-rc));
		goto fail;
	}
	/* Kernel bursts (64 loop devices at once) must not overflow the socket. */
	udev_monitor_set_receive_buffer_size(m->mon, 8 * 1024 * 1024);
	return m;
fail:
	monitor_free(m);
	return NULL;
}

int monitor_fd(const struct monitor *m)
{
	return udev_monitor_get_fd(m->mon);
}

bool monitor_from_udev(const struct monitor *m)
{
	return m->from_udev;
}

int monitor_read(struct monitor *m, struct monitor_event *ev)
{
	struct udev_device *dev;
	const char *action, *name, *type;

	/* The fd is non-blocking: NULL means nothing pending, or a message filtered out. */
	errno = 0;
	dev = udev_monitor_receive_device(m->mon);
	if (!dev)
		return errno && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR ? -errno
											   : 0;
	memset(ev, 0, sizeof(*ev));
	action = udev_device_get_action(dev);
	name = udev_device_get_sysname(dev);
	type = udev_device_get_devtype(dev);
	snprintf(ev->action_text, sizeof(ev->action_text), "%s", action ? action : "");
	snprintf(ev->name, sizeof(ev->name), "%s", name ? name : "");
	ev->partition = type && !strcmp(type, "partition");
	if (!action)
		ev->action = MONITOR_OTHER;
	else if (!strcmp(action, "add"))
		ev->action = MONITOR_ADD;
	else if (!strcmp(action, "remove"))
		ev->action = MONITOR_REMOVE;
	else if (!strcmp(action, "change"))
		ev->action = MONITOR_CHANGE;
	else
		ev->action = MONITOR_OTHER;
	udev_device_unref(dev);
	return 1;
}

void monitor_free(struct monitor *m)
{
	if (!m)
		return;
	if (m->mon)
		udev_monitor_unref(m->mon);
	if (m->udev)
		udev_unref(m->udev);
	free(m);
}
