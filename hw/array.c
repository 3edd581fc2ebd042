/*
 * array.c - validating an array change before any tool runs, and turning
 * it into the exact argv. The checks are the ones a careful admin makes by
 * hand: the controller and every drive exist, the drives are unassigned,
 * the count fits the level, and no member or logical drive is mounted or
 * held (core/guard.h's guard_examine on the OS device). What a change will
 * destroy becomes a warning shown next to the command.
 *
 * Never runs a tool and never prints.
 */
#include "array.h"
#include "raidtool_int.h"
#include "guard.h"
#include "bufcat.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

static const char *const verb_names[] = {
	[ARRAY_CREATE] = "create", [ARRAY_DELETE] = "delete", [ARRAY_ADD_SPARE] = "add-spare",
	[ARRAY_REMOVE_SPARE] = "remove-spare", [ARRAY_ERASE] = "erase", [ARRAY_MODE] = "mode",
	[ARRAY_FAIL] = "fail",
};

const char *array_verb_name(enum array_verb v)
{
	return (unsigned)v < sizeof(verb_names) / sizeof(verb_names[0]) ? verb_names[v] : "?";
}

int array_verb_parse(const char *s, enum array_verb *v)
{
	for (size_t i = 0; i < sizeof(verb_names) / sizeof(verb_names[0]); i++)
		if (!strcmp(s, verb_names[i])) {
			*v = (enum array_verb)i;
			return 0;
		}
	return -EINVAL;
}

/* ---- levels --------------------------------------------------------------- */

bool array_level_rule(const struct raid_tool_ops *ops, const char *level, unsigned *min,
		      unsigned *multiple)
{
	const struct raidtool_level *r = ops ? ops->rules : NULL;

	for (; r && level && r->level; r++)
		if (!strcmp(r->level, level)) {
			*min = r->min;
			*multiple = r->multiple;
			return true;
		}
	return false;
}

/* ---- lookups -------------------------------------------------------------- */

const struct inv_controller *array_controller(const struct array_op *op,
					      const struct inventory *inv)
{
	for (size_t i = 0; i < inv->nr_controllers; i++) {
		const struct inv_controller *c = &inv->controllers[i];

		if (c->source && !strcmp(c->source, op->ops->name) && c->id &&
		    !strcmp(c->id, op->controller))
			return c;
	}
	return NULL;
}

struct pd_at {
	const struct inv_pd *pd;
	const struct inv_array *array;	/* NULL for unassigned and pass-through drives */
};

static bool find_pd(const struct inv_controller *c, const char *id, struct pd_at *at)
{
	for (size_t i = 0; i < c->nr_arrays; i++)
		for (size_t k = 0; k < c->arrays[i].nr_pds; k++)
			if (c->arrays[i].pds[k].id && !strcmp(c->arrays[i].pds[k].id, id)) {
				at->pd = &c->arrays[i].pds[k];
				at->array = &c->arrays[i];
				return true;
			}
	for (size_t k = 0; k < c->nr_unassigned; k++)
		if (c->unassigned[k].id && !strcmp(c->unassigned[k].id, id)) {
			at->pd = &c->unassigned[k];
			at->array = NULL;
			return true;
		}
	for (size_t k = 0; k < c->nr_passthrough; k++)
		if (c->passthrough[k].id && !strcmp(c->passthrough[k].id, id)) {
			at->pd = &c->passthrough[k];
			at->array = NULL;
			return true;
		}
	return false;
}

static const struct inv_ld *find_ld(const struct inv_controller *c, const char *id)
{
	for (size_t i = 0; i < c->nr_arrays; i++)
		for (size_t k = 0; k < c->arrays[i].nr_lds; k++)
			if (c->arrays[i].lds[k].id && !strcmp(c->arrays[i].lds[k].id, id))
				return &c->arrays[i].lds[k];
	return NULL;
}

static const char *md_base(const char *s)
{
	if (!strncmp(s, "/dev/md/", 8))
		return s + 8;
	return strrchr(s, '/') ? strrchr(s, '/') + 1 : s;
}

static const struct inv_md *find_md(const struct inventory *inv, const char *name)
{
	for (size_t i = 0; name && i < inv->nr_md; i++)
		if (inv->md[i].name && !strcmp(inv->md[i].name, md_base(name)))
			return &inv->md[i];
	return NULL;
}

/* The md array a block device belongs to, and its role there. */
static const struct inv_md *md_holding(const struct inventory *inv, const char *dev,
				       const char **role)
{
	const char *b = md_base(dev);

	for (size_t i = 0; i < inv->nr_md; i++)
		for (size_t k = 0; k < inv->md[i].nr_members; k++)
			if (inv->md[i].members[k].device &&
			    !strcmp(inv->md[i].members[k].device, b)) {
				*role = inv->md[i].members[k].role;
				return &inv->md[i];
			}
	return NULL;
}

/* ---- messages --------------------------------------------------------------- */

static int fail(char *err, size_t errlen, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return ret;
}

static int warn(struct array_plan *plan, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int warn(struct array_plan *plan, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = inv_add_vstrf(&plan->warnings, &plan->nr_warnings, fmt, ap);
	va_end(ap);
	return ret;
}

void array_plan_release(struct array_plan *plan)
{
	for (size_t i = 0; i < plan->nr_warnings; i++)
		free(plan->warnings[i]);
	free(plan->warnings);
	memset(plan, 0, sizeof(*plan));
}

/* "1I:0:5, 1I:0:6" of the drives in a list with this role (NULL = any), for hints. */
static void list_ids(char *buf, size_t len, const struct inv_pd *pds, size_t nr, const char *role)
{
	size_t n = strlen(buf);

	for (size_t i = 0; i < nr && n < len; i++)
		if (pds[i].id && (!role || (pds[i].role && !strcmp(pds[i].role, role))))
			n = bufcat(buf, len, n, "%s%s", n ? ", " : "", pds[i].id);
}

static void role_words(const struct pd_at *at, char *buf, size_t len)
{
	const char *role = at->pd->role ? at->pd->role : "";

	if (at->array && at->array->id)
		snprintf(buf, len, "%s of array %s",
			 !strcmp(role, "spare") ? "a spare" : "a data drive", at->array->id);
	else if (at->array)
		snprintf(buf, len, "in use by an array (the tool does not say which)");
	else if (!strcmp(role, "spare"))
		snprintf(buf, len, "a global spare");
	else if (!strcmp(role, "passthrough"))
		snprintf(buf, len, "a pass-through (HBA mode) drive");
	else
		snprintf(buf, len, "%s", *role ? role : "of unknown use");
}

/* ---- the OS side: mounts, holders, signatures ----------------------------------- */

static int real_stat_blockdev(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -errno;
	return S_ISBLK(st.st_mode) ? 0 : -ENOTBLK;
}

/*
 * Refuses a device that is mounted, swap, root or held (md, dm, LVM); what
 * carries data only becomes a warning, since the user is about to say --yes.
 */
static int os_check(const struct array_env *env, const char *what, const char *path,
		    struct array_plan *plan, char *err, size_t errlen)
{
	struct guard_report rep;
	int ret = env->examine(path, &rep);
	char *line, *save = NULL, name[192];

	if (what)
		snprintf(name, sizeof(name), "%s (%s)", what, path);
	else
		snprintf(name, sizeof(name), "%s", path);
	if (ret == -ENOENT)
		return 0;	/* no node: nothing can have it mounted */
	if (ret)
		return fail(err, errlen, -EBUSY, "%s cannot be examined (%s): refusing to change "
			    "it", name, strerror(-ret));
	if (rep.verdict == GUARD_NEVER || strstr(rep.reasons, " is held by "))
		return fail(err, errlen, -EBUSY, "%s is in use: %s; free it first (unmount, "
			    "swapoff, stop the md/LVM on it)", name, rep.reasons);
	for (line = strtok_r(rep.reasons, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if ((ret = warn(plan, "%s: will be lost", line)))
			return ret;
	return 0;
}

/* ---- per verb ----------------------------------------------------------------- */

static int check_level(const struct array_op *op, size_t n, char *err, size_t errlen)
{
	unsigned min, multiple;
	char can[128] = "";

	for (size_t i = 0; op->ops->levels && op->ops->levels[i]; i++)
		snprintf(can + strlen(can), sizeof(can) - strlen(can), "%s%s", i ? " " : "",
			 op->ops->levels[i]);
	if (!op->level || !array_level_rule(op->ops, op->level, &min, &multiple))
		return fail(err, errlen, -EINVAL, "%s cannot build RAID %s; it builds: %s",
			    op->ops->name, op->level ? op->level : "(none given)", can);
	if (n < min)
		return fail(err, errlen, -EINVAL, "RAID %s needs at least %u drives with %s; %zu "
			    "given", op->level, min, op->ops->name, n);
	if (n % multiple)
		return fail(err, errlen, -EINVAL, "RAID %s needs a multiple of %u drives with %s; "
			    "%zu given", op->level, multiple, op->ops->name, n);
	return 0;
}

static int check_strip(const struct array_op *op, char *err, size_t errlen)
{
	int64_t s = op->strip_bytes, lo = (int64_t)op->ops->strip_min_kib << 10;

	if (s < 0)
		return 0;
	if (s < lo || s > (1 << 20) || (s & (s - 1)))
		return fail(err, errlen, -EINVAL, "strip size %lld KiB: %s takes a power of two "
			    "from %lld KiB to 1024 KiB", (long long)(s >> 10), op->ops->name,
			    (long long)(lo >> 10));
	return 0;
}

static int no_duplicates(const struct array_op *op, char *err, size_t errlen)
{
	for (size_t i = 0; i < op->nr_drives + op->nr_spares; i++)
		for (size_t k = i + 1; k < op->nr_drives + op->nr_spares; k++) {
			const char *a = i < op->nr_drives ? op->drives[i] : op->spares[i - op->nr_drives];
			const char *b = k < op->nr_drives ? op->drives[k] : op->spares[k - op->nr_drives];

			if (!strcmp(a, b))
				return fail(err, errlen, -EINVAL, "drive %s is named twice", a);
		}
	return 0;
}

/* A vendor drive that must exist, and have role want ("unassigned", "spare"). */
static int vendor_drive(const struct inv_controller *c, const char *id, const char *want,
			const struct array_env *env, struct array_plan *plan, char *err,
			size_t errlen)
{
	struct pd_at at;
	char free_ids[512] = "", what[128];
	const char *dev;

	if (!find_pd(c, id, &at)) {
		list_ids(free_ids, sizeof(free_ids), c->unassigned, c->nr_unassigned, NULL);
		return fail(err, errlen, -ENOENT, "no drive %s on %s %s (unassigned drives: %s)",
			    id, c->source, c->id, *free_ids ? free_ids : "none");
	}
	if (!at.pd->role || strcmp(at.pd->role, want)) {
		role_words(&at, what, sizeof(what));
		if (strcmp(want, "unassigned"))
			return fail(err, errlen, -EBUSY, "drive %s is %s, not a spare", id, what);
		list_ids(free_ids, sizeof(free_ids), c->unassigned, c->nr_unassigned, want);
		return fail(err, errlen, -EBUSY, "drive %s is %s, not unassigned (unassigned "
			    "drives: %s)", id, what, *free_ids ? free_ids : "none");
	}
	if (at.pd->status != INV_OK && strcmp(want, "spare"))
		return fail(err, errlen, -EBUSY, "drive %s is not healthy (%s): refusing to use it",
			    id, at.pd->status_text ? at.pd->status_text : inv_status_name(at.pd->status));
	/* a drive the OS sees (Mixed mode, a JBOD): its block device must be free too */
	dev = raidtool_join_wwn(at.pd->wwn, env->osdevs, env->nr_osdevs);
	if (dev) {
		char path[96];

		snprintf(path, sizeof(path), "/dev/%s", dev);
		snprintf(what, sizeof(what), "drive %s", id);
		return os_check(env, what, path, plan, err, errlen);
	}
	return 0;
}

static int md_device(const struct array_op *op, const struct inventory *inv,
		     const struct array_env *env, const char *dev, struct array_plan *plan,
		     char *err, size_t errlen)
{
	const struct inv_md *md;
	const char *role = NULL;
	int ret = env->stat_blockdev(dev);

	(void)op;
	if (ret)
		return fail(err, errlen, -ENOENT, "%s is not a block device (%s)", dev,
			    strerror(-ret));
	md = md_holding(inv, dev, &role);
	if (md)
		return fail(err, errlen, -EBUSY, "%s is already a%s member of %s", dev,
			    role && !strcmp(role, "spare") ? " spare" : "", md->name);
	return os_check(env, NULL, dev, plan, err, errlen);
}

static void next_letter(const struct inv_controller *c, char *buf, size_t len)
{
	char best = 'A' - 1;

	for (size_t i = 0; i < c->nr_arrays; i++)
		if (c->arrays[i].id && strlen(c->arrays[i].id) == 1 && c->arrays[i].id[0] > best)
			best = c->arrays[i].id[0];
	snprintf(buf, len, "%c", best < 'Z' ? best + 1 : 'Z');
}

static int validate_create(const struct array_op *op, const struct inventory *inv,
			   const struct inv_controller *c, const struct array_env *env,
			   struct array_plan *plan, char *err, size_t errlen)
{
	int ret = check_level(op, op->nr_drives, err, errlen) ?: check_strip(op, err, errlen) ?:
		  no_duplicates(op, err, errlen);

	for (size_t i = 0; !ret && i < op->nr_drives + op->nr_spares; i++) {
		const char *d = i < op->nr_drives ? op->drives[i] : op->spares[i - op->nr_drives];

		ret = c ? vendor_drive(c, d, "unassigned", env, plan, err, errlen) :
			  md_device(op, inv, env, d, plan, err, errlen);
	}
	if (ret)
		return ret;
	if (c && (op->ops->flags & RT_F_LETTERED_ARRAYS))
		next_letter(c, plan->new_array, sizeof(plan->new_array));
	if (!c) {
		if (op->name) {
			if (find_md(inv, op->name))
				return fail(err, errlen, -EBUSY, "%s already exists", op->name);
			snprintf(plan->md_name, sizeof(plan->md_name), "%s%s",
				 *op->name == '/' ? "" : "/dev/", op->name);
		} else {
			for (int n = 0; n < 128 && !*plan->md_name; n++) {
				char name[16];

				snprintf(name, sizeof(name), "md%d", n);
				if (!find_md(inv, name))
					snprintf(plan->md_name, sizeof(plan->md_name), "/dev/%s", name);
			}
		}
	}
	return 0;
}

static int validate_delete(const struct array_op *op, const struct inventory *inv,
			   const struct inv_controller *c, const struct array_env *env,
			   struct array_plan *plan, char *err, size_t errlen)
{
	const struct inv_ld *ld;
	char what[96];

	if (!op->ld)
		return fail(err, errlen, -EINVAL, "which one? give --ld=ID");
	if (!c) {
		const struct inv_md *md = find_md(inv, op->ld);
		char path[96];

		if (!md)
			return fail(err, errlen, -ENOENT, "no md array %s (%s --detail --scan "
				    "does not list it)", op->ld, op->ops->name);
		snprintf(path, sizeof(path), "/dev/%s", md->name);
		return os_check(env, NULL, path, plan, err, errlen);
	}
	ld = find_ld(c, op->ld);
	if (!ld)
		return fail(err, errlen, -ENOENT, "no logical drive %s on %s %s", op->ld,
			    c->source, c->id);
	snprintf(what, sizeof(what), "logical drive %s", ld->id);
	if (!ld->os_device)
		return warn(plan, "the OS device of logical drive %s is not known: make sure "
			    "nothing uses it", ld->id);
	return os_check(env, what, ld->os_device, plan, err, errlen);
}

static int validate_spare(const struct array_op *op, const struct inventory *inv,
			  const struct inv_controller *c, const struct array_env *env,
			  struct array_plan *plan, char *err, size_t errlen)
{
	bool add = op->verb == ARRAY_ADD_SPARE;
	int ret = 0;

	if (!op->nr_drives)
		return fail(err, errlen, -EINVAL, "which drive? give --drives=ID");
	if (c && (op->ops->flags & RT_F_ONE_SPARE_PER_COMMAND) && op->nr_drives != 1)
		return fail(err, errlen, -EINVAL, "%s takes one drive per spare command",
			    op->ops->name);
	if (c && op->array && strcmp(op->array, "all")) {
		bool found = false;

		for (size_t i = 0; i < c->nr_arrays; i++)
			found |= c->arrays[i].id && !strcmp(c->arrays[i].id, op->array);
		if (!found)
			return fail(err, errlen, -ENOENT, "no array %s on %s %s", op->array,
				    c->source, c->id);
	}
	if (!c) {
		const struct inv_md *md = find_md(inv, op->ld);

		if (!md)
			return fail(err, errlen, -ENOENT, "no md array %s: give --ld=/dev/mdN",
				    op->ld ? op->ld : "(none given)");
		for (size_t i = 0; !ret && i < op->nr_drives; i++) {
			const char *role = NULL;
			const struct inv_md *holder = md_holding(inv, op->drives[i], &role);

			if (add)
				ret = md_device(op, inv, env, op->drives[i], plan, err, errlen);
			else if (holder != md)
				ret = fail(err, errlen, -ENOENT, "%s is not a member of %s",
					   op->drives[i], md->name);
			else if (op->verb == ARRAY_REMOVE_SPARE && strcmp(role, "spare") &&
				 strcmp(role, "faulty"))
				ret = fail(err, errlen, -EBUSY, "%s is an active member of %s: fail it "
					   "first (raidbench array fail)", op->drives[i], md->name);
		}
		return ret;
	}
	for (size_t i = 0; !ret && i < op->nr_drives; i++)
		ret = vendor_drive(c, op->drives[i], add ? "unassigned" : "spare", env, plan, err,
				   errlen);
	return ret;
}

static int validate_erase(const struct array_op *op, const struct inventory *inv,
			  const struct inv_controller *c, const struct array_env *env,
			  struct array_plan *plan, char *err, size_t errlen)
{
	int ret = 0;

	if (!op->nr_drives)
		return fail(err, errlen, -EINVAL, "which drive? give --drives=ID");
	if (c && op->nr_drives != 1)
		return fail(err, errlen, -EINVAL, "%s erases one drive per command",
			    op->ops->name);
	for (size_t i = 0; !ret && i < op->nr_drives; i++)
		ret = c ? vendor_drive(c, op->drives[i], "unassigned", env, plan, err, errlen) :
			  md_device(op, inv, env, op->drives[i], plan, err, errlen);
	if (!ret)
		ret = warn(plan, "everything on %s%s will be lost", op->drives[0],
			   op->nr_drives > 1 ? " and the other drives named" : "");
	return ret;
}

/*
 * RAID mode takes the pass-through drives away from the OS: one that is
 * mounted, swap, the root file system or held (md, LVM) refuses the switch.
 */
static int passthrough_free(const struct inv_controller *c, const struct array_env *env,
			    char *err, size_t errlen)
{
	for (size_t i = 0; i < c->nr_passthrough; i++) {
		const struct inv_pd *pd = &c->passthrough[i];
		const char *dev = raidtool_join_wwn(pd->wwn, env->osdevs, env->nr_osdevs);
		struct guard_report rep;
		char path[96];
		int ret;

		if (!dev)
			continue;
		snprintf(path, sizeof(path), "/dev/%s", dev);
		ret = env->examine(path, &rep);
		if (ret == -ENOENT)
			continue;
		if (ret)
			return fail(err, errlen, -EBUSY, "pass-through drive %s (%s) cannot be examined "
				    "(%s): refusing to take it from the OS", pd->id ? pd->id : "?",
				    path, strerror(-ret));
		if (rep.verdict == GUARD_NEVER || strstr(rep.reasons, " is held by "))
			return fail(err, errlen, -EBUSY, "pass-through drive %s (%s) is in use: %s; RAID "
				    "mode would take it from the OS: free it first", pd->id ? pd->id :
				    "?", path, rep.reasons);
	}
	return 0;
}

static int validate_mode(const struct array_op *op, const struct inv_controller *c,
			 const struct array_env *env, struct array_plan *plan, char *err,
			 size_t errlen)
{
	size_t lds = 0;
	int ret;

	if (!op->mode || (strcmp(op->mode, "hba") && strcmp(op->mode, "raid")))
		return fail(err, errlen, -EINVAL, "--mode=hba or --mode=raid");
	if (c->mode && !strcmp(c->mode, op->mode))
		return fail(err, errlen, -EINVAL, "%s %s is already in %s mode", c->source, c->id,
			    op->mode);
	for (size_t i = 0; i < c->nr_arrays; i++)
		lds += c->arrays[i].nr_lds;
	if (!strcmp(op->mode, "hba") && lds)
		return fail(err, errlen, -EBUSY, "%s %s still has %zu logical drive(s): delete "
			    "them first (HBA mode exposes the raw drives)", c->source, c->id, lds);
	if (!strcmp(op->mode, "raid") && (ret = passthrough_free(c, env, err, errlen)))
		return ret;
	if (!strcmp(op->mode, "raid") && c->nr_passthrough &&
	    warn(plan, "the %zu pass-through drive(s) disappear from the OS%s", c->nr_passthrough,
		 env->nr_osdevs ? " (none of those the OS shows is in use)" : ": the OS devices "
		 "are not known here, make sure none is mounted or in use"))
		return -ENOMEM;
	return warn(plan, "the new mode takes effect after a reboot");
}

int array_validate(const struct array_op *op, const struct inventory *inv,
		   const struct array_env *env, struct array_plan *plan, char *err,
		   size_t errlen)
{
	struct array_env real = { guard_examine, real_stat_blockdev, NULL, 0 };
	struct raidtool_osdev *devs = NULL;
	const struct inv_controller *c = NULL;
	bool md = !op->ops->controller_id;	/* software RAID: arrays of block devices */
	int ret;

	memset(plan, 0, sizeof(*plan));
	if (!env) {
		raidtool_osdevs_from_sysfs("/sys", &devs, &real.nr_osdevs);
		real.osdevs = devs;
		env = &real;
	}
	if ((ret = raidtool_writable(op->ops, op->ops->name, err, errlen)))
		goto out;
	if ((op->verb == ARRAY_MODE && md) || (op->verb == ARRAY_FAIL && !md)) {
		ret = fail(err, errlen, -EINVAL, "%s has no '%s'", op->ops->name,
			   array_verb_name(op->verb));
		goto out;
	}
	if (!md) {
		char ids[512] = "";

		c = array_controller(op, inv);
		for (size_t i = 0; !c && i < inv->nr_controllers; i++)
			if (inv->controllers[i].source &&
			    !strcmp(inv->controllers[i].source, op->ops->name))
				snprintf(ids + strlen(ids), sizeof(ids) - strlen(ids), "%s%s (%s)",
					 *ids ? ", " : "", inv->controllers[i].id ?
					 inv->controllers[i].id : "?", inv->controllers[i].model ?
					 inv->controllers[i].model : "?");
		if (!c) {
			ret = fail(err, errlen, -ENOENT, "%s sees no controller %s%s%s",
				   op->ops->name, *op->controller ? op->controller : "(none given)",
				   *ids ? "; it sees: " : "", ids);
			goto out;
		}
	}
	switch (op->verb) {
	case ARRAY_CREATE:
		ret = validate_create(op, inv, c, env, plan, err, errlen);
		break;
	case ARRAY_DELETE:
		ret = validate_delete(op, inv, c, env, plan, err, errlen);
		break;
	case ARRAY_ADD_SPARE:
	case ARRAY_REMOVE_SPARE:
	case ARRAY_FAIL:
		ret = validate_spare(op, inv, c, env, plan, err, errlen);
		break;
	case ARRAY_ERASE:
		ret = validate_erase(op, inv, c, env, plan, err, errlen);
		break;
	case ARRAY_MODE:
		ret = validate_mode(op, c, env, plan, err, errlen);
		break;
	default:
		ret = fail(err, errlen, -EINVAL, "unknown operation");
	}
out:
	if (ret)
		array_plan_release(plan);
	raidtool_osdevs_free(devs, real.nr_osdevs);
	return ret;
}

int array_build(const struct array_op *op, const struct array_plan *plan,
		const struct inventory *inv, const char *bin, struct raidtool_argv *av, char *err,
		size_t errlen)
{
	struct array_op o = *op;
	int ret;

	memset(av, 0, sizeof(*av));
	if (!op->ops->build)
		return fail(err, errlen, -EINVAL, "%s is read-only", op->ops->name);
	/* what validation chose: the md device of a create */
	if (!o.name && plan && *plan->md_name && !op->ops->controller_id)
		o.name = plan->md_name;
	if (op->verb == ARRAY_CREATE && !op->ops->controller_id && !o.name)
		return fail(err, errlen, -EINVAL, "which md device? give --name=/dev/mdN");
	ret = raidtool_argv_push(av, "%s", bin);
	if (!ret)
		ret = op->ops->build(&o, inv, av, err, errlen);
	if (ret == -E2BIG || ret == -ENOMEM)
		snprintf(err, errlen, "the command is too long (%s)", strerror(-ret));
	if (ret)
		raidtool_argv_release(av);
	return ret;
}

bool array_spare_followup(const struct array_op *op, const struct array_plan *plan,
			  struct array_op *sp)
{
	*sp = *op;
	sp->verb = ARRAY_ADD_SPARE;
	sp->drives = op->spares;
	sp->nr_drives = op->nr_spares;
	sp->spares = NULL;
	sp->nr_spares = 0;
	sp->array = plan ? plan->new_array : NULL;
	return op->verb == ARRAY_CREATE && (op->ops->flags & RT_F_SPARES_AFTER_CREATE) &&
	       op->nr_spares;
}

bool array_destructive(const struct array_op *op)
{
	return op->verb != ARRAY_REMOVE_SPARE;
}

const char *array_hint(const struct array_op *op, const char *msg)
{
	static const struct {
		const char *needle, *hint;
	} hints[] = {
		{ "not a valid option", "the tool does not offer that RAID level for these drives: "
		  "pick a level that fits the drive count (raidbench array create --help)" },
		{ "drive count is invalid", "the RAID level does not fit the number of drives" },
		{ "No controllers detected", "is the controller's driver loaded (lsmod | grep -e "
		  "hpsa -e smartpqi)?" },
		{ "Operation not allowed", "the drive or volume is in a state that forbids this "
		  "(configured, foreign, rebuilding): look at raidbench array show" },
		{ "conflict", "a drive named is already in use: pick unassigned drives "
		  "(raidbench array show)" },
		{ "not unassigned", "pick unassigned drives (raidbench array show)" },
		{ "not available", "pick unassigned drives (raidbench array show)" },
		{ "already", "pick drives that are not in use (raidbench array show)" },
		{ "Device or resource busy", "something holds the device (mounted, another md "
		  "array, LVM): free it first" },
		{ "does not have", "check the id with raidbench array show" },
		{ "not found", "check the id with raidbench array show" },
		{ "No such", "check the id with raidbench array show" },
		{ "did not finish", "the tool did not answer in time and was killed: check the "
		  "controller (dmesg), then retry, with a longer --timeout if it is just slow" },
	};

	(void)op;
	for (size_t i = 0; msg && i < sizeof(hints) / sizeof(hints[0]); i++)
		if (strcasestr(msg, hints[i].needle))
			return hints[i].hint;
	return NULL;
}
