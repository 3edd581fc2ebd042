/*
 * report_common.c - what the normal, JSON and terse writers share: the
 * --output-format parser, fio's num2str, distribution percentages, the
 * percentile list, and the JSON document as a string for saved results.
 *
 * Like all of core/, it never chooses a stream and never prints on its own.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "report.h"
#include "report_int.h"

static const struct {
	const char *word;
	unsigned bits;
} formats[] = {
	{ "normal", REPORT_NORMAL },
	{ "json", REPORT_JSON },
	/* fio: json+ is json with histogram bins, so it sets both */
	{ "json+", REPORT_JSON | REPORT_JSON_PLUS },
	{ "terse", REPORT_TERSE },
};

int report_parse_formats(const char *s, unsigned *out, char *err, size_t errlen)
{
	unsigned bits = 0;
	const char *p = s ? s : "";

	for (;;) {
		size_t len = strcspn(p, ","), i;

		for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
			if (strlen(formats[i].word) == len && !strncmp(formats[i].word, p, len))
				break;
		if (i == sizeof(formats) / sizeof(formats[0])) {
			if (err && errlen)
				snprintf(err, errlen, "invalid output format '%.*s' "
					 "(allowed: normal, json, json+, terse)", (int)len, p);
			return -EINVAL;
		}
		bits |= formats[i].bits;
		if (!p[len])
			break;
		p += len + 1;
	}
	*out = bits;
	return 0;
}

char *report_num2str(char *buf, size_t len, uint64_t num, int maxlen, int base,
		     bool pow2, enum report_unit unit)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const iec[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	static const char *const unitstr[] = {
		[UNIT_NONE] = "", [UNIT_PERSEC] = "/s", [UNIT_BYTE] = "B",
		[UNIT_BIT] = "bit", [UNIT_BYTEPERSEC] = "B/s", [UNIT_BITPERSEC] = "bit/s",
	};
	const char *const *prefix = pow2 ? iec : si;
	const unsigned thousand = pow2 ? 1024 : 1000;
	const int nr_prefix = (int)(sizeof(si) / sizeof(si[0]));
	unsigned modulo = UINT_MAX;
	bool carry = false;
	int post, digits;
	char tmp[32];

	for (post = 0; base > 1; post++)
		base /= (int)thousand;
	if (unit == UNIT_BIT || unit == UNIT_BITPERSEC)
		num *= 8;

	/* divide by k/Ki until the number fits in maxlen digits */
	while (post < nr_prefix) {
		if (snprintf(tmp, sizeof(tmp), "%" PRIu64, num) <= maxlen)
			break;
		modulo = (unsigned)(num % thousand);
		num /= thousand;
		carry = modulo >= thousand / 2;
		post++;
	}
	if (post >= nr_prefix)
		post = 0;

	digits = snprintf(tmp, sizeof(tmp), "%" PRIu64, num);
	if (modulo == UINT_MAX || maxlen - digits <= 1) {
		/* fio rounds half up only when no decimals fit */
		if (modulo != UINT_MAX && carry)
			num++;
		snprintf(buf, len, "%" PRIu64 "%s%s", num, prefix[post], unitstr[unit]);
		return buf;
	}

	snprintf(tmp, sizeof(tmp), "%.*f", maxlen - digits - 1,
		 (double)modulo / (double)thousand);
	/* the fraction rounded up to 1.0: carry it into the integer part */
	if (tmp[0] == '1')
		num++;
	snprintf(buf, len, "%" PRIu64 ".%s%s%s", num, tmp + 2, prefix[post], unitstr[unit]);
	return buf;
}

void report_depth_dist(const uint64_t *map, uint64_t total, double *out)
{
	unsigned i;

	for (i = 0; i < DEPTH_MAP_NR; i++) {
		out[i] = 0.0;
		if (!total)
			continue;
		out[i] = (double)map[i] / (double)total * 100.0;
		/* fio: a depth that happened at all never reads as 0.0% */
		if (out[i] < 0.1 && map[i])
			out[i] = 0.1;
	}
}

uint64_t report_total_ios(const struct thread_stat *ts)
{
	uint64_t n = 0;
	unsigned d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		n += ts->dir[d].total_ios;
	return n;
}

void report_lat_dist(const struct thread_stat *ts, const uint64_t *src, unsigned nr,
		     double *out)
{
	uint64_t total = report_total_ios(ts);
	unsigned i;

	for (i = 0; i < nr; i++) {
		out[i] = 0.0;
		if (!total)
			continue;
		out[i] = (double)src[i] / (double)total * 100.0;
		if (out[i] < 0.01 && src[i])
			out[i] = 0.01;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

unsigned report_plist(const struct thread_stat *ts, double *out)
{
	static const double def[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99,
				      99.5, 99.9, 99.95, 99.99 };
	unsigned n = 0, i;

	if (ts->job && ts->job->nr_percentiles) {
		/* as fio, a 0.0 ends the list */
		for (i = 0; i < ts->job->nr_percentiles && i < RB_MAX_PERCENTILES; i++) {
			if (ts->job->percentiles[i] == 0.0)
				break;
			out[n++] = ts->job->percentiles[i];
		}
	} else {
		for (i = 0; i < sizeof(def) / sizeof(def[0]); i++)
			out[n++] = def[i];
	}
	qsort(out, n, sizeof(*out), cmp_double);
	return n;
}

unsigned report_plist_precision(const double *plist, unsigned nr)
{
	unsigned prec = 0, i, d;

	/*
	 * fio counts the decimals the user typed; from the parsed values the
	 * fewest decimals that reproduce each one is the closest we can get.
	 */
	for (i = 0; i < nr; i++) {
		for (d = 0; d < 6; d++) {
			double scaled = plist[i] * pow(10.0, (double)d);

			if (fabs(scaled - round(scaled)) < 1e-6)
				break;
		}
		if (d > prec)
			prec = d;
	}
	return prec;
}

bool report_clat_pct(const struct thread_stat *ts)
{
	return ts->job ? ts->job->clat_percentiles : true;
}

bool report_lat_pct(const struct thread_stat *ts)
{
	return ts->job ? ts->job->lat_percentiles : false;
}

bool report_slat_pct(const struct thread_stat *ts)
{
	return ts->job ? ts->job->slat_percentiles : false;
}

void report_cpu(const struct thread_stat *ts, double *usr, double *sys)
{
	double runt = (double)ts->job_runtime_ms;

	*usr = 0.0;
	*sys = 0.0;
	if (!ts->job_runtime_ms)
		return;
	/* CPU times are in us, job_runtime in ms: percent = ms * 100 / runt */
	*usr = (double)ts->usr_us / 1000.0 * 100.0 / runt;
	*sys = (double)ts->sys_us / 1000.0 * 100.0 / runt;
}

const struct group_stat *report_group(const struct run_report *r, int groupid)
{
	size_t i;

	for (i = 0; i < r->nr_gs; i++)
		if (r->gs[i].groupid == groupid)
			return &r->gs[i];
	return NULL;
}

void report_locale_enter(struct report_locale *l)
{
	l->c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	/* without memory for a locale, write in the current one */
	l->old = l->c ? uselocale(l->c) : (locale_t)0;
}

void report_locale_leave(struct report_locale *l)
{
	if (!l->c)
		return;
	uselocale(l->old);
	freelocale(l->c);
}

char *report_json_text(struct json_object *root)
{
	const char *s;
	char *copy = NULL;

	if (!root)
		return NULL;
	/* fio writes paths unescaped ("/tmp/x"), and pretty-prints */
	s = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
					   JSON_C_TO_STRING_SPACED |
					   JSON_C_TO_STRING_NOSLASHESCAPE);
	if (s)
		copy = strdup(s);
	json_object_put(root);
	return copy;
}

char *report_json_string(const struct run_report *r, bool plus)
{
	struct report_locale loc;
	char *copy;

	report_locale_enter(&loc);
	copy = report_json_text(report_json_build(r, plus));
	report_locale_leave(&loc);
	return copy;
}

int report_write_text(FILE *f, char *s)
{
	int ret = 0;

	if (!s)
		return -ENOMEM;
	if (fputs(s, f) == EOF || fputc('\n', f) == EOF)
		ret = -EIO;
	free(s);
	return ret;
}
