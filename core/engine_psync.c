/* core/engine_psync.c: placeholder, being written */
