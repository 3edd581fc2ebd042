/*
 * cmd_report.c - `raidbench report RESULT.json ... -o report.html`: a report
 * of saved results people can open offline (core/report_html.h), or its
 * charts as SVG files in a directory, or the series as CSV. The files are
 * written by tui/report_export.c, through the write guard as a run's
 * --output.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report_export.h"
#include "report_html.h"
#include "results.h"
#include "tty_text.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: raidbench report [--format=html|svg|csv] [-o PATH] FILE [FILE...]\n"
		"  FILE: a result saved by raidbench run or sweep (a path, or a file name from\n"
		"        `raidbench results`), or fio's JSON output.\n"
		"  html  (default) one self-contained page: per phase IOPS, MB/s and latency\n"
		"        percentiles over time, the latency histogram, device utilisation and\n"
		"        the run's identity; several FILEs side by side, a sweep's across RAID\n"
		"        levels. -o FILE, or standard output.\n"
		"  svg   the same charts, one file each, into the directory -o DIR (required).\n"
		"  csv   the per-interval series, one row per bucket. -o FILE, or standard output.\n"
		"  A FILE that cannot be read is named and left out; the exit status is then 1.\n");
}

static int load_all(struct rdoc *docs, size_t *nr, char **paths, size_t n, size_t *failed)
{
	char err[1024], buf[PATH_MAX + 64];

	*nr = 0;
	*failed = 0;
	for (size_t i = 0; i < n; i++) {
		int ret = rdoc_load(&docs[*nr], *nr, results_resolve_arg(paths[i], buf, sizeof(buf)), err,
				    sizeof(err));

		if (!ret) {
			(*nr)++;
			continue;
		}
		if (ret == -ENOMEM)
			return ret;
		tty_fprintf(stderr, "raidbench report: %s\n", err);
		(*failed)++;
	}
	return 0;
}

int cmd_report(int argc, char **argv)
{
	char **files = calloc((size_t)argc + 1, sizeof(*files));
	struct rdoc *docs = calloc((size_t)argc + 1, sizeof(*docs));
	struct opts {
		const char *out, *format;
	} o = { NULL, "html" };
	size_t nr_files = 0, nr = 0, failed = 0, k;
	enum report_fmt fmt = FMT_HTML;
	char err[1024];
	unsigned charts = 0;
	int status = 0, i;

	if (!files || !docs) {
		tty_fprintf(stderr, "raidbench report: out of memory\n");
		free(files);
		free(docs);
		return 1;
	}
	for (i = 0; i < argc; i++) {
		static const struct cli_key keys[] = {
			{ "--format", offsetof(struct opts, format) },
			{ "--output", offsetof(struct opts, out) },
			{ "-o", offsetof(struct opts, out) },
		};
		int m;

		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			goto out;
		}
		m = cli_opt_table(argc, argv, &i, keys, sizeof(keys) / sizeof(keys[0]), &o, "report");
		if (m < 0) {
			status = EXIT_USAGE;
			goto out;
		}
		if (m)
			continue;
		if (argv[i][0] == '-' && argv[i][1]) {
			tty_fprintf(stderr, "raidbench report: unknown option '%s'\n", argv[i]);
			usage(stderr);
			status = EXIT_USAGE;
			goto out;
		}
		files[nr_files++] = argv[i];
	}
	if (!strcmp(o.format, "svg")) {
		fmt = FMT_SVG;
	} else if (!strcmp(o.format, "csv")) {
		fmt = FMT_CSV;
	} else if (strcmp(o.format, "html")) {
		tty_fprintf(stderr, "raidbench report: --format=%s: not html, svg or csv\n", o.format);
		status = EXIT_USAGE;
		goto out;
	}
	if (!nr_files || (fmt == FMT_SVG && !o.out)) {
		if (nr_files)
			tty_fprintf(stderr, "raidbench report: --format=svg writes one file per chart: "
				    "name the directory with -o DIR\n");
		usage(stderr);
		status = EXIT_USAGE;
		goto out;
	}
	if (o.out && !strcmp(o.out, "-"))
		o.out = NULL;
	if (load_all(docs, &nr, files, nr_files, &failed)) {
		tty_fprintf(stderr, "raidbench report: out of memory\n");
		status = 1;
		goto out;
	}
	if (!nr) {
		tty_fprintf(stderr, "raidbench report: no result could be read; nothing written\n");
		status = 1;
		goto out;
	}
	if (report_write_file(fmt, o.out, docs, nr, err, sizeof(err), &charts)) {
		tty_fprintf(stderr, "raidbench report: %s\n", err);
		status = 1;
		goto out;
	}
	if (fmt == FMT_SVG)
		tty_fprintf(stderr, "raidbench report: %u chart%s written to %s/\n", charts,
			    charts == 1 ? "" : "s", o.out);
	else if (o.out)
		tty_fprintf(stderr, "raidbench report: wrote %s (%zu result%s)\n", o.out, nr,
			    nr == 1 ? "" : "s");
	if (failed) {
		tty_fprintf(stderr, "raidbench report: %zu of %zu file%s could not be read and %s "
			    "left out\n", failed, failed + nr, failed + nr == 1 ? "" : "s",
			    failed == 1 ? "is" : "are");
		status = 1;
	}
out:
	for (k = 0; k < nr; k++)
		rdoc_release(&docs[k]);
	free(docs);
	free(files);
	return status;
}
