/*
 * bufcat.h - bounded appending to a fixed char buffer. Text from outside
 * (result files, vendor captures, sysfs) may be longer than any buffer
 * meant for it: it is cut, never written past the end.
 */
#ifndef RB_BUFCAT_H
#define RB_BUFCAT_H

#include <stddef.h>

/*
 * Formats at buf + pos (buf holds len bytes, pos is the string's length so
 * far) and returns the new length, always < len: output that does not fit
 * is cut. A pos at or past the end appends nothing, so calls chain safely.
 */
size_t bufcat(char *buf, size_t len, size_t pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
