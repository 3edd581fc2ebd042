/*
 * worker_iolog.c - write_iolog: the I/Os a job issues, in fio's iolog
 * version 3 text format, so fio (read_iolog) or raidbench can replay them:
 *   fio version 3 iolog
 *   <usec> <file> add|open|close
 *   <usec> <file> read|write|trim|sync|datasync <offset> <length>
 * with usec counted from the log's start. Written by the worker's thread
 * only; a failed write shows as an error when the log is closed. Like fio,
 * an existing log is appended to.
 */
#include <errno.h>
#include <string.h>
#include "clock.h"
#include "worker_int.h"

static unsigned long long since(const struct worker *w)
{
	return (unsigned long long)((rb_now_ns() - w->iolog_t0) / 1000);
}

int worker_iolog_open(struct worker *w, char *err, size_t errlen)
{
	unsigned i;

	if (!w->job->write_iolog)
		return 0;
	/* appended to, as fio does: clones sharing the name add their own sections */
	w->iolog = fopen(w->job->write_iolog, "ae");
	if (!w->iolog) {
		int e = errno;

		snprintf(err, errlen, "job '%s': write_iolog=%s: %s", w->job->name,
			 w->job->write_iolog, strerror(e));
		return -e;
	}
	/* whole lines per write, so clones appending at once never split a line */
	setvbuf(w->iolog, NULL, _IOLBF, 0);
	w->iolog_t0 = rb_now_ns();
	fprintf(w->iolog, "fio version 3 iolog\n");
	for (i = 0; i < w->nr_files; i++)
		fprintf(w->iolog, "0 %s add\n", w->files[i].path);
	for (i = 0; i < w->nr_files; i++)
		fprintf(w->iolog, "0 %s open\n", w->files[i].path);
	return 0;
}

void worker_iolog_io(struct worker *w, const struct io_unit *u)
{
	static const char *const names[] = { "read", "write", "trim" };
	const char *what;

	if (!w->iolog)
		return;
	if (u->ddir < DDIR_RWDIR_CNT)
		what = names[u->ddir];
	else
		what = u->datasync ? "datasync" : "sync";
	if (fprintf(w->iolog, "%llu %s %s %llu %u\n", since(w), w->files[u->file_idx].path, what,
		    (unsigned long long)u->offset, u->len) < 0 && !w->iolog_errno)
		w->iolog_errno = errno ? errno : EIO;
}

int worker_iolog_close(struct worker *w)
{
	unsigned i;
	int ret = 0;

	if (!w->iolog)
		return 0;
	for (i = 0; i < w->nr_files; i++)
		fprintf(w->iolog, "%llu %s close\n", since(w), w->files[i].path);
	/* a write that failed on the way (a full disk) said why; else the close's flush */
	if (w->iolog_errno || ferror(w->iolog))
		ret = -(w->iolog_errno ? w->iolog_errno : EIO);
	if (fclose(w->iolog) && !ret)
		ret = errno ? -errno : -EIO;
	w->iolog = NULL;
	return ret;
}
