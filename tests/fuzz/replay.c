/*
 * replay.c - main() for a harness built without libFuzzer: runs every file
 * named on the command line, or found in a named directory, through the
 * harness once. `make check` replays the kept corpus and the regressions
 * this way, with gcc or clang, sanitizers or not.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int replay_file(const char *path, unsigned *nr)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		perror(path);
		return -1;
	}
	do {
		if (len + 65536 > cap) {
			uint8_t *p = realloc(buf, cap = cap ? cap * 2 : 65536);

			if (!p) {
				fprintf(stderr, "%s: out of memory\n", path);
				free(buf);
				fclose(f);
				return -1;
			}
			buf = p;
		}
		n = fread(buf + len, 1, 65536, f);
		len += n;
	} while (n > 0);
	if (ferror(f)) {
		perror(path);
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	/* an exact-size copy, so reading one byte past the input is caught by ASan */
	uint8_t *exact = malloc(len ? len : 1);

	if (!exact) {
		free(buf);
		return -1;
	}
	memcpy(exact, buf, len);
	free(buf);
	LLVMFuzzerTestOneInput(exact, len);
	free(exact);
	(*nr)++;
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_path(const char *path, unsigned *nr)
{
	struct stat st;
	struct dirent *de;
	char **names = NULL;
	size_t nr_names = 0, i;
	int ret = 0;
	DIR *d;

	if (stat(path, &st)) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return replay_file(path, nr);
	d = opendir(path);
	if (!d) {
		perror(path);
		return -1;
	}
	while ((de = readdir(d))) {
		char **p;

		if (de->d_name[0] == '.')
			continue;
		p = realloc(names, (nr_names + 1) * sizeof(*names));
		if (!p || asprintf(&p[nr_names], "%s/%s", path, de->d_name) < 0) {
			fprintf(stderr, "%s: out of memory\n", path);
			ret = -1;
			if (p)
				names = p;
			break;
		}
		names = p;
		nr_names++;
	}
	closedir(d);
	/* a fixed order, so a failure names the same file every time */
	qsort(names, nr_names, sizeof(*names), cmp_names);
	for (i = 0; i < nr_names; i++) {
		if (!ret && replay_path(names[i], nr))
			ret = -1;
		free(names[i]);
	}
	free(names);
	return ret;
}

int main(int argc, char **argv)
{
	unsigned nr = 0;
	int i;

	for (i = 1; i < argc; i++)
		if (replay_path(argv[i], &nr))
			return 1;
	printf("%u inputs replayed\n", nr);
	return 0;
}
