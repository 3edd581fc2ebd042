/*
 * storcli_text.h - storcli's text output (no `J`) as the JSON document `J`
 * would have given (hw/storcli_text.c), for hw/storcli.c.
 */
#ifndef RB_STORCLI_TEXT_H
#define RB_STORCLI_TEXT_H

#include <stddef.h>

#include <json-c/json.h>

/*
 * 0 and *root = {"Controllers": [...]} (caller puts it); -EBADMSG with the
 * 1-based line in *bad_line and what was expected in why; -ENOMEM.
 */
int storcli_text_to_json(const char *text, struct json_object **root, size_t *bad_line,
			 char *why, size_t whylen);

#endif
