/* core/rand.c: placeholder, being written */
