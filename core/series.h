/*
 * series.h - the per-interval time series of a run, kept so a report can be
 * drawn later from the saved result alone: per phase (a job name and group,
 * its clones merged, as core/results.h names phases) and direction, the
 * IOPS, bytes/s and p50/p99/p99.9 completion latency of every live tick;
 * per device the utilisation.
 *
 * Bounded: a series holds at most SERIES_MAX_POINTS buckets. When one is
 * full, neighbouring buckets merge pairwise and later ticks fill buckets
 * twice as wide; each bucket keeps min, max and mean of its ticks plus the
 * exact I/O and byte counts, so totals survive any downsampling. At most
 * SERIES_MAX_TRACKS phase series and SERIES_MAX_DEVICES device series are
 * kept (the rest are counted as left out).
 *
 * Threading contract: a struct series is fed by the live ring's consumer
 * (core/run.c's run_drain) and read after the run; one thread at a time.
 */
#ifndef RB_SERIES_H
#define RB_SERIES_H

#include <stddef.h>
#include <stdint.h>

#define SERIES_MAX_POINTS 256
#define SERIES_MAX_TRACKS 128
#define SERIES_MAX_DEVICES 32

struct live_rec;
struct run_layout;

/* min, max and the tick-count mean of one quantity over a bucket's ticks */
struct series_stat {
	double min, max, sum;
	uint32_t n;		/* ticks that had a value (latency: ticks with I/O) */
};

enum { SERIES_IOPS, SERIES_BW, SERIES_P50, SERIES_P99, SERIES_P999, SERIES_NR_STATS };

struct series_point {
	uint64_t t0_ns, t1_ns;	/* the bucket's span since the run started */
	uint32_t ticks;
	uint64_t ios, bytes;	/* exact counts in the bucket */
	struct series_stat st[SERIES_NR_STATS];	/* devices: st[0] is utilisation in % */
};

struct series_track {
	char *label;		/* phase label ("name", "name#2") or device name */
	char *job;		/* job name (phases) */
	int group;
	int ddir;		/* phases: DDIR_*; devices: -1 */
	int util_meaningful;	/* devices: 0 for NVMe/md/dm, where %util misleads */
	uint32_t per_point;	/* ticks per full bucket: 1, 2, 4, ... */
	size_t nr;
	struct series_point *pts;	/* SERIES_MAX_POINTS, allocated on first use */
};

struct series;

/* Phases and devices from the run's layout; NULL on ENOMEM. */
struct series *series_new(const struct run_layout *lay);
void series_free(struct series *s);

/* Feeds one live record, in ring order. */
void series_feed(struct series *s, const struct live_rec *rec);

/* The series as the result's raidbench.series object; the caller puts it. */
struct json_object;
struct json_object *series_json(const struct series *s);

/* Read access for tests: phase tracks then device tracks. */
size_t series_nr_tracks(const struct series *s, int devices);
const struct series_track *series_track_at(const struct series *s, int devices, size_t i);

#endif
