/*
 * systab.h - the one read-only view of who uses block devices that the
 * kernel publishes: the mount table (/proc/self/mountinfo), the swap areas
 * (/proc/swaps) and sysfs holders. The write guard (core/guard_sys.c),
 * discovery (hw/discover_*.c) and device identity all read them here.
 *
 * It parses and reports; what counts as "in use" is the callers' policy. It
 * never writes, never stat()s a path (a mount source may sit on a hung
 * network file system) and never prints.
 *
 * Threading: no shared state; a systab belongs to the caller that filled it.
 */
#ifndef RB_SYSTAB_H
#define RB_SYSTAB_H

#include <stddef.h>
#include <sys/types.h>

struct systab_mount {
	dev_t dev;		/* the major:minor field (anonymous for btrfs); 0 if unreadable */
	char *dir;		/* the mount point, unescaped */
	char *fstype;		/* "ext4"; NULL when the line has none */
	char *source;		/* "/dev/sdb1", "tmpfs", unescaped; NULL when the line has none */
};

struct systab {
	struct systab_mount *mounts;
	size_t nr_mounts;
	char **swaps;		/* the swap areas as /proc/swaps names them, unescaped */
	size_t nr_swaps;
};

/*
 * Appends proc_root's ("/proc" when NULL) self/mountinfo to t->mounts.
 * 0, or -errno: the open's, -EIO for a read error, -ENOMEM.
 */
int systab_read_mounts(struct systab *t, const char *proc_root);

/* Appends proc_root's swaps to t->swaps; no swaps file (no swap in the kernel) is 0. */
int systab_read_swaps(struct systab *t, const char *proc_root);

/* Frees what the reads filled; t is empty afterwards. */
void systab_release(struct systab *t);

/*
 * The mount of device dev whose mount point holds path (the longest such
 * mount point; "/" holds every path); path NULL: any, the longest mount
 * point wins. NULL when none.
 */
const struct systab_mount *systab_mount_of(const struct systab *t, dev_t dev, const char *path);

/*
 * The devices stacked on the block device whose sysfs directory is sysdir
 * (md, dm, bcache: the names in sysdir/holders), in version order. No holders
 * directory is 0 with none. *names is the caller's: systab_names_free().
 */
int systab_holders(const char *sysdir, char ***names, size_t *nr);
void systab_names_free(char **names, size_t nr);

/* Undoes the kernel's \ooo escapes (blank, tab, newline, backslash) in place. */
void systab_unescape(char *s);

#endif
