/*
 * cmd_results.c - `raidbench results`: the saved runs under
 * $XDG_DATA_HOME/raidbench/results/, oldest first, with when, what (the
 * profile, else the first job), where (the target) and the peak IOPS and
 * MB/s per direction, so a user can pick the files to compare.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "cli.h"
#include "job.h"
#include "results.h"
#include "tty_text.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: raidbench results [--json]   list saved runs, oldest first: time, name,\n"
		"                                    target, peak IOPS and MB/s read and write\n"
		"       raidbench results --dir      print the results directory\n"
		"MB/s is 1,000,000 bytes/s. Compare runs with: raidbench compare FILE FILE...\n");
}

/* 1234 -> "1234", 123456 -> "123.5k", 2345678 -> "2.35M" */
static const char *fmt_iops(char *buf, size_t len, double v)
{
	if (v <= 0)
		snprintf(buf, len, "-");
	else if (v < 10000)
		snprintf(buf, len, "%.0f", v);
	else if (v < 1e6)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else
		snprintf(buf, len, "%.2fM", v / 1e6);
	return buf;
}

static const char *fmt_mbs(char *buf, size_t len, double bw_bytes)
{
	if (bw_bytes <= 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f", bw_bytes / 1e6);
	return buf;
}

static void fmt_time(char *buf, size_t len, int64_t ms, const char *fmt)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;

	if (!ms || !localtime_r(&t, &tm))
		snprintf(buf, len, "?");
	else
		strftime(buf, len, fmt, &tm);
}

/* s (escapes shown, so the columns hold) cut to width, ".." marking the cut; buf holds width + 1 bytes */
static const char *fit(char *buf, size_t width, const char *s)
{
	char *safe = tty_escape(s, false);

	if (safe)
		s = safe;
	if (strlen(s) <= width)
		snprintf(buf, width + 1, "%s", s);
	else
		snprintf(buf, width + 1, "%.*s..", (int)width - 2, s);
	free(safe);
	return buf;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static const char *run_name(const struct result *r)
{
	static char buf[160];

	return result_name(r, buf, sizeof(buf));
}

/* A number as fio writes them ("%f"), not json-c's 17 significant digits. */
static json_object *jnum(double v)
{
	char s[64];

	snprintf(s, sizeof(s), "%f", v);
	return json_object_new_double_s(v, s);
}

static json_object *dir_json(const struct result *r, int ddir)
{
	json_object *o = json_object_new_object();
	double iops, bw;

	result_peak(r, ddir, &iops, &bw);
	json_object_object_add(o, "iops", jnum(iops));
	json_object_object_add(o, "mb_s", jnum(bw / 1e6));
	return o;
}

static json_object *str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static int print_json(const struct result_entry *list, size_t nr)
{
	json_object *arr = json_object_new_array();
	size_t i;

	for (i = 0; i < nr; i++) {
		const struct result *r = &list[i].r;
		json_object *o = json_object_new_object();
		char when[64];
		bool ok = !list[i].err[0];

		fmt_time(when, sizeof(when), r->time_ms, "%Y-%m-%dT%H:%M:%S%z");
		json_object_object_add(o, "file", json_object_new_string(base_name(r->path)));
		json_object_object_add(o, "path", json_object_new_string(r->path));
		json_object_object_add(o, "error", ok ? NULL : json_object_new_string(list[i].err));
		if (ok) {
			json_object_object_add(o, "time", json_object_new_string(when));
			json_object_object_add(o, "time_ms", json_object_new_int64(r->time_ms));
			json_object_object_add(o, "generator", str_or_null(r->generator));
			json_object_object_add(o, "host", str_or_null(r->host));
			json_object_object_add(o, "profile", str_or_null(r->profile));
			json_object_object_add(o, "interrupted", json_object_new_boolean(r->interrupted));
			json_object_object_add(o, "name", json_object_new_string(run_name(r)));
			json_object_object_add(o, "target", str_or_null(r->target));
			json_object_object_add(o, "phases", json_object_new_int((int)r->nr_phases));
			json_object_object_add(o, "read", dir_json(r, DDIR_READ));
			json_object_object_add(o, "write", dir_json(r, DDIR_WRITE));
		}
		json_object_array_add(arr, o);
	}
	tty_json_puts(json_object_to_json_string_ext(arr, JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_NOSLASHESCAPE), stdout);
	json_object_put(arr);
	return 0;
}

static int print_table(const struct result_entry *list, size_t nr)
{
	size_t i;

	tty_printf("%-16s  %-18s %-32s %8s %8s %8s %8s  %s\n", "TIME", "NAME", "TARGET",
	       "R IOPS", "R MB/s", "W IOPS", "W MB/s", "FILE");
	for (i = 0; i < nr; i++) {
		const struct result *r = &list[i].r;
		char when[32], a[16], b[16], c[16], d[16], name[20], target[34];
		double riops, rbw, wiops, wbw;

		if (list[i].err[0]) {
			tty_printf("%-16s  %-18s %-32s %35s  %s\n", "?", "(unreadable)", "", "",
			       base_name(r->path));
			tty_fprintf(stderr, "raidbench results: %s\n", list[i].err);
			continue;
		}
		fmt_time(when, sizeof(when), r->time_ms, "%Y-%m-%d %H:%M");
		result_peak(r, DDIR_READ, &riops, &rbw);
		result_peak(r, DDIR_WRITE, &wiops, &wbw);
		tty_printf("%-16s  %-18s %-32s %8s %8s %8s %8s  %s\n", when,
		       fit(name, 18, run_name(r)), fit(target, 32, r->target ? r->target : "-"),
		       fmt_iops(a, sizeof(a), riops),
		       fmt_mbs(b, sizeof(b), rbw), fmt_iops(c, sizeof(c), wiops),
		       fmt_mbs(d, sizeof(d), wbw), base_name(r->path));
	}
	if (!nr)
		tty_printf("(no saved runs yet: every `raidbench run` saves one)\n");
	return 0;
}

int cmd_results(int argc, char **argv)
{
	struct result_entry *list;
	char err[512], dir[4096];
	bool json = false;
	size_t nr;
	int i, ret;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--dir")) {
			if ((ret = results_dir(dir, sizeof(dir), err, sizeof(err)))) {
				tty_fprintf(stderr, "raidbench results: %s\n", err);
				return 1;
			}
			tty_printf("%s\n", dir);
			return 0;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else {
			tty_fprintf(stderr, "raidbench results: unknown argument '%s'\n", argv[i]);
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (results_list(&list, &nr, err, sizeof(err))) {
		tty_fprintf(stderr, "raidbench results: %s\n", err);
		return 1;
	}
	ret = json ? print_json(list, nr) : print_table(list, nr);
	results_list_free(list, nr);
	return ret;
}
