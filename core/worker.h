/* core/worker.h: placeholder */
