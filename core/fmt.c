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

/*
 * Always MB/s, decimal as the MB/s columns and fio's "(MB/s)" (1,000,000
 * bytes a second): numbers side by side (read and write, one run and the
 * next) are read in one unit, never "0 B/s" beside "kB/s" and "GB/s".
 */
void fmt_rate(char *buf, size_t len, double bytes_per_s)
{
	double mb = bytes_per_s / 1e6;

	snprintf(buf, len, mb <= 0 ? "0 MB/s" : mb < 10 ? "%.2f MB/s" : mb < 100 ? "%.1f MB/s" :
		 "%.0f MB/s", mb);
}

void fmt_size(char *buf, size_t len, double bytes)
{
	static const char *const u[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };

	fmt_scaled(buf, len, bytes, 1024, u, 6);
}

void fmt_ns(char *buf, size_t len, double ns)
{
	/* no completion, no latency: a measured latency is never 0 ns */
	if (!(ns > 0))
		snprintf(buf, len, "-");
	else if (ns >= 1e9)
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

void fmt_duration(char *buf, size_t len, unsigned long long s)
{
	if (s < 3600)
		snprintf(buf, len, "%02llu:%02llu", s / 60, s % 60);
	else if (s < 86400)
		snprintf(buf, len, "%llu:%02llu:%02llu", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(buf, len, "%llud %02llu:%02llu:%02llu", s / 86400, s / 3600 % 24,
			 s / 60 % 60, s % 60);
}
