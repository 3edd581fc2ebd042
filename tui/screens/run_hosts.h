/*
 * run_hosts.h - the Run screen's Hosts pane for a run on many fio servers:
 * one htop-like row per host (state, read/write IOPS and MB/s of the last
 * interval, p99, errors), a cursor, and a drill-down to one host's jobs.
 * Fed by the same decoded ticks as the rest of the screen; the hosts' states
 * and reasons come from the fleet (core/fleet.h) through run_hosts_state().
 * Only the UI thread calls these.
 */
#ifndef RB_RUN_HOSTS_H
#define RB_RUN_HOSTS_H

#include <stdbool.h>
#include <stddef.h>
#include "tui.h"

struct live_tick;
struct run_layout;
struct run_hosts;

struct run_hosts *run_hosts_new(void);
void run_hosts_free(struct run_hosts *rh);
void run_hosts_reset(struct run_hosts *rh);
/* true when the layout is a fleet's (rows tagged by host): the pane is shown */
bool run_hosts_layout(struct run_hosts *rh, const struct run_layout *lay);
bool run_hosts_active(const struct run_hosts *rh);
/* A tick decoded (core/live_view.h): the rows' rates, p99 and errors. */
void run_hosts_tick(struct run_hosts *rh, const struct live_tick *t);
/* A host's state word ("running", "lost", "version", ...) and reason, by host number. */
void run_hosts_state(struct run_hosts *rh, size_t host, const char *state, const char *why);
/* Lines the pane wants (title included). */
int run_hosts_rows(const struct run_hosts *rh);
void run_hosts_draw(struct app *app, struct run_hosts *rh, const struct rect *r);
/* Up/Down pick a host, Right or j shows its jobs, Left or Esc the hosts again: EV_* bits. */
int run_hosts_key(struct run_hosts *rh, int ch);

#endif
