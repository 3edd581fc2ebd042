/* ui_thread.c - see ui_thread.h. */
#include <signal.h>

#include "ui_thread.h"

int app_thread_start(pthread_t *th, void *(*fn)(void *), void *arg)
{
	sigset_t block, old;
	int ret;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGWINCH);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	ret = pthread_create(th, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ret;
}
