/*
 * engine.c - the registry of I/O engines: fio's ioengine= names to ops
 * tables, and the only place that lists them.
 *
 * Each engine lives in its own file (engine_*.c) and exports nothing but its
 * ops table. Adding an engine = its file + one line in engines[] below (and
 * its object in Makefile.am); nothing else names it.
 */
#include <stdio.h>
#include <string.h>
#include "engine.h"

/* Defined one per engine file; only this registry names them. */
extern const struct io_engine_ops engine_libaio_ops;
extern const struct io_engine_ops engine_uring_ops;
extern const struct io_engine_ops engine_psync_ops;
extern const struct io_engine_ops engine_sync_ops;
extern const struct io_engine_ops engine_pvsync_ops;
extern const struct io_engine_ops engine_pvsync2_ops;
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
extern const struct io_engine_ops engine_nbd_ops;
extern const struct io_engine_ops engine_libiscsi_ops;
extern const struct io_engine_ops engine_libpmem_ops;
extern const struct io_engine_ops engine_pmemblk_ops;
extern const struct io_engine_ops engine_devdax_ops;
extern const struct io_engine_ops engine_mtd_ops;
extern const struct io_engine_ops engine_libzbc_ops;
extern const struct io_engine_ops engine_net_ops;
extern const struct io_engine_ops engine_exec_ops;

/* The first one is the default ioengine (fio's on Linux). */
static const struct io_engine_ops *const engines[] = {
	&engine_libaio_ops,
	&engine_uring_ops,
	&engine_psync_ops,
	&engine_sync_ops,
	&engine_pvsync_ops,
	&engine_pvsync2_ops,
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
	&engine_nbd_ops,
	&engine_libiscsi_ops,
	&engine_libpmem_ops,
	&engine_pmemblk_ops,
	&engine_devdax_ops,
	&engine_mtd_ops,
	&engine_libzbc_ops,
	&engine_net_ops,
	&engine_exec_ops,
};

#define NR_ENGINES (sizeof(engines) / sizeof(engines[0]))

/*
 * fio 3.33's other engines, with why raidbench does not run them. A name
 * registered above wins over this list, so an engine added to engines[]
 * needs no edit here.
 */
static const struct {
	const char *names, *why;
} fio_engines[] = {
	{ "netsplice rdma librpma_apm librpma_gpspm http nfs rbd rados gfapi "
	  "gfapi_async libhdfs dfs",
	  "it needs a cluster or service client (GlusterFS, Ceph, HDFS, NFS, RDMA, HTTP) raidbench "
	  "does not drive; its network engines are net, nbd and libiscsi" },
	{ "libcufile", "it moves data to GPU memory" },
	{ "ime_psync ime_psyncv ime_aio", "it drives DDN's IME burst buffer" },
	{ "xnvme", "it drives NVMe through the xNVMe library" },
	{ "vsync", "raidbench does not have this engine yet" },
	{ "solarisaio windowsaio", "it is for another operating system" },
	{ "cpp_null", "it is fio's C++ test engine, an external plugin" },
};

const struct io_engine_ops *engine_at(size_t i)
{
	return i < NR_ENGINES ? engines[i] : NULL;
}

const struct io_engine_ops *engine_find(const char *name)
{
	size_t i;

	if (!name)
		return NULL;
	for (i = 0; i < NR_ENGINES; i++)
		if (!strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
}

void engine_names(char *buf, size_t len)
{
	size_t i, at = 0;

	if (!len)
		return;
	*buf = '\0';
	for (i = 0; i < NR_ENGINES && at < len; i++) {
		int n = snprintf(buf + at, len - at, "%s%s", i ? ", " : "", engines[i]->name);

		if (n < 0)
			break;
		at += (size_t)n;
	}
}

/* Is s (n bytes) one of the space-separated words in list? */
static int in_words(const char *list, const char *s, size_t n)
{
	const char *p = list;

	while (*p) {
		size_t w = strcspn(p, " ");

		if (w == n && !strncmp(p, s, n))
			return 1;
		p += w + (p[w] == ' ');
	}
	return 0;
}

const char *engine_name_with(unsigned flag)
{
	size_t i;

	for (i = 0; i < NR_ENGINES; i++)
		if (engines[i]->flags & flag)
			return engines[i]->name;
	return "?";
}

const struct io_engine_ops *engine_lookup(const char *s, char *why, size_t whylen)
{
	const struct io_engine_ops *ops = engine_find(s);
	char have[512];
	size_t i;

	if (ops)
		return ops;
	engine_names(have, sizeof(have));
	for (i = 0; i < sizeof(fio_engines) / sizeof(fio_engines[0]); i++)
		if (in_words(fio_engines[i].names, s, strlen(s))) {
			snprintf(why, whylen, "'%s' is a fio ioengine raidbench does not support: "
				 "%s (supported: %s)", s, fio_engines[i].why, have);
			return NULL;
		}
	if (!strncmp(s, "external:", 9))
		snprintf(why, whylen, "'%s' is a fio ioengine raidbench does not support: "
			 "raidbench loads no engine plugins (supported: %s)", s, have);
	else
		snprintf(why, whylen, "unknown ioengine '%s' (supported: %s)", s, have);
	return NULL;
}
