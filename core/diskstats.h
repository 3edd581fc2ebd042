/*
 * diskstats.h - /sys/block/NAME/stat snapshots and their deltas, for fio's
 * disk_util section and the live per-device view.
 */
#ifndef RB_DISKSTATS_H
#define RB_DISKSTATS_H

#include <stdint.h>
#include "stats.h"

struct diskstat_snap {
	char name[64];		/* kernel name: "loop0", "sda" (a partition maps to its disk) */
	uint64_t v[17];		/* fields of /sys/block/NAME/stat */
	uint64_t t_ns;
};

/* Kernel block device name holding path (a device, partition, or a file's fs); -errno. */
int diskstat_name_for_path(const char *path, char *name, size_t len);
int diskstat_read(const char *name, struct diskstat_snap *s);
/*
 * The devices under name (/sys/class/block/NAME/slaves: an md array's
 * members, a dm mapping's tables), at most max, into names; their count or
 * 0 when it has none.
 */
size_t diskstat_slaves(const char *name, char (*names)[64], size_t max);
/* fio's disk_util from two snapshots. */
void diskstat_util(const struct diskstat_snap *a, const struct diskstat_snap *b,
		   struct disk_util *out);

#endif
