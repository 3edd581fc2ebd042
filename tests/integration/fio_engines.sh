#!/bin/bash
# The engines that act on files rather than move data (falloc, ftruncate,
# filecreate, filestat, filedelete): each one's effect on the file system,
# and the same I/O counts as fio 3.33 when fio is installed.
. "$(dirname "$0")/lib.sh"
rb_init
need_tool python3 python3
D=$RB_TMP/d
J=$RB_TMP/out.json
mkdir -p "$D"

run_json() { "$RAIDBENCH" run --output-format=json --output="$J" "$@" 2>"$RB_TMP/err"; }
ios() { json_get "$J" "d['jobs'][0]['$1']['total_ios']"; }
# fio_ios DIR ARGS...: fio's total_ios per direction "r,w,t" for the same job
fio_ios() {
	local dir=$1; shift
	(cd "$dir" && fio --output-format=json "$@") 2>/dev/null | python3 -c \
		'import json,sys; j=json.load(sys.stdin)["jobs"][0]; print(",".join(str(j[d]["total_ios"]) for d in ("read","write","trim")))'
}
rb_ios() { echo "$(ios read),$(ios write),$(ios trim)"; }

# filecreate: one empty file per nrfiles, none laid out; filesize/bs I/Os each
if run_json --name=c --directory="$D" --ioengine=filecreate --nrfiles=5 --filesize=8k --bs=4k; then
	check "filecreate made 5 files" [ "$(find "$D" -type f | wc -l)" = 5 ]
	check "filecreate files are empty (not laid out)" [ -z "$(find "$D" -type f -size +0)" ]
	check "filecreate counts 10 I/Os" [ "$(ios read)" = 10 ]
else fail "filecreate run: $(cat "$RB_TMP/err")"; fi

# filestat: the files exist afterwards, each stat counted
for t in stat lstat statx; do
	run_json --name=c --directory="$D" --ioengine=filestat --stat_type=$t --nrfiles=5 \
		--filesize=4k && check "filestat stat_type=$t counts 5" [ "$(ios read)" = 5 ] ||
		fail "filestat $t run: $(cat "$RB_TMP/err")"
done
check "filestat keeps the files" [ "$(find "$D" -type f | wc -l)" = 5 ]
"$RAIDBENCH" run --parse-only --name=c --ioengine=filestat --stat_type=fstat --size=1m \
	2>"$RB_TMP/err" && fail "stat_type=fstat accepted" ||
	check "stat_type=fstat refused by name" grep -q "stat_type.*fstat" "$RB_TMP/err"

# filedelete: laid out, then removed
if run_json --name=c --directory="$D" --ioengine=filedelete --nrfiles=5 --filesize=4k; then
	check "filedelete removed the files" [ "$(find "$D" -type f | wc -l)" = 0 ]
	check "filedelete counts 5" [ "$(ios read)" = 5 ]
else fail "filedelete run: $(cat "$RB_TMP/err")"; fi

# falloc: writes allocate and extend, trims punch holes
F=$D/falloc
if run_json --name=a --filename="$F" --ioengine=falloc --rw=write --size=1m --bs=64k; then
	check "falloc write extends to 1 MiB" [ "$(stat -c %s "$F")" = 1048576 ]
	check "falloc write allocates the blocks" [ "$(du -k "$F" | cut -f1)" -ge 1024 ]
	check "falloc counts 16 writes" [ "$(ios write)" = 16 ]
else fail "falloc write run: $(cat "$RB_TMP/err")"; fi
if run_json --name=a --filename="$F" --ioengine=falloc --rw=trim --size=1m --bs=64k; then
	check "falloc trim punches every block" [ "$(du -k "$F" | cut -f1)" = 0 ]
	check "falloc trim keeps the size" [ "$(stat -c %s "$F")" = 1048576 ]
else fail "falloc trim run: $(cat "$RB_TMP/err")"; fi

# ftruncate: each write sets the length to its offset; reads fail with EINVAL as in fio
F=$D/trunc
if run_json --name=t --filename="$F" --ioengine=ftruncate --rw=write --size=1m --bs=64k; then
	check "ftruncate ends at the last offset" [ "$(stat -c %s "$F")" = $((1048576 - 65536)) ]
else fail "ftruncate run: $(cat "$RB_TMP/err")"; fi
"$RAIDBENCH" run --name=t --filename="$F" --ioengine=ftruncate --rw=read --size=1m \
	>/dev/null 2>"$RB_TMP/err" && fail "ftruncate read succeeded" ||
	check "ftruncate read fails with EINVAL" grep -q "Invalid argument" "$RB_TMP/err"

# the write guard stands before an engine that creates or deletes by name
"$RAIDBENCH" run --name=g --filename=/dev/null --ioengine=filedelete --size=4k \
	>/dev/null 2>"$RB_TMP/err" && fail "filedelete of /dev/null ran" ||
	check "filedelete of /dev/null refused, /dev/null kept" [ -s "$RB_TMP/err" -a -c /dev/null ]

# mmap and splice move real data: what one engine writes, another reads back intact
for e in mmap splice; do
	F=$D/$e.dat
	rm -f "$F"
	if run_json --name=w --filename="$F" --size=1m --bs=16k --rw=randwrite --ioengine=$e \
		--verify=crc32c --do_verify=0; then
		check "$e wrote 64 blocks" [ "$(ios write)" = 64 ]
		run_json --name=r --filename="$F" --size=1m --bs=16k --rw=randwrite --ioengine=psync \
			--verify=crc32c --verify_only=1 &&
			check "psync verifies what $e wrote" [ "$(ios read)" = 64 ] ||
			fail "psync verify of $e's blocks: $(cat "$RB_TMP/err")"
		run_json --name=r --filename="$F" --size=1m --bs=16k --rw=randwrite --ioengine=$e \
			--verify=crc32c --verify_only=1 --direct=1 &&
			check "$e reads them back intact (direct=1)" [ "$(ios read)" = 64 ] ||
			fail "$e verify: $(cat "$RB_TMP/err")"
	else fail "$e write run: $(cat "$RB_TMP/err")"; fi
done

# cpuio: a CPU load for runtime=, each cycle a read of no bytes, as fio counts it
for mode in noop qsort; do
	if run_json --name=c --ioengine=cpuio --cpuload=50 --cpumode=$mode --cpuchunks=20ms --runtime=1; then
		check "cpuio $mode counts cycles" [ "$(ios read)" -ge 1 ]
		check "cpuio $mode moves no bytes" [ "$(json_get "$J" "d['jobs'][0]['read']['io_bytes']")" = 0 ]
		# one sort is not cut short, and this machine may be busy: a loose bound
		check "cpuio $mode ends near its runtime" [ "$(json_get "$J" "d['jobs'][0]['job_runtime']")" -lt 4000 ]
	else fail "cpuio $mode run: $(cat "$RB_TMP/err")"; fi
done
"$RAIDBENCH" run --name=c --ioengine=cpuio --cpuload=50 >/dev/null 2>"$RB_TMP/err" &&
	fail "cpuio without runtime ran" || check "cpuio without runtime refused" grep -q "needs runtime=" "$RB_TMP/err"
(cd "$SRCDIR/tests/fixtures/fio-examples/examples" && "$RAIDBENCH" run --parse-only cpuio.fio) \
	>/dev/null 2>&1 && pass "fio's cpuio.fio parses" || fail "fio's cpuio.fio refused"
# exec runs the job file's program (tests/integration/fio_exec.sh); --parse-only names it
(cd "$SRCDIR/tests/fixtures/fio-examples/examples" && "$RAIDBENCH" run --parse-only exec.fio) \
	>/dev/null 2>"$RB_TMP/err" && check "fio's exec.fio parses, naming its commands" \
	grep -q "job 'monitoring_noop': runs '/usr/sbin/turbostat -c package" "$RB_TMP/err" ||
	fail "exec.fio refused: $(cat "$RB_TMP/err")"

# sg and io_uring_cmd: fio's examples parse; a target that is not SCSI or NVMe is
# refused at setup, naming the engine, the device and why (this machine has neither)
for ex in sg_verify sg_verify-fail sg_write_same_ndob uring-cmd-ng uring-cmd-zoned; do
	(cd "$SRCDIR/tests/fixtures/fio-examples/examples" &&
		"$RAIDBENCH" run --parse-only "$ex.fio") >/dev/null 2>"$RB_TMP/err" &&
		pass "fio's $ex.fio parses" || fail "fio's $ex.fio refused: $(cat "$RB_TMP/err")"
done
truncate -s 1m "$D/plain"
"$RAIDBENCH" run --name=s --filename="$D/plain" --size=1m --ioengine=sg >/dev/null \
	2>"$RB_TMP/err" && fail "sg ran on a regular file" ||
	check "sg refuses a regular file by name" grep -q "ioengine=sg: .*plain does not take SCSI commands" "$RB_TMP/err"
"$RAIDBENCH" run --name=s --filename=/dev/zero --size=1m --ioengine=io_uring_cmd >/dev/null \
	2>"$RB_TMP/err" && fail "io_uring_cmd ran on /dev/zero" ||
	check "io_uring_cmd refuses /dev/zero: not an NVMe namespace" \
		grep -q "io_uring_cmd: /dev/zero is not an NVMe namespace" "$RB_TMP/err"
"$RAIDBENCH" run --parse-only --name=s --ioengine=io_uring_cmd --cmd_type=scsi \
	>/dev/null 2>"$RB_TMP/err" && fail "cmd_type=scsi accepted" ||
	check "cmd_type=scsi refused by name" grep -q "cmd_type.*scsi" "$RB_TMP/err"
"$RAIDBENCH" run --parse-only --name=s --ioengine=sg --sg_write_mode=write_stream \
	>/dev/null 2>"$RB_TMP/err" && fail "sg_write_mode=write_stream accepted" ||
	check "sg_write_mode=write_stream refused by name" grep -q "write_stream is not supported" "$RB_TMP/err"
if [ "$(id -u)" = 0 ] && make_loop 16; then
	for e in sg io_uring_cmd; do
		"$RAIDBENCH" run --name=s --filename="$LOOP_DEV" --ioengine=$e --rw=read \
			>/dev/null 2>"$RB_TMP/err" && fail "$e ran on $LOOP_DEV" ||
			check "$e refuses a loop device by name" grep -q "ioengine=$e: $LOOP_DEV" "$RB_TMP/err"
	done
fi

# mtd and libzbc: fio's examples parse (libzbc's saying it uses the kernel's zoned block
# interface); a target that is no flash or no zoned disk is refused at setup by name
for ex in mtd libzbc-rand-write libzbc-seq-read; do
	(cd "$SRCDIR/tests/fixtures/fio-examples/examples" &&
		"$RAIDBENCH" run --parse-only "$ex.fio") >/dev/null 2>"$RB_TMP/err" &&
		pass "fio's $ex.fio parses" || fail "fio's $ex.fio refused: $(cat "$RB_TMP/err")"
done
check "libzbc's note: the kernel's zoned block interface, not the library" \
	grep -q "libzbc: .*kernel's zoned block interface .*not the libzbc library" "$RB_TMP/err"
"$RAIDBENCH" run --name=m --filename="$D/plain" --size=1m --ioengine=mtd >/dev/null \
	2>"$RB_TMP/err" && fail "mtd ran on a regular file" ||
	check "mtd refuses a regular file by name" grep -q "ioengine=mtd: .*plain is not an MTD flash device" "$RB_TMP/err"
if [ "$(id -u)" = 0 ] && [ -n "${LOOP_DEV:-}" ]; then
	"$RAIDBENCH" run --name=z --filename="$LOOP_DEV" --ioengine=libzbc --zonemode=zbd \
		--rw=write --size=1m >/dev/null 2>"$RB_TMP/err" && fail "libzbc ran on $LOOP_DEV" ||
		check "libzbc refuses a loop device: not zoned" \
			grep -q "ioengine=libzbc: $LOOP_DEV is not a zoned block device" "$RB_TMP/err"
	"$RAIDBENCH" run --name=z --filename="$LOOP_DEV" --ioengine=psync --zonemode=zbd \
		--rw=read --size=1m >/dev/null 2>"$RB_TMP/err" && fail "zonemode=zbd ran on $LOOP_DEV" ||
		check "zonemode=zbd refuses a loop device by name" \
			grep -q "zonemode=zbd: $LOOP_DEV is not a zoned block device" "$RB_TMP/err"
fi

# the same counts as fio
if command -v fio >/dev/null; then
	mkdir -p "$RB_TMP/f1" "$RB_TMP/f2"
	for args in "--ioengine=filecreate --nrfiles=7 --filesize=12k --bs=4k" \
		"--ioengine=filestat --nrfiles=3 --filesize=16k --bs=8k" \
		"--ioengine=falloc --rw=randtrim --size=256k --bs=16k" \
		"--ioengine=falloc --rw=randrw --size=256k --bs=16k" \
		"--ioengine=ftruncate --rw=randwrite --size=256k --bs=16k --norandommap"; do
		rm -rf "$RB_TMP/f1"/* "$RB_TMP/f2"/*
		# shellcheck disable=SC2086
		want=$(fio_ios "$RB_TMP/f1" --name=x $args)
		# shellcheck disable=SC2086
		(cd "$RB_TMP/f2" && run_json --name=x $args)
		check "as fio: $args ($want)" [ "$(rb_ios)" = "$want" ]
	done
fi
rb_done
