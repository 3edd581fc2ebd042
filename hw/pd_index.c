/*
 * pd_index.c - a controller's drives by address: an open-addressing hash
 * from the address to (list, position), checked against the lists before
 * every lookup (see pd_index.h for the contract).
 *
 * It holds no strings and no pointers into drives: a slot names a list and a
 * position, and a lookup compares the address it finds there. Each list
 * also keeps the slot of each of its positions, so taking a drive out moves
 * the slots' positions down as cheaply as the drives themselves move.
 */
#include "pd_index.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * A slot's list: >= 0 is arrays[list], then the two below. SLOT_FREE ends a
 * probe; SLOT_GONE (a removed drive) does not, and counts as used until the
 * table is rebuilt.
 */
#define LIST_UNASSIGNED (-1)
#define LIST_PASSTHROUGH (-2)
#define SLOT_FREE INT32_MIN
#define SLOT_GONE (INT32_MIN + 1)
#define NO_SLOT UINT32_MAX	/* a position the table does not point at */

struct pd_slot {
	uint32_t hash;
	int32_t list;
	uint32_t idx;
};

/* What a list looked like when it was last indexed, and where its drives sit in the table. */
struct pd_seen {
	const struct inv_pd *base;
	size_t nr;
	uint32_t *slot_of;	/* nr entries: the slot of each position, or NO_SLOT */
	size_t slot_cap;
};

struct pd_index {
	struct pd_slot *slots;
	size_t cap;		/* a power of two, at least twice used; at most 2^31 */
	size_t used;		/* slots not free, removed ones included */
	size_t gone;		/* removed ones */
	bool dups;		/* an address seen twice: removals start over */
	struct pd_seen *arrays;	/* one per array of the controller, in order */
	size_t nr_arrays;
	size_t arrays_cap;
	struct pd_seen unassigned;
	struct pd_seen passthrough;
};

/* FNV-1a: short addresses ("1I:1:12", "252:7"), no need for more */
static uint32_t hash_of(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static struct inv_pd *list_of(const struct inv_controller *c, int32_t list, size_t *nr)
{
	if (list == LIST_UNASSIGNED) {
		*nr = c->nr_unassigned;
		return c->unassigned;
	}
	if (list == LIST_PASSTHROUGH) {
		*nr = c->nr_passthrough;
		return c->passthrough;
	}
	*nr = c->arrays[list].nr_pds;
	return c->arrays[list].pds;
}

static struct pd_seen *seen_of(struct pd_index *ix, int32_t list)
{
	return list == LIST_UNASSIGNED ? &ix->unassigned :
	       list == LIST_PASSTHROUGH ? &ix->passthrough : &ix->arrays[list];
}

/* The scan order of rt_pd_find: arrays first, in order; lower wins a tie of addresses. */
static uint64_t rank(int32_t list, uint32_t idx)
{
	uint64_t l = list >= 0 ? (uint64_t)list : (uint64_t)UINT32_MAX + (uint64_t)-list;

	return l << 32 | idx;
}

static const char *id_at(const struct inv_controller *c, const struct pd_slot *s)
{
	size_t nr;

	return list_of(c, s->list, &nr)[s->idx].id;
}

/* The slot holding id, or the free slot where it would go. */
static struct pd_slot *probe(const struct pd_slot *slots, size_t cap,
			     const struct inv_controller *c, const char *id, uint32_t h)
{
	for (size_t i = h & (cap - 1);; i = (i + 1) & (cap - 1)) {
		const struct pd_slot *s = &slots[i];

		if (s->list == SLOT_FREE ||
		    (s->list != SLOT_GONE && s->hash == h && !strcmp(id_at(c, s), id)))
			return (struct pd_slot *)s;
	}
}

/* Rebuilds the table at cap slots without the removed ones. */
static int resize(struct pd_index *ix, const struct inv_controller *c, size_t cap)
{
	struct pd_slot *slots = malloc(cap * sizeof(*slots));

	if (!slots || cap > (size_t)1 << 31) {
		free(slots);
		return -ENOMEM;
	}
	for (size_t i = 0; i < cap; i++)
		slots[i].list = SLOT_FREE;
	ix->used = 0;
	for (size_t i = 0; i < ix->cap; i++) {
		const struct pd_slot *o = &ix->slots[i];
		struct pd_slot *s;

		if (o->list == SLOT_FREE || o->list == SLOT_GONE)
			continue;
		s = probe(slots, cap, c, id_at(c, o), o->hash);
		*s = *o;
		seen_of(ix, o->list)->slot_of[o->idx] = (uint32_t)(s - slots);
		ix->used++;
	}
	free(ix->slots);
	ix->slots = slots;
	ix->cap = cap;
	ix->gone = 0;
	return 0;
}

static int insert(struct pd_index *ix, const struct inv_controller *c, int32_t list, size_t idx)
{
	size_t nr;
	const char *id = list_of(c, list, &nr)[idx].id;
	struct pd_slot *s;
	uint32_t h;

	if (!id)
		return 0;	/* never found by address, as in a scan */
	/* a table full of removed slots is rebuilt at its size, not doubled */
	if (2 * (ix->used + 1) > ix->cap &&
	    resize(ix, c, !ix->cap ? 64 : 2 * ix->gone > ix->used ? ix->cap : 2 * ix->cap))
		return -ENOMEM;
	h = hash_of(id);
	s = probe(ix->slots, ix->cap, c, id, h);
	if (s->list == SLOT_FREE) {
		ix->used++;
	} else {
		ix->dups = true;
		if (rank(s->list, s->idx) < rank(list, (uint32_t)idx))
			return 0;
		seen_of(ix, s->list)->slot_of[s->idx] = NO_SLOT;
	}
	s->hash = h;
	s->list = list;
	s->idx = (uint32_t)idx;
	seen_of(ix, list)->slot_of[idx] = (uint32_t)(s - ix->slots);
	return 0;
}

/* Indexes the drives appended to a list since it was seen; -ESTALE when it changed otherwise. */
static int catch_up(struct pd_index *ix, const struct inv_controller *c, int32_t list)
{
	struct pd_seen *seen = seen_of(ix, list);
	size_t nr;
	const struct inv_pd *pds = list_of(c, list, &nr);
	int ret = 0;

	if (nr < seen->nr || (seen->nr && pds != seen->base) || nr >= UINT32_MAX)
		return -ESTALE;
	if (nr > seen->slot_cap) {
		size_t cap = seen->slot_cap ? 2 * seen->slot_cap : 16;
		uint32_t *p;

		while (cap < nr)
			cap *= 2;
		p = realloc(seen->slot_of, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		seen->slot_of = p;
		seen->slot_cap = cap;
	}
	for (size_t i = seen->nr; i < nr; i++)
		seen->slot_of[i] = NO_SLOT;
	seen->base = pds;
	for (size_t i = seen->nr; !ret && i < nr; i++)
		ret = insert(ix, c, list, i);
	seen->nr = nr;
	return ret;
}

static void clear(struct pd_index *ix)
{
	for (size_t i = 0; i < ix->cap; i++)
		ix->slots[i].list = SLOT_FREE;
	ix->used = 0;
	ix->gone = 0;
	ix->dups = false;
	for (size_t k = 0; k < ix->nr_arrays; k++)
		ix->arrays[k].nr = 0;
	ix->nr_arrays = 0;
	ix->unassigned.nr = 0;
	ix->passthrough.nr = 0;
}

static int sync_lists(struct pd_index *ix, const struct inv_controller *c)
{
	int ret = 0;

	if (c->nr_arrays < ix->nr_arrays)
		return -ESTALE;
	if (c->nr_arrays > ix->arrays_cap) {
		size_t cap = ix->arrays_cap ? ix->arrays_cap : 8;
		struct pd_seen *p;

		while (cap < c->nr_arrays)
			cap *= 2;
		p = realloc(ix->arrays, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		memset(p + ix->arrays_cap, 0, (cap - ix->arrays_cap) * sizeof(*p));
		ix->arrays = p;
		ix->arrays_cap = cap;
	}
	for (size_t k = ix->nr_arrays; k < c->nr_arrays; k++)
		ix->arrays[k].nr = 0;
	ix->nr_arrays = c->nr_arrays;
	for (size_t k = 0; !ret && k < c->nr_arrays; k++)
		ret = catch_up(ix, c, (int32_t)k);
	if (!ret)
		ret = catch_up(ix, c, LIST_UNASSIGNED);
	if (!ret)
		ret = catch_up(ix, c, LIST_PASSTHROUGH);
	return ret;
}

int pd_index_find(struct inv_controller *c, const char *id, struct pd_where *w)
{
	struct pd_index *ix = c->pd_index;
	struct pd_slot *s;
	int ret;

	if (!ix && !(ix = c->pd_index = calloc(1, sizeof(*ix))))
		return -ENOMEM;
	ret = sync_lists(ix, c);
	if (ret == -ESTALE) {
		clear(ix);
		ret = sync_lists(ix, c);
	}
	if (ret) {
		clear(ix);
		return ret;
	}
	if (!ix->cap)
		return 0;
	s = probe(ix->slots, ix->cap, c, id, hash_of(id));
	if (s->list == SLOT_FREE)
		return 0;
	if (s->list == LIST_UNASSIGNED) {
		w->list = &c->unassigned;
		w->nr = &c->nr_unassigned;
	} else if (s->list == LIST_PASSTHROUGH) {
		w->list = &c->passthrough;
		w->nr = &c->nr_passthrough;
	} else {
		w->list = &c->arrays[s->list].pds;
		w->nr = &c->arrays[s->list].nr_pds;
	}
	w->idx = s->idx;
	return 1;
}

/* Which of c's lists list is; false when none. */
static bool list_number(const struct inv_controller *c, struct inv_pd *const *list, int32_t *l)
{
	if (list == &c->unassigned) {
		*l = LIST_UNASSIGNED;
		return true;
	}
	if (list == &c->passthrough) {
		*l = LIST_PASSTHROUGH;
		return true;
	}
	for (size_t k = 0; k < c->nr_arrays; k++)
		if (list == &c->arrays[k].pds) {
			*l = (int32_t)k;
			return true;
		}
	return false;
}

void pd_index_remove(struct inv_controller *c, struct inv_pd **list, size_t *nr, size_t idx)
{
	struct pd_index *ix = c->pd_index;
	struct pd_seen *seen = NULL;
	int32_t l;

	/* only a list the index has caught up with can be edited in step */
	if (ix && !ix->dups && list_number(c, list, &l) &&
	    (l < 0 || (size_t)l < ix->nr_arrays)) {
		seen = seen_of(ix, l);
		if (seen->nr != *nr || seen->base != *list)
			seen = NULL;
	}
	memmove(&(*list)[idx], &(*list)[idx + 1], (*nr - idx - 1) * sizeof(**list));
	(*nr)--;
	if (!seen) {
		pd_index_forget(c);
		return;
	}
	/* the drive that went leaves a removed slot; each one after it moved down */
	if (seen->slot_of[idx] != NO_SLOT) {
		ix->slots[seen->slot_of[idx]].list = SLOT_GONE;
		ix->gone++;
	}
	for (size_t j = idx + 1; j <= *nr; j++)
		if (seen->slot_of[j] != NO_SLOT)
			ix->slots[seen->slot_of[j]].idx = (uint32_t)(j - 1);
	memmove(&seen->slot_of[idx], &seen->slot_of[idx + 1],
		(*nr - idx) * sizeof(*seen->slot_of));
	seen->nr = *nr;
}

void pd_index_forget(struct inv_controller *c)
{
	if (c->pd_index)
		clear(c->pd_index);
}

void pd_index_free(struct inv_controller *c)
{
	struct pd_index *ix = c->pd_index;

	if (!ix)
		return;
	free(ix->slots);
	for (size_t k = 0; k < ix->arrays_cap; k++)
		free(ix->arrays[k].slot_of);
	free(ix->arrays);
	free(ix->unassigned.slot_of);
	free(ix->passthrough.slot_of);
	free(ix);
	c->pd_index = NULL;
}
