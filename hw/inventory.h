/*
 * inventory.h - the storage inventory of DESIGN.md "The inventory model":
 * controllers, arrays, logical and physical drives, md arrays and block
 * devices, with vendor status normalized and the vendor's words kept.
 *
 * Filled by discovery (hw/discover*.c, from sysfs/libudev) and by the vendor
 * tool parsers (hw/ssacli.c, hw/storcli.c, hw/megacli.c, hw/mdadm.c); read
 * by `raidbench devices`, the TUI and the array builder. A field a source
 * does not provide stays "unset" and is written as JSON null, never invented:
 * strings NULL, sizes and counts INV_UNSET (-1), progress < 0, numa_node
 * INV_NO_NUMA.
 *
 * Threading: an inventory is built and read by one thread at a time.
 */
#ifndef RB_INVENTORY_H
#define RB_INVENTORY_H

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_object;
struct pd_index;

#define INV_UNSET (-1)
#define INV_NO_NUMA INT_MIN

enum inv_status {
	INV_OK = 0,
	INV_DEGRADED,
	INV_REBUILDING,
	INV_INITIALIZING,
	INV_TRANSFORMING,
	INV_FAILED,
	INV_OFFLINE,
	INV_PREDICTIVE_FAILURE,
	INV_ERASING,
	INV_UNKNOWN,
};

/* "ok", "degraded", ... as DESIGN.md spells them. */
const char *inv_status_name(enum inv_status s);

struct inv_pd {
	char *id;		/* vendor address: "1I:1:5", "252:3" */
	enum inv_status status;
	char *status_text;	/* the vendor's words */
	char *role;		/* "data" | "spare" | "unassigned" | "passthrough" */
	int64_t size_bytes;
	char *interface;	/* "SAS", "SATA", "NVMe" */
	char *media;		/* "hdd" | "ssd" */
	char *model;
	char *serial;
	char *wwn;
};

struct inv_ld {
	char *id;
	char *raid_level;	/* normalized: "0" "1" "10" "5" "6" "50" "60" "1adm" "10adm" "linear" "jbod" */
	int64_t size_bytes;
	int64_t strip_size_bytes;
	enum inv_status status;
	char *status_text;
	double progress_pct;	/* < 0 when no operation is running */
	char *os_device;	/* "/dev/sdb", joined by WWN/serial; NULL when unknown */
	char *uid;		/* the tool's own identity of it (ssacli Unique Identifier,
				 * storcli SCSI NAA Id); NULL when the tool gives none */
};

struct inv_array {
	char *id;
	enum inv_status status;
	char *status_text;
	struct inv_ld *lds;
	size_t nr_lds;
	struct inv_pd *pds;
	size_t nr_pds;
};

struct inv_pcie {
	bool known;
	double speed_gts;
	int width;
	double max_speed_gts;
	int max_width;
};

struct inv_controller {
	char *id;
	char *source;		/* "sysfs" | "ssacli" | "storcli" | "megacli" | "mdadm" */
	char *model;
	char *slot;
	char *serial;
	char *firmware;
	char *driver;
	char *pci;		/* "0000:05:00.0" */
	int numa_node;		/* INV_NO_NUMA when unknown */
	char *mode;		/* "raid" | "hba" | "mixed" | "jbod" */
	enum inv_status status;
	char *status_text;
	struct inv_pcie pcie;
	struct inv_array *arrays;
	size_t nr_arrays;
	struct inv_pd *unassigned;
	size_t nr_unassigned;
	struct inv_pd *passthrough;
	size_t nr_passthrough;
	struct pd_index *pd_index;	/* drives by address (hw/pd_index.h); NULL until used */
};

struct inv_md_member {
	char *device;		/* "sdb1" */
	char *role;		/* "active" | "rebuilding" | "spare" | "faulty" | "journal" */
	int slot;		/* INV_UNSET for spares */
};

struct inv_md {
	char *name;		/* "md0" */
	char *raid_level;
	int64_t size_bytes;
	enum inv_status status;
	char *status_text;
	double progress_pct;
	struct inv_md_member *members;
	size_t nr_members;
};

struct inv_blockdev {
	char *name;		/* "sda" */
	char *path;		/* "/dev/sda" */
	int64_t size_bytes;
	char *model;
	char *serial;
	char *wwn;
	char **stable_names;	/* "/dev/disk/by-id/...", then "/dev/disk/by-path/..." (hw/stable_names.h) */
	size_t nr_stable_names;
	char *stable_names_source;	/* "udev" (its database) | "sysfs" (derived); NULL: none */
	int rotational;		/* 0/1, INV_UNSET */
	int64_t logical_block_size;
	int64_t physical_block_size;
	char *scheduler;
	int64_t queue_depth;
	char *controller;	/* id of the controller it hangs off, NULL when none */
	int numa_node;
	char **partitions;
	size_t nr_partitions;
	char **mounts;		/* mount points of it and its partitions */
	size_t nr_mounts;
	char **holders;
	size_t nr_holders;
	bool swap;
	char *signature;	/* libblkid: "ext4", "gpt", "linux_raid_member"; NULL = none */
	bool write_safe;
	char *why_not_write_safe;	/* guard_examine's reasons; NULL when safe */
};

struct inventory {
	struct inv_controller *controllers;
	size_t nr_controllers;
	struct inv_md *md;
	size_t nr_md;
	struct inv_blockdev *blockdevs;
	size_t nr_blockdevs;
	char **notes;		/* "SMART data needs root", import warnings */
	size_t nr_notes;
};

/*
 * The most entries of one kind an inventory takes. Real listings hold tens;
 * the find-or-add of the tool parsers scans a list for every line, so these
 * bound the work a crafted or runaway output can make (and its memory).
 * INV_MAX_PDS holds for one list and for all of one controller's drives.
 */
#define INV_MAX_CONTROLLERS 256
#define INV_MAX_ARRAYS 256		/* per controller */
#define INV_MAX_LDS 256			/* per array */
#define INV_MAX_PDS 2048
#define INV_MAX_MD 1024
#define INV_MAX_MD_MEMBERS 4096		/* per md array (md itself stops at 1920) */

/*
 * Append helpers: each returns a zeroed element with every "unset" field set
 * (INV_UNSET, INV_NO_NUMA, progress -1, status INV_UNKNOWN), owned by the
 * parent; NULL on ENOMEM, or with errno E2BIG past the INV_MAX_* above.
 */
struct inv_controller *inv_add_controller(struct inventory *inv);
struct inv_array *inv_add_array(struct inv_controller *c);
struct inv_ld *inv_add_ld(struct inv_array *a);
struct inv_pd *inv_add_pd(struct inv_pd **arr, size_t *nr);
struct inv_md *inv_add_md(struct inventory *inv);
struct inv_md_member *inv_add_md_member(struct inv_md *md);
struct inv_blockdev *inv_add_blockdev(struct inventory *inv);
int inv_add_str(char ***arr, size_t *nr, const char *s);
/* Appends a formatted string (inv_add_note's core, for other string lists). */
int inv_add_vstrf(char ***arr, size_t *nr, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
int inv_add_note(struct inventory *inv, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Frees one drive's strings and zeroes it. */
void inv_pd_release(struct inv_pd *pd);

/* Frees everything inside (not the struct itself). */
void inventory_release(struct inventory *inv);

/* Moves src's contents to the end of dst (for several --import sources); src is emptied. */
int inventory_merge(struct inventory *dst, struct inventory *src);

/* The DESIGN.md JSON schema; caller puts the object (json_object_put). NULL on ENOMEM. */
struct json_object *inventory_to_json(const struct inventory *inv);

/* Normalizers shared by the parsers: "RAID 1+0" / "RAID10" / "1+0" -> "10", ... NULL if unknown. */
const char *inv_normalize_raid_level(const char *vendor);

/*
 * The OS block device a controller shows as a logical drive (its os_device,
 * "/dev/sdb" or "sdb") or as a drive (HBA mode, pass-through: by WWN, else
 * serial); NULL when the OS has none. idx (may be NULL) gets its index.
 * Views list such a device once, under what the controller calls it.
 */
const struct inv_blockdev *inv_bdev_by_name(const struct inventory *inv, const char *dev,
					    size_t *idx);
const struct inv_blockdev *inv_bdev_of_pd(const struct inventory *inv, const struct inv_pd *pd,
					  size_t *idx);

/*
 * "3.64 TB", "558.9 GB", "931.0 GiB", "1.818 TB" -> bytes. Vendors print
 * binary sizes with decimal labels in some places (ssacli's "3.64 TB" logical
 * drive of 2x2 TB is 4e12 bytes = 3.64 TiB); base is 1000 or 1024 for the
 * "KB/MB/GB/TB" labels, and "KiB/MiB/..." are always 1024. INV_UNSET if unparseable.
 */
int64_t inv_parse_vendor_size(const char *s, unsigned base);

/* Frees what one controller, or one list of drives, holds (for code that splices inventories). */
void inv_controller_release(struct inv_controller *c);
void inv_pds_free(struct inv_pd *pds, size_t nr);

#endif
