/*
 * run_summary.c - the Results screen's rows: a finished run's thread stats
 * turned into IOPS, MB/s and latencies with fio's formulas (iops =
 * total_ios * 1000 / runtime_ms, p99 by fio's percentile rule), or a saved
 * result's phases as core/results.c merged them; and the CrystalDiskMark
 * grid built from the rows. No curses.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run_summary.h"
#include "stats.h"

static struct summary_row *add_row(struct run_summary *s)
{
	struct summary_row *n = realloc(s->rows, (s->nr + 1) * sizeof(*n));

	if (!n)
		return NULL;
	s->rows = n;
	n += s->nr++;
	memset(n, 0, sizeof(*n));
	return n;
}

int run_summary_from_run(struct run_summary *s, const struct run_result *res)
{
	static const double p99[] = { 99.0 };
	size_t i;
	int d;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < res->nr_ts; i++) {
		const struct thread_stat *ts = &res->ts[i];

		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			const struct ddir_stat *ds = &ts->dir[d];
			struct summary_row *row;
			uint64_t v = 0;

			if (!ds->total_ios)
				continue;
			row = add_row(s);
			if (!row) {
				run_summary_release(s);
				return -ENOMEM;
			}
			snprintf(row->name, sizeof(row->name), "%s", ts->name);
			snprintf(row->desc, sizeof(row->desc), "%s",
				 ts->description ? ts->description : "");
			row->ddir = d;
			row->ts = (int)i;
			row->groupid = ts->groupid;
			row->ios = ds->total_ios;
			if (ds->runtime_ms) {
				row->iops = (double)ds->total_ios * 1000.0 / (double)ds->runtime_ms;
				row->mb_s = (double)ds->io_bytes * 1000.0 / (double)ds->runtime_ms / 1e6;
			}
			row->mean_ns = ds->clat.mean;
			row->p99_ns = hist_percentiles(ds->clat_hist, p99, 1, &v) ? (double)v : -1;
		}
	}
	return 0;
}

int run_summary_from_result(struct run_summary *s, const struct result *r)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < r->nr_phases; i++) {
		const struct result_phase *p = &r->phases[i];
		struct summary_row *row = add_row(s);

		if (!row) {
			run_summary_release(s);
			return -ENOMEM;
		}
		snprintf(row->name, sizeof(row->name), "%s", p->name ? p->name : "?");
		snprintf(row->desc, sizeof(row->desc), "%s", p->desc ? p->desc : "");
		row->ddir = p->ddir;
		row->ts = -1;
		row->groupid = p->groupid;
		row->ios = p->total_ios;
		row->iops = p->iops;
		row->mb_s = p->bw_bytes / 1e6;
		row->mean_ns = p->lat_mean_ns;
		row->p99_ns = p->lat_p99_ns;
	}
	return 0;
}

void run_summary_release(struct run_summary *s)
{
	free(s->rows);
	s->rows = NULL;
	s->nr = 0;
}

bool run_summary_is_cdm(const char *profile)
{
	return profile && !strncmp(profile, "cdm-", 4);
}

static void cdm_label(char *buf, size_t len, const char *name)
{
	static const char *const suffixes[] = { "-read", "-write", "_read", "_write" };
	size_t n = strcspn(name, "#"), i;

	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		size_t k = strlen(suffixes[i]);

		if (n > k && !strncmp(name + n - k, suffixes[i], k)) {
			n -= k;
			break;
		}
	}
	if (n >= len)
		n = len - 1;
	for (i = 0; i < n; i++)
		buf[i] = name[i] == '-' || name[i] == '_' ? ' ' : (char)toupper((unsigned char)name[i]);
	buf[n] = '\0';
}

size_t run_summary_cdm(const struct run_summary *s, struct cdm_row *out, size_t max)
{
	size_t i, k, n = 0;

	for (i = 0; i < s->nr; i++) {
		const struct summary_row *r = &s->rows[i];
		char label[48];

		if (r->ddir != DDIR_READ && r->ddir != DDIR_WRITE)
			continue;
		cdm_label(label, sizeof(label), r->name);
		for (k = 0; k < n && strcmp(out[k].label, label); k++)
			;
		if (k == n) {
			if (n == max)
				continue;
			snprintf(out[n].label, sizeof(out[n].label), "%s", label);
			out[n].row[0] = out[n].row[1] = -1;
			n++;
		}
		if (out[k].row[r->ddir] < 0)
			out[k].row[r->ddir] = (int)i;
	}
	return n;
}

void run_summary_fmt_time(char *buf, size_t len, int64_t ms)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;

	if (!ms || !localtime_r(&t, &tm))
		snprintf(buf, len, "?");
	else
		strftime(buf, len, "%Y-%m-%d %H:%M", &tm);
}
