/*
 * engine_mapwin.h - the table of live mappings that the mapping engines
 * (mmap, libpmem, dev-dax) keep: one whole-file window per file index, made
 * on the file's first I/O, remade when the worker reopens the file, unmapped
 * at cleanup. What a window's size is and how it is mapped are the engine's,
 * through struct mapwin_ops.
 */
#ifndef RB_ENGINE_MAPWIN_H
#define RB_ENGINE_MAPWIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include "engine.h"

struct job_spec;

struct mapwin {
	void *p;		/* NULL = not mapped yet */
	int fd;			/* the fd it maps */
	size_t len;
	bool writable;		/* the fd was opened for writing */
	bool pmem;		/* set by ops->map: CPU cache flushes make stores durable */
};

struct mapwin_table {
	struct mapwin *w;	/* per file index */
	size_t nr;
};

struct mapwin_ops {
	/* the bytes to map of fd (st is its fstat); 0 or -errno */
	int (*size)(int fd, const struct stat *st, const char *path, uint64_t *bytes);
	/* map w->len bytes of fd with prot into w->p, MAP_FAILED and errno when not;
	 * NULL: mmap(MAP_SHARED) */
	void (*map)(struct mapwin *w, int fd, int prot);
};

/* u's window, mapped on first use; 0 or -errno (then *out's p is NULL). */
int mapwin_get(struct mapwin_table *t, const struct io_unit *u, const struct mapwin_ops *ops,
	       struct mapwin **out);

/* Where u's range starts in w and how much of it lies inside (*len); NULL when
 * u starts at or past the end. */
char *mapwin_at(const struct mapwin *w, const struct io_unit *u, size_t *len);

/* u completed with moved of its bytes transferred (the rest is short, as read(2)
 * at the end of a file). */
int mapwin_done(struct io_unit *u, size_t moved);

/* fio's rule for fsync=/fdatasync= on a mapping: the block size is whole pages.
 * 0, or -EINVAL with the message naming engine. */
int mapwin_check_bs(const struct job_spec *job, const char *engine, char *err, size_t errlen);

/* Unmaps every window and frees the table. */
void mapwin_free(struct mapwin_table *t);

#endif
