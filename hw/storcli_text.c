/*
 * storcli_text.c - storcli / perccli output without `J`, as people paste it
 * ("storcli /c0 show all", "storcli show"), turned into the document `J`
 * would have printed, so hw/storcli.c reads one shape and text and JSON of
 * one controller give one model.
 *
 * The text is a header block ("Controller = 0", "Status = Success",
 * "Description = None") per controller, then "Key = Value" lines and
 * sections: a title line "Name :" over a line of '=', holding either
 * "Key = Value" lines or a table framed by lines of '-'. A table's columns
 * are found from the blanks shared by its header and every row: values
 * hold single blanks ("10.913 TB", "HBA 9500-16e") and are aligned left or
 * right. Some versions print single blanks between columns: such a table
 * is read when each row holds exactly one value per one-word name (see
 * single_spaced). A table whose columns cannot be told apart is refused with
 * its line, never guessed. Legends and lines of other shapes are skipped.
 */
#include "storcli_text.h"
#include "raidtool_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct st {
	struct rt_lines l;
	struct json_object *ctrls;	/* the "Controllers" list */
	struct json_object *cs, *rd;	/* current Command Status, Response Data */
	struct json_object *sect;	/* current section (object or list), NULL at top */
	struct json_object *detail;	/* "Drive /cX/eY/sZ - Detailed Information" */
	char detail_name[96];		/* "Drive /c0/e252/s0 " its subsections start with */
	size_t bad_line;
	char *why;
	size_t whylen;
};

static bool only_of(const char *s, char c)
{
	size_t n = 0;

	while (*s == ' ')
		s++;
	for (; *s && *s != ' ' && *s != '\r'; s++, n++)
		if (*s != c)
			return false;
	while (*s == ' ' || *s == '\r')
		s++;
	return n >= 3 && !*s;
}

static int bad(struct st *p, size_t i, const char *fmt, const char *arg)
{
	p->bad_line = i + 1;
	snprintf(p->why, p->whylen, fmt, arg);
	return -EBADMSG;
}

static int new_controller(struct st *p)
{
	struct json_object *elem = json_object_new_object();

	p->cs = json_object_new_object();
	p->rd = json_object_new_object();
	if (!elem || !p->cs || !p->rd) {
		json_object_put(elem);
		json_object_put(p->cs);
		json_object_put(p->rd);
		return -ENOMEM;
	}
	json_object_object_add(elem, "Command Status", p->cs);
	json_object_object_add(elem, "Response Data", p->rd);
	json_object_array_add(p->ctrls, elem);
	p->sect = p->detail = NULL;
	return 0;
}

/*
 * "Controller = 1" over "Status = ...": the next controller's header. A
 * "CLI Version = " line after a status starts the next command's output
 * (a paste of `/c0 show` then `show`): its own document, never folded into
 * the controller before it.
 */
static bool header_starts(const struct st *p, size_t i)
{
	const char *s = p->l.v[i];

	if (strncmp(s, "Controller = ", 13))
		return false;
	for (i++; i < p->l.nr; i++) {
		const char *t = p->l.v[i];

		while (*t == ' ')
			t++;
		if (*t)
			return !strncmp(t, "Status = ", 9);
	}
	return false;
}

static bool status_key(const char *k)
{
	static const char *const keys[] = { "CLI Version", "Operating system", "Controller",
					    "Status Code", "Status", "Description", NULL };

	for (const char *const *s = keys; *s; s++)
		if (!strcmp(k, *s))
			return true;
	return false;
}

/* "Name :" over "====": opens a section; subsections of a drive's details nest. */
static int section(struct st *p, const char *name)
{
	struct json_object *parent = p->rd, *o;
	size_t n = strlen(name);
	const char *tail = " - Detailed Information";

	if (p->detail && !strncmp(name, p->detail_name, strlen(p->detail_name)))
		parent = p->detail;
	else
		p->detail = NULL;
	o = json_object_new_object();
	if (!o)
		return -ENOMEM;
	json_object_object_add(parent, name, o);
	p->sect = o;
	if (n > strlen(tail) && !strcmp(name + n - strlen(tail), tail)) {
		p->detail = o;
		p->sect = NULL;
		snprintf(p->detail_name, sizeof(p->detail_name), "%.*s ",
			 (int)(n - strlen(tail)), name);
	}
	return 0;
}

/* Column spans: runs of positions not blank in the header or some row. */
struct col {
	size_t from, to;
};

/* *c (caller frees) and their number; -ENOMEM. One pass per line: linear in the table. */
static int columns(char *const *lines, size_t nr, struct col **c, size_t *nc)
{
	size_t width = 0, n = 0;
	bool *used;

	for (size_t k = 0; k < nr; k++)
		if (strlen(lines[k]) > width)
			width = strlen(lines[k]);
	used = calloc(width + 1, sizeof(*used));
	*c = calloc(width / 2 + 1, sizeof(**c));
	if (!used || !*c) {
		free(used);
		free(*c);
		*c = NULL;
		return -ENOMEM;
	}
	for (size_t k = 0; k < nr; k++)
		for (size_t x = 0; lines[k][x]; x++)
			used[x] |= lines[k][x] != ' ';
	for (size_t x = 0; x < width; x++) {
		if (!used[x])
			continue;
		(*c)[n].from = x;
		while (x < width && used[x])
			x++;
		(*c)[n++].to = x;
	}
	free(used);
	*nc = n;
	return 0;
}

static void cell(const char *line, const struct col *c, char *buf, size_t len)
{
	size_t n = strlen(line);
	char *t;

	if (c->from >= n) {
		*buf = '\0';
		return;
	}
	snprintf(buf, len, "%.*s", (int)((c->to < n ? c->to : n) - c->from), line + c->from);
	t = rt_trim(buf);
	memmove(buf, t, strlen(t) + 1);
}

/* The sections whose tables the model is built from. */
static bool read_table(const struct st *p)
{
	static const char *const names[] = { "TOPOLOGY", "VD LIST", "PD LIST", "System Overview",
					     "IT System Overview", "Drive Information", NULL };
	struct json_object *parent = p->detail ? p->detail : p->rd;

	if (!p->sect)
		return false;
	json_object_object_foreach(parent, key, val) {
		if (val != p->sect)
			continue;
		for (const char *const *n = names; *n; n++)
			if (!strcmp(key, *n))
				return true;
		/* "Drive /c0/e252/s0", "/c0/v0", "PDs for VD 0" */
		return (!strncmp(key, "Drive /c", 8) && !strchr(key + 6, ' ')) ||
		       !strncmp(key, "/c", 2) || !strncmp(key, "PDs for VD ", 11);
	}
	return false;
}

/*
 * A column with no header over it is the rest of a value holding a blank
 * ("SAMSUNG MZ7777777777-00000" when every row's model has its blank past
 * the end of "Model"): joined to the column one blank to its left, else to
 * the one a blank to its right; farther away it stays, and is refused.
 */
static void join_blank_headed(const char *header, struct col *c, size_t *nc)
{
	for (size_t k = 0; k < *nc;) {
		char name[128];

		cell(header, &c[k], name, sizeof(name));
		if (*name) {
			k++;
			continue;
		}
		if (k > 0 && c[k].from == c[k - 1].to + 1)
			c[k - 1].to = c[k].to;
		else if (k + 1 < *nc && c[k + 1].from == c[k].to + 1)
			c[k + 1].from = c[k].from;
		else {
			k++;
			continue;
		}
		memmove(&c[k], &c[k + 1], (*nc - k - 1) * sizeof(*c));
		(*nc)--;
	}
}

/* "4.087" then "TB": a size's number and unit, one value */
static bool size_pair(const char *num, const char *unit)
{
	static const char *const units[] = { "B", "KB", "MB", "GB", "TB", "PB", "KiB", "MiB",
					     "GiB", "TiB", "PiB", NULL };

	if (!isdigit((unsigned char)*num) || strspn(num, "0123456789.") != strlen(num))
		return false;
	for (const char *const *u = units; *u; u++)
		if (!strcmp(unit, *u))
			return true;
	return false;
}

/*
 * Some storcli versions print a table with single blanks between its
 * columns ("0/0 RAID5 Optl RW Yes RWBD - 4.087 TB" under "DG/VD TYPE State
 * Access Consist Cache sCC Size Name"): positions tell nothing, but when
 * every header name is one word and every row holds one value per name (a
 * size's number and unit being one value, an empty Name last) and starts
 * with an id, the rows read one way only. Anything else stays refused. The
 * list, or NULL.
 */
static int add_table(struct st *p, struct json_object *list);

static struct json_object *single_spaced(struct st *p, size_t h, size_t end)
{
	char hdr[512], *names[64], *save = NULL, *t;
	struct json_object *list;
	size_t nn = 0;

	if (strstr(p->l.v[h], "  "))
		return NULL;	/* aligned columns: not this shape */
	snprintf(hdr, sizeof(hdr), "%s", p->l.v[h]);
	for (t = strtok_r(hdr, " \r", &save); t && nn < 64; t = strtok_r(NULL, " \r", &save))
		names[nn++] = t;
	if (nn < 2 || t)
		return NULL;
	list = json_object_new_array();
	for (size_t k = h + 2; list && k < end; k++) {
		char row_s[512], *v[64];
		size_t nv = 0;
		struct json_object *row;

		snprintf(row_s, sizeof(row_s), "%s", p->l.v[k]);
		save = NULL;
		for (t = strtok_r(row_s, " \r", &save); t && nv < 64; t = strtok_r(NULL, " \r", &save)) {
			if (nv && size_pair(v[nv - 1], t))
				t[-1] = ' ';	/* "4.087 TB" again one value */
			else
				v[nv++] = t;
		}
		/* every table read starts a row with an id ("0/0", "252:0", "0"): a
		 * line of another row's tail (a paste reflowed) is never one */
		if (t || !(nv == nn || (nv + 1 == nn && !strcmp(names[nn - 1], "Name"))) ||
		    !nv || !(isdigit((unsigned char)*v[0]) || *v[0] == ':')) {
			json_object_put(list);
			return NULL;
		}
		row = json_object_new_object();
		if (!row) {
			json_object_put(list);
			return NULL;
		}
		for (size_t j = 0; j < nn; j++)
			json_object_object_add(row, names[j], json_object_new_string(j < nv ? v[j] : ""));
		json_object_array_add(list, row);
	}
	return list;
}

/*
 * The table whose header is line h (rows follow a line of '-', up to the
 * next one). A column whose header holds two names ("Model  Sp" when a
 * model ran into the next column) is refused: which value is whose would
 * be a guess. "PCI Address" is one name of two words.
 */
static int table(struct st *p, size_t h, size_t *next)
{
	struct col *c = NULL;
	size_t end = h + 2, nc = 0;
	struct json_object *list;
	char **rows;
	int ret;

	while (end < p->l.nr && !only_of(p->l.v[end], '-'))
		end++;
	if (end >= p->l.nr)
		return bad(p, h, "%s", "a table without its closing line of '-'");
	*next = end + 1;
	rows = malloc(sizeof(*rows) * (end - h));
	if (!rows)
		return -ENOMEM;
	rows[0] = p->l.v[h];
	for (size_t k = h + 2; k < end; k++)
		rows[k - h - 1] = p->l.v[k];
	ret = columns(rows, end - h - 1, &c, &nc);
	free(rows);
	if (ret)
		return ret;
	join_blank_headed(p->l.v[h], c, &nc);
	for (size_t k = 0; k < nc; k++) {
		char name[128];

		cell(p->l.v[h], &c[k], name, sizeof(name));
		if (*name && (!strchr(name, ' ') || !strcmp(name, "PCI Address")))
			continue;
		free(c);
		if (!read_table(p))
			return 0;	/* a table the model does not read: skipped */
		list = single_spaced(p, h, end);
		if (!list)
			return bad(p, h, "columns of this table cannot be told apart "
				   "(header «%s» over one column)", name);
		return add_table(p, list);
	}
	list = json_object_new_array();
	if (!list) {
		free(c);
		return -ENOMEM;
	}
	for (size_t k = h + 2; k < end; k++) {
		struct json_object *row = json_object_new_object();

		if (!row) {
			free(c);
			json_object_put(list);
			return -ENOMEM;
		}
		for (size_t j = 0; j < nc; j++) {
			char name[128], val[256];

			cell(p->l.v[h], &c[j], name, sizeof(name));
			cell(p->l.v[k], &c[j], val, sizeof(val));
			json_object_object_add(row, name, json_object_new_string(val));
		}
		json_object_array_add(list, row);
	}
	free(c);
	return add_table(p, list);
}

/* A section holds a table: the section becomes the table's rows (list is taken). */
static int add_table(struct st *p, struct json_object *list)
{
	if (p->sect && json_object_is_type(p->sect, json_type_object) &&
	    !json_object_object_length(p->sect)) {
		struct json_object *parent = p->detail ? p->detail : p->rd;

		json_object_object_foreach(parent, key, val) {
			if (val == p->sect) {
				json_object_object_add(parent, key, list);
				p->sect = list;
				return 0;
			}
		}
	}
	json_object_put(list);	/* a second table in one section: unknown, skipped */
	return 0;
}

static int key_value(struct st *p, char *s)
{
	char *eq = strstr(s, " = "), *k = s, *v;
	struct json_object *dst;

	if (!eq) {
		size_t n = strlen(s);

		if (n < 2 || strcmp(s + n - 2, " ="))
			return 0;	/* a legend, a hex dump: nothing the model needs */
		s[n - 2] = '\0';
		v = s + n;
	} else {
		*eq = '\0';
		v = eq + 3;
	}
	k = rt_trim(k);
	v = rt_trim(v);
	if (!*k)
		return 0;
	if (!p->sect && status_key(k) && !json_object_object_length(p->rd))
		dst = p->cs;
	else if (p->sect && json_object_is_type(p->sect, json_type_object))
		dst = p->sect;
	else if (!p->sect)
		dst = p->rd;
	else
		return 0;
	json_object_object_add(dst, k, json_object_new_string(v));
	return 0;
}

int storcli_text_to_json(const char *text, struct json_object **root, size_t *bad_line,
			 char *why, size_t whylen)
{
	struct st p = { .why = why, .whylen = whylen };
	int ret;

	*root = NULL;
	*bad_line = 0;
	if ((ret = rt_lines_split(text, &p.l)))
		return ret;
	*root = json_object_new_object();
	p.ctrls = json_object_new_array();
	if (!*root || !p.ctrls) {
		json_object_put(p.ctrls);
		ret = -ENOMEM;
		goto out;
	}
	json_object_object_add(*root, "Controllers", p.ctrls);
	for (size_t i = 0; !ret && i < p.l.nr;) {
		char *s = p.l.v[i];
		size_t n = strlen(s);

		while (n && (s[n - 1] == ' ' || s[n - 1] == '\r'))
			s[--n] = '\0';
		if (!p.cs && (strstr(s, " = ") || only_of(s, '=')))
			ret = new_controller(&p);
		if (ret)
			break;
		if ((header_starts(&p, i) || !strncmp(s, "CLI Version = ", 14)) &&
		    json_object_object_length(p.cs) &&
		    json_object_object_get_ex(p.cs, "Status", NULL))
			ret = new_controller(&p);
		else if (i + 1 < p.l.nr && only_of(p.l.v[i + 1], '=') && n > 2 &&
			 !strcmp(s + n - 2, " :") && p.cs) {
			s[n - 2] = '\0';
			ret = section(&p, rt_trim(s));
			i += 2;
			continue;
		} else if (only_of(s, '-') && i + 2 < p.l.nr && only_of(p.l.v[i + 2], '-') &&
			   p.cs) {
			size_t next;

			ret = table(&p, i + 1, &next);
			i = next;
			continue;
		}
		if (!ret && p.cs)
			ret = key_value(&p, s);
		i++;
	}
	if (!ret && !p.cs)
		ret = bad(&p, p.l.nr ? p.l.nr - 1 : 0, "%s",
			  "no \"Key = Value\" line: neither storcli's JSON nor its text");
	/* sections alone, an excerpt: which controller, and did the command succeed? */
	if (!ret && !json_object_object_get_ex(json_object_object_get(
			    json_object_array_get_idx(p.ctrls, 0), "Command Status"), "Status", NULL))
		ret = bad(&p, 0, "%s", "no \"Controller = N\" / \"Status = ...\" header "
			  "before the sections (only part of the output?)");
out:
	rt_lines_release(&p.l);
	if (ret) {
		json_object_put(*root);
		*root = NULL;
	}
	return ret;
}
