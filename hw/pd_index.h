/*
 * pd_index.h - finding a physical drive of one controller by its address in
 * constant time. The tool parsers look a drive up for nearly every line; a
 * scan of all the controller's lists made a long listing quadratic.
 *
 * The index is a lookup aid hanging off struct inv_controller: it never owns
 * drives, only says where one sits. It checks the lists against what it saw
 * before each lookup and catches up (drives appended) or starts over (lists
 * replaced, shrunk or reallocated), so code that appends to the lists
 * directly stays correct. Two rules: a drive's address is set before the
 * next lookup and never changes; a drive is taken out of a list in place
 * only by pd_index_remove (or after pd_index_forget). Single-threaded, like
 * the inventory it serves.
 */
#ifndef RAIDBENCH_PD_INDEX_H
#define RAIDBENCH_PD_INDEX_H

#include <stdbool.h>
#include <stddef.h>

#include "inventory.h"

/* Where a drive sits in a controller (rt_pd_ref in the parsers). */
struct pd_where {
	struct inv_pd **list;
	size_t *nr;
	size_t idx;
};

/*
 * The first drive with this address in c's scan order (arrays in order,
 * then unassigned, then passthrough): 1 and *w filled, 0 when absent,
 * -ENOMEM when the index could not be built (the caller scans instead).
 */
int pd_index_find(struct inv_controller *c, const char *id, struct pd_where *w);

/*
 * Cuts element idx out of list (one of c's lists, *nr long), moving the ones
 * after it down, and keeps the index in step. The element is not freed.
 */
void pd_index_remove(struct inv_controller *c, struct inv_pd **list, size_t *nr, size_t idx);

/* Drops what the index knows; the next lookup rebuilds it. */
void pd_index_forget(struct inv_controller *c);
/* Frees the index (inv_controller_release). */
void pd_index_free(struct inv_controller *c);

#endif
