/*
 * cli.h - the command-line twins of the TUI's actions. Each cmd_* takes the
 * arguments after its subcommand name and returns the process exit status:
 * 0 ok, 1 the work ran and failed (I/O errors), 2 bad usage or refused,
 * 130 interrupted.
 */
#ifndef RB_CLI_H
#define RB_CLI_H

#include <stdio.h>
#include "run.h"

#define EXIT_USAGE 2
#define EXIT_INTERRUPTED 130

int cmd_run(int argc, char **argv);
int cmd_devices(int argc, char **argv);		/* tui/cmd_devices.c */
int cmd_array(int argc, char **argv);		/* tui/cmd_array.c */
int cmd_profiles(int argc, char **argv);	/* tui/cmd_profiles.c */
int cmd_results(int argc, char **argv);		/* tui/cmd_results.c */
int cmd_compare(int argc, char **argv);		/* tui/cmd_compare.c */

/* Live status line on stderr (tui/status.c). */
struct status_line {
	bool enabled;
	bool drawn;
	size_t width;
	FILE *header_out;	/* where fio's job header lines go, NULL = nowhere */
};

void status_line_init(struct status_line *s);
void status_line_tick(void *arg, const struct run_tick *t);
void status_line_clear(struct status_line *s);

#endif
