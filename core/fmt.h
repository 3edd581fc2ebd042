/*
 * fmt.h - numbers as raidbench prints them, on screen and on the command
 * line (core/fmt.c). buf receives the text; nothing else is touched.
 */
#ifndef RB_FMT_H
#define RB_FMT_H

#include <stddef.h>

/* "1.23M", "456k", "789" (IOPS and counts, SI) */
void fmt_count(char *buf, size_t len, double v);
/* "1.2 GB/s", "345 MB/s", "12 kB/s": decimal, as the MB/s columns */
void fmt_rate(char *buf, size_t len, double bytes_per_s);
/* sizes with IEC units: "1.8 TiB", "512 MiB" */
void fmt_size(char *buf, size_t len, double bytes);
/* "850 ns", "12.3 us", "4.56 ms", "1.2 s" */
void fmt_ns(char *buf, size_t len, double ns);
/* a size that may be unknown (negative): "?" then */
void fmt_bytes(char *buf, size_t len, long long bytes);

#endif
