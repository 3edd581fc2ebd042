/*
 * guard_probe.c - drives core/guard.c the way a writer does, for
 * tests/integration/guard_matrix.sh when raidbench itself cannot run yet,
 * and for poking at the guard by hand.
 *
 *   guard_probe [--allow-destroy=DEV]... [--readonly] [--opens=N] [--examine] PATH
 *
 * Prints guard_examine()'s verdict and reasons on stdout, then asks
 * guard_open_write() for PATH (N times, as numjobs=N would) and, when
 * allowed, writes 64 KiB of a non-zero pattern at offset 0 with O_DIRECT.
 * --examine stops after the report. The refusal line goes to stderr as
 * raidbench prints it. Exit 0 when written, 2 when refused (by the guard
 * or a busy device), 1 on other errors.
 */
#include "guard.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WRITE_LEN (64 * 1024)

static const char *verdict_name(enum guard_verdict v)
{
	switch (v) {
	case GUARD_OK:
		return "ok";
	case GUARD_NEEDS_CONSENT:
		return "needs-consent";
	case GUARD_NEVER:
		return "never";
	}
	return "?";
}

static int write_pattern(int fd, const char *path)
{
	void *buf;
	ssize_t n;

	if (posix_memalign(&buf, 4096, WRITE_LEN)) {
		fprintf(stderr, "guard_probe: out of memory\n");
		return 1;
	}
	memset(buf, 0xa5, WRITE_LEN);
	n = pwrite(fd, buf, WRITE_LEN, 0);
	free(buf);
	if (n != WRITE_LEN) {
		fprintf(stderr, "guard_probe: writing %s: %s\n", path,
			n < 0 ? strerror(errno) : "short write");
		return 1;
	}
	if (fsync(fd) < 0) {
		fprintf(stderr, "guard_probe: fsync %s: %s\n", path, strerror(errno));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	char *paths[64];
	struct guard_consent consent = { .paths = paths };
	struct guard_report rep;
	const char *path = NULL;
	bool examine_only = false;
	char err[1024];
	int fds[16];
	int i, opens = 1, rc, status = 0;

	for (i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--allow-destroy=", 16) &&
		    consent.nr < sizeof(paths) / sizeof(paths[0]))
			consent.paths[consent.nr++] = argv[i] + 16;
		else if (!strcmp(argv[i], "--readonly"))
			consent.readonly = true;
		else if (!strcmp(argv[i], "--examine"))
			examine_only = true;
		else if (!strncmp(argv[i], "--opens=", 8))
			opens = atoi(argv[i] + 8);
		else if (argv[i][0] != '-' && !path)
			path = argv[i];
		else {
			fprintf(stderr, "usage: guard_probe [--allow-destroy=DEV]... [--readonly] "
					"[--opens=N] [--examine] PATH\n");
			return 1;
		}
	}
	if (!path || opens < 1 || opens > 16) {
		fprintf(stderr, "guard_probe: need one PATH and 1 <= --opens <= 16\n");
		return 1;
	}

	rc = guard_examine(path, &rep);
	printf("verdict: %s%s\n", verdict_name(rep.verdict), rc ? " (examination failed)" : "");
	if (rep.reasons[0])
		printf("reasons:\n%s\n", rep.reasons);
	fflush(stdout);
	if (examine_only)
		return 0;

	for (i = 0; i < opens; i++) {
		fds[i] = guard_open_write(path, O_RDWR | O_CREAT | O_DIRECT, &consent, err,
					  sizeof(err));
		if (fds[i] < 0) {
			fprintf(stderr, "%s\n", err);
			/* Refused by the guard or by the kernel's claim: both keep the data. */
			rc = fds[i];
			status = rc == -EPERM || rc == -EBUSY || rc == -EAGAIN ? 2 : 1;
			break;
		}
	}
	if (!status)
		status = write_pattern(fds[0], path);
	while (i-- > 0)
		if (fds[i] >= 0)
			guard_close(fds[i]);
	if (!status)
		printf("wrote %d bytes at offset 0 of %s\n", WRITE_LEN, path);
	return status;
}
