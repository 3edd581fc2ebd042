/*
 * cmd_compare_hosts.c - `raidbench compare --hosts FILE`: one fleet result
 * (fio's --client JSON, or a fleet run raidbench saved) as a table of hosts,
 * the median, and the hosts that stray from it marked with why. Exit status
 * 0 when none strays, 1 when one does (a script can gate on it), 2 for a file
 * that is not a fleet result.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli.h"
#include "fleet_compare.h"
#include "tty_text.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: raidbench compare --hosts [--json] [--tolerance=PCT] FILE\n"
		"  FILE: fio --client ... --output-format=json output, raidbench run --client\n"
		"        output, or a fleet run raidbench saved. One row per host: IOPS and\n"
		"        MB/s summed over its jobs, the largest p99 completion latency (us).\n"
		"  A host whose IOPS stray more than PCT (default 20) from the median, or\n"
		"  whose p99 is more than PCT above it, is flagged (exit status 1).\n");
}

static void p99(char *buf, size_t len, double ns)
{
	if (ns < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f", ns / 1000.0);
}

static void print_row(const struct fleet_row *r, bool mark)
{
	char label[200], pr[32], pw[32];

	snprintf(label, sizeof(label), "%s%s", mark && r->outlier ? "! " : "  ", r->host);
	p99(pr, sizeof(pr), r->p99_ns[0]);
	p99(pw, sizeof(pw), r->p99_ns[1]);
	tty_printf("%-28s %10.0f %10.0f %9.1f %9.1f %10s %10s\n", label, r->iops[0], r->iops[1],
		   r->bw_bytes[0] / 1e6, r->bw_bytes[1] / 1e6, pr, pw);
}

static json_object *row_json(const struct fleet_row *r)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "host", json_object_new_string(r->host));
	json_object_object_add(o, "jobs", json_object_new_int(r->nr_jobs));
	json_object_object_add(o, "read_iops", json_object_new_double(r->iops[0]));
	json_object_object_add(o, "write_iops", json_object_new_double(r->iops[1]));
	json_object_object_add(o, "read_bw_bytes", json_object_new_double(r->bw_bytes[0]));
	json_object_object_add(o, "write_bw_bytes", json_object_new_double(r->bw_bytes[1]));
	json_object_object_add(o, "read_p99_ns", r->p99_ns[0] < 0 ? NULL :
			       json_object_new_double(r->p99_ns[0]));
	json_object_object_add(o, "write_p99_ns", r->p99_ns[1] < 0 ? NULL :
			       json_object_new_double(r->p99_ns[1]));
	json_object_object_add(o, "outlier", json_object_new_boolean(r->outlier));
	json_object_object_add(o, "why", r->why[0] ? json_object_new_string(r->why) : NULL);
	return o;
}

int cmd_compare_hosts(int argc, char **argv)
{
	struct fleet_table t;
	const char *path = NULL;
	double tol = 0.2;
	bool json = false;
	char err[1024];
	size_t i, flagged;
	int a;

	for (a = 0; a < argc; a++) {
		if (!strcmp(argv[a], "--json")) {
			json = true;
		} else if (!strncmp(argv[a], "--tolerance=", 12)) {
			char *end;
			double v = strtod(argv[a] + 12, &end);

			if (*end || end == argv[a] + 12 || v <= 0 || v >= 1000) {
				fprintf(stderr, "raidbench compare: --tolerance: bad value '%s' "
					"(a percentage above 0)\n", argv[a] + 12);
				return EXIT_USAGE;
			}
			tol = v / 100.0;
		} else if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h")) {
			usage(stdout);
			return 0;
		} else if (!strncmp(argv[a], "--", 2) || path) {
			tty_fprintf(stderr, "raidbench compare --hosts: unexpected '%s'\n", argv[a]);
			usage(stderr);
			return EXIT_USAGE;
		} else {
			path = argv[a];
		}
	}
	if (!path) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (fleet_compare_load(&t, path, err, sizeof(err))) {
		tty_fprintf(stderr, "raidbench compare: %s\n", err);
		return EXIT_USAGE;
	}
	flagged = fleet_compare_flag(&t, tol);
	if (json) {
		json_object *o = json_object_new_object(), *arr = json_object_new_array();

		for (i = 0; i < t.nr; i++)
			json_object_array_add(arr, row_json(&t.rows[i]));
		json_object_object_add(o, "hosts", arr);
		json_object_object_add(o, "median", row_json(&t.median));
		json_object_object_add(o, "tolerance_pct", json_object_new_double(tol * 100));
		printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
							      JSON_C_TO_STRING_SPACED));
		json_object_put(o);
	} else {
		printf("%-28s %10s %10s %9s %9s %10s %10s\n", "  host", "read IOPS", "write IOPS",
		       "read MB/s", "write MB/s", "p99 r us", "p99 w us");
		for (i = 0; i < t.nr; i++)
			print_row(&t.rows[i], true);
		print_row(&t.median, false);
		for (i = 0; i < t.nr; i++)
			if (t.rows[i].outlier)
				tty_printf("! %s: %s\n", t.rows[i].host, t.rows[i].why);
		if (!flagged)
			printf("no host strays more than %.0f%% from the median\n", tol * 100);
	}
	fleet_table_release(&t);
	return flagged ? 1 : 0;
}
