/*
 * systab.c - reading the kernel's tables of who uses block devices:
 * mountinfo, swaps, sysfs holders (systab.h). The only parser of these
 * files in raidbench; it judges nothing and never prints.
 */
#include "systab.h"
#include "grow.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

void systab_unescape(char *s)
{
	char *w = s;

	while (*s) {
		/* \ooo is one byte: the first digit is at most 3 */
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*w++ = *s++;
		}
	}
	*w = '\0';
}

static FILE *open_proc(const char *proc_root, const char *name)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", proc_root ? proc_root : "/proc", name) >=
	    (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return fopen(path, "re");
}

static char *dup_or_null(const char *s, int *rc)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		*rc = -ENOMEM;
	return d;
}

/*
 * One line: "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw".
 * Fields 0-5 are fixed, optional fields follow until "-", then fstype and
 * source. A line without a mount point is skipped.
 */
static int parse_mount(struct systab *t, char *line)
{
	char *field[64], *save = NULL, *tok, *fstype = NULL, *source = NULL;
	struct systab_mount *m;
	unsigned maj, min;
	size_t n = 0;
	int rc = 0;

	line[strcspn(line, "\n")] = '\0';
	for (tok = strtok_r(line, " ", &save); tok && n < 64; tok = strtok_r(NULL, " ", &save))
		field[n++] = tok;
	if (n < 5)
		return 0;
	for (size_t i = 6; i < n; i++)
		if (!strcmp(field[i], "-")) {
			fstype = i + 1 < n ? field[i + 1] : NULL;
			source = i + 2 < n ? field[i + 2] : NULL;
			break;
		}
	if (grow_room(&t->mounts, t->nr_mounts, sizeof(*t->mounts)))
		return -ENOMEM;
	m = &t->mounts[t->nr_mounts];
	m->dev = sscanf(field[2], "%u:%u", &maj, &min) == 2 ? makedev(maj, min) : 0;
	systab_unescape(field[4]);
	if (source)
		systab_unescape(source);
	m->dir = dup_or_null(field[4], &rc);
	m->fstype = dup_or_null(fstype, &rc);
	m->source = dup_or_null(source, &rc);
	if (rc) {
		free(m->dir);
		free(m->fstype);
		free(m->source);
		return rc;
	}
	t->nr_mounts++;
	return 0;
}

int systab_read_mounts(struct systab *t, const char *proc_root)
{
	FILE *f = open_proc(proc_root, "self/mountinfo");
	char *line = NULL;
	size_t cap = 0;
	int rc = 0;

	if (!f)
		return -errno;
	while (!rc && getline(&line, &cap, f) > 0)
		rc = parse_mount(t, line);
	if (!rc && ferror(f))
		rc = -EIO;
	free(line);
	fclose(f);
	return rc;
}

int systab_read_swaps(struct systab *t, const char *proc_root)
{
	FILE *f = open_proc(proc_root, "swaps");
	char *line = NULL;
	size_t cap = 0;
	bool header = true;
	int rc = 0;

	if (!f)
		return errno == ENOENT ? 0 : -errno;	/* a kernel without swap */
	while (!rc && getline(&line, &cap, f) > 0) {
		if (header) {	/* "Filename  Type  Size  Used  Priority" */
			header = false;
			continue;
		}
		line[strcspn(line, " \t\n")] = '\0';
		if (!*line)
			continue;
		systab_unescape(line);
		if (grow_room(&t->swaps, t->nr_swaps, sizeof(*t->swaps)) ||
		    !(t->swaps[t->nr_swaps] = strdup(line)))
			rc = -ENOMEM;
		else
			t->nr_swaps++;
	}
	if (!rc && ferror(f))
		rc = -EIO;
	free(line);
	fclose(f);
	return rc;
}

void systab_release(struct systab *t)
{
	for (size_t i = 0; i < t->nr_mounts; i++) {
		free(t->mounts[i].dir);
		free(t->mounts[i].fstype);
		free(t->mounts[i].source);
	}
	free(t->mounts);
	systab_names_free(t->swaps, t->nr_swaps);
	memset(t, 0, sizeof(*t));
}

const struct systab_mount *systab_mount_of(const struct systab *t, dev_t dev, const char *path)
{
	const struct systab_mount *best = NULL;
	size_t best_len = 0;

	for (size_t i = 0; i < t->nr_mounts; i++) {
		const struct systab_mount *m = &t->mounts[i];
		size_t n = strlen(m->dir);

		if (m->dev != dev)
			continue;
		if (path && strncmp(path, m->dir, n) && strcmp(m->dir, "/"))
			continue;
		if (n < best_len)
			continue;
		best = m;
		best_len = n;
	}
	return best;
}

/* version order, as discovery lists devices: md9 before md10 */
static int cmp_name(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

void systab_names_free(char **names, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(names[i]);
	free(names);
}

int systab_holders(const char *sysdir, char ***names, size_t *nr)
{
	char path[PATH_MAX + 16];
	struct dirent *de;
	DIR *d;
	int rc = 0;

	*names = NULL;
	*nr = 0;
	snprintf(path, sizeof(path), "%s/holders", sysdir);
	d = opendir(path);
	if (!d)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	while (!rc && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (grow_room(names, *nr, sizeof(**names)) || !((*names)[*nr] = strdup(de->d_name)))
			rc = -ENOMEM;
		else
			(*nr)++;
	}
	closedir(d);
	if (rc) {
		systab_names_free(*names, *nr);
		*names = NULL;
		*nr = 0;
		return rc;
	}
	if (*nr > 1)	/* qsort must not be handed a NULL base, even for 0 */
		qsort(*names, *nr, sizeof(**names), cmp_name);
	return 0;
}
