/*
 * engine_exec.c - ioengine=exec: runs the job file's program= beside the
 * group's other jobs, as fio's exec engine: arguments= split on spaces, %r
 * the job's runtime in seconds and %n its name; with std_redirect (the
 * default) its output goes to JOBNAME.stdout and JOBNAME.stderr in the
 * current directory. The job lasts its runtime; then the program gets
 * SIGTERM and, grace_time seconds later, SIGKILL. Each 100 ms tick counts as
 * a read of no bytes (fio's 50 ms sleep plus its 50 ms think time).
 *
 * The program is the user's: run by argv (never a shell), in its own process
 * group so the end signals reach what it started. It must not outlive the
 * job: cleanup kills it too. Its exit status, when it ended on its own and
 * not with 0, is the job's error.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "clock.h"
#include "engine.h"
#include "job.h"

#define TICK_NS 100000000ull	/* one "I/O": fio's 50 ms sleep and 50 ms think time */
#define EXEC_MAX_ARGS 256

extern char **environ;

struct exec_ctx {
	pid_t pid;		/* 0 before the start, -1 once reaped */
	int status;		/* wait status once reaped */
	bool killed;		/* it was stopped by the end signals, not on its own */
	uint64_t run_ns;	/* ramp and runtime */
	uint64_t deadline_ns;	/* the job's end (set by the first tick): the program stops then */
	bool over;		/* stopped at the end: no more ticks */
	unsigned grace_s;
	char what[512];		/* the command, for messages */
};

/* s with every "%r" and "%n" replaced, fio's way (plain substring replacement). Caller frees. */
static char *expand(const char *s, const struct job_spec *job)
{
	char rt[32];
	size_t cap = 1, n = 0;
	const char *p;
	char *out;

	snprintf(rt, sizeof(rt), "%llu", (unsigned long long)(job->runtime_us / 1000000));
	for (p = s; *p; p++)
		cap += (p[0] == '%' && (p[1] == 'r' || p[1] == 'n')) ? strlen(rt) +
			strlen(job->name) : 1;
	out = malloc(cap);
	if (!out)
		return NULL;
	for (p = s; *p; p++) {
		const char *with = NULL;

		if (p[0] == '%' && p[1] == 'r')
			with = rt;
		else if (p[0] == '%' && p[1] == 'n')
			with = job->name;
		if (with) {
			memcpy(out + n, with, strlen(with));
			n += strlen(with);
			p++;
		} else {
			out[n++] = *p;
		}
	}
	out[n] = '\0';
	return out;
}

/*
 * "program arguments" with %r/%n expanded, split on spaces into argv (fio
 * knows no quotes). Returns the joined line (argv points into it), caller
 * frees; NULL on no memory. *argc 0: nothing to run.
 */
static char *build_argv(const struct job_spec *job, char **argv, int *argc)
{
	const char *args = job->exec_arguments ? job->exec_arguments : "";
	char *line, *joined, *save = NULL, *tok;
	size_t n = strlen(job->exec_program) + strlen(args) + 2;

	joined = malloc(n);
	if (!joined)
		return NULL;
	snprintf(joined, n, "%s%s%s", job->exec_program, *args ? " " : "", args);
	line = expand(joined, job);
	free(joined);
	if (!line)
		return NULL;
	*argc = 0;
	for (tok = strtok_r(line, " ", &save); tok && *argc < EXEC_MAX_ARGS;
	     tok = strtok_r(NULL, " ", &save))
		argv[(*argc)++] = tok;
	argv[*argc] = NULL;
	return line;
}

/* The command as it will run, for --parse-only and messages. */
static void command_text(const struct job_spec *job, char *buf, size_t len)
{
	char *argv[EXEC_MAX_ARGS + 1], *line;
	size_t at = 0;
	int argc = 0, i;

	*buf = '\0';
	if (!job->exec_program || !(line = build_argv(job, argv, &argc)))
		return;
	for (i = 0; i < argc && at < len; i++) {
		int w = snprintf(buf + at, len - at, "%s%s", i ? " " : "", argv[i]);

		if (w < 0)
			break;
		at += (size_t)w;
	}
	free(line);
}

static int exec_check(const struct job_spec *job, char *why, size_t len)
{
	if (!job->exec_program || !*job->exec_program) {
		snprintf(why, len, "ioengine=exec needs program= (the command to run)");
		return -EINVAL;
	}
	if (!job->runtime_us) {
		snprintf(why, len, "ioengine=exec needs runtime= (the program is stopped at the "
			 "end of it)");
		return -EINVAL;
	}
	return 0;
}

static void exec_describe(const struct job_spec *job, char *buf, size_t len)
{
	char cmd[768];

	command_text(job, cmd, sizeof(cmd));
	if (job->exec_std_redirect)
		snprintf(buf, len, "runs '%s' for %llus (stdout to %s.stdout, stderr to "
			 "%s.stderr)", cmd, (unsigned long long)(job->runtime_us / 1000000),
			 job->name, job->name);
	else
		snprintf(buf, len, "runs '%s' for %llus (its output goes to raidbench's)", cmd,
			 (unsigned long long)(job->runtime_us / 1000000));
}

static int exec_init(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
		     unsigned nr_units, char *err, size_t errlen)
{
	struct exec_ctx *c = calloc(1, sizeof(*c));

	if (!c) {
		snprintf(err, errlen, "exec: cannot allocate a context");
		return -ENOMEM;
	}
	*ctx = (struct engine_ctx *)c;
	return 0;
}

/* Collects the program's status if it has ended; true once it has. */
static bool reaped(struct exec_ctx *c, bool block)
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

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ull),
			       .tv_nsec = (long)(ns % 1000000000ull) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* SIGTERM to its group, SIGKILL after grace_time if it is still there; reaps it. */
static void stop_program(struct exec_ctx *c)
{
	uint64_t until;

	if (reaped(c, false))
		return;
	c->killed = true;
	kill(-c->pid, SIGTERM);
	until = rb_now_ns() + (uint64_t)c->grace_s * 1000000000ull;
	while (rb_now_ns() < until) {
		if (reaped(c, false))
			return;
		sleep_ns(10000000);
	}
	kill(-c->pid, SIGKILL);
	reaped(c, true);
}

/* A spawn file action: fd to path, created and truncated as fio does. */
static int redirect(posix_spawn_file_actions_t *fa, int fd, const char *name, const char *ext,
		    char *path, size_t len)
{
	snprintf(path, len, "%s.%s", name, ext);
	return posix_spawn_file_actions_addopen(fa, fd, path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
}

static int exec_configure(struct engine_ctx *ctx, const struct job_spec *job, char *err,
			  size_t errlen)
{
	struct exec_ctx *c = (struct exec_ctx *)ctx;
	char *argv[EXEC_MAX_ARGS + 1], *line, out[4096], errf[4096];
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, dfl;
	int argc = 0, ret;

	c->grace_s = job->exec_grace_s;
	c->run_ns = (job->ramp_time_us + job->runtime_us) * 1000;
	command_text(job, c->what, sizeof(c->what));
	line = build_argv(job, argv, &argc);
	if (!line) {
		snprintf(err, errlen, "exec: cannot allocate the command line");
		return -ENOMEM;
	}
	if (!argc) {
		free(line);
		snprintf(err, errlen, "exec: program= names no command");
		return -EINVAL;
	}
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
	ret = 0;
	if (job->exec_std_redirect)
		ret = redirect(&fa, 1, job->name, "stdout", out, sizeof(out)) ||
		      redirect(&fa, 2, job->name, "stderr", errf, sizeof(errf));
	if (!ret)
		ret = posix_spawnp(&c->pid, argv[0], &fa, &attr, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	if (ret) {
		snprintf(err, errlen, "exec: cannot run '%s': %s", c->what, strerror(ret));
		c->pid = 0;
		free(line);
		return -ret;
	}
	free(line);
	/* glibc reports an exec failure (no such program) as an exit status of 127 */
	return 0;
}

static int exec_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct exec_ctx *c = (struct exec_ctx *)ctx;
	uint64_t now = rb_now_ns();

	/* the program was stopped at the end: the job is over (fio ends it there too) */
	if (c->over)
		return ENGINE_DONE;
	/* the job's clock starts with its first I/O: the end is measured from there */
	if (!c->deadline_ns)
		c->deadline_ns = now + c->run_ns;
	sleep_ns(now + TICK_NS < c->deadline_ns ? TICK_NS
		 : c->deadline_ns > now ? c->deadline_ns - now : 0);
	reaped(c, false);
	if (rb_now_ns() >= c->deadline_ns) {
		stop_program(c);
		c->over = true;
	}
	u->error = 0;
	u->resid = u->len;	/* no bytes: fio's exec counts the tick and nothing moved */
	return ENGINE_COMPLETED;
}

static int exec_end(struct engine_ctx *ctx, char *err, size_t errlen)
{
	struct exec_ctx *c = (struct exec_ctx *)ctx;

	if (!c || !c->pid)
		return 0;
	stop_program(c);
	if (c->killed)
		return 0;
	if (WIFEXITED(c->status) && WEXITSTATUS(c->status) == 127) {
		snprintf(err, errlen, "exec: '%s' exited with status 127 (the program may not "
			 "exist or not be executable)", c->what);
		return -ENOENT;
	}
	if (WIFEXITED(c->status) && WEXITSTATUS(c->status)) {
		snprintf(err, errlen, "exec: '%s' exited with status %d", c->what,
			 WEXITSTATUS(c->status));
		return -ECHILD;
	}
	if (WIFSIGNALED(c->status)) {
		snprintf(err, errlen, "exec: '%s' was killed by signal %d (%s)", c->what,
			 WTERMSIG(c->status), strsignal(WTERMSIG(c->status)));
		return -ECHILD;
	}
	return 0;
}

static void exec_cleanup(struct engine_ctx *ctx)
{
	struct exec_ctx *c = (struct exec_ctx *)ctx;

	/* a job stopped before its end hook still takes its program with it */
	if (c && c->pid > 0) {
		kill(-c->pid, SIGKILL);
		reaped(c, true);
	}
	free(c);
}

const struct io_engine_ops engine_exec_ops = {
	.name = "exec",
	.flags = ENGINE_F_SYNC | ENGINE_F_DISKLESS | ENGINE_F_NOXFER,
	.init = exec_init,
	.configure = exec_configure,
	.queue = exec_queue,
	.commit = engine_sync_commit,
	.getevents = engine_sync_getevents,
	.event = engine_sync_event,
	.cleanup = exec_cleanup,
	.check_job = exec_check,
	.describe = exec_describe,
	.end = exec_end,
};
