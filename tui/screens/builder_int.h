/*
 * builder_int.h - what the Array builder's two files share: its state
 * (tui/screens/scr_builder.c: loading, keys, the changes and their jobs) and its
 * drawing (tui/screens/builder_draw.c). Not for other screens. UI thread only; the
 * jobs' workers see only their struct array_job (hw/array_apply.h).
 */
#ifndef RB_BUILDER_INT_H
#define RB_BUILDER_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "array_apply.h"
#include "build_plan.h"
#include "tui.h"

enum bmode {
	BM_LIST,		/* picking */
	BM_CONFIRM,		/* typing the controller slot (or md name) to confirm */
	BM_RUNNING,		/* the change runs */
};

struct builder_state {
	struct app_build build;		/* what the Devices screen handed over */
	bool loaded;
	bool live;			/* this machine's inventory, not an import */
	const struct raid_tool_ops *ops;
	char bin[4096];			/* the tool's binary (its usual name when not installed) */
	char tool_err[512];		/* why changes cannot run here ("" = they can) */
	struct inventory tool_inv;	/* the tool's own view, re-read after each change */
	bool have_tool_inv;
	char load_err[1024];
	struct build_plan bp;
	int sel, top;			/* cursor over drives, then logical drives */
	int list_y, list_h;
	/* the create as picked: validated and built whenever the picks change */
	bool dirty;
	struct array_job preview;
	char preview_err[1024];
	bool preview_ok;
	/* the change waiting for its confirmation, then running */
	enum bmode mode;
	struct array_job job;
	bool job_active;
	char job_title[256];		/* "Create RAID 5 over 3 drives" */
	char **lost;			/* what the change destroys, one line each */
	size_t nr_lost;
	char want[96];			/* the word to type */
	char want_what[96];		/* "the controller's slot" */
	char input[128];
	char prompt_err[256];
	char before[64][64];		/* logical drive ids before the change */
	size_t nr_before;
	/* the last change's outcome, shown until dismissed */
	bool have_result, result_ok;
	char result[2048];
	char result_hint[256];
	char result_new[256];
	char result_cmd[1024];
	/* status re-reads while something initializes, rebuilds, transforms, erases */
	struct array_job reader;
	bool reader_active;
	uint64_t next_poll_ns;
};

/* tui/screens/builder_draw.c */
void builder_draw_all(struct app *app, struct builder_state *st, const struct rect *r);
/* Rows of the list: drives, then logical drives. */
int builder_rows(const struct builder_state *st);
/* argv as a line with the binary's base name ("ssacli ctrl slot=255 ..."); caller frees. */
char *builder_short_line(const struct raidtool_argv *av);
/* "parity initialization" for an initializing logical drive, ... ; NULL when none runs. */
const char *builder_progress_words(enum inv_status s);

#endif
