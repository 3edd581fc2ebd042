/*
 * engine_net.c - ioengine=net: fio's network engine. Reads receive and
 * writes send over a TCP, UDP (IPv4 or IPv6) or unix socket; listen= makes
 * a TCP job the side that waits for the connection (a UDP or unix reader
 * always is); hostname= names the peer, a multicast group (with ttl= and
 * interface=) or the unix socket's path; port= is port + the clone's number.
 * It speaks fio's wire conventions so either end may be fio: a UDP sender
 * opens with fio's "link open" datagram, every sender ends with its "link
 * close" message, and UDP blocks end with fio's sequence trailer.
 *
 * One I/O is one whole block (a stream read gathers bs bytes; fio counts
 * each partial receive instead); a receiver ends when its size= is done or
 * when the sender closes. The connection is made as the job starts (after
 * startdelay), outside its statistics, as fio resets them after accept.
 * No file is created: a unix socket's path is removed only if it is a
 * socket, and again at the end.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include "clock.h"
#include "engine.h"
#include "job.h"

/* fio's wire constants (engines/net.c): the link messages and the UDP trailer */
#define LINK_MAGIC 0x6c696e6bu
#define LINK_CLOSE 0x89u
#define LINK_OPEN 0x98u
#define UDP_SEQ_MAGIC 0x657375716e556563ull
#define WAIT_MS 100		/* a blocked wait looks at the stop flag this often */

struct net_ctx {
	int fd;			/* the connection (or the UDP socket) */
	int listenfd;		/* TCP and unix listeners, -1 otherwise */
	enum net_proto proto;
	bool listener, pingpong, writer, multicast;
	bool ended;		/* the peer closed: nothing more comes */
	struct sockaddr_storage peer;	/* UDP: where to send (a receiver: who sent last) */
	socklen_t peer_len;
	uint64_t send_seq;
	uint64_t recv_seq;	/* the sequence number the next datagram should carry */
	char unix_path[sizeof(((struct sockaddr_un *)0)->sun_path)];	/* to remove at the end */
	unsigned clone;
	const _Atomic bool *stop;
	uint64_t deadline_ns;	/* the job's runtime= end, 0 for none: waits end there too */
	char desc[160];		/* "tcp localhost:8888", for messages */
};

static bool is_udp(enum net_proto p)
{
	return p == NET_UDP || p == NET_UDPV6;
}

static bool is_tcp(enum net_proto p)
{
	return p == NET_TCP || p == NET_TCPV6;
}

static bool is_v6(enum net_proto p)
{
	return p == NET_TCPV6 || p == NET_UDPV6;
}

static const char *proto_name(enum net_proto p)
{
	static const char *const names[] = { "tcp", "tcpv6", "udp", "udpv6", "unix" };

	return names[p];
}

static bool is_multicast(const char *host)
{
	struct in_addr a;

	return host && inet_pton(AF_INET, host, &a) == 1 && IN_MULTICAST(ntohl(a.s_addr));
}

static bool stopped(const struct net_ctx *n)
{
	return (n->stop && atomic_load_explicit(n->stop, memory_order_relaxed)) ||
	       (n->deadline_ns && rb_now_ns() >= n->deadline_ns);
}

/* fio's own refusals (its init), said at parse time here, naming the option. */
static int net_check(const struct job_spec *job, char *why, size_t len)
{
	enum net_proto p = (enum net_proto)job->net_proto;

	if (job->rw & RW_RANDOM)
		snprintf(why, len, "ioengine=net: rw= cannot be random (a socket has no offsets)");
	else if (job->rw & RW_TRIM)
		snprintf(why, len, "ioengine=net: rw= cannot trim (a socket only reads and writes)");
	else if (p == NET_UNIX && job->net_port)
		snprintf(why, len, "ioengine=net: option 'port' does not apply to protocol=unix "
			 "(hostname= is the socket's path)");
	else if (p != NET_UNIX && !job->net_port)
		snprintf(why, len, "ioengine=net: protocol=%s needs port=", proto_name(p));
	else if (!is_tcp(p) && job->net_listen)
		snprintf(why, len, "ioengine=net: option 'listen' is for protocol=tcp only (a %s "
			 "reader always listens)", proto_name(p));
	else if (!is_tcp(p) && (job->rw & RW_READ) && (job->rw & RW_WRITE))
		snprintf(why, len, "ioengine=net: a protocol=%s job reads or writes, not both",
			 proto_name(p));
	else if (p == NET_UNIX && !job->net_host)
		snprintf(why, len, "ioengine=net: protocol=unix needs hostname= (the socket's path)");
	else if (!job->net_host && !(is_tcp(p) && job->net_listen) &&
		 !(is_udp(p) && !(job->rw & RW_WRITE)))
		snprintf(why, len, "ioengine=net: a sender needs hostname= (the receiver%s)",
			 is_tcp(p) ? "; or give the receiving job 'listen'" : "");
	else if (job->net_host && job->net_listen && is_tcp(p))
		snprintf(why, len, "ioengine=net: option 'hostname' with 'listen': a TCP listener "
			 "takes connections on every address (only a UDP reader joins a multicast "
			 "group)");
	else if (job->net_host && is_udp(p) && !(job->rw & RW_WRITE) &&
		 !is_multicast(job->net_host))
		snprintf(why, len, "ioengine=net: a UDP reader's hostname= must be a multicast "
			 "group (224.0.0.0 to 239.255.255.255), not '%s'", job->net_host);
	else if (is_v6(p) && is_multicast(job->net_host))
		snprintf(why, len, "ioengine=net: multicast is IPv4 only (protocol=%s)",
			 proto_name(p));
	else if (p == NET_UNIX && strlen(job->net_host) >= sizeof(((struct net_ctx *)0)->unix_path))
		snprintf(why, len, "ioengine=net: the unix socket path '%s' is too long",
			 job->net_host);
	else if (job->verify)
		snprintf(why, len, "ioengine=net: verify= is not supported over a socket");
	else if (!job->size && !job->runtime_us)
		snprintf(why, len, "ioengine=net needs size= or runtime= (a stream has no size of "
			 "its own)");
	else
		return 0;
	return -EINVAL;
}

static void net_describe(const struct job_spec *job, char *buf, size_t len)
{
	enum net_proto p = (enum net_proto)job->net_proto;
	bool writer = job->rw & RW_WRITE;
	bool listener = is_tcp(p) ? job->net_listen : !writer;

	if (p == NET_UNIX)
		snprintf(buf, len, "%s over the unix socket %s (%s)", writer ? "sends" : "receives",
			 job->net_host, listener ? "listening" : "connecting");
	else if (listener)
		snprintf(buf, len, "%s on %s port %u%s%s", writer ? "sends" : "receives",
			 proto_name(p), job->net_port, job->net_host ? ", multicast group " : "",
			 job->net_host ? job->net_host : "");
	else
		snprintf(buf, len, "%s to %s %s port %u", writer ? "sends" : "receives",
			 proto_name(p), job->net_host, job->net_port);
}

static int net_init_tuned(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
			  unsigned nr_units, const struct engine_tuning *tune, char *err,
			  size_t errlen)
{
	struct net_ctx *n = calloc(1, sizeof(*n));

	if (!n) {
		snprintf(err, errlen, "net: cannot allocate a context");
		return -ENOMEM;
	}
	n->fd = -1;
	n->listenfd = -1;
	n->clone = tune->clone;
	n->stop = tune->stop;
	*ctx = (struct engine_ctx *)n;
	return 0;
}

static int net_init(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
		    unsigned nr_units, char *err, size_t errlen)
{
	struct engine_tuning none = { .clone = 0 };

	return net_init_tuned(ctx, depth, units, nr_units, &none, err, errlen);
}

static int fail(char *err, size_t errlen, int e, const char *fmt, const char *what,
		const char *desc)
{
	snprintf(err, errlen, fmt, what, desc, strerror(e));
	return -e;
}

/* Waits for fd to be ready for events, WAIT_MS at a time; 0, -EINTR when stopped. */
static int wait_fd(const struct net_ctx *n, int fd, short events)
{
	struct pollfd pfd = { .fd = fd, .events = events };

	for (;;) {
		int r = poll(&pfd, 1, WAIT_MS);

		if (r > 0)
			return 0;
		if (r < 0 && errno != EINTR)
			return -errno;
		if (stopped(n))
			return -EINTR;
	}
}

static int set_options(struct net_ctx *n, int fd, const struct job_spec *job, char *err,
		       size_t errlen)
{
	int v;

	if (job->net_window) {
		v = (int)job->net_window;
		/* fio: the receiving side sizes its receive buffer, the sender its send buffer */
		if (((n->listener || n->pingpong) &&
		     setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v)) < 0) ||
		    ((!n->listener || n->pingpong) &&
		     setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v)) < 0))
			return fail(err, errlen, errno, "net: %s: window_size on %s: %s",
				    "setsockopt", n->desc);
	}
	if (job->net_mss && is_tcp(n->proto)) {
		v = (int)job->net_mss;
		if (setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &v, sizeof(v)) < 0)
			return fail(err, errlen, errno, "net: %s: mss on %s: %s", "setsockopt",
				    n->desc);
	}
	return 0;
}

static int set_nodelay(struct net_ctx *n, int fd, const struct job_spec *job, char *err,
		       size_t errlen)
{
	int one = 1;

	if (job->net_nodelay && is_tcp(n->proto) &&
	    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) < 0)
		return fail(err, errlen, errno, "net: %s: nodelay on %s: %s", "setsockopt",
			    n->desc);
	return 0;
}

/* hostname:port into n->peer (an address or a name to resolve). */
static int resolve(struct net_ctx *n, const char *host, unsigned port, char *err, size_t errlen)
{
	struct addrinfo hints = { 0 }, *res = NULL;
	char ps[16];
	int r;

	hints.ai_family = is_v6(n->proto) ? AF_INET6 : AF_INET;
	hints.ai_socktype = is_tcp(n->proto) ? SOCK_STREAM : SOCK_DGRAM;
	snprintf(ps, sizeof(ps), "%u", port);
	r = getaddrinfo(host, ps, &hints, &res);
	if (r) {
		snprintf(err, errlen, "net: hostname '%s' (%s): %s", host, proto_name(n->proto),
			 r == EAI_SYSTEM ? strerror(errno) : gai_strerror(r));
		return -EINVAL;
	}
	memcpy(&n->peer, res->ai_addr, res->ai_addrlen);
	n->peer_len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

static void put32le(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static uint32_t get32le(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* fio's close message: magic and command, little-endian. */
static bool is_close_msg(const void *buf, size_t len)
{
	const unsigned char *p = buf;

	return len == 8 && get32le(p) == LINK_MAGIC && get32le(p + 4) == LINK_CLOSE;
}

/* A UDP receiver waits for fio's open datagram (magic and command, big-endian). */
static int udp_wait_open(struct net_ctx *n, char *err, size_t errlen)
{
	uint32_t msg[2];

	for (;;) {
		ssize_t r;

		if (wait_fd(n, n->fd, POLLIN)) {
			snprintf(err, errlen, "net: stopped while waiting for a sender on %s",
				 n->desc);
			return -EINTR;
		}
		n->peer_len = sizeof(n->peer);
		r = recvfrom(n->fd, msg, sizeof(msg), 0, (struct sockaddr *)&n->peer, &n->peer_len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return fail(err, errlen, errno, "net: %s on %s: %s", "recvfrom", n->desc);
		if (r == sizeof(msg) && ntohl(msg[0]) == LINK_MAGIC && ntohl(msg[1]) == LINK_OPEN)
			return 0;
		/* data from a sender that started first: fio refuses, naming the magic */
		snprintf(err, errlen, "net: %s: the first datagram is not a sender's open message "
			 "(was the sender started before this receiver?)", n->desc);
		return -EPROTO;
	}
}

static int listen_inet(struct net_ctx *n, const struct job_spec *job, unsigned port, char *err,
		       size_t errlen)
{
	struct sockaddr_storage ss = { 0 };
	socklen_t sl;
	int fd, one = 1, ret;

	fd = socket(is_v6(n->proto) ? AF_INET6 : AF_INET,
		    (is_tcp(n->proto) ? SOCK_STREAM : SOCK_DGRAM) | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return fail(err, errlen, errno, "net: %s for %s: %s", "socket", n->desc);
	if (is_tcp(n->proto))
		n->listenfd = fd;
	else
		n->fd = fd;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/* UDP readers of one group share the port (fio's multicast example has two) */
	if (is_udp(n->proto))
		setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one));
	ret = set_options(n, fd, job, err, errlen);
	if (ret)
		return ret;
	if (is_v6(n->proto)) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;

		a->sin6_family = AF_INET6;
		a->sin6_addr = in6addr_any;
		a->sin6_port = htons((uint16_t)port);
		sl = sizeof(*a);
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)&ss;

		a->sin_family = AF_INET;
		a->sin_addr.s_addr = htonl(INADDR_ANY);
		a->sin_port = htons((uint16_t)port);
		sl = sizeof(*a);
		if (n->multicast) {
			struct ip_mreq mr = { 0 };

			inet_pton(AF_INET, job->net_host, &mr.imr_multiaddr);
			a->sin_addr = mr.imr_multiaddr;
			mr.imr_interface.s_addr = htonl(INADDR_ANY);
			if (job->net_interface &&
			    inet_pton(AF_INET, job->net_interface, &mr.imr_interface) != 1) {
				snprintf(err, errlen, "net: option 'interface': '%s' is not an IPv4 "
					 "address", job->net_interface);
				return -EINVAL;
			}
			if (setsockopt(fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &mr, sizeof(mr)) < 0)
				return fail(err, errlen, errno, "net: %s (joining the group) on %s: %s",
					    "IP_ADD_MEMBERSHIP", n->desc);
		}
	}
	if (bind(fd, (struct sockaddr *)&ss, sl) < 0)
		return fail(err, errlen, errno, "net: %s %s: %s", "cannot bind", n->desc);
	if (is_tcp(n->proto) && listen(fd, 10) < 0)
		return fail(err, errlen, errno, "net: %s on %s: %s", "listen", n->desc);
	return 0;
}

static int listen_unix(struct net_ctx *n, const char *path, char *err, size_t errlen)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct stat st;
	int fd;

	/* fio unlinks whatever is there; only a stale socket is ours to remove */
	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			snprintf(err, errlen, "net: hostname '%s' exists and is not a socket "
				 "(raidbench removes only a stale socket there)", path);
			return -EEXIST;
		}
		unlink(path);
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return fail(err, errlen, errno, "net: %s for %s: %s", "socket", n->desc);
	n->listenfd = fd;
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0)
		return fail(err, errlen, errno, "net: %s %s: %s", "cannot bind", n->desc);
	snprintf(n->unix_path, sizeof(n->unix_path), "%s", path);
	if (listen(fd, 10) < 0)
		return fail(err, errlen, errno, "net: %s on %s: %s", "listen", n->desc);
	return 0;
}

static int accept_one(struct net_ctx *n, const struct job_spec *job, char *err, size_t errlen)
{
	int fd;

	if (wait_fd(n, n->listenfd, POLLIN)) {
		snprintf(err, errlen, "net: stopped while waiting for a connection on %s", n->desc);
		return -EINTR;
	}
	fd = accept4(n->listenfd, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0)
		return fail(err, errlen, errno, "net: %s on %s: %s", "accept", n->desc);
	n->fd = fd;
	return set_nodelay(n, fd, job, err, errlen);
}

static int connect_peer(struct net_ctx *n, const struct job_spec *job, unsigned port, char *err,
			size_t errlen)
{
	int fd, ret;

	if (n->proto == NET_UNIX) {
		struct sockaddr_un *a = (struct sockaddr_un *)&n->peer;

		memset(a, 0, sizeof(*a));
		a->sun_family = AF_UNIX;
		snprintf(a->sun_path, sizeof(a->sun_path), "%s", job->net_host);
		n->peer_len = sizeof(*a);
	} else if ((ret = resolve(n, job->net_host, port, err, errlen))) {
		return ret;
	}
	fd = socket(n->peer.ss_family, (is_udp(n->proto) ? SOCK_DGRAM : SOCK_STREAM) | SOCK_CLOEXEC,
		    0);
	if (fd < 0)
		return fail(err, errlen, errno, "net: %s for %s: %s", "socket", n->desc);
	n->fd = fd;
	ret = set_nodelay(n, fd, job, err, errlen);
	if (!ret)
		ret = set_options(n, fd, job, err, errlen);
	if (ret)
		return ret;
	if (is_udp(n->proto)) {
		uint32_t open_msg[2] = { htonl(LINK_MAGIC), htonl(LINK_OPEN) };
		int ttl = (int)job->net_ttl;

		if (n->multicast) {
			struct in_addr ifa;

			if (job->net_interface) {
				if (inet_pton(AF_INET, job->net_interface, &ifa) != 1) {
					snprintf(err, errlen, "net: option 'interface': '%s' is not an "
						 "IPv4 address", job->net_interface);
					return -EINVAL;
				}
				if (setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &ifa, sizeof(ifa)) < 0)
					return fail(err, errlen, errno, "net: %s on %s: %s",
						    "IP_MULTICAST_IF (interface=)", n->desc);
			}
			if (setsockopt(fd, IPPROTO_IP, IP_MULTICAST_TTL, &ttl, sizeof(ttl)) < 0)
				return fail(err, errlen, errno, "net: %s on %s: %s",
					    "IP_MULTICAST_TTL (ttl=)", n->desc);
		}
		/* a writer opens the link; a UDP reader that connects has no one to tell */
		if (n->writer && sendto(fd, open_msg, sizeof(open_msg), 0,
					(struct sockaddr *)&n->peer, n->peer_len) < 0)
			return fail(err, errlen, errno, "net: %s to %s: %s", "cannot send", n->desc);
		return 0;
	}
	if (connect(fd, (struct sockaddr *)&n->peer, n->peer_len) < 0) {
		int e = errno;

		if (e == ECONNREFUSED || e == ENOENT)
			snprintf(err, errlen, "net: cannot connect to %s: %s (no receiver is "
				 "listening there: start the receiving job first, or give the "
				 "sender startdelay=)", n->desc, strerror(e));
		else
			snprintf(err, errlen, "net: cannot connect to %s: %s", n->desc, strerror(e));
		return -e;
	}
	return 0;
}

static int net_configure(struct engine_ctx *ctx, const struct job_spec *job, char *err,
			 size_t errlen)
{
	struct net_ctx *n = (struct net_ctx *)ctx;
	unsigned port = job->net_port ? job->net_port + n->clone : 0;
	int ret;

	ret = net_check(job, err, errlen);
	if (ret)
		return ret;
	n->proto = (enum net_proto)job->net_proto;
	n->writer = job->rw & RW_WRITE;
	n->pingpong = job->net_pingpong;
	n->listener = is_tcp(n->proto) ? job->net_listen : !n->writer;
	n->multicast = is_udp(n->proto) && is_multicast(job->net_host);
	if (port > 65535) {
		snprintf(err, errlen, "net: port %u + clone %u is past 65535", job->net_port,
			 n->clone);
		return -EINVAL;
	}
	if (n->proto == NET_UNIX)
		snprintf(n->desc, sizeof(n->desc), "unix socket %s", job->net_host);
	else
		snprintf(n->desc, sizeof(n->desc), "%s %s:%u", proto_name(n->proto),
			 job->net_host ? job->net_host : n->listener ? "*" : "?", port);
	if (!n->listener) {
		ret = connect_peer(n, job, port, err, errlen);
	} else {
		ret = n->proto == NET_UNIX ? listen_unix(n, job->net_host, err, errlen)
					   : listen_inet(n, job, port, err, errlen);
		if (!ret)
			ret = is_udp(n->proto) ? udp_wait_open(n, err, errlen)
					       : accept_one(n, job, err, errlen);
	}
	/* connected: the job's clock starts now (the worker's, a moment later) */
	if (!ret && job->runtime_us)
		n->deadline_ns = rb_now_ns() + (job->ramp_time_us + job->runtime_us) * 1000;
	return ret;
}

/*
 * Sends len bytes of buf whole (a stream) or as one datagram; 0, -errno,
 * or -EINTR when stopped.
 */
static int send_all(struct net_ctx *n, const char *buf, size_t len, const struct sockaddr *to,
		    socklen_t tolen)
{
	size_t done = 0;

	while (done < len) {
		ssize_t r = is_udp(n->proto)
			? sendto(n->fd, buf, len, MSG_DONTWAIT, to, tolen)
			: send(n->fd, buf + done, len - done, MSG_DONTWAIT | MSG_NOSIGNAL);

		if (r >= 0) {
			done = is_udp(n->proto) ? len : done + (size_t)r;
			continue;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != ENOBUFS)
			return -errno;
		r = wait_fd(n, n->fd, POLLOUT);
		if (r)
			return (int)r;
	}
	return 0;
}

/*
 * Receives up to len bytes: a datagram, or a stream gathered to len bytes
 * (fewer at its end). Returns the bytes, 0 at the end of the stream or on
 * fio's close message, -errno, -EINTR when stopped.
 */
static ssize_t recv_block(struct net_ctx *n, char *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t r;

		if (is_udp(n->proto)) {
			n->peer_len = sizeof(n->peer);
			r = recvfrom(n->fd, buf, len, MSG_DONTWAIT, n->listener ?
				     (struct sockaddr *)&n->peer : NULL,
				     n->listener ? &n->peer_len : NULL);
		} else {
			r = recv(n->fd, buf + got, len - got, MSG_DONTWAIT);
		}
		if (r > 0) {
			if (is_udp(n->proto))
				return is_close_msg(buf, (size_t)r) ? 0 : r;
			got += (size_t)r;
			continue;
		}
		if (r == 0 && !is_udp(n->proto))
			break;
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
			return -errno;
		r = wait_fd(n, n->fd, POLLIN);
		if (r)
			return got ? (ssize_t)got : r;
	}
	/* fio's sender ends with its close message: not data */
	if (got == 8 && is_close_msg(buf, got))
		return 0;
	return (ssize_t)got;
}

static uint64_t get64le(const unsigned char *p)
{
	uint64_t v = 0;
	int b;

	for (b = 7; b >= 0; b--)
		v = v << 8 | p[b];
	return v;
}

/* fio's UDP trailer: the last 24 bytes of each block carry magic, sequence and size. */
static void store_seq(struct net_ctx *n, struct io_unit *u)
{
	unsigned char *p = (unsigned char *)u->buf + u->len - 24;
	uint64_t v[3] = { UDP_SEQ_MAGIC, n->send_seq++, u->len };
	int i, b;

	if (u->len < 24)
		return;
	for (i = 0; i < 3; i++)
		for (b = 0; b < 8; b++)
			p[i * 8 + b] = (unsigned char)(v[i] >> (8 * b));
}

/*
 * A receiver reads the trailer at the end of the datagram that came: a jump
 * in the sequence counts the datagrams lost on the way (fio's drop_ios).
 * A datagram without the trailer (a sender with verify=, or not fio's
 * format), or whose size field is not the datagram's, counts nothing; an
 * older number (a duplicate or one out of order) is not a loss.
 */
static uint32_t seq_gap(struct net_ctx *n, const void *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)buf + len - 24;
	uint64_t seq, gap;

	if (len < 24 || get64le(p) != UDP_SEQ_MAGIC || get64le(p + 16) != len)
		return 0;
	seq = get64le(p + 8);
	if (seq < n->recv_seq)
		return 0;
	gap = seq - n->recv_seq;
	n->recv_seq = seq + 1;
	return gap > UINT32_MAX ? UINT32_MAX : (uint32_t)gap;
}

static int net_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct net_ctx *n = (struct net_ctx *)ctx;
	ssize_t r;
	int ret;

	if (n->ended)
		return ENGINE_DONE;
	u->error = 0;
	u->dropped = 0;
	u->resid = 0;
	if (u->ddir == DDIR_WRITE) {
		if (is_udp(n->proto))
			store_seq(n, u);
		ret = send_all(n, u->buf, u->len, (struct sockaddr *)&n->peer, n->peer_len);
		if (ret == -EINTR)
			return ENGINE_DONE;
		if (ret)
			return engine_sync_done(u, ret);
		if (!n->pingpong)
			return ENGINE_COMPLETED;
		/* pingpong: the receiver sends the block back before the next one goes */
		r = recv_block(n, u->buf, u->len);
		if (r < 0 && r != -EINTR)
			return engine_sync_done(u, (int)r);
		if (r <= 0)
			n->ended = true;
		return ENGINE_COMPLETED;
	}
	if (u->ddir != DDIR_READ)
		return engine_sync_done(u, 0);
	r = recv_block(n, u->buf, u->len);
	if (r == -EINTR || r == 0) {
		n->ended = true;
		return ENGINE_DONE;
	}
	if (r < 0)
		return engine_sync_done(u, (int)r);
	u->resid = u->len - (uint32_t)r;
	if (is_udp(n->proto))
		u->dropped = seq_gap(n, u->buf, (size_t)r);
	if (u->resid && !is_udp(n->proto))
		n->ended = true;	/* a stream's last, short block */
	if (n->pingpong) {
		ret = send_all(n, u->buf, (size_t)r, (struct sockaddr *)&n->peer, n->peer_len);
		if (ret && ret != -EINTR)
			u->error = -ret;
	}
	return ENGINE_COMPLETED;
}

/* The job is over: a sender says so with fio's close message, then both close. */
static int net_end(struct engine_ctx *ctx, char *err, size_t errlen)
{
	struct net_ctx *n = (struct net_ctx *)ctx;
	unsigned char msg[8];

	if (!n || n->fd < 0)
		return 0;
	if (n->writer) {
		put32le(msg, LINK_MAGIC);
		put32le(msg + 4, LINK_CLOSE);
		/* a receiver that already left does not make the sender's job fail */
		send_all(n, (const char *)msg, sizeof(msg), (struct sockaddr *)&n->peer, n->peer_len);
	}
	close(n->fd);
	n->fd = -1;
	return 0;
}

static void net_cleanup(struct engine_ctx *ctx)
{
	struct net_ctx *n = (struct net_ctx *)ctx;

	if (!n)
		return;
	if (n->fd >= 0)
		close(n->fd);
	if (n->listenfd >= 0)
		close(n->listenfd);
	if (n->unix_path[0])
		unlink(n->unix_path);
	free(n);
}

const struct io_engine_ops engine_net_ops = {
	.name = "net",
	.flags = ENGINE_F_SYNC | ENGINE_F_STREAM,
	.init = net_init,
	.init_tuned = net_init_tuned,
	.configure = net_configure,
	.queue = net_queue,
	.commit = engine_sync_commit,
	.getevents = engine_sync_getevents,
	.event = engine_sync_event,
	.cleanup = net_cleanup,
	.check_job = net_check,
	.describe = net_describe,
	.end = net_end,
};
