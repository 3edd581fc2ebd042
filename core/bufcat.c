/*
 * bufcat.c - bounded appending for message and label buffers; see bufcat.h.
 * No allocation, no printing.
 */
#include <stdarg.h>
#include <stdio.h>

#include "bufcat.h"

size_t bufcat(char *buf, size_t len, size_t pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!len)
		return 0;
	if (pos >= len - 1)
		return len - 1;
	va_start(ap, fmt);
	n = vsnprintf(buf + pos, len - pos, fmt, ap);
	va_end(ap);
	if (n < 0) {
		buf[pos] = '\0';	/* an encoding error leaves what was there */
		return pos;
	}
	return (size_t)n >= len - pos ? len - 1 : pos + (size_t)n;
}
