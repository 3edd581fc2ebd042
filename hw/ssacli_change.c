/*
 * ssacli_change.c - building ssacli's create / delete / spare / erase / mode
 * commands from a validated hw/array.h op (the seed's own forms where
 * seeds/000 shows them), judging what a change printed ("Error:" lines, the
 * exit status), and ssacli's ops table. Reading is hw/ssacli.c's.
 */
#include "raidtool.h"
#include "raidtool_int.h"
#include "raidtool_tools.h"
#include "ssacli_int.h"
#include "array.h"
#include "bufcat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const binaries[] = { "ssacli", "hpssacli", "hpacucli", NULL };

static int ssa_controller_id(const char *user, char *buf, size_t len)
{
	const char *s = user;

	if (rt_prefix(s, "slot=") || rt_prefix(s, "slot "))
		s += 5;
	if (!*s || strspn(s, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") !=
			   strlen(s))
		return -EINVAL;
	snprintf(buf, len, "slot=%s", s);
	return 0;
}

static int join(char *buf, size_t len, char *const *v, size_t nr)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < nr; i++) {
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "," : "", v[i]);
		if (n >= len)
			return -E2BIG;
	}
	return 0;
}

static int ssa_build(const struct array_op *op, const struct inventory *inv,
		     struct raidtool_argv *av, char *err, size_t errlen)
{
	const struct inv_controller *c = array_controller(op, inv);
	char list[2048];
	int ret;

	if (join(list, sizeof(list), op->drives, op->nr_drives)) {
		snprintf(err, errlen, "too many drives for one command");
		return -E2BIG;
	}
	ret = raidtool_argv_push(av, "ctrl") ?: raidtool_argv_push(av, "%s", op->controller);
	if (ret)
		return ret;
	switch (op->verb) {
	case ARRAY_CREATE:
		ret = raidtool_argv_push(av, "create") ?: raidtool_argv_push(av, "type=ld") ?:
		      raidtool_argv_push(av, "drives=%s", list) ?:
		      raidtool_argv_push(av, "raid=%s", !strcmp(op->level, "10") ? "1+0" : op->level);
		if (!ret && op->strip_bytes > 0)
			ret = raidtool_argv_push(av, "stripsize=%lld",
						 (long long)(op->strip_bytes / 1024));
		if (!ret && op->size_bytes > 0)
			ret = raidtool_argv_push(av, "size=%lld",
						 (long long)(op->size_bytes >> 20));
		return ret ?: raidtool_argv_push(av, "forced");
	case ARRAY_DELETE:
		return raidtool_argv_push(av, "ld") ?: raidtool_argv_push(av, "%s", op->ld) ?:
		       raidtool_argv_push(av, "delete") ?: raidtool_argv_push(av, "forced");
	case ARRAY_ADD_SPARE:
	case ARRAY_REMOVE_SPARE:
		/* the seed's own form: `array all add spares=1I:0:8` */
		return raidtool_argv_push(av, "array") ?:
		       raidtool_argv_push(av, "%s", op->array ? op->array : "all") ?:
		       raidtool_argv_push(av, op->verb == ARRAY_ADD_SPARE ? "add" : "remove") ?:
		       raidtool_argv_push(av, "spares=%s", list);
	case ARRAY_ERASE:
		return raidtool_argv_push(av, "pd") ?: raidtool_argv_push(av, "%s", list) ?:
		       raidtool_argv_push(av, "modify") ?: raidtool_argv_push(av, "erase") ?:
		       raidtool_argv_push(av, "erasepattern=%s", op->pattern ? op->pattern : "zero") ?:
		       raidtool_argv_push(av, "forced");
	case ARRAY_MODE:
		ret = raidtool_argv_push(av, "modify");
		/* Smart HBA H2xx words it raidmode=off (seeds/000); Smart Array P4xx hbamode=on */
		if (!ret && c && c->model && rt_prefix(c->model, "Smart HBA"))
			ret = raidtool_argv_push(av, "raidmode=%s",
						 !strcmp(op->mode, "hba") ? "off" : "on");
		else if (!ret)
			ret = raidtool_argv_push(av, "hbamode=%s",
						 !strcmp(op->mode, "hba") ? "on" : "off");
		return ret ?: raidtool_argv_push(av, "forced");
	default:
		snprintf(err, errlen, "ssacli has no '%s' (that is mdadm's)", array_verb_name(op->verb));
		return -EOPNOTSUPP;
	}
}

/* Every "Error:" line (with its indented continuation) of a change's output. */
static int ssa_check(const struct raidtool_run *run, char *err, size_t errlen)
{
	const char *texts[2] = { run->out, run->errout };
	size_t n = 0;

	err[0] = '\0';
	for (int t = 0; t < 2; t++) {
		struct rt_lines l;

		if (!texts[t] || rt_lines_split(texts[t], &l))
			continue;
		for (size_t i = 0; i < l.nr; i++) {
			char msg[768];

			if (!rt_prefix(rt_trim(l.v[i]), "Error:"))
				continue;
			rt_error_block(&l, i, msg, sizeof(msg));
			if (n < errlen)
				n = bufcat(err, errlen, n, "%s%s", n ? " " : "", msg);
		}
		rt_lines_release(&l);
	}
	if (n)
		return -EIO;
	if (run->timed_out || run->status != 0) {
		char cmd[] = "ssacli";

		return rt_run_failed(err, errlen, cmd, run);
	}
	return 0;
}

static const char *const levels[] = { "0", "1", "10", "5", "6", "50", "60", "1adm", "10adm", NULL };

/* HPE's minimums (raid-cli.md 2.5) */
static const struct raidtool_level rules[] = {
	{ "0", 1, 1 }, { "1", 2, 2 }, { "10", 4, 2 }, { "5", 3, 1 }, { "6", 4, 1 },
	{ "50", 6, 2 }, { "60", 8, 2 }, { "1adm", 3, 3 }, { "10adm", 6, 3 }, { NULL, 0, 0 },
};

static const struct raidtool_import imports[] = {
	{ "ssacli", "ctrl all show config detail" }, { NULL, NULL },
};

const struct raid_tool_ops raidtool_ssacli = {
	.name = "ssacli",
	.binaries = binaries,
	/* a create takes its spares in a second command; arrays are lettered */
	.flags = RT_F_SPARES_AFTER_CREATE | RT_F_LETTERED_ARRAYS,
	.read = ssacli_read,
	.parse = ssacli_parse,
	.imports = imports,
	.controller_id = ssa_controller_id,
	.id_forms = "slot=N or N",
	/* "slot=255": the slot is what people read on the card and type */
	.id_prefix = "slot=",
	.id_short_what = "the controller's slot",
	.levels = levels,
	.rules = rules,
	.strip_min_kib = 8,
	.build = ssa_build,
	.check = ssa_check,
};
