/* core/stats.c: placeholder, being written */
