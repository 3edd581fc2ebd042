/* hw/inventory.c: placeholder, being written (implements hw/inventory.h) */
