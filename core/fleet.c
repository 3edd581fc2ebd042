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

#include "fleet_int.h"
#include "worker.h"

#define FLEET_RING_CAP 8192

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

static void host_connect(struct fleet_host *h)
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
}

/* The set being gathered is whole: it becomes the host's newest (buffers swap, nothing copies). */
static void batch_complete(struct fleet_host *h)
{
	struct fleet_host_priv *hp = h->priv;
	struct thread_stat *t = h->ts;

	h->ts = hp->batch;
	h->nr_ts = hp->nr_batch;
	hp->batch = t;
	hp->nr_batch = 0;
	h->nr_gs = 0;		/* the set's GS messages follow its TS */
	h->snapshots++;
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
	}
	if (!hp->batch) {
		hp->batch = calloc(cap, sizeof(*hp->batch));
		h->ts = calloc(cap, sizeof(*h->ts));
		h->gs = calloc(cap, sizeof(*h->gs));
		if (!hp->batch || !h->ts || !h->gs) {
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
		batch_complete(h);
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
		/* fio sends INT_MAX when it cannot tell (a job bounded by size on an engine that moves no data) */
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
	ret = fleet_layout_build(f, jl);
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
		host_connect(&f->hosts[i]);
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
		} else if (h->state == FLEET_SETUP || fleet_host_live(h)) {
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
		fleet_tick_records(f, now, now - f->last_tick_ns);
		f->last_tick_ns = now;
		f->ticks++;
	}
	for (i = 0; i < f->nr_hosts; i++)
		if (f->hosts[i].state != FLEET_DONE && f->hosts[i].state != FLEET_FAILED)
			going = true;
	if (!going && !f->ended) {
		/* a closing tick: the last results that came in since, then the end */
		now = fleet_now_ns();
		fleet_tick_records(f, now, now - f->last_tick_ns);
		f->last_tick_ns = now;
		f->ended = true;
		fleet_emit(f, &(struct live_rec){ .type = LIVE_END, .job = LIVE_TOTAL,
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
	ring_release(&f->ring);	/* safe on a ring never set up */
	memset(f, 0, sizeof(*f));
}
