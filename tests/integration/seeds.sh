#!/bin/bash
# The seeds' own job files (tests/fixtures/jobs/seed*.fio, taken from
# ../shared/seeds) parse unchanged, and run once their target points at a
# test device or directory (and their sizes and runtimes are shortened).
. "$(dirname "$0")/lib.sh"
rb_init
need_root
need_tool python3 python3
JOBS=$SRCDIR/tests/fixtures/jobs
J=$RB_TMP/out.json

for f in "$JOBS"/seed*.fio; do
	if "$RAIDBENCH" run --parse-only "$f" 2>"$RB_TMP/err"; then
		pass "parse-only $(basename "$f")"
	else
		fail "parse-only $(basename "$f"): $(cat "$RB_TMP/err")"
	fi
done

# seeds/000: four stonewalled phases in a directory
mkdir -p "$RB_TMP/dasd3"
sed -e "s#^directory=.*#directory=$RB_TMP/dasd3/#" -e 's/^runtime=60/runtime=1/' \
	-e 's/^size=2g/size=32m/' -e 's/^io_size=10g/io_size=64m/' \
	"$JOBS/seed000-profile.fio" >"$RB_TMP/s0.fio"
if "$RAIDBENCH" run --output-format=json --output="$J" "$RB_TMP/s0.fio" 2>"$RB_TMP/err"; then
	check "seed000: four groups" [ "$(json_get "$J" "len(set(j['groupid'] for j in d['jobs']))")" = 4 ]
	check "seed000: descriptions kept" [ "$(json_get "$J" "d['jobs'][0]['desc']")" = "Big block reads" ]
	check "seed000: job3 wrote with fsync=1" [ "$(json_get "$J" "d['jobs'][3]['sync']['total_ios'] > 0")" = True ]
	# io_size=64m over size=32m with loops=4: four passes of the 32 MiB, as fio
	# 3.33 (128 reads; fewer only where runtime=1 cut the job short)
	check "seed000: job0 read 128 MiB in 1 MiB blocks, as fio" [ "$(json_get "$J" \
		"(lambda j: j['read']['total_ios'] == 128 or j['job_runtime'] >= 990 and j['read']['total_ios'] < 128)(d['jobs'][0])")" = True ]
else fail "seed000 run: $(cat "$RB_TMP/err")"; fi

# seeds/001: 16 sync jobs, one file each
mkdir -p "$RB_TMP/iops"
sed -e "s#^directory=.*#directory=$RB_TMP/iops#" -e 's/^size=1g/size=8m/' \
	"$JOBS/seed001-random.fio" >"$RB_TMP/s1.fio"
if "$RAIDBENCH" run --output-format=json --output="$J" "$RB_TMP/s1.fio" 2>"$RB_TMP/err"; then
	check "seed001: 16 jobs merged by group_reporting" [ "$(json_get "$J" "len(d['jobs'])")" = 1 ]
	check "seed001: every block of 16 files read once" [ "$(json_get "$J" "d['jobs'][0]['read']['total_ios']")" = 32768 ]
else fail "seed001 run: $(cat "$RB_TMP/err")"; fi

# seeds/002: 1 MiB random read and write on a device, its command line
make_loop 256
for f in seed002-1024K-rand-read seed002-1024K-rand-write; do
	sed -e "s#^filename=/dev/sda#filename=$LOOP_DEV#" "$JOBS/$f.fio" >"$RB_TMP/$f.fio"
	if "$RAIDBENCH" run --output-format=json --output="$J" --time_based=1 --thinktime=0 \
		--runtime=2 --iodepth=64 --ramp_time=1 --group_reporting "$RB_TMP/$f.fio" 2>"$RB_TMP/err"; then
		check "$f: ran with iodepth 64" [ "$(json_get "$J" "d['jobs'][0]['latency_depth']")" = 64 ]
		check "$f: did I/O" [ "$(json_get "$J" "d['jobs'][0]['read']['total_ios'] + d['jobs'][0]['write']['total_ios'] > 0")" = True ]
	else fail "$f run: $(cat "$RB_TMP/err")"; fi
done

# seeds/004: the vetting command line as written, on a 5 GiB (sparse) loop device
make_loop 5120
if "$RAIDBENCH" run --output-format=json --output="$J" --filename="$LOOP_DEV" --direct=1 \
	--rw=randwrite --bs=4k --size=5G --numjobs=64 --runtime=10 --group_reporting \
	--name=file1 2>"$RB_TMP/err"; then
	check "seed004: 64 jobs in one report" [ "$(json_get "$J" "len(d['jobs'])")" = 1 ]
	check "seed004: wrote" [ "$(json_get "$J" "d['jobs'][0]['write']['total_ios'] > 0")" = True ]
else fail "seed004 run: $(cat "$RB_TMP/err")"; fi
rb_done
