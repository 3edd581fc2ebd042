/* grow.c - doubling growth for arrays built one entry at a time (see grow.h). */
#include "grow.h"

#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int grow_room(void *arr, size_t nr, size_t sz)
{
	void **p = arr;
	size_t want = nr < 4 ? 4 : 2 * nr;
	void *n;

	if (*p && malloc_usable_size(*p) / sz > nr)
		return 0;
	if (want > SIZE_MAX / sz)
		return -ENOMEM;
	n = realloc(*p, want * sz);
	if (!n)
		return -ENOMEM;
	*p = n;
	return 0;
}

int grow_to_index(void *arr, size_t *nr, size_t idx, size_t sz)
{
	void **p = arr;
	size_t want = idx + 16;
	char *n;

	if (idx < *nr)
		return 0;
	if (idx > SIZE_MAX / sz - 16)
		return -ENOMEM;
	n = realloc(*p, want * sz);
	if (!n)
		return -ENOMEM;
	memset(n + *nr * sz, 0, (want - *nr) * sz);
	*p = n;
	*nr = want;
	return 0;
}
