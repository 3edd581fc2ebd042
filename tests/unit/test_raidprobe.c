/*
 * test_raidprobe.c - hw/raidprobe.c: every tool on PATH probed at once in
 * the background, each tool's state (running, done, failed, timed out,
 * cancelled) and its line for a person, the answers merged on collect, and
 * no tool process left behind (looked for in /proc). The tools are shell scripts in a temp dir
 * that is the whole PATH (with /bin for sh and sleep).
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "vendor_util.h"
#include "hw/raidprobe.h"

static char dir[256];
static char *saved_path;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * A fake tool NAME in the temp dir running the shell text body; "nap" in
 * body is sleep called by a path in the temp dir, so tool_left() sees it.
 */
static void tool(const char *name, const char *body)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "#!/bin/sh\nnap() { \"%s/nap\" \"$@\"; }\n%s\n", dir, body);
	fclose(f);
	ck_assert_int_eq(chmod(path, 0755), 0);
}

static void setup(void)
{
	const char *old = getenv("PATH");
	char path[PATH_MAX + 32];

	inv_reset();
	rb_test_tmpl(dir, sizeof(dir), "probe");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	saved_path = old ? strdup(old) : NULL;
	snprintf(path, sizeof(path), "%s:/bin", dir);
	setenv("PATH", path, 1);
	snprintf(path, sizeof(path), "%s/nap", dir);
	ck_assert_int_eq(symlink("/bin/sleep", path), 0);
	unsetenv("RAIDBENCH_TOOL_TIMEOUT");
}

static void teardown(void)
{
	char cmd[PATH_MAX + 16];

	if (saved_path)
		setenv("PATH", saved_path, 1);
	free(saved_path);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
	inv_reset();
}

/* The tool i of p, by name; fails when there is none. */
static struct raidprobe_tool state_of(struct raidprobe *p, const char *name)
{
	struct raidprobe_tool t;

	for (size_t i = 0; i < raidprobe_count(p); i++) {
		raidprobe_tool(p, i, &t);
		if (!strcmp(t.name, name))
			return t;
	}
	ck_abort_msg("no probe of %s", name);
	return t;
}

/* Whether a live process runs whose command line holds the temp dir (/proc). */
static bool tool_left(void)
{
	char path[64], buf[4096], stat[512];
	struct dirent *de;
	bool found = false;
	DIR *d = opendir("/proc");

	ck_assert_ptr_nonnull(d);
	while (!found && (de = readdir(d))) {
		size_t n;
		char *p;
		FILE *f;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/cmdline", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		for (size_t i = 0; i < n; i++)
			if (!buf[i])
				buf[i] = ' ';
		buf[n] = '\0';
		if (!strstr(buf, dir))
			continue;
		/* a zombie nobody reaps (PID 1 in a container may not) is gone */
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		f = fopen(path, "r");
		p = f && fgets(stat, sizeof(stat), f) ? strrchr(stat, ')') : NULL;
		if (f)
			fclose(f);
		found = p && p[1] && p[2] != 'Z' && p[2] != 'X';
	}
	closedir(d);
	return found;
}

/*
 * SIGKILL to a process group is delivered asynchronously: on a loaded
 * machine a killed process can still be listed for a moment. Gone within a
 * few seconds is the contract; a tool that was never killed stays forever.
 */
static bool tools_gone(void)
{
	double t0 = now();

	while (tool_left()) {
		if (now() - t0 > 5)
			return false;
		usleep(20000);
	}
	return true;
}

static void wait_all(struct raidprobe *p, double limit)
{
	double t0 = now();

	while (!raidprobe_wait(p, 100))
		ck_assert_msg(now() - t0 < limit, "the probes still run after %.0f s", limit);
}

START_TEST(describe_states)
{
	struct raidprobe_tool t = { .name = "ssacli", .elapsed_ms = 12400, .timeout_ms = 30000 };
	char buf[256];

	t.state = RAIDPROBE_RUNNING;
	raidprobe_describe(&t, true, buf, sizeof(buf));
	ck_assert_str_eq(buf, "ssacli: probing... 12 s (timeout 30 s)");
	raidprobe_describe(&t, false, buf, sizeof(buf));
	ck_assert_str_eq(buf, "ssacli: probing\u2026 12 s (timeout 30 s)");
	t.state = RAIDPROBE_DONE;
	raidprobe_describe(&t, true, buf, sizeof(buf));
	ck_assert_str_eq(buf, "ssacli: done (12 s)");
	t.state = RAIDPROBE_TIMED_OUT;
	raidprobe_describe(&t, true, buf, sizeof(buf));
	ck_assert_str_eq(buf, "ssacli: timed out after 30 s");
	t.state = RAIDPROBE_CANCELLED;
	raidprobe_describe(&t, true, buf, sizeof(buf));
	ck_assert_str_eq(buf, "ssacli: cancelled");
	t.state = RAIDPROBE_FAILED;
	snprintf(t.msg, sizeof(t.msg), "exit status 1: no controllers");
	raidprobe_describe(&t, true, buf, sizeof(buf));
	ck_assert_str_eq(buf, "ssacli: failed: exit status 1: no controllers");
	ck_assert_str_eq(raidprobe_state_name(RAIDPROBE_TIMED_OUT), "timed out");
}
END_TEST

/* Two hanging tools time out together: one timeout, not the sum. */
START_TEST(parallel_timeouts)
{
	struct raidprobe *p;
	struct raidprobe_tool t;
	double t0 = now(), took;

	tool("ssacli", "nap 300");
	tool("storcli64", "nap 300");
	p = raidprobe_start(NULL, 2000, err, sizeof(err));
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(raidprobe_count(p), 2);
	ck_assert(raidprobe_busy(p));
	t = state_of(p, "ssacli");
	ck_assert_int_eq(t.state, RAIDPROBE_RUNNING);
	ck_assert_int_eq(raidprobe_collect(p, &inv), 0);	/* nothing ended yet */
	wait_all(p, 10);
	took = now() - t0;
	ck_assert_msg(took < 3.5, "two 2 s timeouts took %.1f s: not at once", took);
	ck_assert_int_eq(state_of(p, "ssacli").state, RAIDPROBE_TIMED_OUT);
	ck_assert_int_eq(state_of(p, "storcli").state, RAIDPROBE_TIMED_OUT);
	ck_assert_int_eq(raidprobe_collect(p, &inv), 2);
	ck_assert_int_eq(raidprobe_collect(p, &inv), 0);	/* once each */
	ck_assert_int_eq(inv.nr_notes, 2);
	ck_assert_ptr_nonnull(strstr(inv.notes[0], "not shown"));
	raidprobe_free(p, 1000);
	ck_assert_msg(tools_gone(), "a tool process survived its timeout");
}
END_TEST

START_TEST(cancel_kills)
{
	struct raidprobe *p;
	double t0;

	tool("ssacli", "nap 300");
	p = raidprobe_start(NULL, 60000, err, sizeof(err));
	ck_assert_ptr_nonnull(p);
	usleep(200000);
	ck_assert(tool_left());
	t0 = now();
	raidprobe_cancel(p);
	wait_all(p, 5);
	ck_assert_msg(now() - t0 < 2.5, "cancel took %.1f s", now() - t0);
	ck_assert_int_eq(state_of(p, "ssacli").state, RAIDPROBE_CANCELLED);
	raidprobe_collect(p, &inv);
	ck_assert_int_eq(inv.nr_notes, 1);
	ck_assert_str_eq(inv.notes[0], "ssacli: cancelled (its controllers are not shown)");
	raidprobe_free(p, 1000);
	ck_assert_msg(tools_gone(), "a cancelled tool survived");
}
END_TEST

/* A set let go of without waiting still kills its tools; settle waits for that. */
START_TEST(free_then_settle)
{
	struct raidprobe *p;

	tool("ssacli", "nap 300");
	p = raidprobe_start(NULL, 60000, err, sizeof(err));
	ck_assert_ptr_nonnull(p);
	usleep(200000);
	ck_assert(tool_left());
	raidprobe_free(p, 0);
	ck_assert(raidprobe_settle(5000));
	ck_assert_msg(tools_gone(), "a tool of a set let go of survived");
}
END_TEST

/* An answer is merged; a tool that leaves a child holding its output still ends at once. */
START_TEST(done_and_failed)
{
	char body[PATH_MAX + 64];
	struct raidprobe *p;
	struct raidprobe_tool t;
	double t0 = now();

	snprintf(body, sizeof(body), "nap 1000 &\ncat '%s'",
		 fixture("ssacli/ssacli_ctrl-all-show-config-detail_P440ar-2arrays.txt"));
	tool("ssacli", body);
	tool("storcli64", "echo 'controller busy' >&2; exit 1");
	p = raidprobe_start(NULL, 20000, err, sizeof(err));
	ck_assert_ptr_nonnull(p);
	wait_all(p, 15);
	ck_assert_msg(now() - t0 < 5, "waited %.1f s for a child the tool left", now() - t0);
	ck_assert_int_eq(state_of(p, "ssacli").state, RAIDPROBE_DONE);
	t = state_of(p, "storcli");
	ck_assert_int_eq(t.state, RAIDPROBE_FAILED);
	ck_assert_msg(strstr(t.msg, "controller busy"), "msg: %s", t.msg);
	ck_assert_int_eq(raidprobe_collect(p, &inv), 2);
	ck_assert_int_eq(inv.nr_controllers, 1);
	ck_assert_str_eq(inv.controllers[0].source, "ssacli");
	ck_assert_int_eq(inv.nr_notes, 1);
	ck_assert_ptr_nonnull(strstr(inv.notes[0], "storcli: "));
	raidprobe_free(p, 1000);
	ck_assert_msg(tools_gone(), "the child the tool left survived");
}
END_TEST

/* The blocking form: the same tools, all at once, and the first failure. */
START_TEST(read_all_parallel)
{
	double t0 = now();
	int ret;

	tool("ssacli", "nap 300");
	tool("storcli64", "nap 300");
	setenv("RAIDBENCH_TOOL_TIMEOUT", "2", 1);
	ret = raidtool_read_all(&inv, err, sizeof(err));
	ck_assert_int_eq(ret, -ETIMEDOUT);
	ck_assert_msg(now() - t0 < 3.5, "took %.1f s", now() - t0);
	ck_assert_msg(strstr(err, "did not finish within 2 s"), "err: %s", err);
	ck_assert_int_eq(inv.nr_notes, 2);
	ck_assert_msg(tools_gone(), "a tool process survived");
}
END_TEST

START_TEST(no_tools)
{
	struct raidprobe *p = raidprobe_start(NULL, 1000, err, sizeof(err));

	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(raidprobe_count(p), 0);
	ck_assert(!raidprobe_busy(p));
	ck_assert(raidprobe_wait(p, 0));
	ck_assert_int_eq(raidprobe_collect(p, &inv), 0);
	raidprobe_free(p, 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("raidprobe");
	TCase *tc = tcase_create("raidprobe");

	tcase_set_timeout(tc, 30);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, describe_states);
	tcase_add_test(tc, parallel_timeouts);
	tcase_add_test(tc, cancel_kills);
	tcase_add_test(tc, free_then_settle);
	tcase_add_test(tc, done_and_failed);
	tcase_add_test(tc, read_all_parallel);
	tcase_add_test(tc, no_tools);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(suite)
