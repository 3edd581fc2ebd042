/*
 * worker_backlog.c - verify_backlog: the writes not yet read back, and when
 * the write phase stops to read some of them back.
 *
 * fio's rules (its documentation and measured runs): a write is logged when
 * it is issued; a file without a random map keeps its logged writes sorted by
 * offset, and a write over a logged one that was not read back yet replaces
 * it; a file with fio's random map (worker_write_order: lfsr has none)
 * keeps them in write order. Once the count of
 * logged writes is a multiple of verify_backlog, and the last I/O to complete
 * was not a read, a batch of verify_backlog_batch read-backs (default: the
 * backlog) starts, taking the lowest offset first, then the oldest. What is
 * left at a loop's end is read back by the end-of-loop verify.
 *
 * The sorted side is a search tree (glibc's tsearch) where overlapping ranges
 * compare equal, so a write finds the entries it replaces in log time, and a
 * heap by offset beside it hands out the lowest; a replaced entry stays in the
 * heap marked dead until it reaches the top.
 *
 * Only the worker's own thread touches this; nothing here does I/O.
 */
#include <errno.h>
#include <search.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "worker_int.h"

struct vbl_list {
	struct vbl_ent *e;
	size_t head, nr;	/* entries [head, nr) are live */
};

struct vbl_node {
	struct vbl_ent e;
	bool dead;		/* replaced by a later write: skipped when it tops the heap */
};

struct vbl {
	uint64_t backlog, batch_opt;
	uint64_t batch;		/* read-backs left in the current batch */
	/* files without a random map: by (file, offset), a write replacing what it overlaps */
	void *tree;		/* the live nodes; tsearch root */
	struct vbl_node **heap;	/* live and dead nodes, lowest (file, offset) first */
	size_t heap_nr, sorted_nr;	/* nodes in the heap; live ones */
	struct vbl_list fifo;	/* files with a random map, in write order */
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

static void no_free(void *node)
{
	(void)node;	/* every node is freed through the heap, which holds them all */
}

void vbl_free(struct worker *w)
{
	struct vbl *v = w->vbl;

	if (!v)
		return;
	tdestroy(v->tree, no_free);
	while (v->heap_nr)
		free(v->heap[--v->heap_nr]);
	free(v->heap);
	free(v->fifo.e);
	free(v->unit_verifies);
	free(v);
	w->vbl = NULL;
}

static size_t vbl_len(const struct vbl *v)
{
	return v->sorted_nr + v->fifo.nr - v->fifo.head;
}

/* Tree order: by file, then by range; ranges that overlap compare equal. */
static int node_cmp(const void *pa, const void *pb)
{
	const struct vbl_ent *a = &((const struct vbl_node *)pa)->e;
	const struct vbl_ent *b = &((const struct vbl_node *)pb)->e;

	if (a->file_idx != b->file_idx)
		return a->file_idx < b->file_idx ? -1 : 1;
	if (a->offset + a->len <= b->offset)
		return -1;
	return b->offset + b->len <= a->offset ? 1 : 0;
}

static bool heap_less(const struct vbl_node *a, const struct vbl_node *b)
{
	if (a->e.file_idx != b->e.file_idx)
		return a->e.file_idx < b->e.file_idx;
	return a->e.offset < b->e.offset;
}

/* The caller made room for one more (grow_room). */
static void heap_push(struct vbl *v, struct vbl_node *n)
{
	size_t i = v->heap_nr++;

	while (i && heap_less(n, v->heap[(i - 1) / 2])) {
		v->heap[i] = v->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	v->heap[i] = n;
}

static struct vbl_node *heap_pop(struct vbl *v)
{
	struct vbl_node *top = v->heap[0], *last = v->heap[--v->heap_nr];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < v->heap_nr) {
		if (c + 1 < v->heap_nr && heap_less(v->heap[c + 1], v->heap[c]))
			c++;
		if (!heap_less(v->heap[c], last))
			break;
		v->heap[i] = v->heap[c];
		i = c;
	}
	if (v->heap_nr)
		v->heap[i] = last;
	return top;
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

/* A write over logged ones not read back yet replaces them (fio's rule without a random map). */
static int sorted_log(struct vbl *v, const struct vbl_ent *e)
{
	struct vbl_node key = { .e = *e }, *n;
	void *hit;

	while ((hit = tfind(&key, &v->tree, node_cmp))) {
		struct vbl_node *old = *(struct vbl_node **)hit;

		tdelete(old, &v->tree, node_cmp);
		old->dead = true;
		v->sorted_nr--;
	}
	if (grow_room(&v->heap, v->heap_nr, sizeof(v->heap[0])))
		return -ENOMEM;
	n = malloc(sizeof(*n));
	if (!n)
		return -ENOMEM;
	*n = key;
	if (!tsearch(n, &v->tree, node_cmp)) {
		free(n);
		return -ENOMEM;
	}
	heap_push(v, n);
	v->sorted_nr++;
	return 0;
}

int vbl_log(struct worker *w, unsigned file_idx, uint64_t offset, uint32_t len)
{
	struct vbl *v = w->vbl;
	struct vbl_ent e = { .offset = offset, .len = len, .file_idx = file_idx };
	struct vbl_list *l = v ? &v->fifo : NULL;

	if (!v)
		return 0;
	if (!worker_write_order(w, &w->files[file_idx]))
		return sorted_log(v, &e);
	list_compact(l);
	if (grow_room(&l->e, l->nr, sizeof(l->e[0])))
		return -ENOMEM;
	l->e[l->nr++] = e;
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
	if (!worker_write_order(w, &w->files[file_idx])) {
		struct vbl_node key = { .e = { .offset = offset, .len = len, .file_idx = file_idx } };
		void *hit = tfind(&key, &v->tree, node_cmp);
		struct vbl_node *n = hit ? *(struct vbl_node **)hit : NULL;

		if (n && n->e.offset == offset && n->e.len == len) {
			tdelete(n, &v->tree, node_cmp);
			n->dead = true;
			v->sorted_nr--;
		}
		return;
	}
	l = &v->fifo;
	for (i = l->nr; i-- > l->head;)
		if (l->e[i].file_idx == file_idx && l->e[i].offset == offset && l->e[i].len == len) {
			memmove(&l->e[i], &l->e[i + 1], (l->nr - i - 1) * sizeof(l->e[0]));
			l->nr--;
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
	/* the sorted entries first, lowest offset first; then the oldest in write order */
	while (v->sorted_nr) {
		struct vbl_node *n = heap_pop(v);

		if (!n->dead) {
			tdelete(n, &v->tree, node_cmp);
			v->sorted_nr--;
			*out = n->e;
			free(n);
			goto got;
		}
		free(n);
	}
	l = &v->fifo;
	if (l->nr == l->head)
		return false;
	*out = l->e[l->head++];
	if (l->head == l->nr)
		l->head = l->nr = 0;
got:
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
