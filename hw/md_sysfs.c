/*
 * md_sysfs.c - Linux software RAID arrays as the md driver shows them in
 * SYSFS/block/mdN/md/ (Documentation/admin-guide/md.rst): level, members
 * with their slot and state, array_state, degraded, sync_action and
 * sync_completed. So an array's health shows without mdadm installed.
 *
 * Status follows DESIGN's normalized words and keeps mdadm-like words as
 * status_text ("clean, degraded, recovering"). A member being rebuilt is
 * role "rebuilding" with the slot it is rebuilding (mdadm's "spare
 * rebuilding", /proc/mdstat's member past "[n/w]"); a failed member is
 * "faulty"; a RAID 4/5/6 write journal is "journal" (its state says
 * "journal", its slot reads "journal"; /proc/mdstat's (J)), never a data
 * member: it holds no slot and md's degraded count leaves it out.
 *
 * Read-only; never prints.
 */
#include "discover_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* sync_action -> the word mdadm's State line uses */
static const struct {
	const char *action;
	const char *word;
	enum inv_status status;
} actions[] = {
	{ "resync", "resyncing", INV_INITIALIZING },
	{ "recover", "recovering", INV_REBUILDING },
	{ "reshape", "reshaping", INV_TRANSFORMING },
	{ "check", "checking", INV_OK },	/* a scrub of a healthy array */
	{ "repair", "repairing", INV_OK },
};

/* "123 / 456" sectors done of total -> percent, truncated to 0.1 like /proc/mdstat. */
static double sync_progress(const char *mddir)
{
	char path[PATH_MAX], buf[96];
	unsigned long long done, total;

	if (sysfs_read(pathf(path, "%s/sync_completed", mddir), buf, sizeof(buf)) ||
	    sscanf(buf, "%llu / %llu", &done, &total) != 2 || !total || done > total)
		return -1;
	/* in double: done * 1000 wraps past 1.8e16 sectors */
	return (double)(long long)((double)done / (double)total * 1000.0) / 10.0;
}

static void md_status(struct inv_md *md, const char *mddir)
{
	char path[PATH_MAX], state[64], action[32], text[160];
	int64_t degraded = sysfs_int(pathf(path, "%s/degraded", mddir), 0);
	const char *word = NULL;

	if (sysfs_read(pathf(path, "%s/array_state", mddir), state, sizeof(state)))
		return;
	if (sysfs_read(pathf(path, "%s/sync_action", mddir), action, sizeof(action)))
		snprintf(action, sizeof(action), "idle");
	md->status = INV_OK;
	for (size_t i = 0; i < sizeof(actions) / sizeof(actions[0]); i++) {
		if (!strcmp(action, actions[i].action)) {
			word = actions[i].word;
			md->status = actions[i].status;
			md->progress_pct = sync_progress(mddir);
		}
	}
	if (degraded > 0 && md->status != INV_REBUILDING)
		md->status = INV_DEGRADED;
	if (!strcmp(state, "inactive") || !strcmp(state, "clear"))
		md->status = INV_OFFLINE;
	else if (!strcmp(state, "broken"))
		md->status = INV_FAILED;
	snprintf(text, sizeof(text), "%s%s%s%s", state, degraded > 0 ? ", degraded" : "",
		 word ? ", " : "", word ? word : "");
	md->status_text = strdup(text);
}

static int add_member(struct inv_md *md, const char *mddir, const char *dev)
{
	char path[PATH_MAX], state[128];
	struct inv_md_member *m;
	int64_t slot;

	m = inv_add_md_member(md);
	if (!m)
		return -ENOMEM;
	/* dev-sdb1/block links to the member's block device */
	m->device = sysfs_link_name(pathf(path, "%s/%s/block", mddir, dev));
	if (!m->device)
		m->device = strdup(dev + 4);
	if (sysfs_read(pathf(path, "%s/%s/state", mddir, dev), state, sizeof(state)))
		state[0] = '\0';
	slot = sysfs_int(pathf(path, "%s/%s/slot", mddir, dev), INV_UNSET);	/* "none" */
	m->slot = slot >= 0 ? (int)slot : INV_UNSET;
	/* md prints "spare" for any working member not in sync: holding a slot, it is rebuilt */
	if (strstr(state, "faulty"))
		m->role = strdup("faulty");
	else if (strstr(state, "journal"))	/* before in_sync: a journal may be both */
		m->role = strdup("journal");
	else if (strstr(state, "in_sync"))
		m->role = strdup("active");
	else if (strstr(state, "spare"))
		m->role = strdup(m->slot != INV_UNSET ? "rebuilding" : "spare");
	return m->device ? 0 : -ENOMEM;
}

static int add_md(struct inventory *inv, const char *sysfs, const char *name)
{
	char dir[PATH_MAX], mddir[PATH_MAX], path[PATH_MAX], level[32], **devs;
	const char *norm;
	struct inv_md *md;
	int64_t sectors;
	size_t nr;
	int ret = 0;

	if (!pathf(dir, "%s/block/%s", sysfs, name) || !pathf(mddir, "%s/md", dir) ||
	    access(mddir, F_OK))
		return 0;
	md = inv_add_md(inv);
	if (!md)
		return -ENOMEM;
	md->name = strdup(name);
	if (!md->name)
		return -ENOMEM;
	if (!sysfs_read(pathf(path, "%s/level", mddir), level, sizeof(level))) {
		norm = inv_normalize_raid_level(level);
		/* raid4, multipath, container: not in DESIGN's list, so the kernel's word */
		md->raid_level = strdup(norm ? norm : level);
	}
	sectors = sysfs_int(pathf(path, "%s/size", dir), -1);
	md->size_bytes = sectors >= 0 && sectors <= INT64_MAX / 512 ? sectors * 512 : INV_UNSET;
	md_status(md, mddir);
	if (dir_names(mddir, &devs, &nr))
		return 0;
	for (size_t i = 0; i < nr && !ret; i++)
		if (!strncmp(devs[i], "dev-", 4))
			ret = add_member(md, mddir, devs[i]);
	names_free(devs, nr);
	return ret;
}

int md_sysfs_discover(struct inventory *inv, const char *sysfs_root, char *err, size_t errlen)
{
	char path[PATH_MAX], **names;
	size_t nr;
	int ret;

	ret = dir_names(pathf(path, "%s/block", sysfs_root), &names, &nr);
	if (ret) {
		if (err && errlen)
			snprintf(err, errlen, "cannot list %s/block: %s", sysfs_root,
				 strerror(-ret));
		return ret;
	}
	for (size_t i = 0; i < nr && !ret; i++)
		if (!strncmp(names[i], "md", 2))
			ret = add_md(inv, sysfs_root, names[i]);
	names_free(names, nr);
	if (ret && err && errlen)
		snprintf(err, errlen, "out of memory listing md arrays");
	return ret;
}
