/*
 * raidprobe.c - the vendor tools' live read in the background: a thread per
 * tool found on PATH, all started at once, each running the tool's listing
 * under one overall deadline and the set's cancel flag (hw/raidtool.c kills
 * the tool's process group either way), and a state per tool the owner
 * reads while it waits. Also raidtool_read_all(), the blocking form.
 *
 * It must not parse any output (the adapters do), never prints, and the
 * owner's calls never wait on a child process unless asked to.
 */
#include "raidprobe.h"
#include "grow.h"
#include "raidtool.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_TOOLS 8

struct slot {
	struct raidprobe *p;
	const struct raid_tool_ops *ops;
	char bin[PATH_MAX];
	long long start_ms;
	/* under p->lock: written by the tool thread once, read by the owner */
	enum raidprobe_state state;
	int ret;		/* what the read returned */
	long long end_ms;
	char msg[512];
	struct inventory inv;	/* the answer, until collected */
	bool collected;
};

struct raidprobe {
	pthread_mutex_t lock;
	pthread_cond_t cond;	/* a tool ended */
	int refs;		/* the owner and each running tool thread; under lock */
	atomic_int cancel;	/* read by raidtool_exec_ctl() in the tool threads */
	int timeout_ms;
	struct raidtool_osdev *devs;
	size_t nr_devs;
	size_t nr;
	struct slot slot[MAX_TOOLS];
};

/* Tool threads of every set, so quitting can wait for those of sets let go of. */
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t live_cond = PTHREAD_COND_INITIALIZER;
static int live_threads;

static void live_add(int n)
{
	pthread_mutex_lock(&live_lock);
	live_threads += n;
	if (!live_threads)
		pthread_cond_broadcast(&live_cond);
	pthread_mutex_unlock(&live_lock);
}

const char *raidprobe_state_name(enum raidprobe_state s)
{
	switch (s) {
	case RAIDPROBE_RUNNING:
		return "running";
	case RAIDPROBE_DONE:
		return "done";
	case RAIDPROBE_FAILED:
		return "failed";
	case RAIDPROBE_TIMED_OUT:
		return "timed out";
	case RAIDPROBE_CANCELLED:
		return "cancelled";
	}
	return "?";
}

void raidprobe_describe(const struct raidprobe_tool *t, bool ascii, char *buf, size_t len)
{
	long long s = t->elapsed_ms / 1000;

	switch (t->state) {
	case RAIDPROBE_RUNNING:
		snprintf(buf, len, "%s: probing%s %lld s", t->name, ascii ? "..." : "\u2026", s);
		break;
	case RAIDPROBE_DONE:
		snprintf(buf, len, "%s: done (%lld s)", t->name, s);
		break;
	case RAIDPROBE_TIMED_OUT:
		snprintf(buf, len, "%s: timed out after %d s", t->name, (t->timeout_ms + 999) / 1000);
		break;
	case RAIDPROBE_CANCELLED:
		snprintf(buf, len, "%s: cancelled", t->name);
		break;
	case RAIDPROBE_FAILED:
	default:
		snprintf(buf, len, "%s: failed: %s", t->name, t->msg[0] ? t->msg : "no reason given");
		break;
	}
}

static enum raidprobe_state state_of(int ret)
{
	if (ret == 0)
		return RAIDPROBE_DONE;
	if (ret == -ETIMEDOUT)
		return RAIDPROBE_TIMED_OUT;
	if (ret == -ECANCELED)
		return RAIDPROBE_CANCELLED;
	return RAIDPROBE_FAILED;
}

static void destroy(struct raidprobe *p)
{
	for (size_t i = 0; i < p->nr; i++)
		inventory_release(&p->slot[i].inv);
	raidtool_osdevs_free(p->devs, p->nr_devs);
	pthread_cond_destroy(&p->cond);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

/* Drops one reference; the last one frees the set. Called without the lock. */
static void unref(struct raidprobe *p)
{
	bool last;

	pthread_mutex_lock(&p->lock);
	last = --p->refs == 0;
	pthread_mutex_unlock(&p->lock);
	if (last)
		destroy(p);
}

/* "ssacli: /usr/sbin/ssacli did not..." -> the part after the tool's own name. */
static const char *strip_name(const char *msg, const char *bin)
{
	const char *base = strrchr(bin, '/') ? strrchr(bin, '/') + 1 : bin;
	size_t n = strlen(base);

	if (!strncmp(msg, base, n) && !strncmp(msg + n, ": ", 2))
		return msg + n + 2;
	return msg;
}

static void *probe_thread(void *arg)
{
	struct slot *s = arg;
	struct raidprobe *p = s->p;
	struct raidtool_src src = { s->ops->name, NULL, NULL, p->devs, p->nr_devs };
	struct raidtool_ctl ctl = { p->timeout_ms, s->start_ms + p->timeout_ms, &p->cancel };
	struct inventory tmp = { 0 };
	char msg[512] = "";
	int ret;

	ret = s->ops->read(s->bin, &tmp, &src, &ctl, msg, sizeof(msg));
	pthread_mutex_lock(&p->lock);
	s->end_ms = raidtool_now_ms();
	s->state = state_of(ret);
	s->ret = ret;
	if (ret) {
		inventory_release(&tmp);
		snprintf(s->msg, sizeof(s->msg), "%s", strip_name(msg, s->bin));
	} else {
		s->inv = tmp;
	}
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	unref(p);
	live_add(-1);
	return NULL;
}

/* Block devices discovery already knows, with their WWN, ahead of sysfs's. */
static int osdevs_add_inventory(const struct inventory *inv, struct raidtool_osdev **devs,
				size_t *nr)
{
	for (size_t i = 0; inv && i < inv->nr_blockdevs; i++) {
		const struct inv_blockdev *b = &inv->blockdevs[i];
		struct raidtool_osdev *p;

		if (!b->name || !b->wwn)
			continue;
		if (grow_room(devs, *nr, sizeof(**devs)))
			return -ENOMEM;
		p = *devs;
		p[*nr].name = strdup(b->name);
		p[*nr].wwn = strdup(b->wwn);
		(*nr)++;
		if (!p[*nr - 1].name || !p[*nr - 1].wwn)
			return -ENOMEM;
	}
	return 0;
}

/* Which tools run: those on PATH, a superseded one only without its successor. */
static void find_tools(struct raidprobe *p)
{
	const struct raid_tool_ops *const *all = raidtool_all();

	for (size_t i = 0; all[i] && p->nr < MAX_TOOLS; i++) {
		struct slot *s = &p->slot[p->nr];
		char other[sizeof(s->bin)];

		if (raidtool_find(all[i], s->bin, sizeof(s->bin)))
			continue;
		/* they see the same controllers: ask the one that can also change them */
		if (all[i]->superseded_by &&
		    !raidtool_find(all[i]->superseded_by, other, sizeof(other)))
			continue;
		s->ops = all[i];
		s->p = p;
		p->nr++;
	}
}

struct raidprobe *raidprobe_start(const struct inventory *base, int timeout_ms, char *err,
				  size_t errlen)
{
	struct raidprobe *p = calloc(1, sizeof(*p));
	sigset_t all, old;
	int ret = 0;

	if (!p) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	atomic_init(&p->cancel, 0);
	p->refs = 1;
	p->timeout_ms = timeout_ms > 0 ? timeout_ms
				       : raidtool_env_timeout_ms(RAIDPROBE_DEFAULT_TIMEOUT_MS);
	raidtool_osdevs_from_sysfs("/sys", &p->devs, &p->nr_devs);
	if (osdevs_add_inventory(base, &p->devs, &p->nr_devs)) {
		destroy(p);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	find_tools(p);
	/* the owner takes the terminal's signals, never a tool thread */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (size_t i = 0; i < p->nr; i++) {
		struct slot *s = &p->slot[i];
		pthread_t th;

		s->start_ms = raidtool_now_ms();
		s->state = RAIDPROBE_RUNNING;
		pthread_mutex_lock(&p->lock);
		p->refs++;
		pthread_mutex_unlock(&p->lock);
		live_add(1);
		ret = pthread_create(&th, NULL, probe_thread, s);
		if (ret) {
			live_add(-1);
			pthread_mutex_lock(&p->lock);
			p->refs--;
			/* the tools not started count as failed; those started are cancelled */
			for (size_t k = i; k < p->nr; k++) {
				p->slot[k].state = RAIDPROBE_FAILED;
				p->slot[k].ret = -ret;
				p->slot[k].end_ms = p->slot[k].start_ms = raidtool_now_ms();
				snprintf(p->slot[k].msg, sizeof(p->slot[k].msg),
					 "cannot start a thread: %s", strerror(ret));
			}
			pthread_mutex_unlock(&p->lock);
			break;
		}
		pthread_detach(th);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		snprintf(err, errlen, "cannot start a thread for the vendor tools: %s",
			 strerror(ret));
		raidprobe_free(p, 2000);
		return NULL;
	}
	return p;
}

size_t raidprobe_count(const struct raidprobe *p)
{
	return p ? p->nr : 0;
}

void raidprobe_tool(struct raidprobe *p, size_t i, struct raidprobe_tool *out)
{
	const struct slot *s = &p->slot[i];

	pthread_mutex_lock(&p->lock);
	out->name = s->ops->name;
	out->state = s->state;
	out->timeout_ms = p->timeout_ms;
	out->elapsed_ms = (s->state == RAIDPROBE_RUNNING ? raidtool_now_ms() : s->end_ms) -
			  s->start_ms;
	snprintf(out->msg, sizeof(out->msg), "%s", s->msg);
	pthread_mutex_unlock(&p->lock);
}

static bool busy_locked(const struct raidprobe *p)
{
	for (size_t i = 0; i < p->nr; i++)
		if (p->slot[i].state == RAIDPROBE_RUNNING)
			return true;
	return false;
}

bool raidprobe_busy(struct raidprobe *p)
{
	bool busy;

	if (!p)
		return false;
	pthread_mutex_lock(&p->lock);
	busy = busy_locked(p);
	pthread_mutex_unlock(&p->lock);
	return busy;
}

size_t raidprobe_collect(struct raidprobe *p, struct inventory *inv)
{
	size_t n = 0;

	if (!p)
		return 0;
	pthread_mutex_lock(&p->lock);
	for (size_t i = 0; i < p->nr; i++) {
		struct slot *s = &p->slot[i];
		int ret = 0;

		if (s->state == RAIDPROBE_RUNNING || s->collected)
			continue;
		s->collected = true;
		n++;
		if (s->state == RAIDPROBE_DONE)
			ret = raidtool_merge(inv, &s->inv);
		inventory_release(&s->inv);
		if (s->state == RAIDPROBE_CANCELLED)
			inv_add_note(inv, "%s: cancelled (its controllers are not shown)",
				     s->ops->name);
		else if (s->state != RAIDPROBE_DONE || ret)
			inv_add_note(inv, "%s: %s (its controllers are not shown)", s->ops->name,
				     ret ? strerror(-ret) : s->msg);
	}
	pthread_mutex_unlock(&p->lock);
	return n;
}

void raidprobe_cancel(struct raidprobe *p)
{
	/* read relaxed by raidtool_exec_ctl(): the flag is all that is shared */
	if (p)
		atomic_store_explicit(&p->cancel, 1, memory_order_relaxed);
}

bool raidprobe_wait(struct raidprobe *p, int ms)
{
	struct timespec until;
	bool busy;

	if (!p)
		return true;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += ms / 1000;
	until.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&p->lock);
	busy = busy_locked(p);
	if (busy && pthread_cond_timedwait(&p->cond, &p->lock, &until) == 0)
		busy = busy_locked(p);
	pthread_mutex_unlock(&p->lock);
	return !busy;
}

void raidprobe_free(struct raidprobe *p, int wait_ms)
{
	long long until;

	if (!p)
		return;
	raidprobe_cancel(p);
	until = raidtool_now_ms() + (wait_ms > 0 ? wait_ms : 0);
	while (raidtool_now_ms() < until && !raidprobe_wait(p, (int)(until - raidtool_now_ms())))
		;
	unref(p);
}

bool raidprobe_settle(int wait_ms)
{
	long long until = raidtool_now_ms() + (wait_ms > 0 ? wait_ms : 0);
	bool idle;

	pthread_mutex_lock(&live_lock);
	while (live_threads && raidtool_now_ms() < until) {
		struct timespec ts;
		long long left = until - raidtool_now_ms();

		if (left > 100)
			left = 100;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += (long)left * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&live_cond, &live_lock, &ts);
	}
	idle = !live_threads;
	pthread_mutex_unlock(&live_lock);
	return idle;
}

/* ---- the blocking form ------------------------------------------------------ */

int raidtool_read_all(struct inventory *inv, char *err, size_t errlen)
{
	struct raidprobe *p = raidprobe_start(inv, 0, err, errlen);
	int answered = 0, first = 0;

	if (!p)
		return -ENOMEM;
	while (!raidprobe_wait(p, 1000))
		;
	/* every tool has ended: the slots are the owner's to read */
	for (size_t i = 0; i < p->nr; i++) {
		const struct slot *s = &p->slot[i];

		if (!s->ret) {
			answered++;
		} else if (!first) {
			first = s->ret;
			snprintf(err, errlen, "%s: %s", s->ops->name, s->msg);
		}
	}
	raidprobe_collect(p, inv);
	raidprobe_free(p, 0);
	return first ? first : answered;
}
