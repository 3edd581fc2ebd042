/*
 * pd_index.c - a controller's drives by address: an open-addressing hash
 * from the address to (list, position), checked against the lists before
 * every lookup (see pd_index.h for the contract).
 *
 * It holds no strings and no pointers into drives: a slot names a list and a
 * position, and a lookup compares the address it finds there.
 */
#include "pd_index.h"

#include <errno.h>
#include <stdbool.h>
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

struct pd_slot {
	uint32_t hash;
	int32_t list;
	uint32_t idx;
};

/* What a list looked like when it was last indexed. */
struct pd_seen {
	const struct inv_pd *base;
	size_t nr;
};

struct pd_index {
	struct pd_slot *slots;
	size_t cap;		/* a power of two, at least twice used */
	size_t used;		/* slots not free, removed ones included */
	size_t gone;		/* removed ones */
	bool dups;		/* an address seen twice: removals start over */
	struct pd_seen *arrays;	/* one per array of the controller, in order */
	size_t nr_arrays;
	size_t arrays_cap;
	struct pd_seen unassigned;
	struct pd_seen passthrough;
	size_t shifted;		/* drives moved down by removals, for PD_SHIFT_BUDGET */
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

/* The scan order of rt_pd_find: arrays first, in order; lower wins a tie of addresses. */
static uint64_t rank(int32_t list, uint32_t idx)
{
	uint64_t l = list >= 0 ? (uint64_t)list : (uint64_t)UINT32_MAX + (uint64_t)-list;

	return l << 32 | idx;
}

static const char *id_at(const struct inv_controller *c, const struct pd_slot *s)
{
	size_t nr;
	const struct inv_pd *pds = list_of(c, s->list, &nr);

	return pds[s->idx].id;
}

/* The slot holding id, or the free slot where it would go. */
static struct pd_slot *probe(const struct pd_index *ix, const struct inv_controller *c,
			     const char *id, uint32_t h)
{
	size_t mask = ix->cap - 1;

	for (size_t i = h & mask;; i = (i + 1) & mask) {
		struct pd_slot *s = &ix->slots[i];

		if (s->list == SLOT_FREE ||
		    (s->list != SLOT_GONE && s->hash == h && !strcmp(id_at(c, s), id)))
			return s;
	}
}

static int resize(struct pd_index *ix, const struct inv_controller *c, size_t cap)
{
	struct pd_slot *old = ix->slots;
	size_t old_cap = ix->cap;

	ix->slots = malloc(cap * sizeof(*ix->slots));
	if (!ix->slots) {
		ix->slots = old;
		return -ENOMEM;
	}
	for (size_t i = 0; i < cap; i++)
		ix->slots[i].list = SLOT_FREE;
	ix->cap = cap;
	ix->used = 0;
	ix->gone = 0;
	for (size_t i = 0; i < old_cap; i++) {
		if (old[i].list == SLOT_FREE || old[i].list == SLOT_GONE)
			continue;
		*probe(ix, c, id_at(c, &old[i]), old[i].hash) = old[i];
		ix->used++;
	}
	free(old);
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
	s = probe(ix, c, id, h);
	if (s->list == SLOT_FREE) {
		ix->used++;
	} else {
		ix->dups = true;
		if (rank(s->list, s->idx) < rank(list, (uint32_t)idx))
			return 0;
	}
	s->hash = h;
	s->list = list;
	s->idx = (uint32_t)idx;
	return 0;
}

/* Indexes the drives appended to a list since it was seen; -ESTALE when it changed otherwise. */
static int catch_up(struct pd_index *ix, const struct inv_controller *c, int32_t list,
		    struct pd_seen *seen)
{
	size_t nr;
	const struct inv_pd *pds = list_of(c, list, &nr);
	int ret = 0;

	if (nr < seen->nr || (seen->nr && pds != seen->base))
		return -ESTALE;
	for (size_t i = seen->nr; !ret && i < nr; i++)
		ret = insert(ix, c, list, i);
	seen->base = pds;
	seen->nr = ret ? 0 : nr;
	return ret;
}

static void clear(struct pd_index *ix)
{
	for (size_t i = 0; i < ix->cap; i++)
		ix->slots[i].list = SLOT_FREE;
	ix->used = 0;
	ix->gone = 0;
	ix->dups = false;
	ix->nr_arrays = 0;
	memset(&ix->unassigned, 0, sizeof(ix->unassigned));
	memset(&ix->passthrough, 0, sizeof(ix->passthrough));
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
		ix->arrays = p;
		ix->arrays_cap = cap;
	}
	for (size_t k = ix->nr_arrays; k < c->nr_arrays; k++)
		memset(&ix->arrays[k], 0, sizeof(ix->arrays[k]));
	ix->nr_arrays = c->nr_arrays;
	for (size_t k = 0; !ret && k < c->nr_arrays; k++)
		ret = catch_up(ix, c, (int32_t)k, &ix->arrays[k]);
	if (!ret)
		ret = catch_up(ix, c, LIST_UNASSIGNED, &ix->unassigned);
	if (!ret)
		ret = catch_up(ix, c, LIST_PASSTHROUGH, &ix->passthrough);
	return ret;
}

static struct pd_index *index_of(struct inv_controller *c)
{
	if (!c->pd_index)
		c->pd_index = calloc(1, sizeof(*c->pd_index));
	return c->pd_index;
}

int pd_index_find(struct inv_controller *c, const char *id, struct pd_where *w)
{
	struct pd_index *ix = index_of(c);
	struct pd_slot *s;
	int ret;

	if (!ix)
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
	s = probe(ix, c, id, hash_of(id));
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

/* Which of c's lists list is; false when none (then the index starts over). */
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

/*
 * The slots of a list's drives idx..nr-1, found while the list is still
 * as the index saw it; NULL entries for drives it does not hold.
 */
static struct pd_slot **slots_from(struct pd_index *ix, const struct inv_controller *c,
				   int32_t l, size_t idx, size_t nr)
{
	size_t nr_now;
	const struct inv_pd *pds = list_of(c, l, &nr_now);
	struct pd_slot **v = malloc((nr - idx) * sizeof(*v));

	for (size_t j = idx; v && j < nr; j++) {
		struct pd_slot *s = pds[j].id ? probe(ix, c, pds[j].id, hash_of(pds[j].id)) : NULL;

		v[j - idx] = s && s->list == l && s->idx == j ? s : NULL;
	}
	return v;
}

void pd_index_remove(struct inv_controller *c, struct inv_pd **list, size_t *nr, size_t idx)
{
	struct pd_index *ix = c->pd_index;
	struct pd_slot **moved = NULL;
	struct pd_seen *seen = NULL;
	int32_t l;

	if (ix && list_number(c, list, &l)) {
		seen = l == LIST_UNASSIGNED ? &ix->unassigned :
		       l == LIST_PASSTHROUGH ? &ix->passthrough :
		       (size_t)l < ix->nr_arrays ? &ix->arrays[l] : NULL;
		/* only a list the index has caught up with can be edited in step */
		if (seen && (seen->nr != *nr || seen->base != *list || ix->dups))
			seen = NULL;
	}
	if (seen)
		moved = slots_from(ix, c, l, idx, *nr);
	memmove(&(*list)[idx], &(*list)[idx + 1], (*nr - idx - 1) * sizeof(**list));
	(*nr)--;
	if (!moved) {
		pd_index_forget(c);
		return;
	}
	/* the drive that went leaves a removed slot; each one after it moved down */
	if (moved[0]) {
		moved[0]->list = SLOT_GONE;
		ix->gone++;
	}
	for (size_t j = idx + 1; j <= *nr; j++)
		if (moved[j - idx])
			moved[j - idx]->idx = (uint32_t)(j - 1);
	seen->nr = *nr;
	free(moved);
}

bool pd_index_may_shift(struct inv_controller *c, size_t n)
{
	struct pd_index *ix = index_of(c);

	if (!ix)
		return true;	/* no memory to count with: the move itself will tell */
	if (ix->shifted + n > PD_SHIFT_BUDGET) {
		ix->shifted = PD_SHIFT_BUDGET + 1;
		return false;
	}
	ix->shifted += n;
	return true;
}

bool pd_index_spent(const struct inv_controller *c)
{
	return c->pd_index && c->pd_index->shifted > PD_SHIFT_BUDGET;
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
	free(ix->arrays);
	free(ix);
	c->pd_index = NULL;
}
