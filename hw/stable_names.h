/*
 * stable_names.h - a disk's stable names, as sysadmins type them:
 * /dev/disk/by-id/... and /dev/disk/by-path/..., taken from udev's database
 * when udevd has filled it, and otherwise derived from sysfs the way udev's
 * 60-persistent-storage.rules, ata_id, scsi_id and path_id name disks
 * (systemd 252): ata-MODEL_SERIAL, wwn-0x..., nvme-WWID, nvme-MODEL_SERIAL
 * (and _NSID), scsi-ID, virtio-SERIAL; pci-ADDR-ata-P.T (and the older
 * pci-ADDR-ata-P), pci-ADDR-nvme-NSID, pci-ADDR-scsi-H:C:T:L, pci-ADDR and
 * virtio-pci-ADDR; a partition's names end in -partN.
 *
 * Names are for showing and choosing only: nothing decides safety on them
 * (the write guard resolves whatever path it is given). Where udev would
 * need something sysfs does not show (a USB, SAS, FC or iSCSI transport),
 * no name is derived rather than one guessed. Read-only; never prints.
 */
#ifndef RB_STABLE_NAMES_H
#define RB_STABLE_NAMES_H

#include <stddef.h>
#include <sys/types.h>

struct sn_dev {
	const char *dir;	/* the disk's resolved sysfs directory */
	const char *name;	/* its kernel name: "sda", "nvme0n1", "vda" */
	const char *pci;	/* the PCI function it hangs off ("0000:00:1f.2"), NULL if none */
	const char *dev_root;	/* "/dev": names are DEV_ROOT/disk/by-id/... */
	int partno;		/* 0 for the disk; N for its partition N (names end in -partN) */
};

/*
 * Appends the derived names to *names (by-id first, then by-path, each
 * sorted, no duplicates). 0, or -ENOMEM.
 */
int stable_names_derive(const struct sn_dev *d, char ***names, size_t *nr);

/*
 * udev's own links of block device dev under /dev/disk/by-id and by-path
 * (its DEVLINKS), sorted as above. 1 when udevd's database has the device
 * (the list may then be empty), 0 when it has not (no udevd, not yet
 * processed), -ENOMEM.
 */
int stable_names_udev(dev_t dev, char ***names, size_t *nr);

#endif
