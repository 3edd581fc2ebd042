#!/bin/bash
# fio job options with effects of their own (and the e4defrag engine, which
# needs the same ext4 file system): fill_device (ends at ENOSPC),
# latency_target (the depth search), exitall, write_iolog (fio's iolog v3,
# replayed by fio itself to the same I/Os) and zonemode=zbd (refused by name
# on a device that is not zoned).
. "$(dirname "$0")/lib.sh"
rb_init
need_root
need_tool python3 python3
need_tool mkfs.ext4 e2fsprogs
J=$RB_TMP/out.json
run_json() { "$RAIDBENCH" run --output-format=json --output="$J" "$@" 2>"$RB_TMP/err"; }
jget() { json_get "$J" "$1"; }
# read and write I/O counts: fio_ios of fio's JSON on stdin, rb_ios of raidbench's last run
fio_ios() {
	python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]; print(j["read"]["total_ios"], j["write"]["total_ios"])'
}
rb_ios() { jget "'%d %d' % (d['jobs'][0]['read']['total_ios'], d['jobs'][0]['write']['total_ios'])"; }
# the I/Os of an iolog: file, direction, offset and length
iolog_ios() { awk '$3 ~ /^(read|write|trim)$/ {print $2, $3, $4, $5}' "$1"; }
# as_fio_iolog WHAT ARGS: the job ARGS (after --name=x --ioengine=null --bs=4k) run by
# fio and by raidbench, each with write_iolog=: the counts are fio's and, at iodepth 1,
# each I/O in the log (fio's log at a depth over 1 shows an I/O the null engine turned
# back twice)
as_fio_iolog() {
	local what=$1 want
	shift
	rm -f "$RB_TMP/fio.iolog" "$RB_TMP/rb.iolog"
	want=$(fio --name=x --ioengine=null --bs=4k "$@" --verify_state_save=0 \
		--write_iolog="$RB_TMP/fio.iolog" --output-format=json 2>/dev/null | fio_ios)
	run_json --name=x --ioengine=null --bs=4k "$@" --write_iolog="$RB_TMP/rb.iolog"
	check "as fio, $what: $* ($want)" [ "$(rb_ios)" = "$want" ]
	case " $* " in *" --iodepth="*) ;; *)
		check "as fio, $what, the same offsets: $*" cmp -s \
			<(iolog_ios "$RB_TMP/fio.iolog") <(iolog_ios "$RB_TMP/rb.iolog") ;;
	esac
	rm -f "$RB_TMP/fio.iolog" "$RB_TMP/rb.iolog"
}
# as_fio_timed WHAT ARGS: the same as a one-second time_based job; its first 400 I/Os
# in write_iolog= are fio's (a timed run's counts are the machine's, not the rule's)
as_fio_timed() {
	local what=$1
	shift
	rm -f "$RB_TMP/fio.iolog" "$RB_TMP/rb.iolog"
	fio --name=x --ioengine=null --bs=4k --time_based --runtime=1 "$@" \
		--write_iolog="$RB_TMP/fio.iolog" --output-format=json >/dev/null 2>&1
	run_json --name=x --ioengine=null --bs=4k --time_based --runtime=1 "$@" \
		--write_iolog="$RB_TMP/rb.iolog"
	check "as fio, $what, time_based, the same first I/Os: $*" cmp -s \
		<(iolog_ios "$RB_TMP/fio.iolog" | head -400) <(iolog_ios "$RB_TMP/rb.iolog" | head -400)
	rm -f "$RB_TMP/fio.iolog" "$RB_TMP/rb.iolog"
}

# fill_device on a small file system: writes until ENOSPC, then ends without an error
make_loop 32 || rb_skip "cannot attach a loop device"
MNT=$RB_TMP/mnt
mkdir -p "$MNT"
if mkfs.ext4 -q "$LOOP_DEV" && mount "$LOOP_DEV" "$MNT"; then
	RB_MOUNTS+=("$MNT")
	if run_json --name=fill --filename="$MNT/fill.dat" --rw=write --bs=64k --direct=1 \
		--ioengine=sync --fill_device=1; then
		check "fill_device ends without an error" [ "$(jget "d['jobs'][0]['error']")" = 0 ]
		free=$(df -B1 --output=avail "$MNT" | tail -1)
		check "fill_device left under 64 KiB free ($free)" [ "$free" -lt 65536 ]
		check "fill_device wrote what the file holds" \
			[ "$(jget "d['jobs'][0]['write']['io_bytes']")" = "$(stat -c %s "$MNT/fill.dat")" ]
	else fail "fill_device run: $(cat "$RB_TMP/err")"; fi
	if command -v fio >/dev/null; then
		rm -f "$MNT/fill.dat"
		fio --output-format=json --name=fill --filename="$MNT/fill.dat" --rw=write --bs=64k \
			--direct=1 --ioengine=sync --fill_device=1 2>/dev/null | sed -n '/^{/,$p' >"$RB_TMP/fio.json"
		want=$(json_get "$RB_TMP/fio.json" "(d['jobs'][0]['write']['total_ios'], d['jobs'][0]['write']['io_bytes'])")
		rm -f "$MNT/fill.dat"
		run_json --name=fill --filename="$MNT/fill.dat" --rw=write --bs=64k --direct=1 \
			--ioengine=sync --fill_device=1
		check "fill_device: the same I/Os and bytes as fio $want" \
			[ "$(jget "(d['jobs'][0]['write']['total_ios'], d['jobs'][0]['write']['io_bytes'])")" = "$want" ]
	fi
	# e4defrag: extents move onto the donor's blocks; the file's data does not change
	rm -f "$MNT/fill.dat"
	"$RAIDBENCH" run --name=w --filename="$MNT/f" --size=4m --bs=64k --rw=randwrite \
		--ioengine=psync >/dev/null 2>&1
	sum=$(sha256sum <"$MNT/f")
	for inplace in 0 1; do
		if run_json --name=d --directory="$MNT" --filename=f --size=4m --bs=32k --rw=randwrite \
			--ioengine=e4defrag --donorname=donor$inplace --inplace=$inplace; then
			check "e4defrag inplace=$inplace moved every block" \
				[ "$(jget "d['jobs'][0]['write']['io_bytes']")" = 4194304 ]
			check "e4defrag inplace=$inplace left the data as it was" [ "$(sha256sum <"$MNT/f")" = "$sum" ]
		else fail "e4defrag inplace=$inplace: $(cat "$RB_TMP/err")"; fi
	done
	check "e4defrag inplace=1 empties its donor" [ "$(stat -c %s "$MNT/donor1")" = 0 ]
	"$RAIDBENCH" run --name=d --directory="$MNT" --filename=f --size=4m --ioengine=e4defrag \
		>/dev/null 2>"$RB_TMP/err" && fail "e4defrag without donorname ran" ||
		check "e4defrag without donorname refused" grep -q "needs donorname=" "$RB_TMP/err"
	# the donor is written: a mounted device as the donor is refused at setup, by name
	"$RAIDBENCH" run --name=d --directory="$MNT" --filename=f --size=4m --ioengine=e4defrag \
		--rw=randwrite --donorname="$LOOP_DEV" >/dev/null 2>"$RB_TMP/err" &&
		fail "e4defrag with the mounted $LOOP_DEV as its donor ran" ||
		check "e4defrag's donor goes through the write guard" \
			grep -q "job 'd': ioengine=e4defrag's output: .*$LOOP_DEV" "$RB_TMP/err"
	(cd "$SRCDIR/tests/fixtures/fio-examples/examples" &&
		"$RAIDBENCH" run --parse-only e4defrag.fio && "$RAIDBENCH" run --parse-only e4defrag2.fio) \
		>/dev/null 2>&1 && pass "fio's e4defrag examples parse" || fail "fio's e4defrag examples refused"
	umount "$MNT"
	RB_MOUNTS=()
else fail "cannot make or mount an ext4 file system on $LOOP_DEV"; fi

# zonemode=zbd: a loop device is not zoned; the refusal names the option and the device
"$RAIDBENCH" run --name=z --filename="$LOOP_DEV" --zonemode=zbd --zonesize=1m \
	--max_open_zones=4 --rw=randwrite --bs=64k >/dev/null 2>"$RB_TMP/err" &&
	fail "zonemode=zbd ran on a loop device" ||
	check "zonemode=zbd refused: not a zoned block device" \
		grep -q "zonemode=zbd: $LOOP_DEV is not a zoned block device" "$RB_TMP/err"
"$RAIDBENCH" run --parse-only --name=z --filename="$LOOP_DEV" --zonemode=zbd \
	--zonesize=1m --max_open_zones=4 >/dev/null 2>&1
check "zonemode=zbd and its options parse" [ $? = 0 ]

# latency_target: a target no I/O can meet ends the search at depth 1; an easy one climbs
F=$RB_TMP/f.dat
if run_json --name=l --filename="$F" --size=4m --rw=randread --ioengine=libaio --iodepth=16 \
	--latency_target=1 --latency_window=10ms --time_based --runtime=2; then
	check "latency_target unmet: depth 1" [ "$(jget "d['jobs'][0]['latency_depth']")" = 1 ]
	check "latency_target is reported in usec" [ "$(jget "d['jobs'][0]['latency_target']")" = 1 ]
else fail "latency_target run: $(cat "$RB_TMP/err")"; fi
if run_json --name=l --filename="$F" --size=4m --rw=randread --ioengine=null --iodepth=16 \
	--latency_target=10s --latency_window=5ms --latency_percentile=99 --time_based --runtime=5; then
	check "latency_target met: the search reaches iodepth" [ "$(jget "d['jobs'][0]['latency_depth']")" = 16 ]
	check "latency_target met: the job ends before its runtime" \
		[ "$(jget "d['jobs'][0]['job_runtime']")" -lt 4000 ]
	check "latency_percentile reported" [ "$(jget "d['jobs'][0]['latency_percentile']")" = 99.0 ]
else fail "latency_target run: $(cat "$RB_TMP/err")"; fi

# exitall: the short job's end stops its time_based sibling
if run_json --name=a --ioengine=null --size=1m --exitall \
	--name=b --ioengine=null --size=1m --time_based --runtime=20; then
	check "exitall stopped the sibling early" [ "$(jget "d['jobs'][1]['job_runtime']")" -lt 5000 ]
else fail "exitall run: $(cat "$RB_TMP/err")"; fi

# write_iolog: fio's version 3 format; fio replays it to the same I/O counts
LOG=$RB_TMP/io.log
if run_json --name=w --filename="$F" --size=1m --bs=4k --rw=randrw --ioengine=psync \
	--write_iolog="$LOG"; then
	check "iolog header" [ "$(head -1 "$LOG")" = "fio version 3 iolog" ]
	check "iolog: one line per I/O" [ "$(grep -cE ' (read|write) ' "$LOG")" = 256 ]
	check "iolog: add, open and close of the file" \
		[ "$(grep -cE " $F (add|open|close)$" "$LOG")" = 3 ]
	if command -v fio >/dev/null; then
		fio --output-format=json --name=r --read_iolog="$LOG" --ioengine=psync \
			2>/dev/null | sed -n '/^{/,$p' >"$RB_TMP/fio.json"
		check "fio replays the iolog to the same counts" \
			[ "$(json_get "$RB_TMP/fio.json" "(d['jobs'][0]['read']['total_ios'], d['jobs'][0]['write']['total_ios'])")" = \
			  "$(jget "(d['jobs'][0]['read']['total_ios'], d['jobs'][0]['write']['total_ios'])")" ]
	fi
else fail "write_iolog run: $(cat "$RB_TMP/err")"; fi
# flow: two jobs of one flow_id keep their I/O counts in the ratio of their weights.
# The job left last in a flow runs free (its share is then all of it, as in
# fio); a thinktime keeps that tail to a few I/Os, where the null engine would
# otherwise do thousands in the last milliseconds. Not a rate cap: a job the
# flow held back is behind its rate schedule and catches up in one burst once
# its partner has left (seen under ASan on a loaded machine: 1:2 came out 3.05).
# flow_ratio LO HI OPTIONS...: the second job's I/Os over the first's, in
# range in one of two runs (a machine loaded enough to stall a thread for a
# second can skew one run; a wrong flow skews both)
flow_ratio() {
	local lo=$1 hi=$2 try
	shift 2
	for try in 1 2; do
		run_json "$@" || { r="run failed: $(cat "$RB_TMP/err")"; continue; }
		r=$(jget "round(d['jobs'][1]['read']['total_ios'] / d['jobs'][0]['read']['total_ios'], 2)")
		python3 -c "import sys; sys.exit(not $lo <= $r <= $hi)" && return 0
	done
	return 1
}
check_flow() { local name=$1; shift; if flow_ratio "$@"; then pass "$name ($r)"; else fail "$name ($r)"; fi; }
check_flow "flow 1:4 gives an I/O ratio near 4" 3.5 4.5 \
	--name=f1 --ioengine=null --size=100g --flow_id=3 --flow=1 --thinktime=2000 --runtime=2 \
	--name=f2 --ioengine=null --size=100g --flow_id=3 --flow=4 --thinktime=400 --runtime=2
# rw=read:N: the pass ends where an I/O would run over the end (fio's t0007: 85 of 128 MiB)
if run_json --name=g --ioengine=null --size=128m --rw=read:512k --bs=1m; then
	check "read:512k reads 85 blocks of 128 MiB, as fio" [ "$(jget "d['jobs'][0]['read']['io_kbytes']")" = 87040 ]
else fail "read:512k run: $(cat "$RB_TMP/err")"; fi
# and where holes wrap to the start or end the pass, the same counts as fio
if command -v fio >/dev/null; then
	for a in "--size=16m --rw=read:512k --bs=1m" "--size=96k --rw=read:8k --bs=4k" \
		"--size=64k --rw=read:3k --bs=2k" "--size=64k --rw=write:8k --bs=4k --loops=2" \
		"--size=64k --rw=rw:4k --bs=4k"; do
		# shellcheck disable=SC2086
		want=$(fio --name=x --ioengine=null $a --output-format=json 2>/dev/null |
			fio_ios)
		# shellcheck disable=SC2086
		run_json --name=x --ioengine=null $a
		check "as fio: $a ($want)" [ "$(rb_ios)" = "$want" ]
	done
	# a pass short of size= (holes) runs again after its verify, and io_size= runs
	# passes with or without one: writes and read-backs of all passes count.
	# io_size= past size=: a pass ends where the region runs out (at its end, a
	# full map) or, on an engine that queues, at size= bytes; loops= such passes,
	# then more while short of io_size= (seeds/000's 128 reads, not 256); rw=rw's
	# pass ends where the direction it picks has reached the end. Holes that wrap
	# (write:-16k to the end, write:4k to the start) make one pass of all loops,
	# verified once, unless the engine queues: then each pass ends at size= bytes.
	# io_size= (or size=) bounds the job's bytes of all loops, not a pass: with
	# io_size= below size= or with loops=, fio's synchronous rw=rw pass runs on
	# until the direction it picks is at the end, a random pass with a map until
	# a pick finds it full (that pick's draws are spent: randseed= shows it, as
	# the generators then run on from pass to pass), so the mix differs by pass.
	# Trims count among the bytes moved toward io_size= (trimwrite: two passes
	# of writes and trims, 32/32), and a trim job's own bytes are its trims.
	# Several files: a file is done for the pass once it has no offset for the
	# direction picked (at its end, a full map), the next one in turn is asked
	# with a new pick, and the pass ends when every file is done.
	# size= is not rounded to the block size: random I/O with no map runs
	# until its bytes reach it (1026k of 4k blocks: 257), a size of a range
	# fits up to it (12k-40k: a 40k block at 4056k of 4098k), and where not
	# even the smallest size fits, a sequential pass ends there.
	# number_ios bounds the I/Os of all passes together (number_ios x loops,
	# trims counted); (rand)trimwrite's limit doubles as each pass begins
	# (10 and loops=2: 40 trims and 40 writes)
	for a in "--size=1026k --rw=randwrite --norandommap --bs=4k --iodepth=4" \
		"--size=2050k --rw=randwrite --norandommap --bsrange=4k-64k" \
		"--size=4098k --rw=randread --norandommap --bsrange=12k-40k --iodepth=16" \
		"--size=4096k --rw=read --bsrange=12k-40k" \
		"--size=1m --bs=4k --rw=trimwrite --number_ios=100 --iodepth=4" \
		"--size=1m --bs=4k --rw=trimwrite --number_ios=10 --loops=2" \
		"--size=1m --bs=4k --rw=randtrimwrite --number_ios=100 --loops=3" \
		"--size=1m --bs=4k --rw=randtrim --number_ios=10 --loops=3" \
		"--size=1m --rw=write:16k --bs=4k --verify=crc32c" \
		"--size=1m --rw=write:16k --bs=4k --verify=crc32c --loops=2" \
		"--size=1m --rw=rw:16k --bs=4k --verify=crc32c" \
		"--size=1m --rw=write:16k --bs=4k --verify=crc32c --number_ios=130" \
		"--size=1m --rw=write:16k --bs=4k --verify=crc32c --verify_backlog=8" \
		"--size=1m --rw=write:16k --bs=4k --verify=crc32c --io_size=512k" \
		"--size=1m --rw=write:16k --bs=4k --verify=crc32c --do_verify=0" \
		"--size=1m --rw=write:16k --bs=4k --io_size=3m" \
		"--size=1m --rw=randwrite --bs=4k --io_size=3m" \
		"--size=4m --io_size=8m --loops=4 --bs=1m --rw=read" \
		"--size=4m --io_size=8m --loops=4 --bs=1m --rw=read --runtime=60" \
		"--size=32m --io_size=64m --loops=4 --bs=1m --rw=read --iodepth=32" \
		"--size=4m --io_size=10m --loops=2 --bs=1m --rw=write" \
		"--size=4m --io_size=8m --loops=4 --bs=1m --rw=write --verify=crc32c" \
		"--size=4m --io_size=10m --bs=1m --rw=write --verify=crc32c" \
		"--size=4m --io_size=8m --loops=4 --bs=1m --rw=randread --norandommap" \
		"--size=4m --io_size=8m --loops=4 --bs=1m --rw=randread --norandommap --iodepth=4" \
		"--size=64k --io_size=256k --loops=2 --bs=4k --rw=write:4k --iodepth=4" \
		"--size=4m --io_size=8m --loops=2 --bs=1m --rw=rw" \
		"--size=1m --io_size=3m --loops=3 --bs=4k --rw=rw --iodepth=8" \
		"--size=4m --io_size=8m --loops=4 --bs=1m --rw=rw --verify=crc32c" \
		"--size=1m --io_size=3m --bs=4k --rw=rw --verify=crc32c --verify_backlog=8" \
		"--size=1m --io_size=3m --bs=4k --rw=randrw --verify=crc32c --verify_backlog=8" \
		"--size=1m --rw=write:-16k --bs=4k --verify=crc32c --loops=2" \
		"--size=64k --rw=write:-8k --bs=4k --verify=crc32c --loops=2 --iodepth=4" \
		"--size=64k --rw=write:4k --bs=4k --verify=crc32c --loops=2 --iodepth=4" \
		"--size=4m --io_size=2m --loops=4 --bs=1m --rw=rw" \
		"--size=4m --io_size=2m --loops=4 --bs=1m --rw=randrw" \
		"--size=4m --io_size=2m --loops=4 --bs=1m --rw=rw --iodepth=4" \
		"--size=4m --io_size=2m --loops=4 --bs=1m --rw=rw --verify=crc32c" \
		"--size=32k --io_size=16k --loops=4 --bs=4k --rw=rw" \
		"--size=64k --io_size=24k --loops=4 --bs=4k --rw=randrw" \
		"--size=64k --io_size=24k --loops=4 --bs=4k --rw=randrw --randseed=7" \
		"--size=64k --io_size=24k --loops=4 --bs=4k --rw=randrw --randseed=9 --verify=crc32c" \
		"--size=4m --loops=2 --bs=1m --rw=rw" \
		"--size=64k --loops=4 --bs=4k --rw=rw" \
		"--size=64k --loops=4 --bs=4k --rw=randrw --randseed=2" \
		"--size=64k --io_size=160k --bs=4k --rw=trimwrite" \
		"--size=64k --io_size=160k --bs=4k --rw=randtrimwrite" \
		"--size=64k --io_size=160k --bs=4k --rw=trim" \
		"--size=64k --io_size=160k --bs=4k --rw=randtrim" \
		"--size=64k --io_size=160k --loops=2 --bs=4k --rw=trim" \
		"--size=64k --io_size=100k --bs=4k --rw=randtrim" \
		"--nrfiles=2 --size=64k --loops=2 --bs=4k --rw=rw" \
		"--nrfiles=2 --size=64k --loops=4 --bs=4k --rw=rw" \
		"--nrfiles=2 --size=64k --io_size=48k --loops=2 --bs=4k --rw=rw" \
		"--nrfiles=2 --size=64k --loops=2 --bs=4k --rw=rw --verify=crc32c" \
		"--nrfiles=3 --filesize=16k --loops=2 --bs=4k --rw=rw" \
		"--nrfiles=3 --filesize=16k --io_size=128k --bs=4k --rw=rw" \
		"--nrfiles=2 --size=64k --loops=3 --bs=4k --rw=randrw --randseed=9" \
		"--nrfiles=2 --size=64k --io_size=160k --bs=4k --rw=randrw --randseed=3" \
		"--nrfiles=3 --filesize=16k --io_size=160k --bs=4k --rw=randrw --randseed=3"; do
		# shellcheck disable=SC2086
		want=$(fio --name=x --ioengine=null $a --verify_state_save=0 --output-format=json 2>/dev/null |
			python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]; print(j["read"]["total_ios"], j["write"]["total_ios"], j["trim"]["total_ios"])')
		# shellcheck disable=SC2086
		run_json --name=x --ioengine=null $a
		check "as fio: $a ($want)" [ "$(jget "'%d %d %d' % (d['jobs'][0]['read']['total_ios'], d['jobs'][0]['write']['total_ios'], d['jobs'][0]['trim']['total_ios'])")" = "$want" ]
	done
fi
# the same passes on a small file with a synchronous engine (fio 7 1, 6 2, 10 14)
if command -v fio >/dev/null; then
	for a in "--size=4m --io_size=2m --loops=4 --bs=1m --rw=rw" \
		"--size=4m --io_size=2m --loops=4 --bs=1m --rw=randrw" \
		"--size=64k --io_size=24k --loops=4 --bs=4k --rw=randrw --randseed=7"; do
		rm -f "$RB_TMP/mix.dat"
		# shellcheck disable=SC2086
		want=$(fio --name=x --ioengine=psync --filename="$RB_TMP/mix.dat" $a --output-format=json 2>/dev/null |
			fio_ios)
		rm -f "$RB_TMP/mix.dat"
		# shellcheck disable=SC2086
		run_json --name=x --ioengine=psync --filename="$RB_TMP/mix.dat" $a
		check "as fio on a file: $a ($want)" [ "$(rb_ios)" = "$want" ]
	done
	rm -f "$RB_TMP/mix.dat"
fi
# filesize=: the file is that long and the region what follows offset=; a range draws
# each new file's size as fio's seed table does, and a file already in the range keeps
# its size (fio 3.33 side by side: counts and the files' sizes)
if command -v fio >/dev/null; then
	FD=$RB_TMP/fsz
	sizes() { find "$FD" -type f -printf '%f:%s\n' | sort | tr '\n' ' '; }
	for a in "--filesize=1m --offset=256k --rw=read" \
		"--nrfiles=3 --filesize=8k-32k --rw=randrw --randseed=5" \
		"--nrfiles=4 --filesize=64k:1m --rw=write --randseed=9" \
		"--nrfiles=3 --filesize=8k-32k --rw=read --randseed=77 --pre=16k"; do
		rm -rf "$FD"
		mkdir -p "$FD"
		pre=${a##*--pre=}
		[ "$pre" != "$a" ] && a=${a% --pre=*} && for i in 0 1 2; do
			truncate -s "$pre" "$FD/x.0.$i"
		done
		# shellcheck disable=SC2086
		want=$(fio --name=x --ioengine=psync --directory="$FD" --bs=4k $a --output-format=json 2>/dev/null |
			fio_ios)
		want="$want $(sizes)"
		rm -rf "$FD"
		mkdir -p "$FD"
		[ "$pre" != "$a" ] && for i in 0 1 2; do truncate -s "$pre" "$FD/x.0.$i"; done
		# shellcheck disable=SC2086
		run_json --name=x --ioengine=psync --directory="$FD" --bs=4k $a
		check "as fio, filesize: $a ($want)" \
			[ "$(rb_ios) $(sizes)" = "$want" ]
	done
	rm -rf "$FD"
fi
# rw=randread:N: a random offset every Nth I/O (the first included, none with N=0),
# the others sequential from the direction's last I/O or, rw_sequencer=identical,
# the same offset again; they leave the map alone, so a pass runs past the region,
# taking a random block at the file's end. With several files, one whose pick
# finds no room is set aside for the pass while the others go on. number_ios
# with loops= is one limit over all passes: fio's first pass draws all 30. The counts
# and, at iodepth 1, the file and offset of each I/O in write_iolog= are fio's
if command -v fio >/dev/null; then
	for a in "--size=1m --rw=randread:4" "--size=1m --rw=randwrite:8 --randseed=77" \
		"--size=1m --rw=randrw:0" "--size=1m --rw=randrw:3 --rw_sequencer=identical" \
		"--size=1m --rw=randrw:3 --rw_sequencer=identical --randrepeat=0 --randseed=3" \
		"--size=1m --rw=randread:4 --loops=2" "--size=1m --rw=randrw:0 --io_size=3m" \
		"--size=1m --rw=randwrite:8 --io_size=3m --loops=2" \
		"--size=1m --rw=randrw:3 --rw_sequencer=identical --io_size=3m" \
		"--size=1m --rw=randrw:0 --io_size=3m --verify=crc32c --verify_backlog=8" \
		"--size=1002k --rw=randread:4" "--size=1m --rw=randread --percentage_random=50" \
		"--size=1m --rw=randtrimwrite:4" "--size=1m --rw=randread:4 --nrfiles=2 --io_size=8m" \
		"--size=1m --rw=randrw:3 --rw_sequencer=identical --nrfiles=2 --io_size=8m" \
		"--size=1m --rw=randread:2 --nrfiles=3 --io_size=2m" \
		"--size=1002k --rw=randrw:2 --io_size=4m --loops=2" \
		"--size=1m --rw=randrw --bsrange=4k-16k --nrfiles=2 --io_size=3m" \
		"--size=1m --rw=randread --nrfiles=3 --io_size=3m --randseed=3" \
		"--size=1m --rw=randread --number_ios=10 --loops=3" \
		"--size=1m --rw=randread:8k" "--size=1m --rw=randrw:4m --rw_sequencer=identical" \
		"--size=1m --rw=randtrimwrite:2k" "--size=1m --rw=randwrite:+3x --randseed=5"; do
		# shellcheck disable=SC2086
		as_fio_iolog "rw=...:N" $a
	done
fi
# a timed job with a random map: when the map fills, fio starts over on the
# file inside its pass (every block free, the sequential picks of :N and
# percentage_random back at the start, the draws going on, not reseeded); a
# sequential one with sizes of a range wraps with the sizes drawn on. The
# first 400 I/Os in write_iolog= are fio's
if command -v fio >/dev/null; then
	for a in "--size=64k --rw=randread" "--size=64k --rw=randrw --randrepeat=0 --randseed=5" \
		"--size=64k --rw=randread:4" "--size=64k --rw=randread --percentage_random=50" \
		"--size=64k --rw=randrw:3 --rw_sequencer=identical" "--size=128k --rw=randrw:2" \
		"--size=64k --rw=read --bsrange=4k-16k" "--size=64k --rw=randread --random_generator=lfsr" \
		"--size=64k --rw=randwrite --random_distribution=zipf:1.2" \
		"--size=64k --rw=randread --random_generator=lfsr --random_distribution=zoned:50/10:50/90"; do
		# shellcheck disable=SC2086
		as_fio_timed "the map full" $a
	done
fi
# random_distribution=zipf, pareto and normal, and random_generator=lfsr, drawn as fio
# draws them: a generator per file seeded from the hash of its name (randrepeat) or
# the offsets' seed (randseed=), over the region in blocks of the smaller read or write
# size with a partial last block counted (a draw there ends the file's pass), the rank
# hashed over the range and shifted by center (normal's too: a popularity, not a bell
# on the device); lfsr is fio's register, reset at each loop, norandommap or not, and
# zoned draws from it. The counts, and at iodepth 1 each I/O in write_iolog=, are fio's
if command -v fio >/dev/null; then
	for a in "--size=1m --rw=randread --random_distribution=zipf:1.2" \
		"--size=1m --rw=randwrite --random_distribution=zipf:0.8" \
		"--size=1m --rw=randread --random_distribution=zipf:-0.5" \
		"--size=1m --rw=randread --random_distribution=pareto:0.5" \
		"--size=1m --rw=randread --random_distribution=normal:10" \
		"--size=2m --rw=randread --random_distribution=normal:10:0.25" \
		"--size=2m --rw=randread --random_distribution=zipf:1.2:0.3" \
		"--size=1026k --rw=randread --random_distribution=normal:40" \
		"--size=3m --rw=randrw --random_distribution=zipf:1.2 --nrfiles=2" \
		"--size=2m --rw=randread --random_distribution=zipf:1.2 --randseed=42" \
		"--size=2m --rw=randread --random_distribution=normal:10 --randseed=7 --randrepeat=0" \
		"--size=2m --rw=randwrite --random_distribution=pareto:0.3 --bsrange=4k-16k" \
		"--size=2m --rw=randread --random_distribution=zipf:1.2 --loops=2" \
		"--size=1m --rw=randread --random_distribution=zipf:1.2 --filename=name_past_12_bytes.dat" \
		"--size=1m --rw=randread --random_generator=lfsr" \
		"--size=1000k --rw=randread --random_generator=lfsr" \
		"--size=12345k --rw=randread --random_generator=lfsr" \
		"--size=3m --rw=randwrite --random_generator=lfsr --nrfiles=2" \
		"--size=2m --rw=randwrite --random_generator=lfsr --norandommap --loops=3" \
		"--size=2m --rw=randrw --random_generator=lfsr --randseed=42 --randrepeat=0" \
		"--size=2m --rw=randread --random_generator=lfsr --randseed=42 --loops=2" \
		"--size=2m --rw=randread --random_generator=lfsr --bsrange=4k-16k" \
		"--size=2m --rw=randread:4 --random_generator=lfsr" \
		"--size=2m --rw=randread --random_generator=lfsr --random_distribution=zoned:50/10:50/90"; do
		# shellcheck disable=SC2086
		as_fio_iolog "distribution or lfsr" $a
	done
fi
# size= over nrfiles=: each file's region is its share unrounded (the first files a block
# more while the division's rest holds whole blocks), and the job's bytes are bounded by
# that sum, not by the regions' whole blocks: the I/O that starts below the bound is
# issued (fio's 256 reads for randread:2 over 3 files of 1 MiB, not 255). Counts, and at
# iodepth 1 the file and offset of each I/O, are fio's
if command -v fio >/dev/null; then
	for a in "--size=1m --nrfiles=3 --rw=randread:2" "--size=1m --nrfiles=3 --rw=read" \
		"--size=1m --nrfiles=5 --bs=12k --rw=randread:2" "--size=1m --nrfiles=7 --bs=12k --rw=randread" \
		"--size=1000k --nrfiles=7 --bs=12k --rw=rw" "--size=999k --nrfiles=5 --rw=rw" \
		"--size=999k --nrfiles=5 --rw=randread:2" "--size=1m --nrfiles=3 --rw=randrw --norandommap" \
		"--size=2000999 --nrfiles=1000 --bs=512 --rw=read" \
		"--size=1022k --rw=rw" "--size=1022k --rw=rw --verify=crc32c" \
		"--size=1m --io_size=3070k --rw=read" "--size=1022k --rw=randread --norandommap" \
		"--size=1m --nrfiles=3 --rw=randread:2 --iodepth=4" "--size=1m --nrfiles=3 --rw=rw --iodepth=4" \
		"--size=1m --nrfiles=7 --bs=12k --rw=randread:2 --iodepth=8"; do
		# shellcheck disable=SC2086
		as_fio_iolog "size= over the files" $a
	done
	# and on files: laid out as long as their share, the partial last block too
	FD=$RB_TMP/share
	shares() { find "$FD" -type f -printf '%f:%s\n' | sort | tr '\n' ' '; }
	for a in "--nrfiles=3 --size=1m --rw=randread:2" "--nrfiles=7 --size=1000k --bs=12k --rw=randrw:2" \
		"--size=1022k --rw=rw --direct=1"; do
		rm -rf "$FD" && mkdir -p "$FD"
		# shellcheck disable=SC2086
		want=$(fio --name=x --ioengine=psync --directory="$FD" --bs=4k $a --output-format=json 2>/dev/null |
			fio_ios)
		want="$want $(shares)"
		rm -rf "$FD" && mkdir -p "$FD"
		# shellcheck disable=SC2086
		run_json --name=x --ioengine=psync --directory="$FD" --bs=4k $a
		check "as fio on files, size= over them: $a ($want)" \
			[ "$(rb_ios) $(shares)" = "$want" ]
	done
	rm -rf "$FD"
fi
# file_service_type=: which file each I/O goes to, fio's way. roundrobin:N gives each
# file N I/Os in turn, sequential holds a file to its end, random:N draws one (seed
# table slot 5) each N I/Os; zipf, pareto and normal (gauss) draw over nr_files << 10
# values unhashed, and a file they find at its end starts over, so the pass ends by
# bytes (loops x io_size in one pass, verified once). Counts, and at iodepth 1 the file
# and offset of each I/O, are fio's. (Not matched: a distribution with verify at an
# iodepth over 1, where fio skips a file found at its end with I/Os in flight until they
# complete, and with a random map, where fio reads a block written twice back twice.)
if command -v fio >/dev/null; then
	for a in "--file_service_type=sequential --nrfiles=3 --size=96k --rw=read" \
		"--file_service_type=roundrobin:4 --nrfiles=3 --size=96k --rw=read" \
		"--file_service_type=random:4 --nrfiles=3 --size=96k --rw=read" \
		"--file_service_type=random --nrfiles=4 --size=128k --rw=randread --loops=2" \
		"--file_service_type=zipf:1.2 --nrfiles=4 --size=128k --rw=read" \
		"--file_service_type=zipf:0.8:0.5 --nrfiles=5 --filesize=8k-64k --rw=randwrite" \
		"--file_service_type=pareto:0.3 --nrfiles=4 --size=128k --rw=randrw --loops=2" \
		"--file_service_type=normal:10 --nrfiles=4 --size=128k --io_size=300k --rw=read" \
		"--file_service_type=gauss --nrfiles=5 --size=160k --rw=write --randseed=7" \
		"--file_service_type=sequential --nrfiles=5 --filesize=8k-64k --rw=randrw --randseed=3 --loops=2" \
		"--file_service_type=roundrobin:3 --filename=a:b:c --size=96k --rw=randread" \
		"--file_service_type=random:2 --nrfiles=3 --size=96k --io_size=200k --rw=randrw" \
		"--file_service_type=roundrobin:0 --nrfiles=3 --size=96k --rw=write" \
		"--file_service_type=zipf:1.2 --nrfiles=3 --size=96k --rw=write --verify=crc32c --loops=2" \
		"--file_service_type=random --nrfiles=3 --size=96k --rw=randread --random_generator=lfsr" \
		"--file_service_type=zipf:1.2 --nrfiles=3 --size=100k --rw=read --iodepth=4" \
		"--file_service_type=pareto:0.3 --nrfiles=3 --size=100k --rw=randwrite --iodepth=4 --loops=2"; do
		# shellcheck disable=SC2086
		as_fio_iolog "file_service_type" $a
	done
	# timed: the first 400 I/Os are fio's (a file a distribution finds full starts over)
	for a in "--file_service_type=sequential --nrfiles=4 --size=64k --rw=read" \
		"--file_service_type=random:2 --nrfiles=4 --size=64k --rw=randread" \
		"--file_service_type=zipf:1.2 --nrfiles=4 --size=64k --rw=randread" \
		"--file_service_type=normal:10 --nrfiles=5 --filesize=8k-64k --rw=write"; do
		# shellcheck disable=SC2086
		as_fio_timed "file_service_type" $a
	done
	rm -f "$RB_TMP/fio.iolog" "$RB_TMP/rb.iolog"
	# randrepeat=0: seeds of the clock, so only the I/Os of both directions are fio's
	# (a distribution's pass ends by bytes: the I/O that starts below them is issued)
	for a in "--file_service_type=zipf:1.2 --nrfiles=3 --size=100k --rw=read" \
		"--file_service_type=pareto:0.3 --nrfiles=3 --size=100k --rw=randread --loops=2" \
		"--file_service_type=normal:20 --nrfiles=3 --size=100k --rw=write --loops=2"; do
		# shellcheck disable=SC2086
		want=$(fio --name=x --ioengine=null --bs=4k --randrepeat=0 $a --output-format=json \
			2>/dev/null | fio_ios | awk '{print $1 + $2}')
		# shellcheck disable=SC2086
		run_json --name=x --ioengine=null --bs=4k --randrepeat=0 $a
		check "as fio, file_service_type, randrepeat=0: $a ($want I/Os)" \
			[ "$(rb_ios | awk '{print $1 + $2}')" = "$want" ]
	done
fi
# file_service_type: fio's words and counts only, named in the error
for v in roundrobin:4k random:-1 zipf:1 pareto:2; do
	if run_json --name=x --ioengine=null --nrfiles=2 --size=16k --file_service_type=$v; then
		fail "file_service_type=$v is accepted"
	else
		check "file_service_type=$v is refused, naming the option" \
			grep -q "option 'file_service_type'" "$RB_TMP/err"
	fi
done
# rw=read:N / write:-N where a region is not a whole number of blocks: fio's hole wraps
# when it lands at or past the file's unrounded end (N < 0: to N before the region's
# size), and a file is done for the pass when an I/O reached its end, the offset is
# at or past the unrounded region's end, or the I/O would cross the file's end (sizes
# of a range: the region's); with several files the others go on. Counts, and at
# iodepth 1 the file and offset of each I/O, are fio's
if command -v fio >/dev/null; then
	for a in "--size=1022k --rw=read:8k" "--size=1022k --rw=read:8k --loops=2" \
		"--size=1022k --rw=write:8k --loops=2 --io_size=2m" "--size=1022k --rw=read:8k --bsrange=4k-16k" \
		"--size=1022k --rw=write:8k --bsrange=4k-16k --io_size=3m" "--size=1022k --rw=read:2k" \
		"--size=1m --nrfiles=3 --rw=read:8k" "--size=1m --nrfiles=3 --rw=read:8k --loops=2" \
		"--size=1m --nrfiles=3 --rw=read:8k --bsrange=4k-16k" "--size=1m --nrfiles=3 --rw=write:-8k" \
		"--size=1m --nrfiles=3 --rw=write:-8k --bsrange=4k-16k" "--size=1m --nrfiles=3 --rw=write:-8k --io_size=3m" \
		"--size=1026k --rw=read:4k" "--size=1026k --rw=read:4k --io_size=4m" "--size=1022k --rw=write:-12k" \
		"--size=1022k --rw=rw:8k" "--size=1m --nrfiles=3 --rw=rw:8k" "--size=1022k --rw=trimwrite:8k" \
		"--size=1022k --rw=write:8k --verify=crc32c" "--size=1m --nrfiles=3 --rw=write:8k --verify=crc32c" \
		"--size=1022k --rw=read:8k --offset=4k" "--size=1m --rw=write:-8k --offset=4k" \
		"--size=20k --bs=8k,4k --rw=rw" "--size=2000999 --nrfiles=1000 --bs=512 --rw=read:1k" \
		"--size=1022k --rw=read:8k --iodepth=4" "--size=1m --nrfiles=3 --rw=read:8k --iodepth=4"; do
		# shellcheck disable=SC2086
		as_fio_iolog "holes over an unrounded region" $a
	done
	# and on a file longer than the region: the I/O that starts below size= and ends in
	# the file is issued (offset= shows fio's quirks: a backward walk's first pick is from
	# the region's size counted from the file's start)
	FD=$RB_TMP/long
	for a in "--size=1026k --rw=read" "--size=1022k --rw=read:8k" "--size=1m --rw=write:-8k --offset=512k" \
		"--size=1022k --rw=write:-8k --offset=1m --loops=2"; do
		rm -f "$RB_TMP/fio.iolog" "$RB_TMP/rb.iolog"
		rm -rf "$FD" && mkdir -p "$FD" && truncate -s 4m "$FD/x.0.0"
		# shellcheck disable=SC2086
		want=$(fio --name=x --ioengine=psync --directory="$FD" --bs=4k $a --write_iolog="$RB_TMP/fio.iolog" \
			--output-format=json 2>/dev/null |
			fio_ios)
		rm -rf "$FD" && mkdir -p "$FD" && truncate -s 4m "$FD/x.0.0"
		# shellcheck disable=SC2086
		run_json --name=x --ioengine=psync --directory="$FD" --bs=4k $a --write_iolog="$RB_TMP/rb.iolog"
		check "as fio on a longer file: $a ($want)" \
			[ "$(rb_ios)" = "$want" ]
		check "as fio on a longer file, the same offsets: $a" cmp -s \
			<(awk '$3 ~ /^(read|write)$/ {print $3, $4, $5}' "$RB_TMP/fio.iolog") \
			<(awk '$3 ~ /^(read|write)$/ {print $3, $4, $5}' "$RB_TMP/rb.iolog")
	done
	rm -rf "$FD" "$RB_TMP/fio.iolog" "$RB_TMP/rb.iolog"
	# size=N% is of each file, not shared among them: N% of the file as it is (or as
	# filesize= makes it), no more than follows offset=, whole blocks below 100%
	FD=$RB_TMP/pct
	for a in "1m 2m 3m|--nrfiles=3 --size=50% --rw=read" "1m 1m 1m|--nrfiles=3 --size=50% --rw=randread" \
		"1000k 2001k 3m|--nrfiles=3 --size=70% --rw=write" "1000k 2001k 3m|--nrfiles=3 --size=100% --rw=read" \
		"1m 2m 3m|--nrfiles=3 --size=90% --offset=512k --rw=read" \
		"1m 2m 3m 4m 5m|--nrfiles=5 --size=20% --rw=rw" "1m 2m|--nrfiles=2 --size=50% --rw=read --loops=2" \
		"1m 2m 3m|--nrfiles=3 --size=50% --bs=12k --rw=read" "|--nrfiles=3 --filesize=1m --size=50% --rw=write"; do
		lay() {
			local i=0 s
			rm -rf "$FD" && mkdir -p "$FD"
			for s in ${a%%|*}; do truncate -s "$s" "$FD/x.0.$i" && i=$((i + 1)); done
		}
		lay
		# shellcheck disable=SC2086
		want=$(fio --name=x --ioengine=psync --directory="$FD" --bs=4k ${a#*|} --output-format=json 2>/dev/null |
			fio_ios)
		want="$want $(find "$FD" -type f -printf '%f:%s\n' | sort | tr '\n' ' ')"
		lay
		# shellcheck disable=SC2086
		run_json --name=x --ioengine=psync --directory="$FD" --bs=4k ${a#*|}
		check "as fio, size=N% of each file: [${a%%|*}] ${a#*|} ($want)" [ "$(jget \
			"'%d %d' % (d['jobs'][0]['read']['total_ios'], d['jobs'][0]['write']['total_ios'])") $(find "$FD" -type f -printf '%f:%s\n' | sort | tr '\n' ' ')" = "$want" ]
	done
	rm -rf "$FD"
fi
# bs= against bsrange= and bssplit=: as fio's min_bs/max_bs, a direction's sizes are
# the bounds (and split) bsrange= or bssplit= set, bs= only where neither did, in any
# order, with or without per-direction values and from [global] too. Each I/O's
# direction, offset and size in write_iolog= are fio's
if command -v fio >/dev/null; then
	# same_ios FIO_LOG RB_LOG: the same I/Os (file, direction, offset, size) in order, some
	same_ios() {
		grep -qE ' (read|write) ' "$1" && cmp -s \
			<(awk '$3 ~ /^(read|write|trim)$/ {print $2, $3, $4, $5}' "$1") \
			<(awk '$3 ~ /^(read|write|trim)$/ {print $2, $3, $4, $5}' "$2")
	}
	# bs_job LOG: a job file whose [global] sets the bounds and its job bs= after them
	bs_job() {
		printf '[global]\nioengine=null\nsize=1m\nrw=randrw\nrandseed=3\nbsrange=4k-16k\n'
		printf 'bssplit=,8k/50:32k/50\nwrite_iolog=%s\n[x]\nbs=8k\n' "$1"
	}
	for a in "--bs=4k --bsrange=4k-16k --rw=randrw" "--bsrange=4k-16k --bs=4k --rw=randrw" \
		"--bsrange=4k-16k --bs=8k --rw=rw" "--bssplit=4k/50:16k/50 --bs=8k --rw=randrw" \
		"--bsrange=8k-16k --bssplit=4k/50:16k/50 --bs=2k --rw=rw" \
		"--bs=4k,8k --bsrange=1k-4k,8k-16k --rw=rw" "--bsrange=1k-4k,8k-16k --bs=4k,8k --rw=randrw" \
		"--bsrange=,8k-16k --bs=2k --rw=randrw" "--bssplit=,8k/50:32k/50 --bs=2k,4k --rw=rw" \
		"--bsrange=1k-4k --bs=,8k --rw=randrw" "a job file: bs= after [global]'s bsrange= and bssplit="; do
		rm -f "$RB_TMP/fio.iolog" "$RB_TMP/rb.iolog"
		if [ "${a#a job file}" != "$a" ]; then
			bs_job "$RB_TMP/fio.iolog" >"$RB_TMP/bs-fio.fio"
			bs_job "$RB_TMP/rb.iolog" >"$RB_TMP/bs-rb.fio"
			fio --output-format=json "$RB_TMP/bs-fio.fio" >/dev/null 2>&1
			run_json "$RB_TMP/bs-rb.fio"
		else
			# shellcheck disable=SC2086
			fio --name=x --ioengine=null --size=1m --randseed=3 $a \
				--write_iolog="$RB_TMP/fio.iolog" --output-format=json >/dev/null 2>&1
			# shellcheck disable=SC2086
			run_json --name=x --ioengine=null --size=1m --randseed=3 $a \
				--write_iolog="$RB_TMP/rb.iolog"
		fi
		sizes=$(awk '$3 ~ /^(read|write)$/ {n[$3 " " $5]++} END {for (k in n) print k "x" n[k]}' \
			"$RB_TMP/fio.iolog" | sort | tr '\n' ' ')
		check "as fio, block sizes and offsets: $a (${sizes% })" same_ios "$RB_TMP/fio.iolog" "$RB_TMP/rb.iolog"
	done
	rm -f "$RB_TMP/fio.iolog" "$RB_TMP/rb.iolog"
fi
# blanks around a word's :suffix are cut as fio cuts them (its get_opt_postfix), and a
# zoned distribution's numbers are read past their blanks: the same I/Os as fio's
if command -v fio >/dev/null; then
	for a in "--rw=read: 4k|--randseed=3" "--rw=write: -8k|--randseed=3" "--rw=rw:  8k  |--randseed=3" \
		"--rw=read:8k	|--randseed=3" "--rw=randread|--random_distribution=zoned: 60/10: 40 /90 " \
		"--rw=randread|--random_distribution=zoned_abs: 60/256k :40/768k "; do
		rm -f "$RB_TMP/fio.iolog" "$RB_TMP/rb.iolog"
		fio --name=x --ioengine=null --size=1m --bs=4k --randseed=3 "${a%|*}" "${a#*|}" \
			--write_iolog="$RB_TMP/fio.iolog" --output-format=json >/dev/null 2>&1
		if run_json --name=x --ioengine=null --size=1m --bs=4k --randseed=3 "${a%|*}" "${a#*|}" \
			--write_iolog="$RB_TMP/rb.iolog"; then
			check "as fio, blanks in '$a'" same_ios "$RB_TMP/fio.iolog" "$RB_TMP/rb.iolog"
		else fail "'$a' refused: $(cat "$RB_TMP/err")"; fi
	done
	# zipf/pareto/normal draw their own way: fio takes the blanks, and so the same value
	for d in "zipf: 1.2 |zipf:1.2" "normal: 5 : 0.5|normal:5:0.5" "pareto:0.3 |pareto:0.3"; do
		fio --name=x --ioengine=null --size=1m --rw=randread --random_distribution="${d%|*}" \
			--output-format=json >/dev/null 2>&1 || fail "fio refused random_distribution=${d%|*}"
		rm -f "$RB_TMP/rb-blank.iolog" "$RB_TMP/rb.iolog"
		run_json --name=x --ioengine=null --size=1m --rw=randread --randseed=3 \
			--random_distribution="${d%|*}" --write_iolog="$RB_TMP/rb-blank.iolog"
		run_json --name=x --ioengine=null --size=1m --rw=randread --randseed=3 \
			--random_distribution="${d#*|}" --write_iolog="$RB_TMP/rb.iolog"
		check "random_distribution='${d%|*}' is ${d#*|}" same_ios "$RB_TMP/rb-blank.iolog" "$RB_TMP/rb.iolog"
		rm -f "$RB_TMP/rb-blank.iolog"
	done
	rm -f "$RB_TMP/fio.iolog" "$RB_TMP/rb.iolog"
fi
# the suffix of a random pattern is read as fio's atoi() (above: 8k is 8); where that
# gives 0 from anything but a 0, every I/O would be sequential: refused, fio's reading said
for s in abc 0x10 ""; do
	if run_json --name=x --ioengine=null --size=1m --rw="randread:$s"; then
		fail "rw=randread:$s was accepted"
	else
		check "rw=randread:$s refused: fio would read it as 0" grep -q "fio 3.33 .*0.*sequential" "$RB_TMP/err"
	fi
done
if run_json --name=x --ioengine=null --size=1m --rw=randread:2 --rw_sequencer=backwards; then
	fail "rw_sequencer=backwards was accepted"
else
	check "rw_sequencer= names its words" grep -q "sequential or identical" "$RB_TMP/err"
fi
# a timed job with io_size= past size= and loops= runs for its runtime, no pass longer
if run_json --name=t --ioengine=null --size=4m --io_size=8m --loops=4 --bs=1m --rw=read \
	--time_based --runtime=1; then
	check "time_based with io_size= past size= ends at its runtime" \
		[ "$(jget "d['jobs'][0]['job_runtime'] < 3000 and d['jobs'][0]['read']['total_ios'] > 32")" = True ]
else fail "time_based io_size= run: $(cat "$RB_TMP/err")"; fi
# runtime= covers the read-back, as fio's: a write phase it cuts is not verified,
# and of a looped job only the passes that ended before it (16384 blocks each;
# the last read-back may be cut short too)
for a in "--size=100g --rw=write" "--size=64k --rw=write --time_based" \
	"--size=64m --rw=randwrite --time_based" "--size=64m --rw=write --loops=1000"; do
	# shellcheck disable=SC2086
	if run_json --name=v --ioengine=null --bs=4k --verify=crc32c --runtime=1 $a; then
		check "verify with runtime=1, $a: the cut pass is not read back" [ "$(jget \
			"(lambda r, w: r > 0 and 0 <= w - r <= 16384 if 'loops' in '$a' else r == 0)(d['jobs'][0]['read']['total_ios'], d['jobs'][0]['write']['total_ios'])")" = True ]
	else fail "verify with runtime=1, $a: $(cat "$RB_TMP/err")"; fi
done
# a timed job on an engine that queues verifies each size= bytes it wrote (fio's
# do_io() ends its pass there): all but the cut pass read back, 16 blocks a pass
# (or all passes, the last read-back cut short)
for rw in write randwrite; do
	if run_json --name=v --ioengine=null --iodepth=4 --bs=4k --size=64k --rw=$rw \
		--verify=crc32c --time_based --runtime=1; then
		check "time_based $rw with verify, iodepth=4: each pass read back but the cut one" [ "$(jget \
			"(lambda r, w: r > 0 and 0 <= w - r <= 16)(d['jobs'][0]['read']['total_ios'], d['jobs'][0]['write']['total_ios'])")" = True ]
	else fail "time_based $rw with verify: $(cat "$RB_TMP/err")"; fi
done
# flow: a job that leaves takes its I/Os along; the others keep their ratio (fio's t0014)
check_flow "flow 1:2 holds after the weight-3 job left" 1.8 2.2 \
	--name=f1 --ioengine=null --size=100g --flow_id=5 --flow=1 --thinktime=2000 --runtime=3 \
	--name=f2 --ioengine=null --size=100g --flow_id=5 --flow=2 --thinktime=500 --runtime=3 \
	--name=f3 --ioengine=null --size=100g --flow_id=5 --flow=3 --runtime=1
# random I/O of mixed sizes with the map covers every sector exactly once, as fio's
# (sizes fitted to the free run at each offset); the iolog shows where each I/O went
for mix in "--bsrange=512-4k" "--bssplit=512/25:1k/25:2k/25:4k/25"; do
	rm -f "$RB_TMP/mix.log"
	if run_json --name=m --ioengine=null --size=1m --rw=randwrite $mix --write_iolog="$RB_TMP/mix.log"; then
		check "$mix: every sector once, 1 MiB in all" python3 -c '
import sys
seen = {}
for line in open(sys.argv[1]):
    v = line.split()
    if len(v) == 5 and v[2] == "write":
        for s in range(int(v[3]), int(v[3]) + int(v[4]), 512):
            seen[s] = seen.get(s, 0) + 1
sys.exit(not (len(seen) == 2048 and set(seen.values()) == {1}))' "$RB_TMP/mix.log"
	else fail "$mix run: $(cat "$RB_TMP/err")"; fi
done
rb_done
