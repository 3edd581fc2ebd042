/*
 * run_next.h - what Enter on the Run screen starts, in words: the profile,
 * the target, the phases, how long and whether it writes. Read through the
 * same parser and defaults as the run itself, so the promise is the run.
 * UI thread only; draws nothing.
 */
#ifndef RB_RUN_NEXT_H
#define RB_RUN_NEXT_H

#include <stddef.h>

#include "tui.h"

struct run_next {
	char key[8192];		/* what the words were made from: redone when it changes */
	char what[512];		/* "default on the scratch file (64m)" */
	char how[512];		/* "4 phases: read, write, randread, randwrite; 5 s each, 20 s; reads and writes" */
};

/* Brings n up to date with app's profile, knobs and target (parses only when they changed). */
void run_next_update(struct run_next *n, struct app *app);

#endif
