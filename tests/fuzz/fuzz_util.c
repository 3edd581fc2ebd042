/*
 * fuzz_util.c - the scratch file and the checks the harnesses share.
 * Linked into both the libFuzzer build (make fuzz) and the replay build
 * (make check); nothing here knows which.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

static char scratch[4096];
static int scratch_fd = -1;

static void scratch_remove(void)
{
	if (scratch_fd >= 0)
		unlink(scratch);
}

const char *fuzz_file(const uint8_t *data, size_t size)
{
	size_t off = 0;

	if (scratch_fd < 0) {
		const char *dir = getenv("TMPDIR");

		snprintf(scratch, sizeof(scratch), "%s/rb-fuzz-XXXXXX", dir && *dir ? dir : "/tmp");
		scratch_fd = mkstemp(scratch);
		if (scratch_fd < 0) {
			perror("fuzz: mkstemp");
			abort();
		}
		atexit(scratch_remove);
	}
	if (ftruncate(scratch_fd, 0)) {
		perror("fuzz: ftruncate");
		abort();
	}
	while (off < size) {
		ssize_t n = pwrite(scratch_fd, data + off, size - off, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			perror("fuzz: pwrite");
			abort();
		}
		off += (size_t)n;
	}
	return scratch;
}

void fuzz_need_message(int ret, const char *err, const char *what)
{
	if (ret < 0 && !err[0]) {
		fprintf(stderr, "fuzz: %s returned %d (%s) without a message\n", what, ret,
			strerror(-ret));
		abort();
	}
}
