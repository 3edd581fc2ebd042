/*
 * engine_bus.c - a copy through a mapping that survives a SIGBUS: the copy
 * runs with a per-thread jump buffer and a process-wide handler that jumps
 * back to it, so the unit fails with EIO and the job ends with a message
 * instead of the program dying. A SIGBUS outside such a copy goes to
 * whatever handled it before.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include "engine_bus.h"

/* set while this thread copies through a mapping; the SIGBUS handler jumps to it */
static __thread sigjmp_buf *bus_jmp;
static pthread_once_t bus_once = PTHREAD_ONCE_INIT;
static struct sigaction bus_prev;

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	if (bus_jmp)
		siglongjmp(*bus_jmp, 1);
	/* not ours: what was there before decides (by default, the program ends) */
	if (bus_prev.sa_flags & SA_SIGINFO)
		bus_prev.sa_sigaction(sig, si, uc);
	else if (bus_prev.sa_handler != SIG_IGN && bus_prev.sa_handler != SIG_DFL)
		bus_prev.sa_handler(sig);
	else {
		signal(SIGBUS, SIG_DFL);
		raise(SIGBUS);
	}
}

static void install_sigbus(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, &bus_prev);
}

int engine_bus_copy(void *dst, const void *src, size_t len, engine_bus_copy_fn copy, void *arg)
{
	sigjmp_buf jb;

	pthread_once(&bus_once, install_sigbus);
	if (sigsetjmp(jb, 1)) {
		bus_jmp = NULL;
		return -EIO;	/* the page could not be read or written */
	}
	bus_jmp = &jb;
	if (copy)
		copy(dst, src, len, arg);
	else
		memcpy(dst, src, len);
	bus_jmp = NULL;
	return 0;
}
