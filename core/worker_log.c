/*
 * worker_log.c - fio's per-job log files (write_bw_log, write_lat_log,
 * write_iops_log): "msec, value, ddir, bs, prio" lines (with log_offset
 * "msec, value, ddir, bs, offset, prio"; log_prio writes prio in hex), one per I/O, or one
 * per log_avg_msec window (value averaged, bs 0). Latencies in ns, bandwidth
 * in KiB/s when windowed and bytes*1e6/clat_ns per I/O (as fio writes it),
 * IOPS as a count (1 per I/O) or a rate per window.
 *
 * Files are created before any I/O, so a bad path stops the run early.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guard.h"
#include "worker.h"
#include "worker_int.h"

enum { LOG_BW, LOG_IOPS, LOG_CLAT, LOG_SLAT, LOG_LAT, LOG_NR };

struct log_file {
	FILE *f;
	uint64_t sum[DDIR_RWDIR_CNT];	/* bytes, ios or ns in the window */
	uint64_t n[DDIR_RWDIR_CNT];
};

struct worker_logs {
	struct log_file lf[LOG_NR];
	uint64_t base_ns;		/* time zero of the msec column */
	uint64_t win_ns;		/* log_avg_msec in ns, 0 = every I/O */
	uint64_t win_start;
	bool slat;
	bool offset;			/* log_offset */
	bool prio_hex;			/* log_prio */
};

static int open_one(struct worker *w, struct log_file *lf, const char *prefix,
		    const char *kind, char *err, size_t errlen)
{
	char path[4096], why[1024] = "";
	int fd, e;

	/* per_job_logs=0: fio leaves the job's index out of the name */
	if (w->job->per_job_logs)
		snprintf(path, sizeof(path), "%s_%s.%u.log", prefix, kind, w->index + 1);
	else
		snprintf(path, sizeof(path), "%s_%s.log", prefix, kind);
	/* A log is a write like any other: the name may be a disk or back one. */
	fd = guard_open_write(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, w->consent, why,
			      sizeof(why));
	if (fd < 0) {
		if (why[0])
			snprintf(err, errlen, "job '%s': %s", w->job->name, why);
		else
			snprintf(err, errlen, "job '%s': cannot create the log %s: %s", w->job->name,
				 path, strerror(-fd));
		return fd;
	}
	lf->f = fdopen(fd, "w");
	if (!lf->f) {
		e = errno;
		guard_close(fd);
		snprintf(err, errlen, "job '%s': cannot create the log %s: %s", w->job->name, path,
			 strerror(e));
		return -e;
	}
	setvbuf(lf->f, NULL, _IOFBF, 1 << 16);
	return 0;
}

int worker_logs_open(struct worker *w, char *err, size_t errlen)
{
	const struct job_spec *job = w->job;
	struct worker_logs *lg;
	int ret = 0;

	if (!job->write_bw_log && !job->write_lat_log && !job->write_iops_log)
		return 0;
	lg = calloc(1, sizeof(*lg));
	if (!lg)
		return -ENOMEM;
	w->logs = lg;
	lg->win_ns = (uint64_t)job->log_avg_msec * 1000000ull;
	lg->offset = job->log_offset;
	lg->prio_hex = job->log_prio;
	if (job->write_bw_log)
		ret = open_one(w, &lg->lf[LOG_BW], job->write_bw_log, "bw", err, errlen);
	if (!ret && job->write_iops_log)
		ret = open_one(w, &lg->lf[LOG_IOPS], job->write_iops_log, "iops", err, errlen);
	if (!ret && job->write_lat_log) {
		ret = open_one(w, &lg->lf[LOG_CLAT], job->write_lat_log, "clat", err, errlen);
		if (!ret)
			ret = open_one(w, &lg->lf[LOG_SLAT], job->write_lat_log, "slat", err, errlen);
		if (!ret)
			ret = open_one(w, &lg->lf[LOG_LAT], job->write_lat_log, "lat", err, errlen);
	}
	return ret;
}

void worker_logs_start(struct worker *w, uint64_t base_ns)
{
	if (!w->logs)
		return;
	w->logs->base_ns = base_ns;
	w->logs->win_start = base_ns;
	w->logs->slat = !w->sync_io;
}

/* One log line, in fio's layout for the options given. */
static void line(const struct worker_logs *lg, FILE *f, uint64_t msec, uint64_t v, int d,
		 uint32_t bs, uint64_t offset)
{
	fprintf(f, "%llu, %llu, %d, %u", (unsigned long long)msec, (unsigned long long)v, d, bs);
	if (lg->offset)
		fprintf(f, ", %llu", (unsigned long long)offset);
	fputs(lg->prio_hex ? ", 0x0000\n" : ", 0\n", f);
}

static void flush_window(struct worker_logs *lg, uint64_t end_ns)
{
	uint64_t msec = (end_ns - lg->base_ns) / 1000000, win_ms;
	int k, d;

	win_ms = (end_ns - lg->win_start) / 1000000;
	for (k = 0; k < LOG_NR; k++) {
		struct log_file *lf = &lg->lf[k];

		if (!lf->f)
			continue;
		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			uint64_t v;

			if (!lf->n[d])
				continue;
			if (k == LOG_BW)
				v = win_ms ? lf->sum[d] * 1000 / win_ms / 1024 : 0;
			else if (k == LOG_IOPS)
				v = win_ms ? lf->n[d] * 1000 / win_ms : 0;
			else
				v = lf->sum[d] / lf->n[d];
			line(lg, lf->f, msec, v, d, 0, 0);
			lf->sum[d] = 0;
			lf->n[d] = 0;
		}
	}
	lg->win_start = end_ns;
}

static void one(const struct worker_logs *lg, const struct log_file *lf, uint64_t msec,
		uint64_t v, int d, uint32_t bs, uint64_t offset)
{
	if (lf->f)
		line(lg, lf->f, msec, v, d, bs, offset);
}

void worker_logs_io(struct worker *w, int d, uint32_t bytes, uint64_t slat, uint64_t clat,
		    uint64_t lat, uint64_t comp_ns, uint64_t offset)
{
	struct worker_logs *lg = w->logs;

	if (lg->win_ns) {
		if (comp_ns - lg->win_start >= lg->win_ns)
			flush_window(lg, comp_ns);
		lg->lf[LOG_BW].sum[d] += bytes;
		lg->lf[LOG_BW].n[d]++;
		lg->lf[LOG_IOPS].n[d]++;
		lg->lf[LOG_CLAT].sum[d] += clat;
		lg->lf[LOG_CLAT].n[d]++;
		lg->lf[LOG_LAT].sum[d] += lat;
		lg->lf[LOG_LAT].n[d]++;
		if (lg->slat) {
			lg->lf[LOG_SLAT].sum[d] += slat;
			lg->lf[LOG_SLAT].n[d]++;
		}
		return;
	}
	{
		uint64_t msec = comp_ns > lg->base_ns ? (comp_ns - lg->base_ns) / 1000000 : 0;

		one(lg, &lg->lf[LOG_BW], msec, clat ? (uint64_t)bytes * 1000000ull / clat : 0, d,
		    bytes, offset);
		one(lg, &lg->lf[LOG_IOPS], msec, 1, d, bytes, offset);
		one(lg, &lg->lf[LOG_CLAT], msec, clat, d, bytes, offset);
		one(lg, &lg->lf[LOG_LAT], msec, lat, d, bytes, offset);
		if (lg->slat)
			one(lg, &lg->lf[LOG_SLAT], msec, slat, d, bytes, offset);
	}
}

int worker_logs_close(struct worker *w, uint64_t end_ns)
{
	struct worker_logs *lg = w->logs;
	int k, ret = 0;

	if (!lg)
		return 0;
	if (lg->win_ns && end_ns)
		flush_window(lg, end_ns);
	for (k = 0; k < LOG_NR; k++)
		if (lg->lf[k].f && fclose(lg->lf[k].f) && !ret)
			ret = -errno;
	free(lg);
	w->logs = NULL;
	return ret;
}
