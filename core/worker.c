/* core/worker.c: placeholder, being written */
