/*
 * fleet.h - one run on many hosts through fio's own server (`fio --server`
 * on each host): raidbench is the client. It connects to every host, sends
 * the job text, starts it, asks for an ETA every tick, gathers each host's
 * per-job status messages (cumulative statistics with latency histograms)
 * and turns their differences into the same per-interval live records as a
 * local run (core/ring.h), through a ring the caller drains.
 *
 * A host that cannot be reached, refuses, speaks another protocol version,
 * rejects the job or dies mid-run is marked failed with the reason; the
 * others carry on and keep their results.
 *
 * Threading contract: single-threaded. The caller calls fleet_step() in its
 * own loop (a headless run or a UI frame); nothing here blocks longer than
 * the timeout it is given, never prints, and *interrupt may be set from a
 * signal handler.
 */
#ifndef RB_FLEET_H
#define RB_FLEET_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "fio_proto.h"
#include "job.h"
#include "ring.h"
#include "run.h"
#include "stats.h"

/* A server address in fio's --client syntax. */
struct fleet_addr {
	char name[160];		/* as given: "127.0.0.2", "ip6:::1,8766", "sock:/run/fio" */
	char host[128];		/* host name or address; the socket path for sock: */
	unsigned port;
	int family;		/* AF_UNSPEC (resolve), AF_INET, AF_INET6 or AF_UNIX */
};

/*
 * fio's forms: "host", "host,port", "ip:host,port", "ip6:host,port",
 * "sock:path"; an IPv6 address may be given bare. 0 or -EINVAL with err.
 */
int fleet_parse_addr(const char *spec, struct fleet_addr *a, char *err, size_t errlen);

/*
 * Each --client value: an address, or (as fio) a file naming one host a
 * line (blank lines and #-comments skipped). Appends to *out (caller frees).
 * 0 or -errno with err naming the file and line.
 */
int fleet_add_clients(const char *arg, struct fleet_addr **out, size_t *nr, char *err,
		      size_t errlen);

enum fleet_state {
	FLEET_CONNECTING,
	FLEET_SETUP,		/* connected: probe, job text, waiting for START */
	FLEET_RUNNING,
	FLEET_STOPPING,		/* asked to stop (QUIT sent), waiting for its results */
	FLEET_DONE,		/* the server said STOP: results final */
	FLEET_FAILED,		/* see fault and why */
};

/* What went wrong with a host, one word for tables and JSON. */
enum fleet_fault {
	FLEET_OK,
	FLEET_UNREACHABLE,	/* no route, name unknown, connect timed out */
	FLEET_REFUSED,		/* nothing listens there */
	FLEET_VERSION,		/* another fio protocol version */
	FLEET_REJECTED,		/* the server refused the job text */
	FLEET_LOST,		/* the connection ended or went silent mid-run */
	FLEET_JOB_ERROR,	/* the jobs ran and reported an error */
	FLEET_STOPPED,		/* stopped by the user before its results were final */
};

const char *fleet_state_name(enum fleet_state s);
const char *fleet_fault_name(enum fleet_fault f);

/* One host as the caller sees it (read-only outside fleet.c). */
struct fleet_host {
	struct fleet_addr addr;
	enum fleet_state state;
	enum fleet_fault fault;
	char why[512];			/* the reason, in words, when failed */
	struct fio_probe_reply probe;	/* valid when probed */
	bool probed;
	uint16_t version_seen;		/* the version a mismatched server spoke */
	/* the last complete set of status messages (cumulative), one per job or group */
	struct thread_stat *ts;
	size_t nr_ts;
	struct group_stat *gs;
	size_t nr_gs;
	uint64_t snapshots;		/* complete sets received */
	bool final;			/* ts are the end-of-run results */
	int32_t stop_error, stop_signal;
	struct fio_eta eta;
	/* live, for the Hosts view: the last tick's rates */
	double iops[DDIR_RWDIR_CNT], bw[DDIR_RWDIR_CNT];
	uint32_t p99_ns[DDIR_RWDIR_CNT];
	uint64_t errors;
	size_t slot;			/* layout index of this host's total row */
	struct fleet_host_priv *priv;
};

struct fleet_params {
	const char *job_text;		/* an ini job file, as fio parses it on the server */
	unsigned interval_ms;		/* the tick: ETA request and status interval */
	unsigned connect_timeout_ms;	/* default 5000, as fio's client */
	unsigned reply_timeout_ms;	/* a running host silent this long is lost; default 10000 */
	volatile sig_atomic_t *interrupt;
	uint16_t test_version;		/* 0; tests: speak another protocol version */
};

struct fleet {
	struct fleet_host *hosts;
	size_t nr_hosts;
	struct fleet_params p;
	struct ring ring;
	struct run_layout layout;	/* per host: a total row, then one row per job */
	uint64_t t0_ns, last_tick_ns;
	uint64_t ticks;
	uint64_t msgs;			/* status messages (TS) decoded */
	bool stop_sent;
	bool ended;			/* the closing tick and LIVE_END are in the ring */
	struct fleet_priv *priv;
};

/*
 * Sets up hosts (copied) and the live layout from the local job list (names
 * of the rows; the job text itself goes to every server unchanged), and
 * starts connecting. 0 or -errno with err set; fleet_release() either way.
 */
int fleet_begin(struct fleet *f, const struct fleet_addr *addrs, size_t nr,
		const struct job_list *jl, const struct fleet_params *p, char *err,
		size_t errlen);

/*
 * Waits for traffic at most timeout_ms, handles it, and at each tick asks
 * every running host for its ETA and pushes the tick's live records into
 * f->ring. Returns true while any host is still going.
 */
bool fleet_step(struct fleet *f, unsigned timeout_ms);

/* Asks every host to stop (Ctrl-C): they send their partial results. */
void fleet_stop(struct fleet *f);

void fleet_release(struct fleet *f);

/*
 * A job that writes to a device path (/dev/...) on the servers needs that
 * path among consent's (--allow-destroy): the console cannot see what the
 * servers' disks hold. 0, or -EPERM with err naming the job and the path.
 */
struct guard_consent;
int fleet_check_writes(const struct job_list *jl, const struct guard_consent *consent, char *err,
		       size_t errlen);

/* An ini job file for the servers from a job list: [global] then one section per job. */
char *fleet_job_text(const struct job_list *jl);

/* Monotonic ns (the live records' clock). */
uint64_t fleet_now_ns(void);

#endif
