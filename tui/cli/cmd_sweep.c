/*
 * cmd_sweep.c - `raidbench sweep`: the RAID-level sweep of hw/sweep.h from
 * the command line. Progress lines go to stderr, the comparison table (per
 * phase: IOPS, MB/s, p99 latency per level, the textbook estimate beside
 * each) to stdout. `--resume-cleanup` deletes what an interrupted sweep
 * left behind, and only that.
 *
 * Nothing destructive runs without --yes; --dry-run prints the exact create
 * commands. Exit status: 0 every level measured; 1 a step failed; 2 bad
 * usage or refused (nothing ran); 128 + N stopped by signal N (130 SIGINT,
 * 143 SIGTERM, 129 SIGHUP; the arrays are deleted).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fmt.h"
#include "live_view.h"
#include "options.h"
#include "sweep.h"
#include "tty_text.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = sig;
}

struct args {
	const char *tool, *controller, *drives, *levels, *strip, *profile, *runtime, *size;
	const char *init_timeout, *poll, *timeout;
	bool no_wait_init, dry_run, yes, resume_cleanup;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: raidbench sweep --tool=TOOL [--controller=ID] --drives=D1,D2,...\n"
		"                       --levels=0,1,5 [--strip=SIZE] --profile=NAME\n"
		"                       [--runtime=S] [--size=SIZE] [--no-wait-init]\n"
		"                       [--init-timeout=S] [--dry-run | --yes]\n"
		"       raidbench sweep --resume-cleanup [--yes]\n"
		"\n"
		"For each level: create the array over the drives, wait for its parity\n"
		"initialization, run the profile on the new logical drive, save the result\n"
		"(tagged with level, strip size and drive count), delete the array. Then a\n"
		"table per phase compares the levels, with the textbook RAID estimate\n"
		"(relative to one drive) next to each measurement.\n"
		"\n"
		"TOOL      ssacli, storcli (perccli) or mdadm, as for raidbench array.\n"
		"--runtime seconds per phase (default 30); --size limits the region per phase.\n"
		"--no-wait-init  measure while parity initialization runs; the result is\n"
		"          marked \"initializing\".\n"
		"--init-timeout  give up waiting for initialization after S seconds.\n"
		"--poll=MS  status re-read interval while waiting (default 2000).\n"
		"--timeout=S  per vendor command (default $RAIDBENCH_TOOL_TIMEOUT, else 120).\n"
		"--dry-run print the exact create command of each level; run nothing.\n"
		"--yes     run it: everything on the drives is destroyed, level after level.\n"
		"--resume-cleanup  list the arrays an interrupted sweep left behind (journal\n"
		"          $XDG_STATE_HOME/raidbench/sweep.json); with --yes, delete them,\n"
		"          and nothing else.\n");
}

static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct cli_key keys[] = {
#define K(k, f) { "--" k, offsetof(struct args, f) }
		K("tool", tool), K("controller", controller), K("drives", drives),
		K("levels", levels), K("strip", strip), K("profile", profile),
		K("runtime", runtime), K("size", size), K("init-timeout", init_timeout),
		K("poll", poll), K("timeout", timeout),
#undef K
	};

	for (int i = 0; i < argc; i++) {
		int got = cli_opt_table(argc, argv, &i, keys, sizeof(keys) / sizeof(keys[0]), a,
					"sweep");

		if (got < 0)
			return -1;
		if (got)
			continue;
		if (!strcmp(argv[i], "--no-wait-init"))
			a->no_wait_init = true;
		else if (!strcmp(argv[i], "--dry-run"))
			a->dry_run = true;
		else if (!strcmp(argv[i], "--yes") || !strcmp(argv[i], "-y"))
			a->yes = true;
		else if (!strcmp(argv[i], "--resume-cleanup"))
			a->resume_cleanup = true;
		else {
			tty_fprintf(stderr, "raidbench sweep: unknown option '%s' (see raidbench sweep "
				"--help)\n", argv[i]);
			return -1;
		}
	}
	if (a->dry_run && a->yes) {
		tty_fprintf(stderr, "raidbench sweep: --dry-run and --yes contradict each other\n");
		return -1;
	}
	return 0;
}

static char **split_list(const char *s, size_t *nr)
{
	char *copy = s ? strdup(s) : NULL, *tok, *save = NULL, **v = NULL;

	*nr = 0;
	for (tok = copy ? strtok_r(copy, ",", &save) : NULL; tok; tok = strtok_r(NULL, ",", &save)) {
		char **p = realloc(v, (*nr + 2) * sizeof(*v));

		if (!p)
			break;
		v = p;
		v[(*nr)++] = strdup(tok);
		v[*nr] = NULL;
	}
	free(copy);
	return v;
}

static void free_list(char **v, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(v[i]);
	free(v);
}

static int number(const char *name, const char *s, unsigned long min, unsigned long max,
		  unsigned long *out)
{
	char *end;

	if (!s)
		return 0;
	*out = strtoul(s, &end, 10);
	if (end == s || *end || *out < min || *out > max) {
		tty_fprintf(stderr, "raidbench sweep: --%s=%s: a whole number from %lu to %lu\n", name,
			s, min, max);
		return -1;
	}
	return 0;
}

static int build_plan(const struct args *a, struct sweep_plan *p)
{
	unsigned long runtime = 30, init = 0, poll = 0, timeout = 0;
	uint64_t strip;

	memset(p, 0, sizeof(*p));
	if (!a->tool || !a->drives || !a->levels || !a->profile) {
		tty_fprintf(stderr, "raidbench sweep: needs --tool, --drives, --levels and --profile\n");
		return -1;
	}
	if (number("runtime", a->runtime, 1, 86400, &runtime) ||
	    number("init-timeout", a->init_timeout, 1, 30 * 86400, &init) ||
	    number("poll", a->poll, 10, 600000, &poll) ||
	    number("timeout", a->timeout, 1, 86400, &timeout))
		return -1;
	p->strip_bytes = -1;
	if (a->strip) {
		if (parse_size(a->strip, 1024, &strip) || !strip || strip > (1u << 30)) {
			tty_fprintf(stderr, "raidbench sweep: --strip=%s: a size such as 64k or 256k\n",
				a->strip);
			return -1;
		}
		p->strip_bytes = (int64_t)strip;
	}
	p->tool = a->tool;
	p->controller = a->controller;
	p->drives = split_list(a->drives, &p->nr_drives);
	p->levels = split_list(a->levels, &p->nr_levels);
	p->profile = a->profile;
	p->runtime_s = (unsigned)runtime;
	p->size = a->size;
	p->wait_init = !a->no_wait_init;
	p->init_timeout_s = (unsigned)init;
	p->poll_ms = (unsigned)poll;
	p->tool_timeout_ms = (int)timeout * 1000;
	p->yes = a->yes;
	if (!p->nr_drives || !p->nr_levels) {
		tty_fprintf(stderr, "raidbench sweep: --drives and --levels take comma lists\n");
		return -1;
	}
	return 0;
}

/* ---- printing ------------------------------------------------------------------- */

struct view {
	struct status_line status;
	struct live_view live;		/* the totals only: what the status line shows */
	double last_pct;
	unsigned runtime_s;
	unsigned errors;	/* ERROR events shown */
};

static void on_event(void *arg, const struct sweep_event *ev)
{
	struct view *v = arg;

	status_line_clear(&v->status);
	switch (ev->kind) {
	case SWEEP_EV_LEVEL_START:
		tty_fprintf(stderr, "sweep: [%zu/%zu] RAID %s\n", ev->index + 1, ev->count, ev->level);
		v->last_pct = -2;
		break;
	case SWEEP_EV_CREATED:
		tty_fprintf(stderr, "  created logical drive %s (%s): %s\n", ev->ld,
			ev->os_device && *ev->os_device ? ev->os_device : "no OS device",
			ev->command ? ev->command : "");
		break;
	case SWEEP_EV_INIT_WAIT:
		if (ev->progress_pct != v->last_pct) {
			if (ev->progress_pct >= 0)
				tty_fprintf(stderr, "  waiting for parity initialization: %.0f%%\n",
					ev->progress_pct);
			else
				tty_fprintf(stderr, "  waiting for parity initialization (%s)\n",
					ev->message ? ev->message : "");
		}
		v->last_pct = ev->progress_pct;
		break;
	case SWEEP_EV_RUN_START:
		tty_fprintf(stderr, "  running %s on %s (%u s per phase)\n", ev->message, ev->os_device,
			v->runtime_s);
		break;
	case SWEEP_EV_RUN_DONE:
		if (ev->result_path && *ev->result_path)
			tty_fprintf(stderr, "  saved %s\n", ev->result_path);
		break;
	case SWEEP_EV_DELETED:
		tty_fprintf(stderr, "  deleted %s%s logical drive %s: %s\n", ev->level ? "RAID " : "",
			ev->level ? ev->level : "", ev->ld, ev->command ? ev->command : "");
		break;
	case SWEEP_EV_NOTE:
		tty_fprintf(stderr, "  note: %s\n", ev->message);
		break;
	case SWEEP_EV_ERROR:
		v->errors++;
		tty_fprintf(stderr, "raidbench sweep: %s%s%s%s\n", ev->level ? "RAID " : "",
			ev->level ? ev->level : "", ev->level ? ": " : "", ev->message);
		break;
	case SWEEP_EV_DONE:
		tty_fprintf(stderr, "sweep: %s\n", ev->message);
		break;
	}
	fflush(stderr);
}

static void on_record(void *arg, const struct live_rec *rec)
{
	struct view *v = arg;

	if (v->live.now.jobs && live_view_feed(&v->live, rec))
		status_line_tick(&v->status, &v->live.now);
}

static const char *state_word(const struct sweep_level *lv)
{
	switch (lv->state) {
	case SWEEP_PLANNED: return "not reached";
	case SWEEP_MEASURED: return "measured";
	case SWEEP_REFUSED: return "refused";
	case SWEEP_FAILED: return "failed";
	case SWEEP_INTERRUPTED: return "interrupted";
	}
	return "?";
}

static void print_levels(const struct sweep_report *r)
{
	tty_printf("%-8s %-11s %-12s %s\n", "level", "state", "capacity", "fault tolerance ("
	       RAID_ESTIMATE_LABEL ")");
	for (size_t i = 0; i < r->nr_levels; i++) {
		const struct sweep_level *lv = &r->levels[i];
		char cap[32];

		fmt_bytes(cap, sizeof(cap), lv->size_bytes >= 0 ? lv->size_bytes :
			lv->est.capacity_bytes);
		tty_printf("RAID %-3s %-11s %-12s %s\n", lv->level, state_word(lv),
		       lv->est.write_penalty ? cap : "-", lv->est.tolerance);
	}
}

/* The distinct phases, in the order the first measured level has them. */
static void print_table(const struct sweep_report *r)
{
	const struct sweep_level *first = NULL;

	for (size_t i = 0; i < r->nr_levels && !first; i++)
		if (r->levels[i].nr_phases)
			first = &r->levels[i];
	if (!first) {
		tty_printf("\nno level was measured\n");
		return;
	}
	for (size_t p = 0; p < first->nr_phases; p++) {
		const struct sweep_phase *fp = &first->phases[p];

		tty_printf("\nphase %s (%s, %s)\n", fp->name, fp->ddir ? "write" : "read",
		       fp->sequential ? "sequential" : "random");
		tty_printf("  %-8s %12s %10s %10s   %s\n", "level", "IOPS", "MB/s", "p99 ms",
		       RAID_ESTIMATE_LABEL " (x one drive)");
		for (size_t i = 0; i < r->nr_levels; i++) {
			const struct sweep_level *lv = &r->levels[i];
			const struct sweep_phase *ph = NULL;
			char p99[32];

			for (size_t k = 0; k < lv->nr_phases && !ph; k++)
				if (!strcmp(lv->phases[k].name, fp->name) &&
				    lv->phases[k].ddir == fp->ddir)
					ph = &lv->phases[k];
			if (!ph) {
				tty_printf("  RAID %-3s %12s %10s %10s   %s\n", lv->level, "-", "-", "-",
				       state_word(lv));
				continue;
			}
			if (ph->p99_ns >= 0)
				snprintf(p99, sizeof(p99), "%.3f", ph->p99_ns / 1e6);
			else
				snprintf(p99, sizeof(p99), "-");
			tty_printf("  RAID %-3s %12.0f %10.1f %10s   ", lv->level, ph->iops,
			       ph->bw_bytes / 1e6, p99);
			if (ph->estimate_x > 0)
				tty_printf("%.2fx", ph->estimate_x);
			else
				tty_printf("-");
			tty_printf("%s\n", lv->initializing ? "  (measured while initializing)" : "");
		}
	}
}

static void print_report(const struct sweep_report *r, const struct sweep_plan *p)
{
	char size[32];

	fmt_bytes(size, sizeof(size), r->drive_bytes);
	tty_printf("RAID sweep: %s%s%s, %zu drives of %s, profile %s, %u s per phase\n", r->tool,
	       *r->controller ? " " : "", r->controller, p->nr_drives, size, p->profile,
	       p->runtime_s);
	print_levels(r);
	print_table(r);
	for (size_t i = 0, n = 0; i < r->nr_levels; i++)
		if (*r->levels[i].result_path)
			tty_printf("%s  RAID %s: %s\n", n++ ? "" : "\nresults:\n", r->levels[i].level,
			       r->levels[i].result_path);
	for (size_t i = 0, n = 0; i < r->nr_levels; i++)
		if (*r->levels[i].error)
			tty_printf("%s  RAID %s: %s\n", n++ ? "" : "\nproblems:\n", r->levels[i].level,
			       r->levels[i].error);
	tty_printf("\n" RAID_ESTIMATE_LABEL ": textbook RAID arithmetic relative to one drive (reads "
	       "N x; writes N / penalty, penalty 2 for mirrors, 4 for RAID 5, 6 for RAID 6);\n"
	       "the measurement is what counts\n");
}

static void print_preview(const struct sweep_report *r, bool dry)
{
	for (size_t i = 0; i < r->nr_levels; i++) {
		const struct sweep_level *lv = &r->levels[i];

		if (lv->command) {
			tty_printf(dry ? "%s\n" : "  %s\n", lv->command);
			if (lv->warnings)
				tty_fprintf(stderr, "warning: %s\n", lv->warnings);
		} else {
			tty_fprintf(stderr, "raidbench sweep: RAID %s: refused: %s\n", lv->level,
				lv->error);
		}
	}
}

static void print_pending(const struct sweep_pending_array *p, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		tty_printf("  RAID %s on %s %s drives", p[i].level, p[i].tool, p[i].controller);
		for (size_t k = 0; k < p[i].nr_drives; k++)
			tty_printf("%s%s", k ? "," : " ", p[i].drives[k]);
		tty_printf(", logical drive %s%s%s%s, created %s by pid %ld (%s)\n",
		       *p[i].ld ? p[i].ld : "(not known)", *p[i].os_device ? " (" : "",
		       p[i].os_device, *p[i].os_device ? ")" : "", p[i].time, p[i].pid, p[i].state);
	}
}

/* ---- the commands -------------------------------------------------------------------- */

static int resume_cleanup(bool yes)
{
	struct sweep_pending_array *p;
	struct view v = { .last_pct = -2 };
	struct sweep_callbacks cb = { on_event, &v, NULL, NULL, NULL };
	char err[4096] = "";
	size_t nr;

	status_line_init(&v.status);
	v.status.enabled = false;
	if (sweep_pending(&p, &nr, err, sizeof(err))) {
		tty_fprintf(stderr, "raidbench sweep: %s\n", err);
		return 1;
	}
	if (!nr) {
		tty_printf("no arrays left behind by a sweep\n");
		sweep_pending_free(p, nr);
		return 0;
	}
	tty_printf("arrays a sweep created and did not delete:\n");
	print_pending(p, nr);
	sweep_pending_free(p, nr);
	if (!yes) {
		tty_fprintf(stderr, "raidbench sweep: nothing was deleted; to delete exactly these "
			"(their contents are lost), run: raidbench sweep --resume-cleanup --yes\n");
		return EXIT_USAGE;
	}
	if (sweep_cleanup(true, &cb, err, sizeof(err))) {
		tty_fprintf(stderr, "raidbench sweep: %s\n", err);
		return 1;
	}
	return 0;
}

static int run_sweep(const struct args *a)
{
	struct sweep_plan plan;
	struct sweep_report rep = { 0 };
	struct view v = { .last_pct = -2 };
	struct run_observer obs = { NULL, on_record, &v, 0 };
	struct sweep_callbacks cb = { on_event, &v, &obs, &stop, NULL };
	char err[4096] = "";
	int ret, status;

	if (build_plan(a, &plan))
		return EXIT_USAGE;
	v.runtime_s = plan.runtime_s;
	status_line_init(&v.status);
	if (!a->yes) {
		ret = sweep_preview(&plan, &rep, err, sizeof(err));
		if (ret && ret != -EINVAL) {
			tty_fprintf(stderr, "raidbench sweep: %s\n", err);
			status = EXIT_USAGE;
		} else if (a->dry_run) {
			print_preview(&rep, true);
			status = ret ? EXIT_USAGE : 0;
		} else {
			tty_fprintf(stderr, "raidbench sweep: creates and deletes one array per level on "
				"the drives named, destroying everything on them; nothing was run. "
				"To run it, add --yes. It would run:\n");
			print_preview(&rep, false);
			status = EXIT_USAGE;
		}
		goto out;
	}
	cli_catch_stop_signals(on_signal);
	/* no memory for the totals: the sweep runs without a status line */
	live_view_init(&v.live, 0, 0, NULL);
	ret = sweep_run(&plan, &cb, &rep, err, sizeof(err));
	live_view_release(&v.live);
	status_line_clear(&v.status);
	if (ret && !rep.started) {
		if (ret == -EINTR) {
			tty_fprintf(stderr, "raidbench sweep: interrupted before anything was changed\n");
			status = EXIT_SIGNAL(stop ? stop : SIGINT);
			goto out;
		}
		tty_fprintf(stderr, "raidbench sweep: refused, nothing was run: %s\n", err);
		for (size_t i = 0, n = 0; ret == -EINVAL && i < rep.nr_levels; i++)
			if (rep.levels[i].state == SWEEP_REFUSED && n++)	/* the first is in err */
				tty_fprintf(stderr, "  RAID %s: %s\n", rep.levels[i].level,
					rep.levels[i].error);
		if (ret == -EBUSY) {
			struct sweep_pending_array *pa;
			size_t nr;

			if (!sweep_pending(&pa, &nr, err, sizeof(err))) {
				print_pending(pa, nr);
				sweep_pending_free(pa, nr);
			}
		}
		status = EXIT_USAGE;
		goto out;
	}
	print_report(&rep, &plan);
	status = !ret ? 0 : ret == -EINTR ? EXIT_SIGNAL(stop ? stop : SIGINT) : 1;
	if (ret && !v.errors)
		tty_fprintf(stderr, "raidbench sweep: %s\n", err);
out:
	sweep_report_release(&rep);
	free_list(plan.drives, plan.nr_drives);
	free_list(plan.levels, plan.nr_levels);
	return status;
}

int cmd_sweep(int argc, char **argv)
{
	struct args a = { 0 };

	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return 0;
	}
	if (parse_args(argc, argv, &a)) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (a.resume_cleanup) {
		if (a.tool || a.drives || a.levels || a.profile || a.dry_run) {
			tty_fprintf(stderr, "raidbench sweep: --resume-cleanup takes only --yes: it "
				"deletes what the journal names\n");
			return EXIT_USAGE;
		}
		return resume_cleanup(a.yes);
	}
	return run_sweep(&a);
}
