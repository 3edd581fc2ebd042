/*
 * profile_choice.c - the chosen profile and its knobs behind the Profiles
 * screen: follows app->profile, parses the profile as the run will read it
 * (the run's target first, then the edited copy when there are overrides),
 * and changes app->profile only after the parser accepted the change.
 *
 * Writes only the edited copy (cache directory) and, when asked, a user
 * profile; draws nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "profile_choice.h"
#include "profile_edit.h"
#include "tui_int.h"
#include "bufcat.h"

#define MAX_OV 32

size_t profile_choice_run_opts(struct app *app, struct cmd_opt *o)
{
	const char *t;
	size_t n = 0;

	if (!app->target.path[0] && !app->target.scratch[0])
		scratch_file(app->target.scratch, sizeof(app->target.scratch), false, NULL, 0);
	t = app->target.path[0] ? app->target.path : app->target.scratch;

	/* profiles say filename=${TARGET}; never touch the environment under a running engine */
	if (!app_run_active(app))
		setenv("TARGET", t, 1);
	o[n].key = "filename";
	o[n++].value = t;
	if (!app->target.path[0]) {
		/* the scratch file needs a size; a device gives its own */
		o[n].key = "size";
		o[n++].value = "64m";
	}
	/* profiles leave the run length to the user: CrystalDiskMark's 5 s a phase */
	o[n].key = "runtime";
	o[n++].value = "5";
	o[n].key = "time_based";
	o[n++].value = NULL;
	return n;
}

const char *profile_choice_override(const struct app *app, const char *key)
{
	size_t i;

	for (i = 0; i < app->profile.nr_overrides; i++)
		if (!strcmp(app->profile.overrides[i].key, key))
			return app->profile.overrides[i].value ? app->profile.overrides[i].value : "";
	return NULL;
}

static bool is_knob(const char *key)
{
	int k;

	for (k = 0; k < KNOB_COUNT; k++)
		if (!strcmp(profile_knobs[k].key, key))
			return true;
	return false;
}

/* Replaces app->profile's overrides by copies of ov. 0 or -ENOMEM (nothing changed). */
static int set_overrides(struct app *app, const struct cmd_opt *ov, size_t nr)
{
	size_t max = sizeof(app->profile.override_store) / sizeof(app->profile.override_store[0]);
	char *store[sizeof(app->profile.override_store) / sizeof(app->profile.override_store[0])];
	struct cmd_opt *arr = NULL;
	size_t i;

	if (2 * nr > max)
		nr = max / 2;
	memset(store, 0, sizeof(store));
	if (nr && !(arr = calloc(nr, sizeof(*arr))))
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		store[2 * i] = strdup(ov[i].key);
		store[2 * i + 1] = ov[i].value ? strdup(ov[i].value) : NULL;
		if (!store[2 * i] || (ov[i].value && !store[2 * i + 1])) {
			for (i = 0; i < max; i++)
				free(store[i]);
			free(arr);
			return -ENOMEM;
		}
		arr[i].key = store[2 * i];
		arr[i].value = store[2 * i + 1];
	}
	app_profile_clear(&app->profile);
	memcpy(app->profile.override_store, store, sizeof(store));
	app->profile.overrides = arr;
	app->profile.nr_overrides = nr;
	return 0;
}

/* "bs=64k, iodepth=32" */
static void describe_overrides(char *buf, size_t len, const struct cmd_opt *ov, size_t nr)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < nr && used < len; i++)
		used = bufcat(buf, len, used, "%s%s=%s", i ? ", " : "", ov[i].key,
					 ov[i].value ? ov[i].value : "");
}

/*
 * Parses the chosen profile with overrides ov (through the edited copy when
 * there are any) and, when it parses, keeps its jobs and command line.
 */
static int load(struct profile_choice *c, struct app *app, const struct cmd_opt *ov, size_t nr,
		char *err, size_t errlen)
{
	struct cmd_opt opts[4];
	size_t n = profile_choice_run_opts(app, opts);
	char path[PATH_MAX], header[1024], what[384], *files[1], *cmd;
	struct job_list jl;
	int ret;

	if (!c->base_path[0]) {
		snprintf(err, errlen, "no profile chosen and the default profile was not found");
		return -ENOENT;
	}
	if (nr) {
		char *text;

		if (profile_edit_cache_path(path, sizeof(path), c->base_name)) {
			snprintf(err, errlen, "no place for the edited profile: set XDG_CACHE_HOME");
			return -ENOENT;
		}
		describe_overrides(what, sizeof(what), ov, nr);
		snprintf(header, sizeof(header), "%s with %s (edited in raidbench)", c->base_name, what);
		text = profile_edit_text(c->base_path, header, ov, nr, err, errlen);
		if (!text)
			return -EIO;
		ret = profile_edit_write(text, path, opts, n, err, errlen);
		free(text);
		if (ret)
			return ret;
	} else {
		snprintf(path, sizeof(path), "%s", c->base_path);
	}
	files[0] = path;
	ret = jobs_load(&jl, opts, n, files, 1, err, errlen);
	if (ret) {
		profile_error_shorten(err, path);
		return ret;
	}
	cmd = jobs_to_cmdline(&jl);
	ret = profile_info_fill(&c->eff, &jl);
	job_list_release(&jl);
	if (ret || !cmd) {
		free(cmd);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	free(c->cmdline);
	c->cmdline = cmd;
	if (nr)
		snprintf(c->edited_path, sizeof(c->edited_path), "%s", path);
	return 0;
}

static void recompute(struct profile_choice *c, struct app *app)
{
	c->error[0] = '\0';
	free(c->cmdline);
	c->cmdline = NULL;
	profile_info_release(&c->eff);
	if (load(c, app, app->profile.overrides, app->profile.nr_overrides, c->error,
		 sizeof(c->error)))
		return;
	if (app->profile.nr_overrides)
		snprintf(app->profile.path, sizeof(app->profile.path), "%s", c->edited_path);
}

void profile_choice_sync(struct profile_choice *c, struct app *app, const struct profile_set *set,
			 bool force)
{
	const char *name = app->profile.name[0] ? app->profile.name : "default";
	const char *path = app->profile.path;
	bool same = !strcmp(name, c->base_name) &&
		    ((!path[0] && c->implicit) || !strcmp(path, c->base_path) ||
		     (c->edited_path[0] && !strcmp(path, c->edited_path)));

	if (same && !force)
		return;
	if (!same) {
		/* something else chose: follow it */
		int i = profile_set_find(set, name);

		snprintf(c->base_name, sizeof(c->base_name), "%s", name);
		c->implicit = !path[0];
		if (path[0])
			snprintf(c->base_path, sizeof(c->base_path), "%s", path);
		else
			snprintf(c->base_path, sizeof(c->base_path), "%s", i >= 0 ? set->p[i].path : "");
		c->edited_path[0] = '\0';
	}
	recompute(c, app);
}

void profile_choice_choose(struct profile_choice *c, struct app *app,
			   const struct profile_set *set, const struct profile_info *p)
{
	app_profile_clear(&app->profile);
	snprintf(app->profile.name, sizeof(app->profile.name), "%s", p->name);
	snprintf(app->profile.path, sizeof(app->profile.path), "%s", p->path);
	profile_choice_sync(c, app, set, true);
}

void profile_choice_knob_values(const struct profile_choice *c, int k, char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < c->eff.nr_jobs; i++) {
		const struct profile_job *j = &c->eff.jobs[i];
		char v[48], *p = buf;
		bool dup = false;

		switch (k) {
		case KNOB_RW:
			snprintf(v, sizeof(v), "%s", j->rw);
			break;
		case KNOB_BS:
			snprintf(v, sizeof(v), "%s", j->bs);
			break;
		case KNOB_RWMIX:
			if (!j->mixed)
				continue;
			snprintf(v, sizeof(v), "%u", j->rwmixread);
			break;
		case KNOB_IODEPTH:
			snprintf(v, sizeof(v), "%u", j->iodepth);
			break;
		case KNOB_NUMJOBS:
			snprintf(v, sizeof(v), "%u", j->numjobs);
			break;
		case KNOB_RUNTIME:
			snprintf(v, sizeof(v), "%s", j->runtime);
			break;
		default:
			snprintf(v, sizeof(v), "%s", j->size);
			break;
		}
		/* distinct values only, in the order of the jobs */
		while (*p) {
			size_t m = strcspn(p, "/");

			if (m == strlen(v) && !strncmp(p, v, m))
				dup = true;
			p += m + (p[m] == '/');
		}
		if (!dup && used < len)
			used = bufcat(buf, len, used, "%s%s", used ? "/" : "", v);
	}
	if (!buf[0])
		snprintf(buf, len, k == KNOB_RWMIX ? "(no mixed jobs)" : "-");
}

int profile_choice_set_knob(struct profile_choice *c, struct app *app, int k, const char *value,
			    char *err, size_t errlen)
{
	struct cmd_opt cand[MAX_OV];
	char why[768];
	size_t n = 0, i;
	int j;

	/* the knobs in table order, then any other override someone else set */
	for (j = 0; j < KNOB_COUNT && n < MAX_OV; j++) {
		const char *v = j == k ? value : profile_choice_override(app, profile_knobs[j].key);

		if (v && *v) {
			cand[n].key = profile_knobs[j].key;
			cand[n++].value = v;
		}
	}
	for (i = 0; i < app->profile.nr_overrides && n < MAX_OV; i++)
		if (!is_knob(app->profile.overrides[i].key))
			cand[n++] = app->profile.overrides[i];
	/* checked before anything changes: a refused value leaves the last good state */
	if (load(c, app, cand, n, why, sizeof(why))) {
		snprintf(err, errlen, "%s not set: %s", profile_knobs[k].label, why);
		return -EINVAL;
	}
	/* nothing chosen yet: the knobs edit the profile the run would take */
	if (!app->profile.name[0]) {
		snprintf(app->profile.name, sizeof(app->profile.name), "%s", c->base_name);
		c->implicit = false;
	}
	if (set_overrides(app, cand, n)) {
		snprintf(err, errlen, "out of memory");
		recompute(c, app);
		return -ENOMEM;
	}
	snprintf(app->profile.path, sizeof(app->profile.path), "%s",
		 n ? c->edited_path : c->base_path);
	return 0;
}

int profile_choice_save(struct profile_choice *c, struct app *app, const struct profile_set *set,
			const char *name, char *err, size_t errlen)
{
	struct cmd_opt opts[4];
	size_t n = profile_choice_run_opts(app, opts);
	char dir[PATH_MAX], path[PATH_MAX + 160], header[768], what[384], why[768];
	struct stat sb;
	char *text;
	int i, ret;

	if (!profile_name_ok(name)) {
		snprintf(err, errlen, "'%s' is not a profile name: use letters, digits, '-', '_' and '.'",
			 name);
		return -EINVAL;
	}
	if (profile_user_dir(dir, sizeof(dir))) {
		snprintf(err, errlen, "no place for user profiles: set XDG_CONFIG_HOME");
		return -ENOENT;
	}
	snprintf(path, sizeof(path), "%s/%s.fio", dir, name);
	i = profile_set_find(set, name);
	if (stat(path, &sb) == 0 || (i >= 0 && set->p[i].user)) {
		snprintf(err, errlen, "a user profile named %s exists: choose another name", name);
		return -EEXIST;
	}
	if (i >= 0) {
		snprintf(err, errlen, "%s is a built-in profile: choose another name", name);
		return -EEXIST;
	}
	describe_overrides(what, sizeof(what), app->profile.overrides, app->profile.nr_overrides);
	if (app->profile.nr_overrides)
		snprintf(header, sizeof(header), "%s: %s with %s", name, c->base_name, what);
	else
		snprintf(header, sizeof(header), "%s: a copy of %s", name, c->base_name);
	/* from the original, not the edited copy: one comment block, not two */
	text = profile_edit_text(c->base_path, header, app->profile.overrides,
				 app->profile.nr_overrides, err, errlen);
	if (!text)
		return -EIO;
	ret = profile_edit_write(text, path, opts, n, why, sizeof(why));
	free(text);
	if (ret)
		snprintf(err, errlen, "not saved: %s", why);
	return ret;
}

void profile_choice_release(struct profile_choice *c)
{
	profile_info_release(&c->eff);
	free(c->cmdline);
	c->cmdline = NULL;
}
