/*
 * results.h - saved runs and what compare reads. Every run is saved as JSON
 * under $XDG_DATA_HOME/raidbench/results/ (default
 * ~/.local/share/raidbench/results/): fio's JSON plus a "raidbench" object
 * with the host, the version, the time, the profile and each target's
 * identity. The same loader reads fio's own --output-format=json files, so
 * raidbench and fio runs compare side by side.
 *
 * Nothing here prints; every failure is -errno plus one line in the caller's
 * buffer that names the file.
 */
#ifndef RB_RESULTS_H
#define RB_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "report.h"
#include "run.h"

/*
 * What the front end learnt about one target (hw/identity.c reads sysfs).
 * An empty string or a negative number is "unknown" and is saved as null,
 * never guessed.
 */
struct results_identity {
	char device[128];	/* "/dev/sdb"; for a file, the device holding it */
	char model[128];
	char serial[128];
	char wwid[128];
	char controller[160];	/* "0000:05:00.0 hpsa [103c:3239]" */
	char raid_level[16];	/* normalized as inventory.h: "0" "1" "5" "10" ... */
	int64_t strip_size_bytes;
	int members;
	char member_devices[256];	/* "sdb sdc sdd" for md */
	char fs_type[32];	/* the file system a file lives on, or found on the device */
	char mount_point[256];
};

/* Fills id for the target at path; id arrives zeroed with numbers at -1. */
typedef int (*results_identify_fn)(const char *path, struct results_identity *id);

/* The results directory, created if missing (core/userdir.h's rules). 0 or -errno, err set. */
int results_dir(char *buf, size_t len, char *err, size_t errlen);

/*
 * Saves one run; path receives the file written. identify may be NULL (no
 * identity beyond the path, kind and size). 0 or -errno with err set.
 * Never overwrites an earlier result.
 */
int results_save(const struct run_report *rep, const struct run_result *res,
		 results_identify_fn identify, char *path, size_t pathlen, char *err,
		 size_t errlen);

/*
 * results_save() with more members for the "raidbench" object: each
 * extras[i].json is JSON text (an object, a number, ...) saved under
 * extras[i].key, e.g. the RAID sweep's {"level": "5", ...} as "sweep".
 * -EINVAL with err set when a text does not parse; nothing is written then.
 */
struct results_extra {
	const char *key;
	const char *json;
};

int results_save_extra(const struct run_report *rep, const struct run_result *res,
		       results_identify_fn identify, const struct results_extra *extras,
		       size_t nr_extras, char *path, size_t pathlen, char *err, size_t errlen);

/*
 * The profile a job list came from: the stem of a job file that lives in a
 * directory named "profiles" ("cdm-standard"), NULL when none. Points into
 * name, which must hold len bytes.
 */
const char *results_profile_name(const struct job_list *jl, char *name, size_t len);

/* ---- reading results back ------------------------------------------------ */

/*
 * One phase of a loaded result in one direction: the job entries with one
 * job name and group merged (fio writes one entry per clone without
 * group_reporting). Latencies are fio's completion latency (clat), as its
 * percentiles are; lat_p99_ns is < 0 when the file has no 99th percentile.
 */
struct result_phase {
	char *name;		/* the job name, "name#2" when a later group reuses it */
	char *desc;		/* fio's "desc", NULL when none */
	int groupid;
	int ddir;		/* DDIR_READ, DDIR_WRITE, DDIR_TRIM */
	uint64_t total_ios;
	double iops;
	double bw_bytes;	/* bytes per second */
	double lat_mean_ns;
	double lat_p99_ns;	/* the largest clone's p99 when clones were merged */
	double lat_p50_ns;	/* likewise; < 0 when the file has none */
	double lat_p999_ns;
	double lat_max_ns;	/* the largest completion latency; < 0 unknown */
	/* the range of the per-interval rates (fio's iops_min/max, bw_min/max in bytes/s): clones
	 * run side by side, so merged clones add up; < 0 when the file has none */
	double iops_min, iops_max;
	double bw_min, bw_max;
	uint64_t errors;	/* fio's total_err where counted, else 1 per job entry with an error */
	unsigned nr_entries;	/* job entries merged into this phase */
};

/* One results file, raidbench's or fio's. Strings are NULL when absent. */
struct result {
	char *path;
	char *generator;	/* "fio version": "fio-3.33", "raidbench-0.1.0" */
	bool raidbench;		/* has raidbench's own section */
	int64_t time_ms;	/* start time, 0 when unknown */
	char *host;
	char *profile;
	char *target;		/* "/dev/sdb ST2000NM0045 RAID 5" or fio's filename */
	bool interrupted;	/* stopped before its end (raidbench's "interrupted") */
	struct result_phase *phases;
	size_t nr_phases;
};

/*
 * Loads a raidbench or fio JSON file; text before the first '{' line (fio's
 * warnings) and after the object (another output format) is skipped. Returns
 * 0, or -ENOENT/-EACCES (cannot read), -ENODATA (empty or truncated),
 * -EINVAL (not JSON, or JSON without fio's "jobs"), with err naming path and
 * the reason. Nothing is left allocated on error.
 */
int result_load(struct result *r, const char *path, char *err, size_t errlen);
/*
 * result_load() that also hands back the parsed JSON (when root is not NULL)
 * for readers of more than the phases (core/report_doc.c); the caller puts
 * it with json_object_put(). Nothing is handed back on error.
 */
struct json_object;
int result_load_json(struct result *r, const char *path, struct json_object **root, char *err,
		     size_t errlen);
int result_parse_json(struct result *r, const char *name, const char *text, size_t len,
		      struct json_object **root, char *err, size_t errlen);
/*
 * A finished run read as its saved form would be (the same JSON built and
 * parsed back, targets without identity), so a summary on screen and the
 * saved file cannot differ. 0 or -errno with err set.
 */
int result_from_run(struct result *r, const struct run_report *rep, const struct run_result *res,
		    char *err, size_t errlen);
/* The same from text in memory; name is used in messages and as the path. */
int result_parse(struct result *r, const char *name, const char *text, size_t len, char *err,
		 size_t errlen);
void result_release(struct result *r);

/*
 * Every result in the results directory, oldest first. A file that does not
 * load is kept with its path and err set (phases empty), so a listing can
 * name it. Caller frees with results_list_free.
 */
struct result_entry {
	struct result r;
	char err[256];		/* empty when it loaded */
};

int results_list(struct result_entry **out, size_t *nr, char *err, size_t errlen);
void results_list_free(struct result_entry *list, size_t nr);

/*
 * How a listing names r: its profile, else its first phase ("-" when
 * neither), after "(stopped) " when the run was interrupted, so a partial
 * run never reads as a whole one, even cut short. Returns buf.
 */
const char *result_name(const struct result *r, char *buf, size_t len);

/* Highest IOPS and MB/s over r's phases in one direction (the "peak" line). */
void result_peak(const struct result *r, int ddir, double *iops, double *bw_bytes);

#endif
