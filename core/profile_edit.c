/*
 * profile_edit.c - a profile with the user's knob values applied to every
 * job, as a job file: the overrides in a leading [global] section, the
 * original lines they replace commented out (profile_edit.h says why), then
 * checked by the real parser before anything uses it.
 *
 * Writes only the files it is asked to (the run's edited copy in the cache
 * directory, a user profile); never prints.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile_edit.h"
#include "userdir.h"

static const char *const drops_rw[] = { "rw", "readwrite", NULL };
static const char *const drops_bs[] = { "bs", "blocksize", "bsrange", "blocksize_range",
					"bssplit", NULL };
static const char *const drops_mix[] = { "rwmixread", "rwmixwrite", NULL };
static const char *const drops_qd[] = { "iodepth", NULL };
static const char *const drops_jobs[] = { "numjobs", NULL };
static const char *const drops_runtime[] = { "runtime", "timeout", NULL };
static const char *const drops_size[] = { "size", NULL };

const struct knob profile_knobs[KNOB_COUNT] = {
	[KNOB_RW] = { "rw", "pattern", "read write randread randwrite rw randrw", drops_rw },
	[KNOB_BS] = { "bs", "block size", "4k, 64k, 1m", drops_bs },
	[KNOB_RWMIX] = { "rwmixread", "read mix %", "70 (percent of mixed I/O that reads)",
			 drops_mix },
	[KNOB_IODEPTH] = { "iodepth", "queue depth", "1, 8, 32", drops_qd },
	[KNOB_NUMJOBS] = { "numjobs", "jobs", "1, 4, 16 (copies of each job)", drops_jobs },
	[KNOB_RUNTIME] = { "runtime", "runtime", "30 (seconds), 2m", drops_runtime },
	[KNOB_SIZE] = { "size", "size", "1g, 256m, 50%", drops_size },
};

static const char *const *drops_of(const char *key)
{
	size_t i;

	for (i = 0; i < KNOB_COUNT; i++)
		if (!strcmp(profile_knobs[i].key, key))
			return profile_knobs[i].drops;
	return NULL;
}

/* true when the option on this job file line is one an override replaces */
static bool overridden(const char *line, const struct cmd_opt *ov, size_t nr_ov)
{
	const char *p = line + strspn(line, " \t");
	size_t n = strcspn(p, "= \t\r\n"), i;

	if (!n || *p == ';' || *p == '#' || *p == '[')
		return false;
	for (i = 0; i < nr_ov; i++) {
		const char *const *d = drops_of(ov[i].key);

		if (!d) {
			if (strlen(ov[i].key) == n && !strncmp(p, ov[i].key, n))
				return true;
			continue;
		}
		for (; *d; d++)
			if (strlen(*d) == n && !strncmp(p, *d, n))
				return true;
	}
	return false;
}

char *profile_edit_text(const char *path, const char *header, const struct cmd_opt *ov,
			size_t nr_ov, char *err, size_t errlen)
{
	char *buf = NULL, *line = NULL;
	size_t len = 0, cap = 0, i;
	FILE *in = fopen(path, "re"), *out;

	if (!in) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	out = open_memstream(&buf, &len);
	if (!out) {
		fclose(in);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (header)
		fprintf(out, "; %s\n;\n", header);
	fprintf(out, "; Made by raidbench from %s.\n", path);
	if (nr_ov) {
		fputs("; These options apply to every job: they are set in the [global]\n"
		      "; section below, and the lines of the original that they replace\n"
		      "; are commented out with \";raidbench-override;\".\n", out);
		for (i = 0; i < nr_ov; i++)
			fprintf(out, ";   %s%s%s\n", ov[i].key, ov[i].value ? "=" : "",
				ov[i].value ? ov[i].value : "");
		fputs("[global]\n", out);
		for (i = 0; i < nr_ov; i++)
			fprintf(out, "%s%s%s\n", ov[i].key, ov[i].value ? "=" : "",
				ov[i].value ? ov[i].value : "");
	}
	fputc('\n', out);
	while (getline(&line, &cap, in) > 0) {
		if (overridden(line, ov, nr_ov))
			fputs(";raidbench-override; ", out);
		fputs(line, out);
		if (!strchr(line, '\n'))
			fputc('\n', out);
	}
	free(line);
	fclose(in);
	if (fclose(out)) {
		free(buf);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	return buf;
}

/* mkdir -p of the directory holding path, as core/userdir.h says */
static int make_parent(const char *path, char *err, size_t errlen)
{
	char dir[PATH_MAX], *p;

	snprintf(dir, sizeof(dir), "%s", path);
	p = strrchr(dir, '/');
	if (!p || p == dir)
		return 0;
	*p = '\0';
	return userdir_make(dir, err, errlen);
}

/* "/tmp/x.fio.Ab12Cd:14: option 'bs': ..." -> "option 'bs': ..." */
static void strip_place(char *err, const char *file)
{
	size_t n = strlen(file);
	char *p = err;

	if (strncmp(err, file, n) || err[n] != ':')
		return;
	p += n + 1;
	p += strspn(p, "0123456789");
	if (*p == ':')
		p++;
	p += strspn(p, " ");
	memmove(err, p, strlen(p) + 1);
}

int profile_edit_write(const char *text, const char *path, const struct cmd_opt *run_opts,
		       size_t nr_run, char *err, size_t errlen)
{
	char tmp[PATH_MAX + 16], *files[1];
	struct job_list check;
	size_t n = strlen(text);
	int fd, ret;

	ret = make_parent(path, err, errlen);
	if (ret)
		return ret;
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return ret;
	}
	fchmod(fd, 0644);	/* a job file like any other, not mkstemp's 0600 */
	if (write(fd, text, n) != (ssize_t)n || fsync(fd) < 0) {
		ret = errno ? -errno : -EIO;
		snprintf(err, errlen, "%s: %s", tmp, strerror(-ret));
		close(fd);
		unlink(tmp);
		return ret;
	}
	close(fd);
	files[0] = tmp;
	ret = jobs_load(&check, run_opts, nr_run, files, 1, err, errlen);
	if (ret) {
		strip_place(err, tmp);
		unlink(tmp);
		return ret;
	}
	job_list_release(&check);
	if (rename(tmp, path) < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		unlink(tmp);
		return ret;
	}
	return 0;
}

int profile_edit_cache_path(char *buf, size_t len, const char *name)
{
	char sub[NAME_MAX + 32];

	snprintf(sub, sizeof(sub), "profiles/%s-edited.fio", name);
	return userdir_path(USERDIR_CACHE, sub, buf, len, NULL, 0);
}

bool profile_name_ok(const char *name)
{
	const char *p;

	if (!*name || *name == '.' || *name == '-' || strlen(name) > 64)
		return false;
	for (p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_' && *p != '.')
			return false;
	return true;
}

bool profile_value_ok(const char *value)
{
	const char *p;

	if (!*value)
		return false;
	for (p = value; *p; p++)
		if (!isgraph((unsigned char)*p) || strchr(";#=[", *p))
			return false;
	return true;
}
