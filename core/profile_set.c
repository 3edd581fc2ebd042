/*
 * profile_set.c - finds the built-in and user profiles, reads each one's
 * summary line and parses it with the run's target so the Profiles screen
 * can show its phases (job, pattern, block size, queue depth, jobs).
 *
 * Reads files only; never writes, never prints.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "engine.h"
#include "profile_set.h"
#include "grow.h"
#include "strmap.h"
#include "userdir.h"

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

void profile_builtin_dir(char *buf, size_t len)
{
	const char *env = getenv("RAIDBENCH_PROFILE_DIR");
	char exe[PATH_MAX];
	ssize_t n;

	if (env && *env) {
		snprintf(buf, len, "%s", env);
		return;
	}
	/* a build tree: profiles/ sits next to the binary */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		char *slash;

		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			snprintf(buf, len, "%s/profiles", exe);
			if (is_dir(buf))
				return;
		}
	}
	snprintf(buf, len, "%s/profiles", RB_DATADIR);
}

int profile_user_dir(char *buf, size_t len)
{
	return userdir_path(USERDIR_CONFIG, "profiles", buf, len, NULL, 0);
}

int profile_set_find(const struct profile_set *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->p[i].name, name))
			return (int)i;
	return -1;
}

void profile_summary(const char *path, char *buf, size_t len)
{
	char line[1024];
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		char *p = line + strspn(line, " \t");

		if (*p == '[')
			break;		/* the summary comes before the first section */
		if (*p != ';' && *p != '#')
			continue;
		p += 1 + strspn(p + 1, " \t");
		p[strcspn(p, "\r\n")] = '\0';
		if (*p) {
			snprintf(buf, len, "%s", p);
			break;
		}
	}
	if (f)
		fclose(f);
}

/*
 * Adds dir's *.fio; a name already present (a user profile, read first: in
 * seen) wins. A missing directory is an empty one; one that cannot be read
 * is -errno with "dir: why" appended to err.
 */
static int scan(struct profile_set *s, struct strmap *seen, const char *dir, bool user,
		char *err, size_t errlen)
{
	size_t dup;

	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d) {
		int e = errno;
		size_t used = strnlen(err, errlen);

		if (e == ENOENT)
			return 0;
		if (used + 1 < errlen)
			snprintf(err + used, errlen - used, "%s%s: %s", used ? "; " : "", dir,
				 strerror(e));
		return -e;
	}
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);
		struct profile_info *grown;

		if (de->d_name[0] == '.' || n < 5 || n - 4 >= sizeof(s->p->name) ||
		    strcmp(de->d_name + n - 4, ".fio"))
			continue;
		de->d_name[n - 4] = '\0';
		if (strmap_get(seen, de->d_name, &dup))
			continue;
		if (grow_room(&s->p, s->nr, sizeof(*s->p)) || strmap_put(seen, de->d_name, s->nr)) {
			closedir(d);
			return -ENOMEM;
		}
		grown = s->p;
		grown += s->nr++;
		memset(grown, 0, sizeof(*grown));
		snprintf(grown->name, sizeof(grown->name), "%.*s", (int)sizeof(grown->name) - 1,
			 de->d_name);
		snprintf(grown->path, sizeof(grown->path), "%s/%s.fio", dir, de->d_name);
		grown->user = user;
	}
	closedir(d);
	return 0;
}

static int cmp_profiles(const void *a, const void *b)
{
	return strcmp(((const struct profile_info *)a)->name,
		      ((const struct profile_info *)b)->name);
}

void profile_error_shorten(char *err, const char *path)
{
	size_t n = strlen(path);
	const char *base = strrchr(path, '/');

	if (!base || strncmp(err, path, n) || err[n] != ':')
		return;
	base++;
	memmove(err + strlen(base), err + n, strlen(err + n) + 1);
	memcpy(err, base, strlen(base));
}

void profile_fmt_rw(char *buf, size_t len, unsigned rw)
{
	const char *rnd = rw & RW_RANDOM ? "rand" : "";

	if ((rw & RW_TRIM) && (rw & RW_WRITE))
		snprintf(buf, len, "%strimwrite", rnd);
	else if (rw & RW_TRIM)
		snprintf(buf, len, "%strim", rnd);
	else if ((rw & RW_READ) && (rw & RW_WRITE))
		snprintf(buf, len, "%srw", rnd);
	else if (rw & RW_WRITE)
		snprintf(buf, len, "%swrite", rnd);
	else
		snprintf(buf, len, "%sread", rnd);
}

void profile_fmt_bytes(char *buf, size_t len, unsigned long long v)
{
	static const char units[] = "kmgt";
	int i = -1;

	while (v && v % 1024 == 0 && i < 3) {
		v /= 1024;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, "%llu", v);
	else
		snprintf(buf, len, "%llu%c", v, units[i]);
}

static void fill_job(struct profile_job *pj, const struct job_spec *j)
{
	int d = (j->rw & RW_READ) ? DDIR_READ : (j->rw & RW_WRITE) ? DDIR_WRITE : DDIR_TRIM;
	const struct io_engine_ops *eng;
	char a[24], b[24];

	snprintf(pj->name, sizeof(pj->name), "%s", j->name ? j->name : "?");
	snprintf(pj->desc, sizeof(pj->desc), "%s", j->description ? j->description : "");
	profile_fmt_rw(pj->rw, sizeof(pj->rw), j->rw);
	if (j->nr_bssplit[d]) {
		snprintf(pj->bs, sizeof(pj->bs), "bssplit");
	} else {
		profile_fmt_bytes(a, sizeof(a), j->bs[d]);
		profile_fmt_bytes(b, sizeof(b), j->bs_max[d]);
		snprintf(pj->bs, sizeof(pj->bs), j->bs_max[d] > j->bs[d] ? "%s-%s" : "%s", a, b);
	}
	pj->iodepth = j->iodepth;
	eng = j->ioengine ? engine_find(j->ioengine) : engine_at(0);	/* fio's default */
	/* an engine that completes in its syscall does one I/O at a time per job (core/worker.c) */
	pj->depth = eng && (eng->flags & ENGINE_F_SYNC) ? 1 : j->iodepth;
	pj->numjobs = j->numjobs;
	pj->rwmixread = j->rwmixread;
	pj->mixed = (j->rw & RW_READ) && (j->rw & RW_WRITE);
	if (!j->runtime_us)
		snprintf(pj->runtime, sizeof(pj->runtime), "none");
	else if (j->runtime_us % 1000000)
		snprintf(pj->runtime, sizeof(pj->runtime), "%llums%s",
			 (unsigned long long)(j->runtime_us / 1000), j->time_based ? ", time_based" : "");
	else
		snprintf(pj->runtime, sizeof(pj->runtime), "%llus%s",
			 (unsigned long long)(j->runtime_us / 1000000), j->time_based ? ", time_based" : "");
	if (j->size_percent)
		snprintf(pj->size, sizeof(pj->size), "%u%%", j->size_percent);
	else if (j->size)
		profile_fmt_bytes(pj->size, sizeof(pj->size), (unsigned long long)j->size);
	else
		snprintf(pj->size, sizeof(pj->size), "target's");
	pj->groupid = j->groupid;
}

int profile_info_fill(struct profile_info *p, const struct job_list *jl)
{
	size_t i;

	free(p->jobs);
	p->jobs = NULL;
	p->nr_jobs = 0;
	p->nr_phases = 0;
	if (!jl->nr)
		return 0;
	p->jobs = calloc(jl->nr, sizeof(*p->jobs));
	if (!p->jobs)
		return -ENOMEM;
	for (i = 0; i < jl->nr; i++) {
		fill_job(&p->jobs[i], &jl->jobs[i]);
		if (!i || jl->jobs[i].groupid != jl->jobs[i - 1].groupid)
			p->nr_phases++;
	}
	p->nr_jobs = jl->nr;
	return 0;
}

void profile_info_release(struct profile_info *p)
{
	free(p->jobs);
	p->jobs = NULL;
	p->nr_jobs = 0;
}

int profile_set_list(struct profile_set *s, char *err, size_t errlen)
{
	struct strmap seen;
	char dir[PATH_MAX], why[2 * PATH_MAX + 64] = "";
	int ret = 0, r;

	memset(s, 0, sizeof(*s));
	strmap_init(&seen);
	if (!profile_user_dir(dir, sizeof(dir)))
		ret = scan(s, &seen, dir, true, why, sizeof(why));
	profile_builtin_dir(dir, sizeof(dir));
	if (ret != -ENOMEM && (r = scan(s, &seen, dir, false, why, sizeof(why))) && !ret)
		ret = r;
	strmap_release(&seen);
	if (ret == -ENOMEM) {
		profile_set_release(s);
		return ret;
	}
	if (s->nr)
		qsort(s->p, s->nr, sizeof(*s->p), cmp_profiles);
	if (ret && errlen)
		snprintf(err, errlen, "%s", why);
	return ret;
}

int profile_set_load(struct profile_set *s, const struct cmd_opt *opts, size_t nr_opts)
{
	size_t i;
	int ret;

	/* the screen lists what it can read: an unreadable directory is an empty one */
	ret = profile_set_list(s, NULL, 0);
	if (ret == -ENOMEM)
		return ret;
	for (i = 0; i < s->nr; i++) {
		struct profile_info *p = &s->p[i];
		struct job_list jl;
		char *files[1] = { p->path };

		profile_summary(p->path, p->summary, sizeof(p->summary));
		if (jobs_load(&jl, opts, nr_opts, files, 1, p->error, sizeof(p->error))) {
			profile_error_shorten(p->error, p->path);
			continue;
		}
		ret = profile_info_fill(p, &jl);
		job_list_release(&jl);
		if (ret) {
			profile_set_release(s);
			return ret;
		}
	}
	return 0;
}

void profile_set_release(struct profile_set *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		profile_info_release(&s->p[i]);
	free(s->p);
	s->p = NULL;
	s->nr = 0;
}
