/*
 * worker_lat.c - latency_target: the search for the deepest queue at which
 * latency_percentile of the I/Os in each latency_window complete within
 * latency_target, as fio documents it. The depth starts at 1 and doubles
 * while windows succeed, then bisects between the last good and the first
 * bad depth; one I/O over the target fails the window at once when the
 * percentile is 100. Without latency_run the job ends once the depth holds
 * still for a window; with it the search goes on for the whole run.
 *
 * Pure bookkeeping on the worker's thread: the pump asks lat_target_cap()
 * how many I/Os may be in flight and reports each completion.
 */
#include "worker_int.h"

void lat_target_init(struct lat_target *lt, const struct job_spec *job, uint64_t now)
{
	lt->on = job->latency_target_us != 0;
	lt->qd = lt->on ? 1 : job->iodepth;
	lt->low = 1;
	lt->high = job->iodepth;
	lt->stable = 0;
	lt->done = false;
	lt->win_start_ns = now;
	lt->win_ios = 0;
	lt->win_failed = 0;
}

static void new_window(struct lat_target *lt, uint64_t now)
{
	lt->win_start_ns = now;
	lt->win_ios = 0;
	lt->win_failed = 0;
}

/* A window failed: back down between the last good depth and this one. */
static void failed(struct lat_target *lt, uint64_t now)
{
	if (lt->qd == 1) {
		lt->done = true;	/* not even one I/O at a time meets the target */
		return;
	}
	lt->high = lt->qd;
	if (lt->qd == lt->low)
		lt->low--;
	lt->qd = (lt->qd + lt->low) / 2;
	lt->stable = 0;
	new_window(lt, now);
}

static void succeeded(struct lat_target *lt, const struct job_spec *job, uint64_t now)
{
	unsigned was = lt->qd;

	lt->low = lt->qd;
	/* a depth just under the known-bad one that keeps passing earns another try above */
	if (lt->qd + 1 == lt->high && ++lt->stable >= 3) {
		lt->high++;
		lt->stable = 0;
	}
	lt->qd = lt->high != job->iodepth ? (lt->qd + lt->high) / 2 : lt->qd * 2;
	if (lt->qd > job->iodepth)
		lt->qd = job->iodepth;
	if (!lt->qd)
		lt->qd = 1;
	if (!job->latency_run && lt->qd == was)
		lt->done = true;
	new_window(lt, now);
}

void lat_target_complete(struct lat_target *lt, const struct job_spec *job, uint64_t lat_ns,
			 uint64_t now)
{
	double ok;

	if (!lt->on || lt->done)
		return;
	lt->win_ios++;
	if (lat_ns > job->latency_target_us * 1000) {
		if (job->latency_percentile >= 100.0) {
			failed(lt, now);
			return;
		}
		lt->win_failed++;
	}
	if (now - lt->win_start_ns < job->latency_window_us * 1000)
		return;
	ok = 100.0 * (double)(lt->win_ios - lt->win_failed) / (double)lt->win_ios;
	if (ok >= (job->latency_percentile > 0 ? job->latency_percentile : 100.0))
		succeeded(lt, job, now);
	else
		failed(lt, now);
}
