/*
 * options.c - fio's job grammar into a struct job_list: job files (ini,
 * [global] sections, include, ${VAR}, inline comments), command-line job
 * options, the way the two combine, reporting groups, and the reverse
 * (fio --showcmd). What each option means is core/job.c; units and lists
 * are core/units.c. Rules: ../shared/reference/fio.md sections 1.1 and 1.3.
 *
 * Reads job files and nothing else; never prints: every failure is one
 * line in the caller's buffer, naming file:line and the option.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "options.h"
#include "units.h"

#define MAX_INCLUDE_DEPTH 16
/* fio's max_jobs: jobs and their numjobs clones together; each costs a job_spec */
#define MAX_JOBS 4096
/* filename= and directory= entries over all jobs: a [global] list is copied into each job */
#define MAX_JOB_PATHS (1u << 20)
#define CMDLINE_FILE "<command line>"

/*
 * fio 3.33's job options raidbench refuses, with why: each changes what the
 * job does in a way raidbench does not reproduce, so accepting it would run
 * a different test than the job file asks for.
 */
#define WHY_IOLOG "raidbench does not replay fio iologs or blktraces"
static const struct { const char *name, *why; } fio_unsupported[] = {
	{ "blocksize_unaligned", "raidbench keeps block sizes multiples of the smallest one" },
	{ "bs_unaligned", "raidbench keeps block sizes multiples of the smallest one" },
	{ "create_only", "raidbench does not lay out files without running the job" },
	{ "file_append", "raidbench does not append to files" },
	{ "fsync_on_close", "raidbench does not fsync on close (end_fsync=1 syncs at the end)" },
	{ "gpu_dev_id", "raidbench does not use GPU memory" },
	{ "max_latency", "raidbench does not fail a job on a latency limit" },
	{ "log_compression_cpus", "raidbench does not compress logs" },
	{ "merge_blktrace_file", WHY_IOLOG },
	{ "merge_blktrace_iters", WHY_IOLOG },
	{ "merge_blktrace_scalars", WHY_IOLOG },
	{ "read_iolog", WHY_IOLOG },
	{ "read_iolog_chunked", WHY_IOLOG },
	{ "replay_align", WHY_IOLOG },
	{ "replay_no_stall", WHY_IOLOG },
	{ "replay_redirect", WHY_IOLOG },
	{ "replay_scale", WHY_IOLOG },
	{ "replay_skip", WHY_IOLOG },
	{ "replay_time_scale", WHY_IOLOG },
	{ "write_hist_log", "raidbench does not write histogram logs" },
	{ "opendir", "raidbench does not take a whole directory tree as targets" },
	{ "profile", "fio's built-in profiles are not available (see raidbench profiles)" },
	{ "stream_id", "SCSI write streams are not supported" },
	{ NULL, NULL },
};

/*
 * Options of fio 3.33's engines (and profiles) raidbench does not run, with
 * where they belong: from HOWTO's "I/O engine specific parameters" and
 * profile sections (tests/data/fio-3.33-options.txt holds the whole list).
 */
static const struct { const char *name, *owner; } fio_engine_options[] = {
	{ "bindname", "rdma" },
	{ "block", "tiobench" },
	{ "busy_poll", "rbd/rados" },
	{ "busy_wait_polling", "librpma_*_server" },
	{ "chunk_size", "dfs" },
	{ "clientname", "rbd/rados" },
	{ "clustername", "rbd/rados" },
	{ "conf", "rados" },
	{ "cont", "dfs" },
	{ "cuda_io", "libcufile" },
	{ "device-names", "act" },
	{ "dir", "tiobench" },
	{ "direct_write_to_pmem", "librpma_*" },
	{ "gpu_dev_ids", "libcufile" },
	{ "hdfsdirectory", "libhdfs" },
	{ "http_host", "http" },
	{ "http_mode", "http" },
	{ "http_pass", "http" },
	{ "http_s3_key", "http" },
	{ "http_s3_keyid", "http" },
	{ "http_s3_region", "http" },
	{ "http_s3_sse_customer_algorithm", "http" },
	{ "http_s3_sse_customer_key", "http" },
	{ "http_s3_storage_class", "http" },
	{ "http_swift_auth_token", "http" },
	{ "http_user", "http" },
	{ "http_verbose", "http" },
	{ "https", "http" },
	{ "large-block-op-kbytes", "act" },
	{ "load", "act" },
	{ "namenode", "libhdfs" },
	{ "nfs_url", "nfs" },
	{ "numruns", "tiobench" },
	{ "object_class", "dfs" },
	{ "pool", "rbd/rados" },
	{ "prep", "act" },
	{ "rbdname", "rbd" },
	{ "read-req-num-512-blocks", "act" },
	{ "serverip", "librpma_*" },
	{ "size", "tiobench" },
	{ "test-duration", "act" },
	{ "threads", "tiobench" },
	{ "threads-per-queue", "act" },
	{ "touch_objects", "rados" },
	{ "verb", "rdma" },
	{ "xnvme_admin", "xnvme" },
	{ "xnvme_async", "xnvme" },
	{ "xnvme_dev_nsid", "xnvme" },
	{ "xnvme_iovec", "xnvme" },
	{ "xnvme_sync", "xnvme" },
	{ NULL, NULL },
};

/* The engine(s) or profile an option of fio belongs to, or NULL. */
static const char *engine_option_owner(const char *key)
{
	int i;

	for (i = 0; fio_engine_options[i].name; i++)
		if (!strcmp(key, fio_engine_options[i].name))
			return fio_engine_options[i].owner;
	return NULL;
}

/* ---- option names -------------------------------------------------------- */

static const char *strip_dashes(const char *key)
{
	return strncmp(key, "--", 2) ? key : key + 2;
}

/* Why raidbench refuses fio's option key, or NULL when it is not one of those. */
static const char *unsupported_why(const char *key)
{
	int i;

	for (i = 0; fio_unsupported[i].name; i++)
		if (!strcmp(key, fio_unsupported[i].name))
			return fio_unsupported[i].why;
	return NULL;
}

static bool is_unsupported_fio_option(const char *key)
{
	return unsupported_why(key) != NULL;
}

bool option_is_job_option(const char *key)
{
	/* fio's names we refuse count too, so the refusal names the reason */
	key = strip_dashes(key);
	return job_opt_find(key) >= 0 || is_unsupported_fio_option(key) || engine_option_owner(key);
}

bool option_needs_value(const char *key)
{
	int idx = job_opt_find(strip_dashes(key));

	return idx >= 0 && !job_opt_bare(idx);
}

/* Optimal string alignment distance: typos are mostly one edit or a swap. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t d[64][64];

	if (la >= 64 || lb >= 64)
		return (size_t)-1;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1], best = d[i - 1][j - 1] + cost;

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

static void consider(const char *key, const char *name, const char **best, size_t *best_d)
{
	size_t d;

	if (!name)
		return;
	/* the distance is at least the length difference: skip the table for most names */
	d = strlen(key) > strlen(name) ? strlen(key) - strlen(name) : strlen(name) - strlen(key);
	if (d >= *best_d)
		return;
	d = edit_distance(key, name);
	if (d < *best_d) {
		*best = name;
		*best_d = d;
	}
}

/* The closest option name within two edits, supported ones first on a tie. */
static const char *suggest_option(const char *key)
{
	const char *best = NULL;
	size_t best_d = 3;
	int i;

	for (i = 0; i < job_opt_count(); i++) {
		consider(key, job_opt_name(i), &best, &best_d);
		consider(key, job_opt_alias(i), &best, &best_d);
	}
	for (i = 0; fio_unsupported[i].name; i++)
		consider(key, fio_unsupported[i].name, &best, &best_d);
	/* "xy" is two edits from "bs": no hint when everything differs */
	return best && best_d < strlen(key) ? best : NULL;
}

/* ---- sections -------------------------------------------------------------- */

struct src_opt {
	char *key;
	char *value;		/* NULL for a bare flag */
	const char *file;	/* NULL: the command line */
	int line;
};

struct section {
	char *name;		/* NULL for the command-line globals */
	bool global;
	const char *file;
	int line;
	struct src_opt *opts;
	size_t nr, alloc;
};

struct loader {
	struct job_list *jl;
	size_t jobs_alloc, gopts_alloc;
	struct job_draft cmd_global;	/* defaults + command-line globals */
	struct job_draft file_global;	/* the current file's [global] state */
	bool stonewall_next;		/* the next job is a later file's first */
	struct section cur;		/* the section being read */
	bool in_section;
	struct section over;		/* the user's word over every job's own options */
	size_t nr_threads;		/* jobs so far, numjobs counted: MAX_JOBS */
	size_t nr_job_paths;		/* their path entries: MAX_JOB_PATHS */
	char **paths;			/* job files and resolved includes: src_opt.file points
					 * here; handed to the job list (jl->files) */
	size_t nr_paths;
	char *err;
	size_t errlen;
};

static int load_errf(struct loader *ld, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int load_errf(struct loader *ld, const char *file, int line, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!file)
		return units_errf(ld->err, ld->errlen, "command line: %s", msg);
	if (line > 0)
		return units_errf(ld->err, ld->errlen, "%s:%d: %s", file, line, msg);
	return units_errf(ld->err, ld->errlen, "%s: %s", file, msg);
}

static int nomem(struct loader *ld)
{
	units_errf(ld->err, ld->errlen, "out of memory");
	return -ENOMEM;
}

static void section_clear(struct section *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++) {
		free(s->opts[i].key);
		free(s->opts[i].value);
	}
	free(s->opts);
	free(s->name);
	memset(s, 0, sizeof(*s));
}

static int section_start(struct section *s, const char *name, const char *file, int line)
{
	section_clear(s);
	if (name && !(s->name = strdup(name)))
		return -ENOMEM;
	/* fio compares six characters: [global-foo] is a global section too */
	s->global = name && !strncmp(name, "global", 6);
	s->file = file;
	s->line = line;
	return 0;
}

static int section_add(struct section *s, const char *key, const char *value,
		       const char *file, int line)
{
	struct src_opt *o;

	if (s->nr == s->alloc) {
		size_t n = s->alloc ? 2 * s->alloc : 16;
		struct src_opt *p = realloc(s->opts, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		s->opts = p;
		s->alloc = n;
	}
	o = &s->opts[s->nr];
	o->key = strdup(key);
	o->value = value ? strdup(value) : NULL;
	o->file = file;
	o->line = line;
	if (!o->key || (value && !o->value)) {
		free(o->key);
		free(o->value);
		return -ENOMEM;
	}
	s->nr++;
	return 0;
}

static int apply_one(struct loader *ld, struct job_draft *d, const struct src_opt *o)
{
	char why[512];
	const char *hint;
	int ret = job_draft_set(d, o->key, o->value, why, sizeof(why));

	if (ret == -ENOMEM)
		return nomem(ld);
	if (ret == -EINVAL)
		return load_errf(ld, o->file, o->line, "%s", why);
	if (ret != -ENOENT)
		return ret;
	if (is_unsupported_fio_option(o->key))
		return load_errf(ld, o->file, o->line,
				 "option '%s' is a fio option raidbench does not support: %s",
				 o->key, unsupported_why(o->key));
	if (engine_option_owner(o->key)) {
		const char *owner = engine_option_owner(o->key);
		bool profile = !strcmp(owner, "act") || !strcmp(owner, "tiobench");

		return load_errf(ld, o->file, o->line, "option '%s' belongs to fio's %s %s, which "
				 "raidbench does not run", o->key, owner, profile ? "profile" : "engine");
	}
	hint = suggest_option(o->key);
	if (hint)
		return load_errf(ld, o->file, o->line,
				 "unknown option '%s' (did you mean '%s'?)", o->key, hint);
	return load_errf(ld, o->file, o->line, "unknown option '%s'", o->key);
}

/* fio's option priorities: kb_base first, so "bs=4k" after it obeys it */
static int apply_section(struct loader *ld, struct job_draft *d, const struct section *s)
{
	int pass, ret;
	size_t i;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < s->nr; i++) {
			int idx = job_opt_find(s->opts[i].key);
			bool early = idx >= 0 && job_opt_early(idx);

			if (early != (pass == 0))
				continue;
			ret = apply_one(ld, d, &s->opts[i]);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* true when a and b name the same option, aliases included ("blocksize" and "bs") */
static bool same_option(const char *a, const char *b)
{
	int ia = job_opt_find(a), ib = job_opt_find(b);

	return ia >= 0 ? ia == ib : !strcmp(a, b);
}

static int kv_append(struct opt_kv **arr, size_t *nr, size_t *alloc, const struct src_opt *o,
		     bool replace)
{
	struct opt_kv *kv;
	int idx;

	if (*nr == *alloc) {
		size_t n = *alloc ? 2 * *alloc : 16;
		struct opt_kv *p = realloc(*arr, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		*arr = p;
		*alloc = n;
	}
	kv = &(*arr)[*nr];
	/* fio's JSON echoes options under their canonical names ("blocksize" as "bs") */
	idx = job_opt_find(o->key);
	if (replace) {
		/* an override: the option it replaces goes, so each option is said once */
		const char *canon = idx >= 0 ? job_opt_name(idx) : o->key;
		size_t i, k = 0;

		for (i = 0; i < *nr; i++) {
			if (!strcmp((*arr)[i].key, canon)) {
				free((*arr)[i].key);
				free((*arr)[i].value);
				continue;
			}
			(*arr)[k++] = (*arr)[i];
		}
		*nr = k;
		kv = &(*arr)[*nr];
	}
	kv->key = strdup(idx >= 0 ? job_opt_name(idx) : o->key);
	kv->value = o->value ? strdup(o->value) : NULL;
	if (!kv->key || (o->value && !kv->value)) {
		free(kv->key);
		free(kv->value);
		return -ENOMEM;
	}
	(*nr)++;
	return 0;
}

static int add_job(struct loader *ld, const struct job_draft *base, const struct section *s)
{
	struct job_list *jl = ld->jl;
	struct job_draft d;
	struct job_spec *j = &d.spec;
	size_t i, alloc = 0;
	char why[512];
	int ret;

	/* checked before the copy: the copy is what a long [global] list multiplies */
	if (ld->nr_job_paths + base->spec.nr_filenames + base->spec.nr_directories > MAX_JOB_PATHS)
		return load_errf(ld, s->file, s->line, "job '%s': the jobs name more than %u "
				 "files and directories in all", s->name, MAX_JOB_PATHS);
	if (job_draft_copy(&d, base))
		return nomem(ld);
	j->src_file = s->file ? s->file : CMDLINE_FILE;
	j->src_line = s->line;
	/* fio puts a stonewall between job files (set before the options: stonewall=0 wins) */
	if (ld->stonewall_next) {
		j->stonewall = true;
		ld->stonewall_next = false;
	}
	/* the section names the job: a name= among the globals does not (fio's jobname) */
	free(j->name);
	j->name = strdup(s->name);
	ret = j->name ? apply_section(ld, &d, s) : nomem(ld);
	if (!ret)
		ret = apply_section(ld, &d, &ld->over);
	if (!ret) {
		ret = job_draft_finish(&d, why, sizeof(why));
		if (ret == -ENOMEM)
			ret = nomem(ld);
		else if (ret)
			ret = load_errf(ld, s->file, s->line, "job '%s': %s", j->name, why);
	}
	if (!ret) {
		ld->nr_threads += j->numjobs ? j->numjobs : 1;
		ld->nr_job_paths += (size_t)j->nr_filenames + j->nr_directories;
		if (ld->nr_threads > MAX_JOBS)
			ret = load_errf(ld, s->file, s->line, "job '%s': more than %d jobs in all "
					"(numjobs clones included; fio's limit too)", j->name, MAX_JOBS);
		else if (ld->nr_job_paths > MAX_JOB_PATHS)
			ret = load_errf(ld, s->file, s->line, "job '%s': the jobs name more than %u "
					"files and directories in all", j->name, MAX_JOB_PATHS);
	}
	for (i = 0; !ret && i < s->nr; i++)
		if (kv_append(&j->job_options, &j->nr_job_options, &alloc, &s->opts[i], false))
			ret = nomem(ld);
	/* an override stands among the globals; a job that set it too says it again */
	for (i = 0; !ret && i < ld->over.nr; i++) {
		size_t k;

		for (k = 0; k < s->nr; k++)
			if (same_option(ld->over.opts[i].key, s->opts[k].key))
				break;
		if (k < s->nr &&
		    kv_append(&j->job_options, &j->nr_job_options, &alloc, &ld->over.opts[i], true))
			ret = nomem(ld);
	}
	if (!ret && jl->nr == ld->jobs_alloc) {
		size_t n = ld->jobs_alloc ? 2 * ld->jobs_alloc : 8;
		struct job_spec *p = realloc(jl->jobs, n * sizeof(*p));

		if (!p) {
			ret = nomem(ld);
		} else {
			jl->jobs = p;
			ld->jobs_alloc = n;
		}
	}
	if (ret) {
		job_draft_release(&d);
		return ret;
	}
	jl->jobs[jl->nr++] = d.spec;	/* the list owns the spec now */
	return 0;
}

static int add_global(struct loader *ld, struct job_draft *d, const struct section *s)
{
	size_t i;
	int ret = apply_section(ld, d, s);

	for (i = 0; !ret && i < s->nr; i++) {
		size_t k;

		/* the override is the global that counts (it is listed already) */
		for (k = 0; k < ld->over.nr; k++)
			if (same_option(ld->over.opts[k].key, s->opts[i].key))
				break;
		if (k == ld->over.nr &&
		    kv_append(&ld->jl->global_options, &ld->jl->nr_global_options,
			      &ld->gopts_alloc, &s->opts[i], false))
			ret = nomem(ld);
	}
	return ret;
}

/* The section just read is complete: fold it into the globals or make a job. */
static int section_finish(struct loader *ld)
{
	int ret;

	if (!ld->in_section)
		return 0;
	ld->in_section = false;
	if (ld->cur.global)
		ret = add_global(ld, &ld->file_global, &ld->cur);
	else
		ret = add_job(ld, &ld->file_global, &ld->cur);
	section_clear(&ld->cur);
	return ret;
}

/* ---- job files ------------------------------------------------------------ */

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && (isspace((unsigned char)e[-1]) || iscntrl((unsigned char)e[-1])))
		*--e = '\0';
	return s;
}

/* what ${VAR} may add to one line: values repeated a million times are not a job */
#define EXPAND_GROWTH_MAX (16u << 20)

/*
 * fio_option_dup_subs: ${VAR} becomes its value, or nothing when unset.
 * Fills *res (the caller frees it); -E2BIG when the values make the line
 * more than EXPAND_GROWTH_MAX longer. One pass: a "${" with no '}' after it
 * means none of the later ones has one either.
 */
static int expand_env(const char *s, char **res)
{
	size_t inlen = strlen(s), cap = inlen + 1, len = 0;
	char *out = malloc(cap);
	bool closed = true;

	*res = NULL;
	while (out && *s) {
		bool open = s[0] == '$' && s[1] == '{';
		const char *end = open && closed ? strchr(s + 2, '}') : NULL;
		const char *val = NULL;
		size_t n = 1;

		if (open && !end)
			closed = false;
		if (end) {
			char *name = strndup(s + 2, (size_t)(end - s - 2));

			if (!name)
				break;
			val = getenv(name);
			free(name);
			n = val ? strlen(val) : 0;
		}
		if (len + n > inlen + EXPAND_GROWTH_MAX) {
			free(out);
			return -E2BIG;
		}
		if (len + n + 1 > cap) {
			char *p = realloc(out, cap = 2 * (len + n + 1));

			if (!p)
				break;
			out = p;
		}
		if (n)
			memcpy(out + len, end ? val : s, n);
		len += n;
		s = end ? end + 1 : s + 1;
	}
	if (!out || *s) {
		free(out);
		return -ENOMEM;
	}
	out[len] = '\0';
	*res = out;
	return 0;
}

static int read_file(struct loader *ld, FILE *f, const char *path, int depth);

/*
 * An include's path is relative to the including file's directory (fio.md
 * 1.1); fio itself tries the working directory first, so that is the
 * fallback.
 */
static int do_include(struct loader *ld, const char *name, const char *from, int line,
		      int depth)
{
	const char *slash = strrchr(from, '/');
	char *path, **p;
	FILE *f;
	int ret, err;

	if (depth >= MAX_INCLUDE_DEPTH)
		return load_errf(ld, from, line, "include '%s': nested deeper than %d (an include loop?)",
				 name, MAX_INCLUDE_DEPTH);
	if (name[0] == '/' || !slash)
		path = strdup(name);
	else if (asprintf(&path, "%.*s%s", (int)(slash - from + 1), from, name) < 0)
		path = NULL;
	if (!path)
		return nomem(ld);
	f = fopen(path, "r");
	err = errno;
	if (!f && err == ENOENT && strcmp(path, name)) {
		f = fopen(name, "r");
		if (f) {
			free(path);
			if (!(path = strdup(name))) {
				fclose(f);
				return nomem(ld);
			}
		}
	}
	p = realloc(ld->paths, (ld->nr_paths + 1) * sizeof(*p));
	if (!p) {
		free(path);
		if (f)
			fclose(f);
		return nomem(ld);
	}
	ld->paths = p;
	ld->paths[ld->nr_paths++] = path;
	if (!f) {
		load_errf(ld, from, line, "include '%s': %s", name, strerror(err));
		return -err;
	}
	ret = read_file(ld, f, path, depth + 1);
	fclose(f);
	return ret;
}

static int read_line(struct loader *ld, char *raw, const char *path, int lineno, int depth)
{
	char *s, *cut, *line, *eq, *key, *value = NULL;
	int ret;

	/* fio's strip_blank_end: everything after the first ';' or '#' goes */
	cut = strpbrk(raw, ";#");
	if (cut)
		*cut = '\0';
	s = trim(raw);
	if (!*s)
		return 0;

	if (*s == '[') {
		char *end = s + strlen(s) - 1, *name;

		if (depth)
			return load_errf(ld, path, lineno, "section '%s' in an included file "
					 "(included files hold options only)", s);
		if (*end != ']')
			return load_errf(ld, path, lineno, "bad section header '%s' (expected [name])", s);
		*end = '\0';
		name = trim(s + 1);
		if (!*name)
			return load_errf(ld, path, lineno, "empty section name '[]'");
		ret = section_finish(ld);
		if (ret)
			return ret;
		if (section_start(&ld->cur, name, path, lineno))
			return nomem(ld);
		ld->in_section = true;
		return 0;
	}

	if (!ld->in_section)
		return load_errf(ld, path, lineno, "option '%s' outside of a [section]", s);
	if (!strncmp(s, "include", 7) && isspace((unsigned char)s[7]))
		return do_include(ld, trim(s + 8), path, lineno, depth);

	ret = expand_env(s, &line);
	if (ret == -E2BIG)
		return load_errf(ld, path, lineno, "${VAR} values make the line longer than %u MiB",
				 EXPAND_GROWTH_MAX >> 20);
	if (ret)
		return nomem(ld);
	eq = strchr(line, '=');
	if (eq) {
		*eq = '\0';
		value = trim(eq + 1);
	}
	key = trim(line);
	if (!*key)
		ret = load_errf(ld, path, lineno, "missing option name in '%s'", s);
	else if (section_add(&ld->cur, key, value, path, lineno))
		ret = nomem(ld);
	else
		ret = 0;
	free(line);
	return ret;
}

static int read_file(struct loader *ld, FILE *f, const char *path, int depth)
{
	char *buf = NULL;
	size_t cap = 0;
	int lineno = 0, ret = 0;

	while (!ret && getline(&buf, &cap, f) >= 0) {
		/* a UTF-8 byte order mark from an editor is not an option */
		bool bom = lineno == 0 && !strncmp(buf, "\xef\xbb\xbf", 3);

		ret = read_line(ld, buf + (bom ? 3 : 0), path, ++lineno, depth);
	}
	if (!ret && ferror(f)) {
		int err = errno ? errno : EIO;

		load_errf(ld, path, 0, "%s", strerror(err));
		ret = -err;
	}
	free(buf);
	return ret;
}

static int load_file(struct loader *ld, const char *path, size_t idx)
{
	FILE *f;
	int ret;

	job_draft_release(&ld->file_global);
	/* command-line globals sit underneath the first job file only */
	if (idx == 0) {
		if (job_draft_copy(&ld->file_global, &ld->cmd_global))
			return nomem(ld);
	} else {
		job_draft_init(&ld->file_global);
	}
	ld->stonewall_next = idx > 0;

	/* "-" is standard input, as for fio */
	f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!f) {
		int err = errno;

		load_errf(ld, path, 0, "%s", strerror(err));
		return -err;
	}
	ret = read_file(ld, f, path, 0);
	if (f != stdin)
		fclose(f);
	if (!ret)
		ret = section_finish(ld);
	return ret;
}

/* ---- command line --------------------------------------------------------- */

static int load_cmdline(struct loader *ld, const struct cmd_opt *opts, size_t nr)
{
	struct section s = { 0 };
	size_t i = 0;
	int ret = 0;

	/* options before the first --name are the global defaults */
	for (; !ret && i < nr && strcmp(strip_dashes(opts[i].key), "name"); i++)
		if (section_add(&s, strip_dashes(opts[i].key), opts[i].value, NULL, 0))
			ret = nomem(ld);
	if (!ret)
		ret = add_global(ld, &ld->cmd_global, &s);

	while (!ret && i < nr) {
		const char *name = opts[i].value;

		if (!name || !*name) {
			ret = load_errf(ld, NULL, 0, "option 'name' needs a value");
			break;
		}
		/* a command-line job lists its name among its options, as fio's JSON does */
		if (section_start(&s, name, NULL, 0) ||
		    (strncmp(name, "global", 6) && section_add(&s, "name", name, NULL, 0))) {
			ret = nomem(ld);
			break;
		}
		for (i++; !ret && i < nr && strcmp(strip_dashes(opts[i].key), "name"); i++)
			if (section_add(&s, strip_dashes(opts[i].key), opts[i].value, NULL, 0))
				ret = nomem(ld);
		/* fio: --name=global... opens another global section */
		if (!ret)
			ret = s.global ? add_global(ld, &ld->cmd_global, &s)
				       : add_job(ld, &ld->cmd_global, &s);
	}
	section_clear(&s);
	return ret;
}

/* fio's add_job: stonewall or new_group opens a group unless it is still empty. */
static void assign_groups(struct job_list *jl)
{
	size_t i, in_group = 0;
	int groupid = 0;

	for (i = 0; i < jl->nr; i++) {
		struct job_spec *j = &jl->jobs[i];

		if ((j->stonewall || j->new_group) && in_group) {
			groupid++;
			in_group = 0;
		}
		j->groupid = groupid;
		in_group++;
	}
}

int jobs_load(struct job_list *jl, const struct cmd_opt *opts, size_t nr_opts,
	      char *const *files, size_t nr_files, char *err, size_t errlen)
{
	return jobs_load_over(jl, opts, nr_opts, files, nr_files, NULL, 0, err, errlen);
}

int jobs_load_over(struct job_list *jl, const struct cmd_opt *opts, size_t nr_opts,
		   char *const *files, size_t nr_files, const struct cmd_opt *over,
		   size_t nr_over, char *err, size_t errlen)
{
	struct loader ld = { .jl = jl, .err = err, .errlen = errlen };
	size_t i;
	int ret = 0;

	memset(jl, 0, sizeof(*jl));
	job_draft_init(&ld.cmd_global);
	job_draft_init(&ld.file_global);

	for (i = 0; !ret && i < nr_over; i++)
		if (section_add(&ld.over, strip_dashes(over[i].key), over[i].value, NULL, 0) ||
		    kv_append(&jl->global_options, &jl->nr_global_options, &ld.gopts_alloc,
			      &ld.over.opts[i], false))
			ret = nomem(&ld);
	if (!ret)
		ret = load_cmdline(&ld, opts, nr_opts);
	/* the job list keeps its own copy of each name: jobs point at it (src_file) for as
	 * long as the list lives, whatever becomes of the caller's strings */
	for (i = 0; !ret && i < nr_files; i++) {
		char *copy = strdup(files[i]), **p = realloc(ld.paths, (ld.nr_paths + 1) * sizeof(*p));

		if (p)
			ld.paths = p;
		if (!copy || !p) {
			free(copy);
			ret = nomem(&ld);
			break;
		}
		ld.paths[ld.nr_paths++] = copy;
		ret = load_file(&ld, copy, i);
	}
	if (!ret && !jl->nr)
		ret = units_errf(err, errlen,
				 "no jobs defined (give a job file with a [job] section, or --name=)");
	if (!ret)
		assign_groups(jl);

	section_clear(&ld.cur);
	section_clear(&ld.over);
	job_draft_release(&ld.cmd_global);
	job_draft_release(&ld.file_global);
	jl->files = ld.paths;
	jl->nr_files = ld.nr_paths;
	if (ret)
		job_list_release(jl);
	return ret;
}

/* ---- notes ---------------------------------------------------------------- */

static void note_kv(FILE *m, const struct opt_kv *kv, const char *where)
{
	const char *note = job_opt_note(kv->key, kv->value);

	if (note)
		fprintf(m, "%s: option '%s': %s\n", where, kv->key, note);
}

char *jobs_notes(const struct job_list *jl)
{
	char *buf = NULL, where[300];
	size_t len = 0, i, k;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	for (k = 0; k < jl->nr_global_options; k++)
		note_kv(m, &jl->global_options[k], "global");
	for (i = 0; i < jl->nr; i++) {
		const struct io_engine_ops *ops = engine_find(jl->jobs[i].ioengine);

		snprintf(where, sizeof(where), "job '%s'", jl->jobs[i].name);
		for (k = 0; k < jl->jobs[i].nr_job_options; k++)
			note_kv(m, &jl->jobs[i].job_options[k], where);
		/* the shell commands around its I/O (job_cmd.c runs them) */
		if (jl->jobs[i].exec_prerun)
			fprintf(m, "%s: exec_prerun will run '%s' through /bin/sh before the job's "
				"I/O (its output to %s.prerun.txt)\n", where, jl->jobs[i].exec_prerun,
				jl->jobs[i].name);
		if (jl->jobs[i].exec_postrun)
			fprintf(m, "%s: exec_postrun will run '%s' through /bin/sh after the job's "
				"I/O (its output to %s.postrun.txt)\n", where,
				jl->jobs[i].exec_postrun, jl->jobs[i].name);
		/* what the job does besides I/O (the command exec runs) */
		if (ops && ops->describe) {
			char what[1024];

			ops->describe(&jl->jobs[i], what, sizeof(what));
			fprintf(m, "%s: %s\n", where, what);
		}
	}
	if (fclose(m)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* ---- fio --showcmd -------------------------------------------------------- */

static void put_arg(FILE *m, const char *key, const char *value)
{
	size_t n;
	const char *p;

	fprintf(m, " --%s", key);
	if (!value)
		return;
	n = strlen(value);
	/* the job file's quotes were for fio's parser; the shell gets its own */
	if (n >= 2 && value[0] == '"' && value[n - 1] == '"') {
		value++;
		n -= 2;
	}
	fputc('=', m);
	if (n && strspn(value, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			"0123456789_./:,=+%@^-") >= n) {
		fwrite(value, 1, n, m);
		return;
	}
	fputc('\'', m);
	for (p = value; p < value + n; p++) {
		if (*p == '\'')
			fputs("'\\''", m);
		else
			fputc(*p, m);
	}
	fputc('\'', m);
}

/*
 * Whether option k is set again later in the same list: the later one wins,
 * so the command line shows only it ("--runtime=5 ... --runtime=15" read as
 * two values).
 */
static bool set_again(const struct opt_kv *o, size_t nr, size_t k)
{
	for (size_t i = k + 1; i < nr; i++)
		if (!strcmp(o[i].key, o[k].key))
			return true;
	return false;
}

char *jobs_to_cmdline(const struct job_list *jl)
{
	char *buf = NULL;
	size_t len = 0, i, k;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	/* a name= among the options would start another job on a command line */
	fputs("fio", m);
	for (k = 0; k < jl->nr_global_options; k++)
		if (strcmp(jl->global_options[k].key, "name") &&
		    !set_again(jl->global_options, jl->nr_global_options, k))
			put_arg(m, jl->global_options[k].key, jl->global_options[k].value);
	for (i = 0; i < jl->nr; i++) {
		const struct job_spec *j = &jl->jobs[i];

		put_arg(m, "name", j->name);
		for (k = 0; k < j->nr_job_options; k++)
			if (strcmp(j->job_options[k].key, "name") &&
			    !set_again(j->job_options, j->nr_job_options, k))
				put_arg(m, j->job_options[k].key, j->job_options[k].value);
	}
	if (fclose(m)) {
		free(buf);
		return NULL;
	}
	return buf;
}
