/* core/options.c: placeholder, being written */
