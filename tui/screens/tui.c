/*
 * tui.c - the front end's frame loop: set up the terminal, draw the header
 * tabs, the current screen and the key bar every frame, drain the live ring,
 * dispatch keys and mouse clicks, and always give the terminal back (normal
 * exit, Ctrl-C, SIGTERM, SIGHUP, a fatal signal). A run stopped by a signal
 * is saved as q saves it, and the exit status is 128 + the signal.
 *
 * The same loop runs off-screen for screen tests: keys come from a script
 * and the screen is dumped as text (tui/screens/tui_test.c).
 */
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tui.h"
#include "child.h"
#include "demo.h"
#include "profile_set.h"
#include "tui_int.h"
#include "widgets.h"

#define MIN_ROWS 24
#define MIN_COLS 80

static const struct screen_ops *const screens[SCR_COUNT] = {
	[SCR_HELP] = &scr_help_ops,
	[SCR_DEVICES] = &scr_devices_ops,
	[SCR_PROFILES] = &scr_profiles_ops,
	[SCR_TARGET] = &scr_target_ops,
	[SCR_RUN] = &scr_run_ops,
	[SCR_RESULTS] = &scr_results_ops,
	[SCR_BUILDER] = &scr_builder_ops,
	[SCR_SWEEP] = &scr_sweep_ops,
};

/* The tab row and the key bar: F-key, screen. */
static const struct {
	const char *key;
	enum screen_id id;
} tabs[] = {
	{ "F1", SCR_HELP },    { "F2", SCR_DEVICES }, { "F3", SCR_PROFILES },
	{ "F4", SCR_TARGET },  { "F5", SCR_RUN },     { "F6", SCR_RESULTS },
};

/* got_sigstop: SIGTERM or SIGHUP, which stop a run and quit at once (a closed terminal is gone) */
static volatile sig_atomic_t got_sigint, got_sigstop;

static void on_sigint(int sig)
{
	got_sigint = 1;
	(void)sig;
}

static void on_sigstop(int sig)
{
	got_sigstop = sig;
}

/* A fatal signal: give the terminal back, then die the way the signal says. */
static void on_fatal(int sig)
{
	endwin();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = on_sigstop;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_fatal;
	sa.sa_flags = (int)SA_RESETHAND;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGABRT, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
}

void app_switch(struct app *app, enum screen_id id)
{
	if (id >= SCR_COUNT || id == app->current)
		return;
	app->previous = app->current;
	app->current = id;
	if (screens[id]->enter)
		screens[id]->enter(app, app->state[id]);
}

void app_message(struct app *app, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(app->message, sizeof(app->message), fmt, ap);
	va_end(ap);
}

bool tui_too_small(const struct app *app)
{
	return app->rows < MIN_ROWS || app->cols < MIN_COLS;
}

static void draw_header(struct app *app)
{
	const struct theme *t = app->theme;
	int x = 0;
	size_t i;

	w_text(0, 0, app->cols, theme_attr(t, EL_HEADER), true, " raidbench");
	x = 11;
	for (i = 0; i < sizeof(tabs) / sizeof(tabs[0]); i++) {
		const char *title = screens[tabs[i].id]->title;
		bool cur = tabs[i].id == app->current;
		int w = w_width(title) + 2;

		if (x + w >= app->cols)
			break;
		w_text(0, x, w, theme_attr(t, cur ? EL_TAB_ACTIVE : EL_HEADER), true, " %s ", title);
		x += w + 1;
	}
	if (app_run_active(app)) {
		char s[64];

		snprintf(s, sizeof(s), " %s running ", t->g->bullet);
		w_text(0, app->cols - w_width(s) - 1, w_width(s), theme_attr(t, EL_STATUS_BUSY) | A_REVERSE,
		       false, "%s", s);
	}
}

/* Short tab names for narrow terminals, so the screen's own keys still fit. */
static const char *const short_titles[SCR_COUNT] = {
	[SCR_HELP] = "Help", [SCR_DEVICES] = "Devs", [SCR_PROFILES] = "Prof",
	[SCR_TARGET] = "Targ", [SCR_RUN] = "Run", [SCR_RESULTS] = "Res",
};

static const char *tab_label(const struct app *app, size_t i)
{
	return app->cols < 100 ? short_titles[tabs[i].id] : screens[tabs[i].id]->title;
}

/*
 * Key bar: the screen switches, then the current screen's own hints, and
 * "q Quit" always at the right end; hints that do not fit are left out.
 */
static void draw_keybar(struct app *app)
{
	const struct theme *t = app->theme;
	const struct screen_ops *cur = screens[app->current];
	const struct key_hint *h = cur->hints_now ? cur->hints_now(app, app->state[app->current])
						  : cur->hints;
	int y = app->rows - 1, x = 0, end = app->cols - 6;
	size_t i;

	move(y, 0);
	attrset(theme_attr(t, EL_KEY_LABEL));
	for (i = 0; i < (size_t)app->cols; i++)
		addch(' ');
	attrset(A_NORMAL);
	for (i = 0; i < sizeof(tabs) / sizeof(tabs[0]); i++) {
		const char *label = tab_label(app, i);

		w_text(y, x, end - x, theme_attr(t, EL_KEY), false, "%s", tabs[i].key);
		x += (int)strlen(tabs[i].key);
		w_text(y, x, end - x, theme_attr(t, EL_KEY_LABEL), false, "%s ", label);
		x += w_width(label) + 1;
	}
	for (; h && h->key; h++) {
		int w = w_width(h->key) + w_width(h->label) + 1;

		if (x + w > end)
			break;
		w_text(y, x, end - x, theme_attr(t, EL_KEY), false, "%s", h->key);
		x += w_width(h->key);
		w_text(y, x, end - x, theme_attr(t, EL_KEY_LABEL), false, "%s ", h->label);
		x += w_width(h->label) + 1;
	}
	w_text(y, app->cols - 6, 1, theme_attr(t, EL_KEY), false, "q");
	w_text(y, app->cols - 5, 5, theme_attr(t, EL_KEY_LABEL), false, "Quit ");
}

static void draw_too_small(struct app *app)
{
	char msg[160];
	int y;

	erase();
	y = w_wrap(0, 0, app->cols, app->rows, A_BOLD, "raidbench: the terminal is too small");
	snprintf(msg, sizeof(msg), "It needs %dx%d and has %dx%d. Enlarge it, or press q to quit.",
		 MIN_COLS, MIN_ROWS, app->cols, app->rows);
	w_wrap(y, 0, app->cols, app->rows - y, A_NORMAL, msg);
}

void tui_draw(struct app *app)
{
	struct rect body;

	getmaxyx(stdscr, app->rows, app->cols);
	if (tui_too_small(app)) {
		draw_too_small(app);
		return;
	}
	erase();
	draw_header(app);
	body.y = 1;
	body.x = 0;
	body.w = app->cols;
	body.h = app->rows - 2;
	if (app->message[0]) {
		w_text(1, 0, app->cols, theme_attr(app->theme, EL_MESSAGE), true, " %s", app->message);
		body.y = 2;
		body.h--;
	}
	if (app->confirm_quit) {
		w_text(body.y, 0, app->cols, theme_attr(app->theme, EL_ERROR), true,
		       " A run is active. Press q again to stop it and quit, any other key to go on.");
		body.y++;
		body.h--;
	}
	screens[app->current]->draw(app, app->state[app->current], &body);
	draw_keybar(app);
}

/* Mouse: tabs on the top row, the key bar, else the screen. */
static int handle_click(struct app *app, int y, int x)
{
	size_t i;

	if (y == 0) {
		int tx = 11;

		for (i = 0; i < sizeof(tabs) / sizeof(tabs[0]); i++) {
			int w = w_width(screens[tabs[i].id]->title) + 2;

			if (x >= tx && x < tx + w) {
				app_switch(app, tabs[i].id);
				return EV_REDRAW;
			}
			tx += w + 1;
		}
		return EV_NONE;
	}
	if (y == app->rows - 1) {
		int kx = 0;

		for (i = 0; i < sizeof(tabs) / sizeof(tabs[0]); i++) {
			int w = (int)strlen(tabs[i].key) + w_width(tab_label(app, i)) + 1;

			if (x >= kx && x < kx + w) {
				app_switch(app, tabs[i].id);
				return EV_REDRAW;
			}
			kx += w;
		}
		if (x >= app->cols - 6)
			return EV_QUIT;
		return EV_NONE;
	}
	if (screens[app->current]->click)
		return screens[app->current]->click(app, app->state[app->current], y, x);
	return EV_NONE;
}

/* The screens' every-frame work, the visible one or not. */
static void app_poll_screens(struct app *app)
{
	int i;

	for (i = 0; i < SCR_COUNT; i++)
		if (screens[i]->poll && app->state[i])
			screens[i]->poll(app, app->state[i]);
}

static void request_quit(struct app *app)
{
	if (!app_run_active(app)) {
		app->quit = true;
		return;
	}
	if (app->confirm_quit) {
		app_run_stop(app);
		app->quit = true;
		return;
	}
	app->confirm_quit = true;
}

void tui_key(struct app *app, int ch)
{
	int ev = EV_NONE;
	size_t i;

	app->message[0] = '\0';
	if (app->confirm_quit && ch != 'q' && ch != 'Q') {
		app->confirm_quit = false;
		return;
	}
	if (ch == KEY_RESIZE)
		return;
	if (tui_too_small(app)) {
		if (ch == 'q' || ch == 'Q' || ch == KEY_F(10))
			request_quit(app);
		return;
	}
	if (ch == KEY_MOUSE) {
		MEVENT me;

		if (getmouse(&me) == OK && (me.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)))
			ev = handle_click(app, me.y, me.x);
	} else {
		for (i = 0; i < sizeof(tabs) / sizeof(tabs[0]); i++)
			if (ch == KEY_F(1 + (int)i)) {
				app_switch(app, tabs[i].id);
				return;
			}
		ev = screens[app->current]->key(app, app->state[app->current], ch);
		if (!(ev & EV_HANDLED)) {
			if (ch == '?')
				app_switch(app, SCR_HELP);
			else if (ch == 'q' || ch == 'Q' || ch == KEY_F(10))
				ev |= EV_QUIT;
			else if (ch == 27 || ch == KEY_BACKSPACE || ch == KEY_LEFT)
				ev |= EV_BACK;
		}
	}
	if (ev & EV_QUIT)
		request_quit(app);
	if ((ev & EV_BACK) && app->previous != app->current)
		app_switch(app, app->previous);
}

int app_init(struct app *app)
{
	size_t i;

	for (i = 0; i < SCR_COUNT; i++) {
		app->state[i] = screens[i]->init ? screens[i]->init(app) : NULL;
		if (screens[i]->init && !app->state[i])
			return -ENOMEM;
	}
	app->current = SCR_DEVICES;
	app->previous = SCR_DEVICES;
	app_load_inventory(app);
	if (screens[app->current]->enter)
		screens[app->current]->enter(app, app->state[app->current]);
	return 0;
}

void app_release(struct app *app)
{
	size_t i;

	app_run_wait_stopped(app);
	app_run_finish(app);
	app_release_probes(app);
	for (i = 0; i < SCR_COUNT; i++)
		if (screens[i]->release && app->state[i])
			screens[i]->release(app->state[i]);
	if (app->have_inv)
		inventory_release(&app->inv);
	app_profile_clear(&app->profile);
}

void tui_setup_terminal(struct app *app)
{
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);
	app->theme = theme_init(app->ascii);
	w_set_ascii(app->ascii);
	getmaxyx(stdscr, app->rows, app->cols);
}

/* --profile=NAME: a built-in or user profile, as `raidbench profiles` lists them. */
static int choose_profile(struct app *app, const char *name)
{
	struct profile_set set;
	int idx;

	memset(&set, 0, sizeof(set));
	if (profile_set_load(&set, NULL, 0)) {
		fprintf(stderr, "raidbench: out of memory\n");
		return -ENOMEM;
	}
	idx = profile_set_find(&set, name);
	if (idx < 0 || set.p[idx].error[0]) {
		fprintf(stderr, "raidbench: --profile=%s: %s (raidbench profiles lists them)\n", name,
			idx < 0 ? "no such profile" : set.p[idx].error);
		profile_set_release(&set);
		return -EINVAL;
	}
	snprintf(app->profile.name, sizeof(app->profile.name), "%s", set.p[idx].name);
	snprintf(app->profile.path, sizeof(app->profile.path), "%s", set.p[idx].path);
	profile_set_release(&set);
	return 0;
}

static int parse_args(struct app *app, int argc, char **argv, const char **imports,
		      size_t max_imports)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--ascii"))
			app->ascii = true;
		else if (!strncmp(argv[i], "--import=", 9) && app->nr_imports < max_imports)
			imports[app->nr_imports++] = argv[i] + 9;
		else if (!strcmp(argv[i], "--import") && i + 1 < argc && app->nr_imports < max_imports)
			imports[app->nr_imports++] = argv[++i];
		else if (!strncmp(argv[i], "--sysfs-root=", 13))
			app->sysfs_root = argv[i] + 13;
		else if (!strcmp(argv[i], "--demo")) {
			char err[PATH_MAX + 160];
			size_t n;

			/* the bundled captures, imported as --import would: read-only */
			if (demo_imports(imports + app->nr_imports, max_imports - app->nr_imports, &n,
					 err, sizeof(err))) {
				fprintf(stderr, "raidbench: --demo: %s\n", err);
				return -ENOENT;
			}
			app->nr_imports += n;
		} else if (!strncmp(argv[i], "--tool-timeout=", 15)) {
			char *end;
			double sec = strtod(argv[i] + 15, &end);

			if (end == argv[i] + 15 || *end || !(sec > 0) || sec > 86400) {
				fprintf(stderr, "raidbench: %s: seconds, above 0 and at most 86400\n",
					argv[i]);
				return -EINVAL;
			}
			app->tool_timeout_ms = sec * 1000 < 1 ? 1 : (int)(sec * 1000);
		}
		else if (!strncmp(argv[i], "--profile=", 10)) {
			if (choose_profile(app, argv[i] + 10))
				return -EINVAL;
		} else if (!strncmp(argv[i], "--target=", 9)) {
			struct stat st;

			snprintf(app->target.path, sizeof(app->target.path), "%s", argv[i] + 9);
			app->target.is_device = stat(argv[i] + 9, &st) == 0 && S_ISBLK(st.st_mode);
		} else if (!strncmp(argv[i], "--client=", 9) && argv[i][9] &&
			   app->run.nr_clients < sizeof(app->run.clients) / sizeof(app->run.clients[0])) {
			app->run.clients[app->run.nr_clients++] = argv[i] + 9;
		} else if (!strcmp(argv[i], "--start"))
			app->start_now = true;
		else {
			fprintf(stderr, "raidbench: unknown option '%s' (the TUI takes --ascii, "
				"--demo, --import=TOOL:FILE, --profile=NAME, --target=PATH, --client=HOST, --start, "
				"--tool-timeout=SECONDS)\n", argv[i]);
			return -EINVAL;
		}
	}
	app->imports = imports;
	return 0;
}

int tui_main(int argc, char **argv)
{
	static const char *imports[16];
	char saved[sizeof(((struct app_run *)0)->saved_path)];
	bool stopped_mid_run = false;
	struct app app;
	int ret, quit_sig = 0;

	memset(&app, 0, sizeof(app));
	if (parse_args(&app, argc, argv, imports, 16))
		return 2;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "raidbench: the TUI needs a terminal; for scripts use "
			"`raidbench run` (see raidbench --help)\n");
		return 2;
	}
	if (!theme_locale_utf8())
		app.ascii = true;
	if (!initscr()) {
		fprintf(stderr, "raidbench: cannot start the terminal interface (TERM=%s)\n",
			getenv("TERM") ? getenv("TERM") : "");
		return 1;
	}
	install_signals();
	tui_setup_terminal(&app);
	/* from here the screen is ours: a job's program must not write on it (engine_exec.c) */
	child_set_screen_owned(true);
	/* discovery reads sysfs and probes signatures before the first frame: say so */
	erase();
	w_text(0, 0, app.cols, A_BOLD, true, " raidbench");
	w_text(2, 1, app.cols - 2, A_NORMAL, false, "Reading this machine's controllers and block "
	       "devices (sysfs, signatures)%s", app.ascii ? "..." : "\u2026");
	w_text(3, 1, app.cols - 2, A_NORMAL, false, "The vendor tools on PATH are asked next, in "
	       "the background; Devices shows each one's state.");
	refresh();
	ret = app_init(&app);
	if (ret) {
		endwin();
		fprintf(stderr, "raidbench: out of memory\n");
		return 1;
	}
	if (app.start_now) {
		/* --start: straight to the Run screen with the chosen profile and target */
		app_switch(&app, SCR_RUN);
		if (app_run_start(&app))
			app_message(&app, "The run did not start: %s", app.run.error);
	}
	timeout(100);	/* a frame: drain the ring, redraw, 10 per second */
	while (!app.quit) {
		int ch;

		if (got_sigstop) {
			app_run_stop(&app);
			app.quit = true;
			quit_sig = got_sigstop;
			break;
		}
		if (got_sigint) {
			/* Ctrl-C is q: asks first while a run goes; the status says it was a signal */
			got_sigint = 0;
			request_quit(&app);
			if (app.quit)
				quit_sig = SIGINT;
		}
		app_run_poll(&app);
		app_poll_inventory(&app);
		app_poll_screens(&app);
		tui_draw(&app);
		refresh();
		ch = getch();
		if (ch != ERR)
			tui_key(&app, ch);
	}
	if (app_run_active(&app)) {
		/* quitting mid-run: the run stops and its results so far are saved, as with s */
		app_message(&app, "Stopping the run and saving its results so far...");
		tui_draw(&app);
		refresh();
		stopped_mid_run = app_run_wait_stopped(&app);
	}
	snprintf(saved, sizeof(saved), "%s", app.run.saved_path);
	app_release(&app);
	endwin();
	child_set_screen_owned(false);
	if (stopped_mid_run && saved[0])
		fprintf(stderr, "raidbench: the run was stopped; its results so far are saved as %s\n",
			saved);
	else if (stopped_mid_run)
		fprintf(stderr, "raidbench: the run was stopped; its results were not saved: %s\n",
			app.run.error[0] ? app.run.error : "it did not end in time");
	/* stopped by a signal: say so, as `raidbench run` does (128 + N) */
	return quit_sig ? 128 + quit_sig : 0;
}
