/*
 * stable_names.c - /dev/disk/by-id and by-path names of a disk: udev's
 * (libudev DEVLINKS) when its database has the device, otherwise derived
 * from sysfs by the rules udev itself follows (see stable_names.h).
 */
#include "stable_names.h"
#include "discover_int.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <libudev.h>

#define NAME_MAX_LEN 512

/* A binary sysfs attribute (VPD pages); its length, or -1. */
static ssize_t read_bin(const char *dir, const char *attr, unsigned char *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	if (!pathf(path, "%s/%s", dir, attr))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len);
	close(fd);
	return n;
}

/* udev's ATTRS{}: the attribute on the device or the nearest parent that has it. */
static bool attrs_up(const char *dir, const char *attr, char *buf, size_t len)
{
	char d[PATH_MAX], path[PATH_MAX];
	char *slash;

	snprintf(d, sizeof(d), "%s", dir);
	for (;;) {
		if (!sysfs_read(pathf(path, "%s/%s", d, attr), buf, len))
			return true;
		slash = strrchr(d, '/');
		if (!slash || slash == d || !strcmp(slash, "/devices"))
			return false;
		*slash = '\0';
	}
}

/* A UTF-8 sequence's length at s when valid and longer than one byte, else 0. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n = s[0] >= 0xf0 && s[0] < 0xf5 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;

	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return s[0] < 0xf5 ? n : 0;
}

/*
 * What udev makes of a value in a link name: leading and trailing blanks
 * dropped, each run of blanks one '_', and every byte that is not a letter,
 * digit, one of "#+-.:=@_", in allow, a "\x" escape or valid UTF-8 made '_'.
 * in may hold NULs (ATA strings): it ends at the first. out holds NAME_MAX_LEN.
 */
static void udev_clean(const char *in, size_t inlen, const char *allow, char *out)
{
	size_t len = strnlen(in, inlen), i = 0, j = 0;

	while (len && isspace((unsigned char)in[len - 1]))
		len--;
	while (i < len && isspace((unsigned char)in[i]))
		i++;
	while (i < len && j < NAME_MAX_LEN - 1) {
		unsigned char c = (unsigned char)in[i];
		size_t u;

		if (isspace(c)) {
			while (i < len && isspace((unsigned char)in[i]))
				i++;
			out[j++] = '_';
			continue;
		}
		if (isalnum(c) || strchr("#+-.:=@_", c) || (allow && strchr(allow, c))) {
			out[j++] = (char)c;
			i++;
		} else if (c == '\\' && i + 1 < len && in[i + 1] == 'x') {
			out[j++] = '\\';
			i++;
		} else if (c >= 0x80 && (u = utf8_len((const unsigned char *)in + i)) &&
			   i + u <= len && j + u < NAME_MAX_LEN) {
			memcpy(out + j, in + i, u);
			i += u;
			j += u;
		} else {
			out[j++] = '_';
			i++;
		}
	}
	out[j] = '\0';
}

struct names {
	char ***v;
	size_t *nr;
	const struct sn_dev *d;
	int ret;
};

/* Adds DEV_ROOT/disk/KIND/NAME (-partN for a partition) unless already there. */
static void add(struct names *n, const char *kind, const char *name)
{
	char full[PATH_MAX + NAME_MAX_LEN + 32];

	if (n->ret || !*name)
		return;
	if (n->d->partno > 0)
		snprintf(full, sizeof(full), "%s/disk/%s/%s-part%d", n->d->dev_root, kind, name,
			 n->d->partno);
	else
		snprintf(full, sizeof(full), "%s/disk/%s/%s", n->d->dev_root, kind, name);
	for (size_t i = 0; i < *n->nr; i++)
		if (!strcmp((*n->v)[i], full))
			return;
	n->ret = inv_add_str(n->v, n->nr, full);
}

/* udev's "PREFIX-$env{...}" link: the value cleaned, then added under by-id. */
static void add_id(struct names *n, const char *prefix, const char *raw, size_t rawlen)
{
	char clean[NAME_MAX_LEN], name[NAME_MAX_LEN + 32];

	udev_clean(raw, rawlen, "/", clean);
	if (!*clean)
		return;
	snprintf(name, sizeof(name), "%s-%s", prefix, clean);
	add(n, "by-id", name);
}

static bool name_is(const char *name, const char *fmt)
{
	unsigned a, b;
	char tail;

	return sscanf(name, fmt, &a, &b, &tail) == 2;
}

/* ---- NVMe: nvme-WWID, nvme-MODEL_SERIAL and nvme-MODEL_SERIAL_NSID ---- */

static void nvme_ids(struct names *n)
{
	const char *dir = n->d->dir;
	char wwid[256], model[256], serial[256], nsid[32], path[PATH_MAX];
	char v[800];

	if (!sysfs_read(pathf(path, "%s/wwid", dir), wwid, sizeof(wwid)))
		add_id(n, "nvme", wwid, sizeof(wwid));
	if (!attrs_up(dir, "model", model, sizeof(model)) ||
	    !attrs_up(dir, "serial", serial, sizeof(serial)))
		return;
	snprintf(v, sizeof(v), "%s_%s", model, serial);
	add_id(n, "nvme", v, sizeof(v));
	if (attrs_up(dir, "nsid", nsid, sizeof(nsid))) {
		snprintf(v, sizeof(v), "%s_%s_%s", model, serial, nsid);
		add_id(n, "nvme", v, sizeof(v));
	}
}

/* ---- ATA disks behind libata (ata_id): ata-MODEL_SERIAL, wwn-0x... ---- */

/* An IDENTIFY string: each 16-bit word holds two characters, high byte first. */
static void ata_string(const unsigned char *id, int word, int words, char *out)
{
	for (int i = 0; i < words; i++) {
		out[2 * i] = (char)id[2 * (word + i) + 1];
		out[2 * i + 1] = (char)id[2 * (word + i)];
	}
	out[2 * words] = '\0';
}

static void ata_ids(struct names *n, const char *sdev)
{
	unsigned char pg[600];
	char model[NAME_MAX_LEN], serial[NAME_MAX_LEN], raw[64], v[2 * NAME_MAX_LEN + 2];
	ssize_t len = read_bin(sdev, "vpd_pg89", pg, sizeof(pg));
	char path[PATH_MAX], wwid[256];

	/* VPD 0x89 (SAT's ATA Information) carries the IDENTIFY data at byte 60 */
	if (len >= 60 + 512 && pg[1] == 0x89) {
		const unsigned char *id = pg + 60;
		unsigned w108 = id[216] | id[217] << 8;

		ata_string(id, 27, 20, raw);
		udev_clean(raw, 40, NULL, model);
		ata_string(id, 10, 10, raw);
		udev_clean(raw, 20, NULL, serial);
		if ((w108 & 0xf000) == 0x5000) {
			unsigned long long wwn = 0;

			for (int w = 108; w <= 111; w++)
				wwn = wwn << 16 | (unsigned)(id[2 * w] | id[2 * w + 1] << 8);
			snprintf(v, sizeof(v), "wwn-0x%llx", wwn);
			add(n, "by-id", v);
		}
	} else {
		/*
		 * Without page 0x89 (older kernels): the INQUIRY product holds the
		 * model's first 16 characters only, so a name is made only when
		 * the model is shorter (then it is whole).
		 */
		/* a disk with a WWN shows it as the kernel's NAA designator */
		if (!sysfs_read(pathf(path, "%s/wwid", sdev), wwid, sizeof(wwid)) &&
		    !strncmp(wwid, "naa.", 4) && strlen(wwid) >= 20) {
			snprintf(v, sizeof(v), "wwn-0x%.16s", wwid + 4);
			add(n, "by-id", v);
		}
		model[0] = '\0';
		if (!sysfs_read(pathf(path, "%s/model", sdev), raw, sizeof(raw)) && strlen(raw) < 16)
			udev_clean(raw, sizeof(raw), NULL, model);
		len = read_bin(sdev, "vpd_pg80", pg, sizeof(pg));
		serial[0] = '\0';
		if (len > 4 && pg[1] == 0x80)
			udev_clean((const char *)pg + 4,
				   (size_t)len - 4 < pg[3] ? (size_t)len - 4 : pg[3], NULL, serial);
	}
	if (!*model)
		return;
	if (*serial)
		snprintf(v, sizeof(v), "ata-%s_%s", model, serial);
	else
		snprintf(v, sizeof(v), "ata-%s", model);
	add(n, "by-id", v);
}

/* ---- other SCSI disks (scsi_id --whitelisted): scsi-ID, wwn-0x... ---- */

enum { ID_VENDOR_SPECIFIC = 0, ID_T10_VENDOR = 1, ID_EUI_64 = 2, ID_NAA = 3 };
enum { CODE_BINARY = 1, CODE_ASCII = 2 };
#define NAA_ANY (-1)

/* scsi_id's order of preference among page 0x83 designators */
static const struct {
	int type, naa, code;
} id_search[] = {
	{ ID_NAA, 6, CODE_BINARY }, { ID_NAA, 6, CODE_ASCII },
	{ ID_NAA, 5, CODE_BINARY }, { ID_NAA, 5, CODE_ASCII },
	{ ID_NAA, NAA_ANY, CODE_BINARY }, { ID_NAA, NAA_ANY, CODE_ASCII },
	{ ID_EUI_64, NAA_ANY, CODE_BINARY }, { ID_EUI_64, NAA_ANY, CODE_ASCII },
	{ ID_T10_VENDOR, NAA_ANY, CODE_BINARY }, { ID_T10_VENDOR, NAA_ANY, CODE_ASCII },
	{ ID_VENDOR_SPECIFIC, NAA_ANY, CODE_BINARY }, { ID_VENDOR_SPECIFIC, NAA_ANY, CODE_ASCII },
};

/* "VENDOR  MODEL           ": INQUIRY's fields at their full width, as scsi_id prepends them. */
static bool vendor_model(const char *sdev, char *out, size_t len)
{
	char path[PATH_MAX], vendor[64], model[64];

	if (sysfs_read(pathf(path, "%s/vendor", sdev), vendor, sizeof(vendor)) ||
	    sysfs_read(pathf(path, "%s/model", sdev), model, sizeof(model)))
		return false;
	snprintf(out, len, "%-8.8s%-16.16s", vendor, model);
	return true;
}

/* The serial scsi_id builds from one designator d (4-byte header + identifier). */
static bool designator_serial(const char *sdev, const unsigned char *d, int type, char *serial,
			      size_t len, char *wwn, size_t wwnlen)
{
	static const char hex[] = "0123456789abcdef";
	size_t j;

	serial[0] = hex[type];
	serial[1] = '\0';
	if (type == ID_VENDOR_SPECIFIC && !vendor_model(sdev, serial + 1, len - 1))
		return false;
	j = strlen(serial);
	for (unsigned i = 0; i < d[3] && j + 3 < len; i++) {
		if ((d[0] & 0x0f) == CODE_ASCII) {
			serial[j++] = (char)d[4 + i];
		} else {
			serial[j++] = hex[d[4 + i] >> 4];
			serial[j++] = hex[d[4 + i] & 0x0f];
		}
	}
	serial[j] = '\0';
	if (type == ID_NAA)
		snprintf(wwn, wwnlen, "%s", serial + 1);
	return true;
}

static void scsi_ids(struct names *n, const char *sdev)
{
	unsigned char pg[1024];
	char serial[NAME_MAX_LEN], clean[NAME_MAX_LEN], wwn[NAME_MAX_LEN], v[NAME_MAX_LEN + 32];
	ssize_t len = read_bin(sdev, "vpd_pg83", pg, sizeof(pg));
	bool found = false;

	wwn[0] = '\0';
	/* pg[6] != 0: a SCSI-2 style page (old EMC arrays), which is left alone */
	if (len > 8 && pg[1] == 0x83 && pg[6] == 0) {
		size_t end = 4 + ((size_t)pg[2] << 8 | pg[3]);

		if (end > (size_t)len)
			end = (size_t)len;
		for (size_t s = 0; s < sizeof(id_search) / sizeof(id_search[0]) && !found; s++) {
			for (size_t j = 4; j + 4 <= end && !found; j += 4 + pg[j + 3]) {
				const unsigned char *d = pg + j;

				/* associated with the logical unit, of the type and code set searched */
				if (j + 4 + d[3] > end || (d[1] & 0x30) || (d[1] & 0x0f) != id_search[s].type ||
				    (d[0] & 0x0f) != id_search[s].code ||
				    (id_search[s].naa != NAA_ANY && d[3] &&
				     (d[4] >> 4) != id_search[s].naa))
					continue;
				found = designator_serial(sdev, d, id_search[s].type, serial,
							  sizeof(serial), wwn, sizeof(wwn));
			}
		}
	}
	if (!found) {	/* page 0x80: "S" + vendor + model + the unit serial */
		char path[PATH_MAX], wwid[256];

		/* a wwid without its page 0x83 here: scsi_id would have used that page */
		if (len < 0 && !sysfs_read(pathf(path, "%s/wwid", sdev), wwid, sizeof(wwid)))
			return;
		len = read_bin(sdev, "vpd_pg80", pg, sizeof(pg));
		if (len <= 4 || pg[1] != 0x80)
			return;
		serial[0] = 'S';
		if (!vendor_model(sdev, serial + 1, sizeof(serial) - 1))
			return;
		size_t j = strlen(serial);

		for (size_t i = 0; i < pg[3] && 4 + i < (size_t)len && j + 1 < sizeof(serial); i++)
			serial[j++] = (char)pg[4 + i];
		serial[j] = '\0';
	}
	udev_clean(serial, sizeof(serial), NULL, clean);
	if (*clean) {
		snprintf(v, sizeof(v), "scsi-%s", clean);
		add(n, "by-id", v);
	}
	if (*wwn) {
		/* the first 16 digits are the WWN, the rest its vendor extension */
		snprintf(v, sizeof(v), "wwn-0x%s", wwn);
		add(n, "by-id", v);
	}
}

/* The SCSI device directory ("H:C:T:L") above a disk, and its address. */
static bool scsi_device(const char *dir, char *sdev, size_t len, unsigned addr[4])
{
	char d[PATH_MAX];
	char *slash;

	snprintf(d, sizeof(d), "%s", dir);
	while ((slash = strrchr(d, '/')) && slash != d) {
		char tail;

		if (sscanf(slash + 1, "%u:%u:%u:%u%c", &addr[0], &addr[1], &addr[2], &addr[3],
			   &tail) == 4) {
			snprintf(sdev, len, "%s", d);
			return true;
		}
		*slash = '\0';
	}
	return false;
}

/* ---- by-path (path_id) ---- */

/* The first path component of dir that is prefix and digits ("ata1", "host2"): where it starts. */
static const char *component(const char *dir, const char *prefix, unsigned *num)
{
	size_t pl = strlen(prefix);

	for (const char *p = strchr(dir, '/'); p; p = strchr(p + 1, '/')) {
		const char *c = p + 1, *e = c + pl;

		if (strncmp(c, prefix, pl) || !isdigit((unsigned char)*e))
			continue;
		while (isdigit((unsigned char)*e))
			e++;
		if (*e == '/' || !*e) {
			*num = (unsigned)strtoul(c + pl, NULL, 10);
			return c;
		}
	}
	return NULL;
}

/* path_id's SCSI part: "ata-P.T" (and "ata-P") for libata, "scsi-H:C:T:L" otherwise. */
static bool scsi_path(const char *dir, const unsigned addr[4], char *id, size_t len,
		      char *compat, size_t clen)
{
	char base[PATH_MAX], path[PATH_MAX], port[32], **names;
	const char *c;
	unsigned num, min = (unsigned)-1;
	size_t nr;

	/* transports whose names need what sysfs alone does not give here */
	if (strstr(dir, "/rport-") || strstr(dir, "/end_device-") || strstr(dir, "/session") ||
	    strstr(dir, "/vmbus_") || strstr(dir, "/usb"))
		return false;
	c = component(dir, "ata", &num);
	if (c) {
		snprintf(base, sizeof(base), "%.*s", (int)(c - dir), dir);
		if (sysfs_read(pathf(path, "%sata%u/ata_port/ata%u/port_no", base, num, num), port,
			       sizeof(port)))
			return false;
		if (addr[1] != 0)	/* behind a port multiplier */
			snprintf(id, len, "ata-%s.%u.0", port, addr[1]);
		else
			snprintf(id, len, "ata-%s.%u", port, addr[2]);
		snprintf(compat, clen, "ata-%s", port);
		return true;
	}
	/* the host number counted from the lowest host on the same parent */
	c = component(dir, "host", &num);
	if (!c || c == dir + 1)
		return false;
	snprintf(base, sizeof(base), "%.*s", (int)(c - dir - 1), dir);
	if (dir_names(base, &names, &nr))
		return false;
	for (size_t i = 0; i < nr; i++) {
		unsigned h;
		char tail;

		if (sscanf(names[i], "host%u%c", &h, &tail) == 1 && h < min)
			min = h;
	}
	names_free(names, nr);
	if (min > addr[0])
		return false;
	snprintf(id, len, "scsi-%u:%u:%u:%u", addr[0] - min, addr[1], addr[2], addr[3]);
	return true;
}

static void by_path(struct names *n, const unsigned *addr)
{
	const struct sn_dev *d = n->d;
	char tail[128], compat[64], path[PATH_MAX], nsid[32], v[256];
	bool virt = strstr(d->dir, "/devices/virtual/") != NULL;

	if (!d->pci)
		return;
	tail[0] = compat[0] = '\0';
	if (name_is(d->name, "nvme%un%u%c")) {
		if (sysfs_read(pathf(path, "%s/nsid", d->dir), nsid, sizeof(nsid)))
			return;
		snprintf(tail, sizeof(tail), "-nvme-%s", nsid);
	} else if (virt) {
		return;
	} else if (!strncmp(d->name, "vd", 2)) {
		if (!strstr(d->dir, "/virtio"))
			return;
		snprintf(v, sizeof(v), "virtio-pci-%s", d->pci);
		add(n, "by-path", v);
	} else if (addr) {
		char id[64];

		if (!scsi_path(d->dir, addr, id, sizeof(id), compat, sizeof(compat)))
			return;
		snprintf(tail, sizeof(tail), "-%s", id);
	} else {
		return;
	}
	snprintf(v, sizeof(v), "pci-%s%s", d->pci, tail);
	add(n, "by-path", v);
	if (*compat) {
		snprintf(v, sizeof(v), "pci-%s-%s", d->pci, compat);
		add(n, "by-path", v);
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* by-id before by-path, each sorted: the order of both sources. */
static void sort_names(char **v, size_t nr)
{
	if (nr > 1)	/* qsort with a NULL base is undefined even for 0 members */
		qsort(v, nr, sizeof(*v), cmp_str);
}

int stable_names_derive(const struct sn_dev *d, char ***names, size_t *nr)
{
	struct names n = { names, nr, d, 0 };
	size_t first = *nr;
	char sdev[PATH_MAX], vendor[64], path[PATH_MAX], serial[256];
	unsigned addr[4];
	bool scsi = false;

	if (name_is(d->name, "nvme%un%u%c")) {
		nvme_ids(&n);
	} else if (!strncmp(d->name, "vd", 2)) {
		if (!sysfs_read(pathf(path, "%s/serial", d->dir), serial, sizeof(serial)))
			add_id(&n, "virtio", serial, sizeof(serial));
	} else if (!strncmp(d->name, "sd", 2) &&
		   (scsi = scsi_device(d->dir, sdev, sizeof(sdev), addr))) {
		/* a USB disk is named by usb_id from USB descriptors: not derived */
		if (!strstr(d->dir, "/usb")) {
			if (!sysfs_read(pathf(path, "%s/vendor", sdev), vendor, sizeof(vendor)) &&
			    !strcmp(vendor, "ATA"))
				ata_ids(&n, sdev);
			else
				scsi_ids(&n, sdev);
		}
	}
	by_path(&n, scsi ? addr : NULL);
	if (!n.ret)
		sort_names(*names + first, *nr - first);
	return n.ret;
}

int stable_names_udev(dev_t dev, char ***names, size_t *nr)
{
	struct udev *u = udev_new();
	struct udev_device *ud;
	struct udev_list_entry *e;
	size_t first = *nr;
	int ret = 0;

	if (!u)
		return 0;
	ud = udev_device_new_from_devnum(u, 'b', dev);
	if (!ud) {
		udev_unref(u);
		return 0;
	}
	if (udev_device_get_is_initialized(ud) > 0) {
		ret = 1;
		udev_list_entry_foreach(e, udev_device_get_devlinks_list_entry(ud)) {
			const char *l = udev_list_entry_get_name(e);

			if ((!strncmp(l, "/dev/disk/by-id/", 16) ||
			     !strncmp(l, "/dev/disk/by-path/", 18)) &&
			    inv_add_str(names, nr, l)) {
				ret = -ENOMEM;
				break;
			}
		}
	}
	udev_device_unref(ud);
	udev_unref(u);
	if (ret > 0)
		sort_names(*names + first, *nr - first);
	return ret;
}
