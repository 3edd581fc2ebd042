/*
 * userdir.c - where raidbench keeps its own files and how it makes them:
 * the XDG base directory (then $HOME, then the password database, never a
 * shared fallback such as /tmp), a directory walk that trusts only what the
 * caller or root owns and no one else can write, and files created O_EXCL
 * or opened O_NOFOLLOW. The contract is in userdir.h. Never prints.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "userdir.h"

#define HOPS_MAX 40	/* symbolic links followed on one path, the kernel's own limit */

static const struct {
	const char *var;
	const char *under_home;
} kinds[] = {
	[USERDIR_CACHE] = { "XDG_CACHE_HOME", ".cache" },
	[USERDIR_DATA] = { "XDG_DATA_HOME", ".local/share" },
	[USERDIR_CONFIG] = { "XDG_CONFIG_HOME", ".config" },
	[USERDIR_STATE] = { "XDG_STATE_HOME", ".local/state" },
};

static int fail(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return ret;
}

/* The XDG spec: a relative value is to be ignored. */
static bool usable(const char *s)
{
	return s && s[0] == '/';
}

/* s without its trailing slashes ("/" stays "" so "/" + "/.cache" is "/.cache") */
static int trimmed(const char *s)
{
	size_t n = strlen(s);

	while (n && s[n - 1] == '/')
		n--;
	return (int)n;
}

int userdir_choose(enum userdir_kind kind, const char *xdg, const char *home,
		   const char *pw_home, char *buf, size_t len)
{
	const char *base = usable(xdg) ? xdg : usable(home) ? home : usable(pw_home) ? pw_home : NULL;
	int n;

	if (!base)
		return -ENOENT;
	if (base == xdg)
		n = snprintf(buf, len, "%.*s/raidbench", trimmed(base), base);
	else
		n = snprintf(buf, len, "%.*s/%s/raidbench", trimmed(base), base,
			     kinds[kind].under_home);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int userdir_path(enum userdir_kind kind, const char *sub, char *buf, size_t len, char *err,
		 size_t errlen)
{
	const char *var = kinds[kind].var, *xdg = getenv(var), *home = getenv("HOME");
	struct passwd pw, *found = NULL;
	char pwbuf[4096];
	int ret;

	/* the password database is asked only when the environment says nothing */
	if (!usable(xdg) && !usable(home))
		getpwuid_r(geteuid(), &pw, pwbuf, sizeof(pwbuf), &found);
	ret = userdir_choose(kind, xdg, home, found ? found->pw_dir : NULL, buf, len);
	if (ret == -ENOENT)
		return fail(err, errlen, ret, "no place for raidbench's files: neither %s nor HOME "
			    "is set to an absolute path and user %u has no home directory in the "
			    "password database; set %s", var, (unsigned)geteuid(), var);
	if (!ret && sub && *sub) {
		size_t used = strlen(buf);
		int n = snprintf(buf + used, len - used, "/%s", sub);

		if (n < 0 || (size_t)n >= len - used)
			ret = -ENAMETOOLONG;
	}
	if (ret)
		return fail(err, errlen, ret, "the path of raidbench's files under %s is too long",
			    var);
	return 0;
}

/* May a directory lie on the way to raidbench's files (last: hold them)? */
static int check_dir(int fd, const char *shown, bool last, char *err, size_t errlen)
{
	uid_t me = geteuid();
	struct stat st;

	if (fstat(fd, &st) < 0)
		return fail(err, errlen, -errno, "%s: %s", shown, strerror(errno));
	if (st.st_uid != me && st.st_uid != 0)
		return fail(err, errlen, -EPERM, "refusing to keep files under %s: it belongs to "
			    "user %u, not to you or root", shown, (unsigned)st.st_uid);
	/* a sticky directory (/tmp) may be passed through: no one can rename what is ours */
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) && (last || !(st.st_mode & S_ISVTX)))
		return fail(err, errlen, -EPERM, "refusing to keep files under %s: other users "
			    "can write to it (mode %04o)", shown, (unsigned)(st.st_mode & 07777));
	return 0;
}

/* Appends "/name" to buf (len bytes); false when it does not fit. */
static bool append(char *buf, size_t len, const char *name, size_t n)
{
	size_t used = strlen(buf);

	if (used + 1 + n + 1 > len)
		return false;
	buf[used] = '/';
	memcpy(buf + used + 1, name, n);
	buf[used + 1 + n] = '\0';
	return true;
}

/*
 * Opens dir one component at a time with O_NOFOLLOW, making missing ones
 * when create is set, and checks each. A symbolic link is followed only
 * when the caller or root owns it; its target is then walked the same way
 * from /. Returns an O_PATH fd of dir or -errno with err set.
 */
static int walk(const char *dir, bool create, char *err, size_t errlen)
{
	char todo[PATH_MAX], cur[PATH_MAX], link[PATH_MAX], name[NAME_MAX + 1];
	int fd = -1, hops = 0, ret;
	const char *p;

	if (dir[0] != '/')
		return fail(err, errlen, -EINVAL, "%s is not an absolute path", dir);
	if (snprintf(todo, sizeof(todo), "%s", dir) >= (int)sizeof(todo))
		return fail(err, errlen, -ENAMETOOLONG, "%s: %s", dir, strerror(ENAMETOOLONG));
restart:
	if (fd >= 0)
		close(fd);
	fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return fail(err, errlen, -errno, "/: %s", strerror(errno));
	cur[0] = '\0';
	p = todo;
	p += strspn(p, "/");
	ret = check_dir(fd, "/", !*p, err, errlen);
	while (!ret && *p) {
		size_t n = strcspn(p, "/");
		struct stat st;
		int next;

		if (n > NAME_MAX) {
			ret = fail(err, errlen, -ENAMETOOLONG, "%s/%.*s: %s", cur, (int)n, p,
				   strerror(ENAMETOOLONG));
			break;
		}
		memcpy(name, p, n);
		name[n] = '\0';
		p += n;
		p += strspn(p, "/");
		if (!strcmp(name, "."))
			continue;
		if (!append(cur, sizeof(cur), name, n)) {
			ret = fail(err, errlen, -ENAMETOOLONG, "%s: %s", dir, strerror(ENAMETOOLONG));
			break;
		}
		next = openat(fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0 && errno == ENOENT && create) {
			if (mkdirat(fd, name, 0755) < 0 && errno != EEXIST) {
				ret = fail(err, errlen, -errno, "cannot create %s: %s", cur,
					   strerror(errno));
				break;
			}
			next = openat(fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		}
		if (next < 0 && (errno == ENOTDIR || errno == ELOOP) &&
		    fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) {
			char again[PATH_MAX];
			size_t parent = strlen(cur) - n - 1;
			ssize_t k;

			if (st.st_uid != geteuid() && st.st_uid != 0) {
				ret = fail(err, errlen, -EPERM, "refusing to follow %s: it is a "
					   "symbolic link that belongs to user %u, not to you or root",
					   cur, (unsigned)st.st_uid);
				break;
			}
			k = readlinkat(fd, name, link, sizeof(link) - 1);
			if (k < 0 || ++hops > HOPS_MAX) {
				ret = fail(err, errlen, k < 0 ? -errno : -ELOOP, "%s: %s", cur,
					   strerror(k < 0 ? errno : ELOOP));
				break;
			}
			link[k] = '\0';
			/* the link's target in place of the link, then the rest, walked from / */
			k = snprintf(again, sizeof(again), "%.*s/%s/%s", link[0] == '/' ? 0 :
				     (int)parent, cur, link, p);
			if (k < 0 || (size_t)k >= sizeof(again)) {
				ret = fail(err, errlen, -ENAMETOOLONG, "%s: %s", dir,
					   strerror(ENAMETOOLONG));
				break;
			}
			memcpy(todo, again, (size_t)k + 1);
			goto restart;
		}
		if (next < 0) {
			ret = fail(err, errlen, -errno, "%s: %s", cur,
				   errno == ENOTDIR ? "not a directory" : strerror(errno));
			break;
		}
		close(fd);
		fd = next;
		ret = check_dir(fd, cur, !*p, err, errlen);
	}
	if (ret) {
		close(fd);
		return ret;
	}
	return fd;
}

int userdir_make(const char *dir, char *err, size_t errlen)
{
	int fd = walk(dir, true, err, errlen);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

int userdir_open(const char *path, int flags, mode_t mode, char *err, size_t errlen)
{
	int open_flags = (flags & ~(O_CREAT | O_EXCL | O_TRUNC)) | O_NOFOLLOW | O_CLOEXEC |
			 O_NONBLOCK;
	const char *slash = strrchr(path, '/'), *base;
	char dir[PATH_MAX];
	struct stat st;
	int dfd, fd = -1, ret = 0;

	if (!slash || !slash[1])
		return fail(err, errlen, -EINVAL, "%s is not a path to a file", path);
	base = slash + 1;
	if (snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path) >=
	    (int)sizeof(dir))
		return fail(err, errlen, -ENAMETOOLONG, "%s: %s", path, strerror(ENAMETOOLONG));
	dfd = walk(dir, flags & O_CREAT, err, errlen);
	if (dfd < 0)
		return dfd;
	if (flags & O_CREAT)
		fd = openat(dfd, base, open_flags | O_CREAT | O_EXCL, mode);
	if (fd < 0 && (!(flags & O_CREAT) || (errno == EEXIST && !(flags & O_EXCL))))
		fd = openat(dfd, base, open_flags);
	if (fd < 0) {
		ret = -errno;
		if (ret != -ELOOP && fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    !S_ISREG(st.st_mode))
			ret = -EPERM;	/* a FIFO without a reader, a socket: say what it is */
		close(dfd);
		if (ret == -ELOOP)
			return fail(err, errlen, ret, "refusing to write through %s: it is a "
				    "symbolic link", path);
		if (ret == -EPERM)
			return fail(err, errlen, ret, "refusing to use %s: it is not a regular "
				    "file", path);
		return fail(err, errlen, ret, "%s: %s", path, strerror(-ret));
	}
	close(dfd);
	if (fstat(fd, &st) < 0)
		ret = fail(err, errlen, -errno, "%s: %s", path, strerror(errno));
	else if (!S_ISREG(st.st_mode))
		ret = fail(err, errlen, -EPERM, "refusing to use %s: it is not a regular file", path);
	else if (st.st_uid != geteuid())
		ret = fail(err, errlen, -EPERM, "refusing to use %s: it belongs to user %u, not "
			   "to you", path, (unsigned)st.st_uid);
	else if (st.st_nlink > 1)
		ret = fail(err, errlen, -EPERM, "refusing to write through %s: it has %lu hard "
			   "links", path, (unsigned long)st.st_nlink);
	else if (!(flags & O_NONBLOCK) && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0)
		ret = fail(err, errlen, -errno, "%s: %s", path, strerror(errno));
	else if ((flags & O_TRUNC) && ftruncate(fd, 0) < 0)
		ret = fail(err, errlen, -errno, "%s: %s", path, strerror(errno));
	if (ret) {
		close(fd);
		return ret;
	}
	return fd;
}
