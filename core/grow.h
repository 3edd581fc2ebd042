/*
 * grow.h - room for one more element at the end of a malloc'd array,
 * doubling the block when it is full, so a list built one entry at a time
 * costs linear time (a realloc per entry copies the whole list each time
 * the allocator cannot extend it in place).
 *
 * The capacity is what malloc says the block holds (malloc_usable_size), so
 * arrays made, swapped or trimmed elsewhere with plain malloc/realloc stay
 * safe to grow here: no capacity field to keep in step.
 */
#ifndef RAIDBENCH_GROW_H
#define RAIDBENCH_GROW_H

#include <stddef.h>

/* Makes *arr (nr elements of sz bytes) hold at least nr + 1: 0 or -ENOMEM (*arr unchanged). */
int grow_room(void *arr, size_t nr, size_t sz);

/*
 * Makes *arr (*nr elements of sz bytes) reach index idx, the new elements
 * zeroed and *nr updated: a table filled lazily by index (per file, say).
 * 0 or -ENOMEM (*arr and *nr unchanged).
 */
int grow_to_index(void *arr, size_t *nr, size_t idx, size_t sz);

#endif
