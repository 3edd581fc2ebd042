/*
 * discover_block.c - block devices from SYSFS/block: the DESIGN schema's
 * fields (size, model, serial, WWN, rotational, block sizes, scheduler,
 * queue depth, partitions, holders, mounts, swap, libblkid signature), the
 * controller each hangs off, and the write guard's verdict.
 *
 * The verdict comes from core/guard.h's guard_examine(), the same function
 * that gates every write, so `devices` can never call safe what `run` would
 * refuse. Logical volumes of RAID drivers that expose them in sysfs (hpsa,
 * smartpqi and aacraid's raid_level; megaraid_sas's logical channels) are
 * also listed under their controller.
 *
 * Read-only: device nodes are opened O_RDONLY by libblkid and the guard,
 * and only when the node under dev_root is the device sysfs describes.
 */
#include "discover_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <blkid/blkid.h>

#include "guard.h"
#include "grow.h"
#include "stable_names.h"

/* megaraid_sas puts system PDs on channels 0-1 and logical drives above (MEGASAS_MAX_PD_CHANNELS). */
#define MEGASAS_MAX_PD_CHANNELS 2

/* What one device's probing found that the schema has no field for. */
struct devinfo {
	char dir[PATH_MAX];	/* resolved sysfs directory */
	char path[PATH_MAX];	/* node under dev_root */
	dev_t dev;
	bool node_ok;		/* path is a block node with dev's number */
	int host, channel, target, lun;	/* SCSI address; host < 0 when not SCSI */
};

/* "[mq-deadline] kyber none" -> "mq-deadline"; "none" -> "none". */
static char *scheduler(const char *dir)
{
	char buf[256], path[PATH_MAX], *open_b, *close_b;

	if (sysfs_read(pathf(path, "%s/queue/scheduler", dir), buf, sizeof(buf)))
		return NULL;
	open_b = strchr(buf, '[');
	close_b = open_b ? strchr(open_b, ']') : NULL;
	if (open_b && close_b) {
		*close_b = '\0';
		return strdup(open_b + 1);
	}
	return strchr(buf, ' ') ? NULL : strdup(buf);
}

/* SCSI VPD page 0x80: 4-byte header (byte 3 = length), then the serial, blank padded. */
static char *vpd_serial(struct dctx *d, const char *path)
{
	unsigned char buf[260];
	size_t len, start;
	ssize_t n;
	int fd;

	fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	if (fd < 0) {
		if (errno == EACCES || errno == EPERM)
			d->denied |= DENIED_SYSFS;
		return NULL;
	}
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 4 || buf[1] != 0x80)
		return NULL;
	len = (size_t)buf[2] << 8 | buf[3];
	if (len > (size_t)n - 4)
		len = (size_t)n - 4;
	start = 4;
	while (len && (buf[start] == ' ' || buf[start] == '\0')) {
		start++;
		len--;
	}
	while (len && (buf[start + len - 1] == ' ' || buf[start + len - 1] == '\0'))
		len--;
	if (!len)
		return NULL;
	for (size_t i = 0; i < len; i++)
		if (buf[start + i] < 0x20 || buf[start + i] > 0x7e)
			return NULL;
	return strndup((const char *)buf + start, len);
}

/* DIR/device/NAME, or NULL when the disk has no device/ (loop, md, dm, zram). */
static const char *devattr(char *buf, const char *dv, const char *name)
{
	return dv ? pathf(buf, "%s/%s", dv, name) : NULL;
}


/*
 * A T10 designator pads its fields with spaces ("t10.ATA     QEMU HARDDISK
 * ...   SERIAL"): one space between words is the name a user can read and type.
 */
static void squeeze_spaces(char *s)
{
	char *w = s;

	for (const char *r = s; *r; r++)
		if (*r != ' ' || (w > s && w[-1] != ' '))
			*w++ = *r;
	while (w > s && w[-1] == ' ')
		w--;
	*w = '\0';
}

static void read_identity(struct dctx *d, struct inv_blockdev *b, struct devinfo *di)
{
	char path[PATH_MAX], dev[PATH_MAX];
	const char *dv = pathf(dev, "%s/device", di->dir);

	if (dv && access(dv, F_OK))
		dv = NULL;
	/* SCSI disks, NVMe controllers and subsystems all keep model under device/ */
	b->model = sysfs_strdup(d, devattr(path, dv, "model"));
	/* NVMe: device/serial; virtio-blk: serial on the disk itself */
	b->serial = sysfs_strdup(d, devattr(path, dv, "serial"));
	if (!b->serial)
		b->serial = sysfs_strdup(d, pathf(path, "%s/serial", di->dir));
	if (!b->serial && dv)
		b->serial = vpd_serial(d, devattr(path, dv, "vpd_pg80"));
	/* The kernel's designator: "naa.600508b1...", "eui.0025...", "t10.ATA ..." */
	b->wwn = sysfs_strdup(d, pathf(path, "%s/wwid", di->dir));
	if (!b->wwn)
		b->wwn = sysfs_strdup(d, devattr(path, dv, "wwid"));
	if (b->wwn)
		squeeze_spaces(b->wwn);
}

static void read_queue(struct inv_blockdev *b, const char *dir)
{
	char path[PATH_MAX];

	b->rotational = (int)sysfs_int(pathf(path, "%s/queue/rotational", dir), INV_UNSET);
	b->logical_block_size = sysfs_int(pathf(path, "%s/queue/logical_block_size", dir),
					  INV_UNSET);
	b->physical_block_size = sysfs_int(pathf(path, "%s/queue/physical_block_size", dir),
					   INV_UNSET);
	b->scheduler = scheduler(dir);
	/* The device's own depth (SCSI); otherwise the block layer's per-queue request limit. */
	b->queue_depth = INV_UNSET;
	if (!access(pathf(path, "%s/device", dir) ?: "", F_OK))
		b->queue_depth = sysfs_int(pathf(path, "%s/device/queue_depth", dir), INV_UNSET);
	if (b->queue_depth < 0)
		b->queue_depth = sysfs_int(pathf(path, "%s/queue/nr_requests", dir), INV_UNSET);
}

static bool read_devnum(const char *dir, dev_t *dev)
{
	char path[PATH_MAX], buf[32];
	unsigned maj, min;

	if (sysfs_read(pathf(path, "%s/dev", dir), buf, sizeof(buf)) ||
	    sscanf(buf, "%u:%u", &maj, &min) != 2)
		return false;
	*dev = makedev(maj, min);
	return true;
}

/* Adds mounts of the device (or partition) in dir named name. */
static int add_mounts(struct dctx *d, struct inv_blockdev *b, const char *dir, const char *name)
{
	dev_t dev;
	int ret = 0;

	if (!read_devnum(dir, &dev))
		return 0;
	for (size_t i = 0; i < d->tab.nr_mounts && !ret; i++) {
		const struct systab_mount *m = &d->tab.mounts[i];
		/* btrfs reports an anonymous device number; its source names the device */
		bool by_source = m->source && !strncmp(m->source, "/dev/", 5) &&
				 !strcmp(m->source + 5, name);

		if ((m->dev && m->dev == dev) || by_source)
			ret = inv_add_str(&b->mounts, &b->nr_mounts, m->dir);
	}
	return ret;
}

static bool is_swap(struct dctx *d, const char *dir, const char *name, bool node_ok)
{
	struct stat st;
	dev_t dev;

	if (!read_devnum(dir, &dev))
		return false;
	for (size_t i = 0; i < d->tab.nr_swaps; i++) {
		const char *s = d->tab.swaps[i];

		if (!strncmp(s, "/dev/", 5) && !strcmp(s + 5, name))
			return true;
		/* /dev/mapper/vg-swap is dm-1: compare numbers, but only on the live machine */
		if (node_ok && !stat(s, &st) && S_ISBLK(st.st_mode) && st.st_rdev == dev)
			return true;
	}
	return false;
}

static int add_holders(struct inv_blockdev *b, const char *dir)
{
	char **names;
	size_t nr;
	int ret = 0;

	if (systab_holders(dir, &names, &nr))
		return 0;
	for (size_t i = 0; i < nr && !ret; i++) {
		bool dup = false;

		for (size_t k = 0; k < b->nr_holders; k++)
			dup = dup || !strcmp(b->holders[k], names[i]);
		if (!dup)
			ret = inv_add_str(&b->holders, &b->nr_holders, names[i]);
	}
	systab_names_free(names, nr);
	return ret;
}

/* Every loop device whose backing file is a block device, read once per discovery. */
static int read_loops(struct dctx *d)
{
	char path[PATH_MAX], backing[PATH_MAX], **names;
	struct stat st;
	size_t nr;
	int ret = 0;

	d->loops_read = true;
	if (dir_names(pathf(path, "%s/block", d->sysfs), &names, &nr))
		return 0;
	for (size_t i = 0; i < nr && !ret; i++) {
		struct loop_backing *l;

		if (strncmp(names[i], "loop", 4) || strlen(names[i]) >= sizeof(l->name) ||
		    sysfs_read(pathf(path, "%s/block/%s/loop/backing_file", d->sysfs, names[i]),
			       backing, sizeof(backing)) ||
		    stat(backing, &st) || !S_ISBLK(st.st_mode))
			continue;
		if (grow_room(&d->loops, d->nr_loops, sizeof(*d->loops))) {
			ret = -ENOMEM;
			break;
		}
		l = d->loops;
		snprintf(l[d->nr_loops].name, sizeof(l->name), "%s", names[i]);
		l[d->nr_loops++].backing = st.st_rdev;
	}
	names_free(names, nr);
	return ret;
}

/*
 * A loop device over a block device holds it without a holders/ link;
 * list it too, since it will write what it is given.
 */
static int add_loop_holders(struct dctx *d, struct inv_blockdev *b, const char *dir)
{
	dev_t dev;
	int ret = 0;

	if (!d->loops_read)
		ret = read_loops(d);
	if (ret || !read_devnum(dir, &dev))
		return ret;
	for (size_t i = 0; i < d->nr_loops && !ret; i++)
		if (d->loops[i].backing == dev)
			ret = inv_add_str(&b->holders, &b->nr_holders, d->loops[i].name);
	return ret;
}

static int read_usage(struct dctx *d, struct inv_blockdev *b, struct devinfo *di)
{
	char path[PATH_MAX], **names;
	size_t nr;
	int ret;

	ret = add_mounts(d, b, di->dir, b->name);
	if (!ret)
		ret = add_holders(b, di->dir);
	if (!ret && di->node_ok)
		ret = add_loop_holders(d, b, di->dir);
	b->swap = is_swap(d, di->dir, b->name, di->node_ok);
	if (ret || dir_names(di->dir, &names, &nr))
		return ret;
	for (size_t i = 0; i < nr && !ret; i++) {
		char pdir[PATH_MAX];

		/* partitions are named after their disk: sda1, nvme0n1p1, loop0p1 */
		if (strncmp(names[i], b->name, strlen(b->name)) ||
		    !pathf(pdir, "%s/%s", di->dir, names[i]) ||
		    access(pathf(path, "%s/partition", pdir) ?: "", F_OK))
			continue;
		ret = inv_add_str(&b->partitions, &b->nr_partitions, names[i]);
		if (!ret)
			ret = add_mounts(d, b, pdir, names[i]);
		if (!ret)
			ret = add_holders(b, pdir);
		if (!ret && di->node_ok)
			ret = add_loop_holders(d, b, pdir);
		b->swap = b->swap || is_swap(d, pdir, names[i], di->node_ok);
	}
	names_free(names, nr);
	return ret;
}

/* libblkid's answer for the whole device: a file system, RAID or partition table type. */
static void probe_signature(struct dctx *d, struct inv_blockdev *b, const char *path)
{
	const char *type = NULL;
	blkid_probe pr;
	int rc;

	pr = blkid_new_probe_from_filename(path);
	if (!pr) {
		if (errno == EACCES || errno == EPERM)
			d->denied |= DENIED_PROBE;
		return;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
	blkid_probe_enable_partitions(pr, 1);
	rc = blkid_do_safeprobe(pr);
	if (rc == 0) {
		if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) &&
		    blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL))
			type = NULL;
		if (type)
			b->signature = strdup(type);
	} else if (rc == -2) {
		b->signature = strdup("ambivalent");	/* several signatures: safeprobe won't pick */
	}
	blkid_free_probe(pr);
}

static void judge(struct dctx *d, struct inv_blockdev *b, struct devinfo *di)
{
	struct guard_report rep;
	struct stat st;
	int rc;

	if (stat(di->path, &st) || !S_ISBLK(st.st_mode)) {
		b->why_not_write_safe = strdup("has no device node to examine");
		return;
	}
	if (st.st_rdev != di->dev) {
		b->why_not_write_safe = strdup("its device node is not the device sysfs describes");
		return;
	}
	di->node_ok = true;
	probe_signature(d, b, di->path);
	rc = guard_examine(di->path, &rep);
	if (rc == -EACCES || rc == -EPERM)
		d->denied |= DENIED_PROBE;
	b->write_safe = rc == 0 && rep.verdict == GUARD_OK;
	if (rep.reasons[0])
		b->why_not_write_safe = strdup(rep.reasons);
	else if (!b->write_safe)
		b->why_not_write_safe = strdup("cannot be examined");
}

/* "H:C:T:L" of device/ when it is a SCSI device. */
static void scsi_address(struct devinfo *di)
{
	char path[PATH_MAX], real[PATH_MAX];
	const char *base;

	di->host = -1;
	if (!pathf(path, "%s/device", di->dir) || !realpath(path, real))
		return;
	base = strrchr(real, '/');
	if (!base || sscanf(base + 1, "%d:%d:%d:%d", &di->host, &di->channel, &di->target,
			    &di->lun) != 4)
		di->host = -1;
}

/*
 * The PCI function behind a device. A multipath NVMe namespace lives under
 * /sys/devices/virtual/nvme-subsystem/; its controllers are the subsystem's
 * nvmeN links, which do lead to PCI.
 */
static bool device_pci(struct dctx *d, const struct devinfo *di, char *addr, size_t len)
{
	char path[PATH_MAX], real[PATH_MAX], **names;
	bool found = false;
	size_t nr;

	if (pci_ancestor(di->dir, addr, len))
		return true;
	if (!strstr(di->dir, "/nvme-subsystem/") ||
	    dir_names(pathf(path, "%s/device", di->dir), &names, &nr))
		return false;
	for (size_t i = 0; i < nr && !found; i++) {
		if (strncmp(names[i], "nvme", 4) || !pathf(path, "%s/device/%s", di->dir, names[i]) ||
		    !realpath(path, real))
			continue;
		found = pci_ancestor(real, addr, len);
	}
	names_free(names, nr);
	(void)d;
	return found;
}

/* Lists a RAID driver's logical volume or pass-through disk under its controller. */
static int add_raid_volume(struct dctx *d, size_t ci, const struct inv_blockdev *b,
			   const struct devinfo *di)
{
	struct inv_controller *c = &d->inv->controllers[ci];
	char path[PATH_MAX], id[64], level[64];
	bool megaraid = c->driver && !strcmp(c->driver, "megaraid_sas");
	bool logical;
	struct inv_ld *ld;

	if (di->host < 0)
		return 0;
	snprintf(id, sizeof(id), "%d:%d:%d:%d", di->host, di->channel, di->target, di->lun);
	level[0] = '\0';
	if (megaraid) {
		logical = di->channel >= MEGASAS_MAX_PD_CHANNELS;
	} else {
		/* hpsa/smartpqi/aacraid: "RAID 5" for a volume, "N/A" for a disk or the controller */
		if (sysfs_read(pathf(path, "%s/device/raid_level", di->dir), level, sizeof(level)) ||
		    strncmp(level, "RAID", 4))
			return 0;
		logical = true;
	}
	if (!logical) {
		struct inv_pd *pd = inv_add_pd(&c->passthrough, &c->nr_passthrough);

		if (!pd)
			return -ENOMEM;
		pd->id = strdup(id);
		pd->role = strdup("passthrough");
		pd->size_bytes = b->size_bytes;
		pd->media = b->rotational >= 0 ? strdup(b->rotational ? "hdd" : "ssd") : NULL;
		pd->model = b->model ? strdup(b->model) : NULL;
		pd->serial = b->serial ? strdup(b->serial) : NULL;
		pd->wwn = b->wwn ? strdup(b->wwn) : NULL;
		return pd->id && pd->role ? 0 : -ENOMEM;
	}
	/* sysfs does not say which array a volume belongs to: one unnamed array holds them */
	if (!c->nr_arrays && !inv_add_array(c))
		return -ENOMEM;
	ld = inv_add_ld(&c->arrays[0]);
	if (!ld)
		return -ENOMEM;
	ld->id = strdup(id);
	ld->size_bytes = b->size_bytes;
	/* hpsa's "1(1+0)" covers both RAID 1 and 1+0: left null rather than guessed */
	if (level[0] && !strstr(level, "1(1+0)") && inv_normalize_raid_level(level))
		ld->raid_level = strdup(inv_normalize_raid_level(level));
	ld->os_device = strdup(b->path);
	return ld->id && ld->os_device ? 0 : -ENOMEM;
}

static int link_controller(struct dctx *d, struct inv_blockdev *b, const struct devinfo *di)
{
	struct inv_controller *c;
	char addr[32];

	if (!device_pci(d, di, addr, sizeof(addr)))
		return 0;
	c = controller_for_pci(d, addr);
	if (!c)
		return 0;
	b->numa_node = c->numa_node;
	b->controller = strdup(c->id);
	if (!b->controller)
		return -ENOMEM;
	return add_raid_volume(d, (size_t)(c - d->inv->controllers), b, di);
}

/*
 * by-id and by-path names: udev's when its database has the device (only on
 * the live machine: a recorded tree's devices are not the ones udev knows),
 * otherwise derived from sysfs. For showing; nothing safe-or-not rests on them.
 */
static int read_stable_names(struct dctx *d, struct inv_blockdev *b, const struct devinfo *di)
{
	char addr[32];
	struct sn_dev sn = { di->dir, b->name, NULL, d->o->dev_root, 0 };
	int ret = 0;

	if (!strcmp(d->sysfs, "/sys") && !strcmp(d->o->dev_root, "/dev"))
		ret = stable_names_udev(di->dev, &b->stable_names, &b->nr_stable_names);
	if (ret > 0) {
		b->stable_names_source = strdup("udev");
		return b->stable_names_source ? 0 : -ENOMEM;
	}
	if (ret < 0)
		return ret;
	if (device_pci(d, di, addr, sizeof(addr)))
		sn.pci = addr;
	ret = stable_names_derive(&sn, &b->stable_names, &b->nr_stable_names);
	if (!ret && b->nr_stable_names) {
		b->stable_names_source = strdup("sysfs");
		ret = b->stable_names_source ? 0 : -ENOMEM;
	}
	return ret;
}

static int add_blockdev(struct dctx *d, const char *name)
{
	char path[PATH_MAX];
	struct devinfo di;
	struct inv_blockdev *b;
	int64_t sectors;
	bool virt;
	int ret;

	memset(&di, 0, sizeof(di));
	if (!pathf(path, "%s/block/%s", d->sysfs, name) || !realpath(path, di.dir) ||
	    !read_devnum(di.dir, &di.dev) || !pathf(di.path, "%s/%s", d->o->dev_root, name))
		return 0;
	sectors = sysfs_int(pathf(path, "%s/size", di.dir), -1);
	virt = strstr(di.dir, "/devices/virtual/") != NULL;
	/* Unattached loop, nbd and zram devices are empty slots, not storage. */
	if (virt && sectors <= 0)
		return 0;
	if (!strncmp(name, "loop", 4) && access(pathf(path, "%s/loop", di.dir) ?: "", F_OK))
		return 0;

	b = inv_add_blockdev(d->inv);
	if (!b)
		return -ENOMEM;
	b->name = strdup(name);
	b->path = strdup(di.path);
	if (!b->name || !b->path)
		return -ENOMEM;
	/* sysfs sizes are in 512-byte sectors whatever the logical block size */
	b->size_bytes = sectors >= 0 ? sectors * 512 : INV_UNSET;
	scsi_address(&di);
	read_identity(d, b, &di);
	read_queue(b, di.dir);
	judge(d, b, &di);
	ret = read_usage(d, b, &di);
	if (!ret)
		ret = link_controller(d, b, &di);
	if (!ret)
		ret = read_stable_names(d, b, &di);
	return ret;
}

int discover_blockdevs(struct dctx *d)
{
	char path[PATH_MAX], **names;
	size_t nr;
	int ret;

	ret = dir_names(pathf(path, "%s/block", d->sysfs), &names, &nr);
	if (ret) {
		snprintf(d->err, d->errlen, "cannot list %s/block: %s", d->sysfs, strerror(-ret));
		return ret;
	}
	for (size_t i = 0; i < nr && !ret; i++)
		ret = add_blockdev(d, names[i]);
	names_free(names, nr);
	if (ret)
		snprintf(d->err, d->errlen, "out of memory listing block devices");
	return ret;
}
