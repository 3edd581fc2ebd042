/* core/report_json.c: placeholder, being written */
