/*
 * guard_remote.c - the write guard for targets reached over the network
 * (nbd, libiscsi): no mounts, holders or sysfs to read there, only the
 * bytes the engine fetched from the export's two ends. Those go into a
 * sparse memory file the size of the export, so libblkid probes it as it
 * would the disk, end-of-device signatures (md 0.90, GPT backup) included.
 * The policy and the refusal's wording stay guard.c's.
 */
#include "guard_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int write_all(int fd, const void *buf, size_t len, uint64_t off)
{
	const char *p = buf;

	while (len) {
		ssize_t n = pwrite(fd, p, len, (off_t)off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

/* A memory file holding head and tail where the export has them; fd or -errno. */
static int edges_file(uint64_t size, const void *head, const void *tail, size_t edge)
{
	int fd = memfd_create("raidbench-guard", MFD_CLOEXEC), rc;

	if (fd < 0)
		return -errno;
	/* sparse: the middle reads as zeros and costs nothing */
	if (ftruncate(fd, (off_t)size) < 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	rc = write_all(fd, head, size < edge ? (size_t)size : edge, 0);
	if (!rc && size > edge)
		rc = write_all(fd, tail, edge, size - edge);
	if (rc) {
		close(fd);
		return rc;
	}
	return fd;
}

static bool consent_names(const struct guard_consent *c, const char *name)
{
	size_t i;

	for (i = 0; c && i < c->nr; i++)
		if (c->paths[i] && !strcmp(c->paths[i], name))
			return true;
	return false;
}

int guard_check_remote(const char *name, uint64_t size, const void *head, const void *tail,
		       size_t edge, const struct guard_consent *consent, char *err,
		       size_t errlen)
{
	struct reasons *rs;
	struct target t;
	char node[64];
	bool worst_never = false;
	size_t i;
	int fd, rc;

	if (consent && consent->readonly) {
		snprintf(err, errlen,
			 "refusing to write %s: --readonly is set: every write is refused", name);
		return -EPERM;
	}
	rs = calloc(1, sizeof(*rs));
	if (!rs) {
		snprintf(err, errlen, "refusing to write %s: it cannot be examined (%s)", name,
			 strerror(ENOMEM));
		return -EPERM;
	}
	fd = edges_file(size, head, tail, edge);
	if (fd < 0) {
		rc = fd;
	} else {
		snprintf(node, sizeof(node), "/proc/self/fd/%d", fd);
		rc = guard_probe_signatures(node, true, false, name, rs);
		close(fd);
	}
	if (rc) {
		reason_add(rs, GUARD_NEVER, R_UNKNOWN, true, name,
			   "cannot be examined: probing a copy of its first and last bytes "
			   "failed (%s)", strerror(-rc));
	}
	for (i = 0; i < rs->nr; i++)
		worst_never |= rs->r[i].level == GUARD_NEVER;
	if (!rs->nr || (!worst_never && consent_names(consent, name))) {
		free(rs);
		return 0;
	}
	memset(&t, 0, sizeof(t));
	guard_render_refusal(name, &t, rs, err, errlen);
	free(rs);
	return -EPERM;
}
