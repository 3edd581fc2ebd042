/* core/run.c: placeholder, being written */
