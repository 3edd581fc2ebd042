/*
 * worker_readback.c - what a verify phase reads back: the intact writes of
 * the pass, each whole and once, in fio 3.33's order.
 *
 * fio logs each write it issues for the read-back (iolog.c's log_io_piece):
 * a file with a random map keeps them in write order (its io_hist_list); any
 * other (sequential, norandommap, a non-uniform distribution, lfsr) sorted by
 * offset (its io_hist_tree), where a write over part of an earlier one drops
 * that one whole. Both kinds are held here as two bitmaps per file, by the
 * worker's vgran bytes: the pieces a write to read back covers (written) and
 * those where such a write begins (wstart), so a whole device costs two bits
 * a piece. Where fio keeps write order, the start piece of each write is
 * also noted in issue order, eight bytes a write; the bitmaps still say
 * which of those writes are intact, so a block written twice in a pass (a
 * map reset by time_based, unmarked sequential picks) is read once, with
 * its last data. (fio reads each logged write then, and its check of the
 * first one fails on the newer header it finds: not copied.)
 *
 * Only the worker's own thread touches this; nothing here does I/O.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "worker_int.h"

static inline bool bit_get(const uint8_t *map, uint64_t b)
{
	return map[b / 8] & (1u << (b % 8));
}

static inline void bit_set(uint8_t *map, uint64_t b)
{
	map[b / 8] |= (uint8_t)(1u << (b % 8));
}

static inline void bit_clr(uint8_t *map, uint64_t b)
{
	map[b / 8] &= (uint8_t)~(1u << (b % 8));
}

/* The file a piece of the write-order list is in: the last whose vbase is not past it. */
static unsigned file_of(const struct worker *w, uint64_t piece)
{
	unsigned lo = 0, hi = w->nr_files;

	while (hi - lo > 1) {
		unsigned mid = lo + (hi - lo) / 2;

		if (w->files[mid].vbase <= piece)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Drops the noted writes that are no longer intact and all but the first
 * note of each that is, keeping their order: the list then holds about one
 * entry a piece. A start kept is unmarked while the list is walked, so a
 * later note of it reads as a duplicate, then marked again. The last notes,
 * as many as there are units, are kept as they are: writes still in flight.
 */
static void compact(struct worker *w)
{
	struct readback *r = &w->rback;
	size_t i, n = 0, tail = r->nr > w->nr_units ? r->nr - w->nr_units : 0;

	for (i = 0; i < r->nr; i++) {
		if (i >= tail) {
			r->order[n++] = r->order[i];
			continue;
		}
		struct worker_file *f = &w->files[file_of(w, r->order[i])];
		uint64_t b = r->order[i] - f->vbase;

		if (b < f->vbits && bit_get(f->wstart, b)) {
			bit_clr(f->wstart, b);
			r->order[n++] = r->order[i];
		}
	}
	for (i = 0; i < n - (r->nr - tail); i++) {
		struct worker_file *f = &w->files[file_of(w, r->order[i])];

		bit_set(f->wstart, r->order[i] - f->vbase);
	}
	r->nr = n;
}

int readback_issued(struct worker *w, unsigned file_idx, uint64_t offset)
{
	struct readback *r = &w->rback;
	const struct worker_file *f = &w->files[file_idx];
	const struct worker_file *last = &w->files[w->nr_files - 1];

	if (!r->keep_order || !f->written || !worker_write_order(w, f))
		return 0;
	/*
	 * a pass that writes blocks again (a map reset by time_based, picks
	 * the map does not mark) would grow the list without end: past two
	 * entries a piece it is cut back to one
	 */
	if (r->nr >= 2 * (last->vbase + last->vbits) + 1024)
		compact(w);
	if (grow_room(&r->order, r->nr, sizeof(r->order[0])))
		return -ENOMEM;
	r->order[r->nr++] = f->vbase + (offset - f->start) / w->vgran;
	return 0;
}

/*
 * A write issued: it is read back whole, one read checking each of its
 * verify_interval chunks. fio logs each write as it issues it, so with
 * writes in flight the order of issue, not of completion, says which of two
 * overlapping writes is read back. A write that lands over part of an
 * earlier one that was not read back yet drops that one whole, as fio's
 * sorted log does: neither is read back in parts.
 */
void readback_written(struct worker *w, struct worker_file *f, uint64_t offset, uint64_t len)
{
	uint64_t first = (offset - f->start) / w->vgran, end = first + len / w->vgran, b;

	if (end > f->vbits)
		end = f->vbits;
	if (first >= end)
		return;
	/* an earlier write this one starts inside: back to its start */
	b = first;
	while (b > 0 && bit_get(f->written, b) && !bit_get(f->wstart, b))
		b--;
	for (; b < first; b++) {
		bit_clr(f->written, b);
		bit_clr(f->wstart, b);
	}
	/* one this one ends inside: on to its end */
	for (b = end; b < f->vbits && bit_get(f->written, b) && !bit_get(f->wstart, b); b++)
		bit_clr(f->written, b);
	for (b = first; b < end; b++) {
		bit_set(f->written, b);
		bit_clr(f->wstart, b);
	}
	bit_set(f->wstart, first);
}

/*
 * A write that failed or came back short is not read back, as fio drops its
 * log entry (unlog_io_piece): its pieces are cleared while they are still
 * its own (no later write has taken them over).
 */
void readback_unwritten(struct worker *w, struct worker_file *f, uint64_t offset, uint64_t len)
{
	uint64_t first = (offset - f->start) / w->vgran, end = first + len / w->vgran, b;

	if (end > f->vbits)
		end = f->vbits;
	if (first >= end || !bit_get(f->wstart, first))
		return;
	for (b = first + 1; b < end; b++)
		if (!bit_get(f->written, b) || bit_get(f->wstart, b))
			return;
	if (end < f->vbits && bit_get(f->written, end) && !bit_get(f->wstart, end))
		return;
	for (b = first; b < end; b++) {
		bit_clr(f->written, b);
		bit_clr(f->wstart, b);
	}
}

void readback_clear(struct worker *w)
{
	unsigned i;

	for (i = 0; i < w->nr_files; i++)
		if (w->files[i].written) {
			memset(w->files[i].written, 0, (size_t)(w->files[i].vbits + 7) / 8);
			memset(w->files[i].wstart, 0, (size_t)(w->files[i].vbits + 7) / 8);
		}
	w->rback.nr = 0;
	readback_rewind(w);
}

void readback_rewind(struct worker *w)
{
	w->rback.pos = 0;
	w->rback.file = 0;
	w->rback.piece = 0;
}

/* The end of the write starting at piece b: on while written and no other starts, cut at a buffer. */
static uint64_t write_end(const struct worker *w, const struct worker_file *f, uint64_t b)
{
	uint64_t e, cap = b + w->max_bs / w->vgran;

	for (e = b + 1; e < f->vbits && e < cap && bit_get(f->written, e) &&
	     !bit_get(f->wstart, e); e++)
		;
	return e;
}

bool readback_next(struct worker *w, unsigned *file_idx, uint64_t *offset, uint64_t *len)
{
	struct readback *r = &w->rback;
	struct worker_file *f;
	uint64_t b, e;

	/* write order first: each noted write still intact, consumed so it is read once */
	while (r->pos < r->nr) {
		uint64_t piece = r->order[r->pos++];
		unsigned i = file_of(w, piece);

		f = &w->files[i];
		b = piece - f->vbase;
		if (b >= f->vbits || !bit_get(f->wstart, b))
			continue;
		e = write_end(w, f, b);
		for (uint64_t k = b; k < e; k++) {
			bit_clr(f->written, k);
			bit_clr(f->wstart, k);
		}
		*file_idx = i;
		*offset = f->start + b * w->vgran;
		*len = (e - b) * w->vgran;
		return true;
	}
	/* then by file and offset: all of a sorted file, what a noted one has left */
	while (r->file < w->nr_files) {
		f = &w->files[r->file];
		while (r->piece < f->vbits) {
			b = r->piece++;
			if (!bit_get(f->wstart, b))
				continue;
			e = write_end(w, f, b);
			/* never longer than a buffer (a write is not): the rest reads as its own */
			if (e == b + w->max_bs / w->vgran && e < f->vbits && bit_get(f->written, e))
				bit_set(f->wstart, e);
			r->piece = e;
			*file_idx = r->file;
			*offset = f->start + b * w->vgran;
			*len = (e - b) * w->vgran;
			return true;
		}
		r->file++;
		r->piece = 0;
	}
	return false;
}

void readback_free(struct worker *w)
{
	free(w->rback.order);
	w->rback.order = NULL;
	w->rback.nr = 0;
}
