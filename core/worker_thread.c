/*
 * worker_thread.c - what a job's thread holds for its run and gives back:
 * its place (cpus_allowed, NUMA node and policy, nice), its I/O units and
 * their buffers (huge pages for large ones), its engine context; then
 * worker_finish (the targets free at the run's end) and worker_release.
 * Nothing here is on the I/O path (core/worker.c).
 */
#include <errno.h>
#include <limits.h>
#include <numa.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "guard.h"
#include "rand.h"
#include "worker.h"
#include "worker_int.h"

#define BUF_ALIGN 4096
#define HUGEPAGE_SIZE ((size_t)2 << 20)
/* a unit this large may pass a queue's segment limit when its pages are scattered */
#define HUGE_UNIT_MIN ((size_t)512 << 10)

void worker_fill_random(struct rb_rand *r, void *buf, size_t len)
{
	uint64_t *p = buf;
	size_t i;

	for (i = 0; i < len / 8; i++)
		p[i] = rb_rand_u64(r);
}

/*
 * The units' buffers: len bytes, units of each. Large ones go on transparent
 * huge pages where the system gives them only on request (THP "madvise"): a
 * 1M I/O whose buffer is 256 scattered 4k pages passes a queue's segment
 * limit (128 on a loop device, about as many on NVMe) and leaves as two
 * requests; within a huge page it is one. Those are mapped here, 2 MiB
 * aligned, rounded up to whole huge pages, and advised before any byte of
 * them is touched (an allocator may write the first page of a block, as
 * ASan's does, and a touched 2 MiB range stays on small pages); the advice
 * refused, they work as before. The others come from posix_memalign.
 * 0 or -ENOMEM.
 */
static int buffers_alloc(struct worker *w, size_t len, size_t each)
{
	char *map, *start;
	size_t head, span;

	w->buf_mapped = 0;
	if (each < HUGE_UNIT_MIN && len < HUGEPAGE_SIZE)
		return posix_memalign(&w->buf_mem, BUF_ALIGN, len) ? -ENOMEM : 0;
	len = (len + HUGEPAGE_SIZE - 1) / HUGEPAGE_SIZE * HUGEPAGE_SIZE;
	span = len + HUGEPAGE_SIZE;
	map = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return -ENOMEM;
	start = (char *)(((uintptr_t)map + HUGEPAGE_SIZE - 1) & ~(uintptr_t)(HUGEPAGE_SIZE - 1));
	head = (size_t)(start - map);
	if (head)
		munmap(map, head);
	if (span - head > len)
		munmap(start + len, span - head - len);
#ifdef MADV_HUGEPAGE
	(void)madvise(start, len, MADV_HUGEPAGE);
#endif
	w->buf_mem = start;
	w->buf_mapped = len;
	return 0;
}

static void buffers_free(struct worker *w)
{
	if (w->buf_mem && w->buf_mapped)
		munmap(w->buf_mem, w->buf_mapped);
	else
		free(w->buf_mem);
	w->buf_mem = NULL;
	w->buf_mapped = 0;
}

int worker_thread_setup(struct worker *w, char *msg, size_t msglen)
{
	const struct job_spec *job = w->job;
	char err[256] = "";
	unsigned depth, i;
	size_t each;
	int ret;

	if (job->has_cpus_allowed) {
		cpu_set_t set = job->cpus_allowed;

		if (job->cpus_allowed_split) {
			int n = CPU_COUNT(&job->cpus_allowed), want = (int)(w->clone % (unsigned)n);
			int cpu, seen = 0;

			CPU_ZERO(&set);
			for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
				if (CPU_ISSET(cpu, &job->cpus_allowed) && seen++ == want) {
					CPU_SET(cpu, &set);
					break;
				}
		}
		ret = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
		if (ret) {
			snprintf(msg, msglen, "job '%s': cpus_allowed: cannot run on those CPUs: %s",
				 job->name, strerror(ret));
			return -ret;
		}
	}
	if (job->numa_cpu_nodes || job->numa_mem_policy) {
		if (numa_available() < 0) {
			snprintf(msg, msglen, "job '%s': NUMA options given but this kernel has "
				 "no NUMA support", job->name);
			return -ENOSYS;
		}
		if (job->numa_cpu_nodes) {
			struct bitmask *nodes = numa_parse_nodestring(job->numa_cpu_nodes);

			if (!nodes || numa_run_on_node_mask(nodes) < 0) {
				snprintf(msg, msglen, "job '%s': numa_cpu_nodes=%s: no such node",
					 job->name, job->numa_cpu_nodes);
				if (nodes)
					numa_bitmask_free(nodes);
				return -EINVAL;
			}
			numa_bitmask_free(nodes);
		}
		if (job->numa_mem_policy) {
			const char *p = job->numa_mem_policy, *colon = strchr(p, ':');
			struct bitmask *nodes = colon ? numa_parse_nodestring(colon + 1) : NULL;

			if (colon && !nodes) {
				snprintf(msg, msglen, "job '%s': numa_mem_policy=%s: no such node",
					 job->name, p);
				return -EINVAL;
			}
			if (!strncmp(p, "local", 5))
				numa_set_localalloc();
			else if (!strncmp(p, "prefer", 6) && nodes)
				numa_set_preferred((int)numa_bitmask_weight(nodes) ?
						   (int)strtol(colon + 1, NULL, 10) : 0);
			else if (!strncmp(p, "bind", 4) && nodes)
				numa_set_membind(nodes);
			else if (!strncmp(p, "interleave", 10) && nodes)
				numa_set_interleave_mask(nodes);
			if (nodes)
				numa_bitmask_free(nodes);
		}
	}
	/* the node worker_setup chose: the thread and its buffers go there */
	if (w->numa_node >= 0) {
		if (numa_run_on_node(w->numa_node) == 0)
			numa_set_preferred(w->numa_node);
		else
			w->numa_node = -1;
	}
	if (job->nice && setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), job->nice) < 0) {
		ret = -errno;
		snprintf(msg, msglen, "job '%s': nice=%d: %s", job->name, job->nice, strerror(-ret));
		return ret;
	}

	depth = (w->ops->flags & ENGINE_F_SYNC) ? 1 : job->iodepth;
	/* synchronous engines, and those completing in queue() at depth 1, report no slat */
	w->sync_io = depth == 1 && (w->ops->flags & (ENGINE_F_SYNC | ENGINE_F_SYNC_AT_DEPTH1));
	w->pass_limit = worker_pass_limit(w);
	/* the live progress's denominator (core/live.c) */
	atomic_store_explicit(&w->pub_plan_bytes, worker_plan_bytes(w), memory_order_relaxed);
	each = (size_t)((w->max_bs + BUF_ALIGN - 1) / BUF_ALIGN * BUF_ALIGN);
	w->nr_units = depth;
	w->units = calloc(depth, sizeof(*w->units));
	w->free_units = calloc(depth, sizeof(*w->free_units));
	w->buf_len = each * depth;
	if (!w->units || !w->free_units || buffers_alloc(w, w->buf_len, each)) {
		snprintf(msg, msglen, "job '%s': cannot allocate %zu bytes of I/O buffers",
			 job->name, w->buf_len);
		return -ENOMEM;
	}
	if (job->zero_buffers)
		memset(w->buf_mem, 0, w->buf_len);
	else
		worker_fill_random(&w->rand, w->buf_mem, w->buf_len);
	for (i = 0; i < depth; i++) {
		w->units[i].buf = (char *)w->buf_mem + (size_t)i * each;
		w->units[i].idx = i;
		w->free_units[i] = &w->units[depth - 1 - i];
	}
	w->nr_free = depth;
	if (w->ops->init_tuned) {
		struct engine_tuning tune = {
			.fixedbufs = job->uring_fixedbufs,
			.fixedbufs_required = job->uring_fixedbufs_given,
			.sqpoll = job->uring_sqpoll,
			.sqpoll_cpu = job->uring_sqpoll_cpu == UINT_MAX ? -1 : (int)job->uring_sqpoll_cpu,
			.hipri = job->uring_hipri,
			.unit_buf_len = each,
			.clone = w->clone,
			.stop = &w->stop,
			.consent = w->consent,
			.live_text = &w->text,
		};

		ret = w->ops->init_tuned(&w->ctx, depth, w->units, depth, &tune, err, sizeof(err));
	} else {
		ret = w->ops->init(&w->ctx, depth, w->units, depth, err, sizeof(err));
	}
	if (ret) {
		snprintf(msg, msglen, "job '%s': %s", job->name, err);
		return ret;
	}
	if (w->ops->configure) {
		ret = w->ops->configure(w->ctx, job, err, sizeof(err));
		if (ret) {
			snprintf(msg, msglen, "job '%s': %s", job->name, err);
			return ret;
		}
	}
	if (w->ops->register_files) {
		int fds[64];
		unsigned n = w->nr_files < 64 ? w->nr_files : 64;

		for (i = 0; i < n; i++)
			fds[i] = w->files[i].fd;
		w->ops->register_files(w->ctx, fds, n);
	}
	return 0;
}

int worker_check_placement(const struct job_spec *job, char *err, size_t errlen)
{
	cpu_set_t online, both;

	if (job->has_cpus_allowed && !sched_getaffinity(0, sizeof(online), &online)) {
		CPU_AND(&both, &online, &job->cpus_allowed);
		if (!CPU_COUNT(&both)) {
			snprintf(err, errlen, "job '%s': cpus_allowed: none of those "
				 "CPUs is available to raidbench (it may use %d CPUs)", job->name,
				 CPU_COUNT(&online));
			return -EINVAL;
		}
	}
	if (!job->numa_cpu_nodes && !job->numa_mem_policy)
		return 0;
	if (numa_available() < 0) {
		snprintf(err, errlen, "job '%s': NUMA options given but this kernel has "
			 "no NUMA support", job->name);
		return -ENOSYS;
	}
	if (job->numa_cpu_nodes) {
		struct bitmask *nodes = numa_parse_nodestring(job->numa_cpu_nodes);

		if (!nodes) {
			snprintf(err, errlen, "job '%s': numa_cpu_nodes=%s: no such node "
				 "(this machine has nodes 0-%d)", job->name, job->numa_cpu_nodes,
				 numa_max_node());
			return -EINVAL;
		}
		numa_bitmask_free(nodes);
	}
	if (job->numa_mem_policy && strchr(job->numa_mem_policy, ':')) {
		struct bitmask *nodes = numa_parse_nodestring(strchr(job->numa_mem_policy, ':') + 1);

		if (!nodes) {
			snprintf(err, errlen, "job '%s': numa_mem_policy=%s: no such node "
				 "(this machine has nodes 0-%d)", job->name, job->numa_mem_policy,
				 numa_max_node());
			return -EINVAL;
		}
		numa_bitmask_free(nodes);
	}
	return 0;
}

void worker_engine_release(struct worker *w)
{
	if (w->ctx && w->ops)
		w->ops->cleanup(w->ctx);
	w->ctx = NULL;
}

/* The units and their buffers, which the engine context no longer points into. */
static void units_free(struct worker *w)
{
	free(w->units);
	free(w->free_units);
	buffers_free(w);
	w->units = NULL;
	w->free_units = NULL;
}

void worker_finish(struct worker *w)
{
	unsigned i;

	worker_logs_close(w, 0);
	worker_engine_release(w);
	for (i = 0; i < w->nr_files; i++) {
		struct worker_file *f = &w->files[i];

		if (f->fd < 0)
			continue;
		guard_close(f->fd);	/* drops the guard's exclusive hold with the last fd */
		f->fd = -1;
		f->was_open = true;
	}
	units_free(w);
}

void worker_release(struct worker *w)
{
	vbl_free(w);
	worker_logs_close(w, 0);
	worker_iolog_close(w);
	worker_engine_release(w);
	worker_close_files(w);
	worker_fsvc_release(w);
	units_free(w);
}
