/*
 * status.c - the one-line live status on stderr while a headless run goes:
 * per-interval rates and p99 latency (not running averages), phase,
 * progress, ETA and dropped live records. Drawn only when stderr is a
 * terminal. Fed by the live ring's records (core/ring.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "ring.h"

void status_line_init(struct status_line *s)
{
	memset(s, 0, sizeof(*s));
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

static void lat_str(char *buf, size_t len, uint32_t ns)
{
	if (ns >= 10000000)
		snprintf(buf, len, "%ums", ns / 1000000);
	else if (ns >= 10000)
		snprintf(buf, len, "%uus", ns / 1000);
	else
		snprintf(buf, len, "%uns", ns);
}

static void draw(struct status_line *s)
{
	double dt = s->interval_ns ? (double)s->interval_ns / 1e9 : 0;
	char r[32], w[32], lr[16], lw[16], line[256];
	const char *phase = s->ramp ? "ramp" : "run";
	int n;

	if (dt <= 0)
		return;
	rate_str(r, sizeof(r), (double)s->bytes[DDIR_READ] / dt);
	rate_str(w, sizeof(w), (double)s->bytes[DDIR_WRITE] / dt);
	lat_str(lr, sizeof(lr), s->p99[DDIR_READ]);
	lat_str(lw, sizeof(lw), s->p99[DDIR_WRITE]);
	n = snprintf(line, sizeof(line),
		     "Jobs: %u (%s): [%.1f%%][r=%s,w=%s][r=%.0f,w=%.0f IOPS][p99 r=%s,w=%s]"
		     "[qd=%u]%s[eta %02llum:%02llus]",
		     s->running, phase, s->percent, r, w, (double)s->ios[DDIR_READ] / dt,
		     (double)s->ios[DDIR_WRITE] / dt, lr, lw, s->inflight,
		     s->drops ? "[live records dropped]" : "",
		     (unsigned long long)(s->eta_s / 60), (unsigned long long)(s->eta_s % 60));
	fprintf(stderr, "\r%s%*s", line, s->width > (size_t)n ? (int)(s->width - (size_t)n) : 0, "");
	fflush(stderr);
	s->width = (size_t)n;
	s->drawn = true;
}

void status_line_record(struct status_line *s, const struct live_rec *rec)
{
	if (!s->enabled)
		return;
	switch (rec->type) {
	case LIVE_IO:
		if (rec->job == LIVE_TOTAL && rec->ddir < DDIR_RWDIR_CNT) {
			s->ios[rec->ddir] = rec->u.io.ios;
			s->bytes[rec->ddir] = rec->u.io.bytes;
			s->p99[rec->ddir] = rec->u.io.p99_ns;
		}
		break;
	case LIVE_STATUS:
		if (rec->job == LIVE_TOTAL) {
			s->running = rec->u.st.running;
			s->ramp = rec->u.st.ramp;
			s->percent = rec->u.st.percent;
			s->eta_s = rec->u.st.eta_s;
			s->inflight = rec->u.st.inflight;
			s->interval_ns = rec->u.st.interval_ns;
			s->drops = rec->u.st.drops;
		}
		break;
	case LIVE_TICK_END:
		draw(s);
		memset(s->ios, 0, sizeof(s->ios));
		memset(s->bytes, 0, sizeof(s->bytes));
		memset(s->p99, 0, sizeof(s->p99));
		break;
	default:
		break;
	}
}

void status_line_clear(struct status_line *s)
{
	if (!s->drawn)
		return;
	fprintf(stderr, "\r%*s\r", (int)s->width, "");
	fflush(stderr);
	s->drawn = false;
}
