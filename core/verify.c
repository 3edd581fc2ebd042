/* core/verify.c: placeholder, being written */
