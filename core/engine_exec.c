/*
 * engine_exec.c - ioengine=exec: runs the job file's program= beside the
 * group's other jobs, as fio's exec engine: arguments= split on spaces, %r
 * the job's runtime in seconds and %n its name; with std_redirect (the
 * default) its output goes to JOBNAME.stdout and JOBNAME.stderr in the
 * current directory, writes like any other: the worker puts them through
 * the write guard at setup (output_file) and they are opened through it
 * here, under the run's consent. Its stdin is /dev/null where fio's
 * inherits fio's (child.c says why). With std_redirect=0 its output is
 * raidbench's, as fio's, except where the TUI owns the terminal: there it
 * goes into a pipe drained each tick: its latest lines, escaped, go to the
 * live view while it runs (engine_tuning's live_text, a mailbox the sampler
 * empties each tick into LIVE_TEXT records), and the job's note shows its
 * last lines once the job ends (on the Run screen, as exec_prerun's notes).
 * The job lasts its runtime; then the
 * program gets SIGTERM and, grace_time seconds later, SIGKILL. Each 100 ms
 * tick counts as a read of no bytes (fio's 50 ms sleep plus its 50 ms think
 * time).
 *
 * The program is the user's: run by argv (never a shell), in its own process
 * group so the end signals reach what it started. It must not outlive the
 * job: cleanup kills it too. Its exit status, when it ended on its own and
 * not with 0, is the job's error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "bufcat.h"
#include "child.h"
#include "clock.h"
#include "engine.h"
#include "guard.h"
#include "job.h"
#include "mailbox.h"

#define TICK_NS 100000000ull	/* one "I/O": fio's 50 ms sleep and 50 ms think time */
#define EXEC_MAX_ARGS 256

struct exec_ctx {
	struct child prog;
	uint64_t run_ns;	/* ramp and runtime */
	uint64_t deadline_ns;	/* the job's end (set by the first tick): the program stops then */
	bool over;		/* stopped at the end: no more ticks */
	unsigned grace_s;
	const struct guard_consent *consent;	/* the run's, for the output files */
	char what[512];		/* the command, for messages */
	bool capturing;		/* std_redirect=0 under the TUI: output caught in cap */
	struct child_capture cap;
	struct mailbox *live;	/* the worker's, for its latest output while it runs; NULL none */
	unsigned long long shown;	/* cap.total when it was last put there */
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
		snprintf(buf, len, "runs '%s' for %llus (stdin from /dev/null, stdout to "
			 "%s.stdout, stderr to %s.stderr)", cmd,
			 (unsigned long long)(job->runtime_us / 1000000), job->name, job->name);
	else if (child_screen_owned())
		snprintf(buf, len, "runs '%s' for %llus (stdin from /dev/null, its latest output "
			 "lines shown while it runs and when the job ends)", cmd,
			 (unsigned long long)(job->runtime_us / 1000000));
	else
		snprintf(buf, len, "runs '%s' for %llus (stdin from /dev/null, its output goes "
			 "to raidbench's)", cmd, (unsigned long long)(job->runtime_us / 1000000));
}

/* With std_redirect: JOBNAME.stdout (i 0) and JOBNAME.stderr (i 1), fio's names. */
static int exec_output_file(const struct job_spec *job, unsigned i, char *buf, size_t len)
{
	static const char *const ext[] = { "stdout", "stderr" };

	if (!job->exec_std_redirect || i >= sizeof(ext) / sizeof(ext[0]))
		return -ENOENT;
	snprintf(buf, len, "%s.%s", job->name, ext[i]);
	return 0;
}

static int exec_init_tuned(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
			   unsigned nr_units, const struct engine_tuning *tune, char *err,
			   size_t errlen)
{
	struct exec_ctx *c = calloc(1, sizeof(*c));

	if (!c) {
		snprintf(err, errlen, "exec: cannot allocate a context");
		return -ENOMEM;
	}
	c->consent = tune ? tune->consent : NULL;
	c->live = tune ? tune->live_text : NULL;
	c->cap.rfd = -1;
	*ctx = (struct engine_ctx *)c;
	return 0;
}

/* Without the run's context (no worker): the output files are guarded with no consent. */
static int exec_init(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
		     unsigned nr_units, char *err, size_t errlen)
{
	return exec_init_tuned(ctx, depth, units, nr_units, NULL, err, errlen);
}

/*
 * fd for the i-th output file, created and truncated as fio does but through
 * the write guard (checked at setup; the file may have changed since);
 * -errno with err saying why.
 */
static int redirect(const struct exec_ctx *c, const struct job_spec *job, unsigned i,
		    char *err, size_t errlen)
{
	char path[4096], why[1024] = "";
	int fd;

	exec_output_file(job, i, path, sizeof(path));
	fd = guard_open_write(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, c->consent, why,
			      sizeof(why));
	if (fd < 0)
		snprintf(err, errlen, "exec's output: %s", why[0] ? why : strerror(-fd));
	return fd;
}

static int exec_configure(struct engine_ctx *ctx, const struct job_spec *job, char *err,
			  size_t errlen)
{
	struct exec_ctx *c = (struct exec_ctx *)ctx;
	char *argv[EXEC_MAX_ARGS + 1], *line;
	int argc = 0, ret, out = -1, errfd = -1;

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
	if (job->exec_std_redirect) {
		ret = out = redirect(c, job, 0, err, errlen);
		if (ret >= 0)
			ret = errfd = redirect(c, job, 1, err, errlen);
		if (ret < 0)
			goto out;
	} else if (child_screen_owned()) {
		/* the TUI draws the terminal: the output would write over its screen */
		ret = child_capture_open(&c->cap, &out);
		if (ret < 0) {
			snprintf(err, errlen, "exec: cannot make a pipe for its output: %s",
				 strerror(-ret));
			goto out;
		}
		c->capturing = true;
		errfd = out;
	}
	/* stdin -1: /dev/null (child_spawn) */
	ret = child_spawn(&c->prog, argv[0], argv, -1, out, errfd);
	if (ret)
		snprintf(err, errlen, "exec: cannot run '%s': %s", c->what, strerror(-ret));
	/* glibc reports an exec failure (no such program) as an exit status of 127 */
out:
	if (c->capturing) {
		close(out);	/* the child has its copy: EOF once it (and what it started) ends */
		out = errfd = -1;
	}
	if (out >= 0)
		guard_close(out);
	if (errfd >= 0)
		guard_close(errfd);
	free(line);
	return ret < 0 ? ret : 0;
}

/* What it wrote since the last look: its latest lines to the live view (never waits). */
static void show_latest(struct exec_ctx *c)
{
	char text[MAILBOX_TEXT_MAX];

	if (!c->capturing || !c->live || c->cap.total == c->shown)
		return;
	child_capture_latest(&c->cap, text, sizeof(text));
	mailbox_put(c->live, text);
	c->shown = c->cap.total;
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
	rb_sleep_ns(now + TICK_NS < c->deadline_ns ? TICK_NS
		 : c->deadline_ns > now ? c->deadline_ns - now : 0);
	child_reaped(&c->prog, false);
	if (c->capturing)
		child_capture_drain(&c->cap);
	show_latest(c);
	if (rb_now_ns() >= c->deadline_ns) {
		child_stop(&c->prog, c->grace_s);
		c->over = true;
	}
	u->error = 0;
	u->resid = u->len;	/* no bytes: fio's exec counts the tick and nothing moved */
	return ENGINE_COMPLETED;
}

static int exec_end(struct engine_ctx *ctx, char *err, size_t errlen)
{
	struct exec_ctx *c = (struct exec_ctx *)ctx;
	char how[128], said[768] = "";
	size_t pos = 0;
	int ret = 0;

	if (!c || !c->prog.pid)
		return 0;
	child_stop(&c->prog, c->grace_s);
	if (!c->prog.killed)
		ret = child_status(&c->prog, how, sizeof(how));
	if (ret)
		pos = bufcat(err, errlen, 0, "exec: '%s' %s", c->what, how);
	if (c->capturing) {
		child_capture_drain(&c->cap);
		show_latest(c);	/* the job's last tick: the sampler's last look takes it */
		child_capture_text(&c->cap, said, sizeof(said));
		/* with no error, a note (engine.h's end()) */
		if (said[0] && c->cap.total > c->cap.len)
			bufcat(err, errlen, pos, "%sits program wrote %llu bytes, the last: %s",
			       pos ? "; " : "", c->cap.total, said);
		else if (said[0])
			bufcat(err, errlen, pos, "%sits program wrote: %s", pos ? "; " : "", said);
	}
	return ret;
}

static void exec_cleanup(struct engine_ctx *ctx)
{
	struct exec_ctx *c = (struct exec_ctx *)ctx;

	/* a job stopped before its end hook still takes its program with it */
	if (c) {
		child_kill(&c->prog);
		child_capture_close(&c->cap);
	}
	free(c);
}

const struct io_engine_ops engine_exec_ops = {
	.name = "exec",
	.flags = ENGINE_F_SYNC | ENGINE_F_DISKLESS | ENGINE_F_NOXFER,
	.init = exec_init,
	.init_tuned = exec_init_tuned,
	.configure = exec_configure,
	.queue = exec_queue,
	.commit = engine_sync_commit,
	.getevents = engine_sync_getevents,
	.event = engine_sync_event,
	.cleanup = exec_cleanup,
	.check_job = exec_check,
	.describe = exec_describe,
	.output_file = exec_output_file,
	.end = exec_end,
};
