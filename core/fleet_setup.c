/*
 * fleet_setup.c - before a fleet connects: fio's --client addresses (and
 * files of them), the ini text every server gets, the check that a job
 * writing to a device on the servers has consent, and the live layout.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "fleet_int.h"
#include "guard.h"

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
		/* the parser's stonewalls too: one text for what were several files, each
		 * of which starts after the last (a typed one repeated is harmless) */
		if (j->stonewall)
			fputs("stonewall\n", m);
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

int fleet_layout_build(struct fleet *f, const struct job_list *jl)
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

