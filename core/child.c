/*
 * child.c - spawning, stopping and reaping a job's program (child.h). The
 * program is the user's: run by argv, never through a shell of ours; a
 * caller that wants a shell names /bin/sh in argv.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "bufcat.h"
#include "child.h"
#include "clock.h"

extern char **environ;

static atomic_bool screen_owned;

int child_spawn(struct child *c, const char *file, char *const argv[], int in, int out, int err)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, dfl;
	int ret = 0;

	c->pid = 0;
	c->status = 0;
	c->killed = false;
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&attr);
	/* the worker blocks the terminal's signals; the program gets the usual ones */
	sigemptyset(&none);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE);
	sigaddset(&dfl, SIGINT);
	sigaddset(&dfl, SIGTERM);
	sigaddset(&dfl, SIGHUP);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &dfl);
	/* its own group: the end signals reach whatever it starts */
	posix_spawnattr_setpgroup(&attr, 0);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF |
				 POSIX_SPAWN_SETPGROUP);
	/*
	 * Never raidbench's stdin: in the TUI that is the terminal, whose keys the
	 * child would take, or whose read would stop it (its group is not the
	 * terminal's); elsewhere it may be a pipe the child has no business with.
	 */
	if (in >= 0)
		ret = posix_spawn_file_actions_adddup2(&fa, in, 0);
	else
		ret = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (!ret && out >= 0)
		ret = posix_spawn_file_actions_adddup2(&fa, out, 1);
	if (!ret && err >= 0)
		ret = posix_spawn_file_actions_adddup2(&fa, err, 2);
	if (!ret)
		ret = posix_spawnp(&c->pid, file, &fa, &attr, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	if (ret)
		c->pid = 0;
	return -ret;
}

bool child_reaped(struct child *c, bool block)
{
	pid_t r;

	if (c->pid <= 0)
		return true;
	do
		r = waitpid(c->pid, &c->status, block ? 0 : WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == c->pid || (r < 0 && errno == ECHILD)) {
		c->pid = -1;
		return true;
	}
	return false;
}

void child_stop(struct child *c, unsigned grace_s)
{
	uint64_t until;

	if (child_reaped(c, false))
		return;
	c->killed = true;
	kill(-c->pid, SIGTERM);
	until = rb_now_ns() + (uint64_t)grace_s * 1000000000ull;
	while (rb_now_ns() < until) {
		if (child_reaped(c, false))
			return;
		rb_sleep_ns(10000000ull);
	}
	kill(-c->pid, SIGKILL);
	child_reaped(c, true);
}

void child_kill(struct child *c)
{
	if (c->pid > 0) {
		c->killed = true;
		kill(-c->pid, SIGKILL);
		child_reaped(c, true);
	}
}

int child_status(const struct child *c, char *buf, size_t len)
{
	*buf = '\0';
	if (WIFEXITED(c->status) && WEXITSTATUS(c->status) == 127) {
		snprintf(buf, len, "exited with status 127 (the program may not exist or not be "
			 "executable)");
		return -ENOENT;
	}
	if (WIFEXITED(c->status) && WEXITSTATUS(c->status)) {
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(c->status));
		return -ECHILD;
	}
	if (WIFSIGNALED(c->status)) {
		snprintf(buf, len, "was killed by signal %d (%s)", WTERMSIG(c->status),
			 strsignal(WTERMSIG(c->status)));
		return -ECHILD;
	}
	return 0;
}

void child_set_screen_owned(bool owned)
{
	atomic_store(&screen_owned, owned);
}

bool child_screen_owned(void)
{
	return atomic_load(&screen_owned);
}

int child_capture_open(struct child_capture *cc, int *wfd)
{
	int p[2];

	memset(cc, 0, sizeof(*cc));
	cc->rfd = -1;
	/* close-on-exec both: dup2 onto the child's 1 and 2 is what it inherits */
	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	if (fcntl(p[0], F_SETFL, O_NONBLOCK) < 0) {
		int e = errno;

		close(p[0]);
		close(p[1]);
		return -e;
	}
	/* room for a burst between two drains (best effort: the default is 64 KiB) */
	fcntl(p[0], F_SETPIPE_SZ, 1 << 20);
	cc->rfd = p[0];
	*wfd = p[1];
	return 0;
}

void child_capture_drain(struct child_capture *cc)
{
	char buf[4096];
	ssize_t n;

	while (cc->rfd >= 0 && ((n = read(cc->rfd, buf, sizeof(buf))) > 0 ||
				(n < 0 && errno == EINTR))) {
		size_t k = n > 0 ? (size_t)n : 0, keep;

		cc->total += k;
		if (k >= CHILD_TAIL_MAX) {
			memcpy(cc->tail, buf + k - CHILD_TAIL_MAX, CHILD_TAIL_MAX);
			cc->len = CHILD_TAIL_MAX;
			continue;
		}
		keep = cc->len + k > CHILD_TAIL_MAX ? CHILD_TAIL_MAX - k : cc->len;
		memmove(cc->tail, cc->tail + cc->len - keep, keep);
		memcpy(cc->tail + keep, buf, k);
		cc->len = keep + k;
	}
}

/* How child_capture_text shows one byte: its columns, and the text at buf + pos. */
static size_t esc_width(unsigned char ch)
{
	return ch == '\n' ? 3 : ch == '\t' || (ch >= 0x20 && ch < 0x7f) ? 1 : 4;
}

static size_t esc_put(char *buf, size_t len, size_t pos, unsigned char ch)
{
	if (ch == '\n')
		return bufcat(buf, len, pos, " | ");
	if (ch == '\t')
		return bufcat(buf, len, pos, " ");
	if (ch >= 0x20 && ch < 0x7f)
		return bufcat(buf, len, pos, "%c", ch);
	return bufcat(buf, len, pos, "\\x%02x", ch);
}

/* The tail without the newlines at its very start and end: [*from, *to). */
static void tail_trim(const struct child_capture *cc, size_t *from, size_t *to)
{
	size_t i = 0, end = cc->len;

	while (i < end && cc->tail[i] == '\n')
		i++;
	while (end > i && cc->tail[end - 1] == '\n')
		end--;
	*from = i;
	*to = end;
}

void child_capture_text(const struct child_capture *cc, char *buf, size_t len)
{
	size_t i, end, pos = 0;

	*buf = '\0';
	tail_trim(cc, &i, &end);
	for (; i < end; i++)
		pos = esc_put(buf, len, pos, (unsigned char)cc->tail[i]);
}

void child_capture_latest(const struct child_capture *cc, char *buf, size_t len)
{
	size_t i, s, end, need = 0, room, pos = 0, k;

	*buf = '\0';
	if (!len)
		return;
	tail_trim(cc, &i, &end);
	for (s = end; s > i; s--)
		need += esc_width((unsigned char)cc->tail[s - 1]);
	s = i;
	if (need > len - 1) {
		/* from the end back while it fits, with room for "..." */
		room = len > 4 ? len - 4 : 0;
		for (s = end, need = 0; s > i; s--) {
			size_t w = esc_width((unsigned char)cc->tail[s - 1]);

			if (need + w > room)
				break;
			need += w;
		}
		/* whole lines when the latest fits: start after the first newline kept */
		for (k = s; k < end && cc->tail[k] != '\n'; k++)
			;
		if (s > i && cc->tail[s - 1] != '\n' && k < end)
			s = k + 1;
		else if (s > i && cc->tail[s - 1] != '\n')
			pos = bufcat(buf, len, pos, "...");
	}
	for (; s < end; s++)
		pos = esc_put(buf, len, pos, (unsigned char)cc->tail[s]);
}

void child_capture_close(struct child_capture *cc)
{
	if (cc->rfd >= 0)
		close(cc->rfd);
	cc->rfd = -1;
}
