/* core/run.h: placeholder */
