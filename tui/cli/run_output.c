/*
 * run_output.c - the files a headless run writes its reports and live lines
 * to (--output, --live). Opened when the command line is read, so a bad path
 * fails before anything runs, but emptied only when the run starts: a run
 * that is refused, or a job file that does not parse, leaves an existing
 * file as it was (and removes one it created). Every write error is kept
 * with its errno, so the caller can name the file and the reason.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "guard.h"

int run_output_open(struct run_output *o, const char *path, const struct guard_consent *consent,
		    char *err, size_t errlen)
{
	struct guard_consent c = { 0 };
	int fd;

	memset(o, 0, sizeof(*o));
	if (!path) {
		o->f = stdout;
		return 0;
	}
	o->path = path;
	/*
	 * A report is written like any target: not over a mounted file system's
	 * image, a disk with data or a file backing a loop device. --readonly
	 * is about the jobs' targets, not the report.
	 */
	if (consent)
		c = *consent;
	c.readonly = false;
	if (guard_check_write(path, &c, err, errlen))
		return -EPERM;
	/* no O_TRUNC: nothing is emptied before the run starts */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd >= 0)
		o->created = true;
	else if (errno == EEXIST)
		fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		if (o->created)
			unlink(path);
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(e));
		return -e;
	}
	return 0;
}

void run_output_start(struct run_output *o)
{
	struct stat st;

	if (!o->f || o->started)
		return;
	o->started = true;
	/* fio's --output truncates; a device or a pipe has nothing to truncate */
	if (o->path && fstat(fileno(o->f), &st) == 0 && S_ISREG(st.st_mode) &&
	    ftruncate(fileno(o->f), 0) < 0 && !o->error)
		o->error = -errno;
}

int run_output_flush(struct run_output *o)
{
	int before = errno;	/* a write that failed inside the writer left its errno here */

	if (!o->f)
		return o->error;
	errno = 0;
	if (fflush(o->f) == EOF && !o->error)
		o->error = errno ? -errno : -EIO;
	if (ferror(o->f) && !o->error)
		o->error = before ? -before : -EIO;
	return o->error;
}

int run_output_close(struct run_output *o, char *err, size_t errlen)
{
	int ret;

	if (!o->f)
		return 0;
	ret = run_output_flush(o);
	if (o->f != stdout && fclose(o->f) == EOF && !ret)
		ret = -errno;
	o->f = NULL;
	if (o->path && o->created && !o->started)
		unlink(o->path);	/* the run never started: leave no empty file behind */
	if (ret)
		snprintf(err, errlen, "cannot write %s: %s", o->path ? o->path : "standard output",
			 strerror(-ret));
	return ret;
}
