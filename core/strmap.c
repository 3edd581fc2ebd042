/*
 * strmap.c - an open-addressing hash of copied string keys (FNV-1a,
 * linear probing, doubled at half full). No removal: the readers it serves
 * only add names.
 */
#include "strmap.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct strmap_slot {
	char *key;		/* NULL: free */
	uint32_t hash;
	size_t val;
};

static uint32_t hash_of(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

void strmap_init(struct strmap *m)
{
	memset(m, 0, sizeof(*m));
}

void strmap_release(struct strmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->slots[i].key);
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

/* The slot holding key, or the free one where it would go. */
static struct strmap_slot *probe(struct strmap_slot *slots, size_t cap, const char *key,
				 uint32_t h)
{
	for (size_t i = h & (cap - 1);; i = (i + 1) & (cap - 1))
		if (!slots[i].key || (slots[i].hash == h && !strcmp(slots[i].key, key)))
			return &slots[i];
}

bool strmap_get(const struct strmap *m, const char *key, size_t *val)
{
	struct strmap_slot *s;

	if (!m->cap)
		return false;
	s = probe(m->slots, m->cap, key, hash_of(key));
	if (!s->key)
		return false;
	*val = s->val;
	return true;
}

static int grow(struct strmap *m)
{
	size_t cap = m->cap ? 2 * m->cap : 16;
	struct strmap_slot *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].key)
			*probe(slots, cap, m->slots[i].key, m->slots[i].hash) = m->slots[i];
	free(m->slots);
	m->slots = slots;
	m->cap = cap;
	return 0;
}

int strmap_put(struct strmap *m, const char *key, size_t val)
{
	uint32_t h = hash_of(key);
	struct strmap_slot *s;

	if (2 * (m->nr + 1) > m->cap && grow(m))
		return -ENOMEM;
	s = probe(m->slots, m->cap, key, h);
	if (!s->key) {
		if (!(s->key = strdup(key)))
			return -ENOMEM;
		s->hash = h;
		m->nr++;
	}
	s->val = val;
	return 0;
}
