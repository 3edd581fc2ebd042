/*
 * ssacli.c - HPE Smart Array through ssacli (and its older names hpssacli,
 * hpacucli): reading `ctrl all show config [detail]` and the other `show`
 * forms into the inventory. The changes are hw/ssacli_change.c's.
 *
 * The text has no machine form. Objects are recognised by their leading
 * words, never by column (real outputs indent with tabs, carry banners and
 * echoed prompts, and break lines mid-word); "Key: Value" lines belong to
 * the object last opened; unknown keys and lines are skipped. A line that
 * starts an object but cannot be read, an `Error:` line, or an output with
 * no controller at all is an error naming the command and the line.
 *
 * Sizes: drives are decimal ("2 TB"), logical drives binary under decimal
 * labels ("3.64 TB" of 2 x 2 TB), as raid-cli.md 2.3 shows.
 */
#include "raidtool.h"
#include "raidtool_int.h"
#include "raidtool_tools.h"
#include "ssacli_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum group { G_NONE, G_ARRAY, G_UNASSIGNED, G_HBA, G_UNPLACED };
enum obj { O_NONE, O_CTRL, O_ARRAY, O_LD, O_PD };

struct ssa {
	struct inventory *inv;
	const struct raidtool_src *src;
	char *err;
	size_t errlen;
	long ctrl;		/* index into inv->controllers, -1 before the first */
	long array;		/* index into the controller's arrays, -1 outside one */
	long ld;		/* index into the array's lds (O_LD) */
	char pd[64];		/* the drive whose detail is being read (O_PD) */
	enum group group;	/* where short drive lines go */
	enum obj obj;		/* whom "Key: Value" lines describe */
	bool no_controllers;	/* "Error: No controllers detected." */
	bool ld_joined;		/* the LD's OS device came from the WWN join */
	size_t lines;		/* non-blank lines seen */
	size_t warn_line;	/* the first "Warning:" before any controller, 0 if none */
	char warn[160];
	bool in_warn;		/* inside a controller's "Warning:" paragraph */
	char warn_para[768];	/* its words, up to the blank line that ends it */
};

#define CTRL(p) (&(p)->inv->controllers[(p)->ctrl])
#define ARRAY(p) (&CTRL(p)->arrays[(p)->array])

/* ---- words ------------------------------------------------------------- */

static enum inv_status hpe_status(const char *s)
{
	static const struct {
		const char *prefix;
		enum inv_status st;
	} words[] = {
		{ "OK", INV_OK },
		{ "Failed", INV_FAILED },
		{ "Interim Recovery Mode", INV_DEGRADED },
		{ "Ready for Rebuild", INV_DEGRADED },
		{ "Degraded", INV_DEGRADED },
		{ "Recovering", INV_REBUILDING },
		{ "Rebuilding", INV_REBUILDING },
		{ "Transforming", INV_TRANSFORMING },
		{ "Waiting for Transformation", INV_TRANSFORMING },
		{ "Expanding", INV_TRANSFORMING },
		{ "Extending", INV_TRANSFORMING },
		{ "Migrating", INV_TRANSFORMING },
		{ "Queued for Expansion", INV_TRANSFORMING },
		{ "Moving", INV_TRANSFORMING },
		{ "Erase In Progress", INV_ERASING },
		{ "Erasing", INV_ERASING },
		{ "Erase Complete", INV_OFFLINE },	/* must be re-enabled before use */
		{ "Predictive Failure", INV_PREDICTIVE_FAILURE },
		{ "Initializing", INV_INITIALIZING },
		{ "Disabled", INV_OFFLINE },
		{ "Offline", INV_OFFLINE },
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (rt_prefix(s, words[i].prefix) &&
		    (strlen(s) == strlen(words[i].prefix) || !isalpha((unsigned char)s[strlen(words[i].prefix)])))
			return words[i].st;
	return INV_UNKNOWN;
}

/* "RAID 6 (ADG)" -> "6"; "1+0" -> "10"; NULL when unknown. */
static const char *hpe_level(const char *s)
{
	char buf[64];
	char *adg;

	snprintf(buf, sizeof(buf), "%s", s);
	adg = strcasestr(buf, "(ADG)");
	if (adg)
		*adg = '\0';
	rt_trim(buf);
	if (!strncasecmp(buf, "RAID", 4))
		return inv_normalize_raid_level(buf);
	{
		char r[80];

		snprintf(r, sizeof(r), "RAID %s", buf);
		return inv_normalize_raid_level(r);
	}
}

/* "SAS HDD" / "Solid State SATA" / "SATA SSD" -> interface and media. */
static int set_interface(struct inv_pd *pd, const char *s)
{
	static const char *const ifaces[] = { "SAS", "SATA", "NVMe", "Parallel SCSI", NULL };
	int ret = 0;

	for (size_t i = 0; ifaces[i]; i++)
		if (strcasestr(s, ifaces[i])) {
			ret = rt_set(&pd->interface, !strcmp(ifaces[i], "Parallel SCSI") ? "SCSI" :
						     ifaces[i]);
			break;
		}
	if (!ret && (strcasestr(s, "SSD") || strcasestr(s, "Solid State")))
		ret = rt_set(&pd->media, "ssd");
	else if (!ret && strcasestr(s, "HDD"))
		ret = rt_set(&pd->media, "hdd");
	return ret;
}

static int set_status(enum inv_status *st, char **text, double *pct, const char *s)
{
	*st = hpe_status(s);
	if (pct && rt_percent(s) >= 0)
		*pct = rt_percent(s);
	return rt_set(text, s);
}

/* The controller the next object belongs to; made from the command when the output names none. */
static int need_ctrl(struct ssa *p)
{
	struct inv_controller *c;
	char slot[64] = "", id[80];
	const char *s;

	if (p->ctrl >= 0)
		return 0;
	s = p->src->cmd ? strstr(p->src->cmd, "slot=") : NULL;
	if (s)
		snprintf(slot, sizeof(slot), "%.*s", (int)strcspn(s + 5, " \t"), s + 5);
	snprintf(id, sizeof(id), "slot=%s", slot);
	c = rt_controller(p->inv, "ssacli", *slot ? id : NULL);
	if (!c || (*slot && rt_set(&c->slot, slot)))
		return -ENOMEM;
	p->ctrl = c - p->inv->controllers;
	return 0;
}

/* The array short lines and details go to when no "Array" header was seen: id unknown. */
static int unplaced_array(struct ssa *p)
{
	struct inv_array *a = rt_array(CTRL(p), NULL);

	if (!a)
		return -ENOMEM;
	p->array = a - CTRL(p)->arrays;
	return 0;
}

/* ---- object lines -------------------------------------------------------- */

/* "Smart Array P440ar in Slot 0 (Embedded) (RAID Mode)    (sn: X)" */
static bool is_controller_line(const char *s)
{
	const char *in = strstr(s, " in Slot ");

	return in && !memchr(s, ':', (size_t)(in - s)) && !rt_prefix(s, "physicaldrive") &&
	       !rt_prefix(s, "logicaldrive");
}

/*
 * "MSA1500 CS in MY STORAGE": an external controller, named by its chassis
 * (`ctrl ch="MY STORAGE"`), at the left margin like the slot ones. Only a
 * short line without ':' or '.', so a banner sentence is never one.
 */
static bool is_chassis_line(const char *raw, const char *s)
{
	const char *in = strstr(s, " in ");
	size_t words = 1;

	if (*raw == ' ' || *raw == '\t' || !in || strchr(s, ':') || strchr(s, '.') ||
	    strlen(s) > 80 || rt_prefix(s, "array") || rt_prefix(s, "physicaldrive") ||
	    rt_prefix(s, "logicaldrive") || !isalnum((unsigned char)*s))
		return false;
	for (const char *q = s; q < in; q++)
		words += *q == ' ';
	return words <= 4 && in[4] && in[4] != ' ';
}

static int controller_line(struct ssa *p, char *s)
{
	char *in = strstr(s, " in Slot "), *rest, *q, slot[32], id[160];
	struct inv_controller *c;
	size_t n;
	int ret = 0;

	if (!in) {	/* "MSA1500 CS in MY STORAGE" */
		in = strstr(s, " in ");
		*in = '\0';
		snprintf(id, sizeof(id), "chassisname=%s", rt_trim(in + 4));
		c = rt_controller(p->inv, "ssacli", id);
		if (!c)
			return -ENOMEM;
		p->ctrl = c - p->inv->controllers;
		p->array = -1;
		p->group = G_NONE;
		p->obj = O_CTRL;
		return rt_fill(&c->model, s);
	}
	*in = '\0';
	rest = in + 9;
	n = strcspn(rest, " \t(");
	snprintf(slot, sizeof(slot), "%.*s", (int)n, rest);
	rest += n;
	/* hpacucli's unfilled placeholder "ATTR_VALUE_SLOT_UNKNOWN": no slot to name it by */
	if (rt_prefix(slot, "ATTR_VALUE")) {
		slot[0] = '\0';
		if ((ret = inv_add_note(p->inv, "%s: %s: the output gives no slot (\"%.*s\")",
					p->src->tool, s, (int)n, in + 9)))
			return ret;
	}
	snprintf(id, sizeof(id), "slot=%s", slot);
	c = rt_controller(p->inv, "ssacli", *slot ? id : NULL);
	if (!c)
		return -ENOMEM;
	p->ctrl = c - p->inv->controllers;
	ret = rt_fill(&c->model, s) ?: rt_fill(&c->slot, *slot ? slot : NULL);
	/* "(Embedded)", "(RAID Mode)", "(HBA Mode)", "(sn: PDNNK0ARH9M1F5)" */
	for (q = strchr(rest, '('); !ret && q; q = strchr(q + 1, '(')) {
		char word[128];

		snprintf(word, sizeof(word), "%.*s", (int)strcspn(q + 1, ")"), q + 1);
		rt_trim(word);
		if (rt_prefix(word, "sn:"))
			ret = rt_fill(&c->serial, rt_trim(word + 3));
		else if (!strcasecmp(word, "RAID Mode"))
			ret = rt_set(&c->mode, "raid");
		else if (!strcasecmp(word, "HBA Mode"))
			ret = rt_set(&c->mode, "hba");
		else if (!strcasecmp(word, "Mixed Mode"))
			ret = rt_set(&c->mode, "mixed");
	}
	p->array = -1;
	p->group = G_NONE;
	p->obj = O_CTRL;
	return ret;
}

/* "Array A (SAS, Unused Space: 0  MB)", "array B (Failed)", "Array: A" -> "A". */
static bool is_array_line(const char *s, char *id, size_t len)
{
	const char *q;
	size_t n;

	if (strncasecmp(s, "array", 5))
		return false;
	q = s + 5;
	if (*q == ':')
		q++;
	if (*q != ' ' && *q != '\t')
		return false;
	while (*q == ' ' || *q == '\t')
		q++;
	n = strspn(q, "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
	if (!n || n >= len || (q[n] && q[n] != ' ' && q[n] != '\t'))
		return false;
	snprintf(id, len, "%.*s", (int)n, q);
	return true;
}

static int array_line(struct ssa *p, const char *s, const char *id)
{
	struct inv_array *a;
	const char *paren = strchr(s, '(');

	a = rt_array(CTRL(p), id);
	if (!a)
		return -ENOMEM;
	p->array = a - CTRL(p)->arrays;
	p->group = G_ARRAY;
	p->obj = O_ARRAY;
	/* "array B (Failed)": the only status the short form gives */
	if (paren && strcasestr(paren, "Failed")) {
		a->status = INV_FAILED;
		return rt_set(&a->status_text, "Failed");
	}
	return 0;
}

/* Splits "(a, b (c), d): e" into top-level fields; *after points past ')'. */
static int paren_fields(char *s, char **f, size_t max, size_t *nr, char **after)
{
	char *open = strchr(s, '('), *q, *start;
	int depth = 0;

	*nr = 0;
	if (!open)
		return -1;
	start = open + 1;
	for (q = open; *q; q++) {
		if (*q == '(') {
			depth++;
		} else if (*q == ')') {
			if (--depth == 0)
				break;
		} else if (*q == ',' && depth == 1) {
			*q = '\0';
			if (*nr < max)
				f[(*nr)++] = rt_trim(start);
			start = q + 1;
		}
	}
	if (!*q)
		return -1;
	*q = '\0';
	if (*nr < max)
		f[(*nr)++] = rt_trim(start);
	*after = q + 1;
	return 0;
}

/* "logicaldrive 1 (3.64 TB, RAID 5, OK)" and "logicaldrive 1 (3.64 TB, RAID 5): OK" */
static int ld_line(struct ssa *p, char *s, size_t lineno, const char *orig)
{
	char *f[8], *after, id[32], status[256] = "";
	struct inv_ld *ld;
	size_t nr;
	int ret;

	if (sscanf(s, "logicaldrive %31s", id) != 1 || !isdigit((unsigned char)id[0]))
		return rt_bad_output(p->err, p->errlen, p->src, lineno, orig,
				     "a logical drive without a number");
	if (paren_fields(s, f, 8, &nr, &after) || nr < 2)
		return rt_bad_output(p->err, p->errlen, p->src, lineno, orig,
				     "expected 'logicaldrive N (size, RAID level, status)'");
	for (size_t i = 2; i < nr; i++)
		snprintf(status + strlen(status), sizeof(status) - strlen(status), "%s%s",
			 i > 2 ? ", " : "", f[i]);
	after = rt_trim(after);
	if (*after == ':')
		snprintf(status, sizeof(status), "%s", rt_trim(after + 1));
	if ((ret = need_ctrl(p)))
		return ret;
	if ((p->group != G_ARRAY || p->array < 0) && (ret = unplaced_array(p)))
		return ret;
	ld = rt_ld(ARRAY(p), id);
	if (!ld)
		return -ENOMEM;
	ld->size_bytes = inv_parse_vendor_size(f[0], 1024);
	if (hpe_level(f[1]))
		ret = rt_set(&ld->raid_level, hpe_level(f[1]));
	if (!ret && *status)
		ret = set_status(&ld->status, &ld->status_text, &ld->progress_pct, status);
	return ret;
}

static bool is_size(const char *s)
{
	const char *u;

	if (!strncmp(s, "---", 3))
		return true;	/* a failed drive's "--- GB" */
	if (!isdigit((unsigned char)*s))
		return false;
	u = s + strspn(s, "0123456789.");
	while (*u == ' ')
		u++;
	return strchr("KMGTP", toupper((unsigned char)*u)) && *u &&
	       (toupper((unsigned char)u[1]) == 'B' || u[1] == 'i');
}

/* The list a drive of the current group goes to. */
static int group_list(struct ssa *p, struct inv_pd ***list, size_t **nr, const char **role)
{
	struct inv_controller *c;
	int ret;

	if ((ret = need_ctrl(p)))
		return ret;
	c = CTRL(p);
	if (p->obj == O_LD || p->group == G_ARRAY) {	/* mirror groups list members */
		if (p->array < 0 && (ret = unplaced_array(p)))
			return ret;
		*list = &ARRAY(p)->pds;
		*nr = &ARRAY(p)->nr_pds;
		*role = ARRAY(p)->id ? "data" : NULL;
	} else if (p->group == G_UNASSIGNED) {
		*list = &c->unassigned;
		*nr = &c->nr_unassigned;
		*role = "unassigned";
	} else if (p->group == G_HBA) {
		*list = &c->passthrough;
		*nr = &c->nr_passthrough;
		*role = "passthrough";
	} else {
		/* a cage listing or a bare status line: placed later, or never */
		if ((ret = unplaced_array(p)))
			return ret;
		*list = &ARRAY(p)->pds;
		*nr = &ARRAY(p)->nr_pds;
		*role = NULL;
	}
	return 0;
}

static struct inv_pd *place_pd(struct ssa *p, const char *id, int *ret)
{
	struct inv_pd **list, *pd;
	const char *role;
	struct rt_pd_ref ref;
	size_t *nr;

	*ret = group_list(p, &list, &nr, &role);
	if (*ret)
		return NULL;
	/* an unplaced listing never pulls a drive out of the array it is known in */
	if (!role && rt_pd_find(CTRL(p), id, &ref))
		return rt_pd_at(&ref);
	pd = rt_pd_place(CTRL(p), id, list, nr);
	if (!pd) {
		*ret = -ENOMEM;
		return NULL;
	}
	if (role && (!pd->role || strcmp(pd->role, "spare")))
		*ret = rt_set(&pd->role, role);
	return pd;
}

/*
 * "physicaldrive 1I:0:5 (port 1I:box 0:bay 5, SAS HDD, 2 TB, OK[, spare])",
 * "physicaldrive 1I:0:5 (port 1I:box 0:bay 5, 2 TB): OK", or a detail
 * header "physicaldrive 1I:0:5".
 */
static int pd_line(struct ssa *p, char *s, size_t lineno, const char *orig)
{
	char *f[10], *after, id[64], iface[128] = "", status[256] = "";
	size_t nr, size_at = 0;
	struct inv_pd *pd;
	int ret;

	if (sscanf(s, "physicaldrive %63s", id) != 1 || id[0] == '(')
		return rt_bad_output(p->err, p->errlen, p->src, lineno, orig,
				     "a physical drive without an address");
	if (!strchr(s, '(')) {
		pd = place_pd(p, id, &ret);
		if (!pd)
			return ret;
		snprintf(p->pd, sizeof(p->pd), "%s", id);
		p->obj = O_PD;
		return 0;
	}
	if (paren_fields(s, f, 10, &nr, &after) || nr < 2)
		return rt_bad_output(p->err, p->errlen, p->src, lineno, orig,
				     "expected 'physicaldrive ADDRESS (port, interface, size, status)'");
	for (size_t i = 1; i < nr && !size_at; i++)
		if (is_size(f[i]))
			size_at = i;
	if (!size_at)
		return rt_bad_output(p->err, p->errlen, p->src, lineno, orig,
				     "no drive size in the parentheses");
	for (size_t i = 1; i < size_at; i++)
		snprintf(iface + strlen(iface), sizeof(iface) - strlen(iface), "%s%s",
			 i > 1 ? " " : "", f[i]);
	pd = place_pd(p, id, &ret);
	if (!pd)
		return ret;
	if (nr > size_at + 1 && !strcasecmp(f[nr - 1], "spare")) {
		if ((ret = rt_set(&pd->role, "spare")))
			return ret;
		nr--;
	}
	for (size_t i = size_at + 1; i < nr; i++)
		snprintf(status + strlen(status), sizeof(status) - strlen(status), "%s%s",
			 i > size_at + 1 ? ", " : "", f[i]);
	after = rt_trim(after);
	if (*after == ':')
		snprintf(status, sizeof(status), "%s", rt_trim(after + 1));
	pd->size_bytes = inv_parse_vendor_size(f[size_at], 1000);
	ret = *iface ? set_interface(pd, iface) : 0;
	if (!ret && *status)
		ret = set_status(&pd->status, &pd->status_text, NULL, status);
	return ret;
}

/* ---- Key: Value lines ---------------------------------------------------- */

static int pcie_rate(struct inv_controller *c, const char *v)
{
	double gen;
	int width;

	/* "PCIe 3.0 x8 (7880 MB/s)" */
	if (sscanf(v, "PCIe %lf x%d", &gen, &width) != 2)
		return 0;
	c->pcie.known = true;
	c->pcie.width = width;
	c->pcie.speed_gts = gen < 1.5 ? 2.5 : gen < 2.5 ? 5 : gen < 3.5 ? 8 : gen < 4.5 ? 16 : 32;
	return 0;
}

static int ctrl_kv(struct ssa *p, const char *k, const char *v)
{
	struct inv_controller *c = CTRL(p);

	if (!strcmp(k, "Slot"))
		return rt_fill(&c->slot, v);
	if (!strcmp(k, "Serial Number"))
		return rt_fill(&c->serial, v);
	if (!strcmp(k, "Firmware Version"))
		return rt_fill(&c->firmware, v);
	if (!strcmp(k, "Driver Name"))
		return rt_fill(&c->driver, v);
	if (rt_prefix(k, "PCI Address")) {
		/* "0000:5C:00.0": the kernel's (and storcli's) form is lower case */
		char pci[64];

		snprintf(pci, sizeof(pci), "%s", v);
		for (char *q = pci; *q; q++)
			*q = (char)tolower((unsigned char)*q);
		return rt_fill(&c->pci, pci);
	}
	if (!strcmp(k, "Negotiated PCIe Data Rate"))
		return pcie_rate(c, v);
	if (!strcmp(k, "Controller Mode")) {
		char mode[32];

		snprintf(mode, sizeof(mode), "%.*s", (int)strcspn(v, " "), v);
		for (char *q = mode; *q; q++)
			*q = (char)tolower((unsigned char)*q);
		return rt_set(&c->mode, mode);
	}
	if (!strcmp(k, "Controller Status")) {
		c->status = hpe_status(v);
		return rt_set(&c->status_text, v);
	}
	/* a cache or battery problem shows only here: it degrades the controller */
	/* anything but these words (Failed, Temporarily Disabled, ...) is not ok */
	if ((!strcmp(k, "Cache Status") || !strcmp(k, "Battery/Capacitor Status")) &&
	    !rt_prefix(v, "OK") && !rt_prefix(v, "Not Configured") && !rt_prefix(v, "Recharging") &&
	    !rt_prefix(v, "Charging")) {
		char text[256];

		snprintf(text, sizeof(text), "%s%s%s: %s", c->status_text ? c->status_text : "",
			 c->status_text ? "; " : "", k, v);
		if (c->status == INV_OK || c->status == INV_UNKNOWN)
			c->status = INV_DEGRADED;
		return rt_set(&c->status_text, text);
	}
	return 0;
}

static int ld_kv(struct ssa *p, const char *k, const char *v)
{
	struct inv_ld *ld = &ARRAY(p)->lds[p->ld];

	if (!strcmp(k, "Size")) {
		ld->size_bytes = inv_parse_vendor_size(v, 1024);
	} else if (!strcmp(k, "Fault Tolerance")) {
		if (hpe_level(v))
			return rt_set(&ld->raid_level, hpe_level(v));
	} else if (!strcmp(k, "Strip Size")) {
		ld->strip_size_bytes = inv_parse_vendor_size(v, 1024);
	} else if (!strcmp(k, "Status")) {
		return set_status(&ld->status, &ld->status_text, &ld->progress_pct, v);
	} else if (!strcmp(k, "Parity Initialization Status")) {
		if ((rt_prefix(v, "In Progress") || rt_prefix(v, "Queued")) &&
		    (ld->status == INV_OK || ld->status == INV_UNKNOWN)) {
			char text[256];

			ld->status = INV_INITIALIZING;
			snprintf(text, sizeof(text), "%s, Parity Initialization %s",
				 ld->status_text ? ld->status_text : "OK", v);
			if (rt_percent(v) >= 0)
				ld->progress_pct = rt_percent(v);
			return rt_set(&ld->status_text, text);
		}
	} else if (!strcmp(k, "Parity Initialization Progress")) {
		if (rt_percent(v) >= 0)
			ld->progress_pct = rt_percent(v);
	} else if (!strcmp(k, "Unique Identifier")) {
		const char *dev = raidtool_join_wwn(v, p->src->osdevs, p->src->nr_osdevs);
		char path[96];
		int ret = rt_set(&ld->uid, v);

		if (ret)
			return ret;
		if (dev) {
			snprintf(path, sizeof(path), "/dev/%s", dev);
			p->ld_joined = true;
			return rt_set(&ld->os_device, path);
		}
	} else if (!strcmp(k, "Disk Name")) {
		/* what the tool saw on its host: the WWN join outranks it */
		if (!p->ld_joined && !strncmp(v, "/dev/", 5))
			return rt_set(&ld->os_device, v);
	}
	return 0;
}

static int pd_kv(struct ssa *p, const char *k, const char *v)
{
	struct rt_pd_ref ref;
	struct inv_pd *pd;

	if (!rt_pd_find(CTRL(p), p->pd, &ref))
		return 0;
	pd = rt_pd_at(&ref);
	if (!strcmp(k, "Status"))
		return set_status(&pd->status, &pd->status_text, NULL, v);
	if (!strcmp(k, "Drive Type")) {
		static const char *const roles[][2] = {
			{ "Data Drive", "data" }, { "Spare Drive", "spare" },
			{ "Unassigned Drive", "unassigned" }, { "HBA Mode Drive", "passthrough" },
		};

		for (size_t i = 0; i < 4; i++)
			if (!strcasecmp(v, roles[i][0]))
				return rt_set(&pd->role, roles[i][1]);
		return 0;
	}
	if (!strcmp(k, "Interface Type"))
		return set_interface(pd, v);
	if (!strcmp(k, "Size")) {
		if (inv_parse_vendor_size(v, 1000) >= 0)
			pd->size_bytes = inv_parse_vendor_size(v, 1000);
		return 0;
	}
	if (!strcmp(k, "Serial Number"))
		return rt_set_squeezed(&pd->serial, v);
	if (!strcmp(k, "WWID"))
		return rt_set_squeezed(&pd->wwn, v);
	if (!strcmp(k, "Model"))
		return rt_set_squeezed(&pd->model, v);
	if (!strcmp(k, "Rotational Speed") && isdigit((unsigned char)*v) && !pd->media)
		return rt_set(&pd->media, "hdd");
	return 0;
}

static int kv_line(struct ssa *p, char *s)
{
	char *k, *v;

	if (!rt_kv(s, &k, &v))
		return 0;
	if (!strcmp(k, "Port Name") || rt_prefix(k, "Mirror Group") || rt_prefix(k, "Parity Group"))
		return 0;
	switch (p->obj) {
	case O_CTRL:
		return ctrl_kv(p, k, v);
	case O_ARRAY:
		if (!strcmp(k, "Status")) {
			ARRAY(p)->status = hpe_status(v);
			return rt_set(&ARRAY(p)->status_text, v);
		}
		return 0;
	case O_LD:
		return ld_kv(p, k, v);
	case O_PD:
		return pd_kv(p, k, v);
	default:
		return 0;
	}
}

/* ---- the parser ------------------------------------------------------------ */

static int parse_line(struct ssa *p, const struct rt_lines *l, size_t i, char *s)
{
	char id[16], orig[512];
	int ret;

	snprintf(orig, sizeof(orig), "%s", s);
	if (rt_prefix(s, "Error:")) {
		char msg[768];

		if (strcasestr(s, "No controllers detected")) {
			p->no_controllers = true;
			return inv_add_note(p->inv, "%s: %s", p->src->tool, rt_trim(s + 6));
		}
		rt_error_block(l, i, msg, sizeof(msg));
		return rt_vendor_error(p->err, p->errlen, p->src, "%s", msg);
	}
	if (is_controller_line(s) || is_chassis_line(l->v[i], s))
		return controller_line(p, s);
	if (rt_prefix(s, "logicaldrive ")) {
		p->obj = O_NONE;
		return ld_line(p, s, i + 1, orig);
	}
	if (rt_prefix(s, "physicaldrive "))
		return pd_line(p, s, i + 1, orig);
	/* an array's state is never dropped: its controller is the command's */
	if (p->ctrl < 0 && is_array_line(s, id, sizeof(id)) && (ret = need_ctrl(p)))
		return ret;
	if (p->ctrl < 0) {
		/* banners, echoed prompts, warnings before the first controller */
		if (rt_prefix(s, "Warning:") && !p->warn_line) {
			p->warn_line = i + 1;
			snprintf(p->warn, sizeof(p->warn), "%s", s);
		}
		return 0;
	}
	if (rt_prefix(s, "Warning:")) {
		/* a paragraph up to a blank line ("Unrecoverable Media Errors Detected ...
		 * The following logical drives are affected: 4, 5"), kept as a note; the
		 * keys after it still describe what they described before it */
		p->in_warn = true;
		snprintf(p->warn_para, sizeof(p->warn_para), "%s", s);
		return 0;
	}
	if (is_array_line(s, id, sizeof(id)))
		return array_line(p, s, id);
	if (!strcasecmp(s, "Unassigned") || !strcasecmp(s, "Unassigned Drives")) {
		p->group = G_UNASSIGNED;
		p->obj = O_NONE;
		p->array = -1;
		return 0;
	}
	if (!strcasecmp(s, "HBA Drives")) {
		p->group = G_HBA;
		p->obj = O_NONE;
		p->array = -1;
		return 0;
	}
	if (!strcasecmp(s, "Physical Drives") || strstr(s, " at Port ") || rt_prefix(s, "SEP ") ||
	    rt_prefix(s, "Expander ") || rt_prefix(s, "Enclosure SEP")) {
		p->group = G_UNPLACED;
		p->obj = O_NONE;
		p->array = -1;
		return 0;
	}
	if (rt_prefix(s, "Logical Drive:")) {
		struct inv_ld *ld;
		char *k, *v;

		rt_kv(s, &k, &v);
		if (!isdigit((unsigned char)*v))
			return rt_bad_output(p->err, p->errlen, p->src, i + 1, orig,
					     "a logical drive without a number");
		if (p->array < 0 && (ret = unplaced_array(p)))
			return ret;
		ld = rt_ld(ARRAY(p), v);
		if (!ld)
			return -ENOMEM;
		p->ld = ld - ARRAY(p)->lds;
		p->obj = O_LD;
		p->ld_joined = false;
		return 0;
	}
	if (rt_prefix(s, "Port Name:")) {
		p->obj = O_NONE;
		return 0;
	}
	return kv_line(p, s);
}

/*
 * The output ends without a newline: a last line that is no whole line of
 * ssacli's (no "Key: value", no closing parenthesis, no group word) was cut
 * in the middle, and what it said is lost.
 */
static int cut_last_line(struct ssa *p, const struct rt_lines *l)
{
	static const char *const words[] = { "Unassigned", "Unassigned Drives", "HBA Drives",
					     "Physical Drives", NULL };
	size_t i = l->nr;
	char last[512], *s, *colon;

	while (i > 0 && !*rt_trim(l->v[i - 1]))
		i--;
	if (!i)
		return 0;
	snprintf(last, sizeof(last), "%s", l->v[i - 1]);
	s = rt_trim(last);
	colon = strchr(s, ':');
	if ((colon && *rt_trim(colon + 1)) || s[strlen(s) - 1] == ')' ||
	    !strncasecmp(s, "array ", 6))
		return 0;
	for (size_t w = 0; words[w]; w++)
		if (!strcasecmp(s, words[w]))
			return 0;
	return rt_bad_output(p->err, p->errlen, p->src, i, s,
			     "the output ends in the middle of this line: the capture is cut short");
}

/* A controller's warning, whole, as a note of the inventory. */
static int warn_note(struct ssa *p)
{
	p->in_warn = false;
	return inv_add_note(p->inv, "%s %s: %s", p->src->tool,
			    CTRL(p)->id ? CTRL(p)->id : "(controller)", p->warn_para);
}

int ssacli_parse(struct inventory *inv, const char *text, const struct raidtool_src *src,
		     char *err, size_t errlen)
{
	struct ssa p = { .inv = inv, .src = src, .err = err, .errlen = errlen, .ctrl = -1,
			 .array = -1, .ld = -1, .group = G_NONE, .obj = O_NONE };
	struct rt_lines l;
	int ret;

	ret = rt_lines_split(text, &l);
	for (size_t i = 0; !ret && i < l.nr; i++) {
		char *s = rt_trim(l.v[i]);

		if (p.in_warn && *s) {	/* the warning goes on */
			size_t n = strlen(p.warn_para);

			snprintf(p.warn_para + n, sizeof(p.warn_para) - n, " %s", s);
			p.lines++;
			continue;
		}
		if (p.in_warn)
			ret = warn_note(&p);
		if (!ret && *s) {
			p.lines++;
			ret = parse_line(&p, &l, i, s);
		}
	}
	if (!ret && p.in_warn)
		ret = warn_note(&p);
	if (!ret && l.nr && *text && text[strlen(text) - 1] != '\n')
		ret = cut_last_line(&p, &l);
	rt_lines_release(&l);
	if (ret)
		return ret;
	if (!p.lines)
		return rt_bad_output(err, errlen, src, 0, NULL, "it is empty (no controller, "
				     "array or drive line; changes such as create print nothing)");
	/* what a change (delete, erase, modify) answers: not a listing */
	if (!inv->nr_controllers && !p.no_controllers && p.warn_line)
		return rt_bad_output(err, errlen, src, p.warn_line, p.warn,
				     "only a warning, the answer to a change: no Smart Array "
				     "controller in it");
	if (!inv->nr_controllers && !p.no_controllers)
		return rt_bad_output(err, errlen, src, 0, NULL,
				     "no Smart Array controller in it (is this ssacli output?)");
	for (size_t i = 0; i < inv->nr_controllers; i++) {
		struct inv_controller *c = &inv->controllers[i];

		rt_drop_empty_arrays(c);
		for (size_t a = 0; a < c->nr_arrays; a++)
			if (!c->arrays[a].id && c->arrays[a].nr_pds)
				inv_add_note(inv, "%s %s: the output does not say which array %zu "
					     "drive(s) belong to", src->tool,
					     c->id ? c->id : "(controller)", c->arrays[a].nr_pds);
	}
	return 0;
}

int ssacli_read(const char *bin, struct inventory *inv, const struct raidtool_src *src,
		    const struct raidtool_ctl *ctl, char *err, size_t errlen)
{
	static const char *const config[] = { "ctrl", "all", "show", "config", "detail", NULL };
	static const char *const *const cmds[] = { config, NULL };

	return rt_read_cmds(&raidtool_ssacli, bin, cmds, inv, src, ctl, err, errlen);
}
