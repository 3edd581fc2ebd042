/*
 * cmd_compare.c - `raidbench compare A B ...`: saved raidbench runs and fio's
 * own JSON side by side, per phase (job name) and direction: IOPS, MB/s,
 * mean and p99 completion latency, and the change in percent against the
 * first file. A file that is missing, truncated or not a result is named on
 * stderr and left out; the rest are still compared (exit status 1).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <json-c/json.h>

#include "cli.h"
#include "compare.h"
#include "job.h"
#include "results.h"
#include "tty_text.h"

static const char *const ddir_names[] = { "read", "write", "trim" };

static void usage(FILE *f)
{
	fprintf(f,
		"usage: raidbench compare [--json] FILE FILE...\n"
		"       raidbench compare --hosts [--json] FILE   (a fleet run, host by host)\n"
		"  FILE: a result saved by raidbench run (a path, or a file name from\n"
		"        `raidbench results`) or fio's --output-format=json output.\n"
		"  Per phase and direction: IOPS, MB/s (1,000,000 bytes/s), mean and p99\n"
		"  completion latency in microseconds, with the change in percent against\n"
		"  the first FILE. A missing, truncated or foreign FILE is reported and the\n"
		"  rest are still compared; the exit status is then 1.\n"
		"  --json   the same table as JSON\n");
}

const char *results_resolve_arg(const char *arg, char *buf, size_t len)
{
	char dir[PATH_MAX], err[512];
	struct stat st;

	if (strchr(arg, '/') || stat(arg, &st) == 0 || results_dir(dir, sizeof(dir), err, sizeof(err)))
		return arg;
	snprintf(buf, len, "%s/%s", dir, arg);
	if (stat(buf, &st) == 0)
		return buf;
	snprintf(buf, len, "%s/%s.json", dir, arg);
	return stat(buf, &st) == 0 ? buf : arg;
}

static void fmt_pct(char *buf, size_t len, double pct)
{
	if (isnan(pct))
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len, "%+.1f%%", pct);
}

static void fmt_val(char *buf, size_t len, bool present, double v)
{
	if (!present || v < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f", v);
}

static void print_files(const struct result *rs, size_t nr)
{
	size_t k;

	for (k = 0; k < nr; k++) {
		char when[32] = "?";
		time_t t = (time_t)(rs[k].time_ms / 1000);
		struct tm tm;

		if (rs[k].time_ms && localtime_r(&t, &tm))
			strftime(when, sizeof(when), "%Y-%m-%d %H:%M", &tm);
		tty_printf("[%zu] %s\n    %s, %s%s%s, target %s%s\n", k + 1, rs[k].path,
		       rs[k].generator ? rs[k].generator : "unknown generator", when,
		       rs[k].profile ? ", profile " : "", rs[k].profile ? rs[k].profile : "",
		       rs[k].target ? rs[k].target : "unknown",
		       rs[k].interrupted ? "\n    stopped before its end: the results so far" : "");
	}
}

static void print_metric(const struct compare_row *row, size_t nr, const char *label, int m)
{
	size_t k;

	tty_printf("  %-22s", label);
	for (k = 0; k < nr; k++) {
		const struct compare_cell *c = &row->cells[k];
		const double v[] = { c->iops, c->mb_s, c->lat_mean_us, c->lat_p99_us };
		const double pct[] = { c->iops_pct, c->mb_s_pct, c->lat_mean_pct, c->lat_p99_pct };
		char val[32], chg[32];

		fmt_val(val, sizeof(val), c->present, v[m]);
		fmt_pct(chg, sizeof(chg), pct[m]);
		if (k == 0)
			tty_printf(" %12s", val);
		else
			tty_printf(" %12s %8s", val, chg);
	}
	tty_printf("\n");
}

static void print_table(const struct compare *c, const struct result *rs, size_t nr)
{
	static const char *const labels[] = { "IOPS", "MB/s", "mean clat (us)",
					      "p99 clat (us)" };
	size_t i, k;
	int m;

	print_files(rs, nr);
	tty_printf("\n  %-22s", "");
	for (k = 0; k < nr; k++) {
		char head[16];

		snprintf(head, sizeof(head), "[%zu]", k + 1);
		if (k == 0)
			tty_printf(" %12s", head);
		else
			tty_printf(" %12s %8s", head, "change");
	}
	tty_printf("\n");
	for (i = 0; i < c->nr_rows; i++) {
		const struct compare_row *row = &c->rows[i];

		tty_printf("%s (%s)%s%s\n", row->phase, ddir_names[row->ddir], row->desc ? ": " : "",
		       row->desc ? row->desc : "");
		for (m = 0; m < 4; m++)
			print_metric(row, nr, labels[m], m);
	}
	if (!c->nr_rows) {
		tty_printf("(no phase with I/O in these files)\n");
		return;
	}
	for (i = 0; i < c->nr_rows; i++) {
		size_t have = 0;

		for (k = 0; k < nr; k++)
			have += c->rows[i].cells[k].present;
		if (have > 1)
			return;
	}
	/* phases line up by job name and direction: say why every row stands alone */
	tty_printf("\nThese runs share no phase (job name and direction), so nothing is compared "
	       "side by side: compare runs of the same profile.\n");
}

/* A number as fio writes them ("%f"), not json-c's 17 significant digits. */
static json_object *jnum(double v)
{
	char s[64];

	snprintf(s, sizeof(s), "%f", v);
	return json_object_new_double_s(v, s);
}

static json_object *num_or_null(double v)
{
	return isnan(v) || v < 0 ? NULL : jnum(v);
}

static json_object *cell_json(const struct compare_cell *c)
{
	json_object *o, *pct;

	if (!c->present)
		return NULL;
	o = json_object_new_object();
	pct = json_object_new_object();
	json_object_object_add(o, "iops", jnum(c->iops));
	json_object_object_add(o, "mb_s", jnum(c->mb_s));
	json_object_object_add(o, "lat_mean_us", jnum(c->lat_mean_us));
	json_object_object_add(o, "lat_p99_us", num_or_null(c->lat_p99_us));
	json_object_object_add(pct, "iops", isnan(c->iops_pct) ? NULL :
			       jnum(c->iops_pct));
	json_object_object_add(pct, "mb_s", isnan(c->mb_s_pct) ? NULL :
			       jnum(c->mb_s_pct));
	json_object_object_add(pct, "lat_mean_us", isnan(c->lat_mean_pct) ? NULL :
			       jnum(c->lat_mean_pct));
	json_object_object_add(pct, "lat_p99_us", isnan(c->lat_p99_pct) ? NULL :
			       jnum(c->lat_p99_pct));
	json_object_object_add(o, "change_pct", pct);
	return o;
}

static json_object *str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static void print_json(const struct compare *c, const struct result *rs, size_t nr,
		       json_object *errors)
{
	json_object *root = json_object_new_object(), *files = json_object_new_array();
	json_object *phases = json_object_new_array();
	size_t i, k;

	for (k = 0; k < nr; k++) {
		json_object *f = json_object_new_object();

		json_object_object_add(f, "path", json_object_new_string(rs[k].path));
		json_object_object_add(f, "generator", str_or_null(rs[k].generator));
		json_object_object_add(f, "raidbench", json_object_new_boolean(rs[k].raidbench));
		json_object_object_add(f, "time_ms", json_object_new_int64(rs[k].time_ms));
		json_object_object_add(f, "host", str_or_null(rs[k].host));
		json_object_object_add(f, "profile", str_or_null(rs[k].profile));
		json_object_object_add(f, "target", str_or_null(rs[k].target));
		json_object_object_add(f, "interrupted", json_object_new_boolean(rs[k].interrupted));
		json_object_array_add(files, f);
	}
	for (i = 0; i < c->nr_rows; i++) {
		json_object *p = json_object_new_object(), *cells = json_object_new_array();

		json_object_object_add(p, "phase", json_object_new_string(c->rows[i].phase));
		json_object_object_add(p, "description", str_or_null(c->rows[i].desc));
		json_object_object_add(p, "direction",
				       json_object_new_string(ddir_names[c->rows[i].ddir]));
		for (k = 0; k < nr; k++)
			json_object_array_add(cells, cell_json(&c->rows[i].cells[k]));
		json_object_object_add(p, "results", cells);
		json_object_array_add(phases, p);
	}
	json_object_object_add(root, "files", files);
	json_object_object_add(root, "errors", json_object_get(errors));
	json_object_object_add(root, "phases", phases);
	tty_json_puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_NOSLASHESCAPE), stdout);
	json_object_put(root);
}

int cmd_compare(int argc, char **argv)
{
	json_object *errors = json_object_new_array();
	struct result *rs = calloc((size_t)argc + 1, sizeof(*rs));
	struct compare c;
	bool json = false;
	size_t nr = 0, failed = 0, k;
	int i, status = 0;

	/* one fleet run, host against host (tui/cmd_compare_hosts.c) */
	if (argc && !strcmp(argv[0], "--hosts")) {
		free(rs);
		json_object_put(errors);
		return cmd_compare_hosts(argc - 1, argv + 1);
	}
	if (!rs || !errors) {
		tty_fprintf(stderr, "raidbench compare: out of memory\n");
		free(rs);
		json_object_put(errors);
		return 1;
	}
	for (i = 0; i < argc; i++) {
		char err[1024], buf[PATH_MAX + 64];
		json_object *e;

		if (!strcmp(argv[i], "--json")) {
			json = true;
			continue;
		}
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			goto out;
		}
		if (!strncmp(argv[i], "--", 2)) {
			tty_fprintf(stderr, "raidbench compare: unknown option '%s'\n", argv[i]);
			usage(stderr);
			status = EXIT_USAGE;
			goto out;
		}
		if (!result_load(&rs[nr], results_resolve_arg(argv[i], buf, sizeof(buf)), err, sizeof(err))) {
			nr++;
			continue;
		}
		tty_fprintf(stderr, "raidbench compare: %s\n", err);
		e = json_object_new_object();
		json_object_object_add(e, "path", json_object_new_string(argv[i]));
		json_object_object_add(e, "error", json_object_new_string(err));
		json_object_array_add(errors, e);
		failed++;
	}
	if (!nr && !failed) {
		usage(stderr);
		status = EXIT_USAGE;
		goto out;
	}
	if (compare_build(&c, rs, nr)) {
		tty_fprintf(stderr, "raidbench compare: out of memory\n");
		status = 1;
		goto out;
	}
	if (json)
		print_json(&c, rs, nr, errors);
	else if (nr)
		print_table(&c, rs, nr);
	compare_release(&c);
	if (failed) {
		tty_fprintf(stderr, "raidbench compare: %zu of %zu file%s could not be read%s\n", failed,
			failed + nr, failed + nr == 1 ? "" : "s", nr ? "; the others are compared above" : "");
		status = 1;
	}
out:
	for (k = 0; k < nr; k++)
		result_release(&rs[k]);
	free(rs);
	json_object_put(errors);
	return status;
}
