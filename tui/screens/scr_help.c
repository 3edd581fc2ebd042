/*
 * scr_help.c - the Help screen (F1 or ?): the keys, and what each screen
 * shows, in words a new user understands without the manual.
 */
#include <stdlib.h>

#include "tui.h"
#include "widgets.h"

struct help_state {
	int top;
	int rows;		/* lines the last frame showed */
};

/* At most 76 columns a line, so the page reads whole on an 80-column terminal. */
static const char *const help_lines[] = {
	"raidbench - see your storage, test it, watch it live, compare runs.",
	"",
	"Screens (function keys, or click the tabs):",
	"  F1 Help      this page (also ?)",
	"  F2 Devices   controllers, arrays, logical and physical drives, md arrays",
	"               and other block devices, with health and live activity.",
	"               Enter opens details: PCIe link, NUMA node, and whether a",
	"               device is safe to write.",
	"  F3 Profiles  test profiles (fio job files): the seeds' tests,",
	"               CrystalDiskMark-style sets, workload mixes. Pick one; edit",
	"               block size, queue depth, jobs, runtime; see the equivalent",
	"               fio command line.",
	"  F4 Target    what to test: a device or a file (a scratch file by",
	"               default). A device with data on it needs its name typed to",
	"               confirm; mounted devices are never written.",
	"  F5 Run       Enter starts the run (5 s a phase unless the profile or a",
	"               knob says else); live IOPS, MB/s, latency graphs, per-job",
	"               and per-device rows. s stops it (the results so far are",
	"               kept); q during a run stops it, saves, then quits.",
	"  F6 Results   the last run, saved runs, and a side-by-side compare.",
	"",
	"Keys on a screen:",
	"  Devices   t makes the selected device the target, r rescans, b builds",
	"            an array on the selected controller (or md over plain",
	"            drives), w starts a RAID-level sweep over its drives. The",
	"            vendor tools (ssacli, storcli, mdadm) answer in the",
	"            background; c cancels those still running.",
	"  Builder   Space picks a drive, p a spare, Left/Right the RAID level,",
	"            s the strip size, Enter creates (type the slot to confirm);",
	"            d delete, a/x add/remove spare, e erase - each lists what",
	"            will be lost first.",
	"  Profiles  Tab knobs pane, Enter edit/choose, x restore a knob, s save",
	"            as a user profile, r run.",
	"  Run       Enter start, s stop, g IOPS or MB/s.",
	"  Results   Enter open a saved run, Space mark, c compare marked,",
	"            m metric, d fio-style detail, g grid or table.",
	"",
	"Keys everywhere:",
	"  Up/Down or j/k  move         PgUp/PgDn, Home/End  page, ends",
	"  Tab             next pane    Enter  open/choose   Esc  back   q  quit",
	"  Mouse           click rows, tabs and the key bar",
	"",
	"Numbers: IOPS and MB/s are of the last interval (100 ms), not running",
	"averages. Latency is completion latency (fio's clat): p50/p99/p99.9 of",
	"the interval. MB/s is 1,000,000 bytes per second; sizes use",
	"KiB/MiB/GiB (1024).",
	"",
	"The same things without the screen: raidbench run, devices, array,",
	"profiles, results, compare, sweep (raidbench --help).",
	NULL,
};

static void *help_init(struct app *app)
{
	(void)app;
	return calloc(1, sizeof(struct help_state));
}

static void help_release(void *st)
{
	free(st);
}

static void help_draw(struct app *app, void *p, const struct rect *r)
{
	struct help_state *st = p;
	int y, i;

	st->rows = r->h;
	for (i = st->top, y = r->y; help_lines[i] && y < r->y + r->h; i++, y++)
		w_text(y, r->x + 1, r->w - 2, i == 0 ? theme_attr(app->theme, EL_TITLE) : A_NORMAL,
		       false, "%s", help_lines[i]);
}

static int help_key(struct app *app, void *p, int ch)
{
	struct help_state *st = p;
	int n = 0, page, last;

	(void)app;
	while (help_lines[n])
		n++;
	page = st->rows > 1 ? st->rows - 1 : 1;
	last = n > st->rows ? n - st->rows : 0;	/* the top that shows the last line */
	switch (ch) {
	case KEY_DOWN: case 'j': st->top++; break;
	case KEY_UP: case 'k': st->top--; break;
	case KEY_NPAGE: case ' ': st->top += page; break;
	case KEY_PPAGE: st->top -= page; break;
	case KEY_HOME: st->top = 0; break;
	case KEY_END: st->top = last; break;
	default: return EV_NONE;
	}
	st->top = st->top < 0 ? 0 : st->top > last ? last : st->top;
	return EV_HANDLED;
}

static const struct key_hint help_hints[] = { { "?", "Help" }, { "PgDn", "More" },
					       { NULL, NULL } };

const struct screen_ops scr_help_ops = {
	.title = "Help",
	.init = help_init,
	.release = help_release,
	.draw = help_draw,
	.key = help_key,
	.hints = help_hints,
};
