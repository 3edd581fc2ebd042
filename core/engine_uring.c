/* core/engine_uring.c: placeholder, being written */
