/*
 * raid_estimate.c - the textbook RAID arithmetic of raid_estimate.h:
 * capacity, fault tolerance in words, read and write multipliers relative
 * to one drive. Pure functions; never prints, never touches a device.
 */
#include "raid_estimate.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum kind { STRIPE, MIRROR, PARITY, CONCAT };

struct level_def {
	const char *level;
	enum kind kind;
	unsigned per_group_min;	/* drives one group needs */
	unsigned parity;	/* parity drives per group (PARITY) */
	unsigned ways;		/* copies per mirror set (MIRROR; 0 = decided by the count) */
	unsigned penalty;	/* back-end I/Os per small random write */
	unsigned min;		/* the smallest array */
	bool grouped;		/* 50/60: `groups` parity groups */
};

static const struct level_def levels[] = {
	{ "0", STRIPE, 1, 0, 0, 1, 1, false },
	{ "1", MIRROR, 2, 0, 0, 2, 2, false },
	{ "10", MIRROR, 2, 0, 2, 2, 4, false },
	{ "1adm", MIRROR, 3, 0, 3, 3, 3, false },
	{ "10adm", MIRROR, 3, 0, 3, 3, 6, false },
	{ "4", PARITY, 3, 1, 0, 4, 3, false },
	{ "5", PARITY, 3, 1, 0, 4, 3, false },
	{ "6", PARITY, 3, 2, 0, 6, 3, false },
	{ "50", PARITY, 3, 1, 0, 4, 6, true },
	{ "60", PARITY, 3, 2, 0, 6, 6, true },
	{ "jbod", CONCAT, 1, 0, 0, 1, 1, false },
	{ "linear", CONCAT, 1, 0, 0, 1, 1, false },
};

static const struct level_def *find(const char *level)
{
	for (size_t i = 0; level && i < sizeof(levels) / sizeof(levels[0]); i++)
		if (!strcmp(levels[i].level, level))
			return &levels[i];
	return NULL;
}

unsigned raid_estimate_min_drives(const char *level)
{
	const struct level_def *d = find(level);

	return d ? d->min : 0;
}

static const char *count_word(unsigned n, char *buf, size_t len)
{
	static const char *const words[] = { "no", "one", "two", "three", "four", "five",
					     "six", "seven", "eight", "nine", "ten" };

	if (n < sizeof(words) / sizeof(words[0]))
		return words[n];
	snprintf(buf, len, "%u", n);
	return buf;
}

static void tolerance_words(struct raid_estimate *e, enum kind kind)
{
	char a[16], b[16];
	const char *where = kind == MIRROR ? "mirror set" : "parity group";

	if (e->failures_always == 0) {
		snprintf(e->tolerance, sizeof(e->tolerance),
			 "no fault tolerance: one drive failure loses the array");
		return;
	}
	if (e->failures_best > e->failures_always)
		snprintf(e->tolerance, sizeof(e->tolerance),
			 "survives %s drive failure%s (up to %s when each %s loses no more)",
			 count_word(e->failures_always, a, sizeof(a)),
			 e->failures_always == 1 ? "" : "s", count_word(e->failures_best, b, sizeof(b)),
			 where);
	else
		snprintf(e->tolerance, sizeof(e->tolerance), "survives %s drive failure%s",
			 count_word(e->failures_always, a, sizeof(a)),
			 e->failures_always == 1 ? "" : "s");
}

static int refuse(struct raid_estimate *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int refuse(struct raid_estimate *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->tolerance, sizeof(e->tolerance), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/*
 * Level "1": a hardware controller's RAID 1 over more than two drives is
 * mirrored pairs (1+0); an odd count can only be one N-way mirror (mdadm).
 * groups = 1 asks for the N-way mirror explicitly.
 */
static unsigned mirror_ways(const struct level_def *d, unsigned n, unsigned groups)
{
	if (d->ways)
		return d->ways;
	if (groups == 1 || n % 2)
		return n;
	return 2;
}

int raid_estimate(const char *level, unsigned n, unsigned groups, int64_t drive_bytes,
		  struct raid_estimate *e)
{
	const struct level_def *d = find(level);
	unsigned ways, per_group;

	memset(e, 0, sizeof(*e));
	e->capacity_bytes = -1;
	e->drives = n;
	e->groups = 1;
	if (!d)
		return refuse(e, "RAID %s: unknown level", level ? level : "(none)");
	if (n < d->min)
		return refuse(e, "RAID %s needs at least %u drives", d->level, d->min);
	e->write_penalty = d->penalty;
	switch (d->kind) {
	case STRIPE:
	case CONCAT:
		e->data_drives = n;
		break;
	case MIRROR:
		ways = mirror_ways(d, n, groups);
		if (n % ways)
			return refuse(e, "RAID %s needs a multiple of %u drives", d->level, ways);
		e->groups = n / ways;
		e->data_drives = e->groups;
		e->failures_always = ways - 1;
		e->failures_best = (ways - 1) * e->groups;
		/* every copy is written: a plain RAID 1 pays 2, an N-way mirror N */
		e->write_penalty = ways;
		break;
	case PARITY:
		e->groups = d->grouped ? (groups ? groups : 2) : 1;
		if (n % e->groups)
			return refuse(e, "RAID %s needs a multiple of %u drives", d->level,
				      e->groups);
		per_group = n / e->groups;
		if (per_group < d->per_group_min)
			return refuse(e, "RAID %s needs at least %u drives per parity group",
				      d->level, d->per_group_min);
		e->data_drives = n - d->parity * e->groups;
		e->failures_always = d->parity;
		e->failures_best = d->parity * e->groups;
		break;
	}
	if (drive_bytes > 0)
		e->capacity_bytes = drive_bytes * (int64_t)e->data_drives;
	if (d->kind == CONCAT) {
		/* one stream lives on one drive at a time */
		e->rand_read_x = e->rand_write_x = e->seq_read_x = e->seq_write_x = 1.0;
	} else {
		e->rand_read_x = n;
		e->rand_write_x = (double)n / e->write_penalty;
		e->seq_read_x = n;
		e->seq_write_x = e->data_drives;
	}
	tolerance_words(e, d->kind);
	return 0;
}

double raid_estimate_factor(const struct raid_estimate *e, unsigned read_pct, bool sequential)
{
	double r = (read_pct > 100 ? 100 : read_pct) / 100.0, w = 1.0 - r;
	double rx = sequential ? e->seq_read_x : e->rand_read_x;
	double wx = sequential ? e->seq_write_x : e->rand_write_x;

	if (rx <= 0 || wx <= 0)
		return 0;
	return 1.0 / (r / rx + w / wx);
}
