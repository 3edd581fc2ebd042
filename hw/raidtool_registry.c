/*
 * raidtool_registry.c - the list of vendor RAID tools, and the questions
 * about them that take the whole list (by name, import forms, which tool
 * builds from block devices, names for messages). The only file besides the
 * tools' own that names them: adding a tool = its file + one line below.
 */
#include "raidtool.h"
#include "raidtool_int.h"
#include "raidtool_tools.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* In the order the live read asks them. */
static const struct raid_tool_ops *const registry[] = {
	&raidtool_ssacli, &raidtool_storcli, &raidtool_megacli, &raidtool_mdadm, NULL,
};

const struct raid_tool_ops *const *raidtool_all(void)
{
	return registry;
}

const struct raid_tool_ops *raidtool_by_name(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; registry[i]; i++) {
		const struct raid_tool_ops *t = registry[i];

		if (!strcasecmp(name, t->name))
			return t;
		for (size_t b = 0; t->binaries[b]; b++)
			if (!strcasecmp(name, t->binaries[b]))
				return t;
		for (size_t a = 0; t->aliases && t->aliases[a]; a++)
			if (!strcasecmp(name, t->aliases[a]))
				return t;
	}
	return NULL;
}

const struct raid_tool_ops *raidtool_for_block_devices(void)
{
	for (size_t i = 0; registry[i]; i++)
		if (!registry[i]->controller_id && registry[i]->build)
			return registry[i];
	return NULL;
}

void raidtool_builder_names(char *buf, size_t len, const char *sep)
{
	size_t n = 0, k = 0, o = 0;

	for (size_t i = 0; registry[i]; i++)
		n += registry[i]->build != NULL;
	if (!len)
		return;
	buf[0] = '\0';
	for (size_t i = 0; registry[i]; i++) {
		const struct raid_tool_ops *t = registry[i];

		if (!t->build)
			continue;
		o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%s",
				      !k ? "" : k + 1 < n || *sep == '|' ? sep : " or ", t->name);
		for (size_t a = 0; t->aliases && t->aliases[a]; a++)
			o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%s",
					      *sep == '|' ? "|" : "/", t->aliases[a]);
		k++;
	}
}

int raidtool_writable(const struct raid_tool_ops *ops, const char *name, char *why,
		      size_t whylen)
{
	if (ops && ops->build)
		return 0;
	if (ops && ops->superseded_by) {
		const struct raid_tool_ops *by = ops->superseded_by;
		size_t n = (size_t)snprintf(why, whylen, "%s is read-only in raidbench: change "
					    "these controllers with %s", ops->name, by->name);

		for (size_t a = 0; by->aliases && by->aliases[a] && n < whylen; a++)
			n += (size_t)snprintf(why + n, whylen - n, "%s%s",
					      by->aliases[a + 1] ? ", " : " or ", by->aliases[a]);
	}
	else
		snprintf(why, whylen, "%s cannot build arrays in raidbench",
			 ops ? ops->name : name && *name ? name : "(no tool)");
	return -EINVAL;
}

bool raidtool_own_id(const struct raid_tool_ops *ops, const char *id)
{
	char buf[128];

	return ops && ops->controller_id && id && !ops->controller_id(id, buf, sizeof(buf)) &&
	       !strcmp(buf, id);
}

const char *raidtool_id_short(const struct raid_tool_ops *ops, const char *id)
{
	size_t n = ops && ops->id_prefix ? strlen(ops->id_prefix) : 0;

	return id && n && !strncmp(id, ops->id_prefix, n) ? id + n : id;
}

const char *raidtool_id_short_what(const struct raid_tool_ops *ops)
{
	return ops && ops->id_short_what ? ops->id_short_what : "the controller's id";
}

bool raidtool_same_controller(const struct raid_tool_ops *ops, const char *a, const char *b)
{
	char x[128], y[128];

	return ops && ops->controller_id && a && b && !ops->controller_id(a, x, sizeof(x)) &&
	       !ops->controller_id(b, y, sizeof(y)) && !strcmp(x, y);
}

const char *raidtool_import_form(size_t i)
{
	for (size_t t = 0; registry[t]; t++)
		for (size_t f = 0; registry[t]->imports && registry[t]->imports[f].form; f++)
			if (!i--)
				return registry[t]->imports[f].form;
	return NULL;
}

const struct raid_tool_ops *rt_import_form(const char *word, const struct raidtool_import **form)
{
	const struct raid_tool_ops *ops;

	for (size_t t = 0; registry[t]; t++)
		for (size_t f = 0; registry[t]->imports && registry[t]->imports[f].form; f++)
			if (!strcmp(word, registry[t]->imports[f].form)) {
				*form = &registry[t]->imports[f];
				return registry[t];
			}
	/* a tool's other names ("perccli", "hpssacli"): its first form */
	ops = raidtool_by_name(word);
	if (!ops || !ops->imports || !ops->imports[0].form)
		return NULL;
	*form = &ops->imports[0];
	return ops;
}
