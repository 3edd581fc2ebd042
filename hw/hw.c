/* hw/hw.c: placeholder, being written */
