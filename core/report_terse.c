/*
 * report_terse.c - the run as fio's terse format version 3 (--minimal,
 * --output-format=terse): one ';'-separated line per job, field for field
 * as fio 3.33's show_thread_status_terse_all, latencies in microseconds.
 * With one disk a line has 130 fields; scripts index them by position, so
 * no field may ever be added, dropped or moved.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "report.h"
#include "report_int.h"

#define TERSE_VERSION 3

/* min;max;mean;dev in usec, or zeros without samples */
static void put_lat(FILE *f, const struct lat_stat *s)
{
	if (!s->n) {
		fprintf(f, ";%llu;%llu;%f;%f", 0ULL, 0ULL, 0.0, 0.0);
		return;
	}
	fprintf(f, ";%llu;%llu;%f;%f", (unsigned long long)(s->min / 1000),
		(unsigned long long)(s->max / 1000), s->mean / 1000.0,
		lat_stat_stddev(s) / 1000.0);
}

/* Twenty "P%=usec" slots; unused ones read "0%=0". */
static void put_percentiles(FILE *f, const struct thread_stat *ts, const struct ddir_stat *ds)
{
	double plist[RB_MAX_PERCENTILES];
	uint64_t vals[RB_MAX_PERCENTILES];
	unsigned nr = 0, i;

	/* fio shows lat percentiles when asked for, else clat ones */
	if (report_lat_pct(ts)) {
		nr = report_plist(ts, plist);
		hist_percentiles(ds->lat_hist, plist, nr, vals);
	} else if (report_clat_pct(ts)) {
		nr = report_plist(ts, plist);
		hist_percentiles(ds->clat_hist, plist, nr, vals);
	}
	for (i = 0; i < RB_MAX_PERCENTILES; i++) {
		if (i >= nr)
			fputs(";0%=0", f);
		else
			fprintf(f, ";%f%%=%llu", plist[i], (unsigned long long)(vals[i] / 1000));
	}
}

static void put_ddir(FILE *f, const struct run_report *r, const struct thread_stat *ts,
		     unsigned d)
{
	const struct ddir_stat *ds = &ts->dir[d];
	const struct group_stat *gs = report_group(r, ts->groupid);
	uint64_t bw = 0, iops = 0;

	if (ds->runtime_ms) {
		bw = 1000 * ds->io_bytes / ds->runtime_ms / 1024;
		iops = 1000 * ds->total_ios / ds->runtime_ms;
	}
	fprintf(f, ";%llu;%llu;%llu;%llu", (unsigned long long)(ds->io_bytes >> 10),
		(unsigned long long)bw, (unsigned long long)iops,
		(unsigned long long)ds->runtime_ms);
	put_lat(f, &ds->slat);
	put_lat(f, &ds->clat);
	put_percentiles(f, ts, ds);
	put_lat(f, &ds->lat);

	if (ds->bw.n) {
		uint64_t agg_kib = gs ? gs->agg_bw[d] / 1024 : 0;
		double pct = 100.0;

		/*
		 * Unlike the JSON's bw_agg, fio divides here by the aggregate
		 * in whole KiB and keeps the mean's decimals.
		 */
		if (agg_kib)
			pct = ds->bw.mean * 100.0 / (double)agg_kib;
		if (pct > 100.0)
			pct = 100.0;
		fprintf(f, ";%llu;%llu;%f%%;%f;%f", (unsigned long long)ds->bw.min,
			(unsigned long long)ds->bw.max, pct, ds->bw.mean,
			lat_stat_stddev(&ds->bw));
	} else {
		fprintf(f, ";%llu;%llu;%f%%;%f;%f", 0ULL, 0ULL, 0.0, 0.0, 0.0);
	}
}

static void put_job(FILE *f, const struct run_report *r, const struct thread_stat *ts)
{
	double depth[DEPTH_MAP_NR], lat_u[LAT_U_NR], lat_m[LAT_M_NR], usr, sys;
	uint64_t total = report_total_ios(ts), ns = 0;
	unsigned i;

	fprintf(f, "%d;%s;%s;%d;%d", TERSE_VERSION, r->version ? r->version : "raidbench",
		ts->name, ts->groupid, ts->error);
	/* version 3 has no trim block */
	put_ddir(f, r, ts, DDIR_READ);
	put_ddir(f, r, ts, DDIR_WRITE);

	report_cpu(ts, &usr, &sys);
	fprintf(f, ";%f%%;%f%%;%llu;%llu;%llu", usr, sys, (unsigned long long)ts->ctx,
		(unsigned long long)ts->majf, (unsigned long long)ts->minf);

	report_depth_dist(ts->depth_level, total, depth);
	for (i = 0; i < DEPTH_MAP_NR; i++)
		fprintf(f, ";%3.1f%%", depth[i]);

	/* the format predates ns buckets: fio folds them into the first us one */
	report_lat_dist(ts, ts->lat_u, LAT_U_NR, lat_u);
	for (i = 0; i < LAT_N_NR; i++)
		ns += ts->lat_n[i];
	if (total)
		lat_u[0] += 100.0 * (double)ns / (double)total;
	for (i = 0; i < LAT_U_NR; i++)
		fprintf(f, ";%3.2f%%", lat_u[i]);
	report_lat_dist(ts, ts->lat_m, LAT_M_NR, lat_m);
	for (i = 0; i < LAT_M_NR; i++)
		fprintf(f, ";%3.2f%%", lat_m[i]);

	for (i = 0; i < r->nr_du; i++) {
		const struct disk_util *du = &r->du[i];

		fprintf(f, ";%s;%llu;%llu;%llu;%llu;%llu;%llu;%llu;%3.2f%%", du->name,
			(unsigned long long)du->read_ios, (unsigned long long)du->write_ios,
			(unsigned long long)du->read_merges, (unsigned long long)du->write_merges,
			(unsigned long long)du->read_ticks, (unsigned long long)du->write_ticks,
			(unsigned long long)du->in_queue, du->util > 100.0 ? 100.0 : du->util);
	}
	if (ts->job && ts->job->continue_on_error)
		fprintf(f, ";%llu;%d", (unsigned long long)ts->total_err, ts->first_error);
	if (ts->description && ts->description[0])
		fprintf(f, ";%s", ts->description);
	fputc('\n', f);
}

int report_terse(FILE *f, const struct run_report *r)
{
	struct report_locale loc;
	size_t i;

	report_locale_enter(&loc);
	for (i = 0; i < r->nr_ts; i++)
		put_job(f, r, &r->ts[i]);
	report_locale_leave(&loc);
	return ferror(f) ? -EIO : 0;
}
