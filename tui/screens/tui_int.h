/* tui_int.h - what tui.c, tui_test.c and app_*.c share; not for the screens. */
#ifndef RB_TUI_INT_H
#define RB_TUI_INT_H

#include "tui.h"

int app_init(struct app *app);
void app_release(struct app *app);
void tui_setup_terminal(struct app *app);
void tui_draw(struct app *app);
void tui_key(struct app *app, int ch);
bool tui_too_small(const struct app *app);

/* Stops and lets go of the vendor tools' probes (tui/screens/app_inv.c). */
void app_release_probes(struct app *app);

/* Ends a finished run: joins, keeps the result, saves it (tui/screens/app_run.c). */
void app_run_finish(struct app *app);

/* The Run screen's feed (tui/screens/scr_run.c). */
void scr_run_layout(void *st, const struct job_list *jl, const struct run_layout *lay);
void scr_run_record(void *st, const struct live_rec *rec);
/* A fleet run: host number host's state word and reason, for the Hosts pane. */
void scr_run_host_state(void *p, size_t host, const char *state, const char *why);
/* A run on fio servers (tui/screens/app_fleet.c): app_run_* hand over to these when --client was given. */
int app_fleet_start(struct app *app);
void app_fleet_poll(struct app *app);
void app_fleet_stop(struct app *app);
void app_fleet_release(struct app *app);
/* tui-test's `fake-fleet N [lost|version]` (tui/screens/tui_test_fleet.c) */
void tui_test_fake_fleet(struct app *app, int ticks, const char *fault);
void scr_run_reset(void *st);
/* The run is over: its summary, read as its saved form would be. */
void scr_run_finished(void *st, const struct job_list *jl, const struct run_result *res);

/* Screen tests (tui/screens/tui_test.c): `raidbench tui-test ...` */
int tui_test_main(int argc, char **argv);

#endif
