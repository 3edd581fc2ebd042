/* cmd_compare.c - placeholder until its issue lands. */
#include <stdio.h>
#include "cli.h"

int cmd_compare(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "raidbench: this subcommand is not implemented yet\n");
	return EXIT_USAGE;
}
