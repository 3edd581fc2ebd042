/*
 * raidtool_parse.c - the ground the tool adapters share: lines, key/value
 * scanning, the one format of "cannot understand this output" errors, and
 * building the inventory without duplicates (find-or-add by id; merging the
 * several outputs that describe one controller).
 *
 * No vendor grammar lives here: that is each adapter's file.
 */
#include "raidtool_int.h"
#include "bufcat.h"
#include "pd_index.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- text ---------------------------------------------------------------- */

int rt_lines_split(const char *text, struct rt_lines *l)
{
	size_t len = strlen(text), cap = 0;
	char *r, *w;

	memset(l, 0, sizeof(*l));
	/* one copy cut in place: a line costs a pointer, not an allocation */
	l->buf = malloc(len + 1);
	if (!l->buf)
		return -ENOMEM;
	r = w = l->buf;
	memcpy(r, text, len + 1);
	while (*r) {
		char *line = w;

		/* '\r' anywhere: "\r   " artifacts of tools that redraw a progress line */
		for (; *r && *r != '\n'; r++)
			if (*r != '\r')
				*w++ = *r;
		if (*r)
			r++;
		*w++ = '\0';
		if (l->nr == cap) {
			char **v;

			cap = cap ? 2 * cap : 64;
			v = realloc(l->v, cap * sizeof(*v));
			if (!v) {
				rt_lines_release(l);
				return -ENOMEM;
			}
			l->v = v;
		}
		l->v[l->nr++] = line;
	}
	return 0;
}

void rt_lines_release(struct rt_lines *l)
{
	free(l->v);
	free(l->buf);
	memset(l, 0, sizeof(*l));
}

void rt_error_block(const struct rt_lines *l, size_t i, char *buf, size_t len)
{
	snprintf(buf, len, "%s", rt_trim(l->v[i]));
	for (size_t k = i + 1; k < l->nr && k < i + 8; k++) {
		const char *t = l->v[k];

		if (!*t || (*t != ' ' && *t != '\t'))
			break;
		snprintf(buf + strlen(buf), len - strlen(buf), " %s", rt_trim(l->v[k]));
	}
}

char *rt_trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n'))
		e--;
	*e = '\0';
	return s;
}

bool rt_kv(char *line, char **key, char **val)
{
	/* ": " first: "PCI Address (Domain:Bus:Device.Function): 0000:03:00.0" */
	char *colon = strstr(line, ": ");

	if (!colon)
		colon = strstr(line, ":\t");
	if (!colon)
		colon = strchr(line, ':');	/* "Serial Number:REDACTED", "Name:OS" */
	if (!colon)
		return false;
	*colon = '\0';
	*key = rt_trim(line);
	*val = rt_trim(colon + 1);
	return **key != '\0';
}

int rt_set(char **dst, const char *s)
{
	char *copy = NULL;

	if (s && !(copy = strdup(s)))
		return -ENOMEM;
	free(*dst);
	*dst = copy;
	return 0;
}

int rt_set_squeezed(char **dst, const char *s)
{
	char *copy, *o;
	bool blank = false;

	if (!s)
		return rt_set(dst, NULL);
	copy = malloc(strlen(s) + 1);
	if (!copy)
		return -ENOMEM;
	while (isspace((unsigned char)*s))
		s++;
	for (o = copy; *s; s++) {
		if (isspace((unsigned char)*s)) {
			blank = true;
			continue;
		}
		if (blank && o > copy)
			*o++ = ' ';
		blank = false;
		*o++ = *s;
	}
	*o = '\0';
	free(*dst);
	*dst = *copy ? copy : NULL;
	if (!*copy)
		free(copy);
	return 0;
}

int rt_fill(char **dst, const char *s)
{
	return *dst ? 0 : rt_set_squeezed(dst, s);
}

double rt_percent(const char *s)
{
	const char *pct = s ? strchr(s, '%') : NULL;
	const char *b;
	double v;

	if (!pct || pct == s)
		return -1;
	b = pct;
	while (b > s && (isdigit((unsigned char)b[-1]) || b[-1] == '.'))
		b--;
	if (b == pct)
		return -1;
	v = strtod(b, NULL);
	return v <= 100 ? v : -1;	/* 400 digits would be inf, and inf is no JSON */
}

int rt_scaled(const char *s, int64_t unit, int64_t *out)
{
	unsigned long long v;
	char *end;

	while (isblank((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s) || unit <= 0)
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE || v > (unsigned long long)(INT64_MAX / unit))
		return -ERANGE;
	*out = (int64_t)v * unit;
	return 0;
}

bool rt_prefix(const char *s, const char *prefix)
{
	return !strncasecmp(s, prefix, strlen(prefix));
}

int rt_bad_output(char *err, size_t errlen, const struct raidtool_src *src, size_t lineno,
		  const char *line, const char *fmt, ...)
{
	char why[512], where[PATH_MAX + 64] = "";
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	/* an imported file may hold any of the tool's commands: it is named, not the command */
	if (src->file)
		snprintf(where, sizeof(where), "the %s output in %s", src->tool, src->file);
	else
		snprintf(where, sizeof(where), "the output of `%s`", src->cmd ? src->cmd : "?");
	if (lineno && line)
		snprintf(err, errlen, "%s: cannot understand %s, line %zu: %s: '%.160s'",
			 src->tool, where, lineno, why, line);
	else
		snprintf(err, errlen, "%s: cannot understand %s: %s", src->tool, where, why);
	return -EBADMSG;
}

int rt_vendor_error(char *err, size_t errlen, const struct raidtool_src *src, const char *fmt,
		    ...)
{
	char msg[768], where[PATH_MAX + 64] = "";
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (src->file)
		snprintf(where, sizeof(where), "output in %s", src->file);
	else
		snprintf(where, sizeof(where), "`%s`", src->cmd ? src->cmd : "?");
	snprintf(err, errlen, "%s %s: %s", src->tool, where, msg);
	return -EIO;
}

/* ---- find-or-add ------------------------------------------------------------ */

static bool same_id(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

struct inv_controller *rt_controller(struct inventory *inv, const char *source, const char *id)
{
	struct inv_controller *c;

	for (size_t i = 0; i < inv->nr_controllers; i++) {
		c = &inv->controllers[i];
		if (c->source && !strcmp(c->source, source) && same_id(c->id, id))
			return c;
	}
	c = inv_add_controller(inv);
	if (!c)
		return NULL;
	if (rt_set(&c->source, source) || rt_set(&c->id, id))
		return NULL;
	return c;
}

struct inv_array *rt_array(struct inv_controller *c, const char *id)
{
	struct inv_array *a;

	for (size_t i = 0; i < c->nr_arrays; i++)
		if (same_id(c->arrays[i].id, id))
			return &c->arrays[i];
	a = inv_add_array(c);
	if (!a || rt_set(&a->id, id))
		return NULL;
	return a;
}

struct inv_ld *rt_ld(struct inv_array *a, const char *id)
{
	struct inv_ld *ld;

	for (size_t i = 0; i < a->nr_lds; i++)
		if (same_id(a->lds[i].id, id))
			return &a->lds[i];
	ld = inv_add_ld(a);
	if (!ld || rt_set(&ld->id, id))
		return NULL;
	return ld;
}

static bool find_in(struct inv_pd **list, size_t *nr, const char *id, struct rt_pd_ref *ref)
{
	for (size_t i = 0; i < *nr; i++)
		if ((*list)[i].id && !strcmp((*list)[i].id, id)) {
			ref->list = list;
			ref->nr = nr;
			ref->idx = i;
			return true;
		}
	return false;
}

bool rt_pd_find(struct inv_controller *c, const char *id, struct rt_pd_ref *ref)
{
	struct pd_where w;
	int found;

	if (!id)
		return false;
	/* the index answers in constant time; a scan is the fallback without memory */
	found = pd_index_find(c, id, &w);
	if (found >= 0) {
		if (found) {
			ref->list = w.list;
			ref->nr = w.nr;
			ref->idx = w.idx;
		}
		return found;
	}
	for (size_t i = 0; i < c->nr_arrays; i++)
		if (find_in(&c->arrays[i].pds, &c->arrays[i].nr_pds, id, ref))
			return true;
	return find_in(&c->unassigned, &c->nr_unassigned, id, ref) ||
	       find_in(&c->passthrough, &c->nr_passthrough, id, ref);
}

size_t rt_pd_count(const struct inv_controller *c)
{
	size_t n = c->nr_unassigned + c->nr_passthrough;

	for (size_t i = 0; i < c->nr_arrays; i++)
		n += c->arrays[i].nr_pds;
	return n;
}

bool rt_pd_full(const struct inv_controller *c)
{
	if (rt_pd_count(c) < INV_MAX_PDS)
		return false;
	errno = E2BIG;
	return true;
}

int rt_pd_move(struct inv_controller *c, struct inv_pd **from, size_t *nr_from, size_t idx,
	       struct inv_pd **to, size_t *nr_to)
{
	struct inv_pd *p = inv_add_pd(to, nr_to);

	if (!p)
		return -ENOMEM;
	*p = (*from)[idx];
	pd_index_remove(c, from, nr_from, idx);
	return 0;
}

struct inv_pd *rt_pd_place(struct inv_controller *c, const char *id, struct inv_pd **to,
			   size_t *nr_to)
{
	struct rt_pd_ref ref;
	struct inv_pd *pd;

	if (rt_pd_find(c, id, &ref)) {
		if (ref.list == to)
			return rt_pd_at(&ref);
		if (rt_pd_move(c, ref.list, ref.nr, ref.idx, to, nr_to))
			return NULL;
		return &(*to)[*nr_to - 1];
	}
	pd = rt_pd_full(c) ? NULL : inv_add_pd(to, nr_to);
	if (!pd || rt_set(&pd->id, id))
		return NULL;
	return pd;
}

void rt_drop_empty_arrays(struct inv_controller *c)
{
	for (size_t i = 0; i < c->nr_arrays;) {
		struct inv_array *a = &c->arrays[i];

		if (a->id || a->nr_lds || a->nr_pds) {
			i++;
			continue;
		}
		free(a->status_text);
		free(a->lds);
		free(a->pds);
		pd_index_forget(c);	/* the lists after it change numbers */
		memmove(a, a + 1, (c->nr_arrays - i - 1) * sizeof(*a));
		c->nr_arrays--;
	}
}

/* Why a parse of inv stopped at a limit of its size ("more than 256 controllers"); false if none. */
static bool over_limit(const struct inventory *inv, char *why, size_t len)
{
	if (inv->nr_controllers >= INV_MAX_CONTROLLERS)
		return snprintf(why, len, "more than %d controllers", INV_MAX_CONTROLLERS) > 0;
	if (inv->nr_md >= INV_MAX_MD)
		return snprintf(why, len, "more than %d md arrays", INV_MAX_MD) > 0;
	for (size_t i = 0; i < inv->nr_md; i++)
		if (inv->md[i].nr_members >= INV_MAX_MD_MEMBERS)
			return snprintf(why, len, "more than %d members in one md array",
					INV_MAX_MD_MEMBERS) > 0;
	for (size_t i = 0; i < inv->nr_controllers; i++) {
		const struct inv_controller *c = &inv->controllers[i];

		if (c->nr_arrays >= INV_MAX_ARRAYS)
			return snprintf(why, len, "more than %d arrays on one controller",
					INV_MAX_ARRAYS) > 0;
		if (rt_pd_count(c) >= INV_MAX_PDS)
			return snprintf(why, len, "more than %d physical drives on one controller",
					INV_MAX_PDS) > 0;
		for (size_t k = 0; k < c->nr_arrays; k++)
			if (c->arrays[k].nr_lds >= INV_MAX_LDS)
				return snprintf(why, len, "more than %d logical drives in one array",
						INV_MAX_LDS) > 0;
	}
	return false;
}

int rt_parse(const struct raid_tool_ops *ops, struct inventory *inv, const char *text,
	     const struct raidtool_src *src, char *err, size_t errlen)
{
	int ret = ops->parse(inv, text, src, err, errlen);
	char why[128];

	if (ret == -ENOMEM && over_limit(inv, why, sizeof(why)))
		ret = rt_bad_output(err, errlen, src, 0, NULL, "it lists %s (not a real listing)",
				    why);
	return ret;
}

/* ---- merge ------------------------------------------------------------------ */

static void steal(char **dst, char **src)
{
	if (!*dst && *src) {
		*dst = *src;
		*src = NULL;
	}
}

static void status_merge(enum inv_status *d, char **dtext, enum inv_status *s, char **stext)
{
	if (*d == INV_UNKNOWN && *s != INV_UNKNOWN) {
		*d = *s;
		free(*dtext);
		*dtext = *stext;
		*stext = NULL;
	}
	steal(dtext, stext);
}

void rt_pd_merge(struct inv_pd *d, struct inv_pd *s)
{
	status_merge(&d->status, &d->status_text, &s->status, &s->status_text);
	steal(&d->role, &s->role);
	if (d->size_bytes < 0)
		d->size_bytes = s->size_bytes;
	steal(&d->interface, &s->interface);
	steal(&d->media, &s->media);
	steal(&d->model, &s->model);
	steal(&d->serial, &s->serial);
	steal(&d->wwn, &s->wwn);
}

static void ld_merge(struct inv_ld *d, struct inv_ld *s)
{
	steal(&d->raid_level, &s->raid_level);
	if (d->size_bytes < 0)
		d->size_bytes = s->size_bytes;
	if (d->strip_size_bytes < 0)
		d->strip_size_bytes = s->strip_size_bytes;
	status_merge(&d->status, &d->status_text, &s->status, &s->status_text);
	if (d->progress_pct < 0)
		d->progress_pct = s->progress_pct;
	steal(&d->os_device, &s->os_device);
}

/* Moves every drive of a src list into c: joined with the one c has, else into *to. */
static int pds_merge(struct inv_controller *c, struct inv_pd *src, size_t nr, struct inv_pd **to,
		     size_t *nr_to, bool placed)
{
	for (size_t i = 0; i < nr; i++) {
		struct rt_pd_ref ref;
		struct inv_pd *d;

		if (src[i].id && rt_pd_find(c, src[i].id, &ref)) {
			/* a placed drive outranks one the other output could not place */
			if (placed && ref.list != to) {
				if (rt_pd_move(c, ref.list, ref.nr, ref.idx, to, nr_to))
					return -ENOMEM;
				d = &(*to)[*nr_to - 1];
			} else {
				d = rt_pd_at(&ref);
			}
			rt_pd_merge(d, &src[i]);
			continue;
		}
		d = rt_pd_full(c) ? NULL : inv_add_pd(to, nr_to);
		if (!d)
			return -ENOMEM;
		*d = src[i];
		memset(&src[i], 0, sizeof(src[i]));
	}
	return 0;
}

static int array_merge(struct inv_controller *c, struct inv_array *d, struct inv_array *s)
{
	status_merge(&d->status, &d->status_text, &s->status, &s->status_text);
	for (size_t i = 0; i < s->nr_lds; i++) {
		struct inv_ld *ld = NULL;

		for (size_t k = 0; s->lds[i].id && k < d->nr_lds; k++)
			if (d->lds[k].id && !strcmp(d->lds[k].id, s->lds[i].id))
				ld = &d->lds[k];
		if (ld) {
			ld_merge(ld, &s->lds[i]);
			continue;
		}
		ld = inv_add_ld(d);
		if (!ld)
			return -ENOMEM;
		*ld = s->lds[i];
		memset(&s->lds[i], 0, sizeof(s->lds[i]));
	}
	return pds_merge(c, s->pds, s->nr_pds, &d->pds, &d->nr_pds, d->id != NULL);
}

static int controller_merge(struct inv_controller *d, struct inv_controller *s)
{
	int ret = 0;

	steal(&d->model, &s->model);
	steal(&d->slot, &s->slot);
	steal(&d->serial, &s->serial);
	steal(&d->firmware, &s->firmware);
	steal(&d->driver, &s->driver);
	steal(&d->pci, &s->pci);
	steal(&d->mode, &s->mode);
	if (d->numa_node == INV_NO_NUMA)
		d->numa_node = s->numa_node;
	status_merge(&d->status, &d->status_text, &s->status, &s->status_text);
	if (!d->pcie.known)
		d->pcie = s->pcie;
	for (size_t i = 0; !ret && i < s->nr_arrays; i++) {
		struct inv_array *a = NULL;

		for (size_t k = 0; s->arrays[i].id && k < d->nr_arrays; k++)
			if (d->arrays[k].id && !strcmp(d->arrays[k].id, s->arrays[i].id))
				a = &d->arrays[k];
		if (!a) {
			a = inv_add_array(d);
			if (!a)
				return -ENOMEM;
			a->id = s->arrays[i].id;
			s->arrays[i].id = NULL;
		}
		ret = array_merge(d, a, &s->arrays[i]);
	}
	if (!ret)
		ret = pds_merge(d, s->unassigned, s->nr_unassigned, &d->unassigned,
				&d->nr_unassigned, true);
	if (!ret)
		ret = pds_merge(d, s->passthrough, s->nr_passthrough, &d->passthrough,
				&d->nr_passthrough, true);
	return ret;
}

static void md_merge(struct inv_md *d, struct inv_md *s)
{
	steal(&d->raid_level, &s->raid_level);
	if (d->size_bytes < 0)
		d->size_bytes = s->size_bytes;
	status_merge(&d->status, &d->status_text, &s->status, &s->status_text);
	if (d->progress_pct < 0)
		d->progress_pct = s->progress_pct;
	if (!d->nr_members && s->nr_members) {
		d->members = s->members;
		d->nr_members = s->nr_members;
		s->members = NULL;
		s->nr_members = 0;
	}
	for (size_t i = 0; i < d->nr_members; i++)	/* --detail knows slots mdstat does not */
		for (size_t k = 0; k < s->nr_members; k++)
			if (d->members[i].device && s->members[k].device &&
			    !strcmp(d->members[i].device, s->members[k].device) &&
			    d->members[i].slot == INV_UNSET)
				d->members[i].slot = s->members[k].slot;
}

/* How bad a status is, for rolling members up into their array: higher is worse. */
static int severity(enum inv_status st)
{
	static const int rank[] = {
		[INV_OK] = 1, [INV_ERASING] = 2, [INV_TRANSFORMING] = 3, [INV_INITIALIZING] = 4,
		[INV_PREDICTIVE_FAILURE] = 5, [INV_REBUILDING] = 6, [INV_DEGRADED] = 7,
		[INV_OFFLINE] = 8, [INV_FAILED] = 9, [INV_UNKNOWN] = 0,
	};

	return st <= INV_UNKNOWN ? rank[st] : 0;
}

/*
 * An array the tool gave no status of takes the worst of its logical drives
 * (hpacucli's "ld all show" names only the logical drive's Interim Recovery
 * Mode): a degraded volume must not sit under an array that reads "unknown".
 */
static int rollup_arrays(struct inventory *inv)
{
	for (size_t i = 0; i < inv->nr_controllers; i++)
		for (size_t k = 0; k < inv->controllers[i].nr_arrays; k++) {
			struct inv_array *a = &inv->controllers[i].arrays[k];
			const struct inv_ld *worst = NULL;
			char text[96];

			if (a->status != INV_UNKNOWN)
				continue;
			for (size_t l = 0; l < a->nr_lds; l++)
				if (severity(a->lds[l].status) > (worst ? severity(worst->status) : 0))
					worst = &a->lds[l];
			if (!worst)
				continue;
			a->status = worst->status;
			snprintf(text, sizeof(text), "as logical drive %s", worst->id ? worst->id : "?");
			if (rt_set(&a->status_text, text))
				return -ENOMEM;
		}
	return 0;
}

int raidtool_merge(struct inventory *dst, struct inventory *src)
{
	struct inventory rest = { 0 };
	int ret = rollup_arrays(src);

	for (size_t i = 0; !ret && i < src->nr_controllers; i++) {
		struct inv_controller *s = &src->controllers[i], *d = NULL;

		for (size_t k = 0; s->id && s->source && k < dst->nr_controllers; k++) {
			struct inv_controller *c = &dst->controllers[k];

			if (c->id && c->source && !strcmp(c->id, s->id) &&
			    !strcmp(c->source, s->source))
				d = c;
		}
		if (d) {
			ret = controller_merge(d, s);
			continue;
		}
		d = inv_add_controller(dst);
		if (!d)
			return -ENOMEM;
		*d = *s;
		memset(s, 0, sizeof(*s));
	}
	for (size_t i = 0; !ret && i < src->nr_md; i++) {
		struct inv_md *s = &src->md[i], *d = NULL;

		for (size_t k = 0; s->name && k < dst->nr_md; k++)
			if (dst->md[k].name && !strcmp(dst->md[k].name, s->name))
				d = &dst->md[k];
		if (d) {
			md_merge(d, s);
			continue;
		}
		d = inv_add_md(dst);
		if (!d)
			return -ENOMEM;
		*d = *s;
		memset(s, 0, sizeof(*s));
	}
	if (ret)
		return ret;
	/* block devices and notes have nothing to join: they move whole */
	rest.blockdevs = src->blockdevs;
	rest.nr_blockdevs = src->nr_blockdevs;
	rest.notes = src->notes;
	rest.nr_notes = src->nr_notes;
	src->blockdevs = NULL;
	src->nr_blockdevs = 0;
	src->notes = NULL;
	src->nr_notes = 0;
	ret = inventory_merge(dst, &rest);
	inventory_release(&rest);
	inventory_release(src);	/* what moved was zeroed; what merged is spent */
	return ret;
}

/* ---- running the listing commands -------------------------------------------- */

void rt_cmdline(char *buf, size_t len, const char *bin, const char *const *tail)
{
	size_t n = 0;

	buf[0] = '\0';
	if (bin)
		n = (size_t)snprintf(buf, len, "%s", bin);
	for (size_t i = 0; tail && tail[i] && n < len; i++)
		n = bufcat(buf, len, n, "%s%s", n ? " " : "", tail[i]);
}

/* The first non-blank line of s, up to len. */
static void first_line(const char *s, char *buf, size_t len)
{
	while (*s && isspace((unsigned char)*s))
		s++;
	snprintf(buf, len, "%.*s", (int)strcspn(s, "\n"), s);
	rt_trim(buf);
}

int rt_run_failed(char *err, size_t errlen, const char *cmdline, const struct raidtool_run *r)
{
	char said[400] = "";

	first_line(r->errout && *r->errout ? r->errout : (r->out ? r->out : ""), said,
		   sizeof(said));
	if (r->timed_out)
		snprintf(err, errlen, "`%s` did not finish in time and was killed", cmdline);
	else if (r->status < 0)
		snprintf(err, errlen, "`%s` was killed by signal %d%s%s", cmdline, r->signal,
			 *said ? ": " : "", said);
	else
		snprintf(err, errlen, "`%s` failed (exit status %d)%s%s", cmdline, r->status,
			 *said ? ": " : "", *said ? said : "and printed nothing");
	return -EIO;
}

static bool blank(const char *s)
{
	for (; s && *s; s++)
		if (!isspace((unsigned char)*s))
			return false;
	return true;
}

int rt_read_cmds(const struct raid_tool_ops *ops, const char *bin,
		 const char *const *const *cmds, struct inventory *inv,
		 const struct raidtool_src *src, const struct raidtool_ctl *ctl, char *err,
		 size_t errlen)
{
	const char *base = strrchr(bin, '/') ? strrchr(bin, '/') + 1 : bin;
	int ret = 0;

	for (size_t i = 0; !ret && cmds[i]; i++) {
		const char *argv[RAIDTOOL_MAX_ARGS + 1];
		char tail[512], full[PATH_MAX + 512], msg[768];
		struct raidtool_src s = *src;
		struct raidtool_run run;
		size_t n = 0;

		argv[n++] = bin;
		for (size_t k = 0; cmds[i][k] && n < RAIDTOOL_MAX_ARGS; k++)
			argv[n++] = cmds[i][k];
		argv[n] = NULL;
		rt_cmdline(tail, sizeof(tail), NULL, cmds[i]);
		rt_cmdline(full, sizeof(full), bin, cmds[i]);
		s.tool = base;
		s.cmd = tail;
		ret = raidtool_exec_ctl(argv, ctl, &run, msg, sizeof(msg));
		if (ret) {
			snprintf(err, errlen, "%s: %s", base, msg);
			raidtool_run_release(&run);
			break;
		}
		if (blank(run.out) && run.status != 0)
			ret = rt_run_failed(err, errlen, full, &run);
		else
			ret = rt_parse(ops, inv, run.out, &s, err, errlen);
		raidtool_run_release(&run);
	}
	return ret;
}
