/* worker_int.h - what the worker's own files share; not for other modules. */
#ifndef RB_WORKER_INT_H
#define RB_WORKER_INT_H

#include <stddef.h>
#include "worker.h"

int worker_open_files(struct worker *w, char *err, size_t errlen);
void worker_close_files(struct worker *w);

#endif
