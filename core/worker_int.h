/* worker_int.h - what the worker's own files share; not for other modules. */
#ifndef RB_WORKER_INT_H
#define RB_WORKER_INT_H

#include <stddef.h>
#include <stdint.h>
#include "worker.h"

int worker_open_files(struct worker *w, char *err, size_t errlen);
void worker_close_files(struct worker *w);

/*
 * The next offset for an I/O of bs bytes in direction ddir, relative to the
 * region start of f: sequential (with rw=...:N holes), random through the
 * random map, uniform with norandommap (aligned to blockalign), or from a
 * non-uniform distribution. Always aligned and inside [0, f->size - bs].
 */
uint64_t worker_pick_offset(struct worker *w, struct worker_file *f, int ddir, uint64_t bs);

/*
 * The next sequential offset in direction ddir (rw=...:N gaps applied,
 * wrapping to the start when bs no longer fits) without moving on.
 */
uint64_t worker_seq_next(struct worker *w, struct worker_file *f, int ddir, uint64_t bs);

/* fio's log files (core/worker_log.c) */
int worker_logs_open(struct worker *w, char *err, size_t errlen);
void worker_logs_start(struct worker *w, uint64_t base_ns);
void worker_logs_io(struct worker *w, int ddir, uint32_t bytes, uint64_t slat, uint64_t clat,
		    uint64_t lat, uint64_t comp_ns, uint64_t offset);
/* Flushes the last window (end_ns) and closes; 0 or -errno (a full disk shows here). */
int worker_logs_close(struct worker *w, uint64_t end_ns);

#endif
