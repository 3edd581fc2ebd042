/*
 * ui_thread.h - background threads the TUI starts (a vendor command, a
 * sweep): they never take the terminal's signals, which the UI thread
 * handles. No curses here: core/ and hw/ start them too (array_apply, sweep_task).
 */
#ifndef RB_UI_THREAD_H
#define RB_UI_THREAD_H

#include <pthread.h>

/* pthread_create with SIGINT, SIGTERM, SIGHUP and SIGWINCH blocked in the new thread. 0 or errno. */
int app_thread_start(pthread_t *th, void *(*fn)(void *), void *arg);

#endif
