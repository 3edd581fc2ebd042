/* core/dist.c: placeholder, being written */
