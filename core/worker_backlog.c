/*
 * worker_backlog.c - verify_backlog: the writes not yet read back, and when
 * the write phase stops to read some of them back.
 *
 * fio's rules (its documentation and measured runs): a write is logged when
 * it is issued; a file without a random map keeps its logged writes sorted by
 * offset, and a write over a logged one that was not read back yet replaces
 * it; a file with a random map keeps them in write order. Once the count of
 * logged writes is a multiple of verify_backlog, and the last I/O to complete
 * was not a read, a batch of verify_backlog_batch read-backs (default: the
 * backlog) starts, taking the lowest offset first, then the oldest. What is
 * left at a loop's end is read back by the end-of-loop verify.
 *
 * Only the worker's own thread touches this; nothing here does I/O.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "worker_int.h"

struct vbl_list {
	struct vbl_ent *e;
	size_t head, nr;	/* entries [head, nr) are live */
};

struct vbl {
	uint64_t backlog, batch_opt;
	uint64_t batch;		/* read-backs left in the current batch */
	struct vbl_list sorted;	/* files without a random map, by (file, offset) */
	struct vbl_list fifo;	/* files with one, in write order */
	bool *unit_verifies;	/* by unit index: this read is a read-back */
};

int vbl_new(struct worker *w)
{
	const struct job_spec *job = w->job;
	struct vbl *v;

	if (!job->verify_backlog || !job->verify || !job->do_verify || job->verify_only ||
	    job->experimental_verify || !(job->rw & RW_WRITE))
		return 0;
	v = calloc(1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	v->unit_verifies = calloc(w->nr_units ? w->nr_units : 1, sizeof(bool));
	if (!v->unit_verifies) {
		free(v);
		return -ENOMEM;
	}
	v->backlog = job->verify_backlog;
	v->batch_opt = job->verify_batch;
	w->vbl = v;
	return 0;
}

void vbl_free(struct worker *w)
{
	struct vbl *v = w->vbl;

	if (!v)
		return;
	free(v->sorted.e);
	free(v->fifo.e);
	free(v->unit_verifies);
	free(v);
	w->vbl = NULL;
}

static size_t vbl_len(const struct vbl *v)
{
	return v->sorted.nr - v->sorted.head + v->fifo.nr - v->fifo.head;
}

static int ent_cmp(const struct vbl_ent *a, unsigned file_idx, uint64_t offset)
{
	if (a->file_idx != file_idx)
		return a->file_idx < file_idx ? -1 : 1;
	return a->offset < offset ? -1 : a->offset > offset;
}

/* The first sorted entry not below (file_idx, offset). */
static size_t sorted_find(const struct vbl_list *l, unsigned file_idx, uint64_t offset)
{
	size_t lo = l->head, hi = l->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ent_cmp(&l->e[mid], file_idx, offset) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void list_remove(struct vbl_list *l, size_t i)
{
	memmove(&l->e[i], &l->e[i + 1], (l->nr - i - 1) * sizeof(l->e[0]));
	l->nr--;
}

/* Drops the consumed front once it is most of the array, so appends stay cheap. */
static void list_compact(struct vbl_list *l)
{
	if (l->head && l->head * 2 >= l->nr) {
		memmove(l->e, &l->e[l->head], (l->nr - l->head) * sizeof(l->e[0]));
		l->nr -= l->head;
		l->head = 0;
	}
}

int vbl_log(struct worker *w, unsigned file_idx, uint64_t offset, uint32_t len)
{
	struct vbl *v = w->vbl;
	struct vbl_list *l;
	struct vbl_ent e = { .offset = offset, .len = len, .file_idx = file_idx };
	size_t i;

	if (!v)
		return 0;
	l = w->files[file_idx].map ? &v->fifo : &v->sorted;
	list_compact(l);
	if (l == &v->sorted) {
		/* a write over a logged one that was not read back yet replaces it */
		i = sorted_find(l, file_idx, offset);
		while (i > l->head && l->e[i - 1].file_idx == file_idx &&
		       l->e[i - 1].offset + l->e[i - 1].len > offset)
			list_remove(l, --i);
		while (i < l->nr && l->e[i].file_idx == file_idx && l->e[i].offset < offset + len)
			list_remove(l, i);
	} else {
		i = l->nr;
	}
	if (grow_room(&l->e, l->nr, sizeof(l->e[0])))
		return -ENOMEM;
	memmove(&l->e[i + 1], &l->e[i], (l->nr - i) * sizeof(l->e[0]));
	l->e[i] = e;
	l->nr++;
	return 0;
}

void vbl_unlog(struct worker *w, unsigned file_idx, uint64_t offset, uint32_t len)
{
	struct vbl *v = w->vbl;
	struct vbl_list *l;
	size_t i;

	if (!v)
		return;
	/* a failed write has nothing to read back */
	l = w->files[file_idx].map ? &v->fifo : &v->sorted;
	for (i = l->nr; i-- > l->head;)
		if (l->e[i].file_idx == file_idx && l->e[i].offset == offset && l->e[i].len == len) {
			list_remove(l, i);
			return;
		}
}

bool vbl_due(struct worker *w, int last_ddir)
{
	struct vbl *v = w->vbl;
	size_t n;

	if (!v || !(n = vbl_len(v)))
		return false;
	if (v->batch)
		return true;
	/* right after a read completed no new batch starts (fio's rule) */
	if (n % v->backlog || last_ddir == DDIR_READ)
		return false;
	v->batch = v->batch_opt ? v->batch_opt : v->backlog;
	return true;
}

bool vbl_pop(struct worker *w, struct vbl_ent *out, bool in_batch)
{
	struct vbl *v = w->vbl;
	struct vbl_list *l;

	if (!v)
		return false;
	l = v->sorted.nr > v->sorted.head ? &v->sorted : &v->fifo;
	if (l->nr == l->head)
		return false;
	*out = l->e[l->head++];
	if (l->head == l->nr)
		l->head = l->nr = 0;
	if (in_batch && v->batch)
		v->batch--;
	return true;
}

void vbl_mark_unit(struct worker *w, unsigned unit_idx, bool verifies)
{
	if (w->vbl)
		w->vbl->unit_verifies[unit_idx] = verifies;
}

bool vbl_unit_verifies(const struct worker *w, unsigned unit_idx)
{
	return w->vbl && w->vbl->unit_verifies[unit_idx];
}
