/*
 * cmd_run.c - `raidbench run`: fio's command line and job files in, fio's
 * reports out, every run saved under $XDG_DATA_HOME/raidbench/results/.
 *
 * Exit status: 0 ok; 1 the jobs ran and an I/O or verify error happened, or
 * a report, the live lines or the saved result could not be written (also a
 * file that could not be laid out); 2 bad options, bad job file or a refused
 * target (nothing ran, nothing was written, --output untouched); 128 + N
 * stopped by signal N: 130 SIGINT, 143 SIGTERM, 129 SIGHUP (partial results
 * printed and saved).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "config.h"
#include "live_view.h"
#include "options.h"
#include "profile_set.h"
#include "report.h"
#include "results.h"
#include "run.h"
#include "tty_text.h"

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

struct run_cli {
	struct cmd_opt *opts;
	size_t nr_opts;
	char **files;
	size_t nr_files;
	char **allow;
	size_t nr_allow;
	unsigned formats;
	const char *output;
	bool parse_only;
	bool readonly;
	bool showcmd;
	bool no_save;
	unsigned long max_jobs;		/* fio's --max-jobs, 0 = no limit */
	const char *live;		/* --live=FILE|- */
	unsigned live_interval_ms;
	char **clients;			/* --client=HOST|FILE: run on fio servers */
	size_t nr_clients;
};

/* What the observer callbacks need; lives on cmd_run()'s stack. */
struct run_view {
	struct status_line status;
	struct live_view view;		/* the records decoded, for the status line and --live */
	struct live_json *live;
	struct run_output *out;		/* --output: emptied when the run starts */
	FILE *header_out;		/* fio's job header lines, NULL = none */
	uint64_t stall_at_ns;		/* test hook: a consumer that stalls */
	unsigned stall_ms;
	bool stalled;
	const struct run_layout *lay;	/* the job names, until run_end() */
	uint64_t nr_errors;		/* of view's failed jobs, those said already */
};

static int push(void *arrp, size_t *nr, size_t size, const void *item)
{
	void **arr = arrp;
	void *n = realloc(*arr, (*nr + 1) * size);

	if (!n)
		return -ENOMEM;
	memcpy((char *)n + *nr * size, item, size);
	*arr = n;
	(*nr)++;
	return 0;
}

static bool own_option_needs_value(const char *key)
{
	static const char *const valued[] = { "output-format", "output", "allow-destroy", "live",
					      "live-interval", "max-jobs", "client" };
	size_t i;

	for (i = 0; i < sizeof(valued) / sizeof(valued[0]); i++)
		if (!strcmp(key, valued[i]))
			return true;
	return false;
}

static int parse_cli(int argc, char **argv, struct run_cli *c)
{
	char err[256];
	int i;

	c->formats = REPORT_NORMAL;
	for (i = 0; i < argc; i++) {
		char *a = argv[i], *eq;
		const char *key, *val;

		if (strncmp(a, "--", 2) || !a[2]) {
			if (push(&c->files, &c->nr_files, sizeof(char *), &a))
				return -ENOMEM;
			continue;
		}
		key = a + 2;
		eq = strchr(a, '=');
		val = eq ? eq + 1 : NULL;
		if (eq)
			*eq = '\0';
		/* fio's getopt takes "--bs 4k" too: the next word, when the option needs one */
		if (!eq && i + 1 < argc && strncmp(argv[i + 1], "--", 2) &&
		    (option_needs_value(key) || own_option_needs_value(key)))
			val = argv[++i];
		if (!strcmp(key, "output-format") || !strcmp(key, "minimal")) {
			if (!strcmp(key, "minimal"))
				c->formats = REPORT_TERSE;
			else if (!val || report_parse_formats(val, &c->formats, err, sizeof(err))) {
				fprintf(stderr, "raidbench run: command line: option 'output-format': %s\n",
					val ? err : "needs a value (normal, json, json+, terse)");
				return -EINVAL;
			}
		} else if (!strcmp(key, "output")) {
			if (!val || !*val) {
				fprintf(stderr, "raidbench run: command line: option 'output' needs a "
					"file name\n");
				return -EINVAL;
			}
			c->output = val;
		} else if (!strcmp(key, "parse-only")) {
			c->parse_only = true;
		} else if (!strcmp(key, "readonly")) {
			c->readonly = true;
		} else if (!strcmp(key, "showcmd")) {
			c->showcmd = true;
		} else if (!strcmp(key, "no-save")) {
			c->no_save = true;
		} else if (!strcmp(key, "live")) {
			if (!val || !*val) {
				fprintf(stderr, "raidbench run: command line: option 'live' needs a file "
					"name, or - for stdout\n");
				return -EINVAL;
			}
			c->live = val;
		} else if (!strcmp(key, "max-jobs")) {
			char *end;
			unsigned long n = val ? strtoul(val, &end, 10) : 0;

			if (!val || !*val || *end || !n) {
				fprintf(stderr, "raidbench run: command line: option 'max-jobs': "
					"bad value '%s' (a number of jobs, at least 1)\n", val ? val : "");
				return -EINVAL;
			}
			c->max_jobs = n;
		} else if (!strcmp(key, "live-interval")) {
			char *end;
			unsigned long ms = val ? strtoul(val, &end, 10) : 0;

			if (!val || *end || ms < 10 || ms > 60000) {
				fprintf(stderr, "raidbench run: command line: option 'live-interval': "
					"bad value '%s' (milliseconds, 10 to 60000)\n", val ? val : "");
				return -EINVAL;
			}
			c->live_interval_ms = (unsigned)ms;
		} else if (!strcmp(key, "client")) {
			char *v = (char *)val;

			if (!v || !*v) {
				fprintf(stderr, "raidbench run: command line: option 'client' needs a "
					"server (host, host,port, ip:host,port, ip6:host,port, sock:path) "
					"or a file of them\n");
				return -EINVAL;
			}
			if (push(&c->clients, &c->nr_clients, sizeof(char *), &v))
				return -ENOMEM;
		} else if (!strcmp(key, "allow-destroy")) {
			char *v = (char *)val;

			if (!v || !*v) {
				fprintf(stderr, "raidbench run: command line: option 'allow-destroy' "
					"needs a device, e.g. --allow-destroy=/dev/sdb\n");
				return -EINVAL;
			}
			if (push(&c->allow, &c->nr_allow, sizeof(char *), &v))
				return -ENOMEM;
		} else if (!strcmp(key, "help")) {
			printf("usage: raidbench run [OPTIONS] [JOBFILE...]\n"
			       "  fio job options as --option=value; --name=NAME starts a job\n"
			       "  --profile=NAME  a built-in or user profile (raidbench profiles)\n"
			       "  --output-format=normal|json|json+|terse (comma list)  --output=FILE\n"
			       "  --parse-only  --showcmd  --readonly  --allow-destroy=DEVICE  --no-save\n"
			       "  --max-jobs=N  refuse job files with more than N jobs (fio's)\n"
			       "  --live=FILE|-  live JSON Lines, one object per tick\n"
			       "  --live-interval=MS  the tick (default 100)\n"
			       "  --client=HOST  run on fio servers (fio --server), repeatable;\n"
			       "      host, host,port, ip:host,port, ip6:host,port, sock:path, or a file\n");
			exit(0);
		} else {
			struct cmd_opt o = { .key = key, .value = val };

			if (push(&c->opts, &c->nr_opts, sizeof(o), &o))
				return -ENOMEM;
		}
	}
	return 0;
}

static void fmt_bs(char *buf, size_t len, uint64_t v)
{
	const char *units[] = { "B", "KiB", "MiB", "GiB" };
	int u = 0;

	while (v >= 10000 && !(v % 1024) && u < 3) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, "%llu%s", (unsigned long long)v, units[u]);
}

/* fio's per-job header lines, before the run. */
static void print_header(FILE *f, const struct job_list *jl)
{
	size_t i, n = 0;
	const char *last = NULL;

	for (i = 0; i < jl->nr; i++) {
		const struct job_spec *j = &jl->jobs[i];
		char b[3][2][32], rw[32];
		int d;

		n += j->numjobs;
		for (d = 0; d < 3; d++) {
			fmt_bs(b[d][0], sizeof(b[d][0]), j->nr_bssplit[d] ? j->bssplit[d][0].bs : j->bs[d]);
			fmt_bs(b[d][1], sizeof(b[d][1]), j->bs_max[d] > j->bs[d] ? j->bs_max[d] : j->bs[d]);
		}
		if (last && !strcmp(last, j->name))
			continue;
		last = j->name;
		profile_fmt_rw(rw, sizeof(rw), j->rw);
		fprintf(f, "%s: (g=%d): rw=%s, bs=(R) %s-%s, (W) %s-%s, (T) %s-%s, ioengine=%s, "
			"iodepth=%u\n", j->name, j->groupid, rw, b[0][0], b[0][1],
			b[1][0], b[1][1], b[2][0], b[2][1], j->ioengine, j->iodepth);
	}
	fprintf(f, "raidbench-%s\nStarting %zu thread%s\n", PACKAGE_VERSION, n, n == 1 ? "" : "s");
	fflush(f);
}

static void on_setup_done(void *arg, const struct job_list *jl, const struct run_layout *lay)
{
	struct run_view *v = arg;

	run_output_start(v->out);
	if (v->header_out)
		print_header(v->header_out, jl);
	/* automatic NUMA placement (core/numa_place.c): each job's node, said once */
	for (size_t i = 0; lay->worker_nodes && i < lay->nr_workers; i++)
		if (lay->worker_nodes[i] >= 0 &&
		    (!i || strcmp(lay->worker_names[i], lay->worker_names[i - 1]) ||
		     lay->worker_nodes[i] != lay->worker_nodes[i - 1]))
			tty_fprintf(stderr, "raidbench run: job '%s' runs on NUMA node %d, its target's\n",
				    lay->worker_names[i], lay->worker_nodes[i]);
	if (v->live)
		live_json_layout(v->live, lay);
	v->lay = lay;
	/* without memory the run goes on unwatched: the final results do not need the view */
	if (live_view_init(&v->view, lay->nr_workers, lay->nr_disks, lay->disk_names))
		fprintf(stderr, "raidbench run: no memory for the live view\n");
}

static void on_record(void *arg, const struct live_rec *rec)
{
	struct run_view *v = arg;

	if (v->view.now.jobs && live_view_feed(&v->view, rec)) {
		status_line_tick(&v->status, &v->view.now);
		if (v->live)
			live_json_tick(v->live, &v->view.now);
	}
	/* a job failed: said at once, not at the run's end (the final report says it again) */
	if (v->view.nr_errors != v->nr_errors) {
		size_t j = v->view.last_error;
		char line[LIVE_ERROR_MAX + 128];

		v->nr_errors = v->view.nr_errors;
		live_view_error_line(&v->view, j, v->lay && j < v->lay->nr_workers ?
				     v->lay->worker_names[j] : "?", line, sizeof(line));
		status_line_error(&v->status, line);
		if (v->live)
			live_json_error(v->live, rec->t_ns, j, v->view.error[j]);
	}
	if (v->stall_ms && !v->stalled && rec->t_ns >= v->stall_at_ns) {
		/* RAIDBENCH_TEST_STALL: the consumer stops reading; the engine must not wait */
		struct timespec ts = { .tv_sec = v->stall_ms / 1000,
				       .tv_nsec = (long)(v->stall_ms % 1000) * 1000000 };

		v->stalled = true;
		nanosleep(&ts, NULL);
	}
}

/* RAIDBENCH_TEST_STALL=AT_MS:FOR_MS makes the live consumer sleep once (tests only). */
static void stall_hook(struct run_view *v)
{
	const char *e = getenv("RAIDBENCH_TEST_STALL");
	unsigned at, len;

	if (e && sscanf(e, "%u:%u", &at, &len) == 2) {
		v->stall_at_ns = (uint64_t)at * 1000000ull;
		v->stall_ms = len;
	}
}

static int emit_reports(FILE *out, const struct run_report *rep, unsigned formats)
{
	int ret = 0;

	if (formats & REPORT_NORMAL)
		ret |= report_normal(out, rep);
	if (formats & (REPORT_JSON | REPORT_JSON_PLUS))
		ret |= report_json(out, rep, formats & REPORT_JSON_PLUS);
	if (formats & REPORT_TERSE)
		ret |= report_terse(out, rep);
	return ret;
}

static bool has_opt(const struct cmd_opt *o, size_t n, const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(o[i].key, key))
			return true;
	return false;
}

/*
 * With --profile: a profile leaves the target and the run length to the user,
 * so the options given before any --name= win over the profile's own (jobs
 * given with --name= come after the profile's, as fio's). With no
 * --filename= or --directory=, the run goes to the scratch file, never to
 * files in the current directory.
 */
static int load_profile_jobs(struct job_list *jl, const struct run_cli *c, char *err,
			     size_t errlen)
{
	static char scratch[PATH_MAX];
	size_t nr_over = 0, n = 0, i;
	struct cmd_opt *opts;
	int ret;

	while (nr_over < c->nr_opts && strcmp(c->opts[nr_over].key, "name"))
		nr_over++;
	opts = calloc(c->nr_opts - nr_over + 2, sizeof(*opts));
	if (!opts)
		return -ENOMEM;
	if (!has_opt(c->opts, nr_over, "filename") && !has_opt(c->opts, nr_over, "directory")) {
		ret = scratch_file(scratch, sizeof(scratch), true, err, errlen);
		if (ret) {
			free(opts);
			return ret;
		}
		setenv("TARGET", scratch, 1);
		opts[n++] = (struct cmd_opt){ "filename", scratch };
		if (!has_opt(c->opts, nr_over, "size"))
			opts[n++] = (struct cmd_opt){ "size", "64m" };
		fprintf(stderr, "raidbench run: no --filename: the profile runs on the scratch file "
			"%s (a file: no device is written)\n", scratch);
	}
	for (i = nr_over; i < c->nr_opts; i++)
		opts[n++] = c->opts[i];
	ret = jobs_load_over(jl, opts, n, c->files, c->nr_files, c->opts, nr_over, err, errlen);
	free(opts);
	return ret;
}

static void release_cli(struct run_cli *c)
{
	free(c->opts);
	free(c->files);
	free(c->allow);
	free(c->clients);
}

/*
 * Says where raidbench's effect differs from fio's for the options used, and
 * holds the job list to fio's --max-jobs. Nonzero: refused (message printed).
 */
static int print_notes(const struct job_list *jl, const struct run_cli *c)
{
	char *notes = jobs_notes(jl), *line, *save = NULL;
	size_t i, clones = 0;

	/* asked for by --parse-only only: a run's stderr stays fio's (scripts check it) */
	for (line = notes && c->parse_only ? strtok_r(notes, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save))
		tty_fprintf(stderr, "raidbench run: note: %s\n", line);	/* names and commands from the job file */
	free(notes);
	for (i = 0; i < jl->nr; i++)
		clones += jl->jobs[i].numjobs ? jl->jobs[i].numjobs : 1;
	if (c->max_jobs && clones > c->max_jobs) {
		fprintf(stderr, "raidbench run: %zu jobs (numjobs clones counted) are more than "
			"--max-jobs=%lu\n", clones, c->max_jobs);
		return -EINVAL;
	}
	return 0;
}

int cmd_run(int argc, char **argv)
{
	struct run_cli c = { 0 };
	struct job_list jl = { 0 };
	struct guard_consent consent = { 0 };
	struct run_view view;
	struct run_observer obs = { 0 };
	struct run_params params = { 0 };
	struct run_result res;
	struct run_report rep;
	struct run_output out;
	char err[1024] = "", werr[PATH_MAX + 128];
	bool failed_write = false;
	int ret, status_code = 0, nr_profiles;

	nr_profiles = profiles_expand_args(argc, argv);
	if (nr_profiles < 0)
		return EXIT_USAGE;
	if (parse_cli(argc, argv, &c)) {
		release_cli(&c);
		return EXIT_USAGE;
	}
	if (nr_profiles && c.nr_clients && !has_opt(c.opts, c.nr_opts, "filename") &&
	    !has_opt(c.opts, c.nr_opts, "directory")) {
		fprintf(stderr, "raidbench run: a profile on fio servers needs --filename= or "
			"--directory= (a path on the servers; the console's scratch file is not "
			"there)\n");
		release_cli(&c);
		return EXIT_USAGE;
	}
	if (nr_profiles)
		ret = load_profile_jobs(&jl, &c, err, sizeof(err));
	else
		ret = jobs_load(&jl, c.opts, c.nr_opts, c.files, c.nr_files, err, sizeof(err));
	if (ret) {
		tty_fprintf(stderr, "raidbench run: %s\n", err);	/* quotes the job file */
		release_cli(&c);
		return EXIT_USAGE;
	}
	/* fio refuses a writing job under --readonly while parsing, so --parse-only does too */
	if (run_check_readonly(&jl, c.readonly, err, sizeof(err))) {
		fprintf(stderr, "raidbench run: %s\n", err);
		job_list_release(&jl);
		release_cli(&c);
		return EXIT_USAGE;
	}
	if (print_notes(&jl, &c)) {
		job_list_release(&jl);
		release_cli(&c);
		return EXIT_USAGE;
	}
	if (c.showcmd) {
		char *cmd = jobs_to_cmdline(&jl);

		printf("%s\n", cmd ? cmd : "");
		free(cmd);
	}
	if (c.parse_only || c.showcmd) {
		job_list_release(&jl);
		release_cli(&c);
		return 0;
	}
	consent.paths = c.allow;
	consent.nr = c.nr_allow;
	consent.readonly = c.readonly;
	if (c.nr_clients) {
		struct fleet_cli fc = { .clients = c.clients, .nr_clients = c.nr_clients,
					.formats = c.formats, .output = c.output, .live = c.live,
					.interval_ms = c.live_interval_ms, .no_save = c.no_save,
					.consent = &consent };

		status_code = run_fleet(&jl, &fc);
		job_list_release(&jl);
		release_cli(&c);
		return status_code;
	}
	if (run_output_open(&out, c.output, &consent, err, sizeof(err))) {
		fprintf(stderr, "raidbench run: --output: %s\n", err);
		job_list_release(&jl);
		release_cli(&c);
		return EXIT_USAGE;
	}

	cli_catch_stop_signals(on_signal);
	/* a reader that went away is a write error to report; the results are still saved */
	signal(SIGPIPE, SIG_IGN);
	memset(&view, 0, sizeof(view));
	status_line_init(&view.status);
	stall_hook(&view);
	if (c.live) {
		view.live = live_json_open(c.live, &consent, err, sizeof(err));
		if (!view.live) {
			fprintf(stderr, "raidbench run: --live: %s\n", err);
			job_list_release(&jl);
			release_cli(&c);
			run_output_close(&out, err, sizeof(err));
			return EXIT_USAGE;
		}
		if (!strcmp(c.live, "-"))
			view.status.enabled = false;
	}
	view.out = &out;
	view.header_out = (c.formats & REPORT_NORMAL) && !(c.live && !strcmp(c.live, "-") &&
							   !c.output) ? out.f : NULL;
	obs.setup_done = on_setup_done;
	obs.record = on_record;
	obs.arg = &view;
	obs.interval_ms = c.live_interval_ms ? c.live_interval_ms : 100;
	params.consent = &consent;
	params.observer = &obs;
	params.interrupt = &interrupted;

	ret = run_jobs(&jl, &params, &res, err, sizeof(err));
	live_view_release(&view.view);
	status_line_clear(&view.status);
	if (view.live && live_json_close(view.live, werr, sizeof(werr)) < 0) {
		fprintf(stderr, "raidbench run: --live: %s%s\n", werr,
			ret ? "" : "; the final results are complete");
		failed_write = true;
	}
	view.live = NULL;
	if (res.live_drops)
		fprintf(stderr, "raidbench run: the live view fell behind and dropped %llu records; "
			"the final results are exact\n", (unsigned long long)res.live_drops);
	if (ret) {
		fprintf(stderr, "raidbench run: %s\n", err);
		/* nothing ran: the caller's --output is as it was (a file made for it is gone) */
		run_output_close(&out, werr, sizeof(werr));
		status_code = ret == -ENOMEM || res.setup_wrote || failed_write ? 1 : EXIT_USAGE;
		run_result_release(&res);
		job_list_release(&jl);
		release_cli(&c);
		return status_code;
	}
	/* both quote job files and commands: outside text */
	if (res.error_msgs[0])
		tty_fprintf(stderr, "%s", res.error_msgs);
	if (res.notes[0])
		tty_fprintf(stderr, "%s", res.notes);

	run_report_init(&rep, &jl, &res);
	errno = 0;	/* the first failed write's errno names the reason below */
	emit_reports(out.f, &rep, c.formats);
	if (run_output_close(&out, werr, sizeof(werr))) {
		fprintf(stderr, "raidbench run: %s\n", werr);
		failed_write = true;
	}
	if (!c.no_save) {
		char path[4096];

		if (results_save(&rep, &res, identity_probe, path, sizeof(path), err, sizeof(err))) {
			fprintf(stderr, "raidbench run: the results were not saved: %s\n", err);
			failed_write = true;
		}
	}
	if (res.interrupted)
		fprintf(stderr, "raidbench run: interrupted; the results above are partial\n");
	if (failed_write || res.error)
		status_code = 1;
	else if (res.interrupted)
		status_code = EXIT_SIGNAL(interrupted ? interrupted : SIGINT);
	run_result_release(&res);
	job_list_release(&jl);
	release_cli(&c);
	return status_code;
}
