/*
 * cli.h - the command-line twins of the TUI's actions. Each cmd_* takes the
 * arguments after its subcommand name and returns the process exit status:
 * 0 ok, 1 the work ran and failed (I/O errors, a report or result that could
 * not be written), 2 bad usage or refused, 128 + N stopped by signal N
 * (130 SIGINT, 143 SIGTERM, 129 SIGHUP).
 */
#ifndef RB_CLI_H
#define RB_CLI_H

#include <stdbool.h>
#include <stdio.h>
#include "identity.h"	/* identity_probe() for results_save */
#include "run.h"
#include "guard.h"	/* struct guard_consent for the run's output files */

#define EXIT_USAGE 2

/*
 * "--key=VALUE" or "--key VALUE" at argv[*i]: the value (advancing *i past a
 * separate value), or NULL when argv[*i] is not this option; *missing is set
 * when the option is there but its value is not (tui/cli/cli_opts.c).
 */
const char *cli_opt_value(int argc, char **argv, int *i, const char *key, bool *missing);

/* Whether any argument asks for help (--help or -h). */
bool cli_wants_help(int argc, char **argv);

/* A valued option and where its value goes: a const char * at off in the caller's struct. */
struct cli_key {
	const char *key;	/* "--tool" */
	size_t off;
};

/*
 * Tries argv[*i] against keys: 1 when one matched (its value stored at base
 * + off, *i advanced past a separate value), 0 when none did, -1 when the
 * option's value is missing (the message, prefixed with cmd, is printed).
 */
int cli_opt_table(int argc, char **argv, int *i, const struct cli_key *keys, size_t nr,
		  void *base, const char *cmd);

/*
 * The scratch file that runs without a target use, so no disk is written:
 * $XDG_CACHE_HOME/raidbench/scratch.dat (~/.cache/raidbench/ without it,
 * never a shared directory). With create the file is made or checked as
 * core/userdir.h says: 0, or -errno with err set (buf is "" when there is
 * no place for it at all).
 */
int scratch_file(char *buf, size_t len, bool create, char *err, size_t errlen);

int cmd_run(int argc, char **argv);
int cmd_devices(int argc, char **argv);		/* tui/cli/cmd_devices.c */
int cmd_array(int argc, char **argv);		/* tui/cli/cmd_array.c */
int cmd_profiles(int argc, char **argv);	/* tui/cli/cmd_profiles.c */
int cmd_results(int argc, char **argv);		/* tui/cli/cmd_results.c */
int cmd_compare(int argc, char **argv);		/* tui/cli/cmd_compare.c */
int cmd_compare_hosts(int argc, char **argv);	/* tui/cli/cmd_compare_hosts.c: compare --hosts */
int cmd_sweep(int argc, char **argv);		/* tui/cli/cmd_sweep.c */
int cmd_report(int argc, char **argv);		/* tui/cli/cmd_report.c */

/*
 * A result named on the command line: a bare file name that is not in the
 * current directory is looked up in the results directory (as NAME or
 * NAME.json); otherwise arg itself. May return buf (tui/cli/cmd_compare.c).
 */
const char *results_resolve_arg(const char *arg, char *buf, size_t len);

/* Reports of saved results (core/report_html.h) written to files (tui/cli/cmd_report.c). */
struct rdoc;
enum report_fmt { FMT_HTML, FMT_SVG, FMT_CSV };

/*
 * Writes docs as fmt to out: a file (NULL is standard output) for html and
 * csv, a directory (made if missing) of one .svg per chart for svg; *charts
 * gets how many chart files were written. 0, or -errno with err set.
 */
int report_write_file(enum report_fmt fmt, const char *out, struct rdoc *docs, size_t nr,
		      char *err, size_t errlen, unsigned *charts);

/* An HTML report of the results at paths, written to out. 0, or -errno with err set. */
int report_export(char *const *paths, size_t n, const char *out, char *err, size_t errlen);

/* Where an exported report of result_path goes: the data directory's reports/NAME.html. */
int report_export_path(const char *result_path, char *buf, size_t len, char *err, size_t errlen);

/*
 * `raidbench run --profile=NAME`: replaces each such argument in place by
 * the profile's job file path (tui/cli/cmd_profiles.c). Prints the error and
 * returns -1 for an unknown profile, else how many profiles were named.
 */
int profiles_expand_args(int argc, char **argv);

struct live_tick;

/* Live status line on stderr (tui/cli/status.c), fed by decoded ticks (core/live_view.h). */
struct status_line {
	bool enabled;
	bool drawn;
	size_t width;
	unsigned hosts, hosts_up;	/* a fleet run: servers, and those still going */
	unsigned failed;		/* jobs that failed so far */
};

void status_line_init(struct status_line *s);
void status_line_tick(struct status_line *s, const struct live_tick *t);
/* A job failed: its line ("job 'x' failed: why") above the status line, at once. */
void status_line_error(struct status_line *s, const char *line);
void status_line_clear(struct status_line *s);

/*
 * A file a headless run writes (--output, --live; tui/cli/run_output.c): opened
 * when the command line is read, emptied only by run_output_start() when the
 * run starts, so a refused run leaves it as it was.
 */
struct run_output {
	FILE *f;
	const char *path;	/* NULL: standard output */
	bool created;		/* made by the open: removed when the run never starts */
	bool started;
	int error;		/* the first write error, -errno */
};

/* path NULL is standard output. 0, or -errno with err "cannot write PATH: why". */
int run_output_open(struct run_output *o, const char *path, const struct guard_consent *consent,
		    char *err, size_t errlen);
/* The run starts: a regular file is emptied now. */
void run_output_start(struct run_output *o);
/* Flushes; the first write error so far as -errno, or 0. Set errno to 0 before writing. */
int run_output_flush(struct run_output *o);
/* Flushes and closes (stdout stays open): 0, or -errno with err naming the file. */
int run_output_close(struct run_output *o, char *err, size_t errlen);

/* `raidbench run --client=...` (tui/cli/cmd_fleet.c): the parsed jobs on many fio servers. */
struct fleet_cli {
	char *const *clients;		/* each --client value: an address or a file of them */
	size_t nr_clients;
	unsigned formats;		/* REPORT_* */
	const char *output;		/* NULL: stdout */
	const char *live;		/* --live=FILE|- */
	unsigned interval_ms;
	bool no_save;
	const struct guard_consent *consent;
};

/* Runs and reports; returns the exit status (cli.h's rules). */
int run_fleet(const struct job_list *jl, const struct fleet_cli *fc);

/*
 * Saves a finished fleet run (every host's entries, "All clients", the hosts'
 * states) under the results directory; gathered is NULL outside cmd_fleet.c.
 * path receives the file (may be NULL). 0 or -errno with err set.
 */
struct fleet;
int fleet_save_results(const struct fleet *f, const struct job_list *jl, const void *gathered,
		       uint64_t start_ms, bool interrupted, char *path, size_t pathlen, char *err,
		       size_t errlen);

/* Exit status of a run stopped by sig: 128 + sig, as the shell reports a signal. */
#define EXIT_SIGNAL(sig) (128 + (sig))

/* Makes SIGINT, SIGTERM and SIGHUP call handler (tui/cli/cli_opts.c): each stops a run the same way. */
void cli_catch_stop_signals(void (*handler)(int));

/* JSON Lines of the live records (tui/cli/live_json.c): one object per tick. */
struct live_json;
/*
 * path "-" is stdout. NULL with err set when the file cannot be created. An
 * existing file is emptied only by live_json_layout(), when the run starts.
 */
struct live_json *live_json_open(const char *path, const struct guard_consent *consent,
				 char *err, size_t errlen);
/* The names the records refer to; call from the observer's setup_done. */
int live_json_layout(struct live_json *lj, const struct run_layout *lay);
void live_json_tick(struct live_json *lj, const struct live_tick *t);
/* Job j failed (error: its text, checked by core/live_view.c): one line of its own, at once. */
void live_json_error(struct live_json *lj, uint64_t t_ns, size_t j, const char *error);
/* Flushes and closes; returns 0 or -errno with err naming the file (a full disk shows here). */
int live_json_close(struct live_json *lj, char *err, size_t errlen);

#endif
