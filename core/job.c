/*
 * job.c - a job's lifecycle (defaults, deep copy, release) and the table of
 * fio options that raidbench supports: what each option, given as text,
 * does to a struct job_spec, and fio's fixups once a job is complete.
 *
 * Reading job files and the command line is core/options.c; the value
 * grammar (units, lists) is core/units.c. Nothing here does I/O.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "units.h"

/* ---- lifecycle -------------------------------------------------------- */

/*
 * ioengine points into this table unless someone outside the parser put a
 * string of their own there: the parser accepts only these five, so it
 * never allocates (and job_spec_defaults cannot fail).
 */
static char engine_names[][9] = { "libaio", "io_uring", "psync", "sync", "null" };
#define NR_ENGINES (sizeof(engine_names) / sizeof(engine_names[0]))

static bool engine_is_static(const char *p)
{
	size_t i;

	for (i = 0; i < NR_ENGINES; i++)
		if (p == engine_names[i])
			return true;
	return false;
}

void job_spec_defaults(struct job_spec *job)
{
	static const double def_percentiles[] = {
		1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
	};
	unsigned d;

	memset(job, 0, sizeof(*job));
	job->rw = RW_READ;
	job->rwmixread = 50;
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		job->bs[d] = 4096;
		job->bs_max[d] = 4096;
		job->percentage_random[d] = 100;
	}
	job->ioengine = engine_names[0];
	job->iodepth = 1;
	job->iodepth_batch_submit = 1;
	job->iodepth_batch_complete_min = 1;
	job->iodepth_batch_complete_max = 1;
	job->iodepth_low = 1;
	job->numjobs = 1;
	job->loops = 1;
	job->nrfiles = 1;
	job->invalidate = true;
	job->randrepeat = true;
	job->randseed = 0x89;
	job->dist_center = -1;
	job->scramble_buffers = true;
	job->thinktime_blocks = 1;
	CPU_ZERO(&job->cpus_allowed);
	job->do_verify = true;
	memcpy(job->percentiles, def_percentiles, sizeof(def_percentiles));
	job->nr_percentiles = sizeof(def_percentiles) / sizeof(def_percentiles[0]);
	job->clat_percentiles = true;
	job->bwavgtime_ms = 500;
	job->iopsavgtime_ms = 500;
	job->kb_base = 1024;
}

static void free_list(char **list)
{
	units_list_free(list);
}

static void free_kv(struct opt_kv *kv, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(kv[i].key);
		free(kv[i].value);
	}
	free(kv);
}

void job_spec_release(struct job_spec *job)
{
	free(job->name);
	free(job->description);
	if (job->ioengine && !engine_is_static(job->ioengine))
		free(job->ioengine);
	free_list(job->filenames);
	free_list(job->directories);
	free(job->numa_cpu_nodes);
	free(job->numa_mem_policy);
	free(job->write_bw_log);
	free(job->write_lat_log);
	free(job->write_iops_log);
	free_kv(job->job_options, job->nr_job_options);
	memset(job, 0, sizeof(*job));
}

static int dup_str(char **dst, const char *src)
{
	*dst = NULL;
	if (src && !(*dst = strdup(src)))
		return -ENOMEM;
	return 0;
}

static int dup_list(char ***dst, char *const *src, unsigned nr)
{
	unsigned i;

	*dst = NULL;
	if (!src)
		return 0;
	*dst = calloc(nr + 1, sizeof(**dst));
	if (!*dst)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		if (dup_str(&(*dst)[i], src[i]))
			return -ENOMEM;
	return 0;
}

static int dup_kv(struct opt_kv **dst, const struct opt_kv *src, size_t nr)
{
	size_t i;

	*dst = NULL;
	if (!nr)
		return 0;
	*dst = calloc(nr, sizeof(**dst));
	if (!*dst)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		if (dup_str(&(*dst)[i].key, src[i].key) ||
		    dup_str(&(*dst)[i].value, src[i].value))
			return -ENOMEM;
	return 0;
}

int job_spec_copy(struct job_spec *dst, const struct job_spec *src)
{
	int ret = 0;

	*dst = *src;
	/* every owned pointer is replaced before anything can fail, so a
	 * failed copy can be released like a good one */
	ret |= dup_str(&dst->name, src->name);
	ret |= dup_str(&dst->description, src->description);
	if (src->ioengine && !engine_is_static(src->ioengine))
		ret |= dup_str(&dst->ioengine, src->ioengine);
	ret |= dup_list(&dst->filenames, src->filenames, src->nr_filenames);
	ret |= dup_list(&dst->directories, src->directories, src->nr_directories);
	ret |= dup_str(&dst->numa_cpu_nodes, src->numa_cpu_nodes);
	ret |= dup_str(&dst->numa_mem_policy, src->numa_mem_policy);
	ret |= dup_str(&dst->write_bw_log, src->write_bw_log);
	ret |= dup_str(&dst->write_lat_log, src->write_lat_log);
	ret |= dup_str(&dst->write_iops_log, src->write_iops_log);
	ret |= dup_kv(&dst->job_options, src->job_options, src->nr_job_options);
	if (ret) {
		if (!dst->job_options)
			dst->nr_job_options = 0;
		job_spec_release(dst);
		return -ENOMEM;
	}
	return 0;
}

void job_list_release(struct job_list *jl)
{
	size_t i;

	for (i = 0; i < jl->nr; i++)
		job_spec_release(&jl->jobs[i]);
	free(jl->jobs);
	free_kv(jl->global_options, jl->nr_global_options);
	memset(jl, 0, sizeof(*jl));
}

void job_draft_init(struct job_draft *d)
{
	memset(d, 0, sizeof(*d));
	job_spec_defaults(&d->spec);
}

int job_draft_copy(struct job_draft *dst, const struct job_draft *src)
{
	memcpy(dst->set, src->set, sizeof(dst->set));
	memcpy(dst->bare_log, src->bare_log, sizeof(dst->bare_log));
	return job_spec_copy(&dst->spec, &src->spec);
}

void job_draft_release(struct job_draft *d)
{
	job_spec_release(&d->spec);
	memset(d, 0, sizeof(*d));
}

/* ---- option setters ---------------------------------------------------- */

struct job_opt;
typedef int (opt_set_fn)(struct job_draft *d, const struct job_opt *o,
			 const char *v, char *why, size_t len);

struct job_opt {
	const char *name;
	const char *alias;
	opt_set_fn *set;
	size_t off;		/* the field, for the generic setters */
	long long min, max;	/* range; for times min is the unit of a bare number */
	unsigned flags;
};

enum {
	OPT_BARE = 1u << 0,	/* may stand alone as a flag ("time_based") */
	OPT_EARLY = 1u << 1,	/* fio's prio: parsed before the section's others */
	OPT_NEG = 1u << 2,	/* boolean stored inverted ("buffered") */
	OPT_COUNT = 1u << 3,	/* a per-direction count, not a size */
};

#define OFF(f) offsetof(struct job_spec, f)
#define SEC 1000000LL
#define FIELD(d, o, type) ((type *)((char *)&(d)->spec + (o)->off))
#define ERR(...) units_errf(why, len, __VA_ARGS__)

static int range_err(char *why, size_t len, const char *v, long long min, long long max)
{
	if (max == LLONG_MAX || max == UINT_MAX)
		return ERR("'%s' is out of range (expected at least %lld)", v, min);
	return ERR("'%s' is out of range (expected %lld to %lld)", v, min, max);
}

static int set_str(char **field, const char *v)
{
	char *n = strdup(v);

	if (!n)
		return -ENOMEM;
	free(*field);
	*field = n;
	return 0;
}

static int opt_str(struct job_draft *d, const struct job_opt *o, const char *v,
		   char *why, size_t len)
{
	return set_str(FIELD(d, o, char *), v);
}

static int opt_bool(struct job_draft *d, const struct job_opt *o, const char *v,
		    char *why, size_t len)
{
	bool b = true;

	if (v && units_bool(v, &b))
		return ERR("bad value '%s' (expected 0 or 1)", v);
	*FIELD(d, o, bool) = (o->flags & OPT_NEG) ? !b : b;
	return 0;
}

/* fio reads integer options with size units too: iodepth=1k is 1024. */
static int get_uint(struct job_draft *d, const struct job_opt *o, const char *v,
		    unsigned *out, char *why, size_t len)
{
	uint64_t u;

	if (units_size(v, d->spec.kb_base, &u, NULL))
		return ERR("bad number '%s' (expected a whole number)", v);
	if (u < (uint64_t)o->min || u > (uint64_t)o->max || u > UINT_MAX)
		return range_err(why, len, v, o->min, o->max);
	*out = (unsigned)u;
	return 0;
}

static int opt_uint(struct job_draft *d, const struct job_opt *o, const char *v,
		    char *why, size_t len)
{
	return get_uint(d, o, v, FIELD(d, o, unsigned), why, len);
}

static int opt_int(struct job_draft *d, const struct job_opt *o, const char *v,
		   char *why, size_t len)
{
	long long i;

	if (units_int(v, &i))
		return ERR("bad number '%s' (expected a whole number)", v);
	if (i < o->min || i > o->max)
		return range_err(why, len, v, o->min, o->max);
	*FIELD(d, o, int) = (int)i;
	return 0;
}

static int opt_u64(struct job_draft *d, const struct job_opt *o, const char *v,
		   char *why, size_t len)
{
	uint64_t u;

	if (units_size(v, d->spec.kb_base, &u, NULL))
		return ERR("bad size '%s' (expected %s)", v, UNITS_SIZE_HINT);
	if (u < (uint64_t)o->min)
		return range_err(why, len, v, o->min, LLONG_MAX);
	*FIELD(d, o, uint64_t) = u;
	return 0;
}

static int opt_time(struct job_draft *d, const struct job_opt *o, const char *v,
		    char *why, size_t len)
{
	if (units_time_us(v, (uint64_t)o->min, FIELD(d, o, uint64_t)))
		return ERR("bad time '%s' (expected %s; a bare number is %s)", v,
			   UNITS_TIME_HINT, o->min == 1 ? "microseconds" : "seconds");
	return 0;
}

static int opt_size(struct job_draft *d, const struct job_opt *o, const char *v,
		    char *why, size_t len)
{
	struct job_spec *j = &d->spec;
	bool is_size = !strcmp(o->name, "size");
	uint64_t u;
	unsigned pct = 0;

	if (units_size(v, j->kb_base, &u, &pct) || (is_size && v[strlen(v) - 1] == '%' && !pct))
		return ERR("bad size '%s' (expected %s)", v, UNITS_PCT_HINT);
	if (is_size) {
		j->size = u;
		j->size_percent = pct;
	} else {
		j->offset = u;
		j->offset_percent = pct;
	}
	return 0;
}

static int opt_paths(struct job_draft *d, const struct job_opt *o, const char *v,
		     char *why, size_t len)
{
	bool files = !strcmp(o->name, "filename");
	char ***list = files ? &d->spec.filenames : &d->spec.directories;
	unsigned *nr = files ? &d->spec.nr_filenames : &d->spec.nr_directories;
	char **n;
	unsigned count;
	int ret = units_path_list(v, &n, &count);

	if (ret == -EINVAL)
		return ERR("no path in '%s'", v);
	if (ret == -E2BIG)
		return ERR("more than %d paths in one list", UNITS_MAX_PATHS);
	if (ret)
		return ret;
	units_list_free(*list);
	*list = n;
	*nr = count;
	return 0;
}

/* Per-direction sizes or counts: "r,w,t" with fio's propagation. */
static int opt_ddir(struct job_draft *d, const struct job_opt *o, const char *v,
		    char *why, size_t len)
{
	char *copy = strdup(v), *part[DDIR_RWDIR_CNT];
	struct job_spec *j = &d->spec;
	uint64_t val[DDIR_RWDIR_CNT];
	int ret, i;

	if (!copy)
		return -ENOMEM;
	ret = units_ddir_split(copy, false, part, why, len);
	for (i = 0; !ret && i < DDIR_RWDIR_CNT; i++) {
		if (!part[i])
			continue;
		if (units_size(part[i], j->kb_base, &val[i], NULL))
			ret = (o->flags & OPT_COUNT)
				? ERR("bad number '%s' (expected a whole number)", part[i])
				: ERR("bad size '%s' (expected %s)", part[i], UNITS_SIZE_HINT);
		else if (val[i] < (uint64_t)o->min || val[i] > (uint64_t)o->max)
			ret = range_err(why, len, part[i], o->min, o->max);
	}
	for (i = 0; !ret && i < DDIR_RWDIR_CNT; i++) {
		if (!part[i])
			continue;
		if (o->off == OFF(percentage_random))
			j->percentage_random[i] = (unsigned)val[i];
		else
			FIELD(d, o, uint64_t)[i] = val[i];
		/* the later of bs/bsrange/bssplit wins (in fio the range ones do) */
		if (o->off == OFF(bs)) {
			j->bs_max[i] = val[i];
			j->nr_bssplit[i] = 0;
		}
	}
	free(copy);
	return ret;
}

static int opt_bsrange(struct job_draft *d, const struct job_opt *o, const char *v,
		       char *why, size_t len)
{
	char *copy = strdup(v), *part[DDIR_RWDIR_CNT];
	struct job_spec *j = &d->spec;
	uint64_t lo[DDIR_RWDIR_CNT], hi[DDIR_RWDIR_CNT];
	int ret, i;

	if (!copy)
		return -ENOMEM;
	ret = units_ddir_split(copy, true, part, why, len);
	for (i = 0; !ret && i < DDIR_RWDIR_CNT; i++)
		if (part[i] && units_range(part[i], j->kb_base, &lo[i], &hi[i]))
			ret = ERR("bad range '%s' (expected min-max such as 4k-16k)", part[i]);
	for (i = 0; !ret && i < DDIR_RWDIR_CNT; i++) {
		if (!part[i])
			continue;
		j->bs[i] = lo[i];
		j->bs_max[i] = hi[i];
		j->nr_bssplit[i] = 0;
	}
	free(copy);
	return ret;
}

static int opt_bssplit(struct job_draft *d, const struct job_opt *o, const char *v,
		       char *why, size_t len)
{
	struct job_spec *j = &d->spec;
	struct bssplit_entry split[DDIR_RWDIR_CNT][RB_MAX_BSSPLIT];
	unsigned nr[DDIR_RWDIR_CNT], e;
	bool got[DDIR_RWDIR_CNT];
	int ret = units_bssplit_ddir(v, j->kb_base, split, nr, got, why, len);
	int i;

	for (i = 0; !ret && i < DDIR_RWDIR_CNT; i++) {
		if (!got[i])
			continue;
		memcpy(j->bssplit[i], split[i], nr[i] * sizeof(split[i][0]));
		j->nr_bssplit[i] = nr[i];
		j->bs[i] = UINT64_MAX;
		j->bs_max[i] = 0;
		for (e = 0; e < nr[i]; e++) {
			if (split[i][e].bs < j->bs[i])
				j->bs[i] = split[i][e].bs;
			if (split[i][e].bs > j->bs_max[i])
				j->bs_max[i] = split[i][e].bs;
		}
	}
	return ret;
}

/*
 * Options whose value is one of a few words. The value lands in an int-sized
 * field (enum, unsigned) or, for cpus_allowed_policy, a bool; random_generator
 * is only validated: raidbench has one generator.
 */
static const struct {
	const char *opt;
	const char *words[9];
	int vals[9];
	const char *expected;
} word_opts[] = {
	{ "sync", { "none", "0", "sync", "1", "dsync" },
	  { SYNC_NONE, SYNC_NONE, SYNC_SYNC, SYNC_SYNC, SYNC_DSYNC }, "none, 0, sync, 1 or dsync" },
	{ "continue_on_error", { "none", "read", "write", "io", "verify", "all", "0", "1" },
	  { 0, COE_READ, COE_WRITE, COE_IO, COE_VERIFY, COE_ALL, 0, COE_ALL },
	  "none, read, write, io, verify, all, 0 or 1" },
	{ "random_generator", { "tausworthe", "tausworthe64", "lfsr" }, { 0 },
	  "tausworthe, tausworthe64 or lfsr" },
	{ "cpus_allowed_policy", { "shared", "split" }, { 0, 1 }, "shared or split" },
	{ "kb_base", { "1024", "1000" }, { 1024, 1000 }, "1024 or 1000" },
};

static int opt_word(struct job_draft *d, const struct job_opt *o, const char *v,
		    char *why, size_t len)
{
	size_t w, i;

	for (w = 0; strcmp(word_opts[w].opt, o->name); w++)
		;
	for (i = 0; i < 9 && word_opts[w].words[i]; i++) {
		if (strcmp(v, word_opts[w].words[i]))
			continue;
		if (!strcmp(o->name, "cpus_allowed_policy"))
			d->spec.cpus_allowed_split = word_opts[w].vals[i];
		else if (o->off)
			*FIELD(d, o, int) = word_opts[w].vals[i];
		return 0;
	}
	return ERR("bad value '%s' (expected %s)", v, word_opts[w].expected);
}

static int opt_rw(struct job_draft *d, const struct job_opt *o, const char *v,
		  char *why, size_t len)
{
	return units_rw(v, d->spec.kb_base, &d->spec.rw, &d->spec.rw_nr, why, len);
}

static int opt_rwmix(struct job_draft *d, const struct job_opt *o, const char *v,
		     char *why, size_t len)
{
	unsigned pct = 0;
	int ret = get_uint(d, o, v, &pct, why, len);

	if (ret)
		return ret;
	/* each sets the other to 100 - x, so the later one wins */
	d->spec.rwmixread = !strcmp(o->name, "rwmixread") ? pct : 100 - pct;
	return 0;
}

static int opt_ioengine(struct job_draft *d, const struct job_opt *o, const char *v,
			char *why, size_t len)
{
	int i = units_engine(v, why, len);

	if (i < 0)
		return i;
	if (!engine_is_static(d->spec.ioengine))
		free(d->spec.ioengine);
	d->spec.ioengine = engine_names[i];
	return 0;
}

static int opt_verify(struct job_draft *d, const struct job_opt *o, const char *v,
		      char *why, size_t len)
{
	return units_verify(v, &d->spec.verify, why, len);
}

static int opt_random_distribution(struct job_draft *d, const struct job_opt *o,
				   const char *v, char *why, size_t len)
{
	return units_distribution(v, &d->spec.random_distribution, &d->spec.dist_param,
				  &d->spec.dist_center, why, len);
}

static int opt_cpus_allowed(struct job_draft *d, const struct job_opt *o,
			    const char *v, char *why, size_t len)
{
	cpu_set_t set;
	int ret = units_cpu_list(v, &set, why, len);

	if (ret)
		return ret;
	d->spec.cpus_allowed = set;
	d->spec.has_cpus_allowed = true;
	return 0;
}

static int opt_numa_cpu_nodes(struct job_draft *d, const struct job_opt *o,
			      const char *v, char *why, size_t len)
{
	if (units_node_list(v))
		return ERR("bad node list '%s' (expected all, or nodes such as 0,2-3)", v);
	return set_str(&d->spec.numa_cpu_nodes, v);
}

static int opt_numa_mem_policy(struct job_draft *d, const struct job_opt *o,
			       const char *v, char *why, size_t len)
{
	int ret = units_mem_policy(v, why, len);

	return ret ? ret : set_str(&d->spec.numa_mem_policy, v);
}

static int opt_percentile_list(struct job_draft *d, const struct job_opt *o,
			       const char *v, char *why, size_t len)
{
	double p[RB_MAX_PERCENTILES];
	unsigned n;
	int ret = units_percentiles(v, p, RB_MAX_PERCENTILES, &n, why, len);

	if (ret)
		return ret;
	memcpy(d->spec.percentiles, p, n * sizeof(p[0]));
	d->spec.nr_percentiles = n;
	return 0;
}

static int opt_log(struct job_draft *d, const struct job_opt *o, const char *v,
		   char *why, size_t len)
{
	char **field = FIELD(d, o, char *);

	/* bare: fio names the logs after the job, known only once it is complete */
	d->bare_log[o->min] = !v;
	if (!v) {
		free(*field);
		*field = NULL;
		return 0;
	}
	return set_str(field, v);
}

/* thread and flow_id: valid fio, no effect (raidbench always runs threads) */
static int opt_accept(struct job_draft *d, const struct job_opt *o, const char *v,
		      char *why, size_t len)
{
	long long i;
	bool b;

	if (o->flags & OPT_BARE) {
		if (v && units_bool(v, &b))
			return ERR("bad value '%s' (expected 0 or 1)", v);
	} else if (units_int(v, &i)) {
		return ERR("bad number '%s' (expected a whole number)", v);
	}
	return 0;
}

/* ---- the table --------------------------------------------------------- */

static const struct job_opt job_opts[] = {
	{ "name", NULL, opt_str, OFF(name), 0, 0, 0 },
	{ "description", NULL, opt_str, OFF(description), 0, 0, 0 },
	{ "rw", "readwrite", opt_rw, 0, 0, 0, 0 },
	{ "rwmixread", NULL, opt_rwmix, 0, 0, 100, 0 },
	{ "rwmixwrite", NULL, opt_rwmix, 0, 0, 100, 0 },
	{ "bs", "blocksize", opt_ddir, OFF(bs), 1, LLONG_MAX, 0 },
	{ "bsrange", "blocksize_range", opt_bsrange, 0, 0, 0, 0 },
	{ "bssplit", NULL, opt_bssplit, 0, 0, 0, 0 },
	{ "ba", "blockalign", opt_ddir, OFF(ba), 1, LLONG_MAX, 0 },
	{ "iodepth", NULL, opt_uint, OFF(iodepth), 1, UINT_MAX, 0 },
	{ "iodepth_batch", "iodepth_batch_submit", opt_uint, OFF(iodepth_batch_submit), 0, UINT_MAX, 0 },
	{ "iodepth_batch_complete_min", "iodepth_batch_complete", opt_uint,
	  OFF(iodepth_batch_complete_min), 0, UINT_MAX, 0 },
	{ "iodepth_batch_complete_max", NULL, opt_uint, OFF(iodepth_batch_complete_max), 0, UINT_MAX, 0 },
	{ "iodepth_low", NULL, opt_uint, OFF(iodepth_low), 0, UINT_MAX, 0 },
	{ "numjobs", NULL, opt_uint, OFF(numjobs), 1, UINT_MAX, 0 },
	{ "loops", NULL, opt_uint, OFF(loops), 0, UINT_MAX, 0 },
	{ "size", NULL, opt_size, 0, 0, 0, 0 },
	{ "io_size", "io_limit", opt_u64, OFF(io_size), 0, 0, 0 },
	{ "filesize", NULL, opt_u64, OFF(filesize), 1, 0, 0 },
	{ "nrfiles", "nr_files", opt_uint, OFF(nrfiles), 1, UINT_MAX, 0 },
	{ "offset", "fileoffset", opt_size, 0, 0, 0, 0 },
	{ "filename", NULL, opt_paths, 0, 0, 0, 0 },
	{ "directory", NULL, opt_paths, 0, 0, 0, 0 },
	{ "direct", NULL, opt_bool, OFF(direct), 0, 0, 0 },
	{ "buffered", NULL, opt_bool, OFF(direct), 0, 0, OPT_NEG },
	{ "sync", NULL, opt_word, OFF(sync), 0, 0, 0 },
	{ "fsync", NULL, opt_uint, OFF(fsync_blocks), 0, UINT_MAX, 0 },
	{ "fdatasync", NULL, opt_uint, OFF(fdatasync_blocks), 0, UINT_MAX, 0 },
	{ "end_fsync", NULL, opt_bool, OFF(end_fsync), 0, 0, 0 },
	{ "ioengine", NULL, opt_ioengine, 0, 0, 0, 0 },
	{ "norandommap", NULL, opt_bool, OFF(norandommap), 0, 0, OPT_BARE },
	{ "randrepeat", NULL, opt_bool, OFF(randrepeat), 0, 0, 0 },
	{ "randseed", NULL, opt_u64, OFF(randseed), 0, 0, 0 },
	{ "random_generator", NULL, opt_word, 0, 0, 0, 0 },
	{ "random_distribution", NULL, opt_random_distribution, 0, 0, 0, 0 },
	{ "percentage_random", NULL, opt_ddir, OFF(percentage_random), 0, 100, OPT_COUNT },
	{ "runtime", "timeout", opt_time, OFF(runtime_us), SEC, 0, 0 },
	{ "time_based", NULL, opt_bool, OFF(time_based), 0, 0, OPT_BARE },
	{ "ramp_time", NULL, opt_time, OFF(ramp_time_us), SEC, 0, 0 },
	{ "startdelay", NULL, opt_time, OFF(startdelay_us), SEC, 0, 0 },
	{ "stonewall", "wait_for_previous", opt_bool, OFF(stonewall), 0, 0, OPT_BARE },
	{ "new_group", NULL, opt_bool, OFF(new_group), 0, 0, OPT_BARE },
	{ "group_reporting", NULL, opt_bool, OFF(group_reporting), 0, 0, OPT_BARE },
	{ "rate", NULL, opt_ddir, OFF(rate), 0, LLONG_MAX, 0 },
	{ "rate_iops", NULL, opt_ddir, OFF(rate_iops), 0, LLONG_MAX, OPT_COUNT },
	{ "thinktime", NULL, opt_time, OFF(thinktime_us), 1, 0, 0 },
	{ "thinktime_blocks", NULL, opt_uint, OFF(thinktime_blocks), 1, UINT_MAX, 0 },
	{ "thinktime_spin", NULL, opt_time, OFF(thinktime_spin_us), 1, 0, 0 },
	{ "cpus_allowed", NULL, opt_cpus_allowed, 0, 0, 0, 0 },
	{ "cpus_allowed_policy", NULL, opt_word, 0, 0, 0, OPT_EARLY },
	{ "numa_cpu_nodes", NULL, opt_numa_cpu_nodes, 0, 0, 0, 0 },
	{ "numa_mem_policy", NULL, opt_numa_mem_policy, 0, 0, 0, 0 },
	{ "nice", NULL, opt_int, OFF(nice), -20, 19, 0 },
	{ "verify", NULL, opt_verify, 0, 0, 0, 0 },
	{ "do_verify", NULL, opt_bool, OFF(do_verify), 0, 0, 0 },
	{ "verify_fatal", NULL, opt_bool, OFF(verify_fatal), 0, 0, 0 },
	{ "verify_only", NULL, opt_bool, OFF(verify_only), 0, 0, OPT_BARE },
	{ "continue_on_error", NULL, opt_word, OFF(continue_on_error), 0, 0, 0 },
	{ "percentile_list", NULL, opt_percentile_list, 0, 0, 0, 0 },
	{ "clat_percentiles", NULL, opt_bool, OFF(clat_percentiles), 0, 0, 0 },
	{ "lat_percentiles", NULL, opt_bool, OFF(lat_percentiles), 0, 0, 0 },
	{ "slat_percentiles", NULL, opt_bool, OFF(slat_percentiles), 0, 0, 0 },
	{ "write_bw_log", NULL, opt_log, OFF(write_bw_log), 0, 0, OPT_BARE },
	{ "write_lat_log", NULL, opt_log, OFF(write_lat_log), 1, 0, OPT_BARE },
	{ "write_iops_log", NULL, opt_log, OFF(write_iops_log), 2, 0, OPT_BARE },
	{ "log_avg_msec", NULL, opt_uint, OFF(log_avg_msec), 0, UINT_MAX, 0 },
	{ "bwavgtime", NULL, opt_uint, OFF(bwavgtime_ms), 1, UINT_MAX, 0 },
	{ "iopsavgtime", NULL, opt_uint, OFF(iopsavgtime_ms), 1, UINT_MAX, 0 },
	{ "kb_base", NULL, opt_word, OFF(kb_base), 0, 0, OPT_EARLY },
	{ "scramble_buffers", NULL, opt_bool, OFF(scramble_buffers), 0, 0, 0 },
	{ "zero_buffers", NULL, opt_bool, OFF(zero_buffers), 0, 0, OPT_BARE },
	{ "refill_buffers", NULL, opt_bool, OFF(refill_buffers), 0, 0, OPT_BARE },
	{ "invalidate", NULL, opt_bool, OFF(invalidate), 0, 0, 0 },
	{ "thread", NULL, opt_accept, 0, 0, 0, OPT_BARE },
	{ "flow_id", NULL, opt_accept, 0, 0, 0, 0 },
};

#define NR_OPTS ((int)(sizeof(job_opts) / sizeof(job_opts[0])))
_Static_assert(sizeof(job_opts) / sizeof(job_opts[0]) <= JOB_OPT_SLOTS,
	       "raise JOB_OPT_SLOTS");

int job_opt_count(void)
{
	return NR_OPTS;
}

const char *job_opt_name(int idx)
{
	return job_opts[idx].name;
}

const char *job_opt_alias(int idx)
{
	return job_opts[idx].alias;
}

bool job_opt_bare(int idx)
{
	return job_opts[idx].flags & OPT_BARE;
}

bool job_opt_early(int idx)
{
	return job_opts[idx].flags & OPT_EARLY;
}

int job_opt_find(const char *key)
{
	int i;

	for (i = 0; i < NR_OPTS; i++)
		if (!strcmp(key, job_opts[i].name) ||
		    (job_opts[i].alias && !strcmp(key, job_opts[i].alias)))
			return i;
	return -1;
}

int job_draft_set(struct job_draft *d, const char *key, const char *value,
		  char *why, size_t whylen)
{
	int idx = job_opt_find(key);
	const struct job_opt *o;
	char msg[256], *unquoted = NULL;
	size_t n;
	int ret;

	if (idx < 0)
		return -ENOENT;
	o = &job_opts[idx];
	/* description="Big block reads": fio users quote free text */
	if (value && (n = strlen(value)) >= 2 && value[0] == '"' && value[n - 1] == '"') {
		unquoted = strndup(value + 1, n - 2);
		if (!unquoted)
			return -ENOMEM;
		value = unquoted;
	}
	if ((!value && !(o->flags & OPT_BARE)) || (value && !*value)) {
		ret = units_errf(why, whylen, "option '%s' needs a value", key);
		goto out;
	}
	msg[0] = '\0';
	ret = o->set(d, o, value, msg, sizeof(msg));
	if (ret == -EINVAL)
		units_errf(why, whylen, "option '%s': %s", key, msg);
	else if (!ret)
		d->set[idx] = true;
out:
	free(unquoted);
	return ret;
}

static bool was_set(const struct job_draft *d, const char *name)
{
	int idx = job_opt_find(name);

	return idx >= 0 && d->set[idx];
}

int job_draft_finish(struct job_draft *d, char *why, size_t len)
{
	struct job_spec *j = &d->spec;
	char **logs[3] = { &j->write_bw_log, &j->write_lat_log, &j->write_iops_log };
	uint64_t min_bs = UINT64_MAX;
	int i;

	/* fio's fixup_options, the parts that need no device */
	if (!was_set(d, "iodepth_low") || !j->iodepth_low || j->iodepth_low > j->iodepth)
		j->iodepth_low = j->iodepth;
	if (!j->iodepth_batch_submit || j->iodepth_batch_submit > j->iodepth)
		j->iodepth_batch_submit = j->iodepth;
	if (j->iodepth_batch_complete_min > j->iodepth_batch_complete_max)
		j->iodepth_batch_complete_max = j->iodepth_batch_complete_min;
	if (j->thinktime_spin_us > j->thinktime_us)
		j->thinktime_spin_us = j->thinktime_us;
	if (j->time_based && !j->runtime_us)
		j->time_based = false;	/* fio warns and carries on */
	if (!j->loops)
		j->loops = 1;
	/* fio seeds from randseed whenever it is given, randrepeat or not */
	if (was_set(d, "randseed"))
		j->randrepeat = true;
	if (j->random_distribution != DIST_RANDOM)
		j->norandommap = true;
	for (i = 0; i < DDIR_RWDIR_CNT; i++) {
		if (j->bs[i] < min_bs)
			min_bs = j->bs[i];
		/* "Any use of blockalign= turns off randommap" */
		if (job_is_random(j) && j->ba[i] && j->ba[i] != j->bs[i])
			j->norandommap = true;
	}
	if (j->verify != VERIFY_NONE && !was_set(d, "refill_buffers"))
		j->refill_buffers = true;
	for (i = 0; i < 3; i++)
		if (d->bare_log[i] && !*logs[i] && j->name && !(*logs[i] = strdup(j->name)))
			return -ENOMEM;

	if ((j->rate[0] || j->rate[1] || j->rate[2]) &&
	    (j->rate_iops[0] || j->rate_iops[1] || j->rate_iops[2]))
		return units_errf(why, len, "options 'rate' and 'rate_iops' are mutually exclusive");
	if (j->size && j->size < min_bs)
		return units_errf(why, len, "size %llu is smaller than the block size %llu",
				  (unsigned long long)j->size, (unsigned long long)min_bs);
	return 0;
}
