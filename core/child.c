/*
 * child.c - spawning, stopping and reaping a job's program (child.h). The
 * program is the user's: run by argv, never through a shell of ours; a
 * caller that wants a shell names /bin/sh in argv.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include "child.h"
#include "clock.h"

extern char **environ;

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
