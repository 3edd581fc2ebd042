/*
 * discover_pci.c - storage controllers from sysfs: every PCI function of
 * class "mass storage" (RAID, SAS, SATA/AHCI, NVMe, SCSI, virtio), named
 * through libpci (udev's hwdb, then pci.ids), with its driver, NUMA node,
 * slot, PCIe link (current and maximum; a link trained below what both
 * ends can do is flagged by the JSON writer) and the firmware and serial
 * number its driver exposes: scsi_host attributes of hpsa
 * (firmware_revision), smartpqi (firmware_version, serial_number), mpt3sas
 * (version_fw), and the NVMe controller's firmware_rev and serial.
 * megaraid_sas exposes no firmware version in sysfs, so it stays null.
 *
 * Read-only. libpci is used only as a name database: no config space
 * access, and its error hooks are ours so it never prints or exits.
 */
#include "discover_int.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pci/pci.h>

/* PCI base class 0x01: mass storage controller. */
#define PCI_BASE_CLASS_MASS_STORAGE 0x01

/* scsi_host attributes that carry the controller firmware, by driver. */
static const char *const host_fw_attrs[] = {
	"firmware_revision",	/* hpsa */
	"firmware_version",	/* smartpqi */
	"version_fw",		/* mpt3sas */
	"fw_version",		/* aacraid and others */
};

/*
 * libpci's error hook must not return; a lookup only fails on ENOMEM or a
 * bad flag, and then we jump back and go without names.
 */
static __thread jmp_buf *pci_jump;

static void pci_quiet(char *msg, ...)
{
	(void)msg;
}

__attribute__((noreturn)) static void pci_fatal(char *msg, ...)
{
	(void)msg;
	if (pci_jump)
		longjmp(*pci_jump, 1);
	abort();
}

struct names {
	struct pci_access *pacc;
	unsigned flags;
};

static void names_open(struct names *n, const char *ids)
{
	n->pacc = pci_alloc();
	if (!n->pacc)
		return;
	n->pacc->error = pci_fatal;
	n->pacc->warning = pci_quiet;
	n->pacc->debug = pci_quiet;
	/* No DNS lookups and no ~/.pciids-cache: discovery writes nothing. */
	n->pacc->id_lookup_mode = 0;
	n->flags = PCI_LOOKUP_NO_NUMBERS;
	if (ids) {
		/* A given file is the whole truth: tests must not depend on the host's hwdb. */
		pci_set_name_list_path(n->pacc, (char *)ids, 0);
		n->flags |= PCI_LOOKUP_NO_HWDB;
	}
}

static void names_close(struct names *n)
{
	if (n->pacc)
		pci_cleanup(n->pacc);
}

struct pci_names {
	char vendor[256], device[256], subvendor[256], subsys[256];
	bool has_vendor, has_device, has_subvendor, has_subsys;
};

static void lookup(struct names *n, struct pci_names *o, unsigned ven, unsigned dev,
		   unsigned sven, unsigned sdev)
{
	o->has_vendor = pci_lookup_name(n->pacc, o->vendor, sizeof(o->vendor),
					PCI_LOOKUP_VENDOR | n->flags, ven) != NULL;
	o->has_device = pci_lookup_name(n->pacc, o->device, sizeof(o->device),
					PCI_LOOKUP_DEVICE | n->flags, ven, dev) != NULL;
	if (!sven || sven == 0xffff || (sven == ven && sdev == dev))
		return;
	o->has_subsys = pci_lookup_name(n->pacc, o->subsys, sizeof(o->subsys),
					PCI_LOOKUP_SUBSYSTEM | PCI_LOOKUP_DEVICE | n->flags, ven,
					dev, sven, sdev) != NULL;
	if (sven != ven)
		o->has_subvendor = pci_lookup_name(n->pacc, o->subvendor, sizeof(o->subvendor),
						   PCI_LOOKUP_VENDOR | n->flags, sven) != NULL;
}

/*
 * "Broadcom / LSI MegaRAID Tri-Mode SAS3516 (MegaRAID 9460-16i)",
 * "Broadcom / LSI MegaRAID SAS-3 3108 [Invader] (Dell PERC H730P Mini)":
 * the chip as lspci names it, then the board when pci.ids knows it.
 */
static char *pci_model(struct names *n, unsigned ven, unsigned dev, unsigned sven, unsigned sdev)
{
	struct pci_names o = { .has_vendor = false };
	char out[1100];
	jmp_buf jb;

	if (!n->pacc)
		return NULL;
	pci_jump = &jb;
	if (setjmp(jb)) {
		pci_jump = NULL;
		return NULL;
	}
	lookup(n, &o, ven, dev, sven, sdev);
	pci_jump = NULL;
	if (!o.has_device)
		return NULL;
	snprintf(out, sizeof(out), "%s%s%s%s%s%s%s", o.has_vendor ? o.vendor : "",
		 o.has_vendor ? " " : "", o.device, o.has_subsys ? " (" : "",
		 o.has_subvendor && o.has_subsys ? o.subvendor : "",
		 o.has_subvendor && o.has_subsys ? " " : "", o.has_subsys ? o.subsys : "");
	if (o.has_subsys)
		strncat(out, ")", sizeof(out) - strlen(out) - 1);
	return strdup(out);
}

/* "8.0 GT/s PCIe" (kernels since 4.19 add " PCIe"), "2.5 GT/s", "Unknown" -> 0. */
static double link_speed(const char *path)
{
	char buf[64];

	if (sysfs_read(path, buf, sizeof(buf)))
		return 0;
	return strtod(buf, NULL);
}

/* A link width: x1 to x32; anything else (255 where a device has no link) is none. */
static int link_width(const char *path)
{
	int64_t w = sysfs_int(path, 0);

	return w >= 1 && w <= 32 ? (int)w : 0;
}

static void read_pcie(const char *dir, struct inv_pcie *p)
{
	char path[PATH_MAX];

	p->speed_gts = link_speed(pathf(path, "%s/current_link_speed", dir));
	p->width = link_width(pathf(path, "%s/current_link_width", dir));
	p->max_speed_gts = link_speed(pathf(path, "%s/max_link_speed", dir));
	p->max_width = link_width(pathf(path, "%s/max_link_width", dir));
	/*
	 * Conventional PCI and virtual functions have no link files; devices on
	 * the root bus (integrated endpoints) have them reading "Unknown", 0
	 * and 255: neither is a link. Only a current speed and width are.
	 */
	p->known = p->speed_gts > 0 && p->width > 0;
}

/* /sys/bus/pci/slots/N/address is "0000:05:00" for every function of the card in slot N. */
static char *pci_slot(struct dctx *d, const char *addr)
{
	char path[PATH_MAX], buf[64], **names;
	size_t nr;
	char *slot = NULL;

	if (dir_names(pathf(path, "%s/bus/pci/slots", d->sysfs), &names, &nr))
		return NULL;
	for (size_t i = 0; i < nr && !slot; i++) {
		if (sysfs_read(pathf(path, "%s/bus/pci/slots/%s/address", d->sysfs, names[i]), buf,
			       sizeof(buf)))
			continue;
		if (!strncmp(buf, addr, strlen(buf)) && addr[strlen(buf)] == '.')
			slot = strdup(names[i]);
	}
	names_free(names, nr);
	return slot;
}

/* Firmware and serial from the controller's SCSI hosts or its NVMe controller node. */
static void read_firmware(struct dctx *d, struct inv_controller *c, const char *dir)
{
	char path[PATH_MAX], real[PATH_MAX], addr[32], **names;
	size_t nr;

	if (!dir_names(pathf(path, "%s/class/scsi_host", d->sysfs), &names, &nr)) {
		for (size_t i = 0; i < nr; i++) {
			const char *h = pathf(path, "%s/class/scsi_host/%s", d->sysfs, names[i]);

			/* AHCI hosts sit below ataN/, so match by ancestor, not by parent */
			if (!h || !realpath(h, real) || !pci_ancestor(real, addr, sizeof(addr)) ||
			    strcmp(addr, c->pci))
				continue;
			for (size_t k = 0; !c->firmware && k < 4; k++)
				c->firmware = sysfs_strdup(d, pathf(path, "%s/%s", real,
								    host_fw_attrs[k]));
			if (!c->serial)
				c->serial = sysfs_strdup(d, pathf(path, "%s/serial_number", real));
			if (sysfs_int(pathf(path, "%s/lockup_detected", real), 0) > 0) {
				c->status = INV_FAILED;
				free(c->status_text);
				c->status_text = strdup("controller lockup detected");
			}
		}
		names_free(names, nr);
	}
	if (!dir_names(pathf(path, "%s/nvme", dir), &names, &nr)) {
		for (size_t i = 0; i < nr; i++) {
			if (!c->firmware)
				c->firmware = sysfs_strdup(d, pathf(path, "%s/nvme/%s/firmware_rev",
								   dir, names[i]));
			if (!c->serial)
				c->serial = sysfs_strdup(d, pathf(path, "%s/nvme/%s/serial", dir,
								 names[i]));
		}
		names_free(names, nr);
	}
}

static int add_controller(struct dctx *d, struct names *n, const char *addr)
{
	char dir[PATH_MAX], path[PATH_MAX];
	struct inv_controller *c;
	int64_t numa;

	if (!pathf(dir, "%s/bus/pci/devices/%s", d->sysfs, addr))
		return 0;
	c = inv_add_controller(d->inv);
	if (!c)
		return -ENOMEM;
	c->id = strdup(addr);
	c->pci = strdup(addr);
	c->source = strdup("sysfs");
	if (!c->id || !c->pci || !c->source)
		return -ENOMEM;
	c->model = pci_model(n, (unsigned)sysfs_int(pathf(path, "%s/vendor", dir), 0),
			     (unsigned)sysfs_int(pathf(path, "%s/device", dir), 0),
			     (unsigned)sysfs_int(pathf(path, "%s/subsystem_vendor", dir), 0),
			     (unsigned)sysfs_int(pathf(path, "%s/subsystem_device", dir), 0));
	c->driver = sysfs_link_name(pathf(path, "%s/driver", dir));
	numa = sysfs_int(pathf(path, "%s/numa_node", dir), -1);
	c->numa_node = numa >= 0 ? (int)numa : INV_NO_NUMA;
	c->slot = pci_slot(d, addr);
	read_pcie(dir, &c->pcie);
	/* Bound to a driver is all sysfs says about health; the vendor tool says more. */
	c->status = c->driver ? INV_OK : INV_UNKNOWN;
	if (!c->driver)
		c->status_text = strdup("no driver bound");
	read_firmware(d, c, dir);
	return 0;
}

int discover_controllers(struct dctx *d)
{
	char path[PATH_MAX], **names;
	struct names n = { NULL, 0 };
	size_t nr;
	int ret;

	ret = dir_names(pathf(path, "%s/bus/pci/devices", d->sysfs), &names, &nr);
	if (ret == -ENOENT)
		return 0;	/* no PCI bus: s390, some containers */
	if (ret) {
		snprintf(d->err, d->errlen, "cannot list %s/bus/pci/devices: %s", d->sysfs,
			 strerror(-ret));
		return ret;
	}
	names_open(&n, d->o->pci_ids);
	for (size_t i = 0; i < nr && !ret; i++) {
		int64_t cls = sysfs_int(pathf(path, "%s/bus/pci/devices/%s/class", d->sysfs,
					      names[i]), 0);

		if ((cls >> 16) == PCI_BASE_CLASS_MASS_STORAGE)
			ret = add_controller(d, &n, names[i]);
	}
	names_close(&n);
	names_free(names, nr);
	if (ret)
		snprintf(d->err, d->errlen, "out of memory listing controllers");
	return ret;
}

struct inv_controller *controller_for_pci(struct dctx *d, const char *addr)
{
	struct names n = { NULL, 0 };
	char path[PATH_MAX];
	size_t i;
	int ret;

	for (i = 0; i < d->inv->nr_controllers; i++)
		if (d->inv->controllers[i].pci && !strcmp(d->inv->controllers[i].pci, addr))
			return &d->inv->controllers[i];
	if (!pathf(path, "%s/bus/pci/devices/%s/class", d->sysfs, addr) ||
	    sysfs_int(path, -1) < 0)
		return NULL;
	names_open(&n, d->o->pci_ids);
	ret = add_controller(d, &n, addr);
	names_close(&n);
	return ret ? NULL : &d->inv->controllers[d->inv->nr_controllers - 1];
}
