/*
 * report_doc.c - reads one saved result into what a report draws
 * (report_doc.h): phases through core/results.c, and from the same JSON the
 * clat bins and percentiles, the "series" section and the identity lines.
 * Every value is checked for its JSON type; a missing part is left empty,
 * never invented. Never prints.
 */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "report_doc.h"
#include "strmap.h"

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	return o && json_object_is_type(o, json_type_object) &&
	       json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static const char *get_str(json_object *o, const char *key)
{
	json_object *v = get(o, key);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

static bool is_num(json_object *v)
{
	return v && (json_object_is_type(v, json_type_int) ||
		     json_object_is_type(v, json_type_double));
}

static double get_num(json_object *o, const char *key, double dflt)
{
	json_object *v = get(o, key);

	return is_num(v) ? json_object_get_double(v) : dflt;
}

static int add_meta(struct rdoc *d, const char *key, const char *val)
{
	struct rdoc_kv *kv;

	if (!val || !*val)
		return 0;
	if (grow_room(&d->meta, d->nr_meta, sizeof(*d->meta)))
		return -ENOMEM;
	kv = &d->meta[d->nr_meta];
	kv->key = strdup(key);
	kv->val = strdup(val);
	if (!kv->key || !kv->val) {
		free(kv->key);
		free(kv->val);
		return -ENOMEM;
	}
	d->nr_meta++;
	return 0;
}

/* A scalar or an array of scalars as text; NULL for null, objects and empty arrays. */
static char *scalar_text(json_object *v)
{
	char *s = NULL;

	if (!v)
		return NULL;
	switch (json_object_get_type(v)) {
	case json_type_string:
		return strdup(json_object_get_string(v));
	case json_type_boolean:
		return strdup(json_object_get_boolean(v) ? "yes" : "no");
	case json_type_int:
	case json_type_double:
		return strdup(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
	case json_type_array: {
		size_t i, n = json_object_array_length(v), len = 0;
		FILE *f = open_memstream(&s, &len);

		if (!f)
			return NULL;
		for (i = 0; i < n; i++) {
			char *e = scalar_text(json_object_array_get_idx(v, i));

			if (e)
				fprintf(f, "%s%s", len || ftell(f) ? ", " : "", e);
			free(e);
		}
		if (fclose(f))
			return NULL;
		if (s && !*s) {
			free(s);
			s = NULL;
		}
		return s;
	}
	default:
		return NULL;
	}
}

/* Readable names for the keys raidbench writes; any other key is shown as it is. */
static const char *key_label(const char *k)
{
	static const char *const map[][2] = {
		{ "path", "Target" }, { "kind", "Kind" }, { "size_bytes", "Size (bytes)" },
		{ "device", "Device" }, { "model", "Model" }, { "serial", "Serial" },
		{ "wwid", "WWID" }, { "controller", "Controller" }, { "raid_level", "RAID level" },
		{ "level", "RAID level" }, { "strip_size_bytes", "Strip size (bytes)" },
		{ "members", "Members" }, { "member_devices", "Member devices" },
		{ "file_system", "File system" }, { "mount_point", "Mount point" },
		{ "firmware", "Firmware" }, { "drives", "Drives" }, { "drive_ids", "Drive ids" },
		{ "tool", "Vendor tool" }, { "logical_drive", "Logical drive" },
		{ "initializing", "Initializing" },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(k, map[i][0]))
			return map[i][1];
	return k;
}

/* Every scalar member of o as a meta line "prefix Key". */
static int add_object(struct rdoc *d, const char *prefix, json_object *o)
{
	char key[256];
	int ret = 0;

	if (!o || !json_object_is_type(o, json_type_object))
		return 0;
	json_object_object_foreach(o, k, v) {
		char *t = scalar_text(v);

		snprintf(key, sizeof(key), "%s%s%s", prefix, *prefix ? " " : "", key_label(k));
		if (t)
			ret = add_meta(d, key, t);
		free(t);
		if (ret)
			return ret;
	}
	return 0;
}

/* "k=v k=v" of an options object (fio's "global options", "job options"). */
static char *options_text(json_object *o)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f;

	if (!o || !json_object_is_type(o, json_type_object))
		return NULL;
	if (!(f = open_memstream(&s, &len)))
		return NULL;
	json_object_object_foreach(o, k, v) {
		char *t = scalar_text(v);

		fprintf(f, "%s%s=%s", ftell(f) ? " " : "", k, t ? t : "");
		free(t);
	}
	if (fclose(f))
		return NULL;
	return s;
}

static int fill_meta(struct rdoc *d, json_object *root)
{
	json_object *rb = get(root, "raidbench"), *targets = get(rb, "targets"), *jobs;
	const char *base = strrchr(d->r.path, '/');
	char *t, key[300];
	int ret = 0;
	size_t i;

	ret |= add_meta(d, "File", base ? base + 1 : d->r.path);
	ret |= add_meta(d, "Generator", d->r.generator);
	ret |= add_meta(d, "Host", get_str(rb, "host"));
	ret |= add_meta(d, "Start time", get_str(rb, "time") ? get_str(rb, "time") :
			get_str(root, "time"));
	ret |= add_meta(d, "Profile", get_str(rb, "profile"));
	if ((t = scalar_text(get(rb, "job_files"))))
		ret |= add_meta(d, "Job files", t);
	free(t);
	if (get(rb, "interrupted") && json_object_get_boolean(get(rb, "interrupted")))
		ret |= add_meta(d, "Interrupted", "yes: stopped before its end, partial results");
	for (i = 0; targets && json_object_is_type(targets, json_type_array) &&
		    i < json_object_array_length(targets) && !ret; i++) {
		snprintf(key, sizeof(key), "Target %zu", i + 1);
		ret = add_object(d, i ? key : "", json_object_array_get_idx(targets, i));
	}
	if (!ret)
		ret = add_object(d, "Sweep", get(rb, "sweep"));
	if (!ret && (t = options_text(get(root, "global options"))))
		ret = add_meta(d, "Global options", t);
	else
		t = NULL;
	free(t);
	jobs = get(root, "jobs");
	for (i = 0; !ret && i < json_object_array_length(jobs) && i < 64; i++) {
		json_object *j = json_object_array_get_idx(jobs, i);
		const char *name = get_str(j, "jobname");

		snprintf(key, sizeof(key), "Job %.200s options", name ? name : "?");
		/* clones repeat their job's options */
		if (i && name && !strcmp(name, get_str(json_object_array_get_idx(jobs, i - 1),
							"jobname") ?: ""))
			continue;
		if ((t = options_text(get(j, "job options"))))
			ret = add_meta(d, key, t);
		free(t);
	}
	return ret ? -ENOMEM : 0;
}

/* ---- histograms and percentiles ------------------------------------------------ */

struct bin {
	double ns, count;
};

static int cmp_bin(const void *a, const void *b)
{
	double x = ((const struct bin *)a)->ns, y = ((const struct bin *)b)->ns;

	return x < y ? -1 : x > y;
}

/* Adds fio's "bins" {"ns": count} to phase p, merging equal buckets. */
static int add_bins(struct rdoc_phase *p, json_object *bins)
{
	struct bin *all;
	size_t n = p->nr_bins, k = 0, i;

	if (!bins || !json_object_is_type(bins, json_type_object))
		return 0;
	all = calloc(n + (size_t)json_object_object_length(bins) + 1, sizeof(*all));
	if (!all)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		all[k++] = (struct bin){ p->bin_ns[i], p->bin_count[i] };
	json_object_object_foreach(bins, key, v) {
		char *end;
		double ns = strtod(key, &end);

		if (*end || !(ns >= 0) || !is_num(v) || !(json_object_get_double(v) > 0))
			continue;
		all[k++] = (struct bin){ ns, json_object_get_double(v) };
	}
	qsort(all, k, sizeof(*all), cmp_bin);
	free(p->bin_ns);
	free(p->bin_count);
	p->bin_ns = calloc(k + 1, sizeof(double));
	p->bin_count = calloc(k + 1, sizeof(double));
	if (!p->bin_ns || !p->bin_count) {
		free(all);
		return -ENOMEM;
	}
	for (i = 0, n = 0; i < k; i++) {
		if (n && p->bin_ns[n - 1] == all[i].ns) {
			p->bin_count[n - 1] += all[i].count;
			continue;
		}
		p->bin_ns[n] = all[i].ns;
		p->bin_count[n++] = all[i].count;
	}
	p->nr_bins = n;
	free(all);
	return 0;
}

static void max_pct(double *dst, json_object *pct, const char *key, double scale)
{
	double v = get_num(pct, key, -1);

	if (v >= 0 && v * scale > *dst)
		*dst = v * scale;
}

static struct rdoc_phase *phase_of(struct rdoc *d, const char *label, int ddir)
{
	for (size_t i = 0; i < d->r.nr_phases; i++)
		if (d->r.phases[i].ddir == ddir && !strcmp(d->r.phases[i].name, label))
			return &d->phases[i];
	return NULL;
}

/* Each job entry's phase label, by the rule core/results.c names them with. */
static int fill_phases(struct rdoc *d, json_object *root)
{
	static const char *const dirs[] = { "read", "write", "trim" };
	json_object *jobs = get(root, "jobs");
	struct strmap seen, groups;
	char *key = NULL, label[600];
	int ret = 0;

	strmap_init(&seen);
	strmap_init(&groups);
	for (size_t i = 0; i < json_object_array_length(jobs) && !ret; i++) {
		json_object *j = json_object_array_get_idx(jobs, i);
		const char *name = get_str(j, "jobname");
		double g = get_num(j, "groupid", 0);
		int group = g >= -1e9 && g <= 1e9 ? (int)g : 0;
		size_t same = 0, idx;

		if (!name || asprintf(&key, "%d\x1f%s", group, name) < 0) {
			ret = name ? -ENOMEM : 0;
			continue;
		}
		if (strmap_get(&seen, key, &idx)) {
			strmap_get(&groups, name, &same);
			same = idx;
		} else {
			strmap_get(&groups, name, &same);
			if (strmap_put(&seen, key, same) || strmap_put(&groups, name, same + 1))
				ret = -ENOMEM;
		}
		free(key);
		if (same)
			snprintf(label, sizeof(label), "%s#%zu", name, same + 1);
		else
			snprintf(label, sizeof(label), "%s", name);
		for (int k = 0; k < 3 && !ret; k++) {
			json_object *o = get(j, dirs[k]), *clat = get(o, "clat_ns"), *pct;
			struct rdoc_phase *p = phase_of(d, label, k);
			double scale = 1;

			if (!p)
				continue;
			if (!clat && (clat = get(o, "clat")))
				scale = 1000;	/* fio 2.x: usec */
			pct = get(clat, "percentile");
			max_pct(&p->p50_ns, pct, "50.000000", scale);
			max_pct(&p->p99_ns, pct, "99.000000", scale);
			max_pct(&p->p999_ns, pct, "99.900000", scale);
			if (scale == 1)
				ret = add_bins(p, get(clat, "bins"));
		}
	}
	strmap_release(&seen);
	strmap_release(&groups);
	return ret;
}

/* ---- series ---------------------------------------------------------------------- */

static double *num_array(json_object *o, const char *key, size_t n)
{
	json_object *a = get(o, key);
	double *v = calloc(n ? n : 1, sizeof(double));

	for (size_t i = 0; v && i < n; i++) {
		json_object *e = a && json_object_is_type(a, json_type_array) &&
				 i < json_object_array_length(a) ?
				 json_object_array_get_idx(a, i) : NULL;

		v[i] = is_num(e) ? json_object_get_double(e) : NAN;
	}
	return v;
}

static void track_release(struct rdoc_track *t)
{
	free(t->t0_ms);
	free(t->t1_ms);
	free(t->ios);
	free(t->bytes);
	for (int s = 0; s < RD_NR_STATS; s++)
		for (int k = 0; k < 3; k++)
			free(t->v[s][k]);
	memset(t, 0, sizeof(*t));
}

static int track_read(struct rdoc_track *t, json_object *o, const char *const *stats, int nr)
{
	static const char *const part[3] = { "min", "mean", "max" };
	json_object *a = get(o, "t_start_ms");
	char key[64];
	bool ok;

	memset(t, 0, sizeof(*t));
	t->n = a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
	t->t0_ms = num_array(o, "t_start_ms", t->n);
	t->t1_ms = num_array(o, "t_end_ms", t->n);
	t->ios = num_array(o, "ios", t->n);
	t->bytes = num_array(o, "bytes", t->n);
	ok = t->t0_ms && t->t1_ms && t->ios && t->bytes;
	for (int s = 0; s < nr; s++)
		for (int k = 0; k < 3; k++) {
			snprintf(key, sizeof(key), "%s_%s", stats[s], part[k]);
			ok &= !!(t->v[s][k] = num_array(o, key, t->n));
		}
	if (!ok) {
		track_release(t);
		return -ENOMEM;
	}
	return 0;
}

static int fill_series(struct rdoc *d, json_object *root)
{
	static const char *const io_stats[] = { "iops", "bw_bytes", "p50_ns", "p99_ns", "p99_9_ns" };
	static const char *const dev_stats[] = { "util_pct" };
	json_object *s = get(get(root, "raidbench"), "series"), *ph, *dv;
	size_t i;

	if (!s || !json_object_is_type(s, json_type_object))
		return 0;
	d->has_series = true;
	d->tick_ms = get_num(s, "tick_ms", 0);
	ph = get(s, "phases");
	for (i = 0; ph && json_object_is_type(ph, json_type_array) &&
		    i < json_object_array_length(ph); i++) {
		json_object *o = json_object_array_get_idx(ph, i);
		const char *label = get_str(o, "phase"), *dir = get_str(o, "ddir");
		int ddir = !dir ? -1 : !strcmp(dir, "read") ? 0 : !strcmp(dir, "write") ? 1 :
			   !strcmp(dir, "trim") ? 2 : -1;
		struct rdoc_phase *p = label && ddir >= 0 ? phase_of(d, label, ddir) : NULL;

		if (!p || p->series)
			continue;
		if (!(p->series = calloc(1, sizeof(*p->series))) ||
		    track_read(p->series, o, io_stats, RD_NR_STATS)) {
			free(p->series);
			p->series = NULL;
			return -ENOMEM;
		}
	}
	dv = get(s, "devices");
	if (!dv || !json_object_is_type(dv, json_type_array) || !json_object_array_length(dv))
		return 0;
	d->devs = calloc(json_object_array_length(dv), sizeof(*d->devs));
	if (!d->devs)
		return -ENOMEM;
	for (i = 0; i < json_object_array_length(dv); i++) {
		json_object *o = json_object_array_get_idx(dv, i), *um = get(o, "util_meaningful");
		struct rdoc_dev *v = &d->devs[d->nr_devs];

		if (!get_str(o, "name"))
			continue;
		if (!(v->name = strdup(get_str(o, "name"))) || track_read(&v->t, o, dev_stats, 1)) {
			free(v->name);
			return -ENOMEM;
		}
		v->util_meaningful = um && json_object_is_type(um, json_type_boolean) ?
				     json_object_get_boolean(um) : -1;
		d->nr_devs++;
	}
	return 0;
}

static int make_label(struct rdoc *d, json_object *root)
{
	const char *level = get_str(get(get(root, "raidbench"), "sweep"), "level");
	const char *base = strrchr(d->r.path, '/');
	int n;

	base = base ? base + 1 : d->r.path;
	if (level) {
		d->sweep_level = strdup(level);
		if (!d->sweep_level)
			return -ENOMEM;
		n = asprintf(&d->label, "RAID %s", level);
	} else {
		n = asprintf(&d->label, "%zu: %.*s", d->index + 1, (int)(strlen(base) > 5 &&
			     !strcmp(base + strlen(base) - 5, ".json") ? strlen(base) - 5 :
			     strlen(base)), base);
	}
	if (n < 0)
		d->label = NULL;
	return n < 0 ? -ENOMEM : 0;
}

/* The rest of a doc from the result's JSON (root is put here). */
static int fill(struct rdoc *d, json_object *root, char *err, size_t errlen)
{
	int ret = 0;

	d->phases = calloc(d->r.nr_phases ? d->r.nr_phases : 1, sizeof(*d->phases));
	if (!d->phases) {
		ret = -ENOMEM;
	} else {
		for (size_t i = 0; i < d->r.nr_phases; i++) {
			d->phases[i].rp = &d->r.phases[i];
			d->phases[i].p50_ns = d->phases[i].p99_ns = d->phases[i].p999_ns = -1;
		}
		ret = fill_phases(d, root);
	}
	if (!ret)
		ret = fill_series(d, root);
	if (!ret)
		ret = fill_meta(d, root);
	if (!ret)
		ret = make_label(d, root);
	json_object_put(root);
	if (ret) {
		snprintf(err, errlen, "%s: out of memory", d->r.path ? d->r.path : "result");
		rdoc_release(d);
	}
	return ret;
}

int rdoc_load(struct rdoc *d, size_t index, const char *path, char *err, size_t errlen)
{
	json_object *root = NULL;
	int ret;

	memset(d, 0, sizeof(*d));
	d->index = index;
	ret = result_load_json(&d->r, path, &root, err, errlen);
	return ret ? ret : fill(d, root, err, errlen);
}

int rdoc_parse(struct rdoc *d, size_t index, const char *name, const char *text, size_t len,
	       char *err, size_t errlen)
{
	json_object *root = NULL;
	int ret;

	memset(d, 0, sizeof(*d));
	d->index = index;
	ret = result_parse_json(&d->r, name, text, len, &root, err, errlen);
	return ret ? ret : fill(d, root, err, errlen);
}

void rdoc_release(struct rdoc *d)
{
	size_t i;

	for (i = 0; d->phases && i < d->r.nr_phases; i++) {
		free(d->phases[i].bin_ns);
		free(d->phases[i].bin_count);
		if (d->phases[i].series)
			track_release(d->phases[i].series);
		free(d->phases[i].series);
	}
	free(d->phases);
	for (i = 0; i < d->nr_devs; i++) {
		free(d->devs[i].name);
		track_release(&d->devs[i].t);
	}
	free(d->devs);
	for (i = 0; i < d->nr_meta; i++) {
		free(d->meta[i].key);
		free(d->meta[i].val);
	}
	free(d->meta);
	free(d->sweep_level);
	free(d->label);
	result_release(&d->r);
	memset(d, 0, sizeof(*d));
}
