/*
 * status.c - the one-line live status on stderr while a headless run goes:
 * per-interval rates and p99 latency (not running averages), phase,
 * progress, ETA and dropped live records. Drawn only when stderr is a
 * terminal. Fed by the decoded ticks of core/live_view.h; a job that fails
 * gets a line of its own above it at once, and the line counts the failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fmt.h"
#include "live_view.h"
#include "tty_text.h"

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
	/* a direction with no completion has no latency */
	if (!ns)
		snprintf(buf, len, "-");
	else if (ns >= 10000000)
		snprintf(buf, len, "%ums", ns / 1000000);
	else if (ns >= 10000)
		snprintf(buf, len, "%uus", ns / 1000);
	else
		snprintf(buf, len, "%uns", ns);
}

/* One line per tick: the interval's rates and p99, never a running average. */
void status_line_tick(struct status_line *s, const struct live_tick *t)
{
	const struct live_io *io = t->total.io;
	char r[32], w[32], lr[16], lw[16], line[256], hosts[32] = "";
	const char *phase = t->total.ramp ? "ramp" : "run";
	char eta[32], failed[32] = "";
	int n;

	if (!s->enabled || !t->interval_ns)
		return;
	if (s->failed)
		snprintf(failed, sizeof(failed), "[%u failed]", s->failed);
	fmt_duration(eta, sizeof(eta), (unsigned long long)t->total.eta_s);
	rate_str(r, sizeof(r), io[DDIR_READ].bw);
	rate_str(w, sizeof(w), io[DDIR_WRITE].bw);
	lat_str(lr, sizeof(lr), io[DDIR_READ].p99_ns);
	lat_str(lw, sizeof(lw), io[DDIR_WRITE].p99_ns);
	if (s->hosts)
		snprintf(hosts, sizeof(hosts), "Hosts: %u/%u up, ", s->hosts_up, s->hosts);
	n = snprintf(line, sizeof(line),
		     "%sJobs: %u (%s): [%.1f%%][r=%s,w=%s][r=%.0f,w=%.0f IOPS][p99 r=%s,w=%s]"
		     "[qd=%u]%s%s[eta %s]",
		     hosts, t->total.running, phase, t->total.percent, r, w, io[DDIR_READ].iops,
		     io[DDIR_WRITE].iops, lr, lw, t->total.inflight,
		     t->drops ? "[live records dropped]" : "", failed, eta);
	fprintf(stderr, "\r%s%*s", line, s->width > (size_t)n ? (int)(s->width - (size_t)n) : 0, "");
	fflush(stderr);
	s->width = (size_t)n;
	s->drawn = true;
}

void status_line_error(struct status_line *s, const char *line)
{
	s->failed++;
	if (!s->enabled)
		return;
	status_line_clear(s);
	/* the line comes checked (core/live_view.c); the job's name from the job file */
	tty_fprintf(stderr, "raidbench run: %s\n", line);
	fflush(stderr);
}

void status_line_clear(struct status_line *s)
{
	if (!s->drawn)
		return;
	fprintf(stderr, "\r%*s\r", (int)s->width, "");
	fflush(stderr);
	s->drawn = false;
}
