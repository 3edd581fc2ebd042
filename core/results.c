/* core/results.c: placeholder, being written */
