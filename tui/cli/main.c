/*
 * main.c - raidbench's entry point: dispatches the subcommands of the
 * command-line contract (DESIGN.md). Without a subcommand it starts on the
 * embedded default: the default profile on a scratch file under
 * $XDG_CACHE_HOME/raidbench/, so no disk is touched.
 */
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "tui.h"
#include "tui_int.h"
#include "config.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: raidbench [--ascii] [--import=TOOL:FILE] [--profile=NAME] [--target=PATH] [--start]\n"
		"                 [--tool-timeout=SECONDS]\n"
		"                                      the terminal interface (without a terminal:\n"
		"                                      the default profile on a scratch file)\n"
		"       raidbench run [OPTIONS] [JOBFILE...]\n"
		"                                      run fio-format jobs headless\n"
		"       raidbench devices [--json] [--ascii] [--no-tools] [--tool-timeout=SECONDS]\n"
		"                         [--import TOOL:FILE ...]\n"
		"       raidbench array show|create|delete|add-spare|remove-spare|erase|mode|fail ...\n"
		"                                      (array --help)\n"
		"       raidbench profiles [--json] | show NAME | path NAME\n"
		"       raidbench results [--json|--dir]\n"
		"       raidbench compare [--json] A.json B.json ...\n"
		"       raidbench sweep --tool=TOOL --drives=D1,D2,... --levels=0,1,5 --profile=NAME\n"
		"                       [--dry-run | --yes]   RAID-level sweep (sweep --help)\n"
		"       raidbench sweep --resume-cleanup [--yes]\n"
		"       raidbench --version\n"
		"\n"
		"run options: fio's job options as --name=value (--name= starts a job), and\n"
		"  --output-format=normal|json|json+|terse   (comma list)\n"
		"  --profile=NAME a profile; the options given with it win over its own\n"
		"  --output=FILE  --parse-only  --readonly  --allow-destroy=DEVICE (repeatable)\n"
		"  --live=FILE|-  JSON Lines per tick  --live-interval=MS  --no-save\n"
		"  --showcmd      print the equivalent fio command line and exit\n"
		"  (run --help has the whole list)\n");
}

/* The quick start: a short default profile on a scratch file, no disk touched. */
static int run_default(const char *argv0)
{
	char target[PATH_MAX], profile[PATH_MAX], opt[PATH_MAX + 32], err[PATH_MAX + 256];
	char size[] = "--size=64m", runtime[] = "--runtime=2", time_based[] = "--time_based";
	char *args[8];
	int n = 0, ret;

	ret = scratch_file(target, sizeof(target), true, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "raidbench: the scratch file: %s\n", err);
		return 1;
	}
	/* prefer the profile next to the binary (a build tree), else the installed one */
	snprintf(profile, sizeof(profile), "%s", argv0);
	{
		char *slash = strrchr(profile, '/');

		if (slash)
			snprintf(slash + 1, sizeof(profile) - (size_t)(slash + 1 - profile),
				 "profiles/default.fio");
		else
			snprintf(profile, sizeof(profile), "profiles/default.fio");
	}
	if (access(profile, R_OK) != 0)
		snprintf(profile, sizeof(profile), "%s/profiles/default.fio", RB_DATADIR);
	setenv("TARGET", target, 1);
	snprintf(opt, sizeof(opt), "--filename=%s", target);
	fprintf(stderr, "raidbench: no subcommand; running the default profile %s for 2 s a "
		"phase on the scratch file %s (a file: no device is written)\n", profile, target);
	args[n++] = opt;
	/* profiles leave the size and the run length to the user: here, a short look
	 * (cmd_run parses its arguments in place, so they are writable copies) */
	args[n++] = size;
	args[n++] = runtime;
	args[n++] = time_based;
	args[n++] = profile;
	args[n] = NULL;
	return cmd_run(n, args);
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "run", cmd_run },
	{ "devices", cmd_devices },
	{ "array", cmd_array },
	{ "profiles", cmd_profiles },
	{ "results", cmd_results },
	{ "compare", cmd_compare },
	{ "sweep", cmd_sweep },
};

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	/* no subcommand: the TUI on a terminal, else the quick-start run headless */
	if (argc < 2)
		return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) ? tui_main(0, NULL)
								     : run_default(argv[0]);
	if (!strcmp(argv[1], "tui-test"))
		return tui_test_main(argc - 2, argv + 2);
	if (!strcmp(argv[1], "--ascii") || !strncmp(argv[1], "--import", 8) ||
	    !strncmp(argv[1], "--profile=", 10) || !strncmp(argv[1], "--target=", 9) ||
	    !strcmp(argv[1], "--start") || !strncmp(argv[1], "--tool-timeout=", 15))
		return tui_main(argc - 1, argv + 1);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 2, argv + 2);
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("raidbench %s\n", PACKAGE_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (argv[1][0] == '-')
		fprintf(stderr, "raidbench: unknown option '%s'\n", argv[1]);
	else
		fprintf(stderr, "raidbench: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
