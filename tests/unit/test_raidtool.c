/*
 * test_raidtool.c - hw/raidtool.c: running a tool (argv, captured stdout
 * and stderr, exit status, LC_ALL=C, stdin closed, the deadline that kills
 * the whole process group, a child the tool left behind not waited for),
 * PATH lookup, the registry, the printable command line, the WWN join and
 * its sysfs source, and merging several outputs of one controller.
 */
#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "vendor_util.h"
#include "hw/array.h"
#include "hw/inventory_read.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

START_TEST(exec_captures)
{
	const char *argv[] = { "/bin/sh", "-c", "echo out; echo err >&2; echo $LC_ALL; cat; exit 3",
			       NULL };
	struct raidtool_run run;

	ck_assert_int_eq(raidtool_exec(argv, 5000, &run, err, sizeof(err)), 0);
	ck_assert_int_eq(run.status, 3);
	ck_assert_int_eq(run.signal, 0);
	ck_assert(!run.timed_out);
	ck_assert_str_eq(run.out, "out\nC\n");	/* LC_ALL=C; cat sees an empty stdin */
	ck_assert_int_eq(run.out_len, 6);
	ck_assert_str_eq(run.errout, "err\n");
	raidtool_run_release(&run);

	argv[2] = "kill -9 $$";
	ck_assert_int_eq(raidtool_exec(argv, 5000, &run, err, sizeof(err)), 0);
	ck_assert_int_eq(run.status, -1);
	ck_assert_int_eq(run.signal, SIGKILL);
	raidtool_run_release(&run);
}
END_TEST

/* Gone, or a zombie nobody reaps (PID 1 in a container may not). */
static bool alive(long pid)
{
	char path[64], buf[256];
	FILE *f;
	char *p;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	p = p ? strrchr(buf, ')') : NULL;
	return p && p[2] != 'Z' && p[2] != 'X';
}

/* A tool that hangs is killed at the deadline, and what it started with it. */
START_TEST(exec_timeout_kills_group)
{
	char pidfile[256], cmd[384];
	const char *argv[] = { "/bin/sh", "-c", cmd, NULL };
	struct raidtool_run run;
	double t0 = now();
	FILE *f;
	long pid = 0;
	int fd = mkstemp(rb_test_tmpl(pidfile, sizeof(pidfile), "pid"));

	ck_assert_int_ge(fd, 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "echo started; sleep 30 & echo $! > %s; wait", pidfile);
	ck_assert_int_eq(raidtool_exec(argv, 300, &run, err, sizeof(err)), -ETIMEDOUT);
	ck_assert(run.timed_out);
	ck_assert_str_eq(run.out, "started\n");	/* what it printed is kept */
	ck_assert_msg(now() - t0 < 5, "took %.1f s", now() - t0);
	ck_assert_ptr_nonnull(strstr(err, "did not finish within 1 s"));
	f = fopen(pidfile, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fscanf(f, "%ld", &pid), 1);
	fclose(f);
	unlink(pidfile);
	usleep(100000);
	ck_assert_msg(!alive(pid), "the sleep (%ld) survived", pid);
	raidtool_run_release(&run);
}
END_TEST

/*
 * A tool that leaves a child holding its stdout and exits: the run ends with
 * the tool, not at the deadline, keeps what it printed, and the child is
 * killed with the group.
 */
START_TEST(exec_daemon_child_not_waited_for)
{
	const char *argv[] = { "/bin/sh", "-c", "sleep 1000 & echo $!; exit 0", NULL };
	struct raidtool_run run;
	double t0 = now(), took;
	long pid = 0;
	int i;

	ck_assert_int_eq(raidtool_exec(argv, 15000, &run, err, sizeof(err)), 0);
	took = now() - t0;
	ck_assert_msg(took < 5, "waited %.1f s for the pipe instead of the tool", took);
	ck_assert(!run.timed_out);
	ck_assert_int_eq(run.status, 0);
	ck_assert_int_eq(sscanf(run.out, "%ld", &pid), 1);
	for (i = 0; i < 50 && alive(pid); i++)
		usleep(20000);
	ck_assert_msg(!alive(pid), "the child it left (%ld) survived", pid);
	raidtool_run_release(&run);

	/* a double fork: the grandchild's parent is gone before the tool exits */
	argv[2] = "(sleep 1000 & echo $!); echo done; exit 0";
	t0 = now();
	ck_assert_int_eq(raidtool_exec(argv, 15000, &run, err, sizeof(err)), 0);
	took = now() - t0;
	ck_assert_msg(took < 5, "waited %.1f s for a double-forked child", took);
	ck_assert_int_eq(sscanf(run.out, "%ld", &pid), 1);
	ck_assert_ptr_nonnull(strstr(run.out, "done\n"));
	for (i = 0; i < 50 && alive(pid); i++)
		usleep(20000);
	ck_assert_msg(!alive(pid), "the double-forked child (%ld) survived", pid);
	raidtool_run_release(&run);
}
END_TEST

START_TEST(exec_not_found)
{
	const char *argv[] = { "raidbench-no-such-tool", "x", NULL };
	struct raidtool_run run;

	ck_assert_int_eq(raidtool_exec(argv, 1000, &run, err, sizeof(err)), -ENOENT);
	ck_assert_str_eq(err, "raidbench-no-such-tool: not found on PATH");
	raidtool_run_release(&run);
}
END_TEST

START_TEST(find_on_path)
{
	char dir[256], bin[PATH_MAX], found[PATH_MAX];
	const char *old = getenv("PATH");
	char *saved = old ? strdup(old) : NULL;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(rb_test_tmpl(dir, sizeof(dir), "path")));
	snprintf(bin, sizeof(bin), "%s/hpssacli", dir);
	f = fopen(bin, "w");
	fputs("#!/bin/sh\necho hi\n", f);
	fclose(f);
	setenv("PATH", dir, 1);
	ck_assert_int_eq(raidtool_find(&raidtool_storcli, found, sizeof(found)), -ENOENT);
	ck_assert_int_eq(raidtool_find(&raidtool_ssacli, found, sizeof(found)), -ENOENT);	/* not +x */
	chmod(bin, 0755);
	ck_assert_int_eq(raidtool_find(&raidtool_ssacli, found, sizeof(found)), 0);
	ck_assert_str_eq(found, bin);
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
	unlink(bin);
	rmdir(dir);
}
END_TEST

START_TEST(registry)
{
	ck_assert_ptr_eq(raidtool_by_name("ssacli"), &raidtool_ssacli);
	ck_assert_ptr_eq(raidtool_by_name("hpacucli"), &raidtool_ssacli);
	ck_assert_ptr_eq(raidtool_by_name("perccli64"), &raidtool_storcli);
	ck_assert_ptr_eq(raidtool_by_name("perccli"), &raidtool_storcli);
	ck_assert_ptr_eq(raidtool_by_name("storcli64"), &raidtool_storcli);
	ck_assert_ptr_eq(raidtool_by_name("MegaCli64"), &raidtool_megacli);
	ck_assert_ptr_eq(raidtool_by_name("megacli"), &raidtool_megacli);
	ck_assert_ptr_eq(raidtool_by_name("mdadm"), &raidtool_mdadm);
	ck_assert_ptr_null(raidtool_by_name("arcconf"));
	ck_assert_ptr_eq(raidtool_all()[0], &raidtool_ssacli);
	ck_assert_ptr_null(raidtool_all()[4]);
	ck_assert_ptr_null(raidtool_megacli.build);	/* read-only */
	ck_assert_str_eq(raidtool_import_form(0), "ssacli");
	ck_assert_str_eq(raidtool_import_form(3), "mdadm-detail");
	ck_assert_str_eq(raidtool_import_form(4), "mdstat");
	ck_assert_ptr_null(raidtool_import_form(5));
}
END_TEST

/* What used to be decided by a tool's name is a member of its ops table; each member holds. */
START_TEST(registry_members)
{
	const struct raid_tool_ops *const *all = raidtool_all();
	char buf[256];

	for (size_t i = 0; all[i]; i++) {
		const struct raid_tool_ops *t = all[i];
		size_t nl = 0, nr = 0;
		unsigned min, mul;

		ck_assert_msg(t->imports && t->imports[0].form, "%s imports nothing", t->name);
		ck_assert_msg(!t->controller_id || t->id_forms, "%s: no id_forms", t->name);
		ck_assert_msg(!t->build == !t->levels, "%s: build and levels disagree", t->name);
		ck_assert_msg(t->build || t->superseded_by || !t->levels, "%s", t->name);
		for (; t->levels && t->levels[nl]; nl++)
			ck_assert_msg(array_level_rule(t, t->levels[nl], &min, &mul) && min >= 1 &&
				      mul >= 1, "%s: no rule for RAID %s", t->name, t->levels[nl]);
		for (; t->rules && t->rules[nr].level; nr++)
			;
		ck_assert_msg(nl == nr, "%s: %zu levels, %zu rules", t->name, nl, nr);
		ck_assert_msg(!t->build || (t->strip_min_kib >= 4 && t->strip_min_kib <= 1024),
			      "%s: strip_min_kib %u", t->name, t->strip_min_kib);
		for (size_t b = 0; t->binaries[b]; b++)
			ck_assert_ptr_eq(raidtool_by_name(t->binaries[b]), t);
	}
	ck_assert_ptr_eq(raidtool_for_block_devices(), &raidtool_mdadm);
	raidtool_builder_names(buf, sizeof(buf), ", ");
	ck_assert_str_eq(buf, "ssacli, storcli/perccli or mdadm");
	raidtool_builder_names(buf, sizeof(buf), "|");
	ck_assert_str_eq(buf, "ssacli|storcli|perccli|mdadm");
	ck_assert_int_eq(raidtool_writable(&raidtool_ssacli, "ssacli", buf, sizeof(buf)), 0);
	ck_assert_int_eq(raidtool_writable(&raidtool_megacli, "megacli", buf, sizeof(buf)), -EINVAL);
	ck_assert_str_eq(buf, "megacli is read-only in raidbench: change these controllers with "
			 "storcli or perccli");
	ck_assert_int_eq(raidtool_writable(NULL, "arcconf", buf, sizeof(buf)), -EINVAL);
	ck_assert_str_eq(buf, "arcconf cannot build arrays in raidbench");
	ck_assert(raidtool_own_id(&raidtool_ssacli, "slot=3"));
	ck_assert(!raidtool_own_id(&raidtool_ssacli, "0000:05:00.0"));
	ck_assert(raidtool_own_id(&raidtool_storcli, "/c0"));
	ck_assert(!raidtool_own_id(&raidtool_storcli, "c0"));
	ck_assert(!raidtool_own_id(&raidtool_mdadm, "md0"));
	ck_assert_str_eq(raidtool_id_short(&raidtool_ssacli, "slot=255"), "255");
	ck_assert_str_eq(raidtool_id_short(&raidtool_storcli, "/c0"), "/c0");
	ck_assert_str_eq(raidtool_id_short_what(&raidtool_ssacli), "the controller's slot");
	ck_assert_str_eq(raidtool_id_short_what(&raidtool_storcli), "the controller's id");
	ck_assert(raidtool_same_controller(&raidtool_ssacli, "slot=3", "3"));
	ck_assert(!raidtool_same_controller(&raidtool_ssacli, "slot=3", "4"));
	ck_assert(raidtool_same_controller(&raidtool_storcli, "c0", "/c0"));
	ck_assert(raidtool_same_controller(&raidtool_storcli, "0", "/c0"));
	ck_assert(!raidtool_same_controller(&raidtool_storcli, "1", "/c0"));
	ck_assert(!raidtool_same_controller(&raidtool_mdadm, "md0", "md0"));
}
END_TEST

/* The front door: imports in order, a bad spec named, no vendor tools off the live machine. */
START_TEST(inventory_front_door)
{
	char spec[PATH_MAX + 16], why[1024] = "";
	const char *one[] = { spec }, *bad[] = { "config.txt" }, *unknown[] = { "arcconf:x" };
	struct inventory_source src;
	struct inventory got = { 0 };
	struct raidprobe *p = (struct raidprobe *)&src;	/* not NULL: the read must reset it */

	inventory_source_init(&src);
	ck_assert_str_eq(src.discover.sysfs_root, "/sys");
	src.imports = bad;
	src.nr_imports = 1;
	ck_assert_int_eq(inventory_read(&got, &src, &p, why, sizeof(why)), -EINVAL);
	ck_assert_ptr_null(p);
	ck_assert_str_eq(why, "--import=config.txt: expected TOOL:FILE");
	src.imports = unknown;
	ck_assert_int_eq(inventory_read(&got, &src, &p, why, sizeof(why)), -EINVAL);
	ck_assert_str_eq(why, "unknown import tool 'arcconf' (known: ssacli, storcli, megacli, "
			 "mdadm-detail, mdstat)");
	snprintf(spec, sizeof(spec), "perccli:%s",
		 fixture("storcli/perccli_call-show-all-j_PERC-H755.json"));
	src.imports = one;
	ck_assert_int_eq(inventory_read(&got, &src, &p, why, sizeof(why)), 0);
	ck_assert_ptr_null(p);	/* an import runs no tool */
	ck_assert_uint_eq(got.nr_controllers, 1);
	ck_assert_str_eq(got.controllers[0].source, "storcli");
	ck_assert_uint_eq(inventory_read_collect(NULL, &got), 0);
	inventory_release(&got);
}
END_TEST

START_TEST(argv_format)
{
	const char *a[] = { "/opt/MegaRAID/storcli/storcli64", "/c0", "add", "vd", "r10",
			    "drives=252:0,1;253:4,5", "name=it's", "", NULL };
	char *s = raidtool_argv_format(a);
	struct raidtool_argv av = { 0 };

	ck_assert_str_eq(s, "/opt/MegaRAID/storcli/storcli64 /c0 add vd r10 "
			 "'drives=252:0,1;253:4,5' 'name=it'\\''s' ''");
	free(s);
	ck_assert_int_eq(raidtool_argv_push(&av, "slot=%d", 255), 0);
	ck_assert_str_eq(av.v[0], "slot=255");
	ck_assert_ptr_null(av.v[1]);
	for (int i = 1; i < RAIDTOOL_MAX_ARGS; i++)
		ck_assert_int_eq(raidtool_argv_push(&av, "x"), 0);
	ck_assert_int_eq(raidtool_argv_push(&av, "one too many"), -E2BIG);
	raidtool_argv_release(&av);
}
END_TEST

START_TEST(join_wwn)
{
	const struct raidtool_osdev devs[] = {
		{ "sda", "naa.5000c500ae318bc9" },
		{ "sdb", "naa.600508b1001c37f10bde1911e307c368" },
		{ "sdc", "0x6f4ee080217e1111" },	/* udev's 16-digit ID_WWN */
		{ "sdd", "t10.ATA     SAMSUNG" },
	};

	ck_assert_pstr_eq(raidtool_join_wwn("600508B1001C37F10BDE1911E307C368", devs, 4), "sdb");
	ck_assert_pstr_eq(raidtool_join_wwn("5000C500AE318BC9", devs, 4), "sda");
	ck_assert_pstr_eq(raidtool_join_wwn("6f4ee080217e1111aaaaaaaaaaaaaaaa", devs, 4), "sdc");
	ck_assert_ptr_null(raidtool_join_wwn("600508B1001C6BBD22BCA12CEDF36CB0", devs, 4));
	ck_assert_ptr_null(raidtool_join_wwn("REDACTED", devs, 4));
	ck_assert_ptr_null(raidtool_join_wwn("6f4ee080217exxxxxxxxxxxxxxxxxxxx", devs, 4));
	ck_assert_ptr_null(raidtool_join_wwn(NULL, devs, 4));
}
END_TEST

START_TEST(osdevs_sysfs)
{
	char root[256], path[PATH_MAX + 64];
	struct raidtool_osdev *devs;
	size_t nr;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(rb_test_tmpl(root, sizeof(root), "sys")));
	snprintf(path, sizeof(path), "mkdir -p %s/block/sda/device %s/block/nvme0n1 %s/block/loop0",
		 root, root, root);
	ck_assert_int_eq(system(path), 0);
	snprintf(path, sizeof(path), "%s/block/sda/device/wwid", root);
	f = fopen(path, "w");
	fputs("naa.600508b1001c37f10bde1911e307c368\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/block/nvme0n1/wwid", root);
	f = fopen(path, "w");
	fputs("eui.0025388b91b12345\n", f);
	fclose(f);
	ck_assert_int_eq(raidtool_osdevs_from_sysfs(root, &devs, &nr), 0);
	ck_assert_int_eq(nr, 2);
	ck_assert_pstr_eq(raidtool_join_wwn("600508B1001C37F10BDE1911E307C368", devs, nr), "sda");
	ck_assert_pstr_eq(raidtool_join_wwn("0025388B91B12345", devs, nr), "nvme0n1");
	raidtool_osdevs_free(devs, nr);
	snprintf(path, sizeof(path), "rm -rf %s", root);
	ck_assert_int_eq(system(path), 0);
}
END_TEST

/* A later output of the same controller fills in, a different one is added. */
START_TEST(merge_joins)
{
	struct inventory other = { 0 };
	struct inv_controller *c;
	struct inv_pd *pd;

	import_ok("ssacli", "ssacli/seed000_L362_controller-slot-255-show-config.txt");
	ck_assert_int_eq(import_into("ssacli", "ssacli/seed000_L139_controller-slot-255-pd-all-show-detail.txt"), 0);
	ck_assert_int_eq(import_into("ssacli", "ssacli/seed000_L074_controller-slot-255-show-detail.txt"), 0);
	ck_assert_int_eq(inv.nr_controllers, 1);
	ck_assert_pstr_eq(ctrl(0)->firmware, "6.30-0");
	ck_assert_int_eq(ctrl(0)->nr_arrays, 1);
	ck_assert_pstr_eq(pd_of(ctrl(0), "1I:0:6", "A")->serial, "ZC2341KE0000C95238CU");
	ck_assert_int_eq(ctrl(0)->nr_unassigned, 1);

	/* another source with the same id is another controller */
	c = inv_add_controller(&other);
	c->source = strdup("storcli");
	c->id = strdup("slot=255");
	pd = inv_add_pd(&c->unassigned, &c->nr_unassigned);
	pd->id = strdup("252:0");
	other.md = NULL;
	ck_assert_int_eq(raidtool_merge(&inv, &other), 0);
	ck_assert_int_eq(inv.nr_controllers, 2);
	ck_assert_int_eq(other.nr_controllers, 0);
	inventory_release(&other);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("raidtool");
	TCase *tc = tcase_create("raidtool");

	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, exec_captures);
	tcase_add_test(tc, exec_timeout_kills_group);
	tcase_add_test(tc, exec_daemon_child_not_waited_for);
	tcase_add_test(tc, exec_not_found);
	tcase_add_test(tc, find_on_path);
	tcase_add_test(tc, registry);
	tcase_add_test(tc, registry_members);
	tcase_add_test(tc, inventory_front_door);
	tcase_add_test(tc, argv_format);
	tcase_add_test(tc, join_wwn);
	tcase_add_test(tc, osdevs_sysfs);
	tcase_add_test(tc, merge_joins);
	tcase_add_checked_fixture(tc, NULL, inv_reset);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(suite)
