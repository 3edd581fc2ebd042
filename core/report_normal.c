/* core/report_normal.c: placeholder, being written */
