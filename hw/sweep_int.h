/*
 * sweep_int.h - what the sweep's three files share: the vendor-tool steps
 * (hw/sweep_array.c), the journal (hw/sweep_journal.c) and the event
 * helper. Not for other modules: they use sweep.h.
 */
#ifndef RB_SWEEP_INT_H
#define RB_SWEEP_INT_H

#include "sweep.h"
#include "array.h"
#include "inventory.h"
#include "raidtool.h"

/* A vendor tool bound to one controller. */
struct sweep_tool {
	const struct raid_tool_ops *ops;
	char bin[PATH_MAX];
	char controller[64];		/* the tool's id; "" for mdadm */
	int timeout_ms;
};

/* A logical drive (or md array) as the sweep needs it. */
struct sweep_ld {
	char id[64];			/* "1", "0", "md0" */
	char level[16];
	char os_device[128];
	char uid[80];			/* the tool's identity of it; "" when none */
	int64_t strip_bytes;
	int64_t size_bytes;
	enum inv_status status;
	char status_text[160];
	double progress_pct;
};

/* How a journal entry's array looks in the tool's configuration. */
enum sweep_match {
	SWEEP_LD_GONE,			/* nothing on those drives (or no such ld) */
	SWEEP_LD_FOUND,			/* the ld, and its array's members are exactly the drives */
	SWEEP_LD_CHANGED,		/* something else is there: never delete it */
};

/* ---- sweep_array.c ---------------------------------------------------------- */

/* The tool's ops and binary (a name on PATH, or a path). 0 or -ENOENT/-EINVAL. */
int sweep_tool_find(struct sweep_tool *t, const char *tool, char *err, size_t errlen);
/* Replaces inv with the tool's configuration re-read. */
int sweep_tool_read(const struct sweep_tool *t, struct inventory *inv, char *err,
		    size_t errlen);
/* Sets t->controller from user ("slot=0", "/c0", NULL = the only one) against inv. */
int sweep_tool_controller(struct sweep_tool *t, const char *user, const struct inventory *inv,
			  char *err, size_t errlen);

/* The smallest size of the named drives in inv, < 0 when unknown. */
int64_t sweep_drive_bytes(const struct sweep_tool *t, const struct inventory *inv,
			  char *const *drives, size_t nr);

/*
 * The logical drive built on exactly drives (order ignored; an array whose
 * members differ, or that holds more than one logical drive, is not it);
 * id non-NULL and non-empty must match too.
 */
enum sweep_match sweep_find_ld(const struct sweep_tool *t, const struct inventory *inv,
			       char *const *drives, size_t nr, const char *id,
			       struct sweep_ld *out);

/* Another logical drive of inv (not ld_id) claims os_device. */
bool sweep_osdev_shared(const struct inventory *inv, const char *os_device, const char *ld_id);

/*
 * Validates the create against inv and builds its argv; *line (caller
 * frees) is the command as one line, *warnings (caller frees, NULL when
 * none; warnings may be NULL) what validation says will be lost, one per
 * line. 0, or -errno with err (hw/array's words).
 */
int sweep_build_create(const struct sweep_tool *t, const struct inventory *inv,
		       const char *level, char *const *drives, size_t nr, int64_t strip,
		       struct raidtool_argv *av, char **line, char **warnings, char *err,
		       size_t errlen);

/* Runs a built command (level: a create's; NULL: a delete) and judges it the tool's way. */
int sweep_exec(const struct sweep_tool *t, const struct raidtool_argv *av, const char *level,
	       char *err, size_t errlen);

/*
 * Deletes ld (found on exactly drives) after validating the delete against
 * inv (nothing mounted or held), then re-reads inv and checks it is gone.
 * *line (caller frees) is the command that ran, NULL when none did.
 */
int sweep_delete_ld(const struct sweep_tool *t, struct inventory *inv, const char *ld,
		    char *const *drives, size_t nr, char **line, char *err, size_t errlen);

/* ---- sweep_journal.c -------------------------------------------------------- */

/* Adds e (e->id, pid and time are filled here). */
int sweep_journal_add(struct sweep_pending_array *e, char *err, size_t errlen);
/* Replaces the entry with e's id. */
int sweep_journal_update(const struct sweep_pending_array *e, char *err, size_t errlen);
int sweep_journal_remove(const char *id, char *err, size_t errlen);

/* ---- sweep.c ---------------------------------------------------------------- */

void sweep_emit(const struct sweep_callbacks *cb, enum sweep_event_kind kind,
		const struct sweep_event *tmpl);
void sweep_emitf(const struct sweep_callbacks *cb, enum sweep_event_kind kind,
		 const char *level, const char *fmt, ...) __attribute__((format(printf, 4, 5)));


/* Fills err and returns ret: the sweep's one-line failures (hw/sweep.c). */
int sweep_fail(char *err, size_t errlen, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
