/*
 * report_fleet.c - fio's client-mode JSON from the one JSON builder
 * (report_json.c): the per-job objects are the same, "jobs" becomes
 * "client_stats", each entry gains "hostname" and "port" and loses the
 * "eta"/"elapsed" keys that fio's client does not print, and "All clients"
 * closes the list (fio client.c handle_ts, json_object_add_client_info).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "report_fleet.h"
#include "report_int.h"

static int client_entry(struct json_object *arr, struct json_object *job, const char *host,
			unsigned port)
{
	json_object_object_del(job, "eta");
	json_object_object_del(job, "elapsed");
	if (json_object_object_add(job, "hostname", json_object_new_string(host ? host : "")) ||
	    json_object_object_add(job, "port", json_object_new_int64(port)))
		return -ENOMEM;
	json_object_get(job);
	if (json_object_array_add(arr, job)) {
		json_object_put(job);
		return -ENOMEM;
	}
	return 0;
}

static struct json_object *build(const struct run_report *rep, const struct report_fleet_host *hosts,
				 size_t nr_hosts, const struct thread_stat *all, bool plus)
{
	struct json_object *root = report_json_build(rep, plus), *out, *jobs = NULL, *arr;
	struct json_object *one = NULL;
	bool failed = false;
	size_t i, h;

	if (!root)
		return NULL;
	out = json_object_new_object();
	arr = json_object_new_array();
	if (!out || !arr)
		goto fail;
	json_object_object_get_ex(root, "jobs", &jobs);
	for (i = 0; jobs && i < json_object_array_length(jobs); i++) {
		const char *host = NULL;
		unsigned port = 0;

		for (h = 0; h < nr_hosts; h++)
			if (i >= hosts[h].first && i < hosts[h].first + hosts[h].nr) {
				host = hosts[h].hostname;
				port = hosts[h].port;
			}
		failed |= client_entry(arr, json_object_array_get_idx(jobs, i), host, port) != 0;
	}
	if (all && nr_hosts) {
		struct run_report r1 = *rep;
		struct json_object *j1;

		r1.ts = (struct thread_stat *)all;
		r1.nr_ts = 1;
		r1.nr_du = 0;
		one = report_json_build(&r1, plus);
		/* fio labels the sum with the client that completed it: the last */
		if (!one || !json_object_object_get_ex(one, "jobs", &j1) ||
		    client_entry(arr, json_object_array_get_idx(j1, 0),
				 hosts[nr_hosts - 1].hostname, hosts[nr_hosts - 1].port))
			failed = true;
	}
	/* fio's order: version, time, global options, client_stats, disk_util */
	json_object_object_foreach(root, key, val) {
		if (!strcmp(key, "jobs")) {
			failed |= json_object_object_add(out, "client_stats", arr) != 0;
			arr = NULL;
			continue;
		}
		json_object_get(val);
		failed |= json_object_object_add(out, key, val) != 0;
	}
	if (!json_object_object_get_ex(out, "disk_util", NULL))
		failed |= json_object_object_add(out, "disk_util", json_object_new_array()) != 0;
	json_object_put(one);
	json_object_put(root);
	json_object_put(arr);
	if (failed) {
		json_object_put(out);
		return NULL;
	}
	return out;
fail:
	json_object_put(root);
	json_object_put(out);
	json_object_put(arr);
	return NULL;
}

char *report_fleet_json_string(const struct run_report *rep, const struct report_fleet_host *hosts,
			       size_t nr_hosts, const struct thread_stat *all, bool plus)
{
	struct report_locale loc;
	char *copy;

	report_locale_enter(&loc);
	copy = report_json_text(build(rep, hosts, nr_hosts, all, plus));
	report_locale_leave(&loc);
	return copy;
}

int report_fleet_json(FILE *f, const struct run_report *rep,
		      const struct report_fleet_host *hosts, size_t nr_hosts,
		      const struct thread_stat *all, bool plus)
{
	return report_write_text(f, report_fleet_json_string(rep, hosts, nr_hosts, all, plus));
}
