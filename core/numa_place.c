/*
 * numa_place.c - finds the NUMA node of a job's target from sysfs: the
 * block device's own directory, then up through its parents to the PCI
 * device that carries a numa_node file. Read-only; never prints.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diskstats.h"
#include "numa_place.h"

/* The numa_node of the nearest ancestor of the sysfs directory dir that has one. */
static int node_above(const char *dir)
{
	char path[PATH_MAX + 16], *real = realpath(dir, NULL), *slash;
	int node = -1;

	if (!real)
		return -1;
	while ((slash = strrchr(real, '/')) && slash != real && strcmp(real, "/sys/devices")) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/numa_node", real);
		f = fopen(path, "r");
		if (f) {
			if (fscanf(f, "%d", &node) != 1)
				node = -1;
			fclose(f);
			break;
		}
		*slash = '\0';
	}
	free(real);
	return node;
}

static int node_of(const char *name, int depth)
{
	char dir[PATH_MAX], slaves[32][64];
	size_t i, n;
	int node = -1;

	n = depth < 4 ? diskstat_slaves(name, slaves, 32) : 0;
	if (!n) {
		snprintf(dir, sizeof(dir), "/sys/class/block/%s", name);
		return node_above(dir);
	}
	/* an md array or a dm mapping: the node its devices share, if they share one */
	for (i = 0; i < n; i++) {
		int k = node_of(slaves[i], depth + 1);

		if (k < 0 || (i && k != node))
			return -1;
		node = k;
	}
	return node;
}

int numa_node_of_path(const char *path)
{
	char name[64];

	if (diskstat_name_for_path(path, name, sizeof(name)))
		return -1;
	return node_of(name, 0);
}
