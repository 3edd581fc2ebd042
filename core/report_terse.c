/* core/report_terse.c: placeholder, being written */
