/*
 * guard_open.c - the write guard's exclusive open. guard_open_write() asks
 * the policy (guard.c) first, then for a block device takes the kernel's
 * exclusive claim, checks again under it so nothing mounted or assembled
 * since the first check slips through, and hands out fds that share the
 * one claim; guard_close() ends it with the last of them.
 *
 * It decides nothing itself: every verdict comes from guard_check_target().
 * It never writes to a device and never prints. The claims table is the
 * guard's only shared state and is touched only under claims_lock.
 */
#include "guard_int.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * The kernel lets one open file hold a block device's exclusive claim, so
 * a second O_EXCL open from this process (numjobs=2 on one disk) would
 * fail with EBUSY. The guard therefore holds one claim fd per device and
 * hands out plain fds; the claim ends with the last of them (guard_close).
 */
struct claim {
	dev_t rdev;
	int claim_fd;
};

struct handed_fd {
	int fd;
	dev_t rdev;
};

static pthread_mutex_t claims_lock = PTHREAD_MUTEX_INITIALIZER;
static struct claim *claims;
static size_t nr_claims;
static struct handed_fd *handed;
static size_t nr_handed;

static struct claim *claim_find(dev_t rdev)
{
	size_t i;

	for (i = 0; i < nr_claims; i++)
		if (claims[i].rdev == rdev)
			return &claims[i];
	return NULL;
}

/* Drops the claim on rdev when no handed-out fd uses it any more. Lock held. */
static void claim_put_unused(dev_t rdev)
{
	size_t i;

	for (i = 0; i < nr_handed; i++)
		if (handed[i].rdev == rdev)
			return;
	for (i = 0; i < nr_claims; i++)
		if (claims[i].rdev == rdev) {
			close(claims[i].claim_fd);
			claims[i] = claims[--nr_claims];
			return;
		}
}

/* Lock held. A reused fd number means the caller close()d the old one. */
static int handed_add(int fd, dev_t rdev)
{
	struct handed_fd *tmp;
	size_t i;

	for (i = 0; i < nr_handed; i++)
		if (handed[i].fd == fd) {
			dev_t old = handed[i].rdev;

			/* Replace before the put, or a claim this fd needs could go. */
			handed[i].rdev = rdev;
			claim_put_unused(old);
			return 0;
		}
	tmp = realloc(handed, (nr_handed + 1) * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	handed = tmp;
	handed[nr_handed].fd = fd;
	handed[nr_handed].rdev = rdev;
	nr_handed++;
	return 0;
}

static void msg(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void msg(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static int changed(const char *path, char *err, size_t errlen)
{
	msg(err, errlen, "refusing to write %s: it changed while it was being checked", path);
	return -EAGAIN;
}

/*
 * The exclusive claim failed. A holder (md, dm) consented to is still the
 * kernel's: say which, since consent cannot release it.
 */
static void busy(const char *path, const char *name, char *err, size_t errlen)
{
	struct guard_report rep;
	const char *held = NULL, *line, *end;

	if (!guard_examine(path, &rep))
		held = strstr(rep.reasons, " held by ");
	if (held) {
		/* the whole reason: "partition vdc1 is held by md0 (an md array)" */
		for (line = held; line > rep.reasons && line[-1] != '\n'; line--)
			;
		end = strchr(held, '\n');
		msg(err, errlen, "%s is in use by the kernel (%.*s); consent cannot release that "
		    "claim: stop or remove the holder first", name,
		    end ? (int)(end - line) : (int)strlen(line), line);
	} else
		msg(err, errlen, "%s is in use by another program or the kernel "
		    "(mounted or claimed since the check)", name);
}

static int open_block(const char *path, int flags, const struct guard_consent *consent,
		      const struct target *checked, char *err, size_t errlen)
{
	const char *name = checked->canon[0] ? checked->canon : path;
	struct claim *c;
	struct target t;
	struct stat st;
	int fd, rc;

	pthread_mutex_lock(&claims_lock);
	c = claim_find(checked->rdev);
	if (!c) {
		struct claim *tmp;
		int cfd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);

		if (cfd < 0) {
			rc = -errno;
			pthread_mutex_unlock(&claims_lock);
			if (rc == -EBUSY)
				busy(path, name, err, errlen);
			else
				msg(err, errlen, "cannot open %s: %s", name, strerror(-rc));
			return rc;
		}
		if (fstat(cfd, &st) < 0 || !S_ISBLK(st.st_mode) || st.st_rdev != checked->rdev) {
			close(cfd);
			pthread_mutex_unlock(&claims_lock);
			return changed(path, err, errlen);
		}
		/*
		 * Check again now that nobody else can claim it: a mount or an
		 * mkfs that finished between the first check and the claim
		 * shows up here.
		 */
		rc = guard_check_target(path, consent, &t, err, errlen);
		if (!rc && (t.type != T_BLOCK || t.rdev != checked->rdev))
			rc = changed(path, err, errlen);
		if (rc) {
			close(cfd);
			pthread_mutex_unlock(&claims_lock);
			return rc;
		}
		tmp = realloc(claims, (nr_claims + 1) * sizeof(*tmp));
		if (!tmp) {
			close(cfd);
			pthread_mutex_unlock(&claims_lock);
			msg(err, errlen, "cannot open %s: %s", name, strerror(ENOMEM));
			return -ENOMEM;
		}
		claims = tmp;
		c = &claims[nr_claims++];
		c->rdev = checked->rdev;
		c->claim_fd = cfd;
	}
	/* O_CREAT|O_EXCL on an existing node is EEXIST; O_TRUNC means nothing here. */
	fd = open(path, flags & ~(O_CREAT | O_EXCL | O_TRUNC));
	if (fd < 0) {
		rc = -errno;
		claim_put_unused(checked->rdev);
		pthread_mutex_unlock(&claims_lock);
		msg(err, errlen, "cannot open %s: %s", name, strerror(-rc));
		return rc;
	}
	if (fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode) || st.st_rdev != checked->rdev) {
		close(fd);
		claim_put_unused(checked->rdev);
		pthread_mutex_unlock(&claims_lock);
		return changed(path, err, errlen);
	}
	rc = handed_add(fd, checked->rdev);
	if (rc) {
		close(fd);
		claim_put_unused(checked->rdev);
		pthread_mutex_unlock(&claims_lock);
		msg(err, errlen, "cannot open %s: %s", name, strerror(-rc));
		return rc;
	}
	pthread_mutex_unlock(&claims_lock);
	return fd;
}

int guard_open_write(const char *path, int flags, const struct guard_consent *consent,
		     char *err, size_t errlen)
{
	struct target t;
	struct stat st;
	int fd, rc;

	rc = guard_check_target(path, consent, &t, err, errlen);
	if (rc)
		return rc;
	if (t.type == T_BLOCK)
		return open_block(path, flags, consent, &t, err, errlen);

	/* Truncated only once the file opened is known to be the one checked. */
	fd = open(path, flags & ~O_TRUNC, 0644);
	if (fd < 0) {
		rc = -errno;
		msg(err, errlen, "cannot open %s: %s", path, strerror(-rc));
		return rc;
	}
	/* A path that was a file at the check and is a disk now gets checked as one. */
	if (fstat(fd, &st) < 0 || S_ISBLK(st.st_mode) ||
	    (S_ISCHR(st.st_mode) && (t.type != T_CHAR || st.st_rdev != t.rdev))) {
		close(fd);
		return changed(path, err, errlen);
	}
	/*
	 * A file created here, or swapped in since the check, may back a loop
	 * device all the same: check the file that was opened.
	 */
	if (S_ISREG(st.st_mode) &&
	    (t.type != T_FILE || st.st_dev != t.fdev || st.st_ino != t.ino)) {
		rc = guard_check_target(path, consent, &t, err, errlen);
		if (!rc && (t.type != T_FILE || st.st_dev != t.fdev || st.st_ino != t.ino))
			rc = changed(path, err, errlen);
		if (rc) {
			close(fd);
			return rc;
		}
	}
	if ((flags & O_TRUNC) && S_ISREG(st.st_mode) && ftruncate(fd, 0) < 0) {
		rc = -errno;
		close(fd);
		msg(err, errlen, "cannot truncate %s: %s", path, strerror(-rc));
		return rc;
	}
	return fd;
}

int guard_close(int fd)
{
	size_t i;
	int rc;

	/* Closed under the lock, so the number cannot be handed out again meanwhile. */
	pthread_mutex_lock(&claims_lock);
	rc = close(fd) < 0 ? -errno : 0;
	for (i = 0; i < nr_handed; i++)
		if (handed[i].fd == fd) {
			dev_t rdev = handed[i].rdev;

			handed[i] = handed[--nr_handed];
			claim_put_unused(rdev);
			break;
		}
	pthread_mutex_unlock(&claims_lock);
	return rc;
}
