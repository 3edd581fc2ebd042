/*
 * report_export.h - a report of saved results written to a file (the
 * `report` command and the Results screen's "export report"); what the
 * report holds is core/report_html.h's.
 */
#ifndef RB_REPORT_EXPORT_H
#define RB_REPORT_EXPORT_H

#include <stddef.h>
#include "report_doc.h"

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

#endif
