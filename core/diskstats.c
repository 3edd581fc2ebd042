/* core/diskstats.c: placeholder, being written */
