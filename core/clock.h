/*
 * clock.h - the monotonic clock, behind a seam so tests can substitute a
 * fake one.
 */
#ifndef RB_CLOCK_H
#define RB_CLOCK_H

#include <errno.h>
#include <stdint.h>
#include <time.h>

static inline uint64_t clock_real_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The clock every timing path reads; tests may point it elsewhere. */
extern uint64_t (*rb_clock)(void);

static inline uint64_t rb_now_ns(void)
{
	return rb_clock();
}

/* Sleeps ns nanoseconds of real time, a signal's interruption resumed. */
static inline void rb_sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ull),
			       .tv_nsec = (long)(ns % 1000000000ull) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

#endif
