/*
 * guard_mtd.c - whether raw flash (an MTD character device, /dev/mtdN) is
 * in use: attached to UBI (UBI owns every erase block; ubifs lives in its
 * volumes), or mounted directly (jffs2 mounts by mtdN, mtd:NAME or
 * /dev/mtdblockN all carry the mtdblock device number, 31:N). Reads sysfs
 * only; mounts come from the guard's view of the system.
 */
#include "guard_int.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

/* mtdblock's major (MTD_BLOCK_MAJOR): jffs2 superblocks carry it with the flash's index */
#define RB_MTD_BLOCK_MAJOR 31

void guard_check_mtd(const struct sysview *v, unsigned index, const char *subject,
		     struct reasons *rs)
{
	char path[300], at[256];
	struct dirent *de;
	unsigned num;
	DIR *d;
	FILE *f;

	d = opendir("/sys/class/ubi");
	while (d && (de = readdir(d))) {
		/* ubiN is an attachment; ubiN_M are its volumes */
		if (strncmp(de->d_name, "ubi", 3) || strchr(de->d_name, '_') ||
		    de->d_name[3] < '0' || de->d_name[3] > '9')
			continue;
		snprintf(path, sizeof(path), "/sys/class/ubi/%s/mtd_num", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%u", &num) == 1 && num == index)
			reason_add(rs, GUARD_NEVER, R_HOLDER, true, subject,
				   "is attached to UBI as %s (its volumes live on this flash)",
				   de->d_name);
		fclose(f);
	}
	if (d)
		closedir(d);
	if (sysview_mounted_at(v, makedev(RB_MTD_BLOCK_MAJOR, index), at, sizeof(at)))
		reason_add(rs, GUARD_NEVER, R_MOUNT, true, subject, "is mounted at %s", at);
}
