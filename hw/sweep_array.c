/*
 * sweep_array.c - the sweep's vendor-tool steps: find the tool and the
 * controller, build and run a create, find the logical drive that a create
 * made (by its exact member drives), delete it and check it is gone. The
 * same validation and argv as `raidbench array` (hw/array.h); no shell.
 *
 * Never prints: every failure is -errno plus the message in err.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sweep_int.h"

static const char *base(const char *s)
{
	return strrchr(s, '/') ? strrchr(s, '/') + 1 : s;
}

int sweep_tool_find(struct sweep_tool *t, const char *tool, char *err, size_t errlen)
{
	memset(t, 0, sizeof(*t));
	char can[128];

	raidtool_builder_names(can, sizeof(can), ", ");
	if (!tool || !*tool)
		return sweep_fail(err, errlen, -EINVAL, "which tool? %s", can);
	t->ops = raidtool_by_name(base(tool));
	if (!t->ops || !t->ops->build)
		return sweep_fail(err, errlen, -EINVAL, "%s cannot build arrays (%s can)", tool, can);
	if (strchr(tool, '/')) {
		snprintf(t->bin, sizeof(t->bin), "%s", tool);
		return 0;
	}
	if (raidtool_find(t->ops, t->bin, sizeof(t->bin)))
		return sweep_fail(err, errlen, -ENOENT, "%s is not installed (%s is not on PATH)",
			    t->ops->name, t->ops->binaries[0]);
	return 0;
}

int sweep_tool_read(const struct sweep_tool *t, struct inventory *inv, char *err,
		    size_t errlen)
{
	char why[1024] = "";
	int ret;

	inventory_release(inv);
	memset(inv, 0, sizeof(*inv));
	ret = raidtool_read(t->ops, t->bin, inv, t->timeout_ms, why, sizeof(why));
	if (ret)
		return sweep_fail(err, errlen, ret, "cannot read the configuration: %s", why);
	return 0;
}

int sweep_tool_controller(struct sweep_tool *t, const char *user, const struct inventory *inv,
			  char *err, size_t errlen)
{
	const struct inv_controller *only = NULL;
	size_t n = 0;

	t->controller[0] = '\0';
	if (!t->ops->controller_id) {
		if (user && *user)
			return sweep_fail(err, errlen, -EINVAL, "%s has no controllers: give no controller",
				    t->ops->name);
		return 0;
	}
	if (user && *user) {
		if (t->ops->controller_id(user, t->controller, sizeof(t->controller)))
			return sweep_fail(err, errlen, -EINVAL, "controller '%s': %s takes %s", user,
				    t->ops->name, t->ops->id_forms);
	} else {
		for (size_t i = 0; i < inv->nr_controllers; i++)
			if (inv->controllers[i].source &&
			    !strcmp(inv->controllers[i].source, t->ops->name)) {
				only = &inv->controllers[i];
				n++;
			}
		if (n != 1 || !only->id)
			return sweep_fail(err, errlen, -EINVAL, "%s sees %zu controllers: name one",
				    t->ops->name, n);
		snprintf(t->controller, sizeof(t->controller), "%s", only->id);
	}
	for (size_t i = 0; i < inv->nr_controllers; i++)
		if (inv->controllers[i].id && !strcmp(inv->controllers[i].id, t->controller) &&
		    inv->controllers[i].source && !strcmp(inv->controllers[i].source, t->ops->name))
			return 0;
	return sweep_fail(err, errlen, -ENOENT, "%s shows no controller %s", t->ops->name,
		    t->controller);
}

static const struct inv_controller *controller(const struct sweep_tool *t,
					       const struct inventory *inv)
{
	struct array_op op = { .ops = t->ops };

	if (!t->ops->controller_id)
		return NULL;
	snprintf(op.controller, sizeof(op.controller), "%s", t->controller);
	return array_controller(&op, inv);
}

static const struct inv_pd *find_pd(const struct inv_controller *c, const char *id)
{
	for (size_t i = 0; i < c->nr_unassigned; i++)
		if (c->unassigned[i].id && !strcasecmp(c->unassigned[i].id, id))
			return &c->unassigned[i];
	for (size_t i = 0; i < c->nr_arrays; i++)
		for (size_t k = 0; k < c->arrays[i].nr_pds; k++)
			if (c->arrays[i].pds[k].id && !strcasecmp(c->arrays[i].pds[k].id, id))
				return &c->arrays[i].pds[k];
	return NULL;
}

/* md members are block devices: their size from sysfs. */
static int64_t blockdev_bytes(const char *dev)
{
	char path[PATH_MAX];
	unsigned long long sectors;
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/sys/class/block/%s/size", base(dev));
	f = fopen(path, "r");
	if (!f)
		return -1;
	ok = fscanf(f, "%llu", &sectors) == 1;
	fclose(f);
	return ok ? (int64_t)(sectors * 512) : -1;
}

int64_t sweep_drive_bytes(const struct sweep_tool *t, const struct inventory *inv,
			  char *const *drives, size_t nr)
{
	const struct inv_controller *c = controller(t, inv);
	int64_t min = -1;

	for (size_t i = 0; i < nr; i++) {
		const struct inv_pd *pd = c ? find_pd(c, drives[i]) : NULL;
		int64_t b = c ? (pd ? pd->size_bytes : -1) : blockdev_bytes(drives[i]);

		if (b < 0)
			return -1;
		if (min < 0 || b < min)
			min = b;
	}
	return min;
}

/* Whether names (n of them) is exactly the set drives, ignoring order and case. */
static bool same_set(const char *const *names, size_t n, char *const *drives, size_t nr,
		     bool by_base)
{
	if (n != nr)
		return false;
	for (size_t i = 0; i < nr; i++) {
		bool found = false;

		for (size_t k = 0; k < n && !found; k++)
			found = names[k] && !strcasecmp(by_base ? base(names[k]) : names[k],
							by_base ? base(drives[i]) : drives[i]);
		if (!found)
			return false;
	}
	return true;
}

static void fill_ld(struct sweep_ld *out, const struct inv_ld *ld)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->id, sizeof(out->id), "%s", ld->id ? ld->id : "");
	snprintf(out->level, sizeof(out->level), "%s", ld->raid_level ? ld->raid_level : "");
	snprintf(out->os_device, sizeof(out->os_device), "%s", ld->os_device ? ld->os_device : "");
	snprintf(out->uid, sizeof(out->uid), "%s", ld->uid ? ld->uid : "");
	snprintf(out->status_text, sizeof(out->status_text), "%s",
		 ld->status_text ? ld->status_text : inv_status_name(ld->status));
	out->strip_bytes = ld->strip_size_bytes;
	out->size_bytes = ld->size_bytes;
	out->status = ld->status;
	out->progress_pct = ld->progress_pct;
}

static enum sweep_match find_md(const struct inventory *inv, char *const *drives, size_t nr,
				const char *id, struct sweep_ld *out)
{
	for (size_t i = 0; i < inv->nr_md; i++) {
		const struct inv_md *md = &inv->md[i];
		const char *names[256];
		size_t n = 0;

		for (size_t k = 0; k < md->nr_members && n < 256; k++)
			names[n++] = md->members[k].device;
		if (!same_set(names, n, drives, nr, true))
			continue;
		if (!md->name || (id && *id && strcmp(base(id), md->name)))
			return SWEEP_LD_CHANGED;
		memset(out, 0, sizeof(*out));
		snprintf(out->id, sizeof(out->id), "%s", md->name);
		snprintf(out->level, sizeof(out->level), "%s", md->raid_level ? md->raid_level : "");
		snprintf(out->os_device, sizeof(out->os_device), "/dev/%s", md->name);
		snprintf(out->status_text, sizeof(out->status_text), "%s",
			 md->status_text ? md->status_text : inv_status_name(md->status));
		out->strip_bytes = -1;
		out->size_bytes = md->size_bytes;
		out->status = md->status;
		out->progress_pct = md->progress_pct;
		return SWEEP_LD_FOUND;
	}
	return SWEEP_LD_GONE;
}

enum sweep_match sweep_find_ld(const struct sweep_tool *t, const struct inventory *inv,
			       char *const *drives, size_t nr, const char *id,
			       struct sweep_ld *out)
{
	const struct inv_controller *c;

	if (!t->ops->controller_id)
		return find_md(inv, drives, nr, id, out);
	c = controller(t, inv);
	for (size_t i = 0; c && i < c->nr_arrays; i++) {
		const struct inv_array *a = &c->arrays[i];
		const char *names[256];
		size_t n = 0;

		for (size_t k = 0; k < a->nr_pds && n < 256; k++)
			if (!a->pds[k].role || strcmp(a->pds[k].role, "spare"))
				names[n++] = a->pds[k].id;
		if (!same_set(names, n, drives, nr, false))
			continue;
		if (a->nr_lds != 1 || !a->lds[0].id || (id && *id && strcmp(a->lds[0].id, id)))
			return SWEEP_LD_CHANGED;
		fill_ld(out, &a->lds[0]);
		return SWEEP_LD_FOUND;
	}
	return SWEEP_LD_GONE;
}

bool sweep_osdev_shared(const struct inventory *inv, const char *os_device, const char *ld_id)
{
	for (size_t i = 0; i < inv->nr_controllers; i++)
		for (size_t k = 0; k < inv->controllers[i].nr_arrays; k++) {
			const struct inv_array *a = &inv->controllers[i].arrays[k];

			for (size_t l = 0; l < a->nr_lds; l++)
				if (a->lds[l].os_device && !strcmp(a->lds[l].os_device, os_device) &&
				    (!a->lds[l].id || strcmp(a->lds[l].id, ld_id)))
					return true;
		}
	return false;
}

static void set_op(struct array_op *op, const struct sweep_tool *t, enum array_verb verb)
{
	memset(op, 0, sizeof(*op));
	op->verb = verb;
	op->ops = t->ops;
	snprintf(op->controller, sizeof(op->controller), "%s", t->controller);
	op->strip_bytes = INV_UNSET;
	op->size_bytes = INV_UNSET;
}

/* Validates op against inv and builds its argv and line. */
static int build(const struct sweep_tool *t, const struct array_op *op,
		 const struct inventory *inv, struct raidtool_argv *av, char **line,
		 char **warnings, char *err, size_t errlen)
{
	struct array_plan plan;
	char why[1024] = "";
	int ret;

	memset(av, 0, sizeof(*av));
	*line = NULL;
	ret = array_validate(op, inv, NULL, &plan, why, sizeof(why));
	if (ret)
		return sweep_fail(err, errlen, ret, "%s", why);
	if (warnings) {
		size_t len = 1;

		for (size_t i = 0; i < plan.nr_warnings; i++)
			len += strlen(plan.warnings[i]) + 1;
		*warnings = plan.nr_warnings ? calloc(1, len) : NULL;
		for (size_t i = 0; *warnings && i < plan.nr_warnings; i++)
			strcat(strcat(*warnings, i ? "\n" : ""), plan.warnings[i]);
	}
	ret = array_build(op, &plan, inv, t->bin, av, why, sizeof(why));
	array_plan_release(&plan);
	if (ret)
		return sweep_fail(err, errlen, ret, "%s", why);
	*line = raidtool_argv_format((const char *const *)av->v);
	if (!*line) {
		raidtool_argv_release(av);
		return sweep_fail(err, errlen, -ENOMEM, "out of memory");
	}
	return 0;
}

int sweep_build_create(const struct sweep_tool *t, const struct inventory *inv,
		       const char *level, char *const *drives, size_t nr, int64_t strip,
		       struct raidtool_argv *av, char **line, char **warnings, char *err,
		       size_t errlen)
{
	struct array_op op;

	set_op(&op, t, ARRAY_CREATE);
	op.level = level;
	op.drives = (char **)drives;
	op.nr_drives = nr;
	op.strip_bytes = strip >= 0 ? strip : INV_UNSET;
	return build(t, &op, inv, av, line, warnings, err, errlen);
}

int sweep_exec(const struct sweep_tool *t, const struct raidtool_argv *av, const char *level,
	       char *err, size_t errlen)
{
	struct raidtool_run run;
	struct array_op op;
	char why[2048] = "";
	const char *hint;
	int ret;

	ret = raidtool_exec((const char *const *)av->v, t->timeout_ms, &run, why, sizeof(why));
	if (!ret)
		ret = t->ops->check(&run, why, sizeof(why));
	raidtool_run_release(&run);
	if (!ret)
		return 0;
	set_op(&op, t, level ? ARRAY_CREATE : ARRAY_DELETE);
	op.level = level;
	hint = array_hint(&op, why);
	return sweep_fail(err, errlen, ret, "%s failed: %s%s%s", t->ops->name, why,
		    hint ? "; what to do: " : "", hint ? hint : "");
}

int sweep_delete_ld(const struct sweep_tool *t, struct inventory *inv, const char *ld,
		    char *const *drives, size_t nr, char **line, char *err, size_t errlen)
{
	struct raidtool_argv av;
	struct array_op op;
	struct sweep_ld found;
	char why[2048] = "";
	int ret;

	*line = NULL;
	switch (sweep_find_ld(t, inv, drives, nr, ld, &found)) {
	case SWEEP_LD_GONE:
		return sweep_fail(err, errlen, -ENOENT, "logical drive %s is not there any more", ld);
	case SWEEP_LD_CHANGED:
		return sweep_fail(err, errlen, -EBUSY, "the drives of logical drive %s now hold something "
			    "else: left alone", ld);
	case SWEEP_LD_FOUND:
		break;
	}
	set_op(&op, t, ARRAY_DELETE);
	op.ld = found.id;
	ret = build(t, &op, inv, &av, line, NULL, why, sizeof(why));
	if (ret)
		return sweep_fail(err, errlen, ret, "not deleted: %s", why);
	ret = sweep_exec(t, &av, NULL, why, sizeof(why));
	raidtool_argv_release(&av);
	if (ret)
		return sweep_fail(err, errlen, ret, "%s", why);
	ret = sweep_tool_read(t, inv, why, sizeof(why));
	if (ret)
		return sweep_fail(err, errlen, ret, "deleted, but %s", why);
	if (sweep_find_ld(t, inv, drives, nr, found.id, &found) != SWEEP_LD_GONE)
		return sweep_fail(err, errlen, -EIO, "%s said the delete worked, but logical drive %s is "
			    "still there", t->ops->name, found.id);
	return 0;
}
