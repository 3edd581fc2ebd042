/*
 * report_normal.c - the run as fio 3.33's human-readable report: per job the
 * IOPS/BW lines, latency moments and percentiles, bw/iops samples, latency
 * and depth distributions; then "Run status group N" and "Disk stats"
 * (fio stat.c show_thread_status_normal, show_ddir_status, show_group_stats,
 * print_disk_util). Same number formatting as fio, so the two diff cleanly.
 *
 * The lines fio prints before a run ("name: (g=0): rw=...", "Starting N
 * processes") belong to the runner, not here.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "report.h"
#include "report_int.h"

static const char *const ddir_name[] = { "read", "write", "trim" };

static bool is_pow2(unsigned v)
{
	return v && !(v & (v - 1));
}

/* fio display_lat: picks nsec, usec or msec from the spread of the values. */
static void show_lat(FILE *f, const char *name, const struct lat_stat *s)
{
	unsigned long long min = s->min, max = s->max;
	double mean = s->mean, dev = lat_stat_stddev(s);
	const char *base = "(nsec)";
	char minp[32], maxp[32];

	if (min > 2000000 && max > 99999999ULL && dev > 1000000.0) {
		min /= 1000000;
		max /= 1000000;
		mean /= 1000000.0;
		dev /= 1000000.0;
		base = "(msec)";
	} else if (min > 2000 && max > 99999 && dev > 1000.0) {
		min /= 1000;
		max /= 1000;
		mean /= 1000.0;
		dev /= 1000.0;
		base = "(usec)";
	}
	report_num2str(minp, sizeof(minp), min, 6, 1, false, UNIT_NONE);
	report_num2str(maxp, sizeof(maxp), max, 6, 1, false, UNIT_NONE);
	fprintf(f, "    %s %s: min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n", name, base,
		minp, maxp, mean, dev);
}

/* fio show_clat_percentiles: a block of "NN.NNth=[value]" entries. */
static void show_percentiles(FILE *f, const struct thread_stat *ts, const uint64_t *hist,
			     const char *pre)
{
	double plist[RB_MAX_PERCENTILES];
	uint64_t vals[RB_MAX_PERCENTILES], minv = UINT64_MAX, maxv = 0, divisor = 1;
	unsigned nr, prec, i, per_line, scale = 0, s;
	int width = 5;
	const char *unit = "nsec";

	nr = report_plist(ts, plist);
	if (!nr)
		return;
	prec = report_plist_precision(plist, nr);
	hist_percentiles(hist, plist, nr, vals);
	for (i = 0; i < nr; i++) {
		if (vals[i] < minv)
			minv = vals[i];
		if (vals[i] > maxv)
			maxv = vals[i];
	}

	if (minv > 2000000 && maxv > 99999999ULL) {
		scale = 2;
		divisor = 1000000;
		unit = "msec";
	} else if (minv > 2000 && maxv > 99999) {
		scale = 1;
		divisor = 1000;
		unit = "usec";
	}
	if (maxv / divisor && (int)(log10((double)(maxv / divisor)) + 1) > width)
		width = (int)(log10((double)(maxv / divisor)) + 1);
	per_line = (80 - 7) / (prec + 10 + (unsigned)width);

	fprintf(f, "    %s percentiles (%s):\n     |", pre, unit);
	for (i = 0; i < nr; i++) {
		bool last = i == nr - 1;

		if (i && i % per_line == 0)
			fputs("     |", f);
		/* fio rounds up when it scales, so a bucket never reads lower */
		for (s = 0; s < scale; s++)
			vals[i] = (vals[i] + 999) / 1000;
		fprintf(f, " %*.*fth=[%*llu]%c", (int)prec + 3, (int)prec, plist[i], width,
			(unsigned long long)vals[i], last ? '\n' : ',');
		if (!last && i % per_line == per_line - 1)
			fputc('\n', f);
	}
}

static void show_bw_iops(FILE *f, const struct ddir_stat *ds, unsigned kb_base)
{
	const struct lat_stat *s = &ds->bw;

	if (s->n) {
		unsigned long long min = s->min, max = s->max;
		double mean = s->mean, dev = lat_stat_stddev(s), kb = (double)kb_base;
		const char *str = is_pow2(kb_base) ? "KiB" : "kB";

		if (mean > kb * kb) {
			min = (unsigned long long)((double)min / kb);
			max = (unsigned long long)((double)max / kb);
			mean /= kb;
			dev /= kb;
			str = "MiB";	/* fio says MiB whatever kb_base is */
		}
		fprintf(f, "   bw (%5s/s): min=%5llu, max=%5llu, per=%3.2f%%, avg=%5.02f, "
			"stdev=%5.02f, samples=%" PRIu64 "\n", str, min, max, ds->bw_agg_pct,
			mean, dev, s->n);
	}
	s = &ds->iops;
	if (s->n)
		fprintf(f, "   iops        : min=%5llu, max=%5llu, avg=%5.02f, stdev=%5.02f, "
			"samples=%" PRIu64 "\n", (unsigned long long)s->min,
			(unsigned long long)s->max, s->mean, lat_stat_stddev(s), s->n);
}

static void show_ddir(FILE *f, const struct thread_stat *ts, unsigned d, unsigned kb_base)
{
	const struct ddir_stat *ds = &ts->dir[d];
	bool i2p = is_pow2(kb_base);
	char io[32], bw[32], bw_alt[32], iops[32];
	uint64_t runt = ds->runtime_ms, bps;

	if (!runt)
		return;
	bps = 1000 * ds->io_bytes / runt;
	report_num2str(io, sizeof(io), ds->io_bytes, REPORT_SIG_FIGS, 1, i2p, UNIT_BYTE);
	report_num2str(bw, sizeof(bw), bps, REPORT_SIG_FIGS, 1, i2p, UNIT_BYTEPERSEC);
	report_num2str(bw_alt, sizeof(bw_alt), bps, REPORT_SIG_FIGS, 1, !i2p, UNIT_BYTEPERSEC);
	report_num2str(iops, sizeof(iops), 1000 * ds->total_ios / runt, REPORT_SIG_FIGS, 1,
		       false, UNIT_NONE);
	/* fio adds its zoned-device counter to every write line */
	fprintf(f, "  %s: IOPS=%s, BW=%s (%s)(%s/%llumsec)%s\n", ddir_name[d], iops, bw,
		bw_alt, io, (unsigned long long)runt,
		d == DDIR_WRITE ? "; 0 zone resets" : "");

	if (ds->slat.n)
		show_lat(f, "slat", &ds->slat);
	if (ds->clat.n)
		show_lat(f, "clat", &ds->clat);
	if (ds->lat.n)
		show_lat(f, " lat", &ds->lat);

	if (report_slat_pct(ts) && ds->slat.n)
		show_percentiles(f, ts, ds->slat_hist, "slat");
	if (report_clat_pct(ts) && ds->clat.n)
		show_percentiles(f, ts, ds->clat_hist, "clat");
	if (report_lat_pct(ts) && ds->lat.n)
		show_percentiles(f, ts, ds->lat_hist, "lat");

	show_bw_iops(f, ds, kb_base);
}

/* fio show_lat: nonzero buckets only, five to a line. */
static void show_lat_dist(FILE *f, const double *pct, unsigned nr, const char *unit)
{
	static const char *const ranges[] = { "2=", "4=", "10=", "20=", "50=", "100=",
					      "250=", "500=", "750=", "1000=", "2000=",
					      ">=2000=" };
	unsigned i, on_line = 0;
	bool shown = false;

	for (i = 0; i < nr; i++) {
		if (pct[i] <= 0.0)
			continue;
		if (on_line == 5) {
			fputc('\n', f);
			on_line = 0;
		}
		if (!on_line)
			fprintf(f, "  lat (%s)   : ", unit);
		else
			fputs(", ", f);
		fprintf(f, "%s%3.2f%%", ranges[i], pct[i]);
		on_line++;
		shown = true;
	}
	if (shown)
		fputc('\n', f);
}

static void show_depths(FILE *f, const char *label, bool submit, const uint64_t *map,
			uint64_t total)
{
	double pct[DEPTH_MAP_NR];

	report_depth_dist(map, total, pct);
	if (submit)
		fprintf(f, "     %-10s: 0=%3.1f%%, 4=%3.1f%%, 8=%3.1f%%, 16=%3.1f%%, "
			"32=%3.1f%%, 64=%3.1f%%, >=64=%3.1f%%\n", label, pct[0], pct[1],
			pct[2], pct[3], pct[4], pct[5], pct[6]);
	else
		fprintf(f, "  IO depths    : 1=%3.1f%%, 2=%3.1f%%, 4=%3.1f%%, 8=%3.1f%%, "
			"16=%3.1f%%, 32=%3.1f%%, >=64=%3.1f%%\n", pct[0], pct[1], pct[2],
			pct[3], pct[4], pct[5], pct[6]);
}

static void show_header(FILE *f, const struct run_report *r, const struct thread_stat *ts)
{
	char tbuf[64] = "\n";
	time_t when = r->when;

	/* ctime's text ends in a newline, which fio relies on */
	if (!ctime_r(&when, tbuf))
		snprintf(tbuf, sizeof(tbuf), "\n");
	if (!ts->error)
		fprintf(f, "%s: (groupid=%d, jobs=%u): err=%2d: pid=%d: %s", ts->name,
			ts->groupid, ts->nr_jobs, ts->error, (int)getpid(), tbuf);
	else if (!strncmp(ts->error_msg, "err=", 4))
		/* the worker already wrote fio's whole "err=%2d (...)" text */
		fprintf(f, "%s: (groupid=%d, jobs=%u): %s: pid=%d: %s", ts->name,
			ts->groupid, ts->nr_jobs, ts->error_msg, (int)getpid(), tbuf);
	else
		fprintf(f, "%s: (groupid=%d, jobs=%u): err=%2d (%s): pid=%d: %s", ts->name,
			ts->groupid, ts->nr_jobs, ts->error,
			ts->error_msg[0] ? ts->error_msg : strerror(ts->error),
			(int)getpid(), tbuf);
	if (ts->description && ts->description[0])
		fprintf(f, "  Description  : [%s]\n", ts->description);
}

static void show_job(FILE *f, const struct run_report *r, const struct thread_stat *ts)
{
	const struct group_stat *gs = report_group(r, ts->groupid);
	unsigned kb_base = gs && gs->kb_base ? gs->kb_base : 1024;
	uint64_t bytes = 0;
	double pct[LAT_M_NR], usr, sys;
	unsigned d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		bytes += ts->dir[d].io_bytes;
	/* fio skips a job that did no I/O at all */
	if (!bytes && !report_total_ios(ts))
		return;

	show_header(f, r, ts);
	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		if (ts->dir[d].io_bytes)
			show_ddir(f, ts, d, kb_base);

	report_lat_dist(ts, ts->lat_n, LAT_N_NR, pct);
	show_lat_dist(f, pct, LAT_N_NR, "nsec");
	report_lat_dist(ts, ts->lat_u, LAT_U_NR, pct);
	show_lat_dist(f, pct, LAT_U_NR, "usec");
	report_lat_dist(ts, ts->lat_m, LAT_M_NR, pct);
	show_lat_dist(f, pct, LAT_M_NR, "msec");

	if (ts->sync_lat.n) {
		fputs("  fsync/fdatasync/sync_file_range:\n", f);
		show_lat(f, "sync", &ts->sync_lat);
		show_percentiles(f, ts, ts->sync_hist, "sync");
	}

	report_cpu(ts, &usr, &sys);
	fprintf(f, "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%llu, majf=%llu, minf=%llu\n",
		usr, sys, (unsigned long long)ts->ctx, (unsigned long long)ts->majf,
		(unsigned long long)ts->minf);
	show_depths(f, "IO depths", false, ts->depth_level, report_total_ios(ts));
	show_depths(f, "submit", true, ts->submit_map, ts->total_submit);
	show_depths(f, "complete", true, ts->complete_map, ts->total_complete);
	fprintf(f, "     issued rwts: total=%llu,%llu,%llu,%llu short=%llu,%llu,%llu,0 "
		"dropped=%llu,%llu,%llu,0\n",
		(unsigned long long)ts->dir[0].total_ios, (unsigned long long)ts->dir[1].total_ios,
		(unsigned long long)ts->dir[2].total_ios, (unsigned long long)ts->sync_total,
		(unsigned long long)ts->dir[0].short_ios, (unsigned long long)ts->dir[1].short_ios,
		(unsigned long long)ts->dir[2].short_ios, (unsigned long long)ts->dir[0].drop_ios,
		(unsigned long long)ts->dir[1].drop_ios, (unsigned long long)ts->dir[2].drop_ios);
	if (ts->job && ts->job->continue_on_error)
		fprintf(f, "     errors    : total=%llu, first_error=%d/<%s>\n",
			(unsigned long long)ts->total_err, ts->first_error,
			strerror(ts->first_error));
	if (ts->latency_depth)
		fprintf(f, "     latency   : target=%llu, window=%llu, percentile=%.2f%%, depth=%u\n",
			(unsigned long long)(ts->job ? ts->job->latency_target_us : 0),
			(unsigned long long)(ts->job ? ts->job->latency_window_us : 0),
			ts->job && ts->job->latency_percentile ? ts->job->latency_percentile : 100.0,
			ts->latency_depth);
}

static void show_group(FILE *f, const struct group_stat *gs)
{
	static const char *const label[] = { "   READ", "  WRITE", "   TRIM" };
	bool i2p = is_pow2(gs->kb_base ? gs->kb_base : 1024);
	char io[32], io_alt[32], agg[32], agg_alt[32], mn[32], mn_alt[32], mx[32], mx_alt[32];
	unsigned d;

	fprintf(f, "\nRun status group %d (all jobs):\n", gs->groupid);
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		if (!gs->max_run[d])
			continue;
		report_num2str(io, sizeof(io), gs->io_bytes[d], REPORT_SIG_FIGS, 1, i2p,
			       UNIT_BYTE);
		report_num2str(io_alt, sizeof(io_alt), gs->io_bytes[d], REPORT_SIG_FIGS, 1,
			       !i2p, UNIT_BYTE);
		report_num2str(agg, sizeof(agg), gs->agg_bw[d], REPORT_SIG_FIGS, 1, i2p,
			       UNIT_BYTEPERSEC);
		report_num2str(agg_alt, sizeof(agg_alt), gs->agg_bw[d], REPORT_SIG_FIGS, 1,
			       !i2p, UNIT_BYTEPERSEC);
		report_num2str(mn, sizeof(mn), gs->min_bw[d], REPORT_SIG_FIGS, 1, i2p,
			       UNIT_BYTEPERSEC);
		report_num2str(mn_alt, sizeof(mn_alt), gs->min_bw[d], REPORT_SIG_FIGS, 1,
			       !i2p, UNIT_BYTEPERSEC);
		report_num2str(mx, sizeof(mx), gs->max_bw[d], REPORT_SIG_FIGS, 1, i2p,
			       UNIT_BYTEPERSEC);
		report_num2str(mx_alt, sizeof(mx_alt), gs->max_bw[d], REPORT_SIG_FIGS, 1,
			       !i2p, UNIT_BYTEPERSEC);
		fprintf(f, "%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%llu-%llumsec\n",
			label[d], agg, agg_alt, mn, mx, mn_alt, mx_alt, io, io_alt,
			(unsigned long long)gs->min_run[d], (unsigned long long)gs->max_run[d]);
	}
}

int report_normal(FILE *f, const struct run_report *r)
{
	struct report_locale loc;
	size_t i;

	report_locale_enter(&loc);
	/* fio starts its report with a newline, ending its status line */
	fputc('\n', f);
	for (i = 0; i < r->nr_ts; i++)
		show_job(f, r, &r->ts[i]);
	for (i = 0; i < r->nr_gs; i++)
		show_group(f, &r->gs[i]);
	if (r->nr_du)
		fputs("\nDisk stats (read/write):\n", f);
	for (i = 0; i < r->nr_du; i++) {
		const struct disk_util *du = &r->du[i];

		fprintf(f, "  %s: ios=%llu/%llu, merge=%llu/%llu, ticks=%llu/%llu, "
			"in_queue=%llu, util=%3.2f%%\n", du->name,
			(unsigned long long)du->read_ios, (unsigned long long)du->write_ios,
			(unsigned long long)du->read_merges, (unsigned long long)du->write_merges,
			(unsigned long long)du->read_ticks, (unsigned long long)du->write_ticks,
			(unsigned long long)du->in_queue, du->util > 100.0 ? 100.0 : du->util);
	}
	report_locale_leave(&loc);
	return ferror(f) ? -EIO : 0;
}
