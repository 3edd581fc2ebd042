/*
 * megacli.c - the legacy LSI MegaCli / MegaCli64, read-only: `-LDPDInfo
 * -aAll -NoLog` (virtual drives with their member drives) and `-PDList
 * -aALL -NoLog` (every drive) into the inventory, for older cards such as
 * the PERC H700 of seeds/001. Changes go through storcli, which drives the
 * same controllers.
 *
 * The grammar is "Key: Value" with free padding ("State: Optimal",
 * "State               : Optimal", "Name:OS"), grouped under "Adapter #N";
 * a virtual drive opens at "Virtual Drive:" / "Virtual Disk:", a drive at
 * "Enclosure Device ID:". A drive's array comes from "Drive's position:
 * DiskGroup: N"; drives -PDList lists without one, in use by some array,
 * stay in an array without id.
 */
#include "raidtool.h"
#include "raidtool_int.h"
#include "raidtool_tools.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const binaries[] = { "MegaCli64", "MegaCli", "megacli", NULL };

struct mpd {
	struct inv_pd pd;
	char enc[16], slot[16];
	long dg;
	char *fw;		/* "Online, Spun Up" */
	long predictive;
	bool open;
};

struct mvd {
	struct inv_ld ld;
	char *level;		/* "Primary-1, Secondary-0, RAID Level Qualifier-0" */
	long span_depth;
	struct inv_pd *pds;	/* its member drives, placed when the block ends */
	size_t nr_pds;
	long dg;
	bool open;
};

struct mc {
	struct inventory *inv;
	const struct raidtool_src *src;
	char *err;
	size_t errlen;
	long ctrl;
	struct mvd vd;
	struct mpd pd;
	bool any;
};

/* ---- drives ---------------------------------------------------------------- */

/* "Online, Spun Up" -> status and role. */
static enum inv_status fw_state(const char *s, const char **role)
{
	static const struct {
		const char *prefix, *role;
		enum inv_status st;
	} t[] = {
		{ "Online", "data", INV_OK },
		{ "Unconfigured(good)", "unassigned", INV_OK },
		{ "Unconfigured(bad)", "unassigned", INV_FAILED },
		{ "Hotspare", "spare", INV_OK },
		{ "JBOD", "passthrough", INV_OK },
		{ "Rebuild", "data", INV_REBUILDING },
		{ "Copyback", "data", INV_REBUILDING },
		{ "Failed", NULL, INV_FAILED },
		{ "Offline", NULL, INV_OFFLINE },
		{ "Missing", NULL, INV_OFFLINE },
	};

	*role = NULL;
	for (size_t i = 0; s && i < sizeof(t) / sizeof(t[0]); i++)
		if (rt_prefix(s, t[i].prefix)) {
			*role = t[i].role;
			return t[i].st;
		}
	return INV_UNKNOWN;
}

/* "894.252 GB [0x6fc81ab0 Sectors]": the sector count is exact. */
static int64_t mega_size(const char *s)
{
	const char *b = strstr(s, "[0x");
	unsigned long long sectors;

	if (b && sscanf(b, "[0x%llx Sectors]", &sectors) == 1)	/* past 8 EiB: unknown, not wrapped */
		return sectors <= (unsigned long long)(INT64_MAX / 512) ? (int64_t)sectors * 512 : INV_UNSET;
	return inv_parse_vendor_size(s, 1024);
}

/*
 * Inquiry Data: a SATA drive says "SERIAL  MODEL  FIRMWARE", a SAS drive
 * "VENDOR  PRODUCT  REVISION+SERIAL". Only the unambiguous parts are kept.
 */
static int inquiry(struct inv_pd *pd, const char *s)
{
	char buf[256], *tok[16], *save = NULL, *t;
	size_t n = 0;
	int ret = 0;

	snprintf(buf, sizeof(buf), "%s", s);
	for (t = strtok_r(buf, " \t", &save); t && n < 16; t = strtok_r(NULL, " \t", &save))
		tok[n++] = t;
	if (n < 2)
		return 0;
	if (pd->interface && !strcmp(pd->interface, "SATA") && n >= 3) {
		char model[200] = "";

		ret = rt_fill(&pd->serial, tok[0]);
		for (size_t i = 1; i + 1 < n; i++)
			snprintf(model + strlen(model), sizeof(model) - strlen(model), "%s%s",
				 i > 1 ? " " : "", tok[i]);
		return ret ?: rt_fill(&pd->model, model);
	}
	if (n >= 3) {
		char model[200];

		snprintf(model, sizeof(model), "%s %s", tok[0], tok[1]);
		return rt_fill(&pd->model, model);
	}
	return 0;
}

static void pd_reset(struct mpd *d)
{
	inv_pd_release(&d->pd);
	free(d->fw);
	memset(d, 0, sizeof(*d));
	d->pd.size_bytes = INV_UNSET;
	d->pd.status = INV_UNKNOWN;
	d->dg = -1;
}

static int need_ctrl(struct mc *p)
{
	struct inv_controller *c;

	if (p->ctrl >= 0)
		return 0;
	c = rt_controller(p->inv, "megacli", NULL);
	if (!c)
		return -ENOMEM;
	p->ctrl = c - p->inv->controllers;
	return 0;
}

#define CTRL(p) (&(p)->inv->controllers[(p)->ctrl])

/* A drive block ended: into its virtual drive's list, or placed by its state. */
static int pd_flush(struct mc *p)
{
	struct mpd *d = &p->pd;
	struct inv_pd *dst, **list;
	const char *role;
	struct rt_pd_ref ref;
	size_t *nr;
	char id[40];
	int ret;

	if (!d->open)
		return 0;
	if ((ret = need_ctrl(p)))
		return ret;
	snprintf(id, sizeof(id), "%s:%s", d->enc, d->slot);
	d->pd.status = fw_state(d->fw, &role);
	if (d->predictive > 0 && d->pd.status == INV_OK)
		d->pd.status = INV_PREDICTIVE_FAILURE;
	ret = rt_set(&d->pd.id, id) ?: rt_set(&d->pd.status_text, d->fw) ?:
	      rt_set(&d->pd.role, role);
	if (ret)
		return ret;
	if (p->vd.open) {
		dst = inv_add_pd(&p->vd.pds, &p->vd.nr_pds);
		if (!dst)
			return -ENOMEM;
		if (p->vd.dg < 0)
			p->vd.dg = d->dg;
		*dst = d->pd;
		memset(&d->pd, 0, sizeof(d->pd));
		pd_reset(d);
		return 0;
	}
	if (rt_pd_find(CTRL(p), id, &ref)) {	/* -PDList after -LDPDInfo: details only */
		rt_pd_merge(rt_pd_at(&ref), &d->pd);
		pd_reset(d);
		return 0;
	}
	if (role && !strcmp(role, "passthrough")) {
		list = &CTRL(p)->passthrough;
		nr = &CTRL(p)->nr_passthrough;
	} else if (role && (!strcmp(role, "unassigned") || !strcmp(role, "spare"))) {
		list = &CTRL(p)->unassigned;
		nr = &CTRL(p)->nr_unassigned;
	} else {
		struct inv_array *a;
		char dg[24];

		snprintf(dg, sizeof(dg), "%ld", d->dg);
		a = rt_array(CTRL(p), d->dg >= 0 ? dg : NULL);
		if (!a)
			return -ENOMEM;
		list = &a->pds;
		nr = &a->nr_pds;
	}
	dst = rt_pd_full(CTRL(p)) ? NULL : inv_add_pd(list, nr);
	if (!dst)
		return -ENOMEM;
	*dst = d->pd;
	memset(&d->pd, 0, sizeof(d->pd));
	pd_reset(d);
	return 0;
}

static int pd_kv(struct mc *p, const char *k, const char *v)
{
	struct mpd *d = &p->pd;

	if (!strcmp(k, "Slot Number"))
		snprintf(d->slot, sizeof(d->slot), "%s", v);
	else if (!strcmp(k, "Drive's position"))
		sscanf(v, "DiskGroup: %ld", &d->dg);
	else if (!strcmp(k, "WWN"))
		return rt_set(&d->pd.wwn, v);
	else if (!strcmp(k, "PD Type"))
		return rt_set(&d->pd.interface, v);
	else if (!strcmp(k, "Raw Size"))
		d->pd.size_bytes = mega_size(v);
	else if (!strcmp(k, "Firmware state"))
		return rt_set(&d->fw, v);
	else if (!strcmp(k, "Inquiry Data"))
		return inquiry(&d->pd, v);
	else if (!strcmp(k, "Media Type"))
		return rt_set(&d->pd.media, strcasestr(v, "Solid State") ? "ssd" :
					    strcasestr(v, "Hard Disk") ? "hdd" : NULL);
	else if (!strcmp(k, "Predictive Failure Count"))
		d->predictive = strtol(v, NULL, 10);
	return 0;
}

/* ---- virtual drives ------------------------------------------------------------ */

static void vd_reset(struct mvd *vd)
{
	free(vd->ld.id);
	free(vd->ld.raid_level);
	free(vd->ld.status_text);
	free(vd->ld.os_device);
	free(vd->level);
	for (size_t i = 0; i < vd->nr_pds; i++)
		inv_pd_release(&vd->pds[i]);
	free(vd->pds);
	memset(vd, 0, sizeof(*vd));
	vd->ld.size_bytes = INV_UNSET;
	vd->ld.strip_size_bytes = INV_UNSET;
	vd->ld.status = INV_UNKNOWN;
	vd->ld.progress_pct = -1;
	vd->dg = -1;
}

static int vd_flush(struct mc *p)
{
	struct mvd *vd = &p->vd;
	const char *level;
	struct inv_array *a;
	struct inv_ld *ld;
	char dg[24];
	int ret = 0;

	if (!vd->open)
		return 0;
	if ((ret = need_ctrl(p)))
		return ret;
	level = inv_normalize_raid_level(vd->level);
	/* the same primary over several spans is the spanned level */
	if (level && vd->span_depth > 1)
		level = !strcmp(level, "1") ? "10" : !strcmp(level, "5") ? "50" :
			!strcmp(level, "6") ? "60" : level;
	if ((ret = rt_set(&vd->ld.raid_level, level)))
		return ret;
	for (size_t i = 0; i < vd->nr_pds; i++)
		if (vd->pds[i].status == INV_REBUILDING && vd->ld.status == INV_DEGRADED)
			vd->ld.status = INV_REBUILDING;
	snprintf(dg, sizeof(dg), "%ld", vd->dg);
	/* without a drive group each virtual drive is its own array: never lumped */
	a = vd->dg >= 0 ? rt_array(CTRL(p), dg) : inv_add_array(CTRL(p));
	if (!a)
		return -ENOMEM;
	ld = inv_add_ld(a);
	if (!ld)
		return -ENOMEM;
	*ld = vd->ld;
	memset(&vd->ld, 0, sizeof(vd->ld));
	for (size_t i = 0; i < vd->nr_pds; i++) {
		struct inv_pd *d = rt_pd_place(CTRL(p), vd->pds[i].id, &a->pds, &a->nr_pds);

		if (!d)
			return -ENOMEM;
		rt_pd_merge(d, &vd->pds[i]);
	}
	vd_reset(vd);
	return 0;
}

static enum inv_status vd_state(const char *s)
{
	if (!strcasecmp(s, "Optimal"))
		return INV_OK;
	if (!strcasecmp(s, "Degraded") || !strcasecmp(s, "Partially Degraded"))
		return INV_DEGRADED;
	if (!strcasecmp(s, "Offline"))
		return INV_FAILED;
	return INV_UNKNOWN;
}

static int vd_kv(struct mc *p, const char *k, const char *v)
{
	struct mvd *vd = &p->vd;

	if (!strcmp(k, "RAID Level"))
		return rt_set(&vd->level, v);
	if (!strcmp(k, "Size"))
		vd->ld.size_bytes = inv_parse_vendor_size(v, 1024);
	else if (!strcmp(k, "State")) {
		vd->ld.status = vd_state(v);
		return rt_set(&vd->ld.status_text, v);
	} else if (!strcmp(k, "Strip Size") || !strcmp(k, "Stripe Size"))
		vd->ld.strip_size_bytes = inv_parse_vendor_size(v, 1024);
	else if (!strcmp(k, "Span Depth"))
		vd->span_depth = strtol(v, NULL, 10);
	return 0;
}

/* ---- the parser -------------------------------------------------------------- */

static int flush_all(struct mc *p)
{
	return pd_flush(p) ?: vd_flush(p);
}

static int parse_line(struct mc *p, char *s, size_t lineno, const char *orig)
{
	char *k, *v;
	int ret;
	long n;

	if (rt_prefix(s, "Adapter")) {
		struct inv_controller *c;
		char id[32];

		if (sscanf(s, "Adapter #%ld", &n) != 1 && sscanf(s, "Adapter %ld", &n) != 1)
			return 0;
		if ((ret = flush_all(p)))
			return ret;
		snprintf(id, sizeof(id), "a%ld", n);
		c = rt_controller(p->inv, "megacli", id);
		if (!c)
			return -ENOMEM;
		p->ctrl = c - p->inv->controllers;
		p->any = true;
		return 0;
	}
	if (!rt_kv(s, &k, &v))
		return 0;
	if (!strcmp(k, "Exit Code")) {
		if (strtol(v, NULL, 16) != 0)
			inv_add_note(p->inv, "%s `%s`: Exit Code %s", p->src->tool, p->src->cmd, v);
		return flush_all(p);
	}
	if (!strcmp(k, "Virtual Drive") || !strcmp(k, "Virtual Disk")) {
		char id[32];

		if ((ret = flush_all(p)))
			return ret;
		if (sscanf(v, "%31[0-9]", id) != 1)
			return rt_bad_output(p->err, p->errlen, p->src, lineno, orig,
					     "a virtual drive without a number");
		vd_reset(&p->vd);
		p->vd.open = true;
		p->any = true;
		return rt_set(&p->vd.ld.id, id);
	}
	if (!strcmp(k, "Enclosure Device ID")) {
		if ((ret = pd_flush(p)))
			return ret;
		pd_reset(&p->pd);
		p->pd.open = true;
		p->any = true;
		/* "N/A" when the drive hangs off no enclosure: MegaCli writes it "[:S]" */
		snprintf(p->pd.enc, sizeof(p->pd.enc), "%s", isdigit((unsigned char)*v) ? v : "");
		return 0;
	}
	if (p->pd.open)
		return pd_kv(p, k, v);
	if (p->vd.open)
		return vd_kv(p, k, v);
	return 0;
}

static int mc_parse(struct inventory *inv, const char *text, const struct raidtool_src *src,
		    char *err, size_t errlen)
{
	struct mc p = { .inv = inv, .src = src, .err = err, .errlen = errlen, .ctrl = -1 };
	struct rt_lines l;
	int ret;

	vd_reset(&p.vd);
	pd_reset(&p.pd);
	ret = rt_lines_split(text, &l);
	for (size_t i = 0; !ret && i < l.nr; i++) {
		char orig[512], *s;

		snprintf(orig, sizeof(orig), "%s", l.v[i]);
		s = rt_trim(l.v[i]);
		if (*s)
			ret = parse_line(&p, s, i + 1, rt_trim(orig));
		/* a drive's Slot Number is what makes it one */
		if (!ret && p.pd.open && !*p.pd.slot && rt_prefix(s, "Firmware state"))
			ret = rt_bad_output(err, errlen, src, i + 1, rt_trim(orig),
					    "a drive without \"Slot Number\"");
	}
	if (!ret)
		ret = flush_all(&p);
	rt_lines_release(&l);
	vd_reset(&p.vd);
	pd_reset(&p.pd);
	if (!ret && !p.any)
		ret = rt_bad_output(err, errlen, src, 0, NULL,
				    "no adapter, virtual drive or drive in it (is this MegaCli output?)");
	for (size_t i = 0; !ret && i < inv->nr_controllers; i++) {
		const struct inv_controller *c = &inv->controllers[i];

		for (size_t a = 0; a < c->nr_arrays; a++)
			if (!c->arrays[a].id && c->arrays[a].nr_pds)
				inv_add_note(inv, "%s %s: %zu drive(s) are in use by an array the "
					     "output does not name (-LDPDInfo does)", src->tool,
					     c->id ? c->id : "(adapter)", c->arrays[a].nr_pds);
	}
	return ret;
}

static int mc_read(const char *bin, struct inventory *inv, const struct raidtool_src *src,
		   const struct raidtool_ctl *ctl, char *err, size_t errlen)
{
	static const char *const ldpd[] = { "-LDPDInfo", "-aAll", "-NoLog", NULL };
	static const char *const pdl[] = { "-PDList", "-aALL", "-NoLog", NULL };
	static const char *const *const cmds[] = { ldpd, pdl, NULL };

	return rt_read_cmds(&raidtool_megacli, bin, cmds, inv, src, ctl, err, errlen);
}

static const struct raidtool_import imports[] = {
	{ "megacli", "-LDPDInfo -aAll -NoLog" }, { NULL, NULL },
};

const struct raid_tool_ops raidtool_megacli = {
	.name = "megacli",
	.binaries = binaries,
	.read = mc_read,
	.parse = mc_parse,
	.imports = imports,
	.controller_id = NULL,
	.levels = NULL,		/* read-only: storcli changes these controllers */
	.superseded_by = &raidtool_storcli,
	.build = NULL,
	.check = NULL,
};
