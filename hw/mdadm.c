/*
 * mdadm.c - Linux software RAID through mdadm: `mdadm --detail` and
 * /proc/mdstat into the inventory's md arrays, the live read (`--detail
 * --scan`, then `--detail` of each array), and building create / stop /
 * add / remove / fail / zero-superblock commands (a delete wipes the
 * members' superblocks after the stop).
 *
 * md from sysfs is discovery's (hw/discover*); this file reads what mdadm
 * and the kernel's text say. In /proc/mdstat the number in "sda1[2]" is the
 * member's descriptor, not its slot or role, so slots come only from
 * --detail and roles from the flags: (S) spare, (F) faulty, (R) replacement,
 * (J) the write journal.
 */
#include "raidtool.h"
#include "raidtool_int.h"
#include "raidtool_tools.h"
#include "array.h"
#include "bufcat.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const binaries[] = { "mdadm", NULL };

/* "raid1" -> "1", "raid10" -> "10", "linear"; "raid4" -> "4" (md has it, DESIGN's list not). */
static int set_level(char **dst, const char *md)
{
	const char *n = inv_normalize_raid_level(md);
	char buf[32];

	if (n)
		return rt_set(dst, n);
	snprintf(buf, sizeof(buf), "%s", rt_prefix(md, "raid") ? md + 4 : md);
	return rt_set(dst, *buf ? buf : NULL);
}

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* A descriptor or slot number; one too large for an int is unknown, never a wrapped int. */
static int small_int(const char *s)
{
	long v;

	errno = 0;
	v = strtol(s, NULL, 10);
	return errno || v < 0 || v > INT_MAX ? INV_UNSET : (int)v;
}

/* ---- /proc/mdstat ------------------------------------------------------------ */

struct mdstat_md {
	long idx;		/* into inv->md, -1 when none is open */
	char state[64];		/* "active", "active (auto-read-only)", "inactive" */
	char disks[288];	/* "[3/2] [U_U]", up to 256 slots */
	char action[96];	/* "recovery = 12.6%", "resync=DELAYED" */
	bool degraded;
	bool counted;		/* "[n/w]" seen: working is w */
	unsigned working;
	int desc[256];		/* each member's descriptor number, "sdh1[6]" */
	bool blocks;		/* its "N blocks ..." line seen */
	bool tail;		/* a line after that one (progress, bitmap) */
	size_t line;		/* where its "mdN : ..." line is */
	char head[160];		/* and that line */
};

static bool redundant(const char *lv)
{
	return lv && (!strcmp(lv, "1") || !strcmp(lv, "4") || !strcmp(lv, "5") ||
		      !strcmp(lv, "6") || !strcmp(lv, "10"));
}

/*
 * An active array's "N blocks" line, and for a redundant level its
 * "[n/w] [U_]" state, always follow its name: without them the capture
 * was cut short, and the array's health is not known (never "ok").
 */
static int mdstat_whole(const struct inventory *inv, const struct mdstat_md *m,
			const struct raidtool_src *src, char *err, size_t errlen)
{
	const struct inv_md *md;
	const char *lv;

	if (m->idx < 0)
		return 0;
	md = &inv->md[m->idx];
	if (!*m->state)	/* "md0 : act": the line itself was cut, or garbled */
		return rt_bad_output(err, errlen, src, m->line, m->head, "%s has no active/inactive "
				     "state: the line is cut short or garbled",
				     md->name ? md->name : "an array");
	if (strncmp(m->state, "active", 6))
		return 0;
	lv = md->raid_level ? md->raid_level : "";
	if (!m->blocks)
		return rt_bad_output(err, errlen, src, m->line, m->head, "%s ends before its "
				     "\"N blocks ...\" line: the capture is cut short",
				     md->name ? md->name : "an array");
	if (!m->counted && redundant(lv))
		return rt_bad_output(err, errlen, src, m->line, m->head, "%s (RAID %s) has no "
				     "\"[n/m] [UU]\" member state: the capture is cut short",
				     md->name ? md->name : "an array", lv);
	return 0;
}

/*
 * A member without (S)/(F) holds a slot; "[n/w]" says w of them are in sync.
 * When more hold one, the rest are being rebuilt (md gives a newly added
 * device the next free descriptor, so the highest numbers); mdstat shows
 * nothing else that tells them apart.
 */
static int mdstat_roles(struct inv_md *md, const struct mdstat_md *m)
{
	size_t slotted = 0, n = md->nr_members < 256 ? md->nr_members : 256;
	int ret = 0;

	for (size_t i = 0; i < n; i++)
		slotted += md->members[i].role && !strcmp(md->members[i].role, "active");
	while (!ret && m->counted && slotted > m->working) {
		size_t hi = n;

		for (size_t i = 0; i < n; i++)
			if (md->members[i].role && !strcmp(md->members[i].role, "active") &&
			    (hi == n || m->desc[i] > m->desc[hi]))
				hi = i;
		ret = rt_set(&md->members[hi].role, "rebuilding");
		slotted--;
	}
	return ret;
}

static bool mdstat_rebuilding(const struct inv_md *md)
{
	for (size_t i = 0; i < md->nr_members; i++)
		if (md->members[i].role && !strcmp(md->members[i].role, "rebuilding"))
			return true;
	return false;
}

static int mdstat_finish(struct inventory *inv, struct mdstat_md *m)
{
	struct inv_md *md;
	char text[512];
	double pct = -1;
	int ret;

	if (m->idx < 0)
		return 0;
	md = &inv->md[m->idx];
	if (*m->action)
		pct = rt_percent(m->action);
	if ((ret = mdstat_roles(md, m)))
		return ret;
	if (!strncmp(m->state, "inactive", 8))
		md->status = INV_OFFLINE;
	else if (rt_prefix(m->action, "recovery") || (m->degraded && mdstat_rebuilding(md)))
		md->status = INV_REBUILDING;	/* also "resync=DELAYED" of a rebuild queued */
	else if (rt_prefix(m->action, "reshape"))
		md->status = INV_TRANSFORMING;
	else if (rt_prefix(m->action, "resync") && !m->degraded)
		md->status = INV_INITIALIZING;
	else
		md->status = m->degraded ? INV_DEGRADED : INV_OK;	/* check/repair scrub */
	md->progress_pct = pct;
	snprintf(text, sizeof(text), "%s%s%s%s%s%s", m->state, *m->disks ? " " : "", m->disks,
		 m->degraded ? ", degraded" : "", *m->action ? ", " : "", m->action);
	m->idx = -1;
	return rt_set(&md->status_text, text);
}

static void mdstat_detail(struct inventory *inv, struct mdstat_md *m, char *s);

/*
 * Where " N blocks" starts on an array's own line (2.2-era kernels printed
 * the size and state there), or NULL.
 */
static char *blocks_on_line(char *s)
{
	for (char *b = strstr(s, " blocks"); b; b = strstr(b + 1, " blocks")) {
		char *d = b;

		while (d > s && isdigit((unsigned char)d[-1]))
			d--;
		if (d < b && d > s && d[-1] == ' ' && (!b[7] || b[7] == ' '))
			return d;
	}
	return NULL;
}

/* "md0 : active raid5 sdc1[3](F) sdb1[0] sdd1[2]" */
static int mdstat_array(struct inventory *inv, struct mdstat_md *m, char *s)
{
	char *save = NULL, *t, *colon = strchr(s, ':'), rest[512] = "", *b;
	struct inv_md *md;
	int ret;

	*colon = '\0';
	if ((b = blocks_on_line(colon + 1))) {	/* "... sda5[0] 633984 blocks level 5, ..." */
		snprintf(rest, sizeof(rest), "%s", b);
		*b = '\0';
	}
	md = inv_add_md(inv);
	if (!md)
		return -ENOMEM;
	memset(m, 0, sizeof(*m));
	m->idx = (long)inv->nr_md - 1;
	if ((ret = rt_set(&md->name, rt_trim(s))))
		return ret;
	for (t = strtok_r(colon + 1, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		struct inv_md_member *mem;
		char *br = strchr(t, '[');

		if (!strcmp(t, "active") || !strcmp(t, "inactive")) {
			snprintf(m->state, sizeof(m->state), "%s", t);
		} else if (*t == '(') {
			snprintf(m->state + strlen(m->state), sizeof(m->state) - strlen(m->state),
				 " %s", t);
		} else if (!br) {
			if ((ret = set_level(&md->raid_level, t)))
				return ret;
		} else {
			mem = inv_add_md_member(md);
			if (!mem)
				return -ENOMEM;
			*br = '\0';
			if (md->nr_members <= 256)
				m->desc[md->nr_members - 1] = small_int(br + 1);
			if ((ret = rt_set(&mem->device, t)))
				return ret;
			if (strstr(br + 1, "(F)")) {
				m->degraded = true;
				ret = rt_set(&mem->role, "faulty");
			} else if (strstr(br + 1, "(J)")) {
				/* the write journal of a RAID 4/5/6: no slot, not in [n/w] */
				ret = rt_set(&mem->role, "journal");
			} else {
				/* (R): the replacement a recovery copies a member onto */
				ret = rt_set(&mem->role, strstr(br + 1, "(S)") ? "spare" :
					     strstr(br + 1, "(R)") ? "rebuilding" : "active");
			}
			if (ret)
				return ret;
		}
	}
	if (*rest)
		mdstat_detail(inv, m, rest);
	return 0;
}

/* "[n/w] [U_]" in s: the array's member state */
static void mdstat_counted(struct mdstat_md *m, const char *s)
{
	const char *sq = strstr(s, " [");
	unsigned n, w;

	if (sq && sscanf(sq, " [%u/%u]", &n, &w) == 2) {
		const char *map = strchr(sq + 2, '['), *end = map ? strchr(map, ']') : NULL;
		int len = end ? (int)(end - sq) : (int)strlen(sq + 1);	/* "[n/w] [U_]" only */

		m->counted = true;
		m->working = w;
		snprintf(m->disks, sizeof(m->disks), "%.*s", len, sq + 1);
		m->degraded |= w < n || (map && strchr(map, '_') && (!end || strchr(map, '_') < end));
	}
}

/* The indented lines under an array: size and disks, progress, bitmap. */
static void mdstat_detail(struct inventory *inv, struct mdstat_md *m, char *s)
{
	struct inv_md *md = &inv->md[m->idx];
	size_t digits = strspn(s, "0123456789");
	int64_t sz;
	char *eq;

	if (digits && !strncmp(s + digits, " blocks", 7)) {
		m->blocks = true;
		/* a count past 8 EiB is unknown, never a wrapped size */
		md->size_bytes = rt_scaled(s, 1024, &sz) ? INV_UNSET : sz;
		mdstat_counted(m, s);
		return;
	}
	/* the state wrapped onto the next line: "level 5, 32k chunk, algorithm 2 [4/4] [UUUU]" */
	if (m->blocks && !m->counted)
		mdstat_counted(m, s);
	/* "[==>....]  recovery = 12.6% (37043392/292945152) ...", "resync=DELAYED" */
	for (const char *const *a = (const char *const[]){ "resync", "recovery", "reshape", "check",
							      "repair", NULL }; *a; a++) {
		char *w2 = strstr(s, *a), val[48];

		if (!w2)
			continue;
		eq = w2 + strlen(*a);
		while (*eq == ' ')
			eq++;
		if (*eq != '=')
			continue;
		eq = rt_trim(eq + 1);
		snprintf(val, sizeof(val), "%.*s", (int)strcspn(eq, " "), eq);
		snprintf(m->action, sizeof(m->action), "%s%s%s", *a,
			 isdigit((unsigned char)*val) ? " = " : "=", val);
		return;
	}
}

static int parse_mdstat(struct inventory *inv, const char *text, const struct raidtool_src *src,
			char *err, size_t errlen)
{
	struct mdstat_md m = { .idx = -1 };
	struct rt_lines l;
	bool personalities = false, arrays = false, unused = false;
	int ret;

	ret = rt_lines_split(text, &l);
	for (size_t i = 0; !ret && i < l.nr; i++) {
		char orig[512], *s;
		bool indented = l.v[i][0] == ' ' || l.v[i][0] == '\t';

		snprintf(orig, sizeof(orig), "%s", l.v[i]);
		s = rt_trim(l.v[i]);
		if (!*s)
			continue;
		if (rt_prefix(s, "Personalities")) {
			personalities = true;
		} else if (personalities && !arrays && indented && *s == '[' &&
			   s[strlen(s) - 1] == ']') {
			continue;	/* the Personalities line wrapped: "    [raid4] [raid10]" */
		} else if (!personalities && !arrays && strstr(s, "mdstat")) {
			continue;	/* the prompt a paste starts with: "$ cat /proc/mdstat" */
		} else if (!personalities) {
			ret = rt_bad_output(err, errlen, src, i + 1, rt_trim(orig),
					    "expected 'Personalities :' first");
		} else if (rt_prefix(s, "unused devices")) {
			unused = true;
			ret = mdstat_whole(inv, &m, src, err, errlen) ?: mdstat_finish(inv, &m);
		} else if (!indented && rt_prefix(s, "md") && strchr(s, ':')) {
			arrays = true;
			ret = mdstat_whole(inv, &m, src, err, errlen) ?: mdstat_finish(inv, &m) ?:
			      mdstat_array(inv, &m, s);
			m.line = i + 1;
			snprintf(m.head, sizeof(m.head), "%s", rt_trim(orig));
		} else if (m.idx >= 0) {
			/* a line after the one that gave the size and state */
			bool had = m.blocks && (m.counted || !redundant(inv->md[m.idx].raid_level));

			mdstat_detail(inv, &m, s);	/* unknown lines (bitmap:) add nothing */
			m.tail |= had;
		} else if (!arrays && (rt_prefix(s, "read_ahead") || rt_prefix(s, "Event:"))) {
			continue;	/* 2.4 kernels print these before the arrays */
		} else {
			ret = rt_bad_output(err, errlen, src, i + 1, rt_trim(orig),
					    "a line outside any md array");
		}
	}
	if (!ret && m.idx >= 0 && !unused && !m.tail && redundant(inv->md[m.idx].raid_level)) {
		long last = m.idx;

		/* it ends on the last array's state line: a resync or recovery line may be cut off */
		ret = mdstat_whole(inv, &m, src, err, errlen) ?: mdstat_finish(inv, &m);
		if (!ret && inv->md[last].status == INV_OK) {
			char st[320];

			inv->md[last].status = INV_UNKNOWN;
			snprintf(st, sizeof(st), "%s; the capture ends here, before 'unused "
				 "devices:' (an operation in progress may be cut off)",
				 inv->md[last].status_text ? inv->md[last].status_text : "");
			ret = rt_set(&inv->md[last].status_text, st);
		}
	}
	if (!ret)
		ret = mdstat_whole(inv, &m, src, err, errlen) ?: mdstat_finish(inv, &m);
	if (!ret && !personalities)
		ret = rt_bad_output(err, errlen, src, 0, NULL, "no 'Personalities' line");
	rt_lines_release(&l);
	return ret;
}

/* ---- mdadm --detail ------------------------------------------------------------- */

static enum inv_status detail_state(const char *s)
{
	if (strstr(s, "FAILED"))
		return INV_FAILED;
	if (strstr(s, "inactive"))
		return INV_OFFLINE;
	if (strstr(s, "recovering"))
		return INV_REBUILDING;
	if (strstr(s, "reshaping"))
		return INV_TRANSFORMING;
	/* "clean, degraded, resyncing (PENDING)": degraded first, a resync is milder */
	if (strstr(s, "degraded"))
		return INV_DEGRADED;
	if (strstr(s, "resyncing"))
		return INV_INITIALIZING;
	if (rt_prefix(s, "clean") || rt_prefix(s, "active"))
		return INV_OK;
	return INV_UNKNOWN;
}

/* "    2       8        2        0      spare rebuilding   /dev/sda2" */
static int detail_row(struct inv_md *md, char *s)
{
	char *tok[16], *save = NULL, *t, words[128] = "";
	struct inv_md_member *m;
	size_t n = 0;
	int ret;

	for (t = strtok_r(s, " \t", &save); t && n < 16; t = strtok_r(NULL, " \t", &save))
		tok[n++] = t;
	/* "removed" rows name no device; a member outside any slot (a container's
	 * disk, an inactive array's) has "-" for its number */
	if (n < 5 || (!isdigit((unsigned char)*tok[0]) && strcmp(tok[0], "-")) ||
	    *tok[n - 1] != '/')
		return 0;
	for (size_t i = 4; i + 1 < n; i++)
		snprintf(words + strlen(words), sizeof(words) - strlen(words), " %s", tok[i]);
	m = inv_add_md_member(md);
	if (!m)
		return -ENOMEM;
	if ((ret = rt_set(&m->device, base(tok[n - 1]))))
		return ret;
	m->slot = isdigit((unsigned char)*tok[3]) ? small_int(tok[3]) : INV_UNSET;
	if (strstr(words, "faulty"))
		return rt_set(&m->role, "faulty");
	if (strstr(words, "journal"))
		return rt_set(&m->role, "journal");
	/* "spare rebuilding" holds a slot: the word mdstat and sysfs give it too */
	if (strstr(words, "rebuilding"))
		return rt_set(&m->role, "rebuilding");
	/* no words and no slot: what /proc/mdstat flags (S) (a container's disks) */
	if (!*words && m->slot == INV_UNSET)
		return rt_set(&m->role, "spare");
	return rt_set(&m->role, strstr(words, "spare") ? "spare" : "active");
}

/* The State line weighed with the member rows. A faulty device never leaves
 * its array ok, even with every slot in sync ("clean" and a faulty device
 * kept beside the mirror): it needs a hand, as /proc/mdstat's (F) on a full
 * [n/n] does. */
static void detail_by_members(struct inv_md *md)
{
	for (size_t i = 0; md->status == INV_OK && i < md->nr_members; i++)
		if (md->members[i].role && !strcmp(md->members[i].role, "faulty"))
			md->status = INV_DEGRADED;
	/* degraded with a member being rebuilt into a slot (its recovery pending or
	 * delayed): rebuilding, as /proc/mdstat's degraded map with such a member */
	for (size_t i = 0; md->status == INV_DEGRADED && i < md->nr_members; i++)
		if (md->members[i].role && !strcmp(md->members[i].role, "rebuilding"))
			md->status = INV_REBUILDING;
}

/*
 * --detail ends each array with its member table, one row per device it
 * counts ("Total Devices"): an array without it, or with fewer rows, was
 * cut short, and its State alone ("clean") would hide a faulty device.
 */
static int detail_whole(const struct inventory *inv, long idx, bool table, long total,
			size_t line, const char *head, const struct raidtool_src *src, char *err,
			size_t errlen)
{
	const struct inv_md *md;

	if (idx < 0)
		return 0;
	md = &inv->md[idx];
	if (!table)
		return rt_bad_output(err, errlen, src, line, head, "%s ends before its member table "
				     "('Number Major Minor RaidDevice'): the capture is cut short",
				     md->name ? md->name : "an array");
	if (total >= 0 && md->nr_members < (size_t)total)
		return rt_bad_output(err, errlen, src, line, head, "%s lists %zu of its %ld devices "
				     "(Total Devices): the capture is cut short",
				     md->name ? md->name : "an array", md->nr_members, total);
	return 0;
}

static int parse_detail(struct inventory *inv, const char *text, const struct raidtool_src *src,
			char *err, size_t errlen)
{
	struct rt_lines l;
	long idx = -1, total = -1;
	bool table = false;
	size_t head_line = 0;
	char head[160] = "";
	int ret;

	ret = rt_lines_split(text, &l);
	for (size_t i = 0; !ret && i < l.nr; i++) {
		char orig[512], *s, *k, *v;
		struct inv_md *md;

		snprintf(orig, sizeof(orig), "%s", l.v[i]);
		s = rt_trim(l.v[i]);
		if (!*s)
			continue;
		if (rt_prefix(s, "mdadm:")) {	/* its own complaint, on stderr or merged */
			ret = rt_vendor_error(err, errlen, src, "%s", s);
			break;
		}
		if (*s == '/' && s[strlen(s) - 1] == ':') {
			if ((ret = detail_whole(inv, idx, table, total, head_line, head, src, err,
						errlen)))
				break;
			head_line = i + 1;
			snprintf(head, sizeof(head), "%s", s);
			total = -1;
			s[strlen(s) - 1] = '\0';
			md = inv_add_md(inv);
			if (!md || rt_set(&md->name, base(s))) {
				ret = -ENOMEM;
				break;
			}
			idx = (long)inv->nr_md - 1;
			table = false;
			continue;
		}
		if (idx < 0 && strstr(s, "mdadm ") && (strstr(s, " -D") || strstr(s, "--detail")))
			continue;	/* the prompt a paste starts with: "$ sudo mdadm -D /dev/md2" */
		if (idx < 0) {
			ret = rt_bad_output(err, errlen, src, i + 1, rt_trim(orig),
					    "expected the '/dev/mdN:' header first");
			break;
		}
		md = &inv->md[idx];
		if (rt_prefix(s, "Number") && strstr(s, "RaidDevice")) {
			table = true;
			continue;
		}
		if (table) {
			ret = detail_row(md, s);
			continue;
		}
		if (!rt_kv(s, &k, &v))
			continue;
		if (!strcmp(k, "Magic")) {	/* a member's superblock: --examine */
			ret = rt_bad_output(err, errlen, src, i + 1, rt_trim(orig),
					    "this is `mdadm --examine` (one member device's "
					    "superblock), not `mdadm --detail` of an array: import "
					    "`mdadm --detail /dev/mdN` or /proc/mdstat");
			break;
		}
		if (!strcmp(k, "Total Devices") && isdigit((unsigned char)*v)) {
			total = small_int(v);
		} else if (!strcmp(k, "Raid Level")) {
			ret = set_level(&md->raid_level, v);
		} else if (!strcmp(k, "Array Size")) {
			int64_t sz;
			int rc = rt_scaled(v, 1024, &sz);	/* KiB */

			if (rc == -ERANGE) {
				ret = rt_bad_output(err, errlen, src, i + 1, rt_trim(orig),
						    "the array size is beyond 8 EiB");
				break;
			}
			md->size_bytes = rc ? INV_UNSET : sz;
		} else if (!strcmp(k, "State")) {
			md->status = detail_state(v);
			ret = rt_set(&md->status_text, v);
		} else if (strstr(k, " Status") && rt_percent(v) >= 0) {
			/* Rebuild / Resync / Reshape / Check Status : 30% complete */
			md->progress_pct = rt_percent(v);
		}
	}
	rt_lines_release(&l);
	if (!ret && idx < 0)
		ret = rt_bad_output(err, errlen, src, 0, NULL, "no md array in it");
	if (!ret)
		ret = detail_whole(inv, idx, table, total, head_line, head, src, err, errlen);
	for (size_t i = 0; !ret && i < inv->nr_md; i++)
		detail_by_members(&inv->md[i]);
	return ret;
}

static int md_parse(struct inventory *inv, const char *text, const struct raidtool_src *src,
		    char *err, size_t errlen)
{
	if (src->cmd && !strcmp(src->cmd, RT_MDSTAT))
		return parse_mdstat(inv, text, src, err, errlen);
	return parse_detail(inv, text, src, err, errlen);
}

/* `mdadm --detail --scan`, then `mdadm --detail DEV` of every ARRAY line. */
static int md_read(const char *bin, struct inventory *inv, const struct raidtool_src *src,
		   const struct raidtool_ctl *ctl, char *err, size_t errlen)
{
	const char *scan[] = { bin, "--detail", "--scan", NULL };
	struct raidtool_run run;
	struct rt_lines l;
	char msg[768];
	int ret;

	ret = raidtool_exec_ctl(scan, ctl, &run, msg, sizeof(msg));
	if (ret) {
		snprintf(err, errlen, "mdadm: %s", msg);
		raidtool_run_release(&run);
		return ret;
	}
	if (run.status != 0) {
		ret = rt_run_failed(err, errlen, "mdadm --detail --scan", &run);
		raidtool_run_release(&run);
		return ret;
	}
	ret = rt_lines_split(run.out, &l);
	raidtool_run_release(&run);
	for (size_t i = 0; !ret && i < l.nr; i++) {
		char dev[256], *s = rt_trim(l.v[i]);
		const char *detail[] = { "--detail", dev, NULL };
		const char *const *const cmds[] = { detail, NULL };

		if (sscanf(s, "ARRAY %255s", dev) != 1 || *dev != '/')
			continue;
		ret = rt_read_cmds(&raidtool_mdadm, bin, cmds, inv, src, ctl, err, errlen);
	}
	rt_lines_release(&l);
	return ret;
}

/* ---- changes --------------------------------------------------------------------- */

/* "md0" -> "/dev/md0" */
static int push_md(struct raidtool_argv *av, const char *md)
{
	return raidtool_argv_push(av, "%s%s", *md == '/' ? "" : "/dev/", md);
}

static int push_all(struct raidtool_argv *av, char *const *v, size_t nr)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < nr; i++)
		ret = raidtool_argv_push(av, "%s", v[i]);
	return ret;
}

/* "/dev/md0", "md0", "/dev/md/0" -> "md0" */
static const char *md_short(const char *s)
{
	return !strncmp(s, "/dev/md/", 8) ? s + 8 : base(s);
}

/*
 * Stopping an array leaves every member's superblock: the drives still read
 * as md members (not write-safe) and the array assembles again at the next
 * boot. mdadm's misc mode applies each mode to the devices named after it,
 * so one run stops the array, then wipes its members.
 */
static int push_delete(struct raidtool_argv *av, const char *ld, const struct inventory *inv)
{
	const struct inv_md *md = NULL;
	int ret;

	for (size_t i = 0; inv && i < inv->nr_md && !md; i++)
		if (inv->md[i].name && !strcmp(inv->md[i].name, md_short(ld)))
			md = &inv->md[i];
	ret = raidtool_argv_push(av, "--stop") ?: push_md(av, ld);
	if (ret || !md || !md->nr_members)
		return ret;
	ret = raidtool_argv_push(av, "--zero-superblock");
	for (size_t i = 0; !ret && i < md->nr_members; i++)
		if (md->members[i].device)
			ret = raidtool_argv_push(av, "/dev/%s", md->members[i].device);
	return ret;
}

static int md_build(const struct array_op *op, const struct inventory *inv,
		    struct raidtool_argv *av, char *err, size_t errlen)
{
	int ret;

	switch (op->verb) {
	case ARRAY_CREATE:
		/* --run: no "Continue creating array?" on stdin; consent was --yes */
		ret = raidtool_argv_push(av, "--create") ?: push_md(av, op->name) ?:
		      raidtool_argv_push(av, "--run") ?: raidtool_argv_push(av, "--level=%s", op->level) ?:
		      raidtool_argv_push(av, "--raid-devices=%zu", op->nr_drives);
		if (!ret && op->nr_spares)
			ret = raidtool_argv_push(av, "--spare-devices=%zu", op->nr_spares);
		if (!ret && op->strip_bytes > 0)
			ret = raidtool_argv_push(av, "--chunk=%lldK", (long long)(op->strip_bytes / 1024));
		if (!ret && op->size_bytes > 0)
			ret = raidtool_argv_push(av, "--size=%lld", (long long)(op->size_bytes / 1024));
		return ret ?: push_all(av, op->drives, op->nr_drives) ?:
		       push_all(av, op->spares, op->nr_spares);
	case ARRAY_DELETE:
		return push_delete(av, op->ld, inv);
	case ARRAY_ADD_SPARE:
	case ARRAY_REMOVE_SPARE:
	case ARRAY_FAIL:
		return push_md(av, op->ld) ?:
		       raidtool_argv_push(av, op->verb == ARRAY_ADD_SPARE ? "--add" :
					      op->verb == ARRAY_REMOVE_SPARE ? "--remove" : "--fail") ?:
		       push_all(av, op->drives, op->nr_drives);
	case ARRAY_ERASE:
		return raidtool_argv_push(av, "--zero-superblock") ?:
		       push_all(av, op->drives, op->nr_drives);
	default:
		snprintf(err, errlen, "mdadm has no controller mode: md runs on any drives the "
			 "kernel sees");
		return -EOPNOTSUPP;
	}
}

/* mdadm says what went wrong on stderr, one "mdadm: ..." line each. */
static int md_check(const struct raidtool_run *run, char *err, size_t errlen)
{
	struct rt_lines l;
	size_t n = 0;

	if (!run->timed_out && run->status == 0)
		return 0;
	if (run->timed_out || !run->errout || rt_lines_split(run->errout, &l))
		return rt_run_failed(err, errlen, "mdadm", run);
	err[0] = '\0';
	for (size_t i = 0; i < l.nr && n < errlen; i++) {
		char *s = rt_trim(l.v[i]);

		if (*s)
			n = bufcat(err, errlen, n, "%s%s", n ? " " : "", s);
	}
	rt_lines_release(&l);
	if (!n)
		return rt_run_failed(err, errlen, "mdadm", run);
	return -EIO;
}

static const char *const levels[] = { "0", "1", "10", "4", "5", "6", "linear", NULL };

/* mdadm(8): what --create accepts */
static const struct raidtool_level rules[] = {
	{ "0", 2, 1 }, { "1", 2, 1 }, { "10", 2, 1 }, { "4", 3, 1 }, { "5", 3, 1 },
	{ "6", 4, 1 }, { "linear", 1, 1 }, { NULL, 0, 0 },
};

/* --detail first: the form `--import mdadm:FILE` means */
static const struct raidtool_import imports[] = {
	{ "mdadm-detail", "--detail" }, { "mdstat", RT_MDSTAT }, { NULL, NULL },
};

const struct raid_tool_ops raidtool_mdadm = {
	.name = "mdadm",
	.binaries = binaries,
	.read = md_read,
	.parse = md_parse,
	.imports = imports,
	.controller_id = NULL,
	.levels = levels,
	.rules = rules,
	.strip_min_kib = 4,
	.build = md_build,
	.check = md_check,
};
