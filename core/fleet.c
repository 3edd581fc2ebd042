/*
 * fleet.c - the multi-host client of fio's server protocol: addresses in
 * fio's syntax, one non-blocking socket per host, the conversation (PROBE,
 * JOBLINE with the status interval, JOB, RUN, SEND_ETA every tick, QUIT to
 * stop), status messages gathered into complete sets, and live records from
 * the difference between successive sets. Nothing here prints.
 *
 * The conversation, as fio 3.33's server runs it (server.c):
 *   client PROBE            -> server PROBE reply (hostname, fio version)
 *   client JOBLINE argv     -> server START {jobs, stat_outputs} (parses argv)
 *   client JOB ini text     -> server START (or TEXT errors then QUIT: rejected)
 *   client RUN              -> server forks the jobs: SERVER_START, ADD_JOB,
 *                              TEXT; every status interval one TS per job
 *                              (or group) then GS per group, cumulative
 *   client SEND_ETA (tag)   -> server ETA (same tag)
 *   jobs end                -> final TS set, GS, DU, then STOP {error,
 *                              signal} and QUIT
 *   client QUIT             -> the server stops the jobs (final stats follow)
 * "--status-interval=Nms" on the JOBLINE makes the server send a TS set
 * every N ms (fio parses it in microseconds, 1 ms at least).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "fleet.h"
#include "worker.h"

#define FLEET_RING_CAP 8192
#define FLEET_TEXT_MAX 2048

struct slot_prev {
	uint64_t ios[DDIR_RWDIR_CNT];
	uint64_t bytes[DDIR_RWDIR_CNT];
	double lat_sum[DDIR_RWDIR_CNT];	/* clat mean * samples: sums subtract */
	uint64_t *hist;			/* [DDIR_RWDIR_CNT][HIST_NR] clat, as of the last tick */
};

struct fleet_host_priv {
	int fd;
	struct fio_rx rx;
	struct fio_buf tx;
	uint64_t started_ns;		/* connect began */
	uint64_t last_rx_ns;
	uint64_t eta_tag;		/* outstanding ETA request, 0 = none */
	uint32_t jobs, stat_outputs;
	unsigned starts;		/* START replies: JOBLINE's then JOB's */
	bool run_sent, quit_sent, got_stop;
	/* the set being gathered */
	struct thread_stat *batch;
	size_t nr_batch;
	struct group_stat *gbatch;
	size_t nr_gbatch;
	bool gs_phase;			/* GS arrived: the next TS starts a new set */
	/* live */
	struct slot_prev *prev;		/* per layout job row of this host */
	size_t nr_slots;
	char text[FLEET_TEXT_MAX];	/* what the server printed (its error messages) */
	size_t text_len;
};

struct fleet_priv {
	char **names;
	char **hosts;
	int *groups;
	uint64_t *hist_tmp;		/* [3][HIST_NR] per host, summed */
	uint64_t *hist_all;		/* [3][HIST_NR] all hosts */
	struct live_rec *recs;
	size_t nr_recs, cap_recs;
	uint32_t seq;
};

uint64_t fleet_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

const char *fleet_state_name(enum fleet_state s)
{
	static const char *const n[] = { "connecting", "setup", "running", "stopping", "done",
					 "failed" };

	return s <= FLEET_FAILED ? n[s] : "?";
}

const char *fleet_fault_name(enum fleet_fault f)
{
	static const char *const n[] = { "ok", "unreachable", "refused", "version", "rejected",
					 "lost", "job-error", "stopped" };

	return f <= FLEET_STOPPED ? n[f] : "?";
}

/* ---- addresses --------------------------------------------------------------- */

int fleet_parse_addr(const char *spec, struct fleet_addr *a, char *err, size_t errlen)
{
	const char *s = spec, *comma;
	char *end;
	size_t n;

	memset(a, 0, sizeof(*a));
	a->port = FIO_PROTO_PORT;
	a->family = AF_UNSPEC;
	if (!*spec || strlen(spec) >= sizeof(a->name)) {
		snprintf(err, errlen, "--client='%s': %s", spec, *spec ? "too long" :
			 "empty (a host, host,port, ip:host,port, ip6:host,port or sock:path)");
		return -EINVAL;
	}
	snprintf(a->name, sizeof(a->name), "%s", spec);
	if (!strncmp(s, "sock:", 5)) {
		a->family = AF_UNIX;
		s += 5;
		if (!*s || strlen(s) >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
			snprintf(err, errlen, "--client='%s': a socket path (at most %zu bytes)",
				 spec, sizeof(((struct sockaddr_un *)0)->sun_path) - 1);
			return -EINVAL;
		}
		snprintf(a->host, sizeof(a->host), "%s", s);
		a->port = 0;
		return 0;
	}
	if (!strncmp(s, "ip:", 3)) {
		a->family = AF_INET;
		s += 3;
	} else if (!strncmp(s, "ip6:", 4)) {
		a->family = AF_INET6;
		s += 4;
	}
	/* fio splits the port at the last comma ("host,port"); a colon belongs to IPv6 */
	comma = strrchr(s, ',');
	n = comma ? (size_t)(comma - s) : strlen(s);
	if (!n || n >= sizeof(a->host)) {
		snprintf(err, errlen, "--client='%s': no host name", spec);
		return -EINVAL;
	}
	memcpy(a->host, s, n);
	a->host[n] = '\0';
	if (comma) {
		unsigned long port;

		errno = 0;
		port = strtoul(comma + 1, &end, 10);
		if (!comma[1] || *end || errno || !port || port > 65535) {
			snprintf(err, errlen, "--client='%s': bad port '%s' (1 to 65535)", spec,
				 comma + 1);
			return -EINVAL;
		}
		a->port = (unsigned)port;
	}
	if (a->family == AF_UNSPEC && strchr(a->host, ':'))
		a->family = AF_INET6;
	return 0;
}

static int push_addr(struct fleet_addr **out, size_t *nr, const struct fleet_addr *a)
{
	struct fleet_addr *n = realloc(*out, (*nr + 1) * sizeof(**out));

	if (!n)
		return -ENOMEM;
	n[(*nr)++] = *a;
	*out = n;
	return 0;
}

int fleet_add_clients(const char *arg, struct fleet_addr **out, size_t *nr, char *err,
		      size_t errlen)
{
	struct fleet_addr a;
	char line[512], e2[300];
	FILE *f;
	int lineno = 0, ret = 0;

	/* fio takes an existing file as a list of hosts */
	if (strncmp(arg, "sock:", 5) && access(arg, F_OK) == 0) {
		f = fopen(arg, "r");
		if (!f) {
			ret = -errno;
			snprintf(err, errlen, "--client=%s: %s", arg, strerror(errno));
			return ret;
		}
		while (!ret && fgets(line, sizeof(line), f)) {
			char *p = line, *e;

			lineno++;
			while (*p == ' ' || *p == '\t')
				p++;
			e = p + strcspn(p, "#\r\n");
			while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
				e--;
			*e = '\0';
			if (!*p)
				continue;
			ret = fleet_parse_addr(p, &a, e2, sizeof(e2));
			if (ret)
				snprintf(err, errlen, "%s:%d: %s", arg, lineno, e2);
			else if (push_addr(out, nr, &a))
				ret = -ENOMEM;
		}
		fclose(f);
		if (!ret && !lineno)
			snprintf(err, errlen, "--client=%s: the file names no host", arg);
		return ret ? ret : (lineno ? 0 : -EINVAL);
	}
	ret = fleet_parse_addr(arg, &a, err, errlen);
	if (ret)
		return ret;
	if (push_addr(out, nr, &a)) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

/* ---- the job text -------------------------------------------------------------- */

static void put_kv(FILE *m, const struct opt_kv *kv)
{
	if (kv->value)
		fprintf(m, "%s=%s\n", kv->key, kv->value);
	else
		fprintf(m, "%s\n", kv->key);
}

char *fleet_job_text(const struct job_list *jl)
{
	char *buf = NULL;
	size_t len = 0, i, k;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	fputs("[global]\n", m);
	for (k = 0; k < jl->nr_global_options; k++)
		if (strcmp(jl->global_options[k].key, "name"))
			put_kv(m, &jl->global_options[k]);
	for (i = 0; i < jl->nr; i++) {
		const struct job_spec *j = &jl->jobs[i];

		/* clones of numjobs share one spec in order: one section each job */
		if (i && !strcmp(jl->jobs[i - 1].name, j->name) &&
		    jl->jobs[i - 1].job_options == j->job_options)
			continue;
		fprintf(m, "[%s]\n", j->name);
		for (k = 0; k < j->nr_job_options; k++)
			if (strcmp(j->job_options[k].key, "name"))
				put_kv(m, &j->job_options[k]);
	}
	if (fclose(m)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * The console cannot see a server's disks, so the write guard cannot look
 * at them: a job that writes to a device path on the servers needs that
 * device named with --allow-destroy, as a local run needs for a device
 * holding data. Files are the server's own business, as with fio.
 */
int fleet_check_writes(const struct job_list *jl, const struct guard_consent *consent,
			       char *err, size_t errlen)
{
	size_t i, k;
	unsigned f;

	for (i = 0; i < jl->nr; i++) {
		const struct job_spec *j = &jl->jobs[i];

		if (!job_writes(j))
			continue;
		for (f = 0; f < j->nr_filenames; f++) {
			const char *p = j->filenames[f];
			bool ok = false;

			if (strncmp(p, "/dev/", 5))
				continue;
			for (k = 0; k < consent->nr; k++)
				if (!strcmp(consent->paths[k], p))
					ok = true;
			if (consent->readonly || !ok) {
				snprintf(err, errlen, "job '%s' writes to %s on every server, and the "
					 "console cannot check what that device holds there; name it "
					 "with --allow-destroy=%s to consent", j->name, p, p);
				return -EPERM;
			}
		}
	}
	return 0;
}

/* ---- layout -------------------------------------------------------------------- */

/* How many status messages a host sends per set: one per job clone, or per group reported. */
static size_t expected_rows(const struct job_list *jl)
{
	size_t i, n = 0;
	int last_gr_group = -1;

	for (i = 0; i < jl->nr; i++) {
		const struct job_spec *j = &jl->jobs[i];

		if (j->group_reporting) {
			if (j->groupid != last_gr_group)
				n++;
			last_gr_group = j->groupid;
		} else {
			n += j->numjobs ? j->numjobs : 1;
		}
	}
	return n;
}

static const char *row_name(const struct job_list *jl, size_t row)
{
	size_t i, n = 0;
	int last_gr_group = -1;

	for (i = 0; i < jl->nr; i++) {
		const struct job_spec *j = &jl->jobs[i];
		size_t k = j->group_reporting ? (j->groupid != last_gr_group) :
			   (j->numjobs ? j->numjobs : 1);

		if (j->group_reporting)
			last_gr_group = j->groupid;
		if (row < n + k)
			return j->name;
		n += k;
	}
	return "?";
}

static int build_layout(struct fleet *f, const struct job_list *jl)
{
	struct fleet_priv *fp = f->priv;
	size_t rows = expected_rows(jl), nr = f->nr_hosts * (rows + 1), h, r, i = 0;

	if (nr >= LIVE_TOTAL)
		return -E2BIG;
	fp->names = calloc(nr + 1, sizeof(char *));
	fp->hosts = calloc(nr + 1, sizeof(char *));
	fp->groups = calloc(nr + 1, sizeof(int));
	if (!fp->names || !fp->hosts || !fp->groups)
		return -ENOMEM;
	for (h = 0; h < f->nr_hosts; h++) {
		struct fleet_host *fh = &f->hosts[h];

		fh->slot = i;
		fp->hosts[i] = fh->addr.name;
		fp->names[i] = fh->addr.name;
		fp->groups[i++] = -1;	/* a host's total row */
		for (r = 0; r < rows; r++) {
			fp->hosts[i] = fh->addr.name;
			fp->names[i] = (char *)row_name(jl, r);
			fp->groups[i++] = 0;
		}
		fh->priv->nr_slots = rows;
		fh->priv->prev = calloc(rows ? rows : 1, sizeof(struct slot_prev));
		if (!fh->priv->prev)
			return -ENOMEM;
		for (r = 0; r < rows; r++) {
			fh->priv->prev[r].hist = calloc(DDIR_RWDIR_CNT * HIST_NR, sizeof(uint64_t));
			if (!fh->priv->prev[r].hist)
				return -ENOMEM;
		}
	}
	f->layout.nr_workers = nr;
	f->layout.worker_names = (const char *const *)fp->names;
	f->layout.worker_groups = fp->groups;
	f->layout.worker_hosts = (const char *const *)fp->hosts;
	f->layout.interval_ms = f->p.interval_ms;
	return 0;
}

/* ---- connections ---------------------------------------------------------------- */

static void host_fail(struct fleet_host *h, enum fleet_fault fault, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void host_close(struct fleet_host *h)
{
	if (h->priv->fd >= 0)
		close(h->priv->fd);
	h->priv->fd = -1;
}

static void host_fail(struct fleet_host *h, enum fleet_fault fault, const char *fmt, ...)
{
	va_list ap;

	if (h->state == FLEET_FAILED)
		return;
	va_start(ap, fmt);
	vsnprintf(h->why, sizeof(h->why), fmt, ap);
	va_end(ap);
	h->fault = fault;
	h->state = FLEET_FAILED;
	host_close(h);
}

/* The server's last words, for a reason: its error lines, trimmed. */
static const char *server_said(struct fleet_host *h)
{
	char *t = h->priv->text;
	size_t n = h->priv->text_len;

	while (n && (t[n - 1] == '\n' || t[n - 1] == ' '))
		t[--n] = '\0';
	return t;
}

static int resolve(const struct fleet_addr *a, struct sockaddr_storage *ss, socklen_t *len,
		   char *err, size_t errlen)
{
	struct addrinfo hints = { 0 }, *res;
	char port[8];
	int ret;

	if (a->family == AF_UNIX) {
		struct sockaddr_un *un = (struct sockaddr_un *)ss;

		memset(un, 0, sizeof(*un));
		un->sun_family = AF_UNIX;
		/* fleet_parse_addr() refused a longer path */
		memcpy(un->sun_path, a->host, strnlen(a->host, sizeof(un->sun_path) - 1));
		*len = sizeof(*un);
		return 0;
	}
	hints.ai_family = a->family;
	hints.ai_socktype = SOCK_STREAM;
	snprintf(port, sizeof(port), "%u", a->port);
	ret = getaddrinfo(a->host, port, &hints, &res);
	if (ret) {
		snprintf(err, errlen, "cannot resolve '%s': %s", a->host, gai_strerror(ret));
		return -EHOSTUNREACH;
	}
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	*len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

static enum fleet_fault connect_fault(int e)
{
	return e == ECONNREFUSED || e == ENOENT ? FLEET_REFUSED : FLEET_UNREACHABLE;
}

static void host_connect(struct fleet *f, struct fleet_host *h)
{
	struct sockaddr_storage ss;
	socklen_t len;
	char err[300];
	int fd, one = 1;

	h->priv->started_ns = fleet_now_ns();
	if (resolve(&h->addr, &ss, &len, err, sizeof(err))) {
		host_fail(h, FLEET_UNREACHABLE, "%s", err);
		return;
	}
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		host_fail(h, FLEET_UNREACHABLE, "socket: %s", strerror(errno));
		return;
	}
	if (ss.ss_family != AF_UNIX)
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	h->priv->fd = fd;
	if (connect(fd, (struct sockaddr *)&ss, len) && errno != EINPROGRESS) {
		int e = errno;

		host_fail(h, connect_fault(e), "connect to %s: %s", h->addr.name, strerror(e));
		return;
	}
	(void)f;
	h->state = FLEET_CONNECTING;
}

static int queue(struct fleet *f, struct fleet_host *h, uint16_t op, uint64_t tag)
{
	return fio_proto_encode(&h->priv->tx, f->p.test_version ? f->p.test_version :
				FIO_PROTO_VERSION, op, tag, NULL, 0);
}

/* Connected: hello, the status interval, the job text; RUN once both are accepted. */
static void host_connected(struct fleet *f, struct fleet_host *h)
{
	char interval[48];
	char *argv[] = { "fio", interval };
	int ret;

	snprintf(interval, sizeof(interval), "--status-interval=%ums", f->p.interval_ms);
	h->state = FLEET_SETUP;
	h->priv->last_rx_ns = fleet_now_ns();
	if (f->p.test_version)
		ret = fio_proto_encode(&h->priv->tx, f->p.test_version, FIO_OP_PROBE, 1,
				       (const uint8_t[136]){ 0 }, 136);
	else
		ret = fio_proto_probe(&h->priv->tx, 1, h->addr.host);
	ret = ret ? ret : fio_proto_jobline(&h->priv->tx, argv, 2);
	ret = ret ? ret : fio_proto_job(&h->priv->tx, f->p.job_text, strlen(f->p.job_text));
	if (ret)
		host_fail(h, FLEET_UNREACHABLE, "out of memory");
}

static void text_add(struct fleet_host *h, const char *t, size_t n)
{
	struct fleet_host_priv *hp = h->priv;

	/* keep the tail: the last lines are the reason */
	if (n >= sizeof(hp->text)) {
		t += n - (sizeof(hp->text) - 1);
		n = sizeof(hp->text) - 1;
	}
	if (hp->text_len + n >= sizeof(hp->text)) {
		size_t drop = hp->text_len + n - (sizeof(hp->text) - 1);

		memmove(hp->text, hp->text + drop, hp->text_len - drop);
		hp->text_len -= drop;
	}
	memcpy(hp->text + hp->text_len, t, n);
	hp->text_len += n;
	hp->text[hp->text_len] = '\0';
}

static void set_done(struct fleet_host *h)
{
	struct fleet_host_priv *hp = h->priv;

	/* a set cut short by STOP: the last complete one stands */
	hp->nr_batch = 0;
	hp->nr_gbatch = 0;
}

static void batch_complete(struct fleet *f, struct fleet_host *h)
{
	struct fleet_host_priv *hp = h->priv;
	struct thread_stat *t = h->ts;
	struct group_stat *g = h->gs;

	h->ts = hp->batch;
	h->nr_ts = hp->nr_batch;
	hp->batch = t;
	hp->nr_batch = 0;
	h->gs = hp->gbatch;
	h->nr_gs = hp->nr_gbatch;
	hp->gbatch = g;
	hp->nr_gbatch = 0;
	h->snapshots++;
	(void)f;
}

static int on_ts(struct fleet *f, struct fleet_host *h, const struct fio_msg *m, char *err,
		 size_t errlen)
{
	struct fleet_host_priv *hp = h->priv;
	size_t cap = hp->stat_outputs ? hp->stat_outputs : 1;
	struct thread_stat *ts;
	struct group_stat gs;

	if (hp->gs_phase) {
		hp->gs_phase = false;
		hp->nr_batch = 0;
		hp->nr_gbatch = 0;
	}
	if (!hp->batch) {
		hp->batch = calloc(cap, sizeof(*hp->batch));
		h->ts = calloc(cap, sizeof(*h->ts));
		hp->gbatch = calloc(cap, sizeof(*hp->gbatch));
		h->gs = calloc(cap, sizeof(*h->gs));
		if (!hp->batch || !h->ts || !hp->gbatch || !h->gs) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
	}
	if (hp->nr_batch >= cap) {
		snprintf(err, errlen, "more status messages in a set than the %zu the server "
			 "announced", cap);
		return -EBADMSG;
	}
	ts = &hp->batch[hp->nr_batch];
	memset(ts, 0, sizeof(*ts));
	if (fio_proto_read_ts(m, ts, &gs, err, errlen))
		return -EBADMSG;
	hp->nr_batch++;
	f->msgs++;
	if (hp->nr_batch == cap)
		batch_complete(f, h);
	return 0;
}

static int on_gs(struct fleet_host *h, const struct fio_msg *m, char *err, size_t errlen)
{
	struct fleet_host_priv *hp = h->priv;
	struct group_stat gs;
	size_t cap = hp->stat_outputs ? hp->stat_outputs : 1;

	if (fio_proto_read_gs(m, &gs, err, errlen))
		return -EBADMSG;
	/* GS follow their set's TS: they belong to the set just completed */
	if (h->gs && h->nr_gs < cap)
		h->gs[h->nr_gs++] = gs;
	hp->gs_phase = true;
	return 0;
}

static void on_msg(struct fleet *f, struct fleet_host *h, struct fio_msg *m)
{
	struct fleet_host_priv *hp = h->priv;
	char err[300] = "";
	int ret = 0;

	switch (m->opcode) {
	case FIO_OP_PROBE:
		ret = fio_proto_read_probe(m, &h->probe, err, sizeof(err));
		h->probed = !ret;
		break;
	case FIO_OP_START: {
		uint32_t jobs, outs;

		ret = fio_proto_read_start(m, &jobs, &outs, err, sizeof(err));
		if (ret)
			break;
		hp->jobs = jobs;
		hp->stat_outputs = outs;
		/* the first START answers the JOBLINE, the second the job text */
		if (++hp->starts == 2 && !hp->run_sent) {
			if (!jobs) {
				host_fail(h, FLEET_REJECTED, "the server found no job in the job text%s%s",
					  hp->text_len ? ": " : "", server_said(h));
				return;
			}
			ret = queue(f, h, FIO_OP_RUN, 0);
			hp->run_sent = true;
			h->state = f->stop_sent ? FLEET_STOPPING : FLEET_RUNNING;
			if (f->stop_sent && !ret) {
				ret = queue(f, h, FIO_OP_QUIT, 0);
				hp->quit_sent = true;
			}
		}
		break;
	}
	case FIO_OP_TEXT: {
		uint32_t level;
		const char *t;
		size_t n;

		ret = fio_proto_read_text(m, &level, &t, &n, err, sizeof(err));
		/* fio's log levels: 1 debug, 2 info, 3 error; the reasons are errors */
		if (!ret && level >= 3)
			text_add(h, t, n);
		break;
	}
	case FIO_OP_ETA:
		ret = fio_proto_read_eta(m, &h->eta, err, sizeof(err));
		/* fio sends INT_MAX when it cannot tell (a job bounded by size on a null engine) */
		if (!ret && h->eta.eta_s >= INT32_MAX)
			h->eta.eta_s = 0;
		if (m->tag == hp->eta_tag)
			hp->eta_tag = 0;
		break;
	case FIO_OP_TS:
		ret = on_ts(f, h, m, err, sizeof(err));
		break;
	case FIO_OP_GS:
		ret = on_gs(h, m, err, sizeof(err));
		break;
	case FIO_OP_STOP:
		ret = fio_proto_read_stop(m, &h->stop_error, &h->stop_signal, err, sizeof(err));
		hp->got_stop = true;
		set_done(h);
		h->final = h->snapshots > 0;
		break;
	case FIO_OP_QUIT:
		/* the server is done with us: after STOP that is the end, before RUN a refusal */
		if (!hp->run_sent) {
			host_fail(h, FLEET_REJECTED, "the server refused the job%s%s",
				  hp->text_len ? ": " : "", server_said(h));
		} else if (!hp->got_stop) {
			host_fail(h, FLEET_LOST, "the server quit before its results%s%s",
				  hp->text_len ? ": " : "", server_said(h));
		} else if (h->stop_error || h->stop_signal || !h->snapshots) {
			host_fail(h, h->snapshots ? FLEET_JOB_ERROR : FLEET_REJECTED,
				  "the jobs ended with error %d%s%s%s", h->stop_error,
				  h->stop_signal ? " (signal)" : "", hp->text_len ? ": " : "",
				  server_said(h));
		} else {
			h->state = FLEET_DONE;
			if (f->stop_sent)
				h->fault = FLEET_STOPPED;
			host_close(h);
		}
		return;
	default:
		break;	/* SERVER_START, ADD_JOB, JOB_OPT, DU, IOLOG: not needed */
	}
	if (ret)
		host_fail(h, FLEET_LOST, "bad message from the server: %s", err);
}

/* A stream that does not parse: another version, or before any probe reply not fio at all. */
static void stream_fail(struct fleet_host *h, int ret, const char *err)
{
	if (ret == -EPROTONOSUPPORT)
		host_fail(h, FLEET_VERSION, "%s", err);
	else if (!h->probed)
		host_fail(h, FLEET_REFUSED, "what answers at %s is not a fio server: %s",
			  h->addr.name, err);
	else
		host_fail(h, FLEET_LOST, "%s", err);
}

static void host_read(struct fleet *f, struct fleet_host *h)
{
	struct fleet_host_priv *hp = h->priv;
	struct fio_msg m;
	char err[300];
	int ret;

	for (;;) {
		uint8_t buf[65536];
		ssize_t n = recv(hp->fd, buf, sizeof(buf), 0);

		if (n > 0) {
			if (fio_buf_append(&hp->rx.in, buf, (size_t)n)) {
				host_fail(h, FLEET_LOST, "out of memory");
				return;
			}
			hp->last_rx_ns = fleet_now_ns();
			if ((size_t)n < sizeof(buf))
				break;
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			break;
		/* EOF or a reset: first take what came before it */
		while ((ret = fio_rx_next(&hp->rx, &m, &h->version_seen, err, sizeof(err))) == 1) {
			on_msg(f, h, &m);
			fio_msg_release(&m);
			if (h->state == FLEET_FAILED || h->state == FLEET_DONE)
				return;
		}
		if (ret < 0) {
			stream_fail(h, ret, err);
			return;
		}
		if (!h->probed)
			host_fail(h, FLEET_VERSION, "the server closed the connection without "
				  "answering the probe%s (a fio server of another protocol version "
				  "does so; raidbench speaks %u, fio 3.33)",
				  n < 0 ? "" : "", FIO_PROTO_VERSION);
		else
			host_fail(h, FLEET_LOST, "the connection %s %s%s%s%s%s",
				  n < 0 ? "failed" : "closed",
				  hp->run_sent ? "mid-run" : "during setup", n < 0 ? ": " : "",
				  n < 0 ? strerror(errno) : "",
				  hp->text_len ? "; the server said: " : "", server_said(h));
		return;
	}
	while ((ret = fio_rx_next(&hp->rx, &m, &h->version_seen, err, sizeof(err))) == 1) {
		on_msg(f, h, &m);
		fio_msg_release(&m);
		if (h->state == FLEET_FAILED || h->state == FLEET_DONE)
			return;
	}
	if (ret < 0)
		stream_fail(h, ret, err);
}

static void host_write(struct fleet_host *h)
{
	struct fleet_host_priv *hp = h->priv;

	while (hp->tx.off < hp->tx.len) {
		ssize_t n = send(hp->fd, hp->tx.p + hp->tx.off, hp->tx.len - hp->tx.off,
				 MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				break;
			host_fail(h, h->probed ? FLEET_LOST : FLEET_UNREACHABLE, "send: %s",
				  strerror(errno));
			return;
		}
		hp->tx.off += (size_t)n;
	}
	fio_buf_compact(&hp->tx);
}

/* ---- live records ----------------------------------------------------------------- */

static void emit(struct fleet *f, const struct live_rec *r)
{
	struct fleet_priv *fp = f->priv;

	if (fp->nr_recs == fp->cap_recs) {
		size_t cap = fp->cap_recs ? fp->cap_recs * 2 : 256;
		struct live_rec *n = realloc(fp->recs, cap * sizeof(*n));

		if (!n)
			return;	/* a live record lost; the results are not */
		fp->recs = n;
		fp->cap_recs = cap;
	}
	fp->recs[fp->nr_recs] = *r;
	fp->recs[fp->nr_recs++].seq = fp->seq++;
}

static uint32_t clamp32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

static void io_rec(struct fleet *f, unsigned job, int d, uint64_t t_ns, uint64_t ios,
		   uint64_t bytes, double lat_sum, const uint64_t *hist, uint64_t tot_ios,
		   uint64_t tot_bytes)
{
	static const double pl[3] = { 50.0, 99.0, 99.9 };
	struct live_rec r = { .type = LIVE_IO, .ddir = (uint8_t)d, .job = (uint16_t)job,
			      .t_ns = t_ns };
	uint64_t pv[3] = { 0 };
	unsigned i;

	r.u.io.ios = clamp32(ios);
	r.u.io.bytes = bytes;
	r.u.io.tot_ios = tot_ios;
	r.u.io.tot_bytes = tot_bytes;
	if (hist && hist_percentiles(hist, pl, 3, pv)) {
		r.u.io.p50_ns = clamp32(pv[0]);
		r.u.io.p99_ns = clamp32(pv[1]);
		r.u.io.p999_ns = clamp32(pv[2]);
		for (i = HIST_NR; i-- > 0;)
			if (hist[i]) {
				r.u.io.max_ns = clamp32(hist_value(i));
				break;
			}
	}
	r.u.io.mean_ns = ios ? clamp32((uint64_t)(lat_sum / (double)ios)) : 0;
	emit(f, &r);
}

static void status_rec(struct fleet *f, unsigned job, unsigned phase, uint64_t t_ns,
		       uint32_t running, uint64_t errors, uint64_t eta_s, float pct,
		       uint64_t interval_ns)
{
	struct live_rec r = { .type = LIVE_STATUS, .ddir = (uint8_t)phase, .job = (uint16_t)job,
			      .t_ns = t_ns };

	r.u.st.running = running;
	r.u.st.errors = errors;
	r.u.st.eta_s = eta_s;
	r.u.st.percent = pct;
	r.u.st.interval_ns = interval_ns;
	r.u.st.drops = ring_dropped(&f->ring);
	emit(f, &r);
}

static bool host_live(const struct fleet_host *h)
{
	return h->state == FLEET_RUNNING || h->state == FLEET_STOPPING;
}

static float eta_percent(const struct fio_eta *e)
{
	uint64_t all = e->elapsed_s + e->eta_s;

	return all ? (float)(100.0 * (double)e->elapsed_s / (double)all) : 0.0f;
}

/*
 * One tick: for every host, the difference between its newest status set and
 * the one at the previous tick, per job row, per host and for all hosts.
 */
static void tick_records(struct fleet *f, uint64_t now, uint64_t interval_ns)
{
	struct fleet_priv *fp = f->priv;
	uint64_t t = now - f->t0_ns, all_ios[3] = { 0 }, all_bytes[3] = { 0 };
	uint64_t all_tot_ios[3] = { 0 }, all_tot_bytes[3] = { 0 }, all_err = 0, eta = 0;
	double all_lat[3] = { 0 };
	uint32_t running = 0;
	float pct = 100.0f;
	bool any_live = false;
	size_t h, s;
	int d;

	memset(fp->hist_all, 0, DDIR_RWDIR_CNT * HIST_NR * sizeof(uint64_t));
	for (h = 0; h < f->nr_hosts; h++) {
		struct fleet_host *fh = &f->hosts[h];
		struct fleet_host_priv *hp = fh->priv;
		uint64_t h_ios[3] = { 0 }, h_bytes[3] = { 0 }, h_tot_ios[3] = { 0 };
		uint64_t h_tot_bytes[3] = { 0 }, h_err = 0;
		double h_lat[3] = { 0 };
		double secs = (double)interval_ns / 1e9;
		unsigned phase;

		memset(fp->hist_tmp, 0, DDIR_RWDIR_CNT * HIST_NR * sizeof(uint64_t));
		for (s = 0; s < hp->nr_slots && s < fh->nr_ts; s++) {
			const struct thread_stat *ts = &fh->ts[s];
			struct slot_prev *pv = &hp->prev[s];
			uint64_t hd[HIST_NR];

			h_err += ts->total_err;
			for (d = 0; d < DDIR_RWDIR_CNT; d++) {
				const struct ddir_stat *ds = &ts->dir[d];
				uint64_t ios = ds->clat.n >= pv->ios[d] ? ds->clat.n - pv->ios[d] : 0;
				uint64_t bytes = ds->io_bytes >= pv->bytes[d] ?
						 ds->io_bytes - pv->bytes[d] : 0;
				double lsum = ds->clat.mean * (double)ds->clat.n;
				uint64_t *ph = pv->hist + (size_t)d * HIST_NR;
				uint64_t *th = fp->hist_tmp + (size_t)d * HIST_NR;
				unsigned i;

				for (i = 0; i < HIST_NR; i++) {
					hd[i] = ds->clat_hist[i] >= ph[i] ? ds->clat_hist[i] - ph[i] : 0;
					th[i] += hd[i];
					ph[i] = ds->clat_hist[i];
				}
				if (d != DDIR_TRIM || ds->io_bytes)
					io_rec(f, (unsigned)(fh->slot + 1 + s), d, t, ios, bytes,
					       lsum - pv->lat_sum[d], hd, ds->clat.n, ds->io_bytes);
				h_ios[d] += ios;
				h_bytes[d] += bytes;
				h_lat[d] += lsum - pv->lat_sum[d];
				h_tot_ios[d] += ds->clat.n;
				h_tot_bytes[d] += ds->io_bytes;
				pv->ios[d] = ds->clat.n;
				pv->bytes[d] = ds->io_bytes;
				pv->lat_sum[d] = lsum;
			}
			status_rec(f, (unsigned)(fh->slot + 1 + s),
				   fh->state == FLEET_RUNNING ? PHASE_RUN : PHASE_DONE, t,
				   host_live(fh), ts->total_err, 0, 0, interval_ns);
		}
		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			uint64_t *th = fp->hist_tmp + (size_t)d * HIST_NR;
			uint64_t *ah = fp->hist_all + (size_t)d * HIST_NR;
			unsigned i;

			if (d != DDIR_TRIM || h_tot_bytes[d])
				io_rec(f, (unsigned)fh->slot, d, t, h_ios[d], h_bytes[d], h_lat[d], th,
				       h_tot_ios[d], h_tot_bytes[d]);
			for (i = 0; i < HIST_NR; i++)
				ah[i] += th[i];
			all_ios[d] += h_ios[d];
			all_bytes[d] += h_bytes[d];
			all_lat[d] += h_lat[d];
			all_tot_ios[d] += h_tot_ios[d];
			all_tot_bytes[d] += h_tot_bytes[d];
			fh->iops[d] = secs > 0 ? (double)h_ios[d] / secs : 0;
			fh->bw[d] = secs > 0 ? (double)h_bytes[d] / secs : 0;
		}
		/* the Hosts view's p99 comes from this tick's summed histogram */
		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			static const double p99 = 99.0;
			uint64_t v = 0;

			hist_percentiles(fp->hist_tmp + (size_t)d * HIST_NR, &p99, 1, &v);
			fh->p99_ns[d] = clamp32(v);
		}
		fh->errors = h_err;
		phase = fh->state == FLEET_RUNNING ? PHASE_RUN : fh->state < FLEET_RUNNING ?
			PHASE_SETUP : PHASE_DONE;
		status_rec(f, (unsigned)fh->slot, phase, t, host_live(fh) ? fh->eta.nr_running : 0,
			   h_err + (fh->state == FLEET_FAILED), fh->eta.eta_s, eta_percent(&fh->eta),
			   interval_ns);
		all_err += h_err + (fh->state == FLEET_FAILED);
		if (host_live(fh) || fh->state < FLEET_RUNNING) {
			any_live = true;
			running += fh->eta.nr_running;
			if (fh->eta.eta_s > eta)
				eta = fh->eta.eta_s;
			if (eta_percent(&fh->eta) < pct)
				pct = eta_percent(&fh->eta);
		}
	}
	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		if (d != DDIR_TRIM || all_tot_bytes[d])
			io_rec(f, LIVE_TOTAL, d, t, all_ios[d], all_bytes[d], all_lat[d],
			       fp->hist_all + (size_t)d * HIST_NR, all_tot_ios[d], all_tot_bytes[d]);
	status_rec(f, LIVE_TOTAL, any_live ? PHASE_RUN : PHASE_DONE, t, running, all_err, eta,
		   any_live ? pct : 100.0f, interval_ns);
	emit(f, &(struct live_rec){ .type = LIVE_TICK_END, .job = LIVE_TOTAL, .t_ns = t });
	ring_push_batch(&f->ring, fp->recs, (uint32_t)fp->nr_recs);
	fp->nr_recs = 0;
}

/* ---- the loop ------------------------------------------------------------------------ */

int fleet_begin(struct fleet *f, const struct fleet_addr *addrs, size_t nr,
		const struct job_list *jl, const struct fleet_params *p, char *err,
		size_t errlen)
{
	size_t i;
	int ret;

	memset(f, 0, sizeof(*f));
	f->p = *p;
	if (!f->p.interval_ms)
		f->p.interval_ms = 100;
	if (!f->p.connect_timeout_ms)
		f->p.connect_timeout_ms = 5000;
	if (!f->p.reply_timeout_ms)
		f->p.reply_timeout_ms = 10000;
	f->priv = calloc(1, sizeof(*f->priv));
	f->hosts = calloc(nr ? nr : 1, sizeof(*f->hosts));
	if (!f->priv || !f->hosts)
		goto nomem;
	f->nr_hosts = nr;
	f->priv->hist_tmp = calloc(DDIR_RWDIR_CNT * HIST_NR, sizeof(uint64_t));
	f->priv->hist_all = calloc(DDIR_RWDIR_CNT * HIST_NR, sizeof(uint64_t));
	if (!f->priv->hist_tmp || !f->priv->hist_all)
		goto nomem;
	for (i = 0; i < nr; i++) {
		f->hosts[i].addr = addrs[i];
		f->hosts[i].priv = calloc(1, sizeof(struct fleet_host_priv));
		if (!f->hosts[i].priv)
			goto nomem;
		f->hosts[i].priv->fd = -1;
	}
	ret = build_layout(f, jl);
	if (ret) {
		snprintf(err, errlen, ret == -E2BIG ? "too many hosts times jobs for the live view "
			 "(%zu hosts)" : "out of memory", nr);
		return ret;
	}
	ret = ring_init(&f->ring, FLEET_RING_CAP);
	if (ret)
		goto nomem;
	f->t0_ns = f->last_tick_ns = fleet_now_ns();
	for (i = 0; i < nr; i++)
		host_connect(f, &f->hosts[i]);
	return 0;
nomem:
	snprintf(err, errlen, "out of memory");
	return -ENOMEM;
}

static void check_timeouts(struct fleet *f, uint64_t now)
{
	size_t i;

	for (i = 0; i < f->nr_hosts; i++) {
		struct fleet_host *h = &f->hosts[i];
		struct fleet_host_priv *hp = h->priv;
		uint64_t waited;

		if (h->state == FLEET_CONNECTING) {
			waited = now - hp->started_ns;
			if (waited > (uint64_t)f->p.connect_timeout_ms * 1000000ull)
				host_fail(h, FLEET_UNREACHABLE, "connect to %s timed out after %u ms",
					  h->addr.name, f->p.connect_timeout_ms);
		} else if (h->state == FLEET_SETUP || host_live(h)) {
			waited = now - hp->last_rx_ns;
			if (waited > (uint64_t)f->p.reply_timeout_ms * 1000000ull)
				host_fail(h, FLEET_LOST, "no word from the server for %u ms%s",
					  f->p.reply_timeout_ms,
					  h->snapshots ? "; its last status is kept" : "");
		}
	}
}

bool fleet_step(struct fleet *f, unsigned timeout_ms)
{
	struct pollfd *pfd = calloc(f->nr_hosts ? f->nr_hosts : 1, sizeof(*pfd));
	uint64_t now = fleet_now_ns(), tick_ns = (uint64_t)f->p.interval_ms * 1000000ull;
	uint64_t next = f->last_tick_ns + tick_ns;
	bool going = false;
	size_t i;
	int wait;

	if (f->p.interrupt && *f->p.interrupt && !f->stop_sent)
		fleet_stop(f);
	if (!pfd)
		return true;
	for (i = 0; i < f->nr_hosts; i++) {
		struct fleet_host *h = &f->hosts[i];

		pfd[i].fd = h->priv->fd;
		pfd[i].events = POLLIN;
		if (h->state == FLEET_CONNECTING || h->priv->tx.off < h->priv->tx.len)
			pfd[i].events |= POLLOUT;
		if (h->state == FLEET_DONE || h->state == FLEET_FAILED)
			pfd[i].fd = -1;
	}
	wait = next > now ? (int)((next - now) / 1000000ull) : 0;
	if ((unsigned)wait > timeout_ms)
		wait = (int)timeout_ms;
	if (poll(pfd, f->nr_hosts, wait) > 0) {
		for (i = 0; i < f->nr_hosts; i++) {
			struct fleet_host *h = &f->hosts[i];

			if (pfd[i].fd < 0 || !pfd[i].revents)
				continue;
			if (h->state == FLEET_CONNECTING) {
				int e = 0;
				socklen_t len = sizeof(e);

				getsockopt(h->priv->fd, SOL_SOCKET, SO_ERROR, &e, &len);
				if (e) {
					host_fail(h, connect_fault(e), "connect to %s: %s", h->addr.name,
						  strerror(e));
					continue;
				}
				host_connected(f, h);
			}
			if (pfd[i].revents & (POLLIN | POLLHUP | POLLERR))
				host_read(f, h);
			if (h->state != FLEET_FAILED && h->state != FLEET_DONE &&
			    h->priv->tx.off < h->priv->tx.len)
				host_write(h);
		}
	}
	free(pfd);
	now = fleet_now_ns();
	check_timeouts(f, now);
	if (now >= next) {
		for (i = 0; i < f->nr_hosts; i++) {
			struct fleet_host *h = &f->hosts[i];

			/* one ETA request at a time: a slow host is not flooded */
			if (h->state == FLEET_RUNNING && !h->priv->eta_tag) {
				h->priv->eta_tag = 2 + f->ticks;
				if (queue(f, h, FIO_OP_SEND_ETA, h->priv->eta_tag))
					host_fail(h, FLEET_LOST, "out of memory");
				else
					host_write(h);
			}
		}
		tick_records(f, now, now - f->last_tick_ns);
		f->last_tick_ns = now;
		f->ticks++;
	}
	for (i = 0; i < f->nr_hosts; i++)
		if (f->hosts[i].state != FLEET_DONE && f->hosts[i].state != FLEET_FAILED)
			going = true;
	if (!going && !f->ended) {
		/* a closing tick: the last results that came in since, then the end */
		now = fleet_now_ns();
		tick_records(f, now, now - f->last_tick_ns);
		f->last_tick_ns = now;
		f->ended = true;
		emit(f, &(struct live_rec){ .type = LIVE_END, .job = LIVE_TOTAL,
					    .t_ns = now - f->t0_ns });
		ring_push_batch(&f->ring, f->priv->recs, (uint32_t)f->priv->nr_recs);
		f->priv->nr_recs = 0;
	}
	return going;
}

void fleet_stop(struct fleet *f)
{
	size_t i;

	f->stop_sent = true;
	for (i = 0; i < f->nr_hosts; i++) {
		struct fleet_host *h = &f->hosts[i];

		if (h->state == FLEET_CONNECTING) {
			host_fail(h, FLEET_STOPPED, "stopped before the connection was made");
		} else if (h->state == FLEET_RUNNING && !h->priv->quit_sent) {
			h->priv->quit_sent = true;
			h->state = FLEET_STOPPING;
			if (queue(f, h, FIO_OP_QUIT, 0))
				host_fail(h, FLEET_LOST, "out of memory");
			else
				host_write(h);
		}
		/* a host in setup gets its QUIT right after RUN (see START) */
	}
}

void fleet_release(struct fleet *f)
{
	size_t i, s;

	for (i = 0; i < f->nr_hosts; i++) {
		struct fleet_host *h = &f->hosts[i];
		struct fleet_host_priv *hp = h->priv;

		if (!hp)
			continue;
		host_close(h);
		fio_rx_release(&hp->rx);
		fio_buf_release(&hp->tx);
		free(hp->batch);
		free(hp->gbatch);
		for (s = 0; hp->prev && s < hp->nr_slots; s++)
			free(hp->prev[s].hist);
		free(hp->prev);
		free(hp);
		free(h->ts);
		free(h->gs);
	}
	free(f->hosts);
	if (f->priv) {
		free(f->priv->names);
		free(f->priv->hosts);
		free(f->priv->groups);
		free(f->priv->hist_tmp);
		free(f->priv->hist_all);
		free(f->priv->recs);
		free(f->priv);
	}
	if (f->ring.slots)
		ring_release(&f->ring);
	memset(f, 0, sizeof(*f));
}
