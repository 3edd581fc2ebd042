/* cli_opts.c - option parsing helpers shared by the subcommands, and the scratch file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

int mkdir_p(char *path)
{
	char *p;

	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST) {
			*p = '/';
			return -errno;
		}
		*p = '/';
	}
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

int scratch_file(char *buf, size_t len, bool create)
{
	const char *cache = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char *slash;
	int ret = 0;

	if (cache && *cache)
		snprintf(buf, len, "%s/raidbench/scratch.dat", cache);
	else
		snprintf(buf, len, "%s/.cache/raidbench/scratch.dat", home && *home ? home : "/tmp");
	slash = strrchr(buf, '/');
	if (create && slash) {
		*slash = '\0';
		ret = mkdir_p(buf);
		*slash = '/';
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
