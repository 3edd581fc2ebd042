/* clock.c - the clock seam's default: CLOCK_MONOTONIC. */
#include "clock.h"

uint64_t (*rb_clock)(void) = clock_real_ns;
