/*
 * fmt.c - numbers as the screens and the command lines print them: counts,
 * rates, sizes and latencies. No curses here, so the command-line twins use
 * the same words as the screens.
 */
#include <stdio.h>

#include "fmt.h"

void fmt_count(char *buf, size_t len, double v)
{
	if (v >= 1e9)
		snprintf(buf, len, "%.2fG", v / 1e9);
	else if (v >= 1e6)
		snprintf(buf, len, "%.2fM", v / 1e6);
	else if (v >= 1e4)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else
		snprintf(buf, len, "%.0f", v);
}


/* v in units of base: "%.0f" from 100 up and for the first unit, else one decimal */
static void fmt_scaled(char *buf, size_t len, double v, double base,
		       const char *const *units, int nr_units)
{
	int i = 0;

	while (v >= base && i < nr_units - 1) {
		v /= base;
		i++;
	}
	snprintf(buf, len, v >= 100 || i == 0 ? "%.0f %s" : "%.1f %s", v, units[i]);
}

/* Decimal, as the MB/s columns and fio's "(MB/s)": 1 MB/s is 1,000,000 bytes a second. */
void fmt_rate(char *buf, size_t len, double bytes_per_s)
{
	static const char *const u[] = { "B/s", "kB/s", "MB/s", "GB/s", "TB/s" };

	fmt_scaled(buf, len, bytes_per_s, 1000, u, 5);
}

void fmt_size(char *buf, size_t len, double bytes)
{
	static const char *const u[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };

	fmt_scaled(buf, len, bytes, 1024, u, 6);
}

void fmt_ns(char *buf, size_t len, double ns)
{
	if (ns >= 1e9)
		snprintf(buf, len, "%.2f s", ns / 1e9);
	else if (ns >= 1e6)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else if (ns >= 1e3)
		snprintf(buf, len, "%.1f us", ns / 1e3);
	else
		snprintf(buf, len, "%.0f ns", ns);
}

void fmt_bytes(char *buf, size_t len, long long bytes)
{
	if (bytes < 0)
		snprintf(buf, len, "?");
	else
		fmt_size(buf, len, (double)bytes);
}
