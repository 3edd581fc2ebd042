/*
 * discover_sysfs.c - the small file readers discovery is made of: sysfs
 * attributes, symlink names, sorted directory listings, and loading the
 * mount and swap tables (core/systab.h reads them). Kept apart so every reader treats a
 * missing, unreadable or empty attribute the same way: as unset.
 *
 * Read-only; never prints.
 */
#include "discover_int.h"
#include "grow.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int sysfs_read(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	if (!path || len < 2)
		return -ENOENT;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	close(fd);
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		n--;
	buf[n] = '\0';
	return n ? 0 : -ENODATA;
}

char *sysfs_strdup(struct dctx *d, const char *path)
{
	char buf[4096];
	char *s = buf;
	int ret = sysfs_read(path, buf, sizeof(buf));

	if (ret == -EACCES || ret == -EPERM)
		d->denied |= DENIED_SYSFS;
	if (ret)
		return NULL;
	while (isspace((unsigned char)*s))	/* SCSI model strings are padded */
		s++;
	return strdup(s);
}

int64_t sysfs_int(const char *path, int64_t def)
{
	char buf[64], *end;
	long long v;

	if (sysfs_read(path, buf, sizeof(buf)))
		return def;
	errno = 0;
	v = strtoll(buf, &end, 0);
	if (errno || end == buf)
		return def;
	return v;
}

const char *pathf(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, PATH_MAX, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= PATH_MAX)
		return NULL;
	return buf;
}

char *sysfs_link_name(const char *path)
{
	char target[PATH_MAX];
	const char *base;
	ssize_t n;

	if (!path)
		return NULL;
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return NULL;
	target[n] = '\0';
	base = strrchr(target, '/');
	return strdup(base ? base + 1 : target);
}

static int cmp_version(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

void names_free(char **names, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(names[i]);
	free(names);
}

int dir_names(const char *dir, char ***names, size_t *nr)
{
	struct dirent *de;
	DIR *dp;
	int ret = 0;

	*names = NULL;
	*nr = 0;
	if (!dir)
		return -ENOENT;
	dp = opendir(dir);
	if (!dp)
		return -errno;
	while ((de = readdir(dp))) {
		if (de->d_name[0] == '.')
			continue;
		ret = inv_add_str(names, nr, de->d_name);
		if (ret)
			break;
	}
	closedir(dp);
	if (ret) {
		names_free(*names, *nr);
		*names = NULL;
		*nr = 0;
		return ret;
	}
	if (*nr)
		qsort(*names, *nr, sizeof(**names), cmp_version);
	return 0;
}

/* "0000:05:00.0": domain, bus, device, function in hex. */
static bool is_pci_addr(const char *s, size_t n)
{
	static const char shape[] = "xxxx:xx:xx.x";

	if (n != sizeof(shape) - 1)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (shape[i] == 'x' ? !isxdigit((unsigned char)s[i]) : s[i] != shape[i])
			return false;
	}
	return true;
}

bool pci_ancestor(const char *devpath, char *addr, size_t len)
{
	const char *end = devpath + strlen(devpath);

	/* From the leaf up: behind a PCIe switch the nearest function is the device. */
	while (end > devpath) {
		const char *start = end;

		while (start > devpath && start[-1] != '/')
			start--;
		if (is_pci_addr(start, (size_t)(end - start))) {
			snprintf(addr, len, "%.*s", (int)(end - start), start);
			return true;
		}
		end = start > devpath ? start - 1 : devpath;
	}
	return false;
}

int proc_load(struct dctx *d)
{
	int ret = systab_read_mounts(&d->tab, d->o->proc_root);

	/* without mounts the verdicts still stand (guard_examine reads its own) */
	if (ret == -EACCES)
		d->denied |= DENIED_MOUNTINFO;
	if (ret == -ENOMEM)
		return ret;
	ret = systab_read_swaps(&d->tab, d->o->proc_root);
	return ret == -ENOMEM ? ret : 0;
}

void proc_release(struct dctx *d)
{
	free(d->loops);
	d->loops = NULL;
	d->nr_loops = 0;
	systab_release(&d->tab);
}
