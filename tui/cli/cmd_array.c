/*
 * cmd_array.c - `raidbench array`: show, create, delete, add-spare,
 * remove-spare, erase, mode (and mdadm's fail) through ssacli, storcli /
 * perccli or mdadm.
 *
 * Every change goes the same way: read the tool's live configuration,
 * validate the request against it (hw/array.h: drives exist and are free,
 * the count fits the level, nothing mounted or held), build the exact argv,
 * then either print it (--dry-run), refuse without --yes, or run it, judge
 * the tool's answer in the vendor's words plus what to do, and show the
 * configuration re-read. No shell is ever involved.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <json-c/json.h>

#include "cli.h"
#include "fmt.h"
#include "options.h"
#include "hw/array.h"
#include "hw/inventory.h"
#include "hw/raidtool.h"
#include "tty_text.h"

struct args {
	const char *verb;
	const char *tool;
	const char *controller;
	const char *level;
	const char *drives;
	const char *spares;
	const char *ld;
	const char *array;
	const char *name;
	const char *strip;
	const char *size;
	const char *mode;
	const char *pattern;
	double timeout_s;
	bool dry_run, yes, json, force;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: raidbench array show [--tool=TOOL] [--json]\n"
		"       raidbench array create --tool=TOOL [--controller=ID] --level=LEVEL\n"
		"                    --drives=D1,D2,... [--spares=D,...] [--strip=SIZE]\n"
		"                    [--size=SIZE|max] [--name=NAME]   [--dry-run | --yes]\n"
		"       raidbench array delete --tool=TOOL [--controller=ID] --ld=ID [--force]\n"
		"       raidbench array add-spare | remove-spare --tool=TOOL [--controller=ID]\n"
		"                    --drives=D [--array=A | --ld=/dev/mdN]\n"
		"       raidbench array erase --tool=TOOL [--controller=ID] --drives=D [--pattern=P]\n"
		"       raidbench array mode --tool=TOOL [--controller=ID] --mode=hba|raid\n"
		"       raidbench array fail --tool=mdadm --ld=/dev/mdN --drives=/dev/sdX\n"
		"\n"
		"TOOL      ssacli (also hpssacli, hpacucli), storcli (storcli64, perccli64,\n"
		"          perccli) or mdadm; a path to the binary also works. MegaCli is\n"
		"          read-only: change those controllers with storcli.\n"
		"ID        ssacli: slot=0 or 0; storcli: /c0 or 0. Optional with one controller.\n"
		"LEVEL     0 1 10 5 6 50 60 (ssacli also 1adm 10adm; mdadm also 4 linear).\n"
		"          Minimum drives: 0:1 1:2 10:4 5:3 6:4 (storcli 3) 50:6 60:8 (storcli 6);\n"
		"          1 and 10 take an even number.\n"
		"D         ssacli 1I:0:5, storcli 252:3 (enclosure:slot), mdadm /dev/sdb.\n"
		"SIZE      with k/m/g/t suffixes (binary): --strip=256k, --size=500g.\n"
		"--ld      the logical drive (ssacli 1, storcli's VD number 0) or the md device.\n"
		"--array   ssacli's array letter (default all), storcli's drive group for a\n"
		"          dedicated spare (default: a global spare).\n"
		"--name    mdadm: the md device to create (default: the first free /dev/mdN);\n"
		"          storcli: the VD's name.\n"
		"--pattern erase pattern: ssacli zero|overwrite|..., storcli simple|normal|thorough.\n"
		"--force   storcli delete: also when the VD holds partitions (not mounted ones).\n"
		"--dry-run print the exact command(s) and run nothing.\n"
		"--yes     run it: without --yes no change is ever made.\n"
		"--timeout=SECONDS  kill the tool (and its process group) after this long\n"
		"          (default $RAIDBENCH_TOOL_TIMEOUT, else 120).\n"
		"--json    after a change, or for show: the configuration as DESIGN's JSON.\n"
		"\n"
		"Before anything runs, the drives must exist and be unassigned, their number\n"
		"must fit the level, and no member or logical drive may be mounted or held.\n"
		"Afterwards the configuration is read again and shown.\n");
}

static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct cli_key keys[] = {
#define K(k, f) { "--" k, offsetof(struct args, f) }
		K("tool", tool), K("controller", controller), K("level", level),
		K("drives", drives), K("spares", spares), K("ld", ld), K("md", ld),
		K("array", array), K("name", name), K("strip", strip), K("size", size),
		K("mode", mode), K("pattern", pattern),
#undef K
	};

	for (int i = 0; i < argc; i++) {
		bool missing = false;
		const char *v;
		int got = cli_opt_table(argc, argv, &i, keys, sizeof(keys) / sizeof(keys[0]), a,
					"array");

		if (got < 0)
			return -1;
		if (got)
			continue;
		if ((v = cli_opt_value(argc, argv, &i, "--timeout", &missing))) {
			char *end;

			a->timeout_s = strtod(v, &end);
			if (end == v || *end || a->timeout_s <= 0) {
				tty_fprintf(stderr, "raidbench array: --timeout=%s: seconds, above 0\n", v);
				return -1;
			}
		} else if (!strcmp(argv[i], "--dry-run")) {
			a->dry_run = true;
		} else if (!strcmp(argv[i], "--yes") || !strcmp(argv[i], "-y")) {
			a->yes = true;
		} else if (!strcmp(argv[i], "--json")) {
			a->json = true;
		} else if (!strcmp(argv[i], "--force")) {
			a->force = true;
		} else if (argv[i][0] != '-' && !a->verb) {
			a->verb = argv[i];
		} else {
			tty_fprintf(stderr, "raidbench array: unknown option '%s' (see raidbench array "
				"--help)\n", argv[i]);
			return -1;
		}
	}
	if (!a->verb) {
		tty_fprintf(stderr, "raidbench array: which operation? (see raidbench array --help)\n");
		return -1;
	}
	if (a->dry_run && a->yes) {
		tty_fprintf(stderr, "raidbench array: --dry-run and --yes contradict each other\n");
		return -1;
	}
	return 0;
}

/* ---- printing ------------------------------------------------------------------ */

static void print_status(FILE *f, enum inv_status st, const char *text, double pct)
{
	tty_fprintf(f, "%s", inv_status_name(st));
	if (text)
		tty_fprintf(f, " (%s)", text);
	if (pct >= 0)
		tty_fprintf(f, " %.1f%%", pct);
}

static void print_pds(FILE *f, const struct inv_pd *pds, size_t nr, const char *indent)
{
	for (size_t i = 0; i < nr; i++) {
		const struct inv_pd *p = &pds[i];
		char size[32];

		fmt_bytes(size, sizeof(size), p->size_bytes);
		tty_fprintf(f, "%spd %-10s %-11s %10s  %s %s  %s  ", indent, p->id ? p->id : "?",
			p->role ? p->role : "?", size, p->interface ? p->interface : "",
			p->media ? p->media : "", p->model ? p->model : "");
		print_status(f, p->status, p->status_text, -1);
		fputc('\n', f);
	}
}

static void print_controller(FILE *f, const struct inv_controller *c)
{
	tty_fprintf(f, "%s %s  %s%s%s  ", c->source, c->id ? c->id : "(unknown)",
		c->model ? c->model : "", c->mode ? "  mode " : "", c->mode ? c->mode : "");
	print_status(f, c->status, c->status_text, -1);
	fputc('\n', f);
	for (size_t i = 0; i < c->nr_arrays; i++) {
		const struct inv_array *a = &c->arrays[i];

		tty_fprintf(f, "  array %s  ", a->id ? a->id : "(not named by the tool)");
		print_status(f, a->status, a->status_text, -1);
		fputc('\n', f);
		for (size_t k = 0; k < a->nr_lds; k++) {
			const struct inv_ld *ld = &a->lds[k];
			char size[32], strip[32];

			fmt_bytes(size, sizeof(size), ld->size_bytes);
			fmt_bytes(strip, sizeof(strip), ld->strip_size_bytes);
			tty_fprintf(f, "    ld %-4s RAID %-5s %10s  strip %s  ", ld->id ? ld->id : "?",
				ld->raid_level ? ld->raid_level : "?", size, strip);
			print_status(f, ld->status, ld->status_text, ld->progress_pct);
			tty_fprintf(f, "%s%s\n", ld->os_device ? "  " : "",
				ld->os_device ? ld->os_device : "");
		}
		print_pds(f, a->pds, a->nr_pds, "    ");
	}
	if (c->nr_unassigned) {
		tty_fprintf(f, "  unassigned\n");
		print_pds(f, c->unassigned, c->nr_unassigned, "    ");
	}
	if (c->nr_passthrough) {
		tty_fprintf(f, "  pass-through (HBA mode)\n");
		print_pds(f, c->passthrough, c->nr_passthrough, "    ");
	}
}

static void print_md(FILE *f, const struct inv_md *md)
{
	char size[32];

	fmt_bytes(size, sizeof(size), md->size_bytes);
	tty_fprintf(f, "md %s  RAID %s  %s  ", md->name ? md->name : "?",
		md->raid_level ? md->raid_level : "?", size);
	print_status(f, md->status, md->status_text, md->progress_pct);
	fputc('\n', f);
	for (size_t i = 0; i < md->nr_members; i++) {
		const struct inv_md_member *m = &md->members[i];

		tty_fprintf(f, "    %-12s %s", m->device ? m->device : "?", m->role ? m->role : "?");
		if (m->slot >= 0)
			tty_fprintf(f, " (slot %d)", m->slot);
		fputc('\n', f);
	}
}

static int print_inventory(const struct inventory *inv, bool json)
{
	if (json) {
		struct json_object *j = inventory_to_json(inv);

		if (!j) {
			tty_fprintf(stderr, "raidbench array: out of memory\n");
			return 1;
		}
		tty_json_puts(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY |
							   JSON_C_TO_STRING_NOSLASHESCAPE), stdout);
		json_object_put(j);
		return 0;
	}
	for (size_t i = 0; i < inv->nr_controllers; i++)
		print_controller(stdout, &inv->controllers[i]);
	for (size_t i = 0; i < inv->nr_md; i++)
		print_md(stdout, &inv->md[i]);
	if (!inv->nr_controllers && !inv->nr_md)
		tty_printf("no controllers or md arrays\n");
	for (size_t i = 0; i < inv->nr_notes; i++)
		tty_printf("note: %s\n", inv->notes[i]);
	return 0;
}

/* ---- the tool ----------------------------------------------------------------------- */

struct tool {
	const struct raid_tool_ops *ops;
	char bin[4096];
};

static int find_tool(const char *name, struct tool *t)
{
	const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;

	t->ops = raidtool_by_name(base);
	if (!t->ops) {
		char can[128];

		raidtool_builder_names(can, sizeof(can), ", ");
		tty_fprintf(stderr, "raidbench array: unknown tool '%s' (%s)\n", name, can);
		return EXIT_USAGE;
	}
	if (strchr(name, '/')) {
		snprintf(t->bin, sizeof(t->bin), "%s", name);
		return 0;
	}
	if (raidtool_find(t->ops, t->bin, sizeof(t->bin))) {
		tty_fprintf(stderr, "raidbench array: %s is not installed (none of", t->ops->name);
		for (size_t i = 0; t->ops->binaries[i]; i++)
			tty_fprintf(stderr, " %s", t->ops->binaries[i]);
		tty_fprintf(stderr, " is on PATH)\n");
		return 1;
	}
	return 0;
}

static int read_state(const struct tool *t, struct inventory *inv, int timeout_ms)
{
	char err[1024] = "";
	int ret;

	inventory_release(inv);
	ret = raidtool_read(t->ops, t->bin, inv, timeout_ms, err, sizeof(err));
	if (ret)
		tty_fprintf(stderr, "raidbench array: cannot read the configuration: %s\n", err);
	return ret;
}

static int cmd_show(const struct args *a, int timeout_ms)
{
	struct inventory inv = { 0 };
	struct tool t;
	char err[1024] = "";
	int ret;

	if (a->tool) {
		if ((ret = find_tool(a->tool, &t)))
			return ret;
		ret = read_state(&t, &inv, timeout_ms) ? 1 : 0;
	} else {
		ret = raidtool_read_all(&inv, err, sizeof(err)) < 0 ? 1 : 0;
		if (ret)
			tty_fprintf(stderr, "raidbench array: %s\n", err);
	}
	if (!ret)
		ret = print_inventory(&inv, a->json);
	inventory_release(&inv);
	return ret;
}

/* ---- a change ------------------------------------------------------------------------ */

static char **split_list(const char *s, size_t *nr)
{
	char *copy, *tok, *save = NULL, **v = NULL;

	*nr = 0;
	if (!s)
		return NULL;
	copy = strdup(s);
	for (tok = copy ? strtok_r(copy, ",", &save) : NULL; tok; tok = strtok_r(NULL, ",", &save)) {
		char **p = realloc(v, (*nr + 1) * sizeof(*v));

		if (!p)
			break;
		v = p;
		v[(*nr)++] = strdup(tok);
	}
	free(copy);
	return v;
}

static void free_list(char **v, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(v[i]);
	free(v);
}

static int size_arg(const char *name, const char *s, int64_t *out)
{
	uint64_t v;

	*out = INV_UNSET;
	if (!s || !strcmp(s, "max"))
		return 0;
	if (parse_size(s, 1024, &v) || v == 0 || v > (uint64_t)INT64_MAX) {
		tty_fprintf(stderr, "raidbench array: --%s=%s: a size such as 256k or 500g\n", name, s);
		return -1;
	}
	*out = (int64_t)v;
	return 0;
}

/* The controller: as given, else the only one the tool sees. */
static int pick_controller(const struct args *a, const struct tool *t,
			   const struct inventory *inv, struct array_op *op)
{
	const struct inv_controller *only = NULL;
	size_t n = 0;

	if (!t->ops->controller_id) {
		if (!a->controller)
			return 0;
		tty_fprintf(stderr, "raidbench array: %s has no controllers: drop --controller\n",
			t->ops->name);
		return EXIT_USAGE;
	}
	if (a->controller) {
		if (t->ops->controller_id(a->controller, op->controller, sizeof(op->controller))) {
			tty_fprintf(stderr, "raidbench array: --controller=%s: %s takes %s\n",
				a->controller, t->ops->name, t->ops->id_forms);
			return EXIT_USAGE;
		}
		return 0;
	}
	for (size_t i = 0; i < inv->nr_controllers; i++)
		if (inv->controllers[i].source && !strcmp(inv->controllers[i].source, t->ops->name)) {
			only = &inv->controllers[i];
			n++;
		}
	if (n != 1 || !only->id) {
		tty_fprintf(stderr, "raidbench array: %s sees %zu controllers: give --controller=ID\n",
			t->ops->name, n);
		if (n)
			print_inventory(inv, false);
		return EXIT_USAGE;
	}
	snprintf(op->controller, sizeof(op->controller), "%s", only->id);
	return 0;
}

static int build_op(const struct args *a, const struct tool *t, struct array_op *op)
{
	memset(op, 0, sizeof(*op));
	if (array_verb_parse(a->verb, &op->verb)) {
		tty_fprintf(stderr, "raidbench array: unknown operation '%s' (show, create, delete, "
			"add-spare, remove-spare, erase, mode, fail)\n", a->verb);
		return EXIT_USAGE;
	}
	op->ops = t->ops;
	if (a->level)
		op->level = inv_normalize_raid_level(a->level) ? inv_normalize_raid_level(a->level) :
								  a->level;
	op->drives = split_list(a->drives, &op->nr_drives);
	op->spares = split_list(a->spares, &op->nr_spares);
	op->ld = a->ld;
	op->array = a->array;
	op->name = a->name;
	op->mode = a->mode;
	op->pattern = a->pattern;
	op->force = a->force;
	if (size_arg("strip", a->strip, &op->strip_bytes) ||
	    size_arg("size", a->size, &op->size_bytes))
		return EXIT_USAGE;
	if (op->verb == ARRAY_CREATE && (!a->level || !op->nr_drives)) {
		tty_fprintf(stderr, "raidbench array: create needs --level and --drives\n");
		return EXIT_USAGE;
	}
	if (op->verb == ARRAY_MODE && !a->mode) {
		tty_fprintf(stderr, "raidbench array: mode needs --mode=hba or --mode=raid\n");
		return EXIT_USAGE;
	}
	return 0;
}

static void release_op(struct array_op *op)
{
	free_list(op->drives, op->nr_drives);
	free_list(op->spares, op->nr_spares);
}

/* Runs one validated command; 0, or 1 with the vendor's words and what to do. */
static int run_one(const struct array_op *op, const struct raidtool_argv *av,
		   const char *line, int timeout_ms)
{
	struct raidtool_run run;
	char err[2048] = "";
	const char *hint;
	int ret;

	tty_fprintf(stderr, "running: %s\n", line);
	ret = raidtool_exec((const char *const *)av->v, timeout_ms, &run, err, sizeof(err));
	if (!ret)
		ret = op->ops->check(&run, err, sizeof(err));
	else if (ret == -ETIMEDOUT)
		snprintf(err + strlen(err), sizeof(err) - strlen(err),
			 "; the change may or may not have happened: check the state below");
	if (!ret) {
		if (run.errout && *run.errout)	/* mdadm reports success on stderr */
			tty_fputs(run.errout, stderr);
		raidtool_run_release(&run);
		return 0;
	}
	tty_fprintf(stderr, "raidbench array: %s failed: %s\n", op->ops->name, err);
	hint = array_hint(op, err);
	tty_fprintf(stderr, "  what to do: %s\n", hint ? hint :
		"nothing else was run; fix what the tool says, then run the same command again");
	raidtool_run_release(&run);
	return 1;
}

static int prepare(const struct array_op *op, const struct array_plan *plan,
		   const struct inventory *inv, const struct tool *t, struct raidtool_argv *av,
		   char **line)
{
	char err[1024] = "";

	if (array_build(op, plan, inv, t->bin, av, err, sizeof(err))) {
		tty_fprintf(stderr, "raidbench array: %s\n", err);
		return 1;
	}
	*line = raidtool_argv_format((const char *const *)av->v);
	if (!*line) {
		raidtool_argv_release(av);
		return 1;
	}
	return 0;
}

static int cmd_change(const struct args *a, int timeout_ms)
{
	struct inventory inv = { 0 };
	struct array_plan plan = { 0 };
	struct raidtool_argv av = { 0 }, av2 = { 0 };
	struct array_op op, sp;
	char err[2048] = "", *line = NULL, *line2 = NULL, letter[16] = "";
	bool followup;
	struct tool t;
	int ret;

	if (!a->tool) {
		char can[128];

		raidtool_builder_names(can, sizeof(can), "|");
		tty_fprintf(stderr, "raidbench array: which tool? give --tool=%s\n", can);
		return EXIT_USAGE;
	}
	if ((ret = find_tool(a->tool, &t)))
		return ret;
	if ((ret = build_op(a, &t, &op)))
		goto out;
	if (read_state(&t, &inv, timeout_ms)) {
		ret = 1;
		goto out;
	}
	if ((ret = pick_controller(a, &t, &inv, &op)))
		goto out;
	if (array_validate(&op, &inv, NULL, &plan, err, sizeof(err))) {
		tty_fprintf(stderr, "raidbench array: refused, nothing was run: %s\n", err);
		ret = EXIT_USAGE;
		goto out;
	}
	if ((ret = prepare(&op, &plan, &inv, &t, &av, &line)))
		goto out;
	followup = array_spare_followup(&op, &plan, &sp);
	snprintf(letter, sizeof(letter), "%s", plan.new_array);
	sp.array = letter;	/* plan is released before the spares are validated */
	if (followup) {
		/* validated again after the create, against what the tool then says */
		struct array_plan none = { 0 };

		if ((ret = prepare(&sp, &none, &inv, &t, &av2, &line2)))
			goto out;
	}
	for (size_t i = 0; i < plan.nr_warnings; i++)
		tty_fprintf(stderr, "warning: %s\n", plan.warnings[i]);
	if (a->dry_run) {
		tty_printf("%s\n", line);
		if (line2)
			tty_printf("%s\n", line2);
		ret = 0;
		goto out;
	}
	if (!a->yes) {
		tty_fprintf(stderr, "raidbench array: %s %s; nothing was run. To run it, add --yes:\n"
			"  %s\n%s%s%s", a->verb, op.verb == ARRAY_MODE ?
			"changes how the controller presents its drives (after a reboot)" :
			array_destructive(&op) ? "destroys data on the drives named" :
			"changes the configuration", line,
			line2 ? "  " : "", line2 ? line2 : "", line2 ? "\n" : "");
		ret = EXIT_USAGE;
		goto out;
	}
	ret = run_one(&op, &av, line, timeout_ms);
	if (!ret && followup) {
		array_plan_release(&plan);
		if (!read_state(&t, &inv, timeout_ms) &&
		    !array_validate(&sp, &inv, NULL, &plan, err, sizeof(err)))
			ret = run_one(&sp, &av2, line2, timeout_ms);
		else if (*err)
			tty_fprintf(stderr, "raidbench array: the spares were not added: %s\n", err);
	}
	/* whatever happened, show what the tool says now */
	if (read_state(&t, &inv, timeout_ms)) {
		tty_fprintf(stderr, "raidbench array: the state could not be read back\n");
	} else {
		if (!a->json)
			tty_printf("%s now:\n", t.ops->name);
		print_inventory(&inv, a->json);
	}
out:
	free(line);
	free(line2);
	raidtool_argv_release(&av);
	raidtool_argv_release(&av2);
	array_plan_release(&plan);
	inventory_release(&inv);
	release_op(&op);
	return ret;
}

int cmd_array(int argc, char **argv)
{
	struct args a = { 0 };

	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return 0;
	}
	if (parse_args(argc, argv, &a)) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(a.verb, "show"))
		return cmd_show(&a, (int)(a.timeout_s * 1000));
	return cmd_change(&a, (int)(a.timeout_s * 1000));
}
