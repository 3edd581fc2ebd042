/* core/units.c: placeholder, being written */
