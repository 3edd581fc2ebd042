/*
 * tty_text.h - text from outside (vendor captures, result files, profiles,
 * tool messages) made harmless for a terminal. A serial or a job name may
 * hold escape sequences that retitle, clear or reprogram the terminal: every
 * control character (C0, DEL, C1 as UTF-8 U+0080..U+009F) and every byte
 * that is not valid UTF-8 is shown as \xNN instead of being sent. Valid
 * UTF-8 text passes unchanged, whatever the locale.
 *
 * The command-line commands print outside text through tty_printf and
 * friends; the TUI's widgets use tty_char_len to draw such bytes as '?'.
 * JSON output goes through tty_json_puts, which keeps it JSON.
 */
#ifndef RB_TTY_TEXT_H
#define RB_TTY_TEXT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Bytes of the character at s when a terminal may be given it as it is (a
 * whole, valid UTF-8 sequence that is not a control character), or 0 when
 * the byte at s must be shown some other way. 0 also at the end of s.
 */
size_t tty_char_len(const char *s);

/*
 * s with every byte tty_char_len refuses written as \xNN; keep_lines keeps
 * newline and tab. An allocated string the caller frees; NULL on ENOMEM.
 */
char *tty_escape(const char *s, bool keep_lines);

/* fputs/printf whose whole output goes through tty_escape(keep_lines). */
int tty_fputs(const char *s, FILE *f);
int tty_vfprintf(FILE *f, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
int tty_fprintf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int tty_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * JSON text as json-c wrote it (C0 already escaped) with DEL and C1 escaped
 * as \u00XX too and every byte that is not valid UTF-8 as \ufffd, then a
 * newline: valid JSON and valid UTF-8 whatever a capture held.
 */
int tty_json_puts(const char *json, FILE *f);

#endif
