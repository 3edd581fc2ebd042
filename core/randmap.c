/* core/randmap.c: placeholder, being written */
