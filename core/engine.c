/* core/engine.c: placeholder, being written */
