/* cli_opts.c - helpers shared by the subcommands: options, the scratch file, stop signals. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "userdir.h"

int scratch_file(char *buf, size_t len, bool create, char *err, size_t errlen)
{
	int ret = userdir_path(USERDIR_CACHE, "scratch.dat", buf, len, err, errlen);

	if (ret) {
		buf[0] = '\0';
		return ret;
	}
	/* made here, never through a link; the run then opens what was checked */
	if (create && (ret = userdir_open(buf, O_RDWR | O_CREAT, 0644, err, errlen)) >= 0) {
		close(ret);
		ret = 0;
	}
	if (ret && err && !strstr(err, buf)) {
		char why[512];

		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "the scratch file %s: %s", buf, why);
	}
	return ret;
}

bool cli_wants_help(int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

int cli_opt_table(int argc, char **argv, int *i, const struct cli_key *keys, size_t nr,
		  void *base, const char *cmd)
{
	bool missing = false;

	for (size_t k = 0; k < nr; k++) {
		const char *v = cli_opt_value(argc, argv, i, keys[k].key, &missing);

		if (v) {
			*(const char **)((char *)base + keys[k].off) = v;
			return 1;
		}
		if (missing) {
			fprintf(stderr, "raidbench %s: %s needs a value\n", cmd, argv[*i]);
			return -1;
		}
	}
	return 0;
}

const char *cli_opt_value(int argc, char **argv, int *i, const char *key, bool *missing)
{
	size_t n = strlen(key);

	if (strncmp(argv[*i], key, n))
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n])
		return NULL;
	if (*i + 1 >= argc) {
		*missing = true;
		return NULL;
	}
	return argv[++*i];
}

void cli_catch_stop_signals(void (*handler)(int))
{
	/* a closed terminal (HUP) stops a run as Ctrl-C and kill do: results kept */
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}
