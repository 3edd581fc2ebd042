/* core/guard.c: placeholder, being written */
