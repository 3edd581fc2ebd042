/*
 * identity.h - a run target's identity for its saved result (results.h
 * struct results_identity): device, model, serial, WWID, PCI controller,
 * md or hpsa RAID level, chunk and members, file system. Reads sysfs,
 * /proc/self/mountinfo and a read-only libblkid probe; writes nothing.
 */
#ifndef RB_IDENTITY_H
#define RB_IDENTITY_H

struct results_identity;

/* The identity of the file or block device at path; a results_identify_fn. 0 or -errno. */
int identity_probe(const char *path, struct results_identity *id);

/*
 * What sysfs says about one whole disk, given its directory
 * (/sys/devices/.../block/sda, or a recorded tree in tests): model,
 * serial, WWID, controller, RAID level, chunk and members.
 */
void identity_disk(const char *disk_dir, struct results_identity *id);

#endif
