/*
 * raidtool_int.h - what the tool adapters (hw/ssacli.c, hw/storcli.c,
 * hw/megacli.c, hw/mdadm.c) share: line splitting, key/value scanning, the
 * one error format for output that cannot be understood, status words, and
 * find-or-add helpers over the inventory (hw/raidtool_parse.c).
 *
 * Internal to hw/: nothing outside the adapters includes it.
 */
#ifndef RB_RAIDTOOL_INT_H
#define RB_RAIDTOOL_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "inventory.h"
#include "raidtool.h"

/* The cmd of an imported /proc/mdstat: the mdadm parser reads it instead of --detail. */
#define RT_MDSTAT "/proc/mdstat"

/* A text cut into lines: copies without the newline, '\r' dropped. */
struct rt_lines {
	char **v;	/* nr lines, each a writable string inside buf */
	size_t nr;
	char *buf;
};

int rt_lines_split(const char *text, struct rt_lines *l);
void rt_lines_release(struct rt_lines *l);

/* Line i ("Error: ...") and its indented continuation lines, joined by blanks. */
void rt_error_block(const struct rt_lines *l, size_t i, char *buf, size_t len);

/*
 * The tool whose import form (or name, for its first form) is word, and
 * that form; NULL when none (hw/raidtool_registry.c).
 */
const struct raid_tool_ops *rt_import_form(const char *word, const struct raidtool_import **form);

/* Strips leading and trailing blanks (spaces, tabs, '\r') in place. */
char *rt_trim(char *s);

/*
 * "Key : value" -> trimmed key and value (value may be ""), split at the
 * first ": " (keys may hold colons), else the first ':'. false without ':'.
 */
bool rt_kv(char *line, char **key, char **val);

/* Replaces *dst with a copy of s (NULL allowed); -ENOMEM. */
int rt_set(char **dst, const char *s);
/* The same, with blank runs squeezed to one space and the ends trimmed; "" -> NULL. */
int rt_set_squeezed(char **dst, const char *s);
/* Only when *dst is NULL: keeps the first value a source gave. */
int rt_fill(char **dst, const char *s);

/* "Recovering, 26% complete" -> 26; "check = 98.3%" -> 98.3; -1 when there is no N% up to 100. */
double rt_percent(const char *s);

/*
 * The whole number at the start of s (after blanks) times unit, in *out:
 * 0; -EINVAL when s does not start with a digit; -ERANGE when the number
 * or the product does not fit in int64_t (never a wrapped size).
 */
int rt_scaled(const char *s, int64_t unit, int64_t *out);

/* True when s starts with prefix, ignoring case. */
bool rt_prefix(const char *s, const char *prefix);

/*
 * The error for output that cannot be understood:
 * "ssacli: cannot understand the output of `ctrl all show config detail`
 * (FILE), line 12: why: «line»". Returns -EBADMSG. lineno 0 = no line.
 */
int rt_bad_output(char *err, size_t errlen, const struct raidtool_src *src, size_t lineno,
		  const char *line, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* The vendor refused: "ssacli `CMD`: Error: ..." (for Error: lines); returns -EIO. */
int rt_vendor_error(char *err, size_t errlen, const struct raidtool_src *src, const char *fmt,
		    ...) __attribute__((format(printf, 4, 5)));

/* Find-or-add. A NULL id matches only NULL (drives and volumes the output does not place). */
struct inv_controller *rt_controller(struct inventory *inv, const char *source, const char *id);
struct inv_array *rt_array(struct inv_controller *c, const char *id);
struct inv_ld *rt_ld(struct inv_array *a, const char *id);

/* Where a drive sits in a controller. */
struct rt_pd_ref {
	struct inv_pd **list;
	size_t *nr;
	size_t idx;
};

/* Finds the drive with this address anywhere in c; false when absent. */
bool rt_pd_find(struct inv_controller *c, const char *id, struct rt_pd_ref *ref);
static inline struct inv_pd *rt_pd_at(const struct rt_pd_ref *r)
{
	return &(*r->list)[r->idx];
}

/*
 * The drive with this address, in list (*to, *nr_to): found elsewhere in c
 * it moves there (an output that lists it under an array outranks a cage
 * listing), else it is added. NULL on ENOMEM, or with errno E2BIG when c
 * holds INV_MAX_PDS drives already.
 */
struct inv_pd *rt_pd_place(struct inv_controller *c, const char *id, struct inv_pd **to,
			   size_t *nr_to);

/* All of c's drives; rt_pd_full: true (errno E2BIG) when c holds INV_MAX_PDS of them. */
size_t rt_pd_count(const struct inv_controller *c);
bool rt_pd_full(const struct inv_controller *c);

/*
 * ops->parse, and when it failed because inv reached an INV_MAX_* limit, an
 * error that says so (not "out of memory").
 */
int rt_parse(const struct raid_tool_ops *ops, struct inventory *inv, const char *text,
	     const struct raidtool_src *src, char *err, size_t errlen);

/* Removes the arrays without id that ended up empty (drives placed elsewhere after all). */
void rt_drop_empty_arrays(struct inv_controller *c);

/* Fills dst's unset fields from src, taking src's strings (src keeps NULLs). */
void rt_pd_merge(struct inv_pd *dst, struct inv_pd *src);
/* Frees a drive's strings (one built outside an inventory). */

/* Moves element idx of one of c's PD lists to the end of another. -ENOMEM. */
int rt_pd_move(struct inv_controller *c, struct inv_pd **from, size_t *nr_from, size_t idx,
	       struct inv_pd **to, size_t *nr_to);

/* Runs each argv tail after bin and parses its stdout with ops->parse into inv. */
int rt_read_cmds(const struct raid_tool_ops *ops, const char *bin,
		 const char *const *const *cmds, struct inventory *inv,
		 const struct raidtool_src *src, const struct raidtool_ctl *ctl, char *err,
		 size_t errlen);

/* "bin a b c" for messages; static buffer-free: writes into buf. */
void rt_cmdline(char *buf, size_t len, const char *bin, const char *const *tail);

/* The result of a failed run as one message: timeout, signal, exit status, stderr. */
int rt_run_failed(char *err, size_t errlen, const char *cmdline, const struct raidtool_run *r);

#endif
