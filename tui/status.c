/*
 * status.c - the one-line live status on stderr while a headless run goes:
 * per-interval rates (not running averages), phase, progress and ETA. Only
 * drawn when stderr is a terminal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

struct status_prev {
	uint64_t ns;
	uint64_t bytes[DDIR_RWDIR_CNT];
	uint64_t ios[DDIR_RWDIR_CNT];
};

static struct status_prev prev;

void status_line_init(struct status_line *s)
{
	memset(s, 0, sizeof(*s));
	memset(&prev, 0, sizeof(prev));
	s->enabled = isatty(STDERR_FILENO) && !getenv("RAIDBENCH_NO_STATUS");
}

static void rate_str(char *buf, size_t len, double bytes_per_s)
{
	const char *u[] = { "B/s", "KiB/s", "MiB/s", "GiB/s" };
	int i = 0;

	while (bytes_per_s >= 1024 * 10 && i < 3) {
		bytes_per_s /= 1024;
		i++;
	}
	snprintf(buf, len, "%.0f%s", bytes_per_s, u[i]);
}

void status_line_tick(void *arg, const struct run_tick *t)
{
	struct status_line *s = arg;
	double dt = (double)(t->elapsed_ns - prev.ns) / 1e9;
	char r[32], w[32], line[256];
	const char *phase = t->nr_layout ? "layout" : t->nr_ramp ? "ramp" :
			    t->nr_verify ? "verify" : "run";
	int n;

	if (!s->enabled || dt <= 0)
		return;
	rate_str(r, sizeof(r), (double)(t->bytes[DDIR_READ] - prev.bytes[DDIR_READ]) / dt);
	rate_str(w, sizeof(w), (double)(t->bytes[DDIR_WRITE] - prev.bytes[DDIR_WRITE]) / dt);
	n = snprintf(line, sizeof(line),
		     "Jobs: %u (%s): [%.1f%%][r=%s,w=%s][r=%.0f,w=%.0f IOPS][qd=%llu][eta %02llum:%02llus]",
		     t->nr_running, phase, t->percent, r, w,
		     (double)(t->ios[DDIR_READ] - prev.ios[DDIR_READ]) / dt,
		     (double)(t->ios[DDIR_WRITE] - prev.ios[DDIR_WRITE]) / dt,
		     (unsigned long long)t->inflight, (unsigned long long)(t->eta_s / 60),
		     (unsigned long long)(t->eta_s % 60));
	fprintf(stderr, "\r%s%*s", line, s->width > (size_t)n ? (int)(s->width - (size_t)n) : 0, "");
	fflush(stderr);
	s->width = (size_t)n;
	s->drawn = true;
	prev.ns = t->elapsed_ns;
	memcpy(prev.bytes, t->bytes, sizeof(prev.bytes));
	memcpy(prev.ios, t->ios, sizeof(prev.ios));
}

void status_line_clear(struct status_line *s)
{
	if (!s->drawn)
		return;
	fprintf(stderr, "\r%*s\r", (int)s->width, "");
	fflush(stderr);
	s->drawn = false;
}
