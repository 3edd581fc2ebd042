/* cli_opts.c - option parsing helpers shared by the subcommands. */
#include <string.h>

#include "cli.h"

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
