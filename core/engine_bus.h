/*
 * engine_bus.h - copies through a memory mapping (mmap, libpmem, dev-dax)
 * that turn a SIGBUS into an error: a device error under a mapping, or a
 * file cut short under it, arrives as a signal rather than an errno.
 *
 * Threading contract: any thread may call engine_bus_copy(); the jump
 * buffer is per thread and the handler is installed once per process.
 */
#ifndef RB_ENGINE_BUS_H
#define RB_ENGINE_BUS_H

#include <stddef.h>

typedef void (*engine_bus_copy_fn)(void *dst, const void *src, size_t len, void *arg);

/* copy(dst, src, len, arg), NULL for memcpy; 0, or -EIO when a SIGBUS stopped it. */
int engine_bus_copy(void *dst, const void *src, size_t len, engine_bus_copy_fn copy, void *arg);

#endif
