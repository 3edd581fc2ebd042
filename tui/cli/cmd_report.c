/*
 * cmd_report.c - `raidbench report RESULT.json ... -o report.html`: a report
 * of saved results people can open offline (core/report_html.h), or its
 * charts as SVG files in a directory, or the series as CSV; and the Results
 * screen's "export report". Every file is written through the write guard
 * as a run's --output.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "report_html.h"
#include "results.h"
#include "tty_text.h"
#include "userdir.h"

struct svg_dir {
	const char *dir;
	struct run_output out;
	unsigned written;
};

static FILE *svg_open(void *arg, const char *stem, char *err, size_t errlen)
{
	struct svg_dir *s = arg;
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s.svg", s->dir, stem);
	s->out.path = NULL;
	/* the path outlives the call in s->out only for messages: keep a copy */
	if (run_output_open(&s->out, strdup(path), NULL, err, errlen))
		return NULL;
	run_output_start(&s->out);
	return s->out.f;
}

static int svg_close(void *arg, FILE *f, char *err, size_t errlen)
{
	struct svg_dir *s = arg;
	char *path = (char *)s->out.path;
	int ret;

	(void)f;
	ret = run_output_close(&s->out, err, errlen);
	free(path);
	s->written += !ret;
	return ret;
}

int report_write_file(enum report_fmt fmt, const char *out, struct rdoc *docs, size_t nr, char *err,
			size_t errlen, unsigned *charts)
{
	struct svg_dir sd = { out, { 0 }, 0 };
	struct report_sink sink = { NULL, svg_open, svg_close, &sd };
	struct run_output o;
	char e2[512];
	int ret;

	*charts = 0;
	if (fmt == FMT_SVG) {
		if (mkdir(out, 0777) && errno != EEXIST) {
			snprintf(err, errlen, "cannot make the directory %s: %s", out, strerror(errno));
			return -errno;
		}
		ret = report_write(&sink, docs, nr, err, errlen);
		*charts = sd.written;
		return ret;
	}
	ret = run_output_open(&o, out, NULL, err, errlen);
	if (ret)
		return ret;
	run_output_start(&o);
	errno = 0;
	sink.html = o.f;
	ret = fmt == FMT_CSV ? report_csv(o.f, docs, nr) : report_write(&sink, docs, nr, err, errlen);
	if (run_output_close(&o, e2, sizeof(e2)) && !ret) {
		snprintf(err, errlen, "%s", e2);
		ret = -EIO;
	}
	return ret;
}

int report_export(char *const *paths, size_t n, const char *out, char *err, size_t errlen)
{
	struct rdoc *docs = calloc(n ? n : 1, sizeof(*docs));
	size_t nr = 0, i;
	unsigned charts;
	int ret = 0;

	if (!docs) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < n && !ret; i++)
		if (!(ret = rdoc_load(&docs[i], i, paths[i], err, errlen)))
			nr++;
	if (!ret)
		ret = report_write_file(FMT_HTML, out, docs, nr, err, errlen, &charts);
	for (i = 0; i < nr; i++)
		rdoc_release(&docs[i]);
	free(docs);
	return ret;
}

int report_export_path(const char *result_path, char *buf, size_t len, char *err, size_t errlen)
{
	char dir[PATH_MAX];
	const char *base = strrchr(result_path, '/');
	size_t n;
	int ret = userdir_path(USERDIR_DATA, "reports", dir, sizeof(dir), err, errlen);

	if (!ret)
		ret = userdir_make(dir, err, errlen);
	if (ret)
		return ret;
	base = base ? base + 1 : result_path;
	n = strlen(base);
	if (n > 5 && !strcmp(base + n - 5, ".json"))
		n -= 5;
	snprintf(buf, len, "%s/%.*s.html", dir, (int)n, base);
	return 0;
}

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
