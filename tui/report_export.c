/*
 * report_export.c - writes a report of saved results to a file or, for SVG,
 * a directory of files (core/report_html.h draws them), through the write
 * guard as a run's --output; and the Results screen's "export report": an
 * HTML file under the data directory's reports/.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "report_export.h"
#include "report_html.h"
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

