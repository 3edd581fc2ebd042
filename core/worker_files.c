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
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/blkzoned.h>
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

/*
 * zonemode=zbd: the target must be a zoned block device. fio emulates zones
 * on other targets; raidbench refuses them by name, and zoned ones unless
 * the engine keeps the write pointers itself (ENGINE_F_ZONED: libzbc).
 */
static int check_zoned(const struct job_spec *job, const char *path, const struct stat *st,
		       char *err, size_t errlen)
{
	char sys[128], model[32] = "none";
	FILE *f;

	if (!S_ISBLK(st->st_mode)) {
		snprintf(err, errlen, "job '%s': zonemode=zbd: %s is not a block device; raidbench "
			 "runs zonemode=zbd only on zoned block devices (fio would emulate zones "
			 "here; zonemode=strided is the nearest raidbench has)", job->name, path);
		return -EINVAL;
	}
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/queue/zoned", major(st->st_rdev),
		 minor(st->st_rdev));
	f = fopen(sys, "r");
	if (!f) {
		snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/../queue/zoned",
			 major(st->st_rdev), minor(st->st_rdev));
		f = fopen(sys, "r");
	}
	if (f) {
		if (fgets(model, sizeof(model), f))
			model[strcspn(model, "\n")] = 0;
		fclose(f);
	}
	if (!strcmp(model, "none"))
		snprintf(err, errlen, "job '%s': zonemode=zbd: %s is not a zoned block device (its "
			 "queue/zoned is \"none\"); use zonemode=strided or none", job->name, path);
	else
		snprintf(err, errlen, "job '%s': zonemode=zbd: %s is a %s zoned device; raidbench "
			 "keeps its write pointers only with ioengine=%s", job->name, path, model,
			 engine_name_with(ENGINE_F_ZONED));
	return -EINVAL;
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
	/* a remote engine's one target is its uri= when no filename= names others */
	if (!job->nr_filenames && job->remote_uri && (w->ops->flags & ENGINE_F_REMOTE))
		n = 1;
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
		if (job->nr_filenames && (w->ops->flags & ENGINE_F_REMOTE)) {
			f->shared = true;
			f->path = strdup(job->filenames[i]);	/* a URL: no directory= before it */
		} else if (job->nr_filenames) {
			f->shared = true;
			f->path = path_join(dir, job->filenames[i]);
		} else if (job->remote_uri && (w->ops->flags & ENGINE_F_REMOTE)) {
			f->shared = true;
			f->path = strdup(job->remote_uri);
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

	/* an engine that maps its files gives direct= and sync= its own meaning */
	if (!(w->ops->flags & ENGINE_F_MAPS)) {
		if (job->direct)
			flags |= O_DIRECT;
		if (job->sync == SYNC_SYNC)
			flags |= O_SYNC;
		else if (job->sync == SYNC_DSYNC)
			flags |= O_DSYNC;
	}

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

/*
 * fill_device on a file: a bound on the bytes from start to where the file
 * system is full (its free blocks plus what the file holds past start); the
 * job ends at ENOSPC before it, as fio's.
 */
static uint64_t fs_room(const char *path, uint64_t real_size, uint64_t start)
{
	char *dir = strdup(path), *slash;
	struct statvfs sv;
	uint64_t room = 0;

	if (!dir)
		return 0;
	slash = strrchr(dir, '/');
	if (!slash)
		strcpy(dir, ".");
	else if (slash == dir)
		slash[1] = 0;
	else
		*slash = 0;
	if (statvfs(dir, &sv) == 0)
		room = (uint64_t)sv.f_bfree * sv.f_frsize;	/* root may fill the reserve too */
	free(dir);
	if (real_size > start)
		room += real_size - start;
	return room;
}

/*
 * An engine with probe() (sg, io_uring_cmd) checks the target is one it
 * drives and gives its capacity and logical block size. Opened read-only:
 * reads are always allowed; a write job opens through the guard later.
 */
static int probe_target(struct worker *w, struct worker_file *f, char *err, size_t errlen)
{
	char why[512] = "";
	unsigned lbs = 512;
	uint64_t bytes = 0;
	int fd, ret;

	fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "job '%s': cannot open %s: %s", w->job->name, f->path,
			 strerror(-ret));
		return ret;
	}
	ret = w->ops->probe(fd, f->path, &bytes, &lbs, why, sizeof(why));
	close(fd);
	if (ret) {
		snprintf(err, errlen, "job '%s': %s", w->job->name, why);
		return ret;
	}
	f->is_blockdev = true;	/* a device: sized, never laid out */
	f->real_size = bytes;
	f->lbs = lbs;
	return 0;
}

/*
 * A remote target (an NBD export, an iSCSI LUN): the engine connects once
 * to size it; a job that writes has the guard look at the signatures on
 * the target's two ends first, as it would on a disk's.
 */
static int probe_remote(struct worker *w, struct worker_file *f, char *err, size_t errlen)
{
	const struct job_spec *job = w->job;
	const size_t edge = 1u << 20;
	bool writes = job_writes(job) && !job->verify_only;
	char why[1024] = "";
	void *head = NULL, *tail = NULL;
	uint64_t bytes = 0;
	unsigned lbs = 512;
	int ret;

	if (writes && (!(head = malloc(edge)) || !(tail = malloc(edge)))) {
		free(head);
		return -ENOMEM;
	}
	ret = w->ops->remote_probe(job, f->path, &bytes, &lbs, head, tail, edge, why,
				   sizeof(why));
	if (ret)
		snprintf(err, errlen, "job '%s': %s", job->name, why);
	else if (writes && guard_check_remote(f->path, bytes, head, tail, edge, w->consent, why,
					      sizeof(why))) {
		snprintf(err, errlen, "job '%s': %s", job->name, why);
		ret = -EPERM;
	}
	free(head);
	free(tail);
	if (ret)
		return ret;
	f->is_blockdev = true;	/* sized by the server, never laid out */
	f->real_size = bytes;
	f->lbs = lbs ? lbs : 1;
	return 0;
}

/* Every block size a whole number of the remote target's logical blocks. */
static int check_remote_blocks(struct worker *w, char *err, size_t errlen)
{
	const struct job_spec *job = w->job;
	unsigned i, d, k;

	for (i = 0; i < w->nr_files; i++)
		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			uint64_t sizes[RB_MAX_BSSPLIT + 2];
			unsigned nr = 0, lbs = w->files[i].lbs;

			sizes[nr++] = job->bs[d];
			sizes[nr++] = job->bs_max[d];
			for (k = 0; k < job->nr_bssplit[d]; k++)
				sizes[nr++] = job->bssplit[d][k].bs;
			for (k = 0; k < nr; k++)
				if (sizes[k] % lbs) {
					snprintf(err, errlen, "job '%s': block size %llu is not a "
						 "multiple of the logical block size of %s (%u "
						 "bytes); use bs=%u or a multiple of it", job->name,
						 (unsigned long long)sizes[k], w->files[i].path,
						 lbs, lbs);
					return -EINVAL;
				}
		}
	return 0;
}

/* A zoned block device's zone size in bytes; 0 for anything else. */
static uint64_t zone_bytes(const char *path)
{
	unsigned sectors = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (ioctl(fd, BLKGETZONESZ, &sectors) < 0)
		sectors = 0;
	close(fd);
	return (uint64_t)sectors << 9;
}

/*
 * filesize=: a file whose size already lies in the range keeps it; another
 * gets the fixed size, or one drawn in the range (fio's get_rand_file_size:
 * a taus88 draw scaled onto high - low, rounded down to the min bs).
 */
static uint64_t file_size_for(struct worker *w, const struct worker_file *f)
{
	const struct job_spec *job = w->job;
	uint64_t r, span = job->filesize_max - job->filesize;

	if (f->real_size >= job->filesize && f->real_size <= job->filesize_max)
		return f->real_size;
	if (!span)
		return job->filesize;
	r = rb_taus_next(&w->fsize_rand);
	r = (uint64_t)((double)span * ((double)r / 4294967296.0)) + job->filesize;
	return r - r % w->min_bs;
}

/* Size the job's region in each file, fio's rules: size, filesize, offset, %. */
static int size_regions(struct worker *w, char *err, size_t errlen)
{
	const struct job_spec *job = w->job;
	struct job_spec zoned;
	uint64_t whole = 0, td_min_bs = job->bs[0], extra = 0;
	unsigned i;

	if (job->zbd && (job->size_nz || job->io_size_nz || job->offset_nz ||
			 job->offset_increment_nz)) {
		/* counts of zones ("size=8z") in the device's own zones, the last file's as fio */
		uint64_t zone = 0;

		for (i = 0; i < w->nr_files; i++) {
			uint64_t z = zone_bytes(w->files[i].path);

			zone = z ? z : zone;
		}
		zoned = *job;	/* a shallow copy: only its sizes are changed and read */
		job_zones_to_bytes(&zoned, zone);
		job = &zoned;
	}

	/*
	 * fio's setup_files: size= shared among the files, each its share
	 * unrounded, the first ones a block more while the rest of the division
	 * holds whole blocks of the smallest bs of any direction
	 */
	for (i = 1; i < DDIR_RWDIR_CNT; i++)
		td_min_bs = job->bs[i] < td_min_bs ? job->bs[i] : td_min_bs;
	if (job->size && !job->filesize && !job->size_percent)
		extra = job->size % w->nr_files / td_min_bs;
	for (i = 0; i < w->nr_files; i++) {
		struct worker_file *f = &w->files[i];
		uint64_t start, size;

		start = job->offset_percent ? f->real_size * job->offset_percent / 100 : job->offset;
		/* offset_increment: each clone of the job starts that much further on */
		start += (uint64_t)w->clone * job->offset_increment;
		start -= start % w->min_bs;
		if (job->filesize) {
			/* the file is filesize= long, its region what follows offset= (fio) */
			size = file_size_for(w, f);
			if (start >= size) {
				snprintf(err, errlen, "job '%s': offset %llu is not below the size of "
					 "%s (%llu bytes, filesize=)", job->name,
					 (unsigned long long)start, f->path,
					 (unsigned long long)size);
				return -EINVAL;
			}
			size -= start;
		} else if (job->size && !job->size_percent)
			size = job->size / w->nr_files + (i < extra ? td_min_bs : 0);
		else if (job->fill_device && !f->is_blockdev)
			size = fs_room(f->path, f->real_size, start) / w->nr_files;
		else if (f->real_size > start)
			size = f->real_size - start;
		else {
			snprintf(err, errlen,
				 "job '%s': %s is empty or smaller than offset=%llu and no size= "
				 "was given", job->name, f->path, (unsigned long long)start);
			return -EINVAL;
		}
		/*
		 * size=N% is of each file (fio's setup_files), not shared: N% of
		 * the file as long as it is or will be, no more than follows
		 * offset=, in whole blocks of the smallest bs below 100%
		 */
		if (job->size_percent) {
			uint64_t file = start + size;

			size = file / 100 * job->size_percent + file % 100 * job->size_percent / 100;
			if (size > file - start)
				size = file - start;
			if (job->size_percent != 100)
				size -= size % td_min_bs;
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
		/* a random job's sequential picks run out where the file (or the
		 * region, unrounded, where the file ends there) does: fio's end */
		f->seq_end = f->real_size > start + size ? f->real_size - start : size;
		/*
		 * fio's size= (its byte limit) is the regions' bytes before this
		 * rounding, and an I/O of a size that fits may end past it
		 */
		whole += size;
		f->reach = size;
		size -= size % w->min_bs;
		if (size < w->max_bs) {
			snprintf(err, errlen, "job '%s': the region of %s (%llu bytes) is smaller "
				 "than the block size (%llu bytes)", job->name, f->path,
				 (unsigned long long)size, (unsigned long long)w->max_bs);
			return -EINVAL;
		}
		f->start = start;
		f->size = size;
	}
	w->size_bytes = whole;
	w->io_limit = job->io_size ? job->io_size : whole;
	return 0;
}

static int check_alignment(struct worker *w, char *err, size_t errlen)
{
	const struct job_spec *job = w->job;
	unsigned i, d, k;

	if (!job->direct || (w->ops->flags & ENGINE_F_MAPS))
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
	if (w->ops->output_file) {
		/*
		 * what the engine writes besides its targets (exec's JOBNAME.stdout,
		 * e4defrag's donor): guarded too
		 */
		char path[4096], why[1024];

		for (i = 0; (ret = w->ops->output_file(job, i, path, sizeof(path))) == 0; i++)
			if (guard_check_write(path, w->consent, why, sizeof(why))) {
				snprintf(err, errlen, "job '%s': ioengine=%s's output: %s", job->name,
					 w->ops->name, why);
				return -EPERM;
			}
		if (ret != -ENOENT) {
			/* the job does not name the file the engine needs: path says what is missing */
			snprintf(err, errlen, "job '%s': ioengine=%s %s", job->name, w->ops->name, path);
			return ret;
		}
	}
	if (w->ops->flags & (ENGINE_F_NOLAYOUT | ENGINE_F_UNLINKS)) {
		/* these create or remove files by name: the guard hears each one first */
		for (i = 0; i < w->nr_files; i++) {
			char why[1024];

			if (guard_check_write(w->files[i].path, w->consent, why, sizeof(why))) {
				snprintf(err, errlen, "job '%s': %s", job->name, why);
				return -EPERM;
			}
		}
	}
	if (w->ops->target_open) {
		/* the engine opens these itself, by name (pmemblk's "path,bsize,MiB") */
		for (i = 0; i < w->nr_files; i++) {
			struct worker_file *f = &w->files[i];
			char why[1024] = "";

			ret = w->ops->target_open(f->path, job, w->consent, &f->target,
						  &f->real_size, &f->lbs, why, sizeof(why));
			if (ret) {
				snprintf(err, errlen, "job '%s': %s", job->name, why);
				return ret;
			}
			f->is_blockdev = true;	/* sized by the engine, never laid out */
		}
		return size_regions(w, err, errlen);
	}
	if ((w->ops->flags & ENGINE_F_STREAM) && job->size) {
		/* a byte stream (net): size= bytes cross it; no file is opened or created */
		for (i = 0; i < w->nr_files; i++) {
			w->files[i].lbs = 512;
			w->files[i].size = job->size / w->min_bs * w->min_bs;
			w->files[i].reach = w->files[i].seq_end = w->files[i].size;
		}
		w->io_limit = w->size_bytes = job->size;
		return 0;
	}
	if (w->ops->flags & (ENGINE_F_DISKLESS | ENGINE_F_STREAM)) {
		/* no file at all: each "file" is a region nothing reads, as long as runtime allows */
		if (!job->runtime_us) {
			snprintf(err, errlen, "job '%s': ioengine=%s needs runtime= (it does no I/O "
				 "that could end it)", job->name, w->ops->name);
			return -EINVAL;
		}
		for (i = 0; i < w->nr_files; i++) {
			w->files[i].lbs = 512;
			w->files[i].size = (UINT64_C(1) << 50) / w->min_bs * w->min_bs;
			w->files[i].reach = w->files[i].seq_end = w->files[i].size;
		}
		w->io_limit = w->size_bytes = UINT64_MAX;
		return 0;
	}
	if (w->ops->flags & (ENGINE_F_NODATA | ENGINE_F_NOLAYOUT)) {
		/* null moves no data, filecreate makes its files: none is opened or laid out */
		if (!job->size && !job->filesize) {
			snprintf(err, errlen, "job '%s': ioengine=%s needs size= or filesize= (there "
				 "is no file to take the size from)", job->name, w->ops->name);
			return -EINVAL;
		}
		for (i = 0; i < w->nr_files; i++)
			w->files[i].lbs = 512;
		return size_regions(w, err, errlen);
	}
	if (w->ops->flags & ENGINE_F_REMOTE) {
		/* nothing local is opened: the engine reaches each target itself */
		for (i = 0; i < w->nr_files; i++)
			if ((ret = probe_remote(w, &w->files[i], err, errlen)))
				return ret;
		ret = check_remote_blocks(w, err, errlen);
		return ret ? ret : size_regions(w, err, errlen);
	}
	for (i = 0; i < w->nr_files; i++) {
		struct worker_file *f = &w->files[i];
		struct stat st;

		if (job->zbd && !(w->ops->flags & ENGINE_F_ZONED)) {
			/* a missing file is no zoned device either */
			if (stat(f->path, &st) < 0)
				memset(&st, 0, sizeof(st));
			return check_zoned(job, f->path, &st, err, errlen);
		}
		if (stat(f->path, &st) == 0) {
			char kind[512] = "";

			if (w->ops->check_target &&
			    (ret = w->ops->check_target(f->path, &st, kind, sizeof(kind)))) {
				snprintf(err, errlen, "job '%s': %s", job->name, kind);
				return ret;
			}
			/* engines that speak to character devices size them with probe() */
			f->is_blockdev = S_ISBLK(st.st_mode) ||
					 (S_ISCHR(st.st_mode) && (w->ops->flags & ENGINE_F_CHARDEV));
			if (!f->is_blockdev && !S_ISREG(st.st_mode)) {
				snprintf(err, errlen, "job '%s': %s is neither a regular file nor a "
					 "block device%s", job->name, f->path, S_ISCHR(st.st_mode) ?
					 " (a character device needs an engine that drives one: SCSI "
					 "generic or NVMe pass-through)" : "");
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
			if (w->ops->probe) {
				ret = probe_target(w, f, err, errlen);
				if (ret)
					return ret;
			}
		} else if (errno == ENOENT && (!strncmp(f->path, "/dev/", 5) || w->ops->probe)) {
			snprintf(err, errlen, "job '%s': %s does not exist (no such device)",
				 job->name, f->path);
			return -ENOENT;
		} else if (errno == ENOENT) {
			f->real_size = 0;
			f->lbs = 512;
			if (!job->size && !job->filesize && !job->fill_device) {
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
		uint64_t want = f->start + f->reach;

		if (f->is_blockdev || f->real_size >= want)
			continue;
		if (job->fill_device) {
			/* written until full, never extended first (fio's way): only created */
			if (!f->real_size && (ret = layout_file(w, f, 0, true, err, errlen)))
				return ret;
			continue;
		}
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
		if (f->target)
			w->ops->target_close(f->target, w->job->unlink);
		f->target = NULL;
		free(f->path);
		rb_randmap_free(f->map);
		rb_dist_free(f->dist);
		free(f->written);
		free(f->wstart);
	}
	free(w->files);
	w->files = NULL;
	w->nr_files = 0;
	readback_free(w);
}
