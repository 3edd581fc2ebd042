/*
 * demo.c - where the bundled captures are and which ones the demo shows:
 * $RAIDBENCH_DEMO_DIR, else tests/fixtures/vendor next to the binary (a
 * build tree), else $(pkgdatadir)/demo; the list is that directory's
 * demo.list (data, so no tool is named here). Nothing here prints; the
 * front end says what the error says.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "demo.h"

#define DEMO_MAX 32

/* A directory holding demo.list and every capture it names. */
static int usable(const char *dir)
{
	char path[PATH_MAX], line[PATH_MAX];
	FILE *f;
	int ok = 1, n = 0;

	snprintf(path, sizeof(path), "%s/demo.list", dir);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (ok && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		line[strcspn(line, "\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, colon ? colon + 1 : "");
		ok = colon && access(path, R_OK) == 0;
		n++;
	}
	fclose(f);
	return ok && n;
}

static int demo_dir(char *buf, size_t len)
{
	const char *env = getenv("RAIDBENCH_DEMO_DIR");
	char exe[PATH_MAX], *slash;
	ssize_t n;

	if (env && *env) {
		snprintf(buf, len, "%s", env);
		return usable(buf) ? 0 : -ENOENT;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			snprintf(buf, len, "%s/tests/fixtures/vendor", exe);
			if (usable(buf))
				return 0;
		}
	}
	snprintf(buf, len, "%s/demo", RB_DATADIR);
	return usable(buf) ? 0 : -ENOENT;
}

int demo_imports(const char **out, size_t max, size_t *nr, char *err, size_t errlen)
{
	static char specs[DEMO_MAX][PATH_MAX + 32];
	char dir[PATH_MAX], path[PATH_MAX + 16], line[PATH_MAX];
	FILE *f;

	*nr = 0;
	if (demo_dir(dir, sizeof(dir))) {
		snprintf(err, errlen, "the demo's captures are not in %s (a build tree has them in "
			 "tests/fixtures/vendor; RAIDBENCH_DEMO_DIR names another place)", dir);
		return -ENOENT;
	}
	snprintf(path, sizeof(path), "%s/demo.list", dir);
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	while (*nr < max && *nr < DEMO_MAX && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		line[strcspn(line, "\n")] = '\0';
		if (!line[0] || line[0] == '#' || !colon)
			continue;
		*colon = '\0';
		snprintf(specs[*nr], sizeof(specs[*nr]), "%s:%s/%s", line, dir, colon + 1);
		out[*nr] = specs[*nr];
		(*nr)++;
	}
	fclose(f);
	return 0;
}
