/*
 * job.c - a job's lifecycle (defaults, deep copy, release) and the table of
 * fio options that raidbench supports: what each option, given as text,
 * does to a struct job_spec, and fio's fixups once a job is complete.
 *
 * Reading job files and the command line is core/options.c; the value
 * grammar (units, lists) is core/units.c. Nothing here does I/O.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "job.h"
#include "units.h"
#include "verify.h"

/* ---- lifecycle -------------------------------------------------------- */

/*
 * ioengine points at a registered engine's name (engine.c) unless someone
 * outside the parser put a string of their own there: the parser accepts
 * only those, so it never allocates (and job_spec_defaults cannot fail).
 */
static bool engine_is_static(const char *p)
{
	const struct io_engine_ops *ops;
	size_t i;

	for (i = 0; (ops = engine_at(i)); i++)
		if (p == ops->name)
			return true;
	return false;
}

/* Never written through nor freed: engine_is_static() recognises it. */
static char *engine_name(const struct io_engine_ops *ops)
{
	return (char *)ops->name;
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
	job->rw_seq_nr = 1;
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		job->bs[d] = 4096;
		job->bs_max[d] = 4096;
		job->percentage_random[d] = 100;
	}
	job->ioengine = engine_name(engine_at(0));
	job->iodepth = 1;
	job->iodepth_batch_submit = 1;
	job->iodepth_batch_complete_min = 1;
	job->iodepth_batch_complete_max = 1;
	job->iodepth_low = 1;
	job->uring_sqpoll_cpu = UINT_MAX;
	/* fio's default is off; raidbench registers the buffers unless told not to (it saves pinning pages per I/O) */
	job->uring_fixedbufs = true;
	job->numjobs = 1;
	job->loops = 1;
	job->cpuchunks_us = 50000;	/* fio's default cpuchunks= */
	job->net_ttl = 1;
	job->exec_grace_s = 1;
	job->exec_std_redirect = true;
	job->nrfiles = 1;
	job->file_service_nr = 1;
	job->fs_center = -1;
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
	job->per_job_logs = true;
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
	free(job->write_iolog);
	free(job->e4defrag_donor);
	free(job->net_host);
	free(job->net_interface);
	free(job->exec_program);
	free(job->exec_arguments);
	free(job->exec_prerun);
	free(job->exec_postrun);
	free(job->remote_uri);
	free(job->iscsi_initiator);
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
	ret |= dup_str(&dst->write_iolog, src->write_iolog);
	ret |= dup_str(&dst->e4defrag_donor, src->e4defrag_donor);
	ret |= dup_str(&dst->net_host, src->net_host);
	ret |= dup_str(&dst->net_interface, src->net_interface);
	ret |= dup_str(&dst->exec_program, src->exec_program);
	ret |= dup_str(&dst->exec_arguments, src->exec_arguments);
	ret |= dup_str(&dst->exec_prerun, src->exec_prerun);
	ret |= dup_str(&dst->exec_postrun, src->exec_postrun);
	ret |= dup_str(&dst->remote_uri, src->remote_uri);
	ret |= dup_str(&dst->iscsi_initiator, src->iscsi_initiator);
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
	for (i = 0; i < jl->nr_files; i++)
		free(jl->files[i]);
	free(jl->files);
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
	memcpy(dst->bs_lo, src->bs_lo, sizeof(dst->bs_lo));
	memcpy(dst->bs_hi, src->bs_hi, sizeof(dst->bs_hi));
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
	/* set when raidbench's effect differs from fio's: --parse-only says so */
	const char *note;
};

enum {
	OPT_BARE = 1u << 0,	/* may stand alone as a flag ("time_based") */
	OPT_EARLY = 1u << 1,	/* fio's prio: parsed before the section's others */
	OPT_NEG = 1u << 2,	/* boolean stored inverted ("buffered") */
	OPT_COUNT = 1u << 3,	/* a per-direction count, not a size */
	OPT_SIZE = 1u << 4,	/* opt_accept: the value is a size */
	OPT_TEXT = 1u << 5,	/* opt_accept: any text */
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

/* A value that is a number, only too large for the field's 64 bits. */
static int too_large(char *why, size_t len, const char *v, const char *what)
{
	return ERR("'%s' is out of range (too large for %s)", v, what);
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
	int ret = units_size(v, d->spec.kb_base, &u, NULL);

	if (ret == -ERANGE)
		return range_err(why, len, v, o->min, o->max);
	if (ret)
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
	int ret = units_int(v, &i);

	if (ret == -ERANGE)
		return range_err(why, len, v, o->min, o->max);
	if (ret)
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
	int ret = units_size(v, d->spec.kb_base, &u, NULL);

	if (ret == -ERANGE)
		return too_large(why, len, v, "a size in bytes");
	if (ret)
		return ERR("bad size '%s' (expected %s)", v, UNITS_SIZE_HINT);
	if (u < (uint64_t)o->min)
		return range_err(why, len, v, o->min, LLONG_MAX);
	*FIELD(d, o, uint64_t) = u;
	return 0;
}

/* filesize=SIZE, or LOW-HIGH (also LOW:HIGH): each file's size drawn in the range, as fio */
static int opt_filesize(struct job_draft *d, const struct job_opt *o, const char *v,
			char *why, size_t len)
{
	struct job_spec *j = &d->spec;
	uint64_t lo, hi;
	int ret;

	if (!strpbrk(v, "-:")) {
		ret = opt_u64(d, o, v, why, len);
		j->filesize_max = j->filesize;
		return ret;
	}
	if (units_range(v, j->kb_base, &lo, &hi) || !lo)
		return ERR("bad range '%s' (expected a size, or min-max such as 8k-32k)", v);
	j->filesize = lo;
	j->filesize_max = hi;
	return 0;
}

static int opt_time(struct job_draft *d, const struct job_opt *o, const char *v,
		    char *why, size_t len)
{
	int ret = units_time_us(v, (uint64_t)o->min, FIELD(d, o, uint64_t));

	if (ret == -ERANGE)
		return too_large(why, len, v, "a time in microseconds");
	if (ret)
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
	int ret = units_size(v, j->kb_base, &u, &pct);

	if (ret == -ERANGE)
		return too_large(why, len, v, "a size in bytes");
	if (ret || (is_size && v[strlen(v) - 1] == '%' && !pct))
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

/*
 * size, io_size, offset, offset_increment and zoneskip also take a number of
 * zones ("8z"), as in fio 3.33 (parse.c's FIO_OPT_STR_VAL_ZONE): the count
 * is kept and the option's bytes and percentage cleared, until the zone size
 * is known. Other values go to the option's usual setter.
 */
static int opt_zone_count(struct job_draft *d, const struct job_opt *o, const char *v,
		     char *why, size_t len)
{
	struct job_spec *j = &d->spec;
	size_t n = strlen(v);
	unsigned long val;
	char *end;

	/* size and offset (no field of their own: off 0) take percentages too */
	if (!n || v[n - 1] != 'z')
		return o->off ? opt_u64(d, o, v, why, len) : opt_size(d, o, v, why, len);
	errno = 0;
	val = strtoul(v, &end, 10);
	if (errno || end == v || *end != 'z')
		return ERR("bad zone count '%s' (expected a number of zones such as 8z)", v);
	if (!strcmp(o->name, "size")) {
		j->size = 0;
		j->size_percent = 0;
		j->size_nz = (uint32_t)val;
	} else if (!strcmp(o->name, "offset")) {
		j->offset = 0;
		j->offset_percent = 0;
		j->offset_nz = (uint32_t)val;
	} else if (!strcmp(o->name, "io_size")) {
		j->io_size = 0;
		j->io_size_nz = (uint32_t)val;
	} else if (!strcmp(o->name, "offset_increment")) {
		j->offset_increment = 0;
		j->offset_increment_nz = (uint32_t)val;
	} else {
		j->zoneskip = 0;
		j->zoneskip_nz = (uint32_t)val;
	}
	return 0;
}

void job_zones_to_bytes(struct job_spec *job, uint64_t zone)
{
	if (!zone)
		return;
	if (job->size_nz)
		job->size = job->size_nz * zone;
	if (job->io_size_nz)
		job->io_size = job->io_size_nz * zone;
	if (job->offset_nz)
		job->offset = job->offset_nz * zone;
	if (job->offset_increment_nz)
		job->offset_increment = job->offset_increment_nz * zone;
	if (job->zoneskip_nz)
		job->zoneskip = job->zoneskip_nz * zone;
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
		int r = units_size(part[i], j->kb_base, &val[i], NULL);

		if (r == -ERANGE)
			ret = (o->flags & OPT_COUNT) ? range_err(why, len, part[i], o->min, o->max)
						     : too_large(why, len, part[i], "a size in bytes");
		else if (r)
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
		/* as fio: a bssplit given before stays; the range bounds and rounds its sizes */
		d->bs_lo[i] = lo[i];
		d->bs_hi[i] = hi[i];
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
		d->bs_lo[i] = UINT64_MAX;
		d->bs_hi[i] = 0;
		for (e = 0; e < nr[i]; e++) {
			if (split[i][e].bs < d->bs_lo[i])
				d->bs_lo[i] = split[i][e].bs;
			if (split[i][e].bs > d->bs_hi[i])
				d->bs_hi[i] = split[i][e].bs;
		}
	}
	return ret;
}

/*
 * Options whose value is one of a few words. The value lands in an int-sized
 * field (enum, unsigned) or, for cpus_allowed_policy, a bool.
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
	{ "random_generator", { "tausworthe", "tausworthe64", "lfsr" },
	  { RANDGEN_TAUS, RANDGEN_TAUS64, RANDGEN_LFSR },
	  "tausworthe, tausworthe64 or lfsr" },
	{ "cpus_allowed_policy", { "shared", "split" }, { 0, 1 }, "shared or split" },
	{ "kb_base", { "1024", "1000" }, { 1024, 1000 }, "1024 or 1000" },
	{ "cmd_type", { "nvme" }, { 0 }, "nvme (io_uring_cmd's only command set)" },
	{ "cpumode", { "noop", "qsort" }, { 0, 1 }, "noop or qsort" },
	{ "rw_sequencer", { "sequential", "identical" }, { RW_SEQ_SEQUENTIAL, RW_SEQ_IDENTICAL },
	  "sequential or identical" },
	{ "protocol", { "tcp", "tcpv6", "udp", "udpv6", "unix" },
	  { NET_TCP, NET_TCPV6, NET_UDP, NET_UDPV6, NET_UNIX }, "tcp, tcpv6, udp, udpv6 or unix" },
	{ "exit_on_io_done", { "0", "false" }, { 0, 0 },
	  "0 (a cpuio job that ends with the other jobs' I/O is not supported; give it runtime=)" },
	{ "stat_type", { "stat", "lstat", "statx" }, { STAT_STAT, STAT_LSTAT, STAT_STATX },
	  "stat, lstat or statx" },
	{ "sg_write_mode", { "write", "write_and_verify", "verify", "write_same", "same",
			     "write_same_ndob", "verify_bytchk_00", "verify_bytchk_01",
			     "verify_bytchk_11" },
	  { SG_WRITE, SG_WRITE_VERIFY, SG_WRITE_VERIFY, SG_WRITE_SAME, SG_WRITE_SAME,
	    SG_WRITE_SAME_NDOB, SG_VERIFY_BYTCHK_00, SG_VERIFY_BYTCHK_01, SG_VERIFY_BYTCHK_11 },
	  "write, write_and_verify, verify, write_same, same, write_same_ndob, "
	  "verify_bytchk_00, verify_bytchk_01 or verify_bytchk_11 (write_stream is not "
	  "supported)" },
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
	const char *neg = strchr(v, ':');
	char *copy = NULL;
	int ret;

	/* fio cuts the blanks after the colon (units_rw the ones at the end) */
	if (neg)
		for (neg++; isspace((unsigned char)*neg); neg++)
			;
	if (neg && *neg != '-')
		neg = NULL;
	/* "read:-8k": fio seeks back 8k after each I/O (reads backwards with bs=4k) */
	if (neg) {
		if (!(copy = strdup(v)))
			return -ENOMEM;
		memmove(copy + (neg - v), copy + (neg - v) + 1, strlen(neg + 1) + 1);
	}
	ret = units_rw(copy ? copy : v, d->spec.kb_base, &d->spec.rw, &d->spec.rw_nr, why, len);
	free(copy);
	if (ret)
		return ret;
	if (neg && job_is_random(&d->spec))
		return ERR("bad suffix in '%s' (a random pattern takes a count of I/Os per "
			   "offset, not a negative number)", v);
	/* fio: a random pattern's :N is I/Os per random offset (none given: each) */
	d->spec.rw_seq_nr = !job_is_random(&d->spec) ? 1 : strchr(v, ':') ? d->spec.rw_nr : 1;
	d->spec.rw_gap = job_is_random(&d->spec) ? 0
			 : neg ? -(int64_t)d->spec.rw_nr : (int64_t)d->spec.rw_nr;
	return 0;
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
	const struct io_engine_ops *ops = engine_lookup(v, why, len);

	if (!ops)
		return -EINVAL;
	if (!engine_is_static(d->spec.ioengine))
		free(d->spec.ioengine);
	d->spec.ioengine = engine_name(ops);
	return 0;
}

/* fio's other checksums: raidbench checks those blocks with its crc32c header */
static const char *const verify_mapped[] = {
	"crc64", "crc32", "crc16", "crc7", "sha1", "sha256", "sha512", "sha3-224", "sha3-256",
	"sha3-384", "sha3-512", "xxhash", "meta", "pattern", NULL,
};

static bool verify_is_mapped(const char *v)
{
	size_t i;

	for (i = 0; verify_mapped[i]; i++)
		if (!strcmp(v, verify_mapped[i]))
			return true;
	return false;
}

static int opt_verify(struct job_draft *d, const struct job_opt *o, const char *v,
		      char *why, size_t len)
{
	if (verify_is_mapped(v)) {
		d->spec.verify = VERIFY_CRC32C;
		return 0;
	}
	/* verify=null: fio fills and "checks" nothing; so does raidbench */
	if (!strcmp(v, "null")) {
		d->spec.verify = VERIFY_NONE;
		return 0;
	}
	return units_verify(v, &d->spec.verify, why, len);
}

/* zoned:P/S:P/S... (S percent of the range) or zoned_abs:P/S... (S a size) */
static int opt_zoned(struct job_draft *d, const char *v, bool abs, char *why, size_t len)
{
	struct job_spec *j = &d->spec;
	char *copy = strdup(strchr(v, ':') ? strchr(v, ':') + 1 : ""), *save = NULL, *tok;
	unsigned n = 0, acc = 0, sz = 0, blank = 0;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ":", &save); tok && !ret; tok = strtok_r(NULL, ":", &save)) {
		char *slash = strchr(tok, '/'), *size;
		uint64_t a, s = 0;
		bool lost_unit;

		if (n == RB_MAX_BSSPLIT) {
			ret = ERR("more than %d zones in '%s'", RB_MAX_BSSPLIT, v);
			break;
		}
		if (slash)
			*slash = '\0';
		/*
		 * fio reads each number past the blanks before it and stops at
		 * the ones after; its unit counts only right after the blanks
		 * (" 1g" is 1 byte to fio): such a size is refused
		 */
		size = slash ? slash + 1 : NULL;
		lost_unit = size && isspace((unsigned char)*size);
		if (size)
			size = units_trim(size);
		lost_unit = lost_unit && abs && strspn(size, "0123456789") != strlen(size);
		if (!slash || lost_unit || units_size(units_trim(tok), 1000, &a, NULL) || a > 100 ||
		    (*size && units_size(size, abs ? j->kb_base : 1000, &s, NULL)) ||
		    (!abs && s > 100))
			ret = ERR("bad zone '%s%s%s' in '%s' (expected access%%/%s)", tok,
				  slash ? "/" : "", slash ? slash + 1 : "", v,
				  abs ? "size such as 50/1g" : "size%% such as 50/10");
		if (ret)
			break;
		j->dzones[n].access = (unsigned)a;
		j->dzones[n].size = s;
		if (!*size)
			blank++;
		acc += (unsigned)a;
		sz += abs ? 0 : (unsigned)s;
		n++;
	}
	free(copy);
	if (ret)
		return ret;
	if (!n)
		return ERR("no zones in '%s' (expected e.g. zoned:60/10:30/20:10/70)", v);
	if (acc != 100)
		return ERR("zone access percentages in '%s' add up to %u, not 100", v, acc);
	/* fio: a blank size takes what the others left of the range */
	if (!abs && blank)
		for (unsigned i = 0; i < n; i++)
			if (!j->dzones[i].size)
				j->dzones[i].size = sz < 100 ? (100 - sz) / blank : 0;
	j->nr_dzones = n;
	j->dzones_abs = abs;
	j->random_distribution = DIST_RANDOM;
	return 0;
}

static int opt_random_distribution(struct job_draft *d, const struct job_opt *o,
				   const char *v, char *why, size_t len)
{
	if (!strncmp(v, "zoned:", 6) || !strncmp(v, "zoned_abs:", 10))
		return opt_zoned(d, v, v[5] == '_', why, len);
	d->spec.nr_dzones = 0;
	return units_distribution(v, &d->spec.random_distribution, &d->spec.dist_param,
				  &d->spec.dist_center, why, len);
}

/*
 * file_service_type=: fio's words. roundrobin, sequential and random take
 * ":N", the I/Os a file gets before the next pick (fio reads it with atoi, so
 * "4k" would be 4: here it must be a whole number); zipf, pareto and normal
 * (gauss too) their parameter and center as random_distribution= has them,
 * with fio's defaults when left out.
 */
static int opt_file_service_type(struct job_draft *d, const struct job_opt *o, const char *v,
				 char *why, size_t len)
{
	static const struct {
		const char *word;
		enum file_service fs;
	} words[] = {
		{ "roundrobin", FSVC_ROUNDROBIN }, { "sequential", FSVC_SEQUENTIAL },
		{ "random", FSVC_RANDOM }, { "zipf", FSVC_ZIPF }, { "pareto", FSVC_PARETO },
		{ "normal", FSVC_NORMAL }, { "gauss", FSVC_NORMAL },
	};
	struct job_spec *j = &d->spec;
	const char *colon = strchr(v, ':');
	size_t n = colon ? (size_t)(colon - v) : strlen(v), i;
	enum rand_dist dist;
	char *s;
	int ret;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i].word) == n && !strncmp(words[i].word, v, n))
			break;
	if (i == sizeof(words) / sizeof(words[0]))
		return ERR("bad value '%s' (expected roundrobin[:N], sequential, random[:N], "
			   "zipf[:theta], pareto[:h] or normal[:sigma], the last three with an "
			   "optional :center)", v);
	if (words[i].fs <= FSVC_RANDOM) {
		unsigned long long nr = 1;

		if (colon) {
			char *end, *copy = strdup(colon + 1), *t;

			if (!copy)
				return -ENOMEM;
			t = units_trim(copy);
			errno = 0;
			nr = strtoull(t, &end, 10);
			ret = !*t || *end || !isdigit((unsigned char)*t) || errno || nr > UINT_MAX;
			free(copy);
			if (ret)
				return ERR("bad count in '%s' (expected %s:N, N a whole number of I/Os)",
					   v, words[i].word);
		}
		j->file_service = words[i].fs;
		j->file_service_nr = (unsigned)nr;
		return 0;
	}
	/* the distributions parse as random_distribution='s, gauss by its other name */
	s = malloc(strlen(v) + 2);
	if (!s)
		return -ENOMEM;
	sprintf(s, "%s%s", words[i].fs == FSVC_NORMAL ? "normal" : words[i].word,
		colon ? colon : "");
	ret = units_distribution(s, &dist, &j->fs_param, &j->fs_center, why, len);
	free(s);
	if (ret)
		return ret;
	j->file_service = words[i].fs;
	j->file_service_nr = 1;
	return 0;
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

static int opt_latency_percentile(struct job_draft *d, const struct job_opt *o,
				  const char *v, char *why, size_t len)
{
	char *end;
	double p = strtod(v, &end);

	if (end == v || *end || !(p > 0 && p <= 100))
		return ERR("bad percentile '%s' (expected a number above 0, at most 100)", v);
	d->spec.latency_percentile = p;
	return 0;
}

/*
 * fio options raidbench takes without an effect of its own (fio's internals,
 * or tuning its engines). The value is checked by kind: a flag (0/1), a whole
 * number, a size, or any text; the table's note says what differs.
 */
static int opt_accept(struct job_draft *d, const struct job_opt *o, const char *v,
		      char *why, size_t len)
{
	long long i;
	uint64_t u;
	bool b;

	if (o->flags & OPT_TEXT)
		return 0;
	if (o->flags & OPT_SIZE)
		return units_size(v, d->spec.kb_base, &u, NULL)
		       ? ERR("bad size '%s' (expected %s)", v, UNITS_SIZE_HINT) : 0;
	if (o->flags & OPT_BARE) {
		if (v && units_bool(v, &b))
			return ERR("bad value '%s' (expected 0 or 1)", v);
	} else if (units_int(v, &i) && units_size(v, d->spec.kb_base, &u, NULL)) {
		/* fio's integers take unit suffixes too: verify_backlog=1m */
		return ERR("bad number '%s' (expected a whole number)", v);
	}
	return 0;
}

/*
 * buffer_pattern and verify_pattern: raidbench does not fill buffers with
 * them, but fio 3.33 reads a pattern while it parses it (lib/pattern.c), and
 * refuses the job when a quoted string has no closing quote or a 'FILE' part
 * cannot be opened. Those two are refused here too; a file is looked up
 * where fio looks, from the current directory.
 */
static int opt_pattern(struct job_draft *d, const struct job_opt *o, const char *v,
		       char *why, size_t len)
{
	const char *p = v;

	(void)d;
	(void)o;
	while (*p) {
		const char *end;

		if (*p != '\'' && *p != '"') {
			p++;
			continue;
		}
		end = strchr(p + 1, *p);
		if (!end)
			return ERR("bad pattern '%s': the quote at %s has no closing quote", v, p);
		if (*p == '\'') {
			char *file = strndup(p + 1, (size_t)(end - p - 1));
			int fd, e;

			if (!file)
				return -ENOMEM;
			fd = open(file, O_RDONLY | O_CLOEXEC);
			e = errno;
			if (fd < 0) {
				int ret = ERR("cannot read the pattern file '%s' ('...' names a file, "
					      "as in fio): %s", file, strerror(e));

				free(file);
				return ret;
			}
			close(fd);
			free(file);
		}
		p = end + 1;
	}
	return 0;
}

/* Options whose value is one word of a list; the word itself has no effect. */
static const struct {
	const char *opt;
	const char *words;	/* '|'-separated */
} accept_words[] = {
	{ "io_submit_mode", "inline|offload" },
	{ "clocksource", "gettimeofday|clock_gettime|cpu" },
	{ "fallocate", "none|native|posix|keep|truncate|0|1" },
	{ "fadvise_hint", "0|1|sequential|random" },
	{ "iomem", "malloc|shm|shmhuge|mmap|mmaphuge|mmapshared|cudamalloc" },
	{ "rate_process", "linear|poisson" },
	{ "exit_what", "group|stonewall|all" },
	{ "unified_rw_reporting", "none|mixed|both|0|1" },
	{ "dedupe_mode", "repeat|working_set" },
	{ "write_hint", "none|short|medium|long|extreme" },
	{ "thinktime_blocks_type", "complete|issue" },
};

static int opt_accept_word(struct job_draft *d, const struct job_opt *o, const char *v,
			   char *why, size_t len)
{
	size_t w, n = strcspn(v, ":");
	const char *p;

	for (w = 0; strcmp(accept_words[w].opt, o->name); w++)
		;
	/* "iomem=mmap:/path": fio's word then an argument */
	for (p = accept_words[w].words; *p; p += strcspn(p, "|") + (p[strcspn(p, "|")] != 0))
		if (strcspn(p, "|") == n && !strncmp(p, v, n))
			return 0;
	return ERR("bad value '%s' (expected one of %s)", v, accept_words[w].words);
}

static int opt_zonemode(struct job_draft *d, const struct job_opt *o, const char *v,
			char *why, size_t len)
{
	if (!strcmp(v, "none") || !strcmp(v, "strided")) {
		d->spec.zone_strided = v[0] == 's';
		d->spec.zbd = false;
		return 0;
	}
	if (!strcmp(v, "zbd")) {
		/* checked against the target at setup: it must be a zoned block device */
		d->spec.zbd = true;
		return 0;
	}
	return ERR("bad value '%s' (expected none, strided or zbd)", v);
}

/* cpumask: fio's bitmask form of cpus_allowed ("0x3" = CPUs 0 and 1). */
static int opt_cpumask(struct job_draft *d, const struct job_opt *o, const char *v,
		       char *why, size_t len)
{
	uint64_t mask;
	int cpu;

	if (units_size(v, 1000, &mask, NULL) || !mask)
		return ERR("bad CPU mask '%s' (expected a number such as 0x3)", v);
	CPU_ZERO(&d->spec.cpus_allowed);
	for (cpu = 0; cpu < 64; cpu++)
		if (mask & (1ull << cpu))
			CPU_SET(cpu, &d->spec.cpus_allowed);
	d->spec.has_cpus_allowed = true;
	return 0;
}

/* percentage_sequential is percentage_random's complement, per direction. */
static int opt_pct_seq(struct job_draft *d, const struct job_opt *o, const char *v,
		       char *why, size_t len)
{
	struct job_opt rnd = *o;
	int ret, i;

	rnd.off = OFF(percentage_random);
	ret = opt_ddir(d, &rnd, v, why, len);
	for (i = 0; !ret && i < DDIR_RWDIR_CNT; i++)
		d->spec.percentage_random[i] = 100 - d->spec.percentage_random[i];
	return ret;
}

/* ---- the table --------------------------------------------------------- */

/* what differs from fio, said once per kind */
#define N_LAT "latencies are measured and reported all the same"
#define N_BW "bandwidth samples are taken all the same"
#define N_CLOCK "raidbench reads CLOCK_MONOTONIC for every I/O"
#define N_MEM "I/O buffers are always page-aligned heap memory"
#define N_LAYOUT "files are laid out by writing them before the run"
#define N_VLATER "raidbench verifies in the job's own thread"
#define N_VDUMP "a failed block is reported with its offset and checksums, not dumped to files"
#define N_VHDR "blocks carry raidbench's own verify header (crc32c), not fio's layout"
#define N_ZBD "it applies to zonemode=zbd, where raidbench's zoned engine writes at the " \
	"write pointers itself: this option has no effect"
#define N_FLOW "flow counts I/Os, not tokens: the watermark has no effect"
#define N_LOGS "raidbench's log files keep their default layout"
#define N_URING "an option of fio's io_uring engine; raidbench's io_uring uses its own settings"
#define N_PRIO "I/O priorities are not set"
#define N_BUF "write buffers hold random data (incompressible, no duplicates)"


static const struct job_opt job_opts[] = {
	{ "name", NULL, opt_str, OFF(name), 0, 0, 0, NULL },
	{ "description", NULL, opt_str, OFF(description), 0, 0, 0, NULL },
	{ "rw", "readwrite", opt_rw, 0, 0, 0, 0, NULL },
	{ "rwmixread", NULL, opt_rwmix, 0, 0, 100, 0, NULL },
	{ "rwmixwrite", NULL, opt_rwmix, 0, 0, 100, 0, NULL },
	{ "bs", "blocksize", opt_ddir, OFF(bs), 1, LLONG_MAX, 0, NULL },
	{ "bsrange", "blocksize_range", opt_bsrange, 0, 0, 0, 0, NULL },
	{ "bssplit", NULL, opt_bssplit, 0, 0, 0, 0, NULL },
	{ "ba", "blockalign", opt_ddir, OFF(ba), 1, LLONG_MAX, 0, NULL },
	{ "iodepth", NULL, opt_uint, OFF(iodepth), 1, UINT_MAX, 0, NULL },
	{ "iodepth_batch", "iodepth_batch_submit", opt_uint, OFF(iodepth_batch_submit), 0, UINT_MAX, 0, NULL },
	{ "iodepth_batch_complete_min", "iodepth_batch_complete", opt_uint,
	  OFF(iodepth_batch_complete_min), 0, UINT_MAX, 0, NULL },
	{ "iodepth_batch_complete_max", NULL, opt_uint, OFF(iodepth_batch_complete_max), 0, UINT_MAX, 0, NULL },
	{ "iodepth_low", NULL, opt_uint, OFF(iodepth_low), 0, UINT_MAX, 0, NULL },
	{ "numjobs", NULL, opt_uint, OFF(numjobs), 1, UINT_MAX, 0, NULL },
	{ "loops", NULL, opt_uint, OFF(loops), 0, UINT_MAX, 0, NULL },
	{ "size", NULL, opt_zone_count, 0, 0, 0, 0, NULL },
	{ "io_size", "io_limit", opt_zone_count, OFF(io_size), 0, 0, 0, NULL },
	{ "filesize", NULL, opt_filesize, OFF(filesize), 1, 0, 0, NULL },
	{ "nrfiles", "nr_files", opt_uint, OFF(nrfiles), 1, UINT_MAX, 0, NULL },
	{ "offset", "fileoffset", opt_zone_count, 0, 0, 0, 0, NULL },
	{ "filename", NULL, opt_paths, 0, 0, 0, 0, NULL },
	{ "directory", NULL, opt_paths, 0, 0, 0, 0, NULL },
	{ "direct", NULL, opt_bool, OFF(direct), 0, 0, 0, NULL },
	{ "buffered", NULL, opt_bool, OFF(direct), 0, 0, OPT_NEG, NULL },
	{ "sync", NULL, opt_word, OFF(sync), 0, 0, 0, NULL },
	{ "fsync", NULL, opt_uint, OFF(fsync_blocks), 0, UINT_MAX, 0, NULL },
	{ "fdatasync", NULL, opt_uint, OFF(fdatasync_blocks), 0, UINT_MAX, 0, NULL },
	{ "end_fsync", NULL, opt_bool, OFF(end_fsync), 0, 0, 0, NULL },
	{ "ioengine", NULL, opt_ioengine, 0, 0, 0, 0, NULL },
	{ "norandommap", NULL, opt_bool, OFF(norandommap), 0, 0, OPT_BARE, NULL },
	{ "randrepeat", NULL, opt_bool, OFF(randrepeat), 0, 0, 0, NULL },
	{ "randseed", NULL, opt_u64, OFF(randseed), 0, 0, 0, NULL },
	{ "random_generator", NULL, opt_word, OFF(random_generator), 0, 0, 0, NULL },
	{ "random_distribution", NULL, opt_random_distribution, 0, 0, 0, 0, NULL },
	{ "percentage_random", NULL, opt_ddir, OFF(percentage_random), 0, 100, OPT_COUNT, NULL },
	{ "runtime", "timeout", opt_time, OFF(runtime_us), SEC, 0, 0, NULL },
	{ "time_based", NULL, opt_bool, OFF(time_based), 0, 0, OPT_BARE, NULL },
	{ "ramp_time", NULL, opt_time, OFF(ramp_time_us), SEC, 0, 0, NULL },
	{ "startdelay", NULL, opt_time, OFF(startdelay_us), SEC, 0, 0, NULL },
	{ "stonewall", "wait_for_previous", opt_bool, OFF(stonewall), 0, 0, OPT_BARE, NULL },
	{ "new_group", NULL, opt_bool, OFF(new_group), 0, 0, OPT_BARE, NULL },
	{ "group_reporting", NULL, opt_bool, OFF(group_reporting), 0, 0, OPT_BARE, NULL },
	{ "rate", NULL, opt_ddir, OFF(rate), 0, LLONG_MAX, 0, NULL },
	{ "rate_iops", NULL, opt_ddir, OFF(rate_iops), 0, LLONG_MAX, OPT_COUNT, NULL },
	{ "thinktime", NULL, opt_time, OFF(thinktime_us), 1, 0, 0, NULL },
	{ "thinktime_blocks", NULL, opt_uint, OFF(thinktime_blocks), 1, UINT_MAX, 0, NULL },
	{ "thinktime_spin", NULL, opt_time, OFF(thinktime_spin_us), 1, 0, 0, NULL },
	{ "cpus_allowed", NULL, opt_cpus_allowed, 0, 0, 0, 0, NULL },
	{ "cpus_allowed_policy", NULL, opt_word, 0, 0, 0, OPT_EARLY, NULL },
	{ "numa_cpu_nodes", NULL, opt_numa_cpu_nodes, 0, 0, 0, 0, NULL },
	{ "numa_mem_policy", NULL, opt_numa_mem_policy, 0, 0, 0, 0, NULL },
	{ "nice", NULL, opt_int, OFF(nice), -20, 19, 0, NULL },
	{ "verify", NULL, opt_verify, 0, 0, 0, 0, NULL },
	{ "do_verify", NULL, opt_bool, OFF(do_verify), 0, 0, 0, NULL },
	{ "verify_fatal", NULL, opt_bool, OFF(verify_fatal), 0, 0, 0, NULL },
	{ "verify_only", NULL, opt_bool, OFF(verify_only), 0, 0, OPT_BARE, NULL },
	{ "continue_on_error", NULL, opt_word, OFF(continue_on_error), 0, 0, 0, NULL },
	{ "percentile_list", NULL, opt_percentile_list, 0, 0, 0, 0, NULL },
	{ "clat_percentiles", NULL, opt_bool, OFF(clat_percentiles), 0, 0, 0, NULL },
	{ "lat_percentiles", NULL, opt_bool, OFF(lat_percentiles), 0, 0, 0, NULL },
	{ "slat_percentiles", NULL, opt_bool, OFF(slat_percentiles), 0, 0, 0, NULL },
	{ "write_bw_log", NULL, opt_log, OFF(write_bw_log), 0, 0, OPT_BARE, NULL },
	{ "write_lat_log", NULL, opt_log, OFF(write_lat_log), 1, 0, OPT_BARE, NULL },
	{ "write_iops_log", NULL, opt_log, OFF(write_iops_log), 2, 0, OPT_BARE, NULL },
	{ "log_avg_msec", NULL, opt_uint, OFF(log_avg_msec), 0, UINT_MAX, 0, NULL },
	{ "bwavgtime", NULL, opt_uint, OFF(bwavgtime_ms), 1, UINT_MAX, 0, NULL },
	{ "iopsavgtime", NULL, opt_uint, OFF(iopsavgtime_ms), 1, UINT_MAX, 0, NULL },
	{ "kb_base", NULL, opt_word, OFF(kb_base), 0, 0, OPT_EARLY, NULL },
	{ "scramble_buffers", NULL, opt_bool, OFF(scramble_buffers), 0, 0, 0, NULL },
	{ "zero_buffers", NULL, opt_bool, OFF(zero_buffers), 0, 0, OPT_BARE, NULL },
	{ "refill_buffers", NULL, opt_bool, OFF(refill_buffers), 0, 0, OPT_BARE, NULL },
	{ "invalidate", NULL, opt_bool, OFF(invalidate), 0, 0, 0, NULL },
	{ "thread", NULL, opt_accept, 0, 0, 0, OPT_BARE, NULL },
	{ "number_ios", NULL, opt_u64, OFF(number_ios), 0, 0, 0, NULL },
	{ "offset_increment", NULL, opt_zone_count, OFF(offset_increment), 0, 0, 0, NULL },
	{ "zonemode", NULL, opt_zonemode, 0, 0, 0, 0, NULL },
	{ "stat_type", NULL, opt_word, OFF(stat_type), 0, 0, 0, NULL },
	{ "cmd_type", NULL, opt_word, 0, 0, 0, 0, NULL },
	{ "cpuload", NULL, opt_uint, OFF(cpuload), 1, 100, 0, NULL },
	{ "hostname", NULL, opt_str, OFF(net_host), 0, 0, 0, NULL },
	{ "port", NULL, opt_uint, OFF(net_port), 1, 65535, 0, NULL },
	{ "protocol", "proto", opt_word, OFF(net_proto), 0, 0, 0, NULL },
	{ "listen", NULL, opt_bool, OFF(net_listen), 0, 0, OPT_BARE, NULL },
	{ "pingpong", NULL, opt_bool, OFF(net_pingpong), 0, 0, OPT_BARE, NULL },
	{ "nodelay", NULL, opt_bool, OFF(net_nodelay), 0, 0, OPT_BARE, NULL },
	{ "interface", NULL, opt_str, OFF(net_interface), 0, 0, 0, NULL },
	{ "ttl", NULL, opt_uint, OFF(net_ttl), 0, 255, 0, NULL },
	{ "window_size", NULL, opt_uint, OFF(net_window), 0, INT_MAX, 0, NULL },
	{ "mss", NULL, opt_uint, OFF(net_mss), 0, INT_MAX, 0, NULL },
	{ "program", NULL, opt_str, OFF(exec_program), 0, 0, 0, NULL },
	{ "arguments", NULL, opt_str, OFF(exec_arguments), 0, 0, 0, NULL },
	{ "grace_time", NULL, opt_uint, OFF(exec_grace_s), 0, INT_MAX, 0, NULL },
	{ "std_redirect", NULL, opt_bool, OFF(exec_std_redirect), 0, 0, OPT_BARE, NULL },
	{ "exec_prerun", NULL, opt_str, OFF(exec_prerun), 0, 0, 0, NULL },
	{ "exec_postrun", NULL, opt_str, OFF(exec_postrun), 0, 0, 0, NULL },
	{ "donorname", NULL, opt_str, OFF(e4defrag_donor), 0, 0, 0, NULL },
	{ "inplace", NULL, opt_bool, OFF(e4defrag_inplace), 0, 0, OPT_BARE, NULL },
	{ "uri", NULL, opt_str, OFF(remote_uri), 0, 0, 0, NULL },
	{ "initiator", NULL, opt_str, OFF(iscsi_initiator), 0, 0, 0, NULL },
	{ "cpuchunks", NULL, opt_time, OFF(cpuchunks_us), 1, 0, 0, NULL },
	{ "cpumode", NULL, opt_word, OFF(cpumode_qsort), 0, 0, 0, NULL },
	{ "exit_on_io_done", NULL, opt_word, 0, 0, 0, 0, NULL },
	{ "sg_write_mode", NULL, opt_word, OFF(sg_write_mode), 0, 0, 0, NULL },
	{ "readfua", NULL, opt_bool, OFF(sg_readfua), 0, 0, OPT_BARE, NULL },
	{ "writefua", NULL, opt_bool, OFF(sg_writefua), 0, 0, OPT_BARE, NULL },
	{ "skip_bad", NULL, opt_bool, OFF(mtd_skip_bad), 0, 0, OPT_BARE, NULL },
	{ "max_open_zones", NULL, opt_accept, 0, 0, 0, 0, N_ZBD },
	{ "job_max_open_zones", NULL, opt_accept, 0, 0, 0, 0, N_ZBD },
	{ "ignore_zone_limits", NULL, opt_accept, 0, 0, 0, OPT_BARE, N_ZBD },
	{ "read_beyond_wp", NULL, opt_accept, 0, 0, 0, OPT_BARE, N_ZBD },
	{ "zone_reset_frequency", NULL, opt_accept, 0, 0, 0, OPT_TEXT, N_ZBD },
	{ "zone_reset_threshold", NULL, opt_accept, 0, 0, 0, OPT_TEXT, N_ZBD },
	{ "zonecapacity", NULL, opt_accept, 0, 0, 0, OPT_SIZE, N_ZBD },
	{ "fill_device", "fill_fs", opt_bool, OFF(fill_device), 0, 0, OPT_BARE, NULL },
	{ "latency_target", NULL, opt_time, OFF(latency_target_us), 1, 0, 0, NULL },
	{ "latency_window", NULL, opt_time, OFF(latency_window_us), 1, 0, 0, NULL },
	{ "latency_percentile", NULL, opt_latency_percentile, 0, 0, 0, 0, NULL },
	{ "latency_run", NULL, opt_bool, OFF(latency_run), 0, 0, OPT_BARE, NULL },
	{ "write_iolog", NULL, opt_str, OFF(write_iolog), 0, 0, 0, NULL },
	{ "zonesize", NULL, opt_u64, OFF(zonesize), 0, 0, 0, NULL },
	{ "zonerange", NULL, opt_u64, OFF(zonerange), 0, 0, 0, NULL },
	{ "zoneskip", NULL, opt_zone_count, OFF(zoneskip), 0, 0, 0, NULL },
	{ "cpumask", NULL, opt_cpumask, 0, 0, 0, 0, NULL },
	{ "allrandrepeat", NULL, opt_bool, OFF(randrepeat), 0, 0, 0, NULL },
	{ "percentage_sequential", NULL, opt_pct_seq, 0, 0, 100, OPT_COUNT, NULL },
	{ "create_serialize", NULL, opt_accept, 0, 0, 0, OPT_BARE, NULL },
	{ "create_fsync", NULL, opt_accept, 0, 0, 0, OPT_BARE, NULL },
	{ "threads", NULL, opt_accept, 0, 0, 0, 0, "a tiobench profile option in fio; it has no effect on a job" },
	{ "gtod_reduce", NULL, opt_accept, 0, 0, 0, OPT_BARE, N_LAT },
	{ "disable_lat", NULL, opt_accept, 0, 0, 0, OPT_BARE, N_LAT },
	{ "disable_clat", NULL, opt_accept, 0, 0, 0, OPT_BARE, N_LAT },
	{ "disable_slat", NULL, opt_accept, 0, 0, 0, OPT_BARE, N_LAT },
	{ "disable_bw_measurement", "disable_bw", opt_accept, 0, 0, 0, OPT_BARE, N_BW },
	{ "clocksource", NULL, opt_accept_word, 0, 0, 0, 0, N_CLOCK },
	{ "gtod_cpu", NULL, opt_accept, 0, 0, 0, 0, N_CLOCK },
	{ "io_submit_mode", NULL, opt_accept_word, 0, 0, 0, 0, "I/O is submitted by the job's own thread (fio's inline)" },
	{ "iomem", "mem", opt_accept_word, 0, 0, 0, 0, N_MEM },
	{ "iomem_align", "mem_align", opt_accept, 0, 0, 0, OPT_SIZE, N_MEM },
	{ "hugepage-size", NULL, opt_accept, 0, 0, 0, OPT_SIZE, N_MEM },
	{ "lockmem", NULL, opt_accept, 0, 0, 0, OPT_SIZE, "memory is not locked" },
	{ "fallocate", NULL, opt_accept_word, 0, 0, 0, 0, N_LAYOUT },
	{ "fadvise_hint", NULL, opt_accept_word, 0, 0, 0, 0, "no posix_fadvise hint is given" },
	{ "overwrite", NULL, opt_accept, 0, 0, 0, OPT_BARE, N_LAYOUT },
	{ "allow_file_create", NULL, opt_accept, 0, 0, 0, OPT_BARE, "missing files are created as with the default allow_file_create=1" },
	{ "allow_mounted_write", NULL, opt_accept, 0, 0, 0, OPT_BARE, "raidbench's write guard decides (see --allow-destroy)" },
	{ "create_on_open", NULL, opt_accept, 0, 0, 0, OPT_BARE, N_LAYOUT },
	{ "pre_read", NULL, opt_accept, 0, 0, 0, OPT_BARE, "files are not read into the page cache first" },
	{ "exitall", NULL, opt_bool, OFF(exitall), 0, 0, OPT_BARE, NULL },
	{ "exitall_on_error", NULL, opt_accept, 0, 0, 0, OPT_BARE, "other jobs run to their own end after a job's error" },
	{ "exit_what", NULL, opt_accept_word, 0, 0, 0, 0, "other jobs run to their own end" },
	{ "per_job_logs", NULL, opt_bool, OFF(per_job_logs), 0, 0, OPT_BARE, NULL },
	{ "log_offset", NULL, opt_bool, OFF(log_offset), 0, 0, OPT_BARE, NULL },
	{ "log_prio", NULL, opt_bool, OFF(log_prio), 0, 0, OPT_BARE, NULL },
	{ "log_entries", NULL, opt_accept, 0, 0, 0, 0, NULL },
	{ "log_max_value", NULL, opt_accept, 0, 0, 0, OPT_BARE, N_LOGS },
	{ "log_unix_epoch", NULL, opt_accept, 0, 0, 0, OPT_BARE, N_LOGS },
	{ "log_compression", NULL, opt_accept, 0, 0, 0, OPT_SIZE, "logs are not compressed" },
	{ "log_store_compressed", NULL, opt_accept, 0, 0, 0, OPT_BARE, "logs are not compressed" },
	{ "verify_backlog", NULL, opt_u64, OFF(verify_backlog), 0, 0, 0, NULL },
	{ "verify_backlog_batch", NULL, opt_uint, OFF(verify_batch), 0, UINT_MAX, 0, NULL },
	{ "verify_async", NULL, opt_accept, 0, 0, 0, 0, N_VLATER },
	{ "verify_async_cpus", NULL, opt_accept, 0, 0, 0, OPT_TEXT, N_VLATER },
	{ "experimental_verify", NULL, opt_bool, OFF(experimental_verify), 0, 0, OPT_BARE,
	  "the read-back goes through the written blocks in order instead of replaying the "
	  "offsets; how much is read and written over the loops is fio's" },
	{ "verify_dump", NULL, opt_accept, 0, 0, 0, OPT_BARE, N_VDUMP },
	{ "error_dump", NULL, opt_accept, 0, 0, 0, OPT_BARE, N_VDUMP },
	{ "verify_interval", NULL, opt_u64, OFF(verify_interval), 1, 0, 0, NULL },
	{ "verify_offset", NULL, opt_accept, 0, 0, 0, OPT_SIZE, N_VHDR },
	{ "verify_pattern", NULL, opt_pattern, 0, 0, 0, OPT_TEXT, N_VHDR },
	{ "verify_state_save", NULL, opt_accept, 0, 0, 0, OPT_BARE, "no verify state file is written or read" },
	{ "verify_state_load", NULL, opt_accept, 0, 0, 0, OPT_BARE, "no verify state file is written or read" },
	{ "verifysort", NULL, opt_accept, 0, 0, 0, OPT_BARE, NULL },
	{ "verifysort_nr", NULL, opt_accept, 0, 0, 0, 0, NULL },
	{ "buffer_pattern", NULL, opt_pattern, 0, 0, 0, OPT_TEXT, N_BUF },
	{ "buffer_compress_percentage", NULL, opt_accept, 0, 0, 0, 0, N_BUF },
	{ "buffer_compress_chunk", NULL, opt_accept, 0, 0, 0, OPT_SIZE, N_BUF },
	{ "dedupe_percentage", NULL, opt_accept, 0, 0, 0, 0, N_BUF },
	{ "dedupe_mode", NULL, opt_accept_word, 0, 0, 0, 0, N_BUF },
	{ "dedupe_working_set_percentage", NULL, opt_accept, 0, 0, 0, 0, N_BUF },
	{ "dedupe_global", NULL, opt_accept, 0, 0, 0, OPT_BARE, N_BUF },
	{ "flow", NULL, opt_uint, OFF(flow), 0, UINT_MAX, 0, NULL },
	{ "flow_id", NULL, opt_int, OFF(flow_id), INT_MIN, INT_MAX, 0, NULL },
	{ "flow_sleep", NULL, opt_time, OFF(flow_sleep_us), 1, 0, 0, NULL },
	{ "flow_watermark", NULL, opt_accept, 0, 0, 0, 0, N_FLOW },
	{ "rate_min", "ratemin", opt_accept, 0, 0, 0, OPT_TEXT, "a job below its minimum rate is not failed" },
	{ "rate_iops_min", NULL, opt_accept, 0, 0, 0, OPT_TEXT, "a job below its minimum rate is not failed" },
	{ "rate_cycle", "ratecycle", opt_accept, 0, 0, 0, 0, NULL },
	{ "rate_process", NULL, opt_accept_word, 0, 0, 0, 0, "I/Os are paced evenly (fio's linear)" },
	{ "rate_ignore_thinktime", NULL, opt_accept, 0, 0, 0, OPT_BARE, NULL },
	{ "ignore_error", NULL, opt_accept, 0, 0, 0, OPT_TEXT, "only continue_on_error decides which errors a job survives" },
	{ "steadystate", "ss", opt_accept, 0, 0, 0, OPT_TEXT, "the job runs its whole runtime; steady state is not detected" },
	{ "steadystate_duration", "ss_dur", opt_accept, 0, 0, 0, OPT_TEXT, "the job runs its whole runtime; steady state is not detected" },
	{ "steadystate_ramp_time", "ss_ramp", opt_accept, 0, 0, 0, OPT_TEXT, "the job runs its whole runtime; steady state is not detected" },
	{ "wait_for", NULL, opt_accept, 0, 0, 0, OPT_TEXT, "the job starts with its reporting group, not after the job it names" },
	{ "prio", NULL, opt_accept, 0, 0, 0, 0, N_PRIO },
	{ "prioclass", NULL, opt_accept, 0, 0, 0, 0, N_PRIO },
	{ "cmdprio_percentage", NULL, opt_accept, 0, 0, 0, OPT_TEXT, N_PRIO },
	{ "cmdprio_class", NULL, opt_accept, 0, 0, 0, OPT_TEXT, N_PRIO },
	{ "cmdprio", NULL, opt_accept, 0, 0, 0, OPT_TEXT, N_PRIO },
	{ "cmdprio_bssplit", NULL, opt_accept, 0, 0, 0, OPT_TEXT, N_PRIO },
	{ "hipri", NULL, opt_bool, OFF(uring_hipri), 0, 0, OPT_BARE, NULL },
	{ "hipri_percentage", NULL, opt_accept, 0, 0, 0, 0, N_URING },
	{ "sqthread_poll", NULL, opt_bool, OFF(uring_sqpoll), 0, 0, OPT_BARE, NULL },
	{ "sqthread_poll_cpu", NULL, opt_uint, OFF(uring_sqpoll_cpu), 0, UINT_MAX - 1, 0, NULL },
	{ "fixedbufs", NULL, opt_bool, OFF(uring_fixedbufs), 0, 0, OPT_BARE, NULL },
	{ "registerfiles", NULL, opt_accept, 0, 0, 0, OPT_BARE,
	  "raidbench's io_uring always registers a job's files" },
	{ "nonvectored", NULL, opt_accept, 0, 0, 0, OPT_BARE,
	  "raidbench's io_uring always issues non-vectored reads and writes" },
	{ "uncached", NULL, opt_accept, 0, 0, 0, 0, N_URING },
	{ "nowait", NULL, opt_accept, 0, 0, 0, OPT_BARE, N_URING },
	{ "force_async", NULL, opt_accept, 0, 0, 0, 0, N_URING },
	{ "userspace_reap", NULL, opt_accept, 0, 0, 0, OPT_BARE, "raidbench's libaio always reaps ready completions in user space" },
	{ "unlink", NULL, opt_bool, OFF(unlink), 0, 0, OPT_BARE,
	  "files are kept after the run, except a pool an engine created for the job" },
	{ "unlink_each_loop", NULL, opt_accept, 0, 0, 0, OPT_BARE, "files are kept after the run" },
	{ "openfiles", NULL, opt_accept, 0, 0, 0, 0, "all of a job's files are open for the whole run" },
	{ "file_service_type", NULL, opt_file_service_type, 0, 0, 0, 0, NULL },
	{ "filename_format", NULL, opt_accept, 0, 0, 0, OPT_TEXT, "files are named jobname.jobnum.filenum" },
	{ "unique_filename", NULL, opt_accept, 0, 0, 0, OPT_BARE, NULL },
	{ "lockfile", NULL, opt_accept, 0, 0, 0, OPT_TEXT, "files are not locked" },
	{ "sync_file_range", NULL, opt_accept, 0, 0, 0, OPT_TEXT, "sync_file_range is not called" },
	{ "write_barrier", NULL, opt_accept, 0, 0, 0, 0, "no write is made a barrier" },
	{ "serialize_overlap", NULL, opt_accept, 0, 0, 0, OPT_BARE, "overlapping in-flight I/Os are not held back" },
	{ "offset_align", NULL, opt_accept, 0, 0, 0, OPT_SIZE, NULL },
	{ "bs_is_seq_rand", NULL, opt_accept, 0, 0, 0, OPT_BARE, "bs= stays per direction" },
	{ "rwmixcycle", NULL, opt_accept, 0, 0, 0, 0, NULL },
	{ "rw_sequencer", NULL, opt_word, OFF(rw_sequencer), 0, 0, 0, NULL },
	{ "softrandommap", NULL, opt_accept, 0, 0, 0, OPT_BARE, NULL },
	{ "trim_percentage", NULL, opt_accept, 0, 0, 0, 0, "written blocks are not trimmed for verification" },
	{ "trim_verify_zero", NULL, opt_accept, 0, 0, 0, OPT_BARE, "written blocks are not trimmed for verification" },
	{ "trim_backlog", NULL, opt_accept, 0, 0, 0, 0, "written blocks are not trimmed for verification" },
	{ "trim_backlog_batch", NULL, opt_accept, 0, 0, 0, 0, "written blocks are not trimmed for verification" },
	{ "write_hint", NULL, opt_accept_word, 0, 0, 0, 0, "no write lifetime hint is given" },
	{ "significant_figures", NULL, opt_accept, 0, 0, 0, 0, NULL },
	{ "unit_base", NULL, opt_accept, 0, 0, 0, 0, "bandwidth is reported in bytes" },
	{ "unified_rw_reporting", NULL, opt_accept_word, 0, 0, 0, 0, "reads and writes are reported apart" },
	{ "stats", NULL, opt_accept, 0, 0, 0, OPT_BARE, "statistics are always collected" },
	{ "block_error_percentiles", NULL, opt_accept, 0, 0, 0, OPT_BARE, NULL },
	{ "disk_util", NULL, opt_accept, 0, 0, 0, OPT_BARE, NULL },
	{ "uid", NULL, opt_accept, 0, 0, 0, 0, "the job keeps raidbench's user" },
	{ "gid", NULL, opt_accept, 0, 0, 0, 0, "the job keeps raidbench's group" },
	{ "cgroup", NULL, opt_accept, 0, 0, 0, OPT_TEXT, "the job is not put in a cgroup" },
	{ "cgroup_weight", NULL, opt_accept, 0, 0, 0, 0, "the job is not put in a cgroup" },
	{ "cgroup_nodelete", NULL, opt_accept, 0, 0, 0, OPT_BARE, NULL },
	{ "ioscheduler", NULL, opt_accept, 0, 0, 0, OPT_TEXT, "the device's I/O scheduler is not changed" },
	{ "atomic", NULL, opt_accept, 0, 0, 0, OPT_BARE, NULL },
	{ "thinktime_blocks_type", NULL, opt_accept_word, 0, 0, 0, 0, NULL },
	{ "thinktime_iotime", NULL, opt_accept, 0, 0, 0, OPT_TEXT, NULL },
	{ "log_alternate_epoch", NULL, opt_accept, 0, 0, 0, OPT_BARE, N_LOGS },
	{ "log_alternate_epoch_clock_id", NULL, opt_accept, 0, 0, 0, 0, N_LOGS },
	{ "log_hist_msec", NULL, opt_accept, 0, 0, 0, 0, NULL },
	{ "log_hist_coarseness", NULL, opt_accept, 0, 0, 0, 0, NULL },
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

const char *job_opt_note(const char *key, const char *value)
{
	int idx = job_opt_find(key);

	if (idx < 0)
		return NULL;
	/* notes that depend on the value: only where the effect really differs */
	if (!strcmp(job_opts[idx].name, "verify"))
		return value && verify_is_mapped(value) ? N_VHDR : NULL;
	if (!strcmp(job_opts[idx].name, "bsrange"))
		return value && strchr(value, '/') ? "read as fio does: the range from the first "
			"size to the second; '/N' weights and later sizes are ignored (bssplit= "
			"takes weights)" : NULL;
	if (!strcmp(job_opts[idx].name, "ioengine")) {
		const struct io_engine_ops *e = value ? engine_find(value) : NULL;

		return e ? e->note : NULL;
	}
	if (!strcmp(job_opts[idx].name, "io_submit_mode"))
		return value && !strcmp(value, "offload") ? job_opts[idx].note : NULL;
	if (!strcmp(job_opts[idx].name, "rate_process"))
		return value && !strcmp(value, "poisson") ? job_opts[idx].note : NULL;
	if (!strcmp(job_opts[idx].name, "allow_file_create"))
		return value && !strcmp(value, "0") ? job_opts[idx].note : NULL;
	return job_opts[idx].note;
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
	char msg[512], *unquoted = NULL;
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

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

int job_donor_path(const struct job_spec *job, char *buf, size_t len)
{
	const char *name = job->e4defrag_donor;
	int n;

	if (!name || !*name)
		return -EINVAL;
	/* fio: in the job's directory= when it has one */
	if (name[0] != '/' && job->nr_directories)
		n = snprintf(buf, len, "%s/%s", job->directories[0], name);
	else
		n = snprintf(buf, len, "%s", name);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

uint64_t job_verify_interval(const struct job_spec *job)
{
	uint64_t vi = job->verify_interval, minw = job->bs[DDIR_WRITE];
	uint64_t maxw = job->bs_max[DDIR_WRITE] > minw ? job->bs_max[DDIR_WRITE] : minw;
	unsigned i;

	for (i = 0; i < job->nr_bssplit[DDIR_WRITE]; i++) {
		uint64_t b = job->bssplit[DDIR_WRITE][i].bs;

		minw = b < minw ? b : minw;
		maxw = b > maxw ? b : maxw;
	}
	/* fio's fixup: at most the smallest write (and read, when the job reads) */
	if (!vi || vi > minw)
		vi = minw;
	else if ((job->rw & RW_READ) && vi > job->bs[DDIR_READ])
		vi = job->bs[DDIR_READ];
	/* and a factor of the smallest and largest write */
	if (minw % vi || maxw % vi)
		vi = gcd64(minw, maxw);
	for (i = 0; i < job->nr_bssplit[DDIR_WRITE]; i++)
		vi = gcd64(vi, job->bssplit[DDIR_WRITE][i].bs);
	return vi;
}

/* Every size the job writes is a whole number of verify_interval chunks. */
static bool verify_interval_divides(const struct job_spec *j, uint64_t vi)
{
	unsigned i;

	if (j->nr_bssplit[DDIR_WRITE]) {
		for (i = 0; i < j->nr_bssplit[DDIR_WRITE]; i++)
			if (j->bssplit[DDIR_WRITE][i].bs % vi)
				return false;
		return true;
	}
	/* bsrange sizes are multiples of the minimum */
	return !(j->bs[DDIR_WRITE] % vi);
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
	for (i = 0; i < DDIR_RWDIR_CNT; i++) {
		/* bs= only where neither bsrange= nor bssplit= set the bounds, in any order */
		if (d->bs_lo[i])
			j->bs[i] = d->bs_lo[i];
		j->bs_max[i] = d->bs_hi[i] ? d->bs_hi[i] : j->bs[i];
	}
	if (!was_set(d, "iodepth_low") || !j->iodepth_low || j->iodepth_low > j->iodepth)
		j->iodepth_low = j->iodepth;
	/*
	 * fio's defaults submit and reap one I/O per call; not given, raidbench
	 * submits every I/O it could prepare in one call and takes every
	 * completion already there (up to the depth) in one call, so a burst is
	 * accounted and refilled as one batch with one syscall each way. It
	 * never waits to fill a batch: no I/O is issued or reaped later for it.
	 */
	if (!was_set(d, "iodepth_batch"))
		j->iodepth_batch_submit = j->iodepth;
	if (!j->iodepth_batch_submit || j->iodepth_batch_submit > j->iodepth)
		j->iodepth_batch_submit = j->iodepth;
	if (!was_set(d, "iodepth_batch_complete_max") && j->iodepth_batch_complete_max < j->iodepth)
		j->iodepth_batch_complete_max = j->iodepth;
	if (j->iodepth_batch_complete_min > j->iodepth_batch_complete_max)
		j->iodepth_batch_complete_max = j->iodepth_batch_complete_min;
	j->uring_fixedbufs_given = was_set(d, "fixedbufs") && j->uring_fixedbufs;
	if (j->thinktime_spin_us > j->thinktime_us)
		j->thinktime_spin_us = j->thinktime_us;
	if (j->time_based && !j->runtime_us)
		j->time_based = false;	/* fio warns and carries on */
	if (!j->loops)
		j->loops = 1;
	/* fio seeds from randseed whenever it is given, randrepeat or not (worker_setup) */
	if (was_set(d, "randseed"))
		j->randseed_set = true;
	if (j->random_distribution != DIST_RANDOM || j->nr_dzones)
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
	if (j->verify != VERIFY_NONE) {
		uint64_t vi = job_verify_interval(j);

		/* said now, not once the job is about to run */
		if (vi < VERIFY_MIN_BS)
			return units_errf(why, len, "verify needs write blocks of at least %d bytes "
					  "for its header; %llu is too small%s", VERIFY_MIN_BS,
					  (unsigned long long)vi, j->nr_bssplit[DDIR_WRITE] ||
					  j->verify_interval ? " (verify_interval, or the greatest "
					  "common divisor of the bssplit sizes)" : "");
		if (!verify_interval_divides(j, vi))
			return units_errf(why, len, "verify interval %llu does not divide every "
					  "write block size", (unsigned long long)vi);
	}
	/* fio's fixup_options: zonesize= and zonemode= go together (its zonemode default is none) */
	if (!j->zone_strided && !j->zbd && j->zonesize)
		return units_errf(why, len, "zonesize= needs zonemode=strided (or zbd): fio 3.33 "
				  "refuses zonesize with zonemode=none, the default");
	if (j->zone_strided && !j->zonesize)
		return units_errf(why, len, "zonemode=strided needs zonesize=");
	/* zones given in counts: zonesize= now, a zoned device's zones at setup */
	if (!j->zbd)
		job_zones_to_bytes(j, j->zonesize);
	if (j->size && j->size < min_bs)
		return units_errf(why, len, "size %llu is smaller than the block size %llu",
				  (unsigned long long)j->size, (unsigned long long)min_bs);
	{
		/* the engine's own options (uri=, an iscsi:// filename), said at parse time */
		const struct io_engine_ops *ops = engine_find(j->ioengine);

		if (ops && ops->check_job)
			return ops->check_job(j, why, len);
	}
	return 0;
}
