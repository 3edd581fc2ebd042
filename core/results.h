/* core/results.h: placeholder */
