/*
 * fuzz_results.c - the result-JSON reader (core/results.c result_parse) as
 * `compare` and `results` use it: parse, line the result up against itself,
 * take the peak line, release; then the report's reader and writer
 * (core/report_doc.c, report_html.c) on the same text: an HTML report of it
 * twice (a comparison), its charts one by one, its CSV. The HTML must never
 * hold a script element, whatever the file says.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "fuzz.h"
#include "report_html.h"
#include "results.h"

static FILE *chart_open(void *arg, const char *stem, char *err, size_t errlen)
{
	(void)arg;
	(void)err;
	(void)errlen;
	/* the stem becomes a file name: it must stay one */
	if (!*stem || *stem == '.' || strchr(stem, '/'))
		abort();
	return fopen("/dev/null", "w");
}

static int chart_close(void *arg, FILE *f, char *err, size_t errlen)
{
	(void)arg;
	(void)err;
	(void)errlen;
	return fclose(f) ? -1 : 0;
}

static void report(const uint8_t *data, size_t size)
{
	struct rdoc d[2];
	char err[512] = "", *buf = NULL;
	size_t len = 0;
	struct report_sink charts = { NULL, chart_open, chart_close, NULL };
	struct report_sink page = { NULL, NULL, NULL, NULL };
	int ret = rdoc_parse(&d[0], 0, "fuzz.json", (const char *)data, size, err, sizeof(err));

	fuzz_need_message(ret, err, "rdoc_parse");
	if (ret)
		return;
	d[1] = d[0];
	d[1].index = 1;
	page.html = open_memstream(&buf, &len);
	if (page.html) {
		report_write(&page, d, 2, err, sizeof(err));
		fclose(page.html);
		if (!memmem(buf, len, "</html>", 7) || memmem(buf, len, "<script", 7))
			abort();
		free(buf);
	}
	report_write(&charts, d, 1, err, sizeof(err));
	page.html = fopen("/dev/null", "w");
	if (page.html) {
		report_csv(page.html, d, 1);
		fclose(page.html);
	}
	rdoc_release(&d[0]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct result rs[2];
	struct compare c = { 0 };
	double iops, bw;
	char err[512] = "";
	int ret;

	ret = result_parse(&rs[0], "fuzz.json", (const char *)data, size, err, sizeof(err));
	fuzz_need_message(ret, err, "result_parse");
	if (ret)
		return 0;
	rs[1] = rs[0];
	result_peak(&rs[0], 0, &iops, &bw);
	result_peak(&rs[0], 1, &iops, &bw);
	if (!compare_build(&c, rs, 2))
		compare_release(&c);
	result_release(&rs[0]);
	report(data, size);
	return 0;
}
