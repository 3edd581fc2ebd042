/*
 * demo.c - where the bundled captures are and which ones the demo shows:
 * $RAIDBENCH_DEMO_DIR, else tests/fixtures/vendor next to the binary (a
 * build tree), else $(pkgdatadir)/demo. One capture set per tool, chosen to
 * show healthy, degraded and rebuilding arrays side by side. Nothing
 * here prints; the front end says what the error says.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "demo.h"

static const struct {
	const char *tool;	/* --import's TOOL */
	const char *file;	/* under the demo directory */
} captures[] = {
	{ "ssacli", "ssacli/ssacli_ctrl-all-show-config-detail_P440ar-2arrays.txt" },
	{ "storcli", "storcli/perccli_call-show-all-j_PERC-H755.json" },
	{ "storcli", "storcli/perccli_call-vall-show-all-j_PERC-H755-raid5.json" },
	{ "storcli", "storcli/perccli_call-eall-sall-show-all-j_PERC-H755.json" },
	{ "megacli", "megacli/MegaCli_LDPDInfo-aAll-NoLog_raid1-primary1-8drives-span1.txt" },
	{ "mdstat", "mdadm/proc-mdstat_degraded-raid5-faulty-F.txt" },
	{ "mdadm-detail", "mdadm/mdadm-detail_md126_raid1-degraded-recovering-30pct.txt" },
};
#define NR_CAPTURES (sizeof(captures) / sizeof(captures[0]))

static int has_all(const char *dir)
{
	char path[PATH_MAX];

	for (size_t i = 0; i < NR_CAPTURES; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, captures[i].file);
		if (access(path, R_OK))
			return 0;
	}
	return 1;
}

static int demo_dir(char *buf, size_t len)
{
	const char *env = getenv("RAIDBENCH_DEMO_DIR");
	char exe[PATH_MAX], *slash;
	ssize_t n;

	if (env && *env) {
		snprintf(buf, len, "%s", env);
		return has_all(buf) ? 0 : -ENOENT;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			snprintf(buf, len, "%s/tests/fixtures/vendor", exe);
			if (has_all(buf))
				return 0;
		}
	}
	snprintf(buf, len, "%s/demo", RB_DATADIR);
	return has_all(buf) ? 0 : -ENOENT;
}

int demo_imports(const char **out, size_t max, size_t *nr, char *err, size_t errlen)
{
	static char specs[NR_CAPTURES][PATH_MAX + 32];
	char dir[PATH_MAX];

	*nr = 0;
	if (demo_dir(dir, sizeof(dir))) {
		snprintf(err, errlen, "the demo's captures are not in %s (a build tree has them in "
			 "tests/fixtures/vendor; RAIDBENCH_DEMO_DIR names another place)", dir);
		return -ENOENT;
	}
	for (size_t i = 0; i < NR_CAPTURES && *nr < max; i++) {
		snprintf(specs[i], sizeof(specs[i]), "%s:%s/%s", captures[i].tool, dir,
			 captures[i].file);
		out[(*nr)++] = specs[i];
	}
	return 0;
}
