/*
 * guard_int.h - what the write guard's own files share: guard_sys.c (the
 * read-only view of block devices and their users), guard_use.c (who uses
 * a device, and by which path), guard.c (the policy) and guard_open.c (the
 * exclusive open). Not for any other file; the guard's API is guard.h.
 *
 * Threading: nothing declared here is shared between threads. A sysview
 * and a target belong to the one check that filled them; the only shared
 * state, the claims of guard_open.c, stays private to that file.
 */
#ifndef RB_GUARD_INT_H
#define RB_GUARD_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "guard.h"

/* ---- guard_sys.c: the system as the kernel shows it ---------------------- */

/* A block device as sysfs knows it. */
struct blockdev {
	char name[64];		/* kernel name: "sdb1", "cciss!c0d0" (at most 31) */
	char sys[PATH_MAX];	/* /sys/devices/.../block/sdb/sdb1 */
	dev_t dev;
	bool is_part;
};

struct mount_ent {
	dev_t dev;		/* major:minor field; anonymous for btrfs */
	dev_t src;		/* the source's device node, when it has one */
	char *dir;
};

/*
 * A bound loop device and what backs it. The backing file is known by
 * st_dev and st_ino, as the loop driver reports them, so a renamed or
 * deleted file, a hard link or a bind mount of it still matches.
 */
struct loop_ent {
	char name[NAME_MAX + 1];
	dev_t dev;		/* the loop device itself */
	bool known;		/* file_dev/file_ino identify the backing file */
	dev_t file_dev;		/* st_dev and st_ino of the backing file or node */
	ino_t file_ino;
	dev_t backing;		/* the block device behind it, or 0 for a file */
	char *path;		/* the backing file as sysfs names it, for messages */
};

/* Who uses which device, read afresh for every check. */
struct sysview {
	struct mount_ent *mounts;
	size_t nr_mounts;
	dev_t *swaps;
	size_t nr_swaps;
	dev_t root[2];
	size_t nr_root;
	struct loop_ent *loops;
	size_t nr_loops;
};

/* Bounded appender: output is cut, never overrun. */
struct guard_out {
	char *buf;
	size_t len, pos;
};

void guard_out_add(struct guard_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Names read from the kernel or a disk label go into one-line messages. */
void guard_sanitize(char *s);

int blockdev_from_dev(dev_t dev, struct blockdev *bd);
int blockdev_from_name(const char *name, struct blockdev *bd);
/* The partition's disk is the sysfs directory above it. */
int blockdev_parent(const struct blockdev *part, struct blockdev *disk);
/*
 * "/dev/NAME" when that node is this device ("!" in a kernel name is a
 * "/" under /dev, as in cciss!c0d0); -ENOENT when /dev has no such node.
 */
int blockdev_node(const struct blockdev *bd, char *node, size_t len);
/*
 * Fills parts with the partitions of disk (subdirectories that have a
 * "partition" file). Returns the count or -errno; *parts is freed by the
 * caller.
 */
int blockdev_partitions(const struct blockdev *disk, struct blockdev **parts);

/*
 * Reads mounts, swaps, the root device and loop devices into v. Returns 0,
 * or -errno with *what naming the source that failed (v is then empty).
 * sysview_release() frees what a successful load holds.
 */
int sysview_load(struct sysview *v, const char **what);
void sysview_release(struct sysview *v);

/* "/a", "/a and /b", "/a, /b and 2 more places"; false when not mounted. */
bool sysview_mounted_at(const struct sysview *v, dev_t dev, char *buf, size_t len);
bool sysview_is_swap(const struct sysview *v, dev_t dev);
bool sysview_is_root(const struct sysview *v, dev_t dev);
/* The loop device numbered dev, or NULL when dev is no bound loop device. */
const struct loop_ent *sysview_loop(const struct sysview *v, dev_t dev);

/*
 * Calls fn for every device stacked directly on bd: its sysfs holders (md,
 * dm, bcache) and the loop devices whose backing file is bd's node (loop
 * does not register as a holder, nor claim what it uses). Stops at the
 * first nonzero return.
 */
typedef int (*holder_fn)(const char *name, bool is_loop, void *arg);

int sysview_for_each_holder(const struct sysview *v, const struct blockdev *bd, holder_fn fn,
			    void *arg);

/* "md0 (an md array)", "dm-0 (LVM volume 'vg-lv')". */
void guard_describe_holder(const char *name, char *buf, size_t len);

/* ---- guard.c and guard_use.c: reasons --------------------------------- */

#define MAX_REASONS 32

/* Kinds of reason, as bits so the refusal can say which rules applied. */
enum {
	R_MOUNT = 1u << 0,
	R_SWAP = 1u << 1,
	R_ROOT = 1u << 2,
	R_UNKNOWN = 1u << 3,	/* could not examine: refuse rather than guess */
	R_HOLDER = 1u << 4,
	R_SIGNATURE = 1u << 5,
	R_CHARDEV = 1u << 6,
	R_SHARED = 1u << 7,	/* held, and reached by a path its holder's claim does not guard */
	R_LOOP = 1u << 8,	/* backs, or shares a backing file with, a loop device */
};

struct reason {
	enum guard_verdict level;
	unsigned kind;
	bool about_target;	/* the refusal line calls the target "it" */
	char subject[128];	/* "/dev/sdb", "partition sdb1", "" */
	char text[512];		/* "is mounted at /mnt/x" */
};

struct reasons {
	struct reason r[MAX_REASONS];
	size_t nr;
	int err;		/* first -errno that left something unexamined */
};

void reason_add(struct reasons *rs, enum guard_verdict level, unsigned kind, bool about_target,
		const char *subject, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Something could not be examined: remember why for guard_examine()'s return. */
void reasons_failed(struct reasons *rs, int err);

/*
 * guard.c: every signature libblkid finds on node, one reason each.
 * Returns 0 or -errno when the probe failed.
 */
int guard_probe_signatures(const char *node, bool about_target, bool skip_pttype,
			   const char *subject, struct reasons *rs);

/* ---- guard_use.c: who uses it, by which path ---------------------------- */

/* Mounts, swap, root and holders of bd (one device), as reasons about subject. */
void guard_check_use(const struct sysview *v, const struct blockdev *bd, bool about_target,
		     const char *subject, struct reasons *rs);
/*
 * When bd is a loop device: what it is stored on (its backing device,
 * recursively) and the other loop devices over the same file or device.
 * tsubj names the target in the reasons.
 */
void guard_check_lower(const struct sysview *v, const struct blockdev *bd, const char *tsubj,
		       struct reasons *rs);
/* The loop devices a regular file (st) backs, and who uses them. */
void guard_check_file(const struct sysview *v, const struct stat *st, const char *subject,
		      struct reasons *rs);

/* ---- guard.c: the policy ----------------------------------------------- */

enum target_type { T_NONE, T_FILE, T_CHAR, T_BLOCK };

/* What the check learned about a path, for the refusal and for the open. */
struct target {
	enum target_type type;
	dev_t rdev;
	dev_t fdev;		/* T_FILE: st_dev and st_ino, to know it again at the open */
	ino_t ino;
	char canon[PATH_MAX];	/* "/dev/sdb" for devices, else empty */
};

/*
 * The one-line refusal of path under rs's strongest verdict: "refusing to
 * write P: it ...; to destroy its contents, add --allow-destroy=P".
 */
void guard_render_refusal(const char *path, const struct target *t, const struct reasons *rs,
			  char *err, size_t errlen);

/* guard_check_write(), also telling the caller what the path turned out to be. */
int guard_check_target(const char *path, const struct guard_consent *consent,
		       struct target *t, char *err, size_t errlen);

#endif
