/*
 * cmd_profiles.c - `raidbench profiles`: the built-in test profiles (fio job
 * files in $(datadir)/raidbench/profiles, or profiles/ next to the binary in
 * a build tree) and the user's own ($XDG_CONFIG_HOME/raidbench/profiles),
 * listed with their phases, shown with the equivalent fio command line, and
 * found by name for `raidbench run --profile=NAME`.
 *
 * A profile never names its target or run length: those come from the
 * command line, which fio and raidbench apply as defaults under the job
 * file (profiles/README.md).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cli.h"
#include "config.h"
#include "options.h"
#include "profile_set.h"
#include "tty_text.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: raidbench profiles [--json]          list profiles: name, phases, description\n"
		"       raidbench profiles show NAME [OPTION...]\n"
		"                                            the job file and the equivalent fio\n"
		"                                            command line (OPTIONs as for run)\n"
		"       raidbench profiles path NAME         the job file's path\n"
		"Run one with: raidbench run --filename=TARGET --runtime=SECONDS --profile=NAME\n"
		"User profiles: $XDG_CONFIG_HOME/raidbench/profiles/NAME.fio (they win over\n"
		"built-in ones of the same name).\n");
}

/* The catalog, names and paths only; an unreadable directory is said and skipped. */
static int load_set(struct profile_set *s)
{
	char err[2 * PATH_MAX + 64];
	int ret = profile_set_list(s, err, sizeof(err));

	if (ret && ret != -ENOMEM)
		tty_fprintf(stderr, "raidbench profiles: %s\n", err);
	return ret == -ENOMEM ? ret : 0;
}

/*
 * Parses a profile with the user's options over its own (as `run --profile`
 * applies them). ${TARGET} is left as the text "${TARGET}" when the
 * environment does not set it, so listing and showing work without a target.
 */
static int parse(const struct profile_info *p, const struct cmd_opt *opts, size_t nr_opts,
		 struct job_list *jl, char *err, size_t errlen)
{
	char *files[1] = { (char *)p->path };

	setenv("TARGET", "${TARGET}", 0);
	return jobs_load_over(jl, NULL, 0, files, 1, opts, nr_opts, err, errlen);
}

/* Phases are stonewall groups; jobs of one group run side by side. */
static size_t count_phases(const struct job_list *jl)
{
	size_t i, n = 0;

	for (i = 0; i < jl->nr; i++)
		if (!i || jl->jobs[i].groupid != jl->jobs[i - 1].groupid)
			n++;
	return n;
}

static json_object *phases_json(const struct job_list *jl)
{
	json_object *arr = json_object_new_array(), *ph = NULL, *jobs = NULL;
	size_t i;

	for (i = 0; i < jl->nr; i++) {
		const struct job_spec *j = &jl->jobs[i];

		if (!i || j->groupid != jl->jobs[i - 1].groupid) {
			ph = json_object_new_object();
			jobs = json_object_new_array();
			json_object_object_add(ph, "group", json_object_new_int(j->groupid));
			json_object_object_add(ph, "description", j->description ?
					       json_object_new_string(j->description) : NULL);
			json_object_object_add(ph, "jobs", jobs);
			json_object_array_add(arr, ph);
		}
		json_object_array_add(jobs, json_object_new_string(j->name));
	}
	return arr;
}

static int list(bool json)
{
	struct profile_set s;
	json_object *arr = json ? json_object_new_array() : NULL;
	int status = 0;
	size_t i;

	if (load_set(&s)) {
		tty_fprintf(stderr, "raidbench profiles: out of memory\n");
		return 1;
	}
	if (!json)
		tty_printf("%-20s %-8s %6s  %s\n", "NAME", "SOURCE", "PHASES", "DESCRIPTION");
	for (i = 0; i < s.nr; i++) {
		struct job_list jl = { 0 };
		char desc[512], err[1024];
		bool ok;

		profile_summary(s.p[i].path, desc, sizeof(desc));
		ok = !parse(&s.p[i], NULL, 0, &jl, err, sizeof(err));
		if (!ok) {
			tty_fprintf(stderr, "raidbench profiles: %s\n", err);
			status = 1;
		}
		if (json) {
			json_object *o = json_object_new_object();

			json_object_object_add(o, "name", json_object_new_string(s.p[i].name));
			json_object_object_add(o, "source", json_object_new_string(
				s.p[i].user ? "user" : "built-in"));
			json_object_object_add(o, "path", json_object_new_string(s.p[i].path));
			json_object_object_add(o, "description", json_object_new_string(desc));
			json_object_object_add(o, "phases", ok ? phases_json(&jl) : NULL);
			json_object_object_add(o, "error", ok ? NULL : json_object_new_string(err));
			json_object_array_add(arr, o);
		} else {
			tty_printf("%-20s %-8s %6zu  %s\n", s.p[i].name, s.p[i].user ? "user" : "built-in",
			       ok ? count_phases(&jl) : 0, ok ? desc : "(does not parse, see above)");
		}
		if (ok)
			job_list_release(&jl);
	}
	if (json) {
		tty_json_puts(json_object_to_json_string_ext(arr, JSON_C_TO_STRING_PRETTY |
							       JSON_C_TO_STRING_NOSLASHESCAPE), stdout);
		json_object_put(arr);
	} else if (!s.nr) {
		char dir[PATH_MAX];

		profile_builtin_dir(dir, sizeof(dir));
		tty_fprintf(stderr, "raidbench profiles: no profiles found (looked in %s)\n", dir);
		status = 1;
	}
	profile_set_release(&s);
	return status;
}

/* Looks a profile up by name; prints why not. */
static int lookup(const char *name, struct profile_info *out, const char *who)
{
	struct profile_set s;
	int i;

	if (load_set(&s))
		return -ENOMEM;
	i = strchr(name, '/') ? -1 : profile_set_find(&s, name);
	if (i >= 0)
		*out = s.p[i];	/* names and paths only: no jobs to own */
	else
		tty_fprintf(stderr, "raidbench %s: no profile named '%s'; `raidbench profiles` lists "
			"them\n", who, name);
	profile_set_release(&s);
	return i >= 0 ? 0 : -ENOENT;
}

static int cat(const char *path)
{
	char buf[4096];
	size_t n;
	FILE *f = fopen(path, "re");

	if (!f) {
		tty_fprintf(stderr, "raidbench profiles: %s: %s\n", path, strerror(errno));
		return -1;
	}
	/* a copy into a file stays byte for byte; a terminal gets escapes shown, not run */
	if (isatty(STDOUT_FILENO)) {
		char *line = NULL;
		size_t cap = 0;
		ssize_t len;

		while ((len = getline(&line, &cap, f)) > 0)
			for (size_t o = 0; o < (size_t)len; o += strlen(line + o) + 1) {
				tty_fputs(line + o, stdout);
				if (o + strlen(line + o) < (size_t)len)
					fputs("\\x00", stdout);
			}
		free(line);
	} else {
		while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
			fwrite(buf, 1, n, stdout);
	}
	fclose(f);
	return 0;
}

static int show(int argc, char **argv)
{
	struct cmd_opt *opts = calloc((size_t)argc + 1, sizeof(*opts));
	struct job_list jl = { 0 };
	struct profile_info p;
	char err[1024], *cmd;
	size_t nr = 0, i;
	int k, ret;

	if (!opts)
		return 1;
	/* fio's command-line options, as `raidbench run` takes them */
	for (k = 1; k < argc; k++) {
		char *eq = strchr(argv[k], '=');

		if (strncmp(argv[k], "--", 2) || !argv[k][2]) {
			tty_fprintf(stderr, "raidbench profiles show: '%s' is not an option (--name=value)\n",
				argv[k]);
			free(opts);
			return EXIT_USAGE;
		}
		if (eq)
			*eq = '\0';
		opts[nr].key = argv[k] + 2;
		opts[nr++].value = eq ? eq + 1 : NULL;
	}
	if (lookup(argv[0], &p, "profiles show")) {
		free(opts);
		return EXIT_USAGE;
	}
	ret = parse(&p, opts, nr, &jl, err, sizeof(err));
	free(opts);
	if (ret) {
		tty_fprintf(stderr, "raidbench profiles show: %s\n", err);
		return EXIT_USAGE;
	}
	if (cat(p.path)) {
		job_list_release(&jl);
		return 1;
	}
	tty_printf("\n; %s profile %s, %zu phase%s:\n", p.user ? "user" : "built-in", p.path,
	       count_phases(&jl), count_phases(&jl) == 1 ? "" : "s");
	for (i = 0; i < jl.nr; i++)
		tty_printf(";   group %d  %-20s %s\n", jl.jobs[i].groupid, jl.jobs[i].name,
		       jl.jobs[i].description ? jl.jobs[i].description : "");
	cmd = jobs_to_cmdline(&jl);
	tty_printf("; the equivalent fio command line:\n; %s\n", cmd ? cmd : "(out of memory)");
	free(cmd);
	job_list_release(&jl);
	return 0;
}

int cmd_profiles(int argc, char **argv)
{
	if (argc == 0)
		return list(false);
	if (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[0], "--json") && argc == 1)
		return list(true);
	if (!strcmp(argv[0], "show") && argc >= 2)
		return show(argc - 1, argv + 1);
	if (!strcmp(argv[0], "path") && argc == 2) {
		struct profile_info p;

		if (lookup(argv[1], &p, "profiles path"))
			return EXIT_USAGE;
		tty_printf("%s\n", p.path);
		return 0;
	}
	usage(stderr);
	return EXIT_USAGE;
}

int profiles_expand_args(int argc, char **argv)
{
	/* the paths stay reachable for the whole run: cmd_run keeps pointers */
	static char paths[8][PATH_MAX];
	static int used;
	struct profile_info p;
	int i, n = 0;

	for (i = 0; i < argc; i++) {
		if (strncmp(argv[i], "--profile", 9) || (argv[i][9] && argv[i][9] != '='))
			continue;
		if (argv[i][9] != '=' || !argv[i][10]) {
			tty_fprintf(stderr, "raidbench run: --profile needs a name: --profile=NAME "
				"(`raidbench profiles` lists them)\n");
			return -1;
		}
		if (used == (int)(sizeof(paths) / sizeof(paths[0]))) {
			tty_fprintf(stderr, "raidbench run: too many --profile options\n");
			return -1;
		}
		if (lookup(argv[i] + 10, &p, "run"))
			return -1;
		snprintf(paths[used], sizeof(paths[used]), "%s", p.path);
		argv[i] = paths[used++];
		n++;
	}
	return n;
}
