/*
 * worker_files.c - a job clone's targets: which files, opened how, which
 * region of each, and laying out regular files that are missing or short.
 *
 * Every open for writing goes through the write guard (core/guard.c); this
 * file never opens a target for writing any other way.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/fs.h>

#include "rand.h"
#include "guard.h"
#include "worker.h"
#include "worker_int.h"

static char *path_join(const char *dir, const char *name)
{
	char *p;

	if (!dir || !*dir || name[0] == '/')
		return strdup(name);
	if (asprintf(&p, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", name) < 0)
		return NULL;
	return p;
}

/* Logical block size of the device under path: the device itself, or a file's fs. */
static unsigned logical_block_size(const struct stat *st)
{
	char sys[128], buf[32];
	dev_t dev = S_ISBLK(st->st_mode) ? st->st_rdev : st->st_dev;
	unsigned v = 512;
	FILE *f;

	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/queue/logical_block_size",
		 major(dev), minor(dev));
	f = fopen(sys, "r");
	if (!f) {
		/* a partition: its queue is the parent's */
		snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/../queue/logical_block_size",
			 major(dev), minor(dev));
		f = fopen(sys, "r");
	}
	if (f) {
		if (fgets(buf, sizeof(buf), f))
			v = (unsigned)strtoul(buf, NULL, 10);
		fclose(f);
	}
	return v ? v : 512;
}

static int resolve_paths(struct worker *w, char *err, size_t errlen)
{
	const struct job_spec *job = w->job;
	unsigned i, n;

	n = job->nr_filenames ? job->nr_filenames : (job->nrfiles ? job->nrfiles : 1);
	w->files = calloc(n, sizeof(*w->files));
	if (!w->files)
		return -ENOMEM;
	w->nr_files = n;
	for (i = 0; i < n; i++) {
		struct worker_file *f = &w->files[i];
		const char *dir = NULL;
		char name[PATH_MAX];

		f->fd = -1;
		if (job->nr_directories)
			dir = job->directories[(w->clone + i) % job->nr_directories];
		if (job->nr_filenames) {
			f->shared = true;
			f->path = path_join(dir, job->filenames[i]);
		} else {
			/* fio's default name: jobname.jobnum.filenum */
			snprintf(name, sizeof(name), "%s.%u.%u", job->name, w->clone, i);
			f->path = path_join(dir, name);
		}
		if (!f->path)
			return -ENOMEM;
	}
	(void)err;
	(void)errlen;
	return 0;
}

/*
 * Writes random data to a regular file up to want bytes, so reads hit real
 * blocks ("Laying out IO file"). Buffered; the job's own open decides O_DIRECT.
 */
static int layout_file(struct worker *w, struct worker_file *f, uint64_t want,
		       bool truncate_only, char *err, size_t errlen)
{
	const size_t chunk = 1 << 20;
	struct rb_rand r;
	uint64_t pos, *buf;
	size_t i;
	int fd, ret = 0;

	fd = guard_open_write(f->path, O_WRONLY | O_CREAT | O_CLOEXEC, w->consent, err, errlen);
	if (fd < 0)
		return fd;
	if (truncate_only) {
		if (ftruncate(fd, (off_t)want) < 0) {
			ret = -errno;
			w->setup_wrote = true;
			snprintf(err, errlen, "%s: cannot extend to %llu bytes: %s", f->path,
				 (unsigned long long)want, strerror(errno));
		} else
			f->real_size = want;
		guard_close(fd);
		return ret;
	}
	buf = malloc(chunk);
	if (!buf) {
		guard_close(fd);
		return -ENOMEM;
	}
	rb_rand_seed(&r, 0x5eed ^ want);
	for (i = 0; i < chunk / 8; i++)
		buf[i] = rb_rand_u64(&r);
	pos = f->real_size;
	while (pos < want) {
		size_t n = want - pos < chunk ? (size_t)(want - pos) : chunk;
		ssize_t wr = pwrite(fd, buf, n, (off_t)pos);

		if (wr < 0) {
			ret = -errno;
			snprintf(err, errlen, "laying out %s: write at offset %llu failed: %s",
				 f->path, (unsigned long long)pos, strerror(errno));
			break;
		}
		pos += (uint64_t)wr;
	}
	if (!ret && fsync(fd) < 0) {
		ret = -errno;
		snprintf(err, errlen, "laying out %s: fsync failed: %s", f->path, strerror(errno));
	}
	/* past the guard's open a failure is the disk's (full, I/O error): a run-time one */
	w->setup_wrote = ret && ret != -ENOMEM;
	free(buf);
	guard_close(fd);
	if (!ret)
		f->real_size = want;
	return ret;
}

static int open_target(struct worker *w, struct worker_file *f, char *err, size_t errlen)
{
	const struct job_spec *job = w->job;
	bool writes = job_writes(job) && !job->verify_only;
	int flags = O_CLOEXEC;

	if (job->direct)
		flags |= O_DIRECT;
	if (job->sync == SYNC_SYNC)
		flags |= O_SYNC;
	else if (job->sync == SYNC_DSYNC)
		flags |= O_DSYNC;

	if (writes)
		f->fd = guard_open_write(f->path, flags | O_RDWR, w->consent, err, errlen);
	else {
		f->fd = open(f->path, flags | O_RDONLY);
		if (f->fd < 0)
			f->fd = -errno;
	}
	if (f->fd >= 0)
		return 0;
	if (f->fd == -EINVAL && job->direct)
		snprintf(err, errlen,
			 "%s: the file system does not support O_DIRECT (direct=1); "
			 "use direct=0 or put the file on another file system", f->path);
	else if (!writes || f->fd != -EPERM)
		snprintf(err + strlen(err), errlen - strlen(err), "%s%s: %s%s",
			 *err ? " (" : "", f->path, strerror(-f->fd), *err ? ")" : "");
	return f->fd;
}

static uint64_t device_size(int fd)
{
	uint64_t sz = 0;

	if (ioctl(fd, BLKGETSIZE64, &sz) < 0)
		return 0;
	return sz;
}

/* Size the job's region in each file, fio's rules: size, filesize, offset, %. */
static int size_regions(struct worker *w, char *err, size_t errlen)
{
	const struct job_spec *job = w->job;
	uint64_t total = 0;
	unsigned i;

	for (i = 0; i < w->nr_files; i++) {
		struct worker_file *f = &w->files[i];
		uint64_t start, size;

		start = job->offset_percent ? f->real_size * job->offset_percent / 100 : job->offset;
		/* offset_increment: each clone of the job starts that much further on */
		start += (uint64_t)w->clone * job->offset_increment;
		start -= start % w->min_bs;
		if (job->filesize)
			size = job->filesize;
		else if (job->size_percent)
			size = (f->real_size * job->size_percent / 100) / w->nr_files;
		else if (job->size)
			size = job->size / w->nr_files;
		else if (f->real_size > start)
			size = f->real_size - start;
		else {
			snprintf(err, errlen,
				 "job '%s': %s is empty or smaller than offset=%llu and no size= "
				 "was given", job->name, f->path, (unsigned long long)start);
			return -EINVAL;
		}
		if (f->is_blockdev && start + size > f->real_size) {
			if (start >= f->real_size) {
				snprintf(err, errlen, "job '%s': offset %llu is past the end of %s "
					 "(%llu bytes)", job->name, (unsigned long long)start,
					 f->path, (unsigned long long)f->real_size);
				return -EINVAL;
			}
			size = f->real_size - start;
		}
		size -= size % w->min_bs;
		if (size < w->max_bs) {
			snprintf(err, errlen, "job '%s': the region of %s (%llu bytes) is smaller "
				 "than the block size (%llu bytes)", job->name, f->path,
				 (unsigned long long)size, (unsigned long long)w->max_bs);
			return -EINVAL;
		}
		f->start = start;
		f->size = size;
		f->nr_blocks = size / w->min_bs;
		total += size;
	}
	w->io_limit = job->io_size ? job->io_size : total;
	return 0;
}

static int check_alignment(struct worker *w, char *err, size_t errlen)
{
	const struct job_spec *job = w->job;
	unsigned i, d, k;

	if (!job->direct)
		return 0;
	for (i = 0; i < w->nr_files; i++) {
		unsigned lbs = w->files[i].lbs;

		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			uint64_t sizes[RB_MAX_BSSPLIT + 2];
			unsigned nr = 0;

			sizes[nr++] = job->bs[d];
			sizes[nr++] = job->bs_max[d];
			for (k = 0; k < job->nr_bssplit[d]; k++)
				sizes[nr++] = job->bssplit[d][k].bs;
			for (k = 0; k < nr; k++) {
				if (sizes[k] % lbs == 0)
					continue;
				snprintf(err, errlen,
					 "job '%s': block size %llu is not a multiple of the logical "
					 "block size of %s (%u bytes); with direct=1 (O_DIRECT) every "
					 "I/O must cover whole blocks: use bs=%u or a multiple of it, "
					 "or direct=0", job->name, (unsigned long long)sizes[k],
					 w->files[i].path, lbs, lbs);
				return -EINVAL;
			}
		}
	}
	return 0;
}

int worker_open_files(struct worker *w, char *err, size_t errlen)
{
	const struct job_spec *job = w->job;
	unsigned i;
	int ret;

	ret = resolve_paths(w, err, errlen);
	if (ret)
		return ret;
	if (w->ops->flags & ENGINE_F_NODATA) {
		/* this engine moves no data: no file is opened, created or written */
		if (!job->size && !job->filesize) {
			snprintf(err, errlen, "job '%s': ioengine=%s needs size= (there is no file "
				 "to take the size from)", job->name, w->ops->name);
			return -EINVAL;
		}
		for (i = 0; i < w->nr_files; i++)
			w->files[i].lbs = 512;
		return size_regions(w, err, errlen);
	}
	for (i = 0; i < w->nr_files; i++) {
		struct worker_file *f = &w->files[i];
		struct stat st;

		if (stat(f->path, &st) == 0) {
			f->is_blockdev = S_ISBLK(st.st_mode);
			if (!f->is_blockdev && !S_ISREG(st.st_mode)) {
				snprintf(err, errlen, "job '%s': %s is neither a regular file nor a "
					 "block device", job->name, f->path);
				return -EINVAL;
			}
			f->real_size = (uint64_t)st.st_size;
			f->lbs = logical_block_size(&st);
			if (f->is_blockdev) {
				/* reads are always allowed: size the device read-only */
				int fd = open(f->path, O_RDONLY | O_CLOEXEC), e = errno;
				char why[1024];

				if (fd < 0) {
					/* a write job hears the guard's reasons first, if it has any */
					if (job_writes(job) && !job->verify_only &&
					    guard_check_write(f->path, w->consent, why, sizeof(why))) {
						snprintf(err, errlen, "job '%s': %s", job->name, why);
						return -EPERM;
					}
					snprintf(err, errlen, "job '%s': cannot open %s to find its size: "
						 "%s%s", job->name, f->path, strerror(e),
						 e == EPERM || e == EACCES ? " (the kernel or a security "
						 "policy refuses it)" : "");
					return -e;
				}
				f->real_size = device_size(fd);
				close(fd);
			}
		} else if (errno == ENOENT && !strncmp(f->path, "/dev/", 5)) {
			snprintf(err, errlen, "job '%s': %s does not exist (no such device)",
				 job->name, f->path);
			return -ENOENT;
		} else if (errno == ENOENT) {
			f->real_size = 0;
			f->lbs = 512;
			if (!job->size && !job->filesize) {
				snprintf(err, errlen, "job '%s': %s does not exist, and no size= was "
					 "given to create it", job->name, f->path);
				return -ENOENT;
			}
		} else {
			snprintf(err, errlen, "job '%s': %s: %s", job->name, f->path,
				 strerror(errno));
			return -errno;
		}
	}
	ret = check_alignment(w, err, errlen);
	if (ret)
		return ret;
	ret = size_regions(w, err, errlen);
	if (ret)
		return ret;

	/* Regular files that are missing or short are laid out before the job opens them. */
	for (i = 0; i < w->nr_files; i++) {
		struct worker_file *f = &w->files[i];
		uint64_t want = f->start + f->size;

		if (f->is_blockdev || f->real_size >= want)
			continue;
		atomic_store_explicit(&w->phase, PHASE_LAYOUT, memory_order_relaxed);
		/* A file only written needs no data in it; reads need real blocks. */
		ret = layout_file(w, f, want, !(job->rw & RW_READ) && !job->verify, err,
				  errlen);
		if (ret)
			return ret;
	}
	for (i = 0; i < w->nr_files; i++) {
		struct worker_file *f = &w->files[i];
		struct stat st;

		ret = open_target(w, f, err, errlen);
		if (ret < 0)
			return ret;
		if (!f->is_blockdev && fstat(f->fd, &st) == 0)
			f->lbs = logical_block_size(&st);
	}
	ret = check_alignment(w, err, errlen);
	if (ret)
		return ret;
	if (job->invalidate && !job->direct)
		for (i = 0; i < w->nr_files; i++)
			posix_fadvise(w->files[i].fd, 0, 0, POSIX_FADV_DONTNEED);
	return 0;
}

void worker_close_files(struct worker *w)
{
	unsigned i;

	for (i = 0; i < w->nr_files; i++) {
		struct worker_file *f = &w->files[i];

		if (f->fd >= 0)
			guard_close(f->fd);	/* drops the guard's exclusive hold with the last fd */
		free(f->path);
		rb_randmap_free(f->map);
		rb_dist_free(f->dist);
		free(f->written);
	}
	free(w->files);
	w->files = NULL;
	w->nr_files = 0;
}
