/*
 * numa_place.h - the NUMA node a job's target lives on, so that its workers
 * and their I/O buffers run next to the controller that serves it.
 */
#ifndef RB_NUMA_PLACE_H
#define RB_NUMA_PLACE_H

/*
 * The node of the device behind path (a block device, a partition, or a
 * file's file system): the numa_node of the nearest device above it in
 * sysfs (its PCI controller); for a device built on others (md, dm) the
 * node they all share. -1 when unknown, mixed or not NUMA.
 */
int numa_node_of_path(const char *path);

#endif
