/*
 * identity.c - who a run's target is, for the saved result: the device (or
 * the device under a file), its model, serial and WWID, the PCI controller
 * it hangs off, md's RAID level, chunk and members, hpsa's RAID level, and
 * the file system. Read from sysfs, the mount table (core/systab.h) and a
 * read-only libblkid probe; what the kernel does not say stays unknown.
 *
 * Reads only; never writes anything, never prints.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <blkid/blkid.h>

#include "identity.h"
#include "results.h"
#include "systab.h"
#include "inventory.h"
#include "bufcat.h"

/* Reads a sysfs attribute, blanks trimmed at both ends. 0 when non-empty. */
static int read_attr(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX + 64];
	size_t n, s = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		buf[--n] = '\0';
	while (buf[s] == ' ' || buf[s] == '\t')
		s++;
	memmove(buf, buf + s, n - s + 1);
	return buf[0] ? 0 : -ENODATA;
}

/* SCSI VPD page 0x80 (unit serial number): 4 header bytes, then the serial. */
static int vpd_serial(const char *devdir, char *buf, size_t len)
{
	unsigned char page[260];
	char path[PATH_MAX + 16];
	size_t n, plen, s = 4;
	FILE *f;

	snprintf(path, sizeof(path), "%s/vpd_pg80", devdir);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	n = fread(page, 1, sizeof(page), f);
	fclose(f);
	if (n < 5 || page[1] != 0x80)
		return -ENODATA;
	plen = page[3];
	if (plen > n - 4)
		plen = n - 4;
	while (s < 4 + plen && page[s] == ' ')
		s++;
	while (plen + 4 > s && (page[plen + 3] == ' ' || page[plen + 3] == '\0'))
		plen--;
	snprintf(buf, len, "%.*s", (int)(plen + 4 - s), (const char *)page + s);
	return buf[0] ? 0 : -ENODATA;
}

static bool is_pci_address(const char *s)
{
	unsigned a, b, c, d;
	char tail;

	return sscanf(s, "%4x:%2x:%2x.%1x%c", &a, &b, &c, &d, &tail) == 4;
}

static const char *hex_id(const char *s)
{
	return strncmp(s, "0x", 2) ? s : s + 2;
}

/* The nearest PCI function above a sysfs device path: "0000:05:00.0 hpsa [103c:3239]". */
static void controller_of(const char *syspath, char *out, size_t len)
{
	char path[PATH_MAX], pci[PATH_MAX] = "", func[PATH_MAX] = "", target[PATH_MAX];
	char ven[16] = "", dev[16] = "";
	char *comp, *save = NULL;
	size_t used = 0, w;
	ssize_t n;

	snprintf(path, sizeof(path), "%s", syspath);
	for (comp = strtok_r(path, "/", &save); comp; comp = strtok_r(NULL, "/", &save)) {
		used += (size_t)snprintf(pci + used, sizeof(pci) - used, "/%s", comp);
		if (used >= sizeof(pci))
			return;
		if (!strcmp(comp, "block"))
			break;
		if (is_pci_address(comp))
			snprintf(func, sizeof(func), "%s", pci);	/* the nearest wins */
	}
	if (!func[0])
		return;		/* virtual: loop, md, dm, zram */
	w = (size_t)snprintf(out, len, "%s", strrchr(func, '/') + 1);
	snprintf(pci, sizeof(pci), "%s/driver", func);
	n = readlink(pci, target, sizeof(target) - 1);
	if (n > 0 && w < len) {
		target[n] = '\0';
		w = bufcat(out, len, w, " %s", strrchr(target, '/') ?
				      strrchr(target, '/') + 1 : target);
	}
	if (!read_attr(func, "vendor", ven, sizeof(ven)) && !read_attr(func, "device", dev, sizeof(dev)) &&
	    w < len)
		snprintf(out + w, len - w, " [%s:%s]", hex_id(ven), hex_id(dev));
}

/* md: level, chunk and members from /sys/block/mdX/md and slaves/. */
static void md_identity(const char *disk, struct results_identity *id)
{
	char dir[PATH_MAX + 8], buf[64];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/md", disk);
	if (!read_attr(dir, "level", buf, sizeof(buf)))
		snprintf(id->raid_level, sizeof(id->raid_level), "%s",
			 strncmp(buf, "raid", 4) ? buf : buf + 4);
	if (!read_attr(dir, "raid_disks", buf, sizeof(buf)))
		id->members = atoi(buf);
	/* raid1 and linear have no chunk: their chunk_size reads 0 */
	if (!read_attr(dir, "chunk_size", buf, sizeof(buf)) && atoll(buf) > 0)
		id->strip_size_bytes = atoll(buf);
	snprintf(dir, sizeof(dir), "%s/slaves", disk);
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		size_t used = strlen(id->member_devices);

		if (de->d_name[0] == '.')
			continue;
		snprintf(id->member_devices + used, sizeof(id->member_devices) - used, "%s%s",
			 used ? " " : "", de->d_name);
	}
	if (d)
		closedir(d);
}

void identity_disk(const char *disk, struct results_identity *id)
{
	char dev[PATH_MAX + 16], real[PATH_MAX], vendor[64], model[96], level[64];
	const char *norm;

	snprintf(dev, sizeof(dev), "%s/device", disk);
	if (!read_attr(dev, "model", model, sizeof(model))) {
		/* "ATA" and PCI ids ("0x1af4") are not a maker's name */
		if (!read_attr(dev, "vendor", vendor, sizeof(vendor)) && strcmp(vendor, "ATA") &&
		    strncmp(vendor, "0x", 2))
			snprintf(id->model, sizeof(id->model), "%s %s", vendor, model);
		else
			snprintf(id->model, sizeof(id->model), "%s", model);
	}
	if (read_attr(dev, "serial", id->serial, sizeof(id->serial)) &&
	    read_attr(disk, "serial", id->serial, sizeof(id->serial)))
		vpd_serial(dev, id->serial, sizeof(id->serial));
	if (read_attr(disk, "wwid", id->wwid, sizeof(id->wwid)))
		read_attr(dev, "wwid", id->wwid, sizeof(id->wwid));
	/* hpsa (Smart Array) tells a logical drive's level: "RAID 5", "N/A" for a disk */
	if (!read_attr(dev, "raid_level", level, sizeof(level)) &&
	    (norm = inv_normalize_raid_level(level)))
		snprintf(id->raid_level, sizeof(id->raid_level), "%s", norm);
	if (realpath(disk, real))
		controller_of(real, id->controller, sizeof(id->controller));
	md_identity(disk, id);
}

/* The mount whose device is devno and whose mount point holds path (longest wins). */
static void mount_of(dev_t devno, const char *path, struct results_identity *id)
{
	struct systab t = { 0 };
	const struct systab_mount *m;

	if (systab_read_mounts(&t, NULL) == 0 && (m = systab_mount_of(&t, devno, path))) {
		snprintf(id->mount_point, sizeof(id->mount_point), "%s", m->dir);
		snprintf(id->fs_type, sizeof(id->fs_type), "%s", m->fstype ? m->fstype : "");
		if (!id->device[0] && m->source && !strncmp(m->source, "/dev/", 5))
			snprintf(id->device, sizeof(id->device), "%s", m->source);
	}
	systab_release(&t);
}

/* What a read-only probe finds on a device that is not mounted: "ext4", "xfs". */
static void probe_fs(const char *path, struct results_identity *id)
{
	blkid_probe pr = blkid_new_probe_from_filename(path);
	const char *type = NULL;

	if (!pr)
		return;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
	if (blkid_do_safeprobe(pr) == 0 && !blkid_probe_lookup_value(pr, "TYPE", &type, NULL))
		snprintf(id->fs_type, sizeof(id->fs_type), "%s", type);
	blkid_free_probe(pr);
}

int identity_probe(const char *path, struct results_identity *id)
{
	char sys[96], disk[PATH_MAX], real[PATH_MAX];
	struct stat st;
	dev_t devno;
	bool blockdev;

	if (stat(path, &st) < 0)
		return -errno;
	blockdev = S_ISBLK(st.st_mode);
	devno = blockdev ? st.st_rdev : st.st_dev;
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(devno), minor(devno));
	if (realpath(sys, disk)) {
		char part[PATH_MAX + 16];
		const char *name = strrchr(disk, '/') + 1;

		snprintf(id->device, sizeof(id->device), "/dev/%s", name);
		/* a partition's model and serial are its disk's, one level up */
		snprintf(part, sizeof(part), "%s/partition", disk);
		if (access(part, F_OK) == 0)
			*strrchr(disk, '/') = '\0';
		identity_disk(disk, id);
	}
	if (blockdev) {
		mount_of(devno, NULL, id);
		if (!id->fs_type[0])
			probe_fs(path, id);
	} else {
		mount_of(devno, realpath(path, real) ? real : path, id);
	}
	return 0;
}
