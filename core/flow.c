/*
 * flow.c - fio's flow control between jobs: shared counters per flow_id
 * (see flow.h for the contract). No locks: every counter is a relaxed
 * atomic, since an I/O issued a moment early or late changes no result.
 */
#include <errno.h>
#include <stdlib.h>
#include "flow.h"

int flow_table_init(struct flow_table *t, size_t cap)
{
	t->nr = 0;
	t->cap = cap;
	t->flows = cap ? calloc(cap, sizeof(*t->flows)) : NULL;
	return cap && !t->flows ? -ENOMEM : 0;
}

struct flow *flow_table_get(struct flow_table *t, int id)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		if (t->flows[i].id == id)
			return &t->flows[i];
	if (t->nr == t->cap)
		return NULL;
	t->flows[t->nr].id = id;
	return &t->flows[t->nr++];
}

void flow_table_release(struct flow_table *t)
{
	free(t->flows);
	t->flows = NULL;
	t->nr = t->cap = 0;
}

void flow_join(struct flow *f, unsigned weight)
{
	atomic_fetch_add_explicit(&f->weight, weight, memory_order_relaxed);
}

void flow_leave(struct flow *f, unsigned weight, uint64_t mine)
{
	atomic_fetch_sub_explicit(&f->weight, weight, memory_order_relaxed);
	atomic_fetch_sub_explicit(&f->ios, mine, memory_order_relaxed);
}

bool flow_ahead(struct flow *f, uint64_t mine, unsigned weight)
{
	uint64_t all = atomic_load_explicit(&f->ios, memory_order_relaxed);
	uint64_t total = atomic_load_explicit(&f->weight, memory_order_relaxed);

	/* mine / all > weight / total, without division */
	return all && total && (double)mine * (double)total > (double)weight * (double)all;
}

void flow_count(struct flow *f)
{
	atomic_fetch_add_explicit(&f->ios, 1, memory_order_relaxed);
}
