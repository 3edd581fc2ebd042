/*
 * iostat.h - per-device activity, the iostat -x arithmetic over
 * SYSFS/block/NAME/stat: r/s, w/s, rMB/s, wMB/s (MiB, as iostat -m), aqu-sz,
 * r_await, w_await (ms) and %util, between two samples. The devices view and
 * the live view's member-drive activity both read it.
 *
 * %util is the share of time the device had at least one request in
 * flight. A device that serves many requests at once (NVMe, md and hardware
 * RAID volumes) is busy long before it is saturated, so for those it is
 * marked not meaningful and the UI should dim it.
 *
 * Threading: a sampler belongs to one thread.
 */
#ifndef RB_IOSTAT_H
#define RB_IOSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Fields of the stat file that the arithmetic uses (Documentation/block/stat.rst). */
enum {
	IOSTAT_READ_IOS, IOSTAT_READ_MERGES, IOSTAT_READ_SECTORS, IOSTAT_READ_TICKS,
	IOSTAT_WRITE_IOS, IOSTAT_WRITE_MERGES, IOSTAT_WRITE_SECTORS, IOSTAT_WRITE_TICKS,
	IOSTAT_IN_FLIGHT, IOSTAT_IO_TICKS, IOSTAT_TIME_IN_QUEUE,
	IOSTAT_NR_FIELDS,
};

struct iostat_rates {
	double r_s, w_s;
	double rmb_s, wmb_s;
	double aqu_sz;
	double r_await, w_await;
	double util_pct;	/* capped at 100 */
};

struct iostat_dev {
	char name[64];
	bool util_meaningful;
	bool valid;		/* rates hold a delta: the device was seen in two samples */
	struct iostat_rates rates;
	uint64_t last[IOSTAT_NR_FIELDS];	/* counters at the latest sample */
	uint64_t last_ns;
};

struct iostat;

/* A sampler over sysfs_root (NULL: "/sys"); free it with iostat_free(). NULL on ENOMEM. */
struct iostat *iostat_new(const char *sysfs_root);
void iostat_free(struct iostat *s);

/*
 * Reads every whole disk's counters at time now_ns (any monotonic clock)
 * and computes rates against the previous sample. Devices that vanished
 * are dropped, new ones are valid from their second sample. 0 or -errno
 * (err filled) when SYSFS/block cannot be read.
 */
int iostat_sample(struct iostat *s, uint64_t now_ns, char *err, size_t errlen);

size_t iostat_count(const struct iostat *s);
const struct iostat_dev *iostat_get(const struct iostat *s, size_t i);
const struct iostat_dev *iostat_find(const struct iostat *s, const char *name);

/* Marks a device whose %util misleads (a RAID logical drive known from the inventory). */
int iostat_set_parallel(struct iostat *s, const char *name);

/* The arithmetic alone, for two counter sets secs apart. */
void iostat_compute(const uint64_t *a, const uint64_t *b, double secs, struct iostat_rates *r);

#endif
