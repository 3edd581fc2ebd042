/*
 * sweep_journal.c - the record of arrays a sweep created and has not yet
 * deleted ($XDG_STATE_HOME/raidbench/sweep.json), and the cleanup that
 * deletes exactly those after a quit, a crash or a failed step.
 *
 * Every change is a read-modify-write under an flock on sweep.json.lock,
 * written to a temporary file, synced and renamed over the journal, so a
 * crash leaves either the old or the new journal, never half of one. A
 * journal that does not parse is never overwritten: the sweep refuses to
 * run until someone looks at it.
 *
 * Never prints; reports through the sweep callbacks.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "sweep_int.h"
#include "bufcat.h"
#include "userdir.h"

#define JOURNAL_VERSION 1

int sweep_journal_path(char *buf, size_t len)
{
	return userdir_path(USERDIR_STATE, "sweep.json", buf, len, NULL, 0);
}

/* The lock for one read-modify-write; returns the fd to close, or -errno. */
static int journal_lock(char *path, size_t len, char *err, size_t errlen)
{
	char lock[PATH_MAX + 8];
	int fd, ret;

	ret = userdir_path(USERDIR_STATE, "sweep.json", path, len, err, errlen);
	if (ret)
		return ret;
	snprintf(lock, sizeof(lock), "%s.lock", path);
	/* makes the directory too, and never opens a link planted in place of the lock */
	fd = userdir_open(lock, O_RDWR | O_CREAT, 0644, err, errlen);
	if (fd < 0)
		return fd;
	if (flock(fd, LOCK_EX) < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", lock, strerror(errno));
		close(fd);
		return ret;
	}
	return fd;
}

/* ---- entries <-> JSON -------------------------------------------------------- */

static void copy_str(char *dst, size_t len, json_object *o, const char *key)
{
	json_object *v;

	dst[0] = '\0';
	if (json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string))
		snprintf(dst, len, "%s", json_object_get_string(v));
}

static int entry_from_json(struct sweep_pending_array *e, json_object *o)
{
	json_object *v;

	memset(e, 0, sizeof(*e));
	copy_str(e->id, sizeof(e->id), o, "id");
	copy_str(e->tool, sizeof(e->tool), o, "tool");
	copy_str(e->bin, sizeof(e->bin), o, "bin");
	copy_str(e->controller, sizeof(e->controller), o, "controller");
	copy_str(e->ld, sizeof(e->ld), o, "ld");
	copy_str(e->level, sizeof(e->level), o, "level");
	copy_str(e->os_device, sizeof(e->os_device), o, "os_device");
	copy_str(e->uid, sizeof(e->uid), o, "uid");
	copy_str(e->state, sizeof(e->state), o, "state");
	copy_str(e->time, sizeof(e->time), o, "time");
	if (json_object_object_get_ex(o, "pid", &v))
		e->pid = (long)json_object_get_int64(v);
	if (!json_object_object_get_ex(o, "drives", &v) || !json_object_is_type(v, json_type_array))
		return -EINVAL;
	e->nr_drives = json_object_array_length(v);
	e->drives = calloc(e->nr_drives + 1, sizeof(*e->drives));
	if (!e->drives)
		return -ENOMEM;
	for (size_t i = 0; i < e->nr_drives; i++) {
		const char *d = json_object_get_string(json_object_array_get_idx(v, i));

		if (!d || !(e->drives[i] = strdup(d)))
			return -ENOMEM;
	}
	return *e->id && *e->tool && e->nr_drives ? 0 : -EINVAL;
}

static json_object *entry_to_json(const struct sweep_pending_array *e)
{
	json_object *o = json_object_new_object(), *d = json_object_new_array();

	json_object_object_add(o, "id", json_object_new_string(e->id));
	json_object_object_add(o, "tool", json_object_new_string(e->tool));
	json_object_object_add(o, "bin", json_object_new_string(e->bin));
	json_object_object_add(o, "controller", json_object_new_string(e->controller));
	json_object_object_add(o, "ld", json_object_new_string(e->ld));
	json_object_object_add(o, "level", json_object_new_string(e->level));
	json_object_object_add(o, "os_device", json_object_new_string(e->os_device));
	json_object_object_add(o, "uid", json_object_new_string(e->uid));
	for (size_t i = 0; i < e->nr_drives; i++)
		json_object_array_add(d, json_object_new_string(e->drives[i]));
	json_object_object_add(o, "drives", d);
	json_object_object_add(o, "state", json_object_new_string(e->state));
	json_object_object_add(o, "pid", json_object_new_int64(e->pid));
	json_object_object_add(o, "time", json_object_new_string(e->time));
	return o;
}

void sweep_pending_free(struct sweep_pending_array *p, size_t nr)
{
	for (size_t i = 0; p && i < nr; i++) {
		for (size_t k = 0; k < p[i].nr_drives; k++)
			free(p[i].drives[k]);
		free(p[i].drives);
	}
	free(p);
}

/* Reads the journal (absent: empty). The caller holds the lock. */
static int journal_read(const char *path, struct sweep_pending_array **out, size_t *nr,
			char *err, size_t errlen)
{
	json_object *root, *arr;
	char *text = NULL;
	size_t len = 0, cap = 0, n;
	FILE *f = fopen(path, "r");
	int ret = 0;

	*out = NULL;
	*nr = 0;
	if (!f) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	do {
		if (len + 4096 > cap) {
			char *p = realloc(text, cap = cap ? 2 * cap : 65536);

			if (!p) {
				fclose(f);
				free(text);
				return -ENOMEM;
			}
			text = p;
		}
		n = fread(text + len, 1, cap - len - 1, f);
		len += n;
	} while (n);
	fclose(f);
	text[len] = '\0';
	root = json_tokener_parse(text);
	free(text);
	if (!root || !json_object_object_get_ex(root, "arrays", &arr) ||
	    !json_object_is_type(arr, json_type_array)) {
		snprintf(err, errlen, "the sweep journal %s is damaged (not the JSON raidbench "
			 "writes): look at it, delete the arrays it names by hand "
			 "(raidbench array delete), then remove it", path);
		json_object_put(root);
		return -EINVAL;
	}
	n = json_object_array_length(arr);
	*out = calloc(n + 1, sizeof(**out));
	if (!*out) {
		json_object_put(root);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n && !ret; i++) {
		ret = entry_from_json(&(*out)[i], json_object_array_get_idx(arr, i));
		*nr = i + 1;
	}
	json_object_put(root);
	if (ret) {
		sweep_pending_free(*out, *nr);
		*out = NULL;
		*nr = 0;
		snprintf(err, errlen, "the sweep journal %s has an entry without its tool or drives: "
			 "look at it, delete the arrays it names by hand, then remove it", path);
	}
	return ret;
}

/* Writes the journal atomically. The caller holds the lock. */
static int journal_write(const char *path, const struct sweep_pending_array *e, size_t nr,
			 char *err, size_t errlen)
{
	json_object *root = json_object_new_object(), *arr = json_object_new_array();
	char tmp[PATH_MAX + 8];
	const char *text;
	FILE *f;
	int fd, ret = 0;

	for (size_t i = 0; i < nr; i++)
		json_object_array_add(arr, entry_to_json(&e[i]));
	json_object_object_add(root, "version", json_object_new_int(JOURNAL_VERSION));
	json_object_object_add(root, "about", json_object_new_string(
		"arrays a raidbench sweep created and has not deleted; "
		"`raidbench sweep --resume-cleanup --yes` deletes them"));
	json_object_object_add(root, "arrays", arr);
	text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = userdir_open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644, err, errlen);
	if (fd < 0) {
		json_object_put(root);
		return fd;
	}
	f = fdopen(fd, "w");
	if (!f)
		close(fd);
	if (!f || fputs(text, f) < 0 || fputc('\n', f) < 0 || fflush(f) || fsync(fileno(f)))
		ret = -errno;
	if (f && fclose(f) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path) < 0)
		ret = -errno;
	if (ret) {
		snprintf(err, errlen, "cannot write the sweep journal %s: %s", path, strerror(-ret));
		unlink(tmp);
	}
	json_object_put(root);
	return ret;
}

int sweep_pending(struct sweep_pending_array **out, size_t *nr, char *err, size_t errlen)
{
	char path[PATH_MAX];
	int fd = journal_lock(path, sizeof(path), err, errlen), ret;

	*out = NULL;
	*nr = 0;
	if (fd < 0)
		return fd;
	ret = journal_read(path, out, nr, err, errlen);
	close(fd);
	return ret;
}

/* One change under the lock: add e, replace the entry with e's id, or remove id. */
enum change { ADD, UPDATE, REMOVE };

static int journal_change(enum change how, const struct sweep_pending_array *e, const char *id,
			  char *err, size_t errlen)
{
	struct sweep_pending_array *list, *grown;
	char path[PATH_MAX];
	size_t nr, i;
	int fd = journal_lock(path, sizeof(path), err, errlen), ret;

	if (fd < 0)
		return fd;
	ret = journal_read(path, &list, &nr, err, errlen);
	if (ret) {
		close(fd);
		return ret;
	}
	for (i = 0; i < nr && strcmp(list[i].id, how == REMOVE ? id : e->id); i++)
		;
	if (how == ADD) {
		grown = realloc(list, (nr + 1) * sizeof(*list));
		if (!grown) {
			ret = -ENOMEM;
			goto out;
		}
		list = grown;
		/* shallow: the caller's strings, never freed from here */
		list[nr] = *e;
		ret = journal_write(path, list, nr + 1, err, errlen);
		memset(&list[nr], 0, sizeof(list[nr]));
	} else if (i < nr) {
		struct sweep_pending_array old = list[i];

		if (how == UPDATE)
			list[i] = *e;
		else
			memmove(&list[i], &list[i + 1], (nr - i - 1) * sizeof(*list));
		ret = journal_write(path, list, how == UPDATE ? nr : nr - 1, err, errlen);
		if (how == UPDATE)
			list[i] = old;
		else
			list[nr - 1] = old;
	}
out:
	sweep_pending_free(list, nr);
	close(fd);
	return ret;
}

int sweep_journal_add(struct sweep_pending_array *e, char *err, size_t errlen)
{
	static unsigned counter;
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	e->pid = (long)getpid();
	snprintf(e->id, sizeof(e->id), "%ld-%lld-%u", e->pid, (long long)ts.tv_sec, counter++);
	localtime_r(&ts.tv_sec, &tm);
	strftime(e->time, sizeof(e->time), "%Y-%m-%dT%H:%M:%S%z", &tm);
	return journal_change(ADD, e, NULL, err, errlen);
}

int sweep_journal_update(const struct sweep_pending_array *e, char *err, size_t errlen)
{
	return journal_change(UPDATE, e, NULL, err, errlen);
}

int sweep_journal_remove(const char *id, char *err, size_t errlen)
{
	return journal_change(REMOVE, NULL, id, err, errlen);
}

/* ---- cleanup ----------------------------------------------------------------- */

/* A sweep still running elsewhere owns its entries: it deletes them itself. */
static bool sweep_alive(long pid)
{
	char path[64], comm[64] = "";
	FILE *f;

	if (pid <= 0 || pid == (long)getpid() || (kill((pid_t)pid, 0) < 0 && errno == ESRCH))
		return false;
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	return strstr(comm, "raidbench") != NULL;	/* a recycled pid is someone else */
}

static void drive_list(char *buf, size_t len, const struct sweep_pending_array *e)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < e->nr_drives && n < len; i++)
		n = bufcat(buf, len, n, "%s%s", i ? "," : "", e->drives[i]);
}

/* Whether found is the array the journal entry recorded, by the tool's identity and level. */
static bool same_ld(const struct sweep_pending_array *e, const struct sweep_ld *found, char *why,
		    size_t len)
{
	if (*e->level && *found->level && strcmp(e->level, found->level)) {
		snprintf(why, len, "it is RAID %s now, not the sweep's RAID %s", found->level,
			 e->level);
		return false;
	}
	if (*e->uid && strcasecmp(e->uid, found->uid)) {
		snprintf(why, len, "its identifier is %s, not the %s the sweep made", *found->uid ?
			 found->uid : "not shown", e->uid);
		return false;
	}
	return true;
}

/* Deletes one journal entry's array; 0 when it is gone from the tool and the journal. */
static int cleanup_one(struct sweep_pending_array *e, const struct sweep_callbacks *cb,
		       char *err, size_t errlen)
{
	struct inventory inv = { 0 };
	struct sweep_tool t;
	struct sweep_ld found;
	struct sweep_event ev = { .level = e->level, .ld = e->ld };
	char drives[512], why[2048] = "", *line = NULL;
	int ret;

	drive_list(drives, sizeof(drives), e);
	if (sweep_alive(e->pid)) {
		snprintf(err, errlen, "RAID %s on %s belongs to a sweep still running (pid %ld): it "
			 "deletes its own arrays; left alone", e->level, drives, e->pid);
		return -EBUSY;
	}
	ret = sweep_tool_find(&t, access(e->bin, X_OK) == 0 ? e->bin : e->tool, why, sizeof(why));
	if (!ret) {
		snprintf(t.controller, sizeof(t.controller), "%s", e->controller);
		ret = sweep_tool_read(&t, &inv, why, sizeof(why));
	}
	if (ret) {
		snprintf(err, errlen, "RAID %s on %s: %s; left in the journal", e->level, drives, why);
		goto out;
	}
	switch (sweep_find_ld(&t, &inv, e->drives, e->nr_drives, e->ld, &found)) {
	case SWEEP_LD_GONE:
		ret = sweep_journal_remove(e->id, err, errlen);
		if (!ret)
			sweep_emitf(cb, SWEEP_EV_NOTE, e->level, "RAID %s on %s%s%s: %s no longer shows "
				    "it; cleared from the journal", e->level, drives,
				    *e->ld ? ", logical drive " : "", e->ld, t.ops->name);
		goto out;
	case SWEEP_LD_CHANGED:
		snprintf(err, errlen, "RAID %s on %s: the drives now hold a different array than "
			 "the sweep made; left alone (and in the journal): look with raidbench "
			 "array show", e->level, drives);
		ret = -EBUSY;
		goto out;
	case SWEEP_LD_FOUND:
		break;
	}
	/*
	 * The same drives and number are not enough: tools reuse logical drive
	 * numbers, so an array made after the sweep can stand where its array
	 * stood. The tool's own identity and the level must be the journal's.
	 */
	if (!same_ld(e, &found, why, sizeof(why))) {
		snprintf(err, errlen, "RAID %s on %s, logical drive %s: %s; left alone (and in the "
			 "journal): look with raidbench array show", e->level, drives, found.id, why);
		ret = -EBUSY;
		goto out;
	}
	snprintf(e->ld, sizeof(e->ld), "%s", found.id);
	snprintf(e->state, sizeof(e->state), "deleting");
	ret = sweep_journal_update(e, err, errlen);
	if (!ret)
		ret = sweep_delete_ld(&t, &inv, found.id, e->drives, e->nr_drives, &line, why,
				      sizeof(why));
	if (ret) {
		if (!*err)
			snprintf(err, errlen, "RAID %s, logical drive %s on %s: %s; still in the "
				 "journal", e->level, found.id, drives, why);
		goto out;
	}
	ret = sweep_journal_remove(e->id, err, errlen);
	ev.command = line;
	ev.ld = found.id;
	ev.os_device = found.os_device;
	sweep_emit(cb, SWEEP_EV_DELETED, &ev);
out:
	free(line);
	inventory_release(&inv);
	return ret;
}

int sweep_cleanup(bool yes, const struct sweep_callbacks *cb, char *err, size_t errlen)
{
	struct sweep_pending_array *list;
	size_t nr, deleted = 0, failed = 0;
	char first[2048] = "";
	int ret = sweep_pending(&list, &nr, err, errlen);

	if (ret)
		return ret;
	if (!nr) {
		sweep_emitf(cb, SWEEP_EV_DONE, NULL, "no arrays left behind by a sweep");
		sweep_pending_free(list, nr);
		return 0;
	}
	if (!yes) {
		snprintf(err, errlen, "%zu array(s) left behind by a sweep: deleting them destroys "
			 "their contents; nothing was run without consent (--yes)", nr);
		sweep_pending_free(list, nr);
		return -EPERM;
	}
	for (size_t i = 0; i < nr; i++) {
		char msg[2048] = "";

		if (cleanup_one(&list[i], cb, msg, sizeof(msg))) {
			sweep_emitf(cb, SWEEP_EV_ERROR, list[i].level, "%s", msg);
			if (!failed++)
				snprintf(first, sizeof(first), "%s", msg);
		} else {
			deleted++;
		}
	}
	sweep_pending_free(list, nr);
	if (failed) {
		snprintf(err, errlen, "%zu of %zu array(s) could not be cleaned up: %s", failed,
			 nr, first);
		sweep_emitf(cb, SWEEP_EV_DONE, NULL, "%zu cleaned up, %zu left in the journal",
			    deleted, failed);
		return -EIO;
	}
	sweep_emitf(cb, SWEEP_EV_DONE, NULL, "%zu array(s) left by a sweep deleted; the journal "
		    "is empty", deleted);
	return 0;
}
