/*
 * guard.h - the write guard: decides whether a block device may be written,
 * and says why not. The one place every writer asks (DESIGN.md "Safety
 * model"); devices --json and the TUI's target picker ask the same function.
 *
 * Nothing here writes to any device. Probing opens devices read-only.
 */
#ifndef RB_GUARD_H
#define RB_GUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Devices the user consented to destroy (--allow-destroy=), by path;
 * matched by device number, or for a regular file by st_dev and st_ino,
 * so any path to the same thing consents it. Consent lifts only
 * GUARD_NEEDS_CONSENT: a signature, a holder, a loop device over it, and
 * for a file the loop devices it backs (each a reason). It never lifts
 * GUARD_NEVER: mounted, swap or the root file system anywhere in the
 * stack, whichever path reaches it, nor a held device reached by a path
 * its holder's kernel claim does not guard (its backing file, a second
 * loop device over the same file, a loop device over it).
 */
struct guard_consent {
	char **paths;
	size_t nr;
	bool readonly;		/* --readonly: refuse every write */
};

enum guard_verdict {
	GUARD_OK = 0,		/* writable (not a block device, or blank, or consented) */
	GUARD_NEEDS_CONSENT,	/* carries data: writable with --allow-destroy */
	GUARD_NEVER,		/* mounted, swap, root, or --readonly: never writable */
};

struct guard_report {
	enum guard_verdict verdict;
	/* One reason per line, e.g. "partition sdb1 has an ext4 file system labelled 'data'". */
	char reasons[2048];
};

/*
 * Examines path (a block device, a partition, or a regular file) and fills
 * rep. A regular file is OK unless it backs a loop device: then it is as
 * much in use as that device ("it backs /dev/loop5"). Returns 0 or -errno
 * when the device cannot be examined (the caller must then treat it as
 * unsafe).
 */
int guard_examine(const char *path, struct guard_report *rep);

/*
 * The write gate: 0 when path may be opened for writing under consent,
 * otherwise -EPERM with err holding the one-line refusal naming the device,
 * each reason and how to consent.
 */
int guard_check_write(const char *path, const struct guard_consent *consent, char *err,
		      size_t errlen);

/*
 * Opens path for writing with O_EXCL for block devices, after
 * guard_check_write(). flags are the caller's open flags (O_DIRECT, ...).
 * A regular file created by the open, or not the one checked, is checked
 * again as opened, and O_TRUNC applies only after that. Nothing claims a
 * file: a loop device set up over it after the open goes unseen.
 * Returns an fd or -errno with err filled ("/dev/sdb is in use by another
 * program or the kernel (mounted or claimed since the check)").
 */
int guard_open_write(const char *path, int flags, const struct guard_consent *consent,
		     char *err, size_t errlen);

/*
 * The write gate for a target reached over the network (an NBD export, an
 * iSCSI LUN), which holds a user's data as a disk does but has no device
 * node to examine: only its bytes. head and tail are its first and last
 * edge bytes (the whole target when size <= edge, tail then unused); every
 * signature libblkid finds there (a file system, a partition table, RAID or
 * LVM metadata) is a reason, lifted only by --allow-destroy=NAME with the
 * name exactly as the job gives it. A blank target is writable, as a blank
 * disk is. 0, or -EPERM with err holding the one-line refusal.
 */
int guard_check_remote(const char *name, uint64_t size, const void *head, const void *tail,
		       size_t edge, const struct guard_consent *consent, char *err,
		       size_t errlen);

/*
 * Closes an fd from guard_open_write(). The kernel gives a device's
 * exclusive claim to one open file, so the guard holds the claim itself and
 * lets every writer of the device share it (numjobs=4 on /dev/sdb); it ends
 * with the last guard_close() of that device. A plain close() is safe but
 * keeps the device claimed until the process exits. Thread-safe, as is
 * guard_open_write(). Returns 0 or -errno from close().
 */
int guard_close(int fd);

#endif
