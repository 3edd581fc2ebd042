/*
 * raidtool.c - running vendor RAID tools: PATH lookup, exec with argv
 * (never a shell) under a deadline and a cancel flag, the whole process
 * group killed after every run, captured stdout/stderr, `devices --import`, the live read of one tool, and the join
 * of logical drives to block devices by WWN. The read of every tool at once
 * is hw/raidprobe.c, the list of tools hw/raidtool_registry.c.
 *
 * It must not parse any vendor's output (the adapters do) and never prints.
 */
#include "raidtool.h"
#include "raidtool_int.h"
#include "grow.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define OUTPUT_CAP (64u << 20)	/* no listing is anywhere near this; a runaway tool is */
#define TERM_GRACE_MS 1000
#define DRAIN_GRACE_MS 250	/* after the tool exits, for output still in the pipes */
#define POLL_STEP_MS 50		/* how often a run looks at its exit and its cancel flag */

/* ---- PATH and argv ------------------------------------------------------ */

static bool executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

static int path_lookup(const char *name, char *path, size_t len)
{
	const char *env = getenv("PATH"), *p, *end;

	if (strchr(name, '/')) {
		if (!executable(name))
			return -ENOENT;
		snprintf(path, len, "%s", name);
		return 0;
	}
	if (!env || !*env)
		env = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
	for (p = env; ; p = end + 1) {
		end = strchrnul(p, ':');
		if (end > p && (size_t)snprintf(path, len, "%.*s/%s", (int)(end - p), p, name) < len &&
		    executable(path))
			return 0;
		if (!*end)
			break;
	}
	return -ENOENT;
}

int raidtool_find(const struct raid_tool_ops *ops, char *path, size_t len)
{
	for (size_t i = 0; ops->binaries[i]; i++)
		if (path_lookup(ops->binaries[i], path, len) == 0)
			return 0;
	return -ENOENT;
}

int raidtool_argv_push(struct raidtool_argv *av, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int ret;

	if (av->n >= RAIDTOOL_MAX_ARGS)
		return -E2BIG;
	va_start(ap, fmt);
	ret = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (ret < 0)
		return -ENOMEM;
	av->v[av->n++] = s;
	av->v[av->n] = NULL;
	return 0;
}

void raidtool_argv_release(struct raidtool_argv *av)
{
	for (size_t i = 0; i < av->n; i++)
		free(av->v[i]);
	memset(av, 0, sizeof(*av));
}

static bool shell_safe(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_./:=,+@%-", *s))
			return false;
	return true;
}

char *raidtool_argv_format(const char *const *argv)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	for (size_t i = 0; argv[i]; i++) {
		const char *s = argv[i];

		if (i)
			fputc(' ', f);
		if (shell_safe(s)) {
			fputs(s, f);
			continue;
		}
		fputc('\'', f);
		for (; *s; s++) {
			if (*s == '\'')
				fputs("'\\''", f);
			else
				fputc(*s, f);
		}
		fputc('\'', f);
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* ---- exec ---------------------------------------------------------------- */

long long raidtool_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int raidtool_env_timeout_ms(int fallback_ms)
{
	const char *s = getenv("RAIDBENCH_TOOL_TIMEOUT");
	char *end;
	double v;

	if (s && *s) {
		v = strtod(s, &end);
		if (end != s && !*end && v > 0 && v < 86400)
			return (int)(v * 1000);
	}
	return fallback_ms;
}

static int default_timeout_ms(void)
{
	return raidtool_env_timeout_ms(RAIDTOOL_DEFAULT_TIMEOUT_MS);
}

/* The environment with LC_ALL=C: vendor tools print the words the parsers know. */
static char **child_env(void)
{
	size_t n = 0, k = 0;
	char **env;

	while (environ && environ[n])
		n++;
	env = calloc(n + 2, sizeof(*env));
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "LC_ALL=", 7))
			env[k++] = environ[i];
	env[k++] = "LC_ALL=C";
	env[k] = NULL;
	return env;
}

struct sink {
	char *buf;
	size_t len, cap;
};

static int sink_read(int fd, struct sink *s)
{
	char chunk[16384];
	ssize_t n = read(fd, chunk, sizeof(chunk));

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : -errno;
	if (n == 0)
		return 0;
	if (s->len + (size_t)n + 1 > OUTPUT_CAP)
		return -E2BIG;
	if (s->len + (size_t)n + 1 > s->cap) {
		size_t cap = s->cap ? s->cap : 16384;
		char *p;

		while (cap < s->len + (size_t)n + 1)
			cap *= 2;
		p = realloc(s->buf, cap);
		if (!p)
			return -ENOMEM;
		s->buf = p;
		s->cap = cap;
	}
	memcpy(s->buf + s->len, chunk, (size_t)n);
	s->len += (size_t)n;
	s->buf[s->len] = '\0';
	return 1;
}

static void close_fds(const int *fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

static void kill_group(pid_t pid, int sig)
{
	if (kill(-pid, sig) < 0)
		kill(pid, sig);
}

static bool cancelled(const struct raidtool_ctl *ctl)
{
	/* pairs with the store of whoever cancels (raidprobe_cancel): only the flag is shared */
	return ctl && ctl->cancel && atomic_load_explicit(ctl->cancel, memory_order_relaxed);
}

/* Whether pid has ended, without reaping it: its pid (and group id) stay ours. */
static bool has_exited(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid;
}

/*
 * Waits for pid until deadline or a cancel; then TERM to its group, a grace
 * period, KILL. Whatever is left in its group is killed before pid is
 * reaped, so the group id cannot have been reused by then.
 */
static int reap(pid_t pid, long long deadline, const struct raidtool_ctl *ctl,
		struct raidtool_run *run, bool *was_cancelled)
{
	bool termed = false;
	int st = 0;

	for (;;) {
		long long now = raidtool_now_ms();

		if (has_exited(pid))
			break;
		if (!termed && !*was_cancelled && cancelled(ctl)) {
			*was_cancelled = true;
			deadline = now;
		}
		if (now >= deadline) {
			if (termed) {
				kill_group(pid, SIGKILL);
				break;
			}
			if (!*was_cancelled)
				run->timed_out = true;
			kill_group(pid, SIGTERM);
			termed = true;
			deadline = now + TERM_GRACE_MS;
		}
		usleep(10000);
	}
	kill(-pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return st;
}

int raidtool_exec(const char *const *argv, int timeout_ms, struct raidtool_run *run,
		  char *err, size_t errlen)
{
	struct raidtool_ctl ctl = { .timeout_ms = timeout_ms };

	return raidtool_exec_ctl(argv, &ctl, run, err, errlen);
}

int raidtool_exec_ctl(const char *const *argv, const struct raidtool_ctl *ctl,
		      struct raidtool_run *run, char *err, size_t errlen)
{
	char path[PATH_MAX], **env;
	int outp[2] = { -1, -1 }, errp[2] = { -1, -1 }, ep[2] = { -1, -1 }, devnull = -1;
	struct sink so = { 0 }, se = { 0 };
	long long deadline, drain_until = 0;
	int ret = 0, st, child_errno = 0, timeout_ms, limit_ms;
	bool exited = false, was_cancelled = false;
	sigset_t all;
	pid_t pid;

	memset(run, 0, sizeof(*run));
	timeout_ms = ctl && ctl->timeout_ms > 0 ? ctl->timeout_ms : default_timeout_ms();
	if (!argv || !argv[0] || path_lookup(argv[0], path, sizeof(path))) {
		snprintf(err, errlen, "%s: not found%s", argv && argv[0] ? argv[0] : "(null)",
			 argv && argv[0] && !strchr(argv[0], '/') ? " on PATH" : "");
		return -ENOENT;
	}
	if (cancelled(ctl)) {
		snprintf(err, errlen, "%s: cancelled", path);
		return -ECANCELED;
	}
	env = child_env();
	if (!env)
		return -ENOMEM;
	if (pipe2(outp, O_CLOEXEC) || pipe2(errp, O_CLOEXEC) || pipe2(ep, O_CLOEXEC) ||
	    (devnull = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: cannot set up pipes: %s", path, strerror(-ret));
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: cannot fork: %s", path, strerror(-ret));
		goto out;
	}
	if (pid == 0) {
		int e;

		/* async-signal-safe calls only until execve */
		setpgid(0, 0);
		sigemptyset(&all);
		sigprocmask(SIG_SETMASK, &all, NULL);
		signal(SIGPIPE, SIG_DFL);
		if (dup2(devnull, 0) < 0 || dup2(outp[1], 1) < 0 || dup2(errp[1], 2) < 0)
			_exit(127);
		execve(path, (char *const *)argv, env);
		e = errno;
		if (write(ep[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	setpgid(pid, pid);	/* both sides: whoever runs first wins the race */
	close(outp[1]);
	close(errp[1]);
	close(ep[1]);
	outp[1] = errp[1] = ep[1] = -1;
	deadline = raidtool_now_ms() + timeout_ms;
	if (ctl && ctl->deadline_ms > 0 && ctl->deadline_ms < deadline)
		deadline = ctl->deadline_ms;
	limit_ms = (int)(deadline - raidtool_now_ms());
	if (read(ep[0], &child_errno, sizeof(child_errno)) == (ssize_t)sizeof(child_errno)) {
		reap(pid, raidtool_now_ms() + TERM_GRACE_MS, NULL, run, &was_cancelled);
		run->timed_out = false;
		ret = -child_errno;
		snprintf(err, errlen, "%s: cannot run: %s", path, strerror(child_errno));
		goto out;
	}
	for (;;) {
		struct pollfd pf[2] = { { outp[0], POLLIN, 0 }, { errp[0], POLLIN, 0 } };
		long long now = raidtool_now_ms(), left;
		int n;

		if (pf[0].fd < 0 && pf[1].fd < 0)
			break;
		/*
		 * The tool is done when it exits, not when the pipes close: a
		 * child it left behind may hold them open for ever. What is
		 * already written gets a short grace to be read.
		 */
		if (!exited && has_exited(pid)) {
			exited = true;
			drain_until = now + DRAIN_GRACE_MS;
		}
		if (exited && now >= drain_until)
			break;
		if (cancelled(ctl)) {
			was_cancelled = true;
			break;
		}
		if (!exited && now >= deadline) {
			run->timed_out = true;
			break;
		}
		left = (exited ? drain_until : deadline) - now;
		n = poll(pf, 2, (int)(left > POLL_STEP_MS ? POLL_STEP_MS : left));
		if (n < 0 && errno != EINTR) {
			ret = -errno;
			break;
		}
		for (int i = 0; i < 2 && n > 0; i++) {
			int *fd = i ? &errp[0] : &outp[0];
			int r;

			if (pf[i].fd < 0 || !pf[i].revents)
				continue;
			r = sink_read(*fd, i ? &se : &so);
			if (r <= 0) {
				if (r < 0 && r != -EIO)
					ret = r;
				close(*fd);
				*fd = -1;
			}
		}
		if (ret)
			break;
	}
	if (ret || run->timed_out || was_cancelled)
		deadline = raidtool_now_ms();	/* stop it now */
	st = reap(pid, deadline, ctl, run, &was_cancelled);
	if (WIFEXITED(st)) {
		run->status = WEXITSTATUS(st);
	} else {
		run->status = -1;
		run->signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
	}
	run->out = so.buf ? so.buf : strdup("");
	run->out_len = so.len;
	run->errout = se.buf ? se.buf : strdup("");
	run->err_len = se.len;
	so.buf = se.buf = NULL;
	if (!run->out || !run->errout) {
		raidtool_run_release(run);
		ret = -ENOMEM;
	}
	if (ret == -E2BIG)
		snprintf(err, errlen, "%s: printed more than %u MiB; stopped it", path,
			 OUTPUT_CAP >> 20);
	else if (ret)
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
	else if (was_cancelled) {
		snprintf(err, errlen, "%s was cancelled (killed with its process group)", path);
		ret = -ECANCELED;
	} else if (run->timed_out) {
		snprintf(err, errlen,
			 "%s did not finish within %d s and was killed (with its process group)",
			 path, (limit_ms + 999) / 1000);
		ret = -ETIMEDOUT;
	}
out:
	free(so.buf);
	free(se.buf);
	free(env);
	close_fds((int[]){ outp[0], outp[1], errp[0], errp[1], ep[0], ep[1], devnull }, 7);
	return ret;
}

void raidtool_run_release(struct raidtool_run *run)
{
	free(run->out);
	free(run->errout);
	memset(run, 0, sizeof(*run));
}

/* ---- import ------------------------------------------------------------- */

static int read_file(const char *file, char **text, char *err, size_t errlen)
{
	FILE *f = fopen(file, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	int ret = 0;

	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "cannot open %s: %s", file, strerror(-ret));
		return ret;
	}
	do {
		if (len + 65536 + 1 > cap) {
			char *p;

			cap = cap ? cap * 2 : 131072;
			if (cap > OUTPUT_CAP) {
				snprintf(err, errlen, "%s is larger than %u MiB: not a tool's output",
					 file, OUTPUT_CAP >> 20);
				ret = -EFBIG;
				break;
			}
			p = realloc(buf, cap);
			if (!p) {
				ret = -ENOMEM;
				break;
			}
			buf = p;
		}
		n = fread(buf + len, 1, 65536, f);
		len += n;
	} while (n > 0);
	if (!ret && ferror(f)) {
		ret = -EIO;
		snprintf(err, errlen, "cannot read %s: %s", file, strerror(EIO));
	}
	fclose(f);
	if (ret) {
		free(buf);
		return ret;
	}
	buf[len] = '\0';
	if (memchr(buf, '\0', len)) {
		free(buf);
		snprintf(err, errlen, "%s is binary, not a tool's text output", file);
		return -EBADMSG;
	}
	*text = buf;
	return 0;
}

int raidtool_import(struct inventory *inv, const char *tool, const char *file, char *err,
		    size_t errlen)
{
	struct inventory tmp = { 0 };
	struct raidtool_src src = { 0 };
	const struct raid_tool_ops *ops;
	const struct raidtool_import *form;
	char *text = NULL;
	int ret;

	ops = rt_import_form(tool, &form);
	if (!ops) {
		char known[256] = "";
		const char *f;

		for (size_t i = 0; (f = raidtool_import_form(i)); i++)
			snprintf(known + strlen(known), sizeof(known) - strlen(known), "%s%s",
				 i ? ", " : "", f);
		snprintf(err, errlen, "unknown import tool '%s' (known: %s)", tool, known);
		return -EINVAL;
	}
	ret = read_file(file, &text, err, errlen);
	if (ret)
		return ret;
	src.tool = form->form;
	src.cmd = form->cmd;
	src.file = file;
	ret = rt_parse(ops, &tmp, text, &src, err, errlen);
	if (!ret)
		ret = raidtool_merge(inv, &tmp);
	inventory_release(&tmp);
	free(text);
	return ret;
}

/* ---- the live read -------------------------------------------------------- */

int raidtool_read(const struct raid_tool_ops *ops, const char *bin, struct inventory *inv,
		  int timeout_ms, char *err, size_t errlen)
{
	struct raidtool_osdev *devs = NULL;
	struct inventory tmp = { 0 };
	struct raidtool_ctl ctl = { .timeout_ms = timeout_ms };
	struct raidtool_src src = { 0 };
	size_t nr = 0;
	int ret;

	raidtool_osdevs_from_sysfs("/sys", &devs, &nr);
	src.tool = ops->name;
	src.osdevs = devs;
	src.nr_osdevs = nr;
	ret = ops->read(bin, &tmp, &src, &ctl, err, errlen);
	if (!ret)
		ret = raidtool_merge(inv, &tmp);
	inventory_release(&tmp);
	raidtool_osdevs_free(devs, nr);
	return ret;
}

/* ---- the WWN join --------------------------------------------------------- */

/* Lower-case hex digits of a WWN without its decorations; false when not hex. */
static bool wwn_norm(const char *s, char *out, size_t len)
{
	static const char *const prefixes[] = { "naa.", "eui.", "wwn-0x", "wwn-", "0x", NULL };
	size_t n = 0;

	if (!s)
		return false;
	while (isspace((unsigned char)*s))
		s++;
	for (size_t i = 0; prefixes[i]; i++)
		if (!strncasecmp(s, prefixes[i], strlen(prefixes[i]))) {
			s += strlen(prefixes[i]);
			break;
		}
	for (; *s && !isspace((unsigned char)*s); s++) {
		if (!isxdigit((unsigned char)*s) || n + 1 >= len)
			return false;
		out[n++] = (char)tolower((unsigned char)*s);
	}
	out[n] = '\0';
	return n >= 16;
}

const char *raidtool_join_wwn(const char *vendor_id, const struct raidtool_osdev *devs,
			      size_t nr)
{
	char v[80], d[80];
	const char *prefix_match = NULL;
	size_t nprefix = 0;

	if (!wwn_norm(vendor_id, v, sizeof(v)))
		return NULL;
	for (size_t i = 0; i < nr; i++) {
		size_t lv = strlen(v), ld;

		if (!wwn_norm(devs[i].wwn, d, sizeof(d)))
			continue;
		if (!strcmp(v, d))
			return devs[i].name;
		/* udev's ID_WWN is the 16-digit head of a 32-digit NAA id */
		ld = strlen(d);
		if ((ld < lv && !strncmp(v, d, ld)) || (lv < ld && !strncmp(v, d, lv))) {
			prefix_match = devs[i].name;
			nprefix++;
		}
	}
	return nprefix == 1 ? prefix_match : NULL;
}

static char *read_first_line(const char *path)
{
	char buf[256];
	FILE *f = fopen(path, "r");
	char *s;

	if (!f)
		return NULL;
	s = fgets(buf, sizeof(buf), f);
	fclose(f);
	if (!s)
		return NULL;
	s = rt_trim(buf);
	return *s ? strdup(s) : NULL;
}

int raidtool_osdevs_from_sysfs(const char *sysroot, struct raidtool_osdev **devs, size_t *nr)
{
	static const char *const files[] = { "device/wwid", "wwid", "device/wwn", NULL };
	char dirpath[PATH_MAX], path[PATH_MAX + 300];
	struct dirent *de;
	DIR *d;

	*devs = NULL;
	*nr = 0;
	snprintf(dirpath, sizeof(dirpath), "%s/block", sysroot);
	d = opendir(dirpath);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		struct raidtool_osdev *p;
		char *wwn = NULL;

		if (de->d_name[0] == '.')
			continue;
		for (size_t i = 0; files[i] && !wwn; i++) {
			snprintf(path, sizeof(path), "%s/%s/%s", dirpath, de->d_name, files[i]);
			wwn = read_first_line(path);
		}
		if (!wwn)
			continue;
		if (grow_room(devs, *nr, sizeof(**devs))) {
			free(wwn);
			break;
		}
		p = *devs;
		p[*nr].wwn = wwn;
		p[*nr].name = strdup(de->d_name);
		if (!p[*nr].name) {
			free(wwn);
			break;
		}
		(*nr)++;
	}
	closedir(d);
	return 0;
}

void raidtool_osdevs_free(struct raidtool_osdev *devs, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free((char *)devs[i].name);
		free((char *)devs[i].wwn);
	}
	free(devs);
}
