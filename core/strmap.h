/*
 * strmap.h - string keys to indexes in constant time: how the readers of
 * outside input find "the entry for this name" without scanning every entry
 * for every line (which made long inputs quadratic).
 *
 * The map copies its keys and holds size_t values, usually an index into
 * the caller's array. Not thread-safe: one owner at a time.
 */
#ifndef RAIDBENCH_STRMAP_H
#define RAIDBENCH_STRMAP_H

#include <stdbool.h>
#include <stddef.h>

struct strmap {
	struct strmap_slot *slots;
	size_t cap;		/* a power of two, at least twice nr; 0 when empty */
	size_t nr;
};

/* An empty map; strmap_release frees what it grew. */
void strmap_init(struct strmap *m);
void strmap_release(struct strmap *m);

/* True and *val filled when key is in the map. */
bool strmap_get(const struct strmap *m, const char *key, size_t *val);

/* Sets key to val (added or replaced); 0 or -ENOMEM (the map is unchanged). */
int strmap_put(struct strmap *m, const char *key, size_t val);

#endif
