/*
 * engine.c - the registry of I/O engines: fio's ioengine= names to ops
 * tables.
 *
 * Each engine lives in its own file (engine_libaio.c, engine_uring.c,
 * engine_psync.c, engine_null.c, engine_posixaio.c, engine_falloc.c, ...) and exports
 * nothing but its ops table.
 */
#include <string.h>
#include "engine.h"

/* Defined one per engine file; only this registry names them. */
extern const struct io_engine_ops engine_libaio_ops;
extern const struct io_engine_ops engine_uring_ops;
extern const struct io_engine_ops engine_psync_ops;
extern const struct io_engine_ops engine_sync_ops;
extern const struct io_engine_ops engine_null_ops;
extern const struct io_engine_ops engine_posixaio_ops;
extern const struct io_engine_ops engine_falloc_ops;
extern const struct io_engine_ops engine_ftruncate_ops;
extern const struct io_engine_ops engine_filecreate_ops;
extern const struct io_engine_ops engine_filestat_ops;
extern const struct io_engine_ops engine_filedelete_ops;
extern const struct io_engine_ops engine_sg_ops;
extern const struct io_engine_ops engine_uring_cmd_ops;
extern const struct io_engine_ops engine_mmap_ops;
extern const struct io_engine_ops engine_splice_ops;
extern const struct io_engine_ops engine_cpuio_ops;
extern const struct io_engine_ops engine_e4defrag_ops;

static const struct io_engine_ops *const engines[] = {
	&engine_libaio_ops,
	&engine_uring_ops,
	&engine_psync_ops,
	&engine_sync_ops,
	&engine_null_ops,
	&engine_posixaio_ops,
	&engine_falloc_ops,
	&engine_ftruncate_ops,
	&engine_filecreate_ops,
	&engine_filestat_ops,
	&engine_filedelete_ops,
	&engine_sg_ops,
	&engine_uring_cmd_ops,
	&engine_mmap_ops,
	&engine_splice_ops,
	&engine_cpuio_ops,
	&engine_e4defrag_ops,
};

const struct io_engine_ops *engine_find(const char *name)
{
	size_t i;

	if (!name)
		return NULL;
	for (i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		if (!strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
}

const char *engine_names(void)
{
	/* kept in step with engines[] by test_engine */
	return ENGINE_NAMES;
}
