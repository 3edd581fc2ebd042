/*
 * tui_test.c - screen tests the tig way: `raidbench tui-test [--size=RxC]
 * [--ascii] [--import=TOOL:FILE] SCRIPT` runs the real TUI off-screen
 * (newterm on /dev/null), feeds it the keys of a script and dumps the screen
 * as text for golden-file comparison. Script lines:
 *
 *   key NAME       F1..F12 Enter Esc Tab Up Down Left Right PgUp PgDn Home End
 *                  Space Backspace, ^X (Ctrl-X), or one character
 *   type TEXT      each character of TEXT as a key
 *   resize R C     the terminal becomes R rows by C columns
 *   fake-run N [C [D]] [numa]  N ticks of deterministic live records into
 *                  the Run screen; with C, the second job has C clones; with
 *                  numa, the workers are placed as on a two-node machine (the
 *                  first job on node 0, the second's clones on node 1); with D,
 *                  D jobs of C clones each over D devices (one device per job)
 *   fake-text J TEXT  job J's latest text (exec's output), as the sampler sends
 *                  it: LIVE_TEXT parts, TEXT as it stands (already escaped)
 *   fake-error J TEXT  job J failed with error TEXT, as the sampler sends it
 *                  (LIVE_ERROR parts)
 *   fake-fleet N [lost|version]   the same for a run on four fio servers
 *   wait-run S     a real run: poll until it ends (at most S seconds)
 *   dump FILE      the screen as text ("-" = stdout)
 *   # ...          a comment
 */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

#include "demo.h"
#include "tui.h"
#include "tui_int.h"
#include "live_rec.h"
#include "stats.h"

static const struct {
	const char *name;
	int key;
} key_names[] = {
	{ "Enter", '\n' },	{ "Esc", 27 },		 { "Tab", '\t' },
	{ "Up", KEY_UP },	{ "Down", KEY_DOWN },	 { "Left", KEY_LEFT },
	{ "Right", KEY_RIGHT }, { "PgUp", KEY_PPAGE },	 { "PgDn", KEY_NPAGE },
	{ "Home", KEY_HOME },	{ "End", KEY_END },	 { "Space", ' ' },
	{ "Backspace", KEY_BACKSPACE },
};

static int parse_key(const char *s)
{
	size_t i;

	if ((s[0] == 'F' || s[0] == 'f') && s[1] >= '1' && s[1] <= '9')
		return KEY_F(atoi(s + 1));
	/* "^U": Ctrl-U */
	if (s[0] == '^' && s[1] >= '@' && s[1] <= '_' && !s[2])
		return s[1] & 0x1f;
	for (i = 0; i < sizeof(key_names) / sizeof(key_names[0]); i++)
		if (!strcasecmp(s, key_names[i].name))
			return key_names[i].key;
	if (s[0] && !s[1])
		return (unsigned char)s[0];
	return -1;
}

/* The screen as UTF-8 text, trailing blanks trimmed. */
static int dump(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	int y, x;

	if (!f) {
		fprintf(stderr, "tui-test: %s: %s\n", path, strerror(errno));
		return -errno;
	}
	for (y = 0; y < LINES; y++) {
		char line[4096];
		size_t o = 0, keep = 0;

		for (x = 0; x < COLS; x++) {
			cchar_t cc;
			wchar_t wch[CCHARW_MAX + 1];
			attr_t attrs;
			short pair;
			char mb[MB_LEN_MAX * (CCHARW_MAX + 1)];
			size_t n;

			if (mvin_wch(y, x, &cc) == ERR)
				break;
			if (getcchar(&cc, wch, &attrs, &pair, NULL) == ERR)
				continue;
			if (!wch[0])
				continue;	/* the right half of a wide character */
			n = wcstombs(mb, wch, sizeof(mb));
			if (n == (size_t)-1) {
				mb[0] = '?';
				n = 1;
			}
			if (o + n >= sizeof(line))
				break;
			memcpy(line + o, mb, n);
			o += n;
			if (!(n == 1 && mb[0] == ' '))
				keep = o;
		}
		line[keep] = '\0';
		fprintf(f, "%s\n", line);
	}
	if (f != stdout)
		fclose(f);
	else
		fflush(f);
	return 0;
}

/*
 * Deterministic live records: two jobs (the second with `clones` clones) and
 * one device, values from the tick number. The second job reads in the first
 * half and writes in the second, so both directions (and a latency spike a
 * decade above) reach the charts.
 */
static void fake_run(struct app *app, int ticks, int clones, bool numa)
{
	static const char *const disks[] = { "loop7" };
	const char *names[65];
	int groups[65], nodes[65], t, j, nr, d;
	struct run_layout lay = { .worker_names = names, .worker_groups = groups,
				  .worker_nodes = numa ? nodes : NULL,
				  .nr_disks = 1, .disk_names = disks, .interval_ms = 100 };

	if (clones < 1 || clones > 64)
		clones = 1;
	nr = 1 + clones;
	names[0] = "seq-read-1m";
	groups[0] = 0;
	nodes[0] = 0;
	for (j = 1; j < nr; j++) {
		names[j] = "rand-4k";
		groups[j] = 1;
		nodes[j] = 1;
	}
	lay.nr_workers = (size_t)nr;
	scr_run_reset(app->state[SCR_RUN]);
	scr_run_layout(app->state[SCR_RUN], NULL, &lay);
	for (t = 1; t <= ticks; t++) {
		uint64_t now = (uint64_t)t * 100000000ull;
		struct live_rec rec;
		uint32_t ios_tot[2] = { 0, 0 };
		uint64_t bytes_tot[2] = { 0, 0 };
		bool writing = t > ticks / 2;

		for (j = 0; j < nr; j++) {
			uint32_t ios = (uint32_t)(j ? (20000 + 300 * (t % 17)) / clones + 7 * (j - 1)
					    : 400 + 10 * (t % 5));
			uint32_t bs = j ? 4096 : 1048576;
			int dir = j && writing ? DDIR_WRITE : DDIR_READ;

			memset(&rec, 0, sizeof(rec));
			rec.type = LIVE_IO;
			rec.ddir = (uint8_t)dir;
			rec.job = (uint16_t)j;
			rec.t_ns = now;
			rec.u.io.ios = ios;
			rec.u.io.bytes = (uint64_t)ios * bs;
			rec.u.io.tot_ios = (uint64_t)ios * (uint64_t)t;
			rec.u.io.tot_bytes = rec.u.io.bytes * (uint64_t)t;
			rec.u.io.p50_ns = j ? 90000 + 1000 * (uint32_t)(t % 7) : 2400000;
			rec.u.io.p99_ns = j ? 400000 + 20000 * (uint32_t)(t % 9) : 9000000;
			rec.u.io.p999_ns = j ? 1200000 + 50000 * (uint32_t)(t % 11) : 15000000;
			rec.u.io.max_ns = 30000000;
			rec.u.io.mean_ns = j ? 120000 : 2500000;
			scr_run_record(app->state[SCR_RUN], &rec);
			ios_tot[dir] += ios;
			bytes_tot[dir] += rec.u.io.bytes;
			memset(&rec, 0, sizeof(rec));
			rec.type = LIVE_STATUS;
			rec.job = (uint16_t)j;
			/* with clones, the first job finishes halfway: its row shows its whole run */
			rec.ddir = clones > 1 && !j && t > ticks / 2 ? PHASE_DONE : PHASE_RUN;
			rec.u.st.inflight = 1;
			rec.t_ns = now;
			scr_run_record(app->state[SCR_RUN], &rec);
		}
		for (d = 0; d < 2; d++) {
			if (!ios_tot[d])
				continue;
			memset(&rec, 0, sizeof(rec));
			rec.type = LIVE_IO;
			rec.ddir = (uint8_t)d;
			rec.job = LIVE_TOTAL;
			rec.t_ns = now;
			rec.u.io.ios = ios_tot[d];
			rec.u.io.bytes = bytes_tot[d];
			rec.u.io.p50_ns = d ? 60000 : 95000;
			rec.u.io.p99_ns = (d ? 300000 : 8000000) + 100000 * (uint32_t)(t % 13);
			/* one tick's spike, a decade above the rest */
			rec.u.io.p999_ns = t == ticks / 4 ? 45000000 :
					   (d ? 900000 : 14000000) + 200000 * (uint32_t)(t % 7);
			rec.u.io.max_ns = 50000000;
			scr_run_record(app->state[SCR_RUN], &rec);
		}
		memset(&rec, 0, sizeof(rec));
		rec.type = LIVE_DISK;
		rec.job = 0;
		rec.t_ns = now;
		rec.u.disk.r_ios = ios_tot[0];
		rec.u.disk.r_sectors = (uint32_t)(bytes_tot[0] / 512);
		rec.u.disk.r_ticks = ios_tot[0] / 4;
		rec.u.disk.w_ios = ios_tot[1];
		rec.u.disk.w_sectors = (uint32_t)(bytes_tot[1] / 512);
		rec.u.disk.w_ticks = ios_tot[1] / 8;
		rec.u.disk.io_ticks = 98;
		rec.u.disk.queue_ticks = 3100;
		rec.u.disk.interval_ms = 100;
		rec.u.disk.util_meaningful = 1;
		scr_run_record(app->state[SCR_RUN], &rec);
		memset(&rec, 0, sizeof(rec));
		rec.type = LIVE_STATUS;
		rec.job = LIVE_TOTAL;
		rec.t_ns = now;
		rec.u.st.running = 2;
		rec.u.st.inflight = 33;
		rec.u.st.interval_ns = 100000000;
		rec.u.st.percent = (float)(100.0 * t / (ticks + 10));
		rec.u.st.eta_s = (uint64_t)(ticks + 10 - t) / 10;
		scr_run_record(app->state[SCR_RUN], &rec);
		memset(&rec, 0, sizeof(rec));
		rec.type = LIVE_TICK_END;
		rec.t_ns = now;
		scr_run_record(app->state[SCR_RUN], &rec);
	}
}

/* Job j's text in LIVE_TEXT (or LIVE_ERROR) parts, numbered one after another as the sampler does. */
static void fake_text(struct app *app, uint8_t type, unsigned j, const char *text)
{
	static uint32_t seq;
	size_t len = strlen(text), at = 0;
	uint8_t part = 0;

	do {
		struct live_rec rec = { .type = type, .job = (uint16_t)j, .seq = seq++ };
		size_t n = len - at < LIVE_TEXT_PART ? len - at : LIVE_TEXT_PART;

		rec.u.text.part = part++;
		rec.u.text.parts = (uint8_t)(len ? (len + LIVE_TEXT_PART - 1) / LIVE_TEXT_PART : 1);
		rec.u.text.len = (uint8_t)n;
		memcpy(rec.u.text.s, text + at, n);
		at += n;
		scr_run_record(app->state[SCR_RUN], &rec);
	} while (at < len);
}

/*
 * A run over several devices: ndev jobs of `clones` clones each, job k on
 * device k, every device busy (4k random reads, the rate from the tick and
 * the device's number, so each row differs).
 */
static void fake_run_devs(struct app *app, int ticks, int clones, int ndev)
{
	static char dnames[16][16], jnames[16][16];
	const char *disks[16], *names[16 * 16];
	int groups[16 * 16], t, j, k, nr;
	struct run_layout lay = { .worker_names = names, .worker_groups = groups,
				  .disk_names = disks, .interval_ms = 100 };

	if (clones < 1 || clones > 16)
		clones = 1;
	if (ndev > 16)
		ndev = 16;
	for (k = 0; k < ndev; k++) {
		snprintf(dnames[k], sizeof(dnames[k]), "loop%d", 10 + k);
		snprintf(jnames[k], sizeof(jnames[k]), "dev%d", k + 1);
		disks[k] = dnames[k];
		for (j = 0; j < clones; j++) {
			names[k * clones + j] = jnames[k];
			groups[k * clones + j] = k;
		}
	}
	nr = ndev * clones;
	lay.nr_workers = (size_t)nr;
	lay.nr_disks = (size_t)ndev;
	scr_run_reset(app->state[SCR_RUN]);
	scr_run_layout(app->state[SCR_RUN], NULL, &lay);
	for (t = 1; t <= ticks; t++) {
		uint64_t now = (uint64_t)t * 100000000ull;
		struct live_rec rec;
		uint32_t ios_tot = 0;

		for (j = 0; j < nr; j++) {
			uint32_t ios = 500 + 40 * (uint32_t)(j / clones) + 3 * (uint32_t)(t % 7);

			memset(&rec, 0, sizeof(rec));
			rec.type = LIVE_IO;
			rec.ddir = DDIR_READ;
			rec.job = (uint16_t)j;
			rec.t_ns = now;
			rec.u.io.ios = ios;
			rec.u.io.bytes = (uint64_t)ios * 4096;
			rec.u.io.tot_ios = (uint64_t)ios * (uint64_t)t;
			rec.u.io.tot_bytes = rec.u.io.bytes * (uint64_t)t;
			rec.u.io.p50_ns = 200000;
			rec.u.io.p99_ns = 800000 + 10000 * (uint32_t)(j / clones);
			rec.u.io.p999_ns = 2000000;
			rec.u.io.max_ns = 9000000;
			rec.u.io.mean_ns = 250000;
			scr_run_record(app->state[SCR_RUN], &rec);
			ios_tot += ios;
			memset(&rec, 0, sizeof(rec));
			rec.type = LIVE_STATUS;
			rec.job = (uint16_t)j;
			rec.ddir = PHASE_RUN;
			rec.u.st.inflight = 4;
			rec.t_ns = now;
			scr_run_record(app->state[SCR_RUN], &rec);
		}
		memset(&rec, 0, sizeof(rec));
		rec.type = LIVE_IO;
		rec.ddir = DDIR_READ;
		rec.job = LIVE_TOTAL;
		rec.t_ns = now;
		rec.u.io.ios = ios_tot;
		rec.u.io.bytes = (uint64_t)ios_tot * 4096;
		rec.u.io.p50_ns = 200000;
		rec.u.io.p99_ns = 900000;
		rec.u.io.p999_ns = 2000000;
		rec.u.io.max_ns = 9000000;
		scr_run_record(app->state[SCR_RUN], &rec);
		for (k = 0; k < ndev; k++) {
			uint32_t ios = (uint32_t)clones * (500 + 40 * (uint32_t)k + 3 * (uint32_t)(t % 7));

			memset(&rec, 0, sizeof(rec));
			rec.type = LIVE_DISK;
			rec.job = (uint16_t)k;
			rec.t_ns = now;
			rec.u.disk.r_ios = ios;
			rec.u.disk.r_sectors = ios * 8;
			rec.u.disk.r_ticks = ios / 4;
			rec.u.disk.io_ticks = 90 + (uint32_t)k;
			rec.u.disk.queue_ticks = 3000;
			rec.u.disk.interval_ms = 100;
			rec.u.disk.util_meaningful = 1;
			scr_run_record(app->state[SCR_RUN], &rec);
		}
		memset(&rec, 0, sizeof(rec));
		rec.type = LIVE_STATUS;
		rec.job = LIVE_TOTAL;
		rec.t_ns = now;
		rec.u.st.running = (uint32_t)nr;
		rec.u.st.inflight = (uint32_t)nr * 4;
		rec.u.st.interval_ns = 100000000;
		rec.u.st.percent = (float)(100.0 * t / (ticks + 10));
		rec.u.st.eta_s = (uint64_t)(ticks + 10 - t) / 10;
		scr_run_record(app->state[SCR_RUN], &rec);
		memset(&rec, 0, sizeof(rec));
		rec.type = LIVE_TICK_END;
		rec.t_ns = now;
		scr_run_record(app->state[SCR_RUN], &rec);
	}
}

static void wait_run(struct app *app, int seconds)
{
	struct timespec ts = { 0, 50 * 1000000L };
	int i;

	for (i = 0; i < seconds * 20 && app_run_active(app); i++) {
		app_run_poll(app);
		nanosleep(&ts, NULL);
	}
	app_run_poll(app);
}

int tui_test_main(int argc, char **argv)
{
	static const char *imports[16];
	const char *script = NULL, *term = getenv("TERM");
	struct app app;
	FILE *in, *null_out, *null_in;
	SCREEN *scr;
	char line[4096];
	int rows = 24, cols = 80, i, ret = 0;

	memset(&app, 0, sizeof(app));
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "--size=", 7) && sscanf(argv[i] + 7, "%dx%d", &rows, &cols) == 2)
			continue;
		if (!strcmp(argv[i], "--ascii"))
			app.ascii = true;
		else if (!strncmp(argv[i], "--import=", 9) && app.nr_imports < 16)
			imports[app.nr_imports++] = argv[i] + 9;
		else if (!strncmp(argv[i], "--sysfs-root=", 13))
			app.sysfs_root = argv[i] + 13;
		else if (!strcmp(argv[i], "--demo")) {
			char err[4200];
			size_t n;

			if (demo_imports(imports + app.nr_imports, 16 - app.nr_imports, &n, err,
					 sizeof(err))) {
				fprintf(stderr, "tui-test: --demo: %s\n", err);
				return 2;
			}
			app.nr_imports += n;
		}
		else if (argv[i][0] != '-')
			script = argv[i];
		else {
			fprintf(stderr, "tui-test: unknown option '%s'\n", argv[i]);
			return 2;
		}
	}
	app.imports = imports;
	app.test_mode = true;
	if (!script || !(in = fopen(script, "r"))) {
		fprintf(stderr, "tui-test: usage: raidbench tui-test [--size=RxC] [--ascii] "
			"[--import=TOOL:FILE] SCRIPT\n");
		return 2;
	}
	if (!theme_locale_utf8())
		app.ascii = true;
	null_out = fopen("/dev/null", "w");
	null_in = fopen("/dev/null", "r");
	scr = newterm(term && *term ? term : "xterm-256color", null_out, null_in);
	if (!scr) {
		fprintf(stderr, "tui-test: newterm failed for TERM=%s\n", term ? term : "");
		return 1;
	}
	set_term(scr);
	resizeterm(rows, cols);
	tui_setup_terminal(&app);
	if (app_init(&app)) {
		endwin();
		return 1;
	}
	while (fgets(line, sizeof(line), in)) {
		char *arg, *nl = strchr(line, '\n');

		if (nl)
			*nl = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		arg = strchr(line, ' ');
		if (arg)
			*arg++ = '\0';
		tui_draw(&app);
		if (!strcmp(line, "key") && arg) {
			int k = parse_key(arg);

			if (k < 0) {
				fprintf(stderr, "tui-test: unknown key '%s'\n", arg);
				ret = 2;
				break;
			}
			tui_key(&app, k);
		} else if (!strcmp(line, "type") && arg) {
			for (; *arg; arg++) {
				tui_key(&app, (unsigned char)*arg);
				tui_draw(&app);
			}
		} else if (!strcmp(line, "resize") && arg && sscanf(arg, "%d %d", &rows, &cols) == 2) {
			resizeterm(rows, cols);
			tui_key(&app, KEY_RESIZE);
		} else if (!strcmp(line, "fake-run") && arg) {
			int ticks = 0, clones = 1, devs = 0;

			sscanf(arg, "%d %d %d", &ticks, &clones, &devs);
			if (devs > 0)
				fake_run_devs(&app, ticks, clones, devs);
			else
				fake_run(&app, ticks, clones, strstr(arg, "numa") != NULL);
		} else if (!strcmp(line, "fake-text") && arg && strchr(arg, ' ')) {
			fake_text(&app, LIVE_TEXT, (unsigned)atoi(arg), strchr(arg, ' ') + 1);
		} else if (!strcmp(line, "fake-error") && arg && strchr(arg, ' ')) {
			fake_text(&app, LIVE_ERROR, (unsigned)atoi(arg), strchr(arg, ' ') + 1);
		} else if (!strcmp(line, "fake-fleet") && arg) {
			char *fault = strchr(arg, ' ');

			tui_test_fake_fleet(&app, atoi(arg), fault ? fault + 1 : NULL);
		} else if (!strcmp(line, "wait-run") && arg) {
			wait_run(&app, atoi(arg));
		} else if (!strcmp(line, "dump") && arg) {
			tui_draw(&app);
			if (dump(arg)) {
				ret = 1;
				break;
			}
		} else {
			fprintf(stderr, "tui-test: %s: bad line '%s%s%s'\n", script, line,
				arg ? " " : "", arg ? arg : "");
			ret = 2;
			break;
		}
		if (app.quit)
			break;
	}
	fclose(in);
	app_release(&app);
	endwin();
	delscreen(scr);
	fclose(null_out);
	fclose(null_in);
	return ret;
}
