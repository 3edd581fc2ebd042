/*
 * app_inv.c - the inventory the Devices and Target screens show: this
 * machine's controllers and block devices (hw discovery from sysfs) and what
 * the vendor tools on PATH report, or captured vendor outputs given with
 * --import=TOOL:FILE (how screen tests and users with a capture from another
 * server see a configuration).
 *
 * The vendor tools run in the background (hw/raidprobe.h): the UI thread
 * never waits on one; it merges each tool's answer on the frame after it
 * arrives. A rescan's read runs on a thread of its own too (sysfs and the
 * signature probes of every block device take seconds on a busy machine,
 * and hot-plug events during a sweep ask for one after another); only the
 * first load, before the first frame, and screen tests read in place.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inventory_read.h"
#include "tui.h"
#include "ui_thread.h"

/*
 * One rescan on its thread. The UI thread starts it and, once done reads
 * true, joins it and owns inv and probe (the probe set's owner becomes the
 * UI thread then); the thread touches only this struct. The done flag's
 * release store (loader thread) pairs with the acquire load in
 * poll_loader() and app_release_probes().
 */
struct inv_loader {
	pthread_t th;
	atomic_bool done;
	struct inventory_source src;
	struct inventory inv;
	struct raidprobe *probe;
	int ret;
	char err[512];
};

static void *loader_main(void *p)
{
	struct inv_loader *l = p;

	l->ret = inventory_read(&l->inv, &l->src, &l->probe, l->err, sizeof(l->err));
	/* pairs with the acquire loads in poll_loader() and app_release_probes() */
	atomic_store_explicit(&l->done, true, memory_order_release);
	return NULL;
}

/* How long quitting waits for cancelled tools to be killed (they take ~1 s). */
#define PROBE_QUIT_WAIT_MS 3000

static void take_inventory(struct app *app, struct inventory *inv)
{
	if (app->have_inv)
		inventory_release(&app->inv);
	app->inv = *inv;
	app->have_inv = true;
	app->inv_gen++;
}

/* What a read gave: its tools replace the last ones; a rescan keeps the last list until they end. */
static void take_read(struct app *app, struct inventory *inv, struct raidprobe *probe, int ret,
		      const char *err)
{
	if (probe) {
		/* the last load's tools, if still running, are cancelled, not waited for */
		raidprobe_free(app->probe, 0);
		app->probe = probe;
		/* screen tests dump what the tools said, not how far they got */
		while (app->test_mode && !raidprobe_wait(app->probe, 1000))
			;
	}
	if (ret) {
		snprintf(app->inv_error, sizeof(app->inv_error), "%s", err);
		inventory_release(inv);
		return;
	}
	if (app->have_inv_next) {
		inventory_release(&app->inv_next);
		app->have_inv_next = false;
	}
	if (app->have_inv && app_probing(app)) {
		/* a rescan: controllers do not vanish while their tool is asked again */
		app->inv_next = *inv;
		app->have_inv_next = true;
		return;
	}
	take_inventory(app, inv);
	app_poll_inventory(app);
}

void app_load_inventory(struct app *app)
{
	struct inventory_source src;
	struct inventory inv;
	struct raidprobe *probe = NULL;
	struct inv_loader *l;
	char err[512] = "";
	int ret;

	memset(&inv, 0, sizeof(inv));
	app->inv_error[0] = '\0';
	inventory_source_init(&src);
	src.imports = app->imports;
	src.nr_imports = app->nr_imports;
	if (app->sysfs_root)
		src.discover.sysfs_root = app->sysfs_root;
	src.tool_timeout_ms = app->tool_timeout_ms;
	if (app->loader) {
		/* one read at a time; the one running is followed by another */
		app->reload_again = true;
		return;
	}
	/* a rescan of this machine: off the UI thread */
	if (app->have_inv && !app->test_mode && !app->nr_imports && (l = calloc(1, sizeof(*l)))) {
		l->src = src;
		atomic_init(&l->done, false);
		if (!app_thread_start(&l->th, loader_main, l)) {
			app->loader = l;
			app->reload_again = false;
			return;
		}
		free(l);
	}
	ret = inventory_read(&inv, &src, &probe, err, sizeof(err));
	take_read(app, &inv, probe, ret, err);
}

bool app_loading(const struct app *app)
{
	return app->loader != NULL;
}

/* The UI thread, every frame: a finished rescan is taken, and another started if asked. */
static void poll_loader(struct app *app)
{
	struct inv_loader *l = app->loader;

	/* pairs with the release store at the end of loader_main() */
	if (!l || !atomic_load_explicit(&l->done, memory_order_acquire))
		return;
	pthread_join(l->th, NULL);
	app->loader = NULL;
	take_read(app, &l->inv, l->probe, l->ret, l->err);
	free(l);
	if (app->reload_again) {
		app->reload_again = false;
		app_load_inventory(app);
	}
}

void app_poll_inventory(struct app *app)
{
	poll_loader(app);
	if (!app->probe)
		return;
	if (app->have_inv_next) {
		if (raidprobe_busy(app->probe))
			return;
		inventory_read_collect(app->probe, &app->inv_next);
		app->have_inv_next = false;
		take_inventory(app, &app->inv_next);
		memset(&app->inv_next, 0, sizeof(app->inv_next));
		return;
	}
	if (app->have_inv && inventory_read_collect(app->probe, &app->inv))
		app->inv_gen++;
}

void app_cancel_probes(struct app *app)
{
	raidprobe_cancel(app->probe);
}

bool app_probing(const struct app *app)
{
	return app->probe && raidprobe_busy(app->probe);
}

/* Called by app_release(): no tool outlives the TUI. */
void app_release_probes(struct app *app)
{
	if (app->loader) {
		int waited_ms = 0;

		/* a read in flight (sysfs, then the tools started) ends within milliseconds:
		 * wait for it a little, so what it read is freed, not left to the exit */
		while (!atomic_load_explicit(&app->loader->done, memory_order_acquire) &&
		       waited_ms < PROBE_QUIT_WAIT_MS) {
			usleep(10 * 1000);
			waited_ms += 10;
		}
		/* pairs with the release store at the end of loader_main() */
		if (atomic_load_explicit(&app->loader->done, memory_order_acquire)) {
			pthread_join(app->loader->th, NULL);
			raidprobe_free(app->loader->probe, 0);
			inventory_release(&app->loader->inv);
			free(app->loader);
		} else {
			/* a read stuck in sysfs never holds up quitting: the thread goes with the process */
			pthread_detach(app->loader->th);
		}
		app->loader = NULL;
	}
	raidprobe_free(app->probe, 0);
	app->probe = NULL;
	/* also the tools of earlier rescans, cancelled when they were replaced */
	raidprobe_settle(PROBE_QUIT_WAIT_MS);
	if (app->have_inv_next)
		inventory_release(&app->inv_next);
	app->have_inv_next = false;
}
