/* core/report_common.c: placeholder, being written */
