/*
 * ui_thread.h - threads that never take the terminal's signals, which the UI
 * thread handles: a run's engine and workers (core/run.c), a vendor command
 * (hw/array_apply.c), a sweep (hw/sweep_task.c). No curses here.
 */
#ifndef RB_UI_THREAD_H
#define RB_UI_THREAD_H

#include <pthread.h>

/* pthread_create with SIGINT, SIGTERM, SIGHUP and SIGWINCH blocked in the new thread. 0 or errno. */
int app_thread_start(pthread_t *th, void *(*fn)(void *), void *arg);

#endif
