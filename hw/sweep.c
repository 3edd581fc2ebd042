/*
 * sweep.c - the RAID-level sweep of sweep.h: per level, create the array,
 * wait for (or note) its parity initialization, run the profile on the new
 * logical drive's OS device, save the result tagged with level, strip size
 * and drive count, delete the array; every create and delete bracketed by
 * the journal (hw/sweep_journal.c). The vendor-tool steps live in
 * hw/sweep_array.c.
 *
 * No curses, never prints: progress and failures go to the callbacks.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "sweep_int.h"
#include "config.h"
#include "guard.h"
#include "identity.h"
#include "options.h"
#include "profile_set.h"
#include "report.h"
#include "results.h"
#include "run.h"
#include "bufcat.h"

#define DEFAULT_RUNTIME_S 30
#define DEFAULT_POLL_MS 2000
#define DEFAULT_INIT_TIMEOUT_S (24 * 3600)
#define SKIP_LEVEL 1		/* do_level(): the tool refused; nothing to clean up */

struct sweep_ctx {
	const struct sweep_plan *plan;
	const struct sweep_callbacks *cb;
	struct sweep_report *rep;
	struct sweep_tool tool;
	struct inventory inv;
	char profile[PATH_MAX];
	struct sweep_pending_array entry;	/* the array of the current level */
};

/* ---- events ------------------------------------------------------------------ */

void sweep_emit(const struct sweep_callbacks *cb, enum sweep_event_kind kind,
		const struct sweep_event *tmpl)
{
	struct sweep_event ev = *tmpl;

	ev.kind = kind;
	if (cb && cb->progress)
		cb->progress(cb->arg, &ev);
}

void sweep_emitf(const struct sweep_callbacks *cb, enum sweep_event_kind kind,
		 const char *level, const char *fmt, ...)
{
	struct sweep_event ev = { .level = level, .progress_pct = -1 };
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ev.message = msg;
	sweep_emit(cb, kind, &ev);
}

static void emit_level(struct sweep_ctx *x, enum sweep_event_kind kind, size_t i,
		       struct sweep_event ev)
{
	ev.index = i;
	ev.count = x->rep->nr_levels;
	ev.level = x->rep->levels[i].level;
	sweep_emit(x->cb, kind, &ev);
}

static bool interrupted(const struct sweep_callbacks *cb)
{
	return cb && cb->interrupt && *cb->interrupt;
}

int sweep_fail(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return ret;
}

/* ---- the plan ------------------------------------------------------------------ */

void sweep_report_release(struct sweep_report *r)
{
	for (size_t i = 0; r && i < r->nr_levels; i++) {
		free(r->levels[i].command);
		free(r->levels[i].warnings);
		free(r->levels[i].phases);
	}
	if (r) {
		free(r->levels);
		memset(r, 0, sizeof(*r));
	}
}

/* A profile name (user profiles win, as for `raidbench profiles`) or a job file's path. */
static int find_profile(const char *name, char *path, size_t len, char *err, size_t errlen)
{
	char dir[PATH_MAX];

	if (!name || !*name)
		return sweep_fail(err, errlen, -EINVAL, "which profile? (raidbench profiles lists them)");
	if (strchr(name, '/')) {
		snprintf(path, len, "%s", name);
		if (access(path, R_OK))
			return sweep_fail(err, errlen, -errno, "%s: %s", name, strerror(errno));
		return 0;
	}
	if (!profile_user_dir(dir, sizeof(dir))) {
		snprintf(path, len, "%s/%s.fio", dir, name);
		if (!access(path, R_OK))
			return 0;
	}
	profile_builtin_dir(dir, sizeof(dir));
	snprintf(path, len, "%s/%s.fio", dir, name);
	if (!access(path, R_OK))
		return 0;
	return sweep_fail(err, errlen, -ENOENT, "no profile named '%s' (raidbench profiles lists them)",
		    name);
}

/* The job list of the profile on target; every job must write only there. */
static int load_jobs(const struct sweep_ctx *x, const char *target, struct job_list *jl,
		     char *err, size_t errlen)
{
	const struct sweep_plan *p = x->plan;
	char runtime[32], why[1024] = "", *files[1] = { (char *)x->profile };
	struct cmd_opt defs[2], over[4];
	size_t nd = 0, no = 0;
	int ret;

	/* the user's target, run length and size win over the profile's own */
	snprintf(runtime, sizeof(runtime), "%u", p->runtime_s ? p->runtime_s : DEFAULT_RUNTIME_S);
	over[no++] = (struct cmd_opt){ "filename", target };
	if (p->runtime_s) {
		over[no++] = (struct cmd_opt){ "runtime", runtime };
		over[no++] = (struct cmd_opt){ "time_based", NULL };
	} else {
		defs[nd++] = (struct cmd_opt){ "runtime", runtime };
		defs[nd++] = (struct cmd_opt){ "time_based", NULL };
	}
	if (p->size && *p->size)
		over[no++] = (struct cmd_opt){ "size", p->size };
	ret = jobs_load_over(jl, defs, nd, files, 1, over, no, why, sizeof(why));
	if (ret)
		return sweep_fail(err, errlen, ret, "profile: %s", why);
	for (size_t i = 0; i < jl->nr; i++) {
		const struct job_spec *j = &jl->jobs[i];

		if (j->nr_directories || j->nr_filenames != 1 || strcmp(j->filenames[0], target)) {
			job_list_release(jl);
			return sweep_fail(err, errlen, -EINVAL, "profile %s: job '%s' names its own target "
				    "(filename=/directory=); a sweep profile must leave the target to "
				    "the sweep", x->profile, j->name);
		}
	}
	return 0;
}

static void level_estimate(struct sweep_level *lv, int64_t drive_bytes, bool md)
{
	/* md's RAID 1 over N devices is one N-way mirror; a controller's is mirrored pairs */
	raid_estimate(lv->level, lv->drives, md && !strcmp(lv->level, "1") ? 1 : 0, drive_bytes,
		      &lv->est);
}

/* Reads the tool, binds the controller, fills the report's levels with command or refusal. */
static int prepare(struct sweep_ctx *x, char *err, size_t errlen)
{
	const struct sweep_plan *p = x->plan;
	struct sweep_report *r = x->rep;
	int ret, refused = 0;

	memset(r, 0, sizeof(*r));
	if (!p->nr_drives || !p->nr_levels)
		return sweep_fail(err, errlen, -EINVAL, "a sweep needs drives and at least one level");
	r->levels = calloc(p->nr_levels, sizeof(*r->levels));
	if (!r->levels)
		return sweep_fail(err, errlen, -ENOMEM, "out of memory");
	r->nr_levels = p->nr_levels;
	ret = sweep_tool_find(&x->tool, p->tool, err, errlen);
	if (ret)
		return ret;
	x->tool.timeout_ms = p->tool_timeout_ms;
	snprintf(r->tool, sizeof(r->tool), "%s", x->tool.ops->name);
	ret = sweep_tool_read(&x->tool, &x->inv, err, errlen) ?:
	      sweep_tool_controller(&x->tool, p->controller, &x->inv, err, errlen);
	if (ret)
		return ret;
	snprintf(r->controller, sizeof(r->controller), "%s", x->tool.controller);
	r->drive_bytes = sweep_drive_bytes(&x->tool, &x->inv, p->drives, p->nr_drives);
	for (size_t i = 0; i < p->nr_levels; i++) {
		struct sweep_level *lv = &r->levels[i];
		const char *norm = inv_normalize_raid_level(p->levels[i]);
		struct raidtool_argv av;

		snprintf(lv->level, sizeof(lv->level), "%s", norm ? norm : p->levels[i]);
		lv->drives = (unsigned)p->nr_drives;
		lv->strip_bytes = p->strip_bytes;
		lv->size_bytes = -1;
		level_estimate(lv, r->drive_bytes, !x->tool.ops->controller_id);
		for (size_t k = 0; k < i; k++)
			if (!strcmp(r->levels[k].level, lv->level)) {
				snprintf(lv->error, sizeof(lv->error), "listed twice");
				break;
			}
		if (*lv->error ||
		    sweep_build_create(&x->tool, &x->inv, lv->level, p->drives, p->nr_drives,
				       p->strip_bytes, &av, &lv->command, &lv->warnings, lv->error,
				       sizeof(lv->error))) {
			lv->state = SWEEP_REFUSED;
			if (!refused++)
				snprintf(err, errlen, "RAID %s: %s", lv->level, lv->error);
			continue;
		}
		raidtool_argv_release(&av);
	}
	return refused ? -EINVAL : 0;
}

int sweep_preview(const struct sweep_plan *plan, struct sweep_report *report, char *err,
		  size_t errlen)
{
	struct sweep_ctx x = { .plan = plan, .rep = report };
	struct job_list jl;
	int ret = prepare(&x, err, errlen);

	/* the profile is checked as the real sweep checks it, so a preview promises no more */
	if (!ret || ret == -EINVAL) {
		int pret = find_profile(plan->profile, x.profile, sizeof(x.profile), err, errlen);

		if (!pret && !(pret = load_jobs(&x, "/dev/null", &jl, err, errlen)))
			job_list_release(&jl);
		if (pret)
			ret = pret == -EINVAL ? -ENOENT : pret;
	}
	inventory_release(&x.inv);
	return ret;
}

/* ---- saving a level's result ------------------------------------------------------ */

/* results_save's identify hook has no argument: the level being saved, per thread. */
static _Thread_local const struct sweep_level *saving;

static int sweep_identify(const char *path, struct results_identity *id)
{
	int ret = identity_probe(path, id);

	/* the vendor tool knows the logical drive better than sysfs does */
	if (saving && !strcmp(path, saving->os_device)) {
		snprintf(id->raid_level, sizeof(id->raid_level), "%s", saving->level);
		if (saving->strip_bytes >= 0)
			id->strip_size_bytes = saving->strip_bytes;
		id->members = (int)saving->drives;
	}
	return ret;
}

static char *sweep_json(const struct sweep_ctx *x, const struct sweep_level *lv)
{
	json_object *o = json_object_new_object(), *d = json_object_new_array(), *e;
	char *s;

	json_object_object_add(o, "level", json_object_new_string(lv->level));
	json_object_object_add(o, "strip_size_bytes", lv->strip_bytes >= 0 ?
			       json_object_new_int64(lv->strip_bytes) : NULL);
	json_object_object_add(o, "drives", json_object_new_int((int)lv->drives));
	for (size_t i = 0; i < x->plan->nr_drives; i++)
		json_object_array_add(d, json_object_new_string(x->plan->drives[i]));
	json_object_object_add(o, "drive_ids", d);
	json_object_object_add(o, "initializing", json_object_new_boolean(lv->initializing));
	json_object_object_add(o, "tool", json_object_new_string(x->tool.ops->name));
	json_object_object_add(o, "controller", *x->tool.controller ?
			       json_object_new_string(x->tool.controller) : NULL);
	json_object_object_add(o, "logical_drive", json_object_new_string(lv->ld));
	json_object_object_add(o, "size_bytes", lv->size_bytes >= 0 ?
			       json_object_new_int64(lv->size_bytes) : NULL);
	if (lv->est.write_penalty) {
		e = json_object_new_object();
		json_object_object_add(e, "rand_read_x", json_object_new_double(lv->est.rand_read_x));
		json_object_object_add(e, "rand_write_x", json_object_new_double(lv->est.rand_write_x));
		json_object_object_add(e, "seq_read_x", json_object_new_double(lv->est.seq_read_x));
		json_object_object_add(e, "seq_write_x", json_object_new_double(lv->est.seq_write_x));
		json_object_object_add(e, "write_penalty", json_object_new_int((int)lv->est.write_penalty));
		json_object_object_add(e, "fault_tolerance", json_object_new_string(lv->est.tolerance));
		json_object_object_add(o, RAID_ESTIMATE_LABEL, e);
	}
	s = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return s;
}

static const struct job_spec *job_named(const struct job_list *jl, const char *name, int group)
{
	size_t n = strcspn(name, "#");

	for (size_t i = 0; i < jl->nr; i++)
		if (!strncmp(jl->jobs[i].name, name, n) && !jl->jobs[i].name[n] &&
		    jl->jobs[i].groupid == group)
			return &jl->jobs[i];
	return NULL;
}

/* The phases of the saved result, each with its textbook multiple. */
static void load_phases(struct sweep_level *lv, const struct job_list *jl)
{
	struct result r;
	char why[512];

	if (result_load(&r, lv->result_path, why, sizeof(why)))
		return;
	lv->phases = calloc(r.nr_phases ? r.nr_phases : 1, sizeof(*lv->phases));
	for (size_t i = 0; lv->phases && i < r.nr_phases; i++) {
		const struct result_phase *rp = &r.phases[i];
		const struct job_spec *j = job_named(jl, rp->name, rp->groupid);
		struct sweep_phase *ph = &lv->phases[lv->nr_phases];
		unsigned read_pct;

		if (rp->ddir != DDIR_READ && rp->ddir != DDIR_WRITE)
			continue;
		snprintf(ph->name, sizeof(ph->name), "%s", rp->name);
		ph->ddir = rp->ddir;
		ph->iops = rp->iops;
		ph->bw_bytes = rp->bw_bytes;
		ph->p99_ns = rp->lat_p99_ns;
		if (j) {
			bool mixed = (j->rw & RW_READ) && (j->rw & RW_WRITE);

			ph->sequential = !(j->rw & RW_RANDOM);
			read_pct = mixed ? j->rwmixread : rp->ddir == DDIR_READ ? 100 : 0;
			ph->estimate_x = lv->est.write_penalty ?
				raid_estimate_factor(&lv->est, read_pct, ph->sequential) : 0;
		}
		lv->nr_phases++;
	}
	result_release(&r);
}

/* Runs the profile on the level's OS device and saves the result. */
static int measure(struct sweep_ctx *x, size_t i, char *err, size_t errlen)
{
	struct sweep_level *lv = &x->rep->levels[i];
	char *allow[1] = { lv->os_device }, why[4096] = "", *sj;
	struct guard_consent consent = { allow, 1, false };
	struct run_params params = { &consent, x->cb ? x->cb->observer : NULL,
				     x->cb ? x->cb->interrupt : NULL };
	struct results_extra extra = { "sweep", NULL };
	struct job_list jl = { 0 };
	struct run_result res;
	struct run_report rep;
	int ret;

	ret = load_jobs(x, lv->os_device, &jl, err, errlen);
	if (ret)
		return ret;
	emit_level(x, SWEEP_EV_RUN_START, i, (struct sweep_event){ .os_device = lv->os_device,
		   .message = x->profile, .ld = lv->ld, .progress_pct = -1 });
	if (x->cb && x->cb->run)
		ret = x->cb->run(x->cb->arg, &jl, &params, &res, why, sizeof(why));
	else
		ret = run_jobs(&jl, &params, &res, why, sizeof(why));
	if (ret) {
		run_result_release(&res);
		job_list_release(&jl);
		return sweep_fail(err, errlen, ret, "the run on %s did not start: %s", lv->os_device, why);
	}
	if (res.interrupted) {
		run_result_release(&res);
		job_list_release(&jl);
		return sweep_fail(err, errlen, -EINTR, "interrupted during the run; nothing saved for "
			    "RAID %s", lv->level);
	}
	run_report_init(&rep, &jl, &res);
	sj = sweep_json(x, lv);
	extra.json = sj;
	saving = lv;
	ret = sj ? results_save_extra(&rep, &res, sweep_identify, &extra, 1, lv->result_path,
				      sizeof(lv->result_path), why, sizeof(why)) : -ENOMEM;
	saving = NULL;
	free(sj);
	if (ret) {
		lv->result_path[0] = '\0';
		sweep_fail(err, errlen, ret, "the result was not saved: %s", why);
	} else {
		load_phases(lv, &jl);
	}
	if (!ret && res.error) {
		ret = sweep_fail(err, errlen, -EIO, "I/O errors on %s (the result was saved, marked by "
			   "them): %.*s", lv->os_device, 1024, res.error_msgs);
	}
	emit_level(x, SWEEP_EV_RUN_DONE, i, (struct sweep_event){ .os_device = lv->os_device,
		   .result_path = lv->result_path, .ld = lv->ld, .progress_pct = -1 });
	run_result_release(&res);
	job_list_release(&jl);
	return ret;
}

/* ---- one level ------------------------------------------------------------------ */

static void sleep_ms(const struct sweep_callbacks *cb, unsigned ms)
{
	for (unsigned done = 0; done < ms && !interrupted(cb); done += 50) {
		struct timespec ts = { 0, 50 * 1000000L };

		nanosleep(&ts, NULL);
	}
}

/* Re-reads the level's logical drive; 0, or -errno when it is not what was made. */
static int reread(struct sweep_ctx *x, struct sweep_ld *ld, char *err, size_t errlen)
{
	int ret = sweep_tool_read(&x->tool, &x->inv, err, errlen);

	if (ret)
		return ret;
	if (sweep_find_ld(&x->tool, &x->inv, x->entry.drives, x->entry.nr_drives, x->entry.ld,
			  ld) != SWEEP_LD_FOUND)
		return sweep_fail(err, errlen, -ENOENT, "logical drive %s on the sweep's drives is not "
			    "there any more", x->entry.ld);
	return 0;
}

static int wait_init(struct sweep_ctx *x, size_t i, struct sweep_ld *ld, char *err,
		     size_t errlen)
{
	const struct sweep_plan *p = x->plan;
	struct sweep_level *lv = &x->rep->levels[i];
	unsigned poll = p->poll_ms ? p->poll_ms : DEFAULT_POLL_MS;
	time_t deadline = time(NULL) + (p->init_timeout_s ? p->init_timeout_s :
					DEFAULT_INIT_TIMEOUT_S);
	int ret;

	while (ld->status == INV_INITIALIZING) {
		if (!p->wait_init) {
			lv->initializing = true;
			emit_level(x, SWEEP_EV_NOTE, i, (struct sweep_event){ .progress_pct = -1,
				   .message = "parity initialization is still running: measuring "
				   "anyway, the result is marked \"initializing\"" });
			return 0;
		}
		emit_level(x, SWEEP_EV_INIT_WAIT, i, (struct sweep_event){ .ld = ld->id,
			   .progress_pct = ld->progress_pct, .message = ld->status_text });
		if (time(NULL) >= deadline)
			return sweep_fail(err, errlen, -ETIMEDOUT, "parity initialization of logical drive "
				    "%s did not finish within %u s (%s)", ld->id, p->init_timeout_s ?
				    p->init_timeout_s : DEFAULT_INIT_TIMEOUT_S, ld->status_text);
		sleep_ms(x->cb, poll);
		if (interrupted(x->cb))
			return sweep_fail(err, errlen, -EINTR, "interrupted while waiting for "
				    "initialization");
		ret = reread(x, ld, err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}

/* Deletes the level's array; on failure it stays in the journal and err says so. */
static int drop_array(struct sweep_ctx *x, size_t i, char *err, size_t errlen)
{
	struct sweep_level *lv = &x->rep->levels[i];
	char why[2048] = "", *line = NULL;
	int ret;

	snprintf(x->entry.state, sizeof(x->entry.state), "deleting");
	ret = sweep_journal_update(&x->entry, why, sizeof(why)) ?:
	      sweep_tool_read(&x->tool, &x->inv, why, sizeof(why)) ?:
	      sweep_delete_ld(&x->tool, &x->inv, x->entry.ld, x->entry.drives,
			      x->entry.nr_drives, &line, why, sizeof(why));
	if (ret == -ENOENT && !line) {
		/* gone already (deleted by hand): nothing of ours is left */
		ret = 0;
	}
	if (!ret)
		ret = sweep_journal_remove(x->entry.id, why, sizeof(why));
	if (ret) {
		char scratch[256];

		snprintf(x->entry.state, sizeof(x->entry.state), "created");
		sweep_journal_update(&x->entry, scratch, sizeof(scratch));
		free(line);
		return sweep_fail(err, errlen, ret, "logical drive %s (RAID %s) could not be deleted: %s; "
			    "it is in the journal: `raidbench sweep --resume-cleanup --yes` deletes "
			    "it", x->entry.ld, lv->level, why);
	}
	emit_level(x, SWEEP_EV_DELETED, i, (struct sweep_event){ .command = line, .ld = lv->ld,
		   .os_device = lv->os_device, .progress_pct = -1 });
	free(line);
	x->entry.id[0] = '\0';
	return 0;
}

/* Creates the array; 0, SKIP_LEVEL when the tool refused and nothing exists, or -errno. */
static int create(struct sweep_ctx *x, size_t i, struct sweep_ld *ld, char *err, size_t errlen)
{
	const struct sweep_plan *p = x->plan;
	struct sweep_level *lv = &x->rep->levels[i];
	struct raidtool_argv av;
	char why[2048] = "";
	int ret;

	free(lv->command);
	lv->command = NULL;
	ret = sweep_tool_read(&x->tool, &x->inv, err, errlen);
	if (ret)
		return ret;
	ret = sweep_build_create(&x->tool, &x->inv, lv->level, p->drives, p->nr_drives,
				 p->strip_bytes, &av, &lv->command, NULL, why, sizeof(why));
	if (ret)
		return sweep_fail(err, errlen, ret, "the configuration changed since the sweep started: "
			    "%s", why);
	memset(&x->entry, 0, sizeof(x->entry));
	snprintf(x->entry.tool, sizeof(x->entry.tool), "%s", x->tool.ops->name);
	snprintf(x->entry.bin, sizeof(x->entry.bin), "%s", x->tool.bin);
	snprintf(x->entry.controller, sizeof(x->entry.controller), "%s", x->tool.controller);
	snprintf(x->entry.level, sizeof(x->entry.level), "%s", lv->level);
	snprintf(x->entry.state, sizeof(x->entry.state), "creating");
	x->entry.drives = p->drives;
	x->entry.nr_drives = p->nr_drives;
	ret = sweep_journal_add(&x->entry, err, errlen);
	if (ret) {
		raidtool_argv_release(&av);
		return ret;
	}
	x->rep->started = true;
	ret = sweep_exec(&x->tool, &av, lv->level, why, sizeof(why));
	raidtool_argv_release(&av);
	if (sweep_tool_read(&x->tool, &x->inv, err, errlen))
		return -EIO;	/* unknown state: the journal keeps the entry */
	switch (sweep_find_ld(&x->tool, &x->inv, p->drives, p->nr_drives, NULL, ld)) {
	case SWEEP_LD_GONE:
		sweep_journal_remove(x->entry.id, err, errlen);
		x->entry.id[0] = '\0';
		if (ret) {
			lv->state = SWEEP_REFUSED;
			return sweep_fail(err, errlen, SKIP_LEVEL, "%s; nothing was created", why);
		}
		return sweep_fail(err, errlen, -EIO, "%s reported success, but shows no logical drive on "
			    "the drives", x->tool.ops->name);
	case SWEEP_LD_CHANGED:
		return sweep_fail(err, errlen, -EIO, "the drives hold something the sweep did not expect; "
			    "left alone and kept in the journal");
	case SWEEP_LD_FOUND:
		break;
	}
	snprintf(x->entry.ld, sizeof(x->entry.ld), "%s", ld->id);
	snprintf(x->entry.os_device, sizeof(x->entry.os_device), "%s", ld->os_device);
	snprintf(x->entry.uid, sizeof(x->entry.uid), "%s", ld->uid);
	snprintf(x->entry.state, sizeof(x->entry.state), "created");
	snprintf(lv->ld, sizeof(lv->ld), "%s", ld->id);
	snprintf(lv->os_device, sizeof(lv->os_device), "%s", ld->os_device);
	lv->strip_bytes = ld->strip_bytes;
	lv->size_bytes = ld->size_bytes;
	if (sweep_journal_update(&x->entry, err, errlen))
		return -EIO;
	emit_level(x, SWEEP_EV_CREATED, i, (struct sweep_event){ .command = lv->command,
		   .ld = ld->id, .os_device = ld->os_device, .progress_pct = ld->progress_pct });
	if (ret)	/* the tool complained but made it: measure nothing, delete it */
		return sweep_fail(err, errlen, -EIO, "%s", why);
	return 0;
}

/* The OS device may be written: it is this array's alone and nothing mounts it. */
static int check_target(struct sweep_ctx *x, const struct sweep_ld *ld, char *err,
			size_t errlen)
{
	struct guard_report g;
	struct stat st;
	int ret;

	if (!*ld->os_device)
		return sweep_fail(err, errlen, -ENODEV, "the OS shows no device for logical drive %s "
			    "(%s reports none): cannot measure it", ld->id, x->tool.ops->name);
	if (stat(ld->os_device, &st) || !S_ISBLK(st.st_mode))
		return sweep_fail(err, errlen, -ENODEV, "%s, the OS device %s reports for logical drive "
			    "%s, is not a block device here: cannot measure it", ld->os_device,
			    x->tool.ops->name, ld->id);
	if (sweep_osdev_shared(&x->inv, ld->os_device, ld->id))
		return sweep_fail(err, errlen, -EBUSY, "%s is reported for another logical drive too: "
			    "refusing to write to it", ld->os_device);
	ret = guard_examine(ld->os_device, &g);
	if (ret)
		return sweep_fail(err, errlen, ret, "%s cannot be examined (%s): refusing to write to it",
			    ld->os_device, strerror(-ret));
	if (g.verdict == GUARD_NEVER) {
		char *line, *save = NULL;
		size_t n = (size_t)snprintf(err, errlen, "%s is never writable:", ld->os_device);
		const char *sep = "";

		/* the guard's reasons, one per line, as one line */
		for (line = strtok_r(g.reasons, "\n", &save); line && n < errlen;
		     line = strtok_r(NULL, "\n", &save), sep = ";")
			n = bufcat(err, errlen, n, "%s %s", sep, line);
		return -EPERM;
	}
	return 0;
}

static int do_level(struct sweep_ctx *x, size_t i, char *err, size_t errlen)
{
	struct sweep_level *lv = &x->rep->levels[i];
	struct sweep_ld ld;
	char why[2048] = "";
	int ret, dropped;

	emit_level(x, SWEEP_EV_LEVEL_START, i, (struct sweep_event){ .progress_pct = -1 });
	ret = create(x, i, &ld, err, errlen);
	if (ret == SKIP_LEVEL || (ret && !*x->entry.ld)) {
		if (ret != SKIP_LEVEL)
			lv->state = SWEEP_FAILED;
		if (ret != SKIP_LEVEL && *x->entry.id)
			snprintf(err + strlen(err), errlen - strlen(err), "; the array (if any) is "
				 "in the journal: `raidbench sweep --resume-cleanup --yes` deletes it");
		snprintf(lv->error, sizeof(lv->error), "%s", err);
		return ret;
	}
	if (!ret && interrupted(x->cb))
		ret = sweep_fail(err, errlen, -EINTR, "interrupted");
	if (!ret)
		ret = wait_init(x, i, &ld, err, errlen);
	if (!ret && !interrupted(x->cb))
		ret = check_target(x, &ld, err, errlen) ?: measure(x, i, err, errlen);
	else if (!ret)
		ret = sweep_fail(err, errlen, -EINTR, "interrupted");
	lv->state = !ret ? SWEEP_MEASURED : ret == -EINTR ? SWEEP_INTERRUPTED : SWEEP_FAILED;
	if (ret)
		snprintf(lv->error, sizeof(lv->error), "%s", err);
	/* whatever happened, the array goes: a second interrupt does not stop this */
	dropped = drop_array(x, i, why, sizeof(why));
	if (dropped) {
		if (ret)
			snprintf(err + strlen(err), errlen - strlen(err), "; %s", why);
		else
			snprintf(err, errlen, "%s", why);
		return ret ? ret : dropped;
	}
	return ret;
}

static bool journal_empty(char *err, size_t errlen)
{
	struct sweep_pending_array *p;
	size_t nr;

	if (sweep_pending(&p, &nr, err, errlen))
		return false;
	sweep_pending_free(p, nr);
	if (nr)
		snprintf(err, errlen, "an earlier sweep left %zu array(s) behind (quit, crash or a "
			 "failed delete): delete them first with `raidbench sweep --resume-cleanup "
			 "--yes`", nr);
	return nr == 0;
}

int sweep_run(const struct sweep_plan *plan, const struct sweep_callbacks *cb,
	      struct sweep_report *report, char *err, size_t errlen)
{
	struct sweep_report local;
	struct sweep_ctx x = { .plan = plan, .cb = cb, .rep = report ? report : &local };
	size_t measured = 0, refused = 0;
	struct job_list jl;
	int ret, first = 0;

	if (!plan->yes) {
		memset(x.rep, 0, sizeof(*x.rep));
		return sweep_fail(err, errlen, -EPERM, "a sweep creates and deletes arrays on the drives: "
			    "everything on them is lost; nothing runs without consent (yes)");
	}
	if (!journal_empty(err, errlen)) {
		memset(x.rep, 0, sizeof(*x.rep));
		return -EBUSY;
	}
	ret = prepare(&x, err, errlen) ?: find_profile(plan->profile, x.profile,
						       sizeof(x.profile), err, errlen);
	/* the profile must parse and leave the target to us before anything is created */
	if (!ret && !(ret = load_jobs(&x, "/dev/null", &jl, err, errlen)))
		job_list_release(&jl);
	for (size_t i = 0; !ret && i < x.rep->nr_levels && !interrupted(cb); i++) {
		char msg[2048] = "";
		int r = do_level(&x, i, msg, sizeof(msg));

		if (r == 0) {
			measured++;
			continue;
		}
		emit_level(&x, SWEEP_EV_ERROR, i, (struct sweep_event){ .message = msg,
			   .progress_pct = -1 });
		if (!first) {
			first = r == SKIP_LEVEL ? -EIO : r;
			snprintf(err, errlen, "RAID %s: %s", x.rep->levels[i].level, msg);
		}
		if (r == SKIP_LEVEL)
			refused++;
		else
			break;
	}
	if (!ret && !first && interrupted(cb)) {
		first = -EINTR;
		snprintf(err, errlen, "interrupted");
	}
	if (!ret)
		ret = first;
	if (!ret)
		sweep_emitf(cb, SWEEP_EV_DONE, NULL, "%zu level(s) measured; no array left behind",
			    measured);
	else if (x.rep->nr_levels)
		sweep_emitf(cb, SWEEP_EV_DONE, NULL, "%zu of %zu level(s) measured, %zu refused by "
			    "the tool%s", measured, x.rep->nr_levels, refused,
			    x.rep->started ? "" : "; nothing was changed");
	inventory_release(&x.inv);
	if (!report)
		sweep_report_release(&local);
	return ret;
}
