/*
 * job.h - one job as the engine runs it: the resolved, typed form of a
 * fio job section (job file section + [global] + command-line defaults).
 *
 * The option parser (core/options.c) fills a struct job_list; the runner
 * (core/run.c) only reads it. Nothing here does I/O.
 */
#ifndef RB_JOB_H
#define RB_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sched.h>

enum rb_ddir { DDIR_READ = 0, DDIR_WRITE = 1, DDIR_TRIM = 2, DDIR_RWDIR_CNT = 3,
	       DDIR_SYNC = 3 };

/* rw= pattern, as bits: which directions, and whether offsets are random. */
enum {
	RW_READ = 1u << 0,
	RW_WRITE = 1u << 1,
	RW_TRIM = 1u << 2,
	RW_RANDOM = 1u << 3,
};

/* random_generator=; DEFAULT is tausworthe that turns 64-bit for regions of more than 2^32 blocks */
enum { RANDGEN_DEFAULT = 0, RANDGEN_LFSR, RANDGEN_TAUS, RANDGEN_TAUS64 };
enum rand_dist { DIST_RANDOM = 0, DIST_ZIPF, DIST_PARETO, DIST_NORMAL };

/*
 * file_service_type=: which of a job's files the next I/O goes to. The
 * distributions choose a file as fio's do, and a file they find at its end
 * starts over rather than being done for the pass.
 */
enum file_service {
	FSVC_ROUNDROBIN = 0,	/* in turns, file_service_nr I/Os each (fio's default) */
	FSVC_SEQUENTIAL,	/* each file to its end before the next */
	FSVC_RANDOM,		/* a file drawn uniformly each file_service_nr I/Os */
	FSVC_ZIPF,
	FSVC_PARETO,
	FSVC_NORMAL,
};

enum verify_type { VERIFY_NONE = 0, VERIFY_CRC32C, VERIFY_MD5 };

/* continue_on_error= bits */
enum {
	COE_READ = 1u << 0,
	COE_WRITE = 1u << 1,
	COE_VERIFY = 1u << 2,
	COE_IO = COE_READ | COE_WRITE,
	COE_ALL = COE_READ | COE_WRITE | COE_VERIFY,
};

enum sync_mode { SYNC_NONE = 0, SYNC_SYNC, SYNC_DSYNC };

#define RB_MAX_PERCENTILES 20
#define RB_MAX_BSSPLIT 64

struct bssplit_entry {
	uint64_t bs;
	uint32_t perc;		/* 0..100 */
};

/* An option as the user typed it (after ${VAR} expansion); value NULL for a bare flag. */
struct opt_kv {
	char *key;
	char *value;
};

/* sg's sg_write_mode=: what a write does (fio's names) */
enum sg_write_mode {
	SG_WRITE = 0, SG_WRITE_VERIFY, SG_WRITE_SAME, SG_WRITE_SAME_NDOB,
	SG_VERIFY_BYTCHK_00, SG_VERIFY_BYTCHK_01, SG_VERIFY_BYTCHK_11,
};

/* net's protocol= */
enum net_proto { NET_TCP = 0, NET_TCPV6, NET_UDP, NET_UDPV6, NET_UNIX };

/* filestat's stat_type= */
enum stat_type { STAT_STAT = 0, STAT_LSTAT, STAT_STATX };

/* rw_sequencer=: where an I/O between two random offsets goes */
enum { RW_SEQ_SEQUENTIAL, RW_SEQ_IDENTICAL };

struct job_spec {
	char *name;
	char *description;		/* NULL when not set */
	const char *src_file;		/* where the job was defined ("<command line>") */
	int src_line;

	/* grouping */
	bool stonewall;
	bool new_group;
	bool group_reporting;
	int groupid;			/* assigned by the parser, fio's rules */

	/* what I/O */
	unsigned rw;			/* RW_* bits */
	unsigned rw_nr;			/* rw=randread:N / write:N suffix, 0 when absent */
	int64_t rw_gap;			/* sequential rw=read:N byte gap; negative reads backwards */
	/*
	 * random patterns (fio's ddir_seq_nr): a new random offset every Nth
	 * I/O, the others placed by rw_sequencer; 1 unless rw=randread:N, 0 never
	 */
	unsigned rw_seq_nr;
	int rw_sequencer;		/* RW_SEQ_SEQUENTIAL or RW_SEQ_IDENTICAL */
	unsigned rwmixread;		/* percent of mixed I/O that is read */
	uint64_t bs[DDIR_RWDIR_CNT];
	uint64_t bs_max[DDIR_RWDIR_CNT];	/* == bs unless bsrange/bssplit */
	struct bssplit_entry bssplit[DDIR_RWDIR_CNT][RB_MAX_BSSPLIT];
	unsigned nr_bssplit[DDIR_RWDIR_CNT];	/* 0 = no bssplit for that direction */
	uint64_t ba[DDIR_RWDIR_CNT];	/* blockalign, 0 = same as bs */
	unsigned percentage_random[DDIR_RWDIR_CNT];

	/* queueing */
	char *ioengine;			/* a registered engine's name (engine.c) */
	unsigned iodepth;
	unsigned iodepth_batch_submit;
	unsigned iodepth_batch_complete_min;
	unsigned iodepth_batch_complete_max;
	unsigned iodepth_low;
	/* fio's ring tuning options (fixedbufs, sqthread_poll, hipri...; struct engine_tuning): the engine reads them at init */
	bool uring_fixedbufs;		/* on unless fixedbufs=0 */
	bool uring_fixedbufs_given;	/* fixedbufs=1 given: failing to register is an error */
	bool uring_sqpoll;
	unsigned uring_sqpoll_cpu;	/* UINT_MAX: not pinned */
	bool uring_hipri;
	unsigned numjobs;
	unsigned loops;

	/* where */
	char **filenames;		/* filename= list, NULL-terminated; NULL when unset */
	unsigned nr_filenames;
	char **directories;		/* directory= list, NULL-terminated; NULL when unset */
	unsigned nr_directories;
	unsigned nrfiles;
	enum file_service file_service;	/* file_service_type= */
	/* roundrobin:N, random:N: I/Os on a file before the next pick (fio's, 0 stays) */
	unsigned file_service_nr;
	double fs_param, fs_center;	/* zipf:theta, pareto:h, normal:sigma [:center], -1 none */
	uint64_t size;			/* 0 = take from file/device */
	unsigned size_percent;		/* size=N%, 0 when not a percentage */
	uint64_t io_size;		/* 0 = same as size */
	uint64_t offset;
	unsigned offset_percent;
	uint64_t filesize;		/* 0 = size / nrfiles; with a range, its low end */
	uint64_t filesize_max;		/* filesize=LOW-HIGH's high end (= filesize when fixed) */
	uint64_t offset_increment;	/* clone n starts at offset + n * this */
	uint64_t number_ios;		/* stop a loop after this many I/Os, 0 = no limit */
	/* zonemode=strided: zonesize bytes of I/O in each zonerange, then skip zoneskip */
	bool zone_strided;
	uint64_t zonesize, zonerange, zoneskip;
	/*
	 * fio's zone counts ("size=8z"): sizes given in zones, the byte field
	 * left 0 until the zone size is known (job_zones_to_bytes): zonesize=
	 * when the job is parsed, a zoned device's own zone size at setup.
	 */
	uint32_t size_nz, io_size_nz, offset_nz, offset_increment_nz, zoneskip_nz;

	/* how */
	bool direct;
	enum sync_mode sync;
	unsigned fsync_blocks;		/* fsync every N writes */
	unsigned fdatasync_blocks;
	bool end_fsync;
	bool invalidate;
	bool norandommap;
	bool unlink;		/* remove the files after the job (engines with target_close) */
	int random_generator;		/* RANDGEN_*: lfsr covers every block once per pass, even with norandommap */
	bool randrepeat;
	bool randseed_set;		/* randseed= given: fio then seeds offsets from it and never reseeds */
	uint64_t randseed;
	enum rand_dist random_distribution;
	double dist_param;		/* zipf theta, pareto h, normal sigma % */
	double dist_center;		/* normal: 0..1, -1 when unset */
	/* random_distribution=zoned: access percent and size percent (or bytes for zoned_abs) */
	unsigned nr_dzones;
	bool dzones_abs;
	struct { unsigned access; uint64_t size; } dzones[RB_MAX_BSSPLIT];
	bool scramble_buffers;
	bool zero_buffers;
	bool refill_buffers;
	int nice;
	enum stat_type stat_type;	/* filestat: stat_type= */
	enum sg_write_mode sg_write_mode;	/* sg: what a write does */
	bool sg_readfua, sg_writefua;	/* sg: FUA on reads, writes */
	bool mtd_skip_bad;		/* mtd: leave blocks the flash knows bad alone */
	unsigned cpuload;		/* cpuio: percent of the CPU kept busy */
	uint64_t cpuchunks_us;		/* cpuio: busy time per cycle */
	int cpumode_qsort;		/* cpuio: cpumode=qsort (1) or noop (0) */
	/* net: its options, as fio names them */
	char *net_host;			/* hostname=: the peer, a multicast group or a unix socket */
	unsigned net_port;		/* 0 when unset */
	int net_proto;			/* enum net_proto */
	bool net_listen, net_pingpong, net_nodelay;
	char *net_interface;		/* interface=: multicast interface address, NULL when unset */
	unsigned net_ttl;		/* multicast TTL, fio's default 1 */
	unsigned net_window, net_mss;	/* window_size=, mss=: 0 = the kernel's */
	/* exec: the program run beside the job's other jobs */
	char *exec_program;		/* program=, NULL when unset */
	char *exec_arguments;		/* arguments=, %r and %n not yet expanded */
	unsigned exec_grace_s;		/* grace_time=: SIGTERM to SIGKILL, seconds */
	bool exec_std_redirect;		/* stdout, stderr to JOBNAME.stdout, JOBNAME.stderr */
	char *exec_prerun;		/* exec_prerun=: a shell command before the job's I/O */
	char *exec_postrun;		/* exec_postrun=: a shell command after it */
	char *e4defrag_donor;		/* e4defrag: donorname=, NULL when unset */
	bool e4defrag_inplace;		/* e4defrag: allocate the donor per I/O */
	char *remote_uri;		/* nbd: uri=, the export's URI, NULL when unset */
	char *iscsi_initiator;		/* libiscsi: initiator= (IQN), NULL for the default */
	bool fill_device;		/* write until the device or file system is full */
	bool exitall;			/* this job's end stops every other job */
	bool zbd;			/* zonemode=zbd: the target must be a zoned device */
	char *write_iolog;		/* fio iolog (version 2) of the I/Os issued, NULL = off */
	/* latency_target: the deepest queue whose latency_percentile stays under target */
	uint64_t latency_target_us;
	uint64_t latency_window_us;
	double latency_percentile;
	bool latency_run;		/* keep adjusting the depth for the whole run */
	/* flow=: this job's weight among the jobs of its flow_id, 0 = no flow control */
	unsigned flow;
	int flow_id;
	uint64_t flow_sleep_us;		/* wait when ahead of the share, 0 = yield */

	/* time */
	uint64_t runtime_us;		/* 0 = unlimited */
	bool time_based;
	uint64_t ramp_time_us;
	uint64_t startdelay_us;

	/* pacing */
	uint64_t rate[DDIR_RWDIR_CNT];		/* bytes/s, 0 = unlimited */
	uint64_t rate_iops[DDIR_RWDIR_CNT];	/* 0 = unlimited */
	uint64_t thinktime_us;
	unsigned thinktime_blocks;
	uint64_t thinktime_spin_us;

	/* placement */
	bool has_cpus_allowed;
	cpu_set_t cpus_allowed;
	bool cpus_allowed_split;	/* cpus_allowed_policy=split */
	char *numa_cpu_nodes;		/* libnuma node string, NULL when unset */
	char *numa_mem_policy;		/* "default|prefer|bind|interleave|local[:nodes]" */

	/* verify */
	enum verify_type verify;
	bool do_verify;
	bool verify_fatal;
	bool verify_only;		/* read back and check what an earlier run wrote */
	bool experimental_verify;	/* fio counts the read-back against the write budget */
	uint64_t verify_interval;	/* bytes per verify header, 0 = job_verify_interval's default */
	uint64_t verify_backlog;	/* read back after this many writes, 0 = after the phase */
	unsigned verify_batch;		/* read-backs per backlog stop, 0 = verify_backlog */
	unsigned continue_on_error;	/* COE_* bits */

	/* statistics and output */
	double percentiles[RB_MAX_PERCENTILES];
	unsigned nr_percentiles;
	bool clat_percentiles;
	bool lat_percentiles;
	bool slat_percentiles;
	unsigned bwavgtime_ms;
	unsigned iopsavgtime_ms;
	char *write_bw_log;		/* log file prefix, NULL = off */
	char *write_lat_log;
	char *write_iops_log;
	unsigned log_avg_msec;
	bool per_job_logs;		/* 0: logs named without the job index */
	bool log_offset;		/* an offset column in the logs */
	bool log_prio;			/* the priority column in hex (0x0000: none set) */
	unsigned kb_base;

	/* the options of this job's own section, as typed, for JSON "job options" */
	struct opt_kv *job_options;
	size_t nr_job_options;
};

struct job_list {
	struct job_spec *jobs;
	size_t nr;
	/* [global] sections + command-line globals, as typed, for JSON "global options" */
	struct opt_kv *global_options;
	size_t nr_global_options;
	/* the job files and includes read, owned here: each job's src_file points into them */
	char **files;
	size_t nr_files;
};

void job_list_release(struct job_list *jl);

/* Fills a job with fio's defaults (bs 4k, iodepth 1, rw=read, the first registered ioengine, ...). */
void job_spec_defaults(struct job_spec *job);

/* Deep copy (all strings and arrays duplicated). Returns 0 or -ENOMEM. */
int job_spec_copy(struct job_spec *dst, const struct job_spec *src);
void job_spec_release(struct job_spec *job);

/*
 * Bytes covered by each verify header: verify_interval=, else the greatest
 * common divisor of the sizes the job writes (its one bs, the bsrange minimum,
 * or the bssplit sizes), so mixed sizes carry whole headers.
 */
uint64_t job_verify_interval(const struct job_spec *job);

/*
 * The zone counts in bytes, zone bytes each (fio's
 * zbd_recalc_options_with_zone_granularity): a count of 0 leaves its field
 * as it is, and nothing changes when zone is 0.
 */
void job_zones_to_bytes(struct job_spec *job, uint64_t zone);

/* e4defrag's donor file: donorname= in the job's directory; 0, -EINVAL without one. */
int job_donor_path(const struct job_spec *job, char *buf, size_t len);

static inline bool job_is_random(const struct job_spec *job)
{
	return job->rw & RW_RANDOM;
}

/* Sizes drawn per I/O (bsrange or bssplit) in any direction. */
static inline bool job_mixed_sizes(const struct job_spec *job)
{
	int d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		if (job->nr_bssplit[d] || job->bs_max[d] > job->bs[d])
			return true;
	return false;
}

static inline bool job_writes(const struct job_spec *job)
{
	return job->rw & (RW_WRITE | RW_TRIM);
}

#endif
