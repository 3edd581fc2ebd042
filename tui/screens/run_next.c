/*
 * run_next.c - the Run screen's "Next:" line: the chosen profile parsed
 * with the run's own defaults and knobs (tui/profile_choice.h), summed up as
 * phases, length and directions. Parsing happens only when the profile,
 * its knobs or the target changed.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "options.h"
#include "profile_choice.h"
#include "profile_set.h"
#include "run_next.h"

static void make_key(struct app *app, const char *path, char *key, size_t len)
{
	struct stat sb;
	size_t o;

	o = (size_t)snprintf(key, len, "%s|%lld|%s|%s|%d", path,
			     stat(path, &sb) ? 0LL : (long long)sb.st_mtime, app->target.path,
			     app->target.new_size, app->target.is_device);
	for (size_t i = 0; i < app->profile.nr_overrides && o < len; i++)
		o += (size_t)snprintf(key + o, len - o, "|%s=%s", app->profile.overrides[i].key,
				      app->profile.overrides[i].value ? app->profile.overrides[i].value : "");
}

/* "5 s", "2 min", "1 h 30 min" */
static void fmt_secs(char *buf, size_t len, unsigned long long s)
{
	if (s < 120)
		snprintf(buf, len, "%llu s", s);
	else if (s < 7200)
		snprintf(buf, len, "%llu min%s", s / 60, s % 60 ? " and more" : "");
	else
		snprintf(buf, len, "%llu h %llu min", s / 3600, s % 3600 / 60);
}

static void describe(struct run_next *n, struct app *app, const char *path)
{
	struct cmd_opt opts[4], over[81];
	struct job_list jl;
	char err[512], *files[1] = { (char *)path };
	size_t nr = profile_choice_run_opts(app, opts), no = 0, i, phases = 0, o = 0;
	unsigned long long total_s = 0, phase_s = 0, first_s = 0;
	bool reads = false, writes = false, open_ended = false, same = true;
	const char *target = app->target.path[0] ? app->target.path : "the scratch file (64m)";

	snprintf(n->what, sizeof(n->what), "%s on %s",
		 app->profile.name[0] ? app->profile.name : "default", target);
	over[no].key = "filename";
	over[no++].value = opts[0].value;
	for (i = 0; i < app->profile.nr_overrides && no < 80; i++)
		over[no++] = app->profile.overrides[i];
	memset(&jl, 0, sizeof(jl));
	if (jobs_load_over(&jl, opts, nr, files, 1, over, no, err, sizeof(err))) {
		profile_error_shorten(err, path);
		snprintf(n->how, sizeof(n->how), "the profile does not parse: %s", err);
		return;
	}
	for (i = 0; i < jl.nr; i++) {
		const struct job_spec *j = &jl.jobs[i];
		unsigned long long s = (j->runtime_us + j->ramp_time_us) / 1000000;
		char rw[16];

		/* a phase is what runs together: a stonewall starts the next one */
		if (!i || j->stonewall || j->new_group) {
			if (i) {
				total_s += phase_s;
				same = same && (phases == 1 || phase_s == first_s);
				if (phases == 1)
					first_s = phase_s;
			}
			phases++;
			phase_s = 0;
		}
		profile_fmt_rw(rw, sizeof(rw), j->rw);
		if (o < sizeof(n->how))
			o += (size_t)snprintf(n->how + o, sizeof(n->how) - o, "%s%s",
					      !i ? "" : j->stonewall || j->new_group ? ", " : "+", rw);
		open_ended = open_ended || !j->runtime_us;
		if (s > phase_s)
			phase_s = s;
		reads = reads || (j->rw & RW_READ) || j->verify_only;
		writes = writes || ((j->rw & (RW_WRITE | RW_TRIM)) && !j->verify_only);
	}
	total_s += phase_s;
	if (phases == 1)
		first_s = phase_s;
	same = same && phase_s == first_s;
	{
		char list[512], each[32], all[32], len[96];

		snprintf(list, sizeof(list), "%s", n->how);
		fmt_secs(each, sizeof(each), first_s);
		fmt_secs(all, sizeof(all), total_s);
		if (open_ended)
			snprintf(len, sizeof(len), "until each job has done its size");
		else if (same && phases > 1)
			snprintf(len, sizeof(len), "%s each, %s in all", each, all);
		else
			snprintf(len, sizeof(len), "%s in all", all);
		snprintf(n->how, sizeof(n->how), "%zu phase%s (%s); %s; %s", phases,
			 phases == 1 ? "" : "s", list, len,
			 writes && reads ? "reads and writes" : writes ? "writes" : "reads only");
	}
	job_list_release(&jl);
}

void run_next_update(struct run_next *n, struct app *app)
{
	char path[4096], key[sizeof(n->key)];

	if (app_run_profile_path(app, path, sizeof(path))) {
		snprintf(n->what, sizeof(n->what), "no profile: the default (profiles/default.fio) "
			 "was not found");
		n->how[0] = n->key[0] = '\0';
		return;
	}
	make_key(app, path, key, sizeof(key));
	if (!strcmp(key, n->key))
		return;
	snprintf(n->key, sizeof(n->key), "%s", key);
	n->how[0] = '\0';
	describe(n, app, path);
}
