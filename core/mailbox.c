/*
 * mailbox.c - the triple buffer of mailbox.h: writer and reader each own a
 * slot, the third is in the middle; each side trades its slot for the
 * middle one with one atomic exchange. Nothing here waits.
 */
#include <stdio.h>
#include <string.h>

#include "mailbox.h"

#define FRESH 4u	/* mid: the slot there was put and not taken yet */

void mailbox_put(struct mailbox *mb, const char *text)
{
	unsigned w = mb->w_slot ? mb->w_slot - 1 : 1, old;

	snprintf(mb->slot[w], sizeof(mb->slot[w]), "%s", text);
	/*
	 * release: the text is written before the slot is in the middle; pairs
	 * with the acquire of the exchange in mailbox_take. acquire: the slot
	 * taken back is one the reader has finished with (its release there).
	 */
	old = atomic_exchange_explicit(&mb->mid, w | FRESH, memory_order_acq_rel);
	mb->w_slot = (old & 3u) + 1;
}

bool mailbox_take(struct mailbox *mb, char *buf, size_t len)
{
	unsigned r = mb->r_slot ? mb->r_slot - 1 : 2, old;

	/* only a hint: the exchange below orders what is read */
	if (!(atomic_load_explicit(&mb->mid, memory_order_relaxed) & FRESH))
		return false;
	/* pairs with the release of the exchange in mailbox_put; our old slot goes back released */
	old = atomic_exchange_explicit(&mb->mid, r, memory_order_acq_rel);
	r = old & 3u;
	mb->r_slot = r + 1;
	if (len)
		snprintf(buf, len, "%s", mb->slot[r]);
	return true;
}
