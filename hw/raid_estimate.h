/*
 * raid_estimate.h - what a RAID level promises before anything is built:
 * usable capacity, fault tolerance in words, and the textbook performance
 * relative to one member drive. Pure arithmetic: no I/O, no curses, no
 * allocation; the array builder screen and `raidbench sweep` both show it,
 * always labelled RAID_ESTIMATE_LABEL, next to (never instead of) a
 * measurement.
 *
 * The model (the one found in every RAID primer):
 *   random reads   N x one drive (every member serves reads)
 *   random writes  N / penalty x one drive; penalty 1 (RAID 0), 2 (RAID 1,
 *                  10), 3 (3-way mirrors), 4 (RAID 5, 50), 6 (RAID 6, 60)
 *   sequential     reads N x; writes the data drives' worth (full stripes:
 *                  N-1 for RAID 5, N-2 for RAID 6, N/2 for RAID 10, 1 for a
 *                  plain mirror)
 * Controller caches, SSD internals and parity initialization all move the
 * real numbers; that is what the sweep measures.
 */
#ifndef RB_RAID_ESTIMATE_H
#define RB_RAID_ESTIMATE_H

#include <stdbool.h>
#include <stdint.h>

#define RAID_ESTIMATE_LABEL "estimate"

struct raid_estimate {
	unsigned drives;		/* members counted (spares excluded) */
	unsigned groups;		/* parity/mirror groups (RAID 10, 50, 60); 1 otherwise */
	unsigned data_drives;		/* usable capacity in drives */
	int64_t capacity_bytes;		/* data_drives x the smallest drive; -1 when unknown */
	unsigned failures_always;	/* any this many drive failures are survived */
	unsigned failures_best;		/* at most this many, when they fall in different groups */
	unsigned write_penalty;		/* back-end I/Os per small random write */
	double rand_read_x;		/* relative to one drive */
	double rand_write_x;
	double seq_read_x;
	double seq_write_x;
	char tolerance[112];		/* "survives one drive failure" */
};

/*
 * Fills est for level (normalized: "0" "1" "10" "5" "6" "50" "60" "1adm"
 * "10adm" "jbod" "linear") over drives members of drive_bytes each (the
 * smallest; <= 0 when unknown). groups: the parity groups of RAID 50/60
 * (0 = 2); ignored by the other levels. Returns 0, -EINVAL when the level is
 * unknown or the count cannot build it (est->tolerance then says why, e.g.
 * "RAID 5 needs at least 3 drives").
 */
int raid_estimate(const char *level, unsigned drives, unsigned groups, int64_t drive_bytes,
		  struct raid_estimate *est);

/*
 * The multiplier for a workload: read_pct of the I/Os are reads (100 pure
 * reads, 0 pure writes, 70 a 70/30 mix), sequential or random. A mix
 * combines the two as the primers do: 1 / (r / read_x + w / write_x).
 */
double raid_estimate_factor(const struct raid_estimate *est, unsigned read_pct, bool sequential);

/* The smallest drive count a level needs, 0 when the level is unknown. */
unsigned raid_estimate_min_drives(const char *level);

#endif
