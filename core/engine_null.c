/* core/engine_null.c: placeholder, being written */
