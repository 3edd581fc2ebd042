/*
 * mailbox.h - the latest short text from one thread to another, triple
 * buffered: the writer never waits and never overwrites what the reader is
 * reading, the reader gets the newest whole text or nothing, never a mix of
 * two. Older texts the reader missed are gone: only the latest counts (a
 * job's latest output line, exec's program under the TUI).
 *
 * Threading contract: exactly one writer thread calls mailbox_put(), exactly
 * one reader thread calls mailbox_take(); no locking, no fences. A zeroed
 * struct mailbox is an empty one (no init needed). Never prints.
 */
#ifndef RB_MAILBOX_H
#define RB_MAILBOX_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#define MAILBOX_TEXT_MAX 256	/* bytes of a text, its NUL included */

struct mailbox {
	char slot[3][MAILBOX_TEXT_MAX];
	/* the slot handed over last (bits 0-1) and whether the reader has taken it (bit 2 clear) */
	_Atomic unsigned mid;
	unsigned w_slot;	/* the writer's own: its slot + 1 (0: slot 1) */
	unsigned r_slot;	/* the reader's own: its slot + 1 (0: slot 2) */
};

/* Writer: hands text over (cut to MAILBOX_TEXT_MAX - 1 bytes), replacing any not taken yet. */
void mailbox_put(struct mailbox *mb, const char *text);

/* Reader: true with the newest text in buf (cut to len) when one came since the last take. */
bool mailbox_take(struct mailbox *mb, char *buf, size_t len);

#endif
