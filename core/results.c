/*
 * results.c - saved runs: writes each run's JSON with raidbench's own section
 * (host, version, time, profile, each target's identity), lists the results
 * directory, and reads results back - raidbench's and fio's own JSON - into
 * per-phase numbers for compare (core/compare.c lines them up).
 *
 * Writes only inside the results directory, to a new file (O_EXCL), via a
 * temporary name and rename. Never prints.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bufcat.h"
#include "grow.h"
#include "results.h"
#include "series.h"
#include "strmap.h"
#include "userdir.h"
#include "worker.h"

/* A results file larger than this is not one of ours or fio's. */
#define RESULT_MAX_BYTES (64u << 20)

static int results_dir_path(char *buf, size_t len, char *err, size_t errlen)
{
	return userdir_path(USERDIR_DATA, "results", buf, len, err, errlen);
}

int results_dir(char *buf, size_t len, char *err, size_t errlen)
{
	int ret = results_dir_path(buf, len, err, errlen);

	return ret ? ret : userdir_make(buf, err, errlen);
}

/* ---- saving ---------------------------------------------------------------- */

const char *results_profile_name(const struct job_list *jl, char *name, size_t len)
{
	size_t i;

	for (i = 0; jl && i < jl->nr; i++) {
		const char *f = jl->jobs[i].src_file, *base, *dir;
		size_t n;

		if (!f || !(base = strrchr(f, '/')))
			continue;
		n = strlen(base + 1);
		if (n < 5 || strcmp(base + 1 + n - 4, ".fio"))
			continue;
		/* the directory right above must be a "profiles" directory */
		for (dir = base; dir > f && dir[-1] != '/'; dir--)
			;
		if ((size_t)(base - dir) != strlen("profiles") || strncmp(dir, "profiles", 8))
			continue;
		snprintf(name, len, "%.*s", (int)(n - 4), base + 1);
		return name;
	}
	return NULL;
}

static json_object *str_or_null(const char *s)
{
	return s && *s ? json_object_new_string(s) : NULL;
}

static json_object *identity_json(const char *path, bool blockdev, uint64_t size,
				  results_identify_fn identify)
{
	struct results_identity id;
	json_object *t = json_object_new_object();

	memset(&id, 0, sizeof(id));
	id.strip_size_bytes = -1;
	id.members = -1;
	if (identify)
		identify(path, &id);
	json_object_object_add(t, "path", json_object_new_string(path));
	json_object_object_add(t, "kind", json_object_new_string(blockdev ? "block_device" : "file"));
	json_object_object_add(t, "size_bytes", json_object_new_int64((int64_t)size));
	json_object_object_add(t, "device", str_or_null(id.device));
	json_object_object_add(t, "model", str_or_null(id.model));
	json_object_object_add(t, "serial", str_or_null(id.serial));
	json_object_object_add(t, "wwid", str_or_null(id.wwid));
	json_object_object_add(t, "controller", str_or_null(id.controller));
	json_object_object_add(t, "raid_level", str_or_null(id.raid_level));
	json_object_object_add(t, "strip_size_bytes", id.strip_size_bytes >= 0 ?
			       json_object_new_int64(id.strip_size_bytes) : NULL);
	json_object_object_add(t, "members", id.members >= 0 ?
			       json_object_new_int(id.members) : NULL);
	json_object_object_add(t, "member_devices", str_or_null(id.member_devices));
	json_object_object_add(t, "file_system", str_or_null(id.fs_type));
	json_object_object_add(t, "mount_point", str_or_null(id.mount_point));
	return t;
}

static bool has_path(json_object *arr, const char *p)
{
	size_t k;

	for (k = 0; k < json_object_array_length(arr); k++) {
		json_object *v;

		if (json_object_object_get_ex(json_object_array_get_idx(arr, k), "path", &v) &&
		    !strcmp(json_object_get_string(v), p))
			return true;
	}
	return false;
}

static json_object *targets_json(const struct run_result *res, results_identify_fn identify)
{
	json_object *arr = json_object_new_array();
	size_t i;
	unsigned f;

	for (i = 0; i < res->nr_workers; i++) {
		const struct worker *w = &res->workers[i];

		for (f = 0; f < w->nr_files; f++) {
			const struct worker_file *wf = &w->files[f];

			if (wf->fd < 0 && !wf->was_open)
				continue;	/* a no-data engine opens no file */
			if (has_path(arr, wf->path))
				continue;
			json_object_array_add(arr, identity_json(wf->path, wf->is_blockdev,
								 wf->real_size, identify));
		}
	}
	return arr;
}

static json_object *job_files_json(const struct job_list *jl)
{
	json_object *arr = json_object_new_array();
	size_t i, k;

	for (i = 0; jl && i < jl->nr; i++) {
		const char *f = jl->jobs[i].src_file;
		bool seen = false;

		if (!f || f[0] == '<')
			continue;	/* "<command line>" */
		for (k = 0; k < json_object_array_length(arr); k++)
			if (!strcmp(json_object_get_string(json_object_array_get_idx(arr, k)), f))
				seen = true;
		if (!seen)
			json_object_array_add(arr, json_object_new_string(f));
	}
	return arr;
}

static bool isalnum_ascii(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* A file name part from a job or profile name: letters, digits, '-', '_', '.'. */
static void name_part(char *out, size_t len, const char *s)
{
	size_t n = 0;

	for (; s && *s && n + 1 < len; s++)
		out[n++] = (isalnum_ascii(*s) || *s == '-' || *s == '_' || *s == '.') ? *s : '_';
	out[n] = '\0';
	if (!n)
		snprintf(out, len, "run");
}

/* The first target a run opened, NULL when none (a no-data engine's names are not real). */
static const char *first_target(const struct run_result *res)
{
	size_t i;
	unsigned f;

	for (i = 0; i < res->nr_workers; i++)
		for (f = 0; f < res->workers[i].nr_files; f++) {
			const struct worker_file *wf = &res->workers[i].files[f];

			if (wf->fd >= 0 || wf->was_open)
				return wf->path;
		}
	return NULL;
}

/*
 * A saved run's file name part: what ran, then where ("default-loop0",
 * "randread-4k-16jobs-scratch.dat"). What ran is the profile, else the job
 * file's stem, else the first job's name (a command-line run).
 */
static void file_name(char *out, size_t len, const struct run_report *rep,
		      const struct run_result *res, const char *profile)
{
	const char *what = profile, *src = rep->jobs && rep->jobs->nr ? rep->jobs->jobs[0].src_file : NULL;
	const char *where = first_target(res), *s;
	char stem[64] = "", both[160], a[64], b[64];
	size_t n;

	if (!what && src && src[0] != '<' && strcmp(src, "-")) {
		s = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
		n = strlen(s);
		if (n > 4 && !strcmp(s + n - 4, ".fio"))
			n -= 4;
		snprintf(stem, sizeof(stem), "%.*s", (int)n, s);
		what = stem;
	}
	if (!what)
		what = rep->nr_ts ? rep->ts[0].name : NULL;
	name_part(a, sizeof(a), what);
	if (!where) {
		snprintf(out, len, "%s", a);
		return;
	}
	where = strrchr(where, '/') ? strrchr(where, '/') + 1 : where;
	name_part(b, sizeof(b), where);
	snprintf(both, sizeof(both), "%s-%s", a, b);
	snprintf(out, len, "%s", both);
}

static json_object *raidbench_json(const struct run_report *rep, const struct run_result *res,
				   results_identify_fn identify, const char *profile)
{
	json_object *rb = json_object_new_object();
	char host[256] = "", when[64];
	time_t start = (time_t)(res->start_realtime_ms / 1000);
	struct tm tm;

	gethostname(host, sizeof(host) - 1);
	if (!start)
		start = rep->when;
	localtime_r(&start, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S%z", &tm);
	json_object_object_add(rb, "version", json_object_new_string(rep->version));
	json_object_object_add(rb, "host", json_object_new_string(host));
	json_object_object_add(rb, "start_ms", json_object_new_int64((int64_t)res->start_realtime_ms));
	json_object_object_add(rb, "time", json_object_new_string(when));
	json_object_object_add(rb, "interrupted", json_object_new_boolean(res->interrupted));
	json_object_object_add(rb, "profile", str_or_null(profile));
	json_object_object_add(rb, "job_files", job_files_json(rep->jobs));
	json_object_object_add(rb, "targets", targets_json(res, identify));
	if (res->series)
		json_object_object_add(rb, "series", series_json(res->series));
	return rb;
}

/*
 * fio's JSON of the run with the "raidbench" object: what is saved, and what a summary reads.
 * bins: json+ (the clat histogram's bins, what a report draws the latency histogram from).
 */
static int build_root(const struct run_report *rep, const struct run_result *res,
		      results_identify_fn identify, const char *profile,
		      const struct results_extra *extras, size_t nr_extras, bool bins,
		      json_object **out, char *err, size_t errlen)
{
	char *json = report_json_string(rep, bins);
	json_object *root = json ? json_tokener_parse(json) : NULL, *rb;

	free(json);
	if (!root) {
		snprintf(err, errlen, "cannot build the results JSON");
		return -ENOMEM;
	}
	rb = raidbench_json(rep, res, identify, profile);
	json_object_object_add(root, "raidbench", rb);
	for (size_t i = 0; i < nr_extras; i++) {
		json_object *v = json_tokener_parse(extras[i].json);

		if (!v) {
			snprintf(err, errlen, "results: the \"%s\" section is not JSON", extras[i].key);
			json_object_put(root);
			return -EINVAL;
		}
		json_object_object_add(rb, extras[i].key, v);
	}
	*out = root;
	return 0;
}

int results_save(const struct run_report *rep, const struct run_result *res,
		 results_identify_fn identify, char *path, size_t pathlen, char *err,
		 size_t errlen)
{
	return results_save_extra(rep, res, identify, NULL, 0, path, pathlen, err, errlen);
}

int results_save_extra(const struct run_report *rep, const struct run_result *res,
		       results_identify_fn identify, const struct results_extra *extras,
		       size_t nr_extras, char *path, size_t pathlen, char *err, size_t errlen)
{
	char dir[PATH_MAX], tmp[PATH_MAX + 16], stamp[32], pname[128], part[128];
	const char *text, *profile;
	json_object *root;
	struct tm tm;
	int fd, tfd, n, ret = 0;
	FILE *f;

	ret = results_dir(dir, sizeof(dir), err, errlen);
	if (ret)
		return ret;
	profile = results_profile_name(rep->jobs, pname, sizeof(pname));
	ret = build_root(rep, res, identify, profile, extras, nr_extras, true, &root, err,
			 errlen);
	if (ret)
		return ret;
	text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY);

	file_name(part, sizeof(part), rep, res, profile);
	localtime_r(&rep->when, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	for (n = 0; n < 1000; n++) {
		snprintf(path, pathlen, "%s/%s-%s%s%.0d.json", dir, stamp, part, n ? "-" : "", n);
		fd = userdir_open(path, O_WRONLY | O_CREAT | O_EXCL, 0644, err, errlen);
		if (fd != -EEXIST)
			break;
	}
	if (fd < 0) {
		json_object_put(root);
		return fd;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	tfd = userdir_open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644, err, errlen);
	f = tfd >= 0 ? fdopen(tfd, "w") : NULL;
	if (tfd >= 0 && !f)
		close(tfd);
	if (tfd < 0) {
		ret = tfd;
	} else if (!f || fputs(text, f) < 0 || fputc('\n', f) < 0 || fflush(f) ||
		   fsync(fileno(f))) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
	}
	if (f && fclose(f) && !ret) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
	}
	close(fd);
	if (!ret && rename(tmp, path) < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	}
	if (ret) {
		unlink(tmp);
		unlink(path);
	}
	json_object_put(root);
	return ret;
}

/* ---- reading results back ------------------------------------------------- */

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static const char *get_str(json_object *o, const char *key)
{
	json_object *v = get(o, key);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

static double get_num(json_object *o, const char *key, double dflt)
{
	json_object *v = get(o, key);

	if (v && (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
		return json_object_get_double(v);
	return dflt;
}

/* v as an integer when in [lo, hi], else dflt: casting NaN or a huge double is undefined. */
static int64_t num_in(double v, double lo, double hi, int64_t dflt)
{
	return v >= lo && v <= hi ? (int64_t)v : dflt;
}

static int dup_str(char **dst, const char *s)
{
	*dst = NULL;
	if (s && !(*dst = strdup(s)))
		return -ENOMEM;
	return 0;
}

/* Completion latency figures of one direction; < 0 where the file has none. */
struct ddir_lat {
	double mean, p50, p99, p999, max;
};

/* fio's clat (what its percentiles describe); fio 2.x wrote "clat" in usec. */
static void ddir_latency(json_object *d, struct ddir_lat *l)
{
	json_object *clat = get(d, "clat_ns"), *pct;
	double scale = 1.0, pscale;

	if (!clat && (clat = get(d, "clat")))
		scale = 1000.0;
	l->mean = get_num(clat, "mean", 0) * scale;
	l->max = get(clat, "max") ? get_num(clat, "max", 0) * scale : -1;
	pscale = scale;
	pct = get(clat, "percentile");
	if (!pct) {
		/* lat_percentiles=1 moves fio's percentiles to lat_ns */
		pct = get(get(d, "lat_ns"), "percentile");
		pscale = 1.0;
	}
	l->p50 = pct && get(pct, "50.000000") ? get_num(pct, "50.000000", -1) * pscale : -1;
	l->p99 = pct && get(pct, "99.000000") ? get_num(pct, "99.000000", -1) * pscale : -1;
	l->p999 = pct && get(pct, "99.900000") ? get_num(pct, "99.900000", -1) * pscale : -1;
}

/* a and b merged where both are known (clones side by side: rates add up) */
static double add_known(double a, double b)
{
	return a < 0 || b < 0 ? -1 : a + b;
}

/*
 * What reading one result keeps to find its entries by name in constant
 * time (a scan per job made a long jobs array quadratic): the label of
 * (job name, group), the name or "name#k" for its k-th group, and the
 * phase of (label, direction).
 */
struct labels {
	struct strmap label_of;		/* "group<US>job" -> names[] */
	struct strmap groups_of;	/* job -> how many groups it has so far */
	struct strmap phase_of;		/* "ddir<US>label" -> result's phases[] */
	char **names;
	size_t nr, cap;
	size_t phases_cap;
};

static void labels_release(struct labels *l)
{
	strmap_release(&l->label_of);
	strmap_release(&l->groups_of);
	strmap_release(&l->phase_of);
	for (size_t i = 0; i < l->nr; i++)
		free(l->names[i]);
	free(l->names);
}

static const char *label_for(struct labels *l, const char *job, int groupid)
{
	size_t i, same = 0;
	char *key, buf[512];

	if (asprintf(&key, "%d\x1f%s", groupid, job) < 0)
		return NULL;
	if (strmap_get(&l->label_of, key, &i)) {
		free(key);
		return l->names[i];
	}
	strmap_get(&l->groups_of, job, &same);
	if (l->nr == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		char **n = realloc(l->names, cap * sizeof(*n));

		if (!n)
			goto nomem;
		l->names = n;
		l->cap = cap;
	}
	if (same)
		snprintf(buf, sizeof(buf), "%s#%zu", job, same + 1);
	else
		snprintf(buf, sizeof(buf), "%s", job);
	if (!(l->names[l->nr] = strdup(buf)))
		goto nomem;
	if (strmap_put(&l->label_of, key, l->nr) || strmap_put(&l->groups_of, job, same + 1)) {
		free(l->names[l->nr]);
		goto nomem;
	}
	free(key);
	return l->names[l->nr++];
nomem:
	free(key);
	return NULL;
}

static struct result_phase *phase_for(struct result *r, struct labels *l, const char *label,
				      int ddir)
{
	struct result_phase *n;
	size_t i;
	char *key;

	if (asprintf(&key, "%d\x1f%s", ddir, label) < 0)
		return NULL;
	if (strmap_get(&l->phase_of, key, &i)) {
		free(key);
		return &r->phases[i];
	}
	if (r->nr_phases == l->phases_cap) {
		size_t cap = l->phases_cap ? 2 * l->phases_cap : 16;

		n = realloc(r->phases, cap * sizeof(*n));
		if (!n)
			goto nomem;
		r->phases = n;
		l->phases_cap = cap;
	}
	n = &r->phases[r->nr_phases];
	memset(n, 0, sizeof(*n));
	n->ddir = ddir;
	n->lat_p99_ns = n->lat_p50_ns = n->lat_p999_ns = n->lat_max_ns = -1;
	if (!(n->name = strdup(label)))
		goto nomem;
	if (strmap_put(&l->phase_of, key, r->nr_phases)) {
		free(n->name);
		goto nomem;
	}
	free(key);
	r->nr_phases++;
	return n;
nomem:
	free(key);
	return NULL;
}

static int add_job(struct result *r, json_object *job, struct labels *ls)
{
	static const char *const dirs[] = { "read", "write", "trim" };
	const char *jobname = get_str(job, "jobname"), *label;
	int groupid = (int)num_in(get_num(job, "groupid", 0), INT_MIN, INT_MAX, 0), d;
	double errors = get(job, "total_err") ? get_num(job, "total_err", 0) :
			get_num(job, "error", 0) != 0;

	label = label_for(ls, jobname, groupid);
	if (!label)
		return -ENOMEM;
	for (d = 0; d < 3; d++) {
		json_object *o = get(job, dirs[d]);
		double ios = get_num(o, "total_ios", 0), bw;
		struct result_phase *p;
		struct ddir_lat l;
		bool first;

		if (!o || ios <= 0)
			continue;
		if (!(p = phase_for(r, ls, label, d)))
			return -ENOMEM;
		first = !p->nr_entries;
		if (!p->desc && get_str(job, "desc") && dup_str(&p->desc, get_str(job, "desc")))
			return -ENOMEM;
		ddir_latency(o, &l);
		bw = get_num(o, "bw_bytes", -1);
		if (bw < 0)
			bw = get_num(o, "bw", 0) * 1024.0;	/* fio's bw is KiB/s */
		/* clones run side by side: rates add up, latency is per I/O */
		p->lat_mean_ns = (p->lat_mean_ns * (double)p->total_ios + l.mean * ios) /
				 ((double)p->total_ios + ios);
		p->total_ios += (uint64_t)num_in(ios, 0, 9e18, 0);
		p->iops += get_num(o, "iops", 0);
		p->bw_bytes += bw;
		if (l.p99 > p->lat_p99_ns)
			p->lat_p99_ns = l.p99;
		if (l.p50 > p->lat_p50_ns)
			p->lat_p50_ns = l.p50;
		if (l.p999 > p->lat_p999_ns)
			p->lat_p999_ns = l.p999;
		if (l.max > p->lat_max_ns)
			p->lat_max_ns = l.max;
		/* fio's bw_min/bw_max are KiB/s; a file without them has no range */
		p->iops_min = add_known(first ? 0 : p->iops_min, get_num(o, "iops_min", -1));
		p->iops_max = add_known(first ? 0 : p->iops_max, get_num(o, "iops_max", -1));
		p->bw_min = add_known(first ? 0 : p->bw_min,
				      get(o, "bw_min") ? get_num(o, "bw_min", 0) * 1024.0 : -1);
		p->bw_max = add_known(first ? 0 : p->bw_max,
				      get(o, "bw_max") ? get_num(o, "bw_max", 0) * 1024.0 : -1);
		p->errors += (uint64_t)num_in(errors, 0, 9e18, 0);
		p->groupid = groupid;
		p->nr_entries++;
	}
	return 0;
}

/* "/dev/sdb ST2000NM0045 RAID 5 (+2 more)" from raidbench's targets; cut to len. */
static void target_summary(char *buf, size_t len, json_object *targets)
{
	json_object *t = json_object_array_get_idx(targets, 0);
	const char *dev = get_str(t, "path"), *model = get_str(t, "model");
	const char *level = get_str(t, "raid_level"), *fs = get_str(t, "file_system");
	const char *on = get_str(t, "device");
	size_t n = json_object_array_length(targets), w;

	w = bufcat(buf, len, 0, "%s", dev ? dev : "?");
	if (on && strcmp(on, dev ? dev : ""))
		w = bufcat(buf, len, w, " on %s", on);
	if (model)
		w = bufcat(buf, len, w, " %s", model);
	if (level)
		w = bufcat(buf, len, w, " RAID %s", level);
	if (fs)
		w = bufcat(buf, len, w, " (%s)", fs);
	if (n > 1)
		bufcat(buf, len, w, " +%zu more", n - 1);
}

static int fill_meta(struct result *r, json_object *root)
{
	json_object *rb = get(root, "raidbench"), *jobs = get(root, "jobs");
	const char *target = NULL;
	char buf[512];

	r->raidbench = rb && json_object_is_type(rb, json_type_object);
	if (dup_str(&r->generator, get_str(root, "fio version")))
		return -ENOMEM;
	if (r->raidbench) {
		json_object *targets = get(rb, "targets");

		r->time_ms = num_in(get_num(rb, "start_ms", 0), -9e18, 9e18, 0);
		r->interrupted = get(rb, "interrupted") &&
				 json_object_get_boolean(get(rb, "interrupted"));
		if (dup_str(&r->host, get_str(rb, "host")) ||
		    dup_str(&r->profile, get_str(rb, "profile")))
			return -ENOMEM;
		if (targets && json_object_is_type(targets, json_type_array) &&
		    json_object_array_length(targets)) {
			target_summary(buf, sizeof(buf), targets);
			target = buf;
		}
	}
	if (!r->time_ms)
		r->time_ms = num_in(get_num(root, "timestamp_ms", get_num(root, "timestamp", 0) * 1000),
				    -9e18, 9e18, 0);
	if (!target)
		target = get_str(get(root, "global options"), "filename");
	if (!target)
		target = get_str(get(json_object_array_get_idx(jobs, 0), "job options"), "filename");
	if (!target)
		target = get_str(get(root, "global options"), "directory");
	return dup_str(&r->target, target);
}

/* fio may print warnings first: the object starts at the first line opening with '{'. */
static const char *json_start(const char *text, size_t len)
{
	const char *p = text, *end = text + len, *any = memchr(text, '{', len);

	while (p < end) {
		const char *q = p;

		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		if (q < end && *q == '{')
			return q;
		q = memchr(p, '\n', (size_t)(end - p));
		if (!q)
			break;
		p = q + 1;
	}
	return any;
}

static bool blank(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
			return false;
	return true;
}

static int parse_keep(struct result *r, const char *name, const char *text, size_t len,
		      json_object **keep, char *err, size_t errlen)
{
	const char *start = json_start(text, len);
	struct json_tokener *tok;
	enum json_tokener_error jerr;
	struct labels ls = { 0 };
	size_t i, off;
	json_object *root, *jobs;
	int ret = 0;

	memset(r, 0, sizeof(*r));
	if (blank(text, len)) {
		snprintf(err, errlen, "%s: empty file, not a result", name);
		return -ENODATA;
	}
	if (!start) {
		snprintf(err, errlen, "%s: not a fio or raidbench JSON result (no JSON object in it)",
			 name);
		return -EINVAL;
	}
	tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	off = (size_t)(start - text);
	root = json_tokener_parse_ex(tok, start, (int)(len - off));
	jerr = json_tokener_get_error(tok);
	if (!root) {
		if (jerr == json_tokener_continue) {
			snprintf(err, errlen, "%s: truncated: the JSON ends after %zu bytes, inside "
				 "the result (an interrupted copy or a full disk?)", name, len);
			ret = -ENODATA;
		} else {
			snprintf(err, errlen, "%s: not valid JSON (byte %zu: %s)", name,
				 off + json_tokener_get_parse_end(tok), json_tokener_error_desc(jerr));
			ret = -EINVAL;
		}
		json_tokener_free(tok);
		return ret;
	}
	json_tokener_free(tok);
	jobs = get(root, "jobs");
	if (!json_object_is_type(root, json_type_object) || !jobs ||
	    !json_object_is_type(jobs, json_type_array)) {
		snprintf(err, errlen, "%s: not a fio or raidbench result: JSON without fio's "
			 "\"jobs\" array", name);
		json_object_put(root);
		return -EINVAL;
	}
	for (i = 0; i < json_object_array_length(jobs); i++) {
		json_object *job = json_object_array_get_idx(jobs, i);

		if (!get_str(job, "jobname")) {
			snprintf(err, errlen, "%s: not a fio or raidbench result: job %zu has no "
				 "\"jobname\"", name, i);
			ret = -EINVAL;
			break;
		}
		if ((ret = add_job(r, job, &ls)))
			break;
	}
	if (!ret && (dup_str(&r->path, name) || fill_meta(r, root)))
		ret = -ENOMEM;
	labels_release(&ls);
	if (!ret && keep)
		*keep = root;
	else
		json_object_put(root);
	if (ret == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", name);
	if (ret)
		result_release(r);
	return ret;
}

int result_parse(struct result *r, const char *name, const char *text, size_t len, char *err,
		 size_t errlen)
{
	return parse_keep(r, name, text, len, NULL, err, errlen);
}

int result_parse_json(struct result *r, const char *name, const char *text, size_t len,
		      json_object **root, char *err, size_t errlen)
{
	return parse_keep(r, name, text, len, root, err, errlen);
}

int result_from_run(struct result *r, const struct run_report *rep, const struct run_result *res,
		    char *err, size_t errlen)
{
	char pname[128];
	const char *profile = results_profile_name(rep->jobs, pname, sizeof(pname)), *text;
	json_object *root;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = build_root(rep, res, NULL, profile, NULL, 0, false, &root, err, errlen);
	if (ret)
		return ret;
	text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN);
	ret = text ? result_parse(r, "this run", text, strlen(text), err, errlen) : -ENOMEM;
	json_object_put(root);
	return ret;
}

int result_load_json(struct result *r, const char *path, json_object **root, char *err,
		     size_t errlen)
{
	struct stat st;
	char *text;
	ssize_t got;
	size_t len = 0;
	int fd, ret;

	memset(r, 0, sizeof(*r));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return ret;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > (off_t)RESULT_MAX_BYTES) {
		snprintf(err, errlen, "%s: %s", path, S_ISDIR(st.st_mode) ? "is a directory" :
			 "not a results file (not a regular file, or larger than 64 MiB)");
		close(fd);
		return -EINVAL;
	}
	text = malloc((size_t)st.st_size + 1);
	if (!text) {
		close(fd);
		return -ENOMEM;
	}
	while ((got = read(fd, text + len, (size_t)st.st_size - len)) > 0)
		len += (size_t)got;
	if (got < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(text);
		close(fd);
		return ret;
	}
	close(fd);
	text[len] = '\0';
	ret = parse_keep(r, path, text, len, root, err, errlen);
	free(text);
	return ret;
}

int result_load(struct result *r, const char *path, char *err, size_t errlen)
{
	return result_load_json(r, path, NULL, err, errlen);
}

void result_release(struct result *r)
{
	size_t i;

	for (i = 0; i < r->nr_phases; i++) {
		free(r->phases[i].name);
		free(r->phases[i].desc);
	}
	free(r->phases);
	free(r->path);
	free(r->generator);
	free(r->host);
	free(r->profile);
	free(r->target);
	memset(r, 0, sizeof(*r));
}

const char *result_name(const struct result *r, char *buf, size_t len)
{
	/* first, so a narrow column that cuts the name still says it */
	snprintf(buf, len, "%s%s", r->interrupted ? "(stopped) " : "",
		 r->profile ? r->profile : r->nr_phases ? r->phases[0].name : "-");
	return buf;
}

void result_peak(const struct result *r, int ddir, double *iops, double *bw_bytes)
{
	size_t i;

	*iops = 0;
	*bw_bytes = 0;
	for (i = 0; i < r->nr_phases; i++) {
		if (r->phases[i].ddir != ddir)
			continue;
		if (r->phases[i].iops > *iops)
			*iops = r->phases[i].iops;
		if (r->phases[i].bw_bytes > *bw_bytes)
			*bw_bytes = r->phases[i].bw_bytes;
	}
}

/* ---- the results directory ---------------------------------------------------- */

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int results_list(struct result_entry **out, size_t *nr, char *err, size_t errlen)
{
	char dir[PATH_MAX], path[PATH_MAX + 256];
	char **names = NULL;
	size_t nr_names = 0, i;
	struct dirent *de;
	DIR *d;
	int ret;

	*out = NULL;
	*nr = 0;
	if ((ret = results_dir_path(dir, sizeof(dir), err, errlen)))
		return ret;
	d = opendir(dir);
	if (!d) {
		if (errno == ENOENT)
			return 0;	/* nothing saved yet */
		ret = -errno;
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return ret;
	}
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);
		char **grown;

		if (de->d_name[0] == '.' || n < 6 || strcmp(de->d_name + n - 5, ".json"))
			continue;
		grown = grow_room(&names, nr_names, sizeof(*names)) ? NULL : names;
		if (!grown || !(grown[nr_names] = strdup(de->d_name))) {
			ret = -ENOMEM;
			break;
		}
		nr_names++;
	}
	closedir(d);
	/* names start with the time stamp, so name order is time order */
	if (!ret && nr_names)
		qsort(names, nr_names, sizeof(*names), cmp_names);
	if (!ret && nr_names && !(*out = calloc(nr_names, sizeof(**out))))
		ret = -ENOMEM;
	for (i = 0; !ret && i < nr_names; i++) {
		struct result_entry *e = &(*out)[(*nr)++];

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (result_load(&e->r, path, e->err, sizeof(e->err)) == -ENOMEM)
			ret = -ENOMEM;
		else if (e->err[0] && !(e->r.path = strdup(path)))
			ret = -ENOMEM;
	}
	for (i = 0; i < nr_names; i++)
		free(names[i]);
	free(names);
	if (ret) {
		snprintf(err, errlen, "listing %s: out of memory", dir);
		results_list_free(*out, *nr);
		*out = NULL;
		*nr = 0;
	}
	return ret;
}

void results_list_free(struct result_entry *list, size_t nr)
{
	size_t i;

	for (i = 0; list && i < nr; i++)
		result_release(&list[i].r);
	free(list);
}
