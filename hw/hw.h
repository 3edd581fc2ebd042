/* hw/hw.h: placeholder */
