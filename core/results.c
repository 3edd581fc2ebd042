/*
 * results.c - saves each run's JSON with raidbench's own section, so compare
 * and the results screen can find it later. Writes only inside the results
 * directory, to a new file (O_EXCL), via a temporary name and rename.
 */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "results.h"
#include "worker.h"

static int mkdirs(char *path)
{
	char *p;

	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST) {
			int e = errno;

			*p = '/';
			return -e;
		}
		*p = '/';
	}
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

int results_dir(char *buf, size_t len)
{
	const char *data = getenv("XDG_DATA_HOME"), *home = getenv("HOME");

	if (data && *data)
		snprintf(buf, len, "%s/raidbench/results", data);
	else if (home && *home)
		snprintf(buf, len, "%s/.local/share/raidbench/results", home);
	else
		return -ENOENT;
	return mkdirs(buf);
}

static json_object *targets_json(const struct run_result *res)
{
	json_object *arr = json_object_new_array();
	size_t i, k;
	unsigned f;

	for (i = 0; i < res->nr_workers; i++) {
		const struct worker *w = &res->workers[i];

		for (f = 0; f < w->nr_files; f++) {
			const char *p = w->files[f].path;
			bool seen = false;

			if (w->files[f].fd < 0)
				continue;	/* the null engine's files are not real */

			for (k = 0; k < json_object_array_length(arr); k++) {
				json_object *o = json_object_array_get_idx(arr, k), *v;

				if (json_object_object_get_ex(o, "path", &v) &&
				    !strcmp(json_object_get_string(v), p))
					seen = true;
			}
			if (seen)
				continue;
			json_object *t = json_object_new_object();

			json_object_object_add(t, "path", json_object_new_string(p));
			json_object_object_add(t, "kind", json_object_new_string(
				w->files[f].is_blockdev ? "block_device" : "file"));
			json_object_object_add(t, "size_bytes",
					       json_object_new_int64((int64_t)w->files[f].real_size));
			json_object_array_add(arr, t);
		}
	}
	return arr;
}

int results_save(const struct run_report *rep, const struct run_result *res, char *path,
		 size_t pathlen, char *err, size_t errlen)
{
	char dir[PATH_MAX], tmp[PATH_MAX + 16], host[256] = "", stamp[32];
	json_object *root, *rb;
	const char *text;
	char *json;
	struct tm tm;
	int fd, n, ret = 0;
	FILE *f;

	ret = results_dir(dir, sizeof(dir));
	if (ret) {
		snprintf(err, errlen, "cannot create the results directory: %s", strerror(-ret));
		return ret;
	}
	json = report_json_string(rep, false);
	root = json ? json_tokener_parse(json) : NULL;
	free(json);
	if (!root) {
		snprintf(err, errlen, "cannot build the results JSON");
		return -ENOMEM;
	}
	gethostname(host, sizeof(host) - 1);
	rb = json_object_new_object();
	json_object_object_add(rb, "version", json_object_new_string(rep->version));
	json_object_object_add(rb, "host", json_object_new_string(host));
	json_object_object_add(rb, "start_ms", json_object_new_int64((int64_t)res->start_realtime_ms));
	json_object_object_add(rb, "interrupted", json_object_new_boolean(res->interrupted));
	json_object_object_add(rb, "targets", targets_json(res));
	json_object_object_add(root, "raidbench", rb);
	text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY);

	localtime_r(&rep->when, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	for (n = 0; n < 1000; n++) {
		snprintf(path, pathlen, "%s/%s-%s%s%.0d.json", dir, stamp,
			 rep->nr_ts ? rep->ts[0].name : "run", n ? "-" : "", n);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		json_object_put(root);
		return ret;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f || fputs(text, f) < 0 || fputc('\n', f) < 0 || fflush(f) || fsync(fileno(f))) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
	}
	if (f && fclose(f) && !ret) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
	}
	close(fd);
	if (!ret && rename(tmp, path) < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	}
	if (ret) {
		unlink(tmp);
		unlink(path);
	}
	json_object_put(root);
	return ret;
}
