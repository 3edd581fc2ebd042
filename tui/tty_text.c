/*
 * tty_text.c - control characters and broken UTF-8 from outside text turned
 * into visible \xNN before they reach a terminal; see tty_text.h. Decodes
 * UTF-8 itself so the result does not depend on the locale.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tty_text.h"

static bool cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

size_t tty_char_len(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (p[0] < 0x80)
		return p[0] >= 0x20 && p[0] != 0x7f ? 1 : 0;
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		n = 2;
		if (p[0] == 0xc2)
			lo = 0xa0;	/* U+0080..U+009F are the C1 controls */
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		n = 3;
		if (p[0] == 0xe0)
			lo = 0xa0;	/* overlong */
		else if (p[0] == 0xed)
			hi = 0x9f;	/* UTF-16 surrogates */
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4;
		if (p[0] == 0xf0)
			lo = 0x90;	/* overlong */
		else if (p[0] == 0xf4)
			hi = 0x8f;	/* past U+10FFFF */
	} else {
		return 0;
	}
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (!cont(p[i]))
			return 0;
	return n;
}

char *tty_escape(const char *s, bool keep_lines)
{
	size_t len = strlen(s), o = 0;
	char *out;

	if (len > (SIZE_MAX - 1) / 4)
		return NULL;
	out = malloc(len * 4 + 1);	/* \xNN is the longest a byte becomes */
	if (!out)
		return NULL;
	while (*s) {
		size_t n = tty_char_len(s);

		if (!n && keep_lines && (*s == '\n' || *s == '\t'))
			n = 1;
		if (n) {
			memcpy(out + o, s, n);
			o += n;
			s += n;
			continue;
		}
		snprintf(out + o, 5, "\\x%02x", (unsigned char)*s++);
		o += 4;
	}
	out[o] = '\0';
	return out;
}

int tty_fputs(const char *s, FILE *f)
{
	char *safe = tty_escape(s, true);
	int ret;

	if (!safe)
		return EOF;
	ret = fputs(safe, f);
	free(safe);
	return ret;
}

int tty_vfprintf(FILE *f, const char *fmt, va_list ap)
{
	char *s = NULL;
	int n = vasprintf(&s, fmt, ap);

	if (n < 0)
		return n;
	if (tty_fputs(s, f) == EOF)
		n = -1;
	free(s);
	return n;
}

int tty_fprintf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = tty_vfprintf(f, fmt, ap);
	va_end(ap);
	return n;
}

int tty_printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = tty_vfprintf(stdout, fmt, ap);
	va_end(ap);
	return n;
}

int tty_json_puts(const char *json, FILE *f)
{
	const unsigned char *p = (const unsigned char *)json;

	while (*p) {
		size_t n = tty_char_len((const char *)p);

		if (n) {
			if (fwrite(p, 1, n, f) != n)
				return EOF;
			p += n;
			continue;
		}
		/* bytes outside strings are ASCII, so these are inside one */
		if (*p == '\n' || *p == '\t')
			fputc(*p, f);
		else if (*p == 0x7f)
			fputs("\\u007f", f);
		else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			fprintf(f, "\\u00%02x", *++p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputs("\\ufffd", f);
		p++;
	}
	return fputc('\n', f) == EOF ? EOF : 0;
}
