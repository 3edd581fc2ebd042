/* core/engine_libaio.c: placeholder, being written */
