/*
 * job_cmd.c - exec_prerun= / exec_postrun= (job_cmd.h). fio hands the
 * command with "> JOBNAME.MODE.txt 2>&1" appended to system(3); here the
 * shell gets the command alone with its stdout and stderr already on that
 * file, so all of its output lands there, none on the terminal (fio's
 * appended redirection catches only the last command of a list). The file
 * is a write like any other: it goes through the guard.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "child.h"
#include "clock.h"
#include "job_cmd.h"

#define GRACE_S 1	/* a stopped command's SIGTERM to SIGKILL */

static void out_path(const struct job_spec *job, bool post, char *buf, size_t len)
{
	snprintf(buf, len, "%s.%s.txt", job->name, post ? "postrun" : "prerun");
}

int job_cmd_check(const struct job_spec *job, const struct guard_consent *consent, char *err,
		  size_t errlen)
{
	char path[4096], why[1024] = "";
	int post, ret;

	for (post = 0; post < 2; post++) {
		if (!(post ? job->exec_postrun : job->exec_prerun))
			continue;
		out_path(job, post, path, sizeof(path));
		ret = guard_check_write(path, consent, why, sizeof(why));
		if (ret) {
			snprintf(err, errlen, "job '%s': exec_%s's output: %s", job->name,
				 post ? "postrun" : "prerun", why);
			return ret;
		}
	}
	return 0;
}

int job_cmd_run(const struct job_spec *job, bool post, const struct guard_consent *consent,
		const _Atomic bool *stop, char *msg, size_t msglen)
{
	const char *cmd = post ? job->exec_postrun : job->exec_prerun;
	const char *opt = post ? "exec_postrun" : "exec_prerun";
	char path[4096], why[1024] = "", how[160];
	/* system(3)'s argv: the command sees $0 as "sh" */
	char *argv[] = { "sh", "-c", (char *)cmd, NULL };
	struct child c;
	int out, ret;

	if (!cmd)
		return 0;
	out_path(job, post, path, sizeof(path));
	out = guard_open_write(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, consent, why,
			       sizeof(why));
	if (out < 0) {
		if (why[0])
			snprintf(msg, msglen, "job '%s': %s '%s' not run: %s", job->name, opt, cmd,
				 why);
		else
			snprintf(msg, msglen, "job '%s': %s '%s' not run: cannot create %s: %s",
				 job->name, opt, cmd, path, strerror(-out));
		return out;
	}
	/* stdin -1: /dev/null (child_spawn), as for every child */
	ret = child_spawn(&c, "/bin/sh", argv, -1, out, out);
	guard_close(out);
	if (ret) {
		snprintf(msg, msglen, "job '%s': %s '%s' not run: cannot start /bin/sh: %s",
			 job->name, opt, cmd, strerror(-ret));
		return ret;
	}
	/* short sleeps: a quick command ends the wait quickly; a stop is seen within 20 ms */
	for (unsigned ms = 1; !child_reaped(&c, false); ms = ms < 20 ? ms * 2 : 20) {
		if (atomic_load_explicit(stop, memory_order_relaxed)) {
			child_stop(&c, GRACE_S);
			snprintf(msg, msglen, "job '%s': %s '%s' was stopped with the run", job->name,
				 opt, cmd);
			return -EINTR;
		}
		rb_sleep_ns(ms * 1000000ull);
	}
	ret = child_status(&c, how, sizeof(how));
	if (ret)
		snprintf(msg, msglen, "job '%s': %s '%s' %s (its output is in %s)", job->name, opt,
			 cmd, how, path);
	return ret;
}
