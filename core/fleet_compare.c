/*
 * fleet_compare.c - a fleet's results per host and their outliers. Reads
 * fio's JSON keys (read/write "iops", "bw_bytes", clat_ns percentile
 * "99.000000"), so fio's own client output and raidbench's compare alike.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "fleet_compare.h"

static json_object *get(json_object *o, const char *k)
{
	json_object *v = NULL;

	return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

static struct fleet_row *row_for(struct fleet_table *t, const char *host, unsigned port)
{
	struct fleet_row *n;
	size_t i;

	for (i = 0; i < t->nr; i++)
		if (!strcmp(t->rows[i].host, host) && t->rows[i].port == port)
			return &t->rows[i];
	n = realloc(t->rows, (t->nr + 1) * sizeof(*n));
	if (!n)
		return NULL;
	t->rows = n;
	memset(&n[t->nr], 0, sizeof(*n));
	snprintf(n[t->nr].host, sizeof(n[t->nr].host), "%s", host);
	n[t->nr].port = port;
	n[t->nr].p99_ns[0] = n[t->nr].p99_ns[1] = -1;
	return &n[t->nr++];
}

static void add_entry(struct fleet_row *r, json_object *e)
{
	static const char *const dn[] = { "read", "write" };
	int d;

	r->nr_jobs++;
	for (d = 0; d < 2; d++) {
		json_object *dir = get(e, dn[d]), *p;

		r->iops[d] += json_object_get_double(get(dir, "iops"));
		r->bw_bytes[d] += json_object_get_double(get(dir, "bw_bytes"));
		p = get(get(get(dir, "clat_ns"), "percentile"), "99.000000");
		if (p && json_object_get_int64(get(dir, "total_ios")) > 0 &&
		    json_object_get_double(p) > r->p99_ns[d])
			r->p99_ns[d] = json_object_get_double(p);
	}
}

int fleet_compare_load(struct fleet_table *t, const char *path, char *err, size_t errlen)
{
	json_object *root = NULL, *arr, *fleet;
	FILE *f = fopen(path, "r");
	char *text = NULL, *brace;
	size_t cap = 0, len = 0, i, h;
	int ret = 0;

	memset(t, 0, sizeof(*t));
	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	len = getdelim(&text, &cap, '\0', f);
	fclose(f);
	/* fio may print warnings before its JSON document */
	brace = text && len != (size_t)-1 ? strchr(text, '{') : NULL;
	root = brace ? json_tokener_parse(brace) : NULL;
	free(text);
	if (!root) {
		snprintf(err, errlen, "%s: not a JSON result", path);
		return -EINVAL;
	}
	arr = get(root, "client_stats");
	fleet = get(get(root, "raidbench"), "fleet");
	if (arr) {
		for (i = 0; i < json_object_array_length(arr); i++) {
			json_object *e = json_object_array_get_idx(arr, i);
			struct fleet_row *r;

			if (!strcmp(json_object_get_string(get(e, "jobname")) ?: "", "All clients"))
				continue;
			r = row_for(t, json_object_get_string(get(e, "hostname")) ?: "?",
				    (unsigned)json_object_get_int(get(e, "port")));
			if (!r) {
				ret = -ENOMEM;
				break;
			}
			add_entry(r, e);
		}
	} else if (fleet && (arr = get(root, "jobs"))) {
		json_object *hosts = get(fleet, "hosts");

		for (h = 0; h < json_object_array_length(hosts); h++) {
			json_object *fh = json_object_array_get_idx(hosts, h);
			size_t first = (size_t)json_object_get_int64(get(fh, "first_job"));
			size_t n = (size_t)json_object_get_int64(get(fh, "nr_jobs"));
			struct fleet_row *r;

			if (!get(fh, "nr_jobs"))
				continue;	/* a host that gave no results */
			r = row_for(t, json_object_get_string(get(fh, "client")) ?: "?",
				    (unsigned)json_object_get_int(get(fh, "port")));
			if (!r) {
				ret = -ENOMEM;
				break;
			}
			for (i = first; i < first + n && i < json_object_array_length(arr); i++)
				add_entry(r, json_object_array_get_idx(arr, i));
		}
	} else {
		snprintf(err, errlen, "%s: not a fleet result (no \"client_stats\", no saved fleet)",
			 path);
		ret = -EINVAL;
	}
	json_object_put(root);
	if (!ret && !t->nr) {
		snprintf(err, errlen, "%s: no host has results", path);
		ret = -EINVAL;
	}
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (ret)
		fleet_table_release(t);
	return ret;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(const struct fleet_table *t, size_t off, bool skip_negative)
{
	double *v = calloc(t->nr ? t->nr : 1, sizeof(*v)), m = -1;
	size_t i, n = 0;

	if (!v)
		return NAN;
	for (i = 0; i < t->nr; i++) {
		double x = *(const double *)((const char *)&t->rows[i] + off);

		if (!skip_negative || x >= 0)
			v[n++] = x;
	}
	if (n) {
		qsort(v, n, sizeof(*v), cmp_double);
		m = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	}
	free(v);
	return m;
}

static void note(struct fleet_row *r, const char *fmt, double a, double b)
{
	size_t n = strlen(r->why);

	snprintf(r->why + n, sizeof(r->why) - n, "%s", n ? "; " : "");
	n = strlen(r->why);
	snprintf(r->why + n, sizeof(r->why) - n, fmt, a, b);
	r->outlier = true;
}

size_t fleet_compare_flag(struct fleet_table *t, double tol)
{
	static const char *const dn[] = { "read", "write" };
	size_t i, flagged = 0;
	int d;

	memset(&t->median, 0, sizeof(t->median));
	snprintf(t->median.host, sizeof(t->median.host), "median");
	for (d = 0; d < 2; d++) {
		t->median.iops[d] = median(t, offsetof(struct fleet_row, iops) + sizeof(double) * (size_t)d,
					   false);
		t->median.bw_bytes[d] = median(t, offsetof(struct fleet_row, bw_bytes) +
					       sizeof(double) * (size_t)d, false);
		t->median.p99_ns[d] = median(t, offsetof(struct fleet_row, p99_ns) +
					     sizeof(double) * (size_t)d, true);
	}
	for (i = 0; i < t->nr; i++) {
		struct fleet_row *r = &t->rows[i];
		char fmt[128];

		r->outlier = false;
		r->why[0] = '\0';
		for (d = 0; d < 2; d++) {
			double m = t->median.iops[d], mp = t->median.p99_ns[d];

			if (m > 0 && fabs(r->iops[d] - m) > tol * m) {
				snprintf(fmt, sizeof(fmt), "%s IOPS %%.0f, %%.0f%%%% %s the median",
					 dn[d], r->iops[d] < m ? "below" : "above");
				note(r, fmt, r->iops[d], 100.0 * fabs(r->iops[d] - m) / m);
			}
			/* below a microsecond apart, latencies differ by noise (an engine that moves no data) */
			if (mp > 0 && r->p99_ns[d] > (1 + tol) * mp && r->p99_ns[d] - mp >= 1000) {
				snprintf(fmt, sizeof(fmt), "%s p99 %%.1f us, %%.0f%%%% above the median",
					 dn[d]);
				note(r, fmt, r->p99_ns[d] / 1000.0, 100.0 * (r->p99_ns[d] - mp) / mp);
			}
		}
		flagged += r->outlier;
	}
	return flagged;
}

void fleet_table_release(struct fleet_table *t)
{
	free(t->rows);
	memset(t, 0, sizeof(*t));
}
