#!/bin/bash
# verify=crc32c/md5: a clean write verifies; one corrupted block of the
# backing file makes the read-back fail naming that block's offset. Writes of
# mixed sizes (bssplit, bsrange) verify too, with a header per
# verify_interval; the null engine's verify passes as fio's does; a size too
# small for a header is refused while parsing. Beside fio 3.33 (when
# installed), on a file: with verify_interval below the write size, bsrange
# or bssplit, each write is read back in one I/O (fio's read counts and
# bytes, verify_only and verify_backlog too), in fio's order (by offset, or
# in write order with a random map), random loops without a map once for
# the pass, and a bad interval in the middle of a write is named with its
# place in that write.
. "$(dirname "$0")/lib.sh"
rb_init
need_tool python3 python3
F=$RB_TMP/v.dat

for v in crc32c md5; do
	if "$RAIDBENCH" run --name=v --filename="$F" --size=4m --bs=4k --rw=randwrite \
		--verify=$v --ioengine=libaio --iodepth=8 --direct=1 >/dev/null 2>"$RB_TMP/err"; then
		pass "verify=$v: clean write and read-back pass"
	else
		fail "verify=$v clean run: $(cat "$RB_TMP/err")"
	fi
done

# write with headers but without the read-back, corrupt block 300, then verify only
"$RAIDBENCH" run --name=v --filename="$F" --size=4m --bs=4k --rw=write --verify=crc32c \
	--do_verify=0 --ioengine=psync >/dev/null 2>"$RB_TMP/err" || fail "write phase: $(cat "$RB_TMP/err")"
printf 'CORRUPT!' | dd of="$F" bs=1 seek=$((300 * 4096 + 1000)) conv=notrunc status=none
"$RAIDBENCH" run --name=v --filename="$F" --size=4m --bs=4k --rw=write --verify=crc32c \
	--verify_only=1 --ioengine=psync >/dev/null 2>"$RB_TMP/err"
rc=$?
check "corrupted block fails the verify (exit 1)" [ $rc -eq 1 ]
check "the message names the block's offset 1228800" grep -q "offset 1228800" "$RB_TMP/err"
check "one bad block reported, no others" [ "$(grep -c 'offset' "$RB_TMP/err")" -eq 1 ]

# mixed write sizes: a header every verify_interval (the sizes' gcd) bytes
for bsopt in --bssplit=4k/50:16k/30:64k/20 --bsrange=4k-32k; do
	for rw in write randwrite; do
		if "$RAIDBENCH" run --name=v --filename="$F" --size=4m $bsopt --rw=$rw --verify=md5 \
			--ioengine=libaio --iodepth=8 --direct=1 >/dev/null 2>"$RB_TMP/err"; then
			pass "verify with $bsopt rw=$rw: clean write and read-back pass"
		else
			fail "verify with $bsopt rw=$rw: $(cat "$RB_TMP/err")"
		fi
	done
done
rm -f "$F"
"$RAIDBENCH" run --name=v --filename="$F" --size=4m --bssplit=4k/50:64k/50 --rw=write \
	--verify=crc32c --do_verify=0 --ioengine=psync >/dev/null 2>"$RB_TMP/err" ||
	fail "bssplit write phase: $(cat "$RB_TMP/err")"
printf 'CORRUPT!' | dd of="$F" bs=1 seek=$((300 * 4096 + 1000)) conv=notrunc status=none
"$RAIDBENCH" run --name=v --filename="$F" --size=4m --bssplit=4k/50:64k/50 --rw=write \
	--verify=crc32c --verify_only=1 --ioengine=psync >/dev/null 2>"$RB_TMP/err"
rc=$?
check "bssplit: the corrupted chunk fails the verify (exit 1)" [ $rc -eq 1 ]
check "bssplit: the message names the chunk's offset 1228800" grep -q "offset 1228800" "$RB_TMP/err"

# a job that only reads checks what it reads, as fio's (t0003): 64k reads of 4k-written blocks
rm -f "$F"
"$RAIDBENCH" run --name=v --filename="$F" --size=1m --bs=4k --rw=write --verify=md5 \
	--do_verify=0 --ioengine=psync >/dev/null 2>"$RB_TMP/err" || fail "write: $(cat "$RB_TMP/err")"
"$RAIDBENCH" run --name=r --filename="$F" --size=1m --bs=64k --rw=read --verify=md5 \
	--ioengine=psync >/dev/null 2>"$RB_TMP/err"
check "a read job with verify passes on good data" [ $? -eq 0 ]
printf 'CORRUPT!' | dd of="$F" bs=1 seek=70000 conv=notrunc status=none
"$RAIDBENCH" run --name=r --filename="$F" --size=1m --bs=64k --rw=read --verify=md5 \
	--ioengine=psync >/dev/null 2>"$RB_TMP/err"
check "a read job with verify fails on the corrupted block (exit 1)" [ $? -eq 1 ]
check "and names its offset 69632" grep -q "offset 69632" "$RB_TMP/err"
check "and which block of the read it is" \
	grep -q "; block 2 of the 65536-byte read at offset 65536" "$RB_TMP/err"

# the null engine moves no data: nothing to check, as fio (which passes this job)
if "$RAIDBENCH" run --name=v --ioengine=null --rw=write --size=1m --verify=md5 >/dev/null \
	2>"$RB_TMP/err"; then
	pass "null engine with verify=md5 passes"
else
	fail "null engine with verify=md5: $(cat "$RB_TMP/err")"
fi
# a header does not fit 256-byte chunks: refused while parsing, before anything runs
"$RAIDBENCH" run --parse-only --name=v --filename="$F" --size=1m --bssplit=256/50:4k/50 \
	--rw=write --verify=md5 >/dev/null 2>"$RB_TMP/err"
rc=$?
check "verify with 256-byte writes is refused by --parse-only (exit 2)" [ $rc -eq 2 ]
check "the refusal says why" grep -q "verify needs write blocks of at least 512 bytes" "$RB_TMP/err"
# fio's other checksums are taken (checked with raidbench's crc32c header), with a note
"$RAIDBENCH" run --name=v --filename="$F" --size=1m --rw=write --verify=sha256 >/dev/null \
	2>"$RB_TMP/err"
rc=$?
check "verify=sha256 runs and verifies" [ $rc -eq 0 ]
check "a run's stderr stays empty (fio's harness checks it)" [ ! -s "$RB_TMP/err" ]
"$RAIDBENCH" run --parse-only --name=v --filename="$F" --size=1m --rw=write --verify=sha256 \
	>/dev/null 2>"$RB_TMP/err"
check "verify=sha256 is noted by --parse-only" \
	grep -q "option 'verify': blocks carry raidbench's own verify header" "$RB_TMP/err"

# verify_interval below the write size: each write is read back whole, one I/O
# checking each interval in it (fio 3.33's count; before, one read per interval)
vcounts() { # JSON -> "read_ios read_bytes write_ios" of its first job
	python3 - "$1" <<'PY'
import json, sys
t = open(sys.argv[1]).read()
j = json.loads(t[t.index('{'):])['jobs'][0]
print(j['read']['total_ios'], j['read']['io_bytes'], j['write']['total_ios'])
PY
}
# a bad interval in the middle of a write: named with its write, as fio names it
interval_named() { # ERRFILE BADOFFSET VI
	python3 - "$@" <<'PY'
import re, sys
t, bad, vi = open(sys.argv[1]).read(), int(sys.argv[2]), int(sys.argv[3])
at = bad // vi * vi
m = re.search(r'at offset (\d+)[ :].*; interval (\d+) of (\d+) of the (\d+)-byte write at offset (\d+)', t)
ok = m and int(m[1]) == at and int(m[5]) <= at < int(m[5]) + int(m[4]) and \
	int(m[2]) == (at - int(m[5])) // vi + 1 and int(m[3]) == int(m[4]) // vi
sys.exit(0 if ok else 1)
PY
}
if command -v fio >/dev/null; then
	# fio leaves a verify state file in its working directory
	cd "$RB_TMP" || exit 1
	vbase=(--name=v --filename="$F" --size=4m --ioengine=psync)
	for c in "--rw=write --bs=64k --verify_interval=4k --verify=crc32c" \
		"--rw=randwrite --bs=64k --verify_interval=4k --verify=md5" \
		"--rw=write --bs=64k --verify_interval=8k --verify=sha256" \
		"--rw=write --bs=64k --verify_interval=4k --verify=crc32c --loops=2" \
		"--rw=randrw --bs=64k --verify_interval=4k --verify=crc32c" \
		"--rw=randwrite --bsrange=4k-64k --verify=crc32c" \
		"--rw=randwrite --bsrange=4k-64k --verify=crc32c --norandommap" \
		"--rw=write --bssplit=4k/50:64k/50 --verify=md5" \
		"--rw=randwrite --bsrange=4k-64k --verify=md5 --ioengine=libaio --iodepth=8 --direct=1" \
		"--rw=write --bs=64k --verify_interval=4k --verify=crc32c --verify_backlog=4" \
		"--rw=randwrite --bssplit=4k/50:64k/50 --verify=crc32c --verify_backlog=8 --verify_backlog_batch=3" \
		"--rw=randwrite --bs=4k --verify=crc32c --norandommap --loops=2" \
		"--rw=randwrite --bsrange=4k-16k --verify=md5 --norandommap --loops=3" \
		"--rw=randwrite --bs=4k --verify=crc32c --norandommap --loops=2 --io_size=8m" \
		"--rw=randwrite --bs=4k --verify=crc32c --random_distribution=zoned:50/10:50/90 --loops=2"; do
		# shellcheck disable=SC2206 # each case is a list of options
		opts=($c)
		rm -f "$F"
		fio --output-format=json --output="$RB_TMP/f.json" "${vbase[@]}" "${opts[@]}" \
			>/dev/null 2>&1 || fail "$c: fio failed"
		rm -f "$F"
		"$RAIDBENCH" run --no-save --output-format=json --output="$RB_TMP/r.json" "${vbase[@]}" \
			"${opts[@]}" >/dev/null 2>"$RB_TMP/err" || fail "$c: $(head -2 "$RB_TMP/err")"
		f=$(vcounts "$RB_TMP/f.json") r=$(vcounts "$RB_TMP/r.json")
		check "$c: reads as fio's, one per write (fio $f, raidbench $r: reads, bytes, writes)" \
			[ -n "$f" -a "$f" = "$r" ]
	done
	# verify_only: the read-back is of the writes a dry run of the job makes, as
	# fio's, loop by loop and pass by pass (loops=2 and io_size= past size= read
	# back twice; the dry run's bytes count toward io_size=)
	for c in "--rw=write --bs=64k --verify_interval=4k --verify=crc32c" \
		"--rw=randwrite --bsrange=4k-64k --verify=md5" \
		"--rw=write --bssplit=4k/50:64k/50 --verify=sha256" \
		"--rw=randwrite --bsrange=4k-64k --verify=crc32c --norandommap" \
		"--rw=write --bs=64k --verify_interval=4k --verify=crc32c --loops=2" \
		"--rw=write --bs=64k --verify_interval=4k --verify=crc32c --io_size=10m" \
		"--rw=randwrite --bsrange=4k-64k --verify=crc32c --loops=2" \
		"--rw=randwrite --bsrange=4k-64k --verify=crc32c --io_size=10m" \
		"--rw=randwrite --bs=4k --verify=crc32c --norandommap --loops=2" \
		"--rw=randwrite --bsrange=4k-64k --verify=crc32c --norandommap --loops=2"; do
		# shellcheck disable=SC2206
		opts=($c)
		rm -f "$F"
		fio "${vbase[@]}" "${opts[@]}" --do_verify=0 >/dev/null 2>&1
		fio --output-format=json --output="$RB_TMP/f.json" "${vbase[@]}" "${opts[@]}" \
			--verify_only=1 >/dev/null 2>&1 || fail "$c verify_only: fio failed"
		rm -f "$F"
		"$RAIDBENCH" run --no-save "${vbase[@]}" "${opts[@]}" --do_verify=0 >/dev/null 2>&1
		"$RAIDBENCH" run --no-save --output-format=json --output="$RB_TMP/r.json" "${vbase[@]}" \
			"${opts[@]}" --verify_only=1 >/dev/null 2>"$RB_TMP/err" ||
			fail "$c verify_only: $(head -2 "$RB_TMP/err")"
		# fio counts its dry run's writes as done: the reads alone are compared
		f=$(vcounts "$RB_TMP/f.json") r=$(vcounts "$RB_TMP/r.json")
		check "$c verify_only: reads as fio's (fio ${f% *}, raidbench ${r% *}: reads, bytes)" \
			[ -n "$f" -a "${f% *}" = "${r% *}" ]
	done
	# the read-back's order, as fio's: by offset where fio sorts its log (sequential,
	# norandommap), in write order where a random map keeps it in a list; random
	# loops that run on as one pass (no map, an engine that completes at once) are
	# read back once, at the pass's end
	rseq() { # IOLOG -> "FILE OFFSET LEN" of each read, in order
		awk 'NF == 5 && $3 == "read" { print $2, $4, $5 }' "$1"
	}
	for c in "--rw=write --bs=16k" "--rw=randwrite --bs=4k" "--rw=randwrite --bs=4k --norandommap" \
		"--rw=randwrite --bsrange=4k-16k" "--rw=randwrite --bs=4k --loops=2" \
		"--rw=randwrite --bs=4k --norandommap --loops=2" \
		"--rw=randwrite --bs=4k --verify_backlog=16" \
		"--rw=randwrite --bs=4k --norandommap --verify_backlog=16 --loops=2" \
		"--rw=randwrite --bs=4k --ioengine=libaio --iodepth=8 --loops=2" \
		"--rw=randwrite --bs=4k --nrfiles=4" "--rw=randwrite --bs=4k --nrfiles=4 --norandommap"; do
		# shellcheck disable=SC2206
		opts=(--name=v --size=512k --ioengine=psync --verify=crc32c $c)
		# several files: fio's list runs across them, its tree by file, then offset
		case $c in
		*nrfiles*) rm -rf "$RB_TMP/d" && mkdir "$RB_TMP/d" && opts+=(--directory="$RB_TMP/d") ;;
		*) opts+=(--filename="$F") ;;
		esac
		# both append to an iolog that is there
		rm -f "$F" "$RB_TMP/f.log" "$RB_TMP/r.log"
		fio "${opts[@]}" --write_iolog="$RB_TMP/f.log" >/dev/null 2>&1 || fail "$c: fio failed"
		rm -f "$F"
		"$RAIDBENCH" run --no-save "${opts[@]}" --write_iolog="$RB_TMP/r.log" >/dev/null \
			2>"$RB_TMP/err" || fail "$c: $(head -2 "$RB_TMP/err")"
		rseq "$RB_TMP/f.log" >"$RB_TMP/f.seq"
		rseq "$RB_TMP/r.log" >"$RB_TMP/r.seq"
		check "$c: reads back in fio's order (fio $(wc -l <"$RB_TMP/f.seq") reads, raidbench $(wc -l <"$RB_TMP/r.seq"))" \
			eval '[ -s "$RB_TMP/f.seq" ] && cmp -s "$RB_TMP/f.seq" "$RB_TMP/r.seq"'
	done
	# verify_only's read-back follows its dry run's order too (a random map: write order)
	for p in fio raidbench; do
		rm -f "$F" "$RB_TMP/$p.log"
		if [ $p = fio ]; then run=(fio); else run=("$RAIDBENCH" run --no-save); fi
		vo=("${vbase[@]}" --size=512k --rw=randwrite --bs=4k --verify=md5 --loops=2)
		"${run[@]}" "${vo[@]}" --do_verify=0 >/dev/null 2>&1
		"${run[@]}" "${vo[@]}" --verify_only=1 --write_iolog="$RB_TMP/$p.log" >/dev/null 2>&1
		rseq "$RB_TMP/$p.log" >"$RB_TMP/$p.seq"
	done
	check "verify_only randwrite loops=2: reads back in fio's order (fio $(wc -l <"$RB_TMP/fio.seq") reads, raidbench $(wc -l <"$RB_TMP/raidbench.seq"))" \
		eval '[ -s "$RB_TMP/fio.seq" ] && cmp -s "$RB_TMP/fio.seq" "$RB_TMP/raidbench.seq"'
	# one interval in the middle of a 64k write corrupted: with verify_fatal the
	# read-back stops at that write (19 reads, as fio), and names the interval
	for p in fio raidbench; do
		rm -f "$F"
		if [ $p = fio ]; then run=(fio); else run=("$RAIDBENCH" run --no-save); fi
		"${run[@]}" "${vbase[@]}" --bs=64k --verify_interval=4k --rw=write --verify=md5 \
			--do_verify=0 >/dev/null 2>&1
		printf 'CORRUPT!' | dd of="$F" bs=1 seek=$((300 * 4096 + 1000)) conv=notrunc status=none
		"${run[@]}" --output-format=json --output="$RB_TMP/$p.json" "${vbase[@]}" --bs=64k \
			--verify_interval=4k --rw=write --verify=md5 --verify_only=1 --verify_fatal=1 \
			>/dev/null 2>"$RB_TMP/$p.err"
		echo $? >"$RB_TMP/$p.rc"
	done
	read -r fr _ < <(vcounts "$RB_TMP/fio.json")
	read -r rr _ < <(vcounts "$RB_TMP/raidbench.json")
	check "a bad interval mid-write fails the verify (exit 1)" [ "$(cat "$RB_TMP/raidbench.rc")" = 1 ]
	check "and the read-back stops at its write, as fio's (fio $fr reads, raidbench $rr)" \
		[ -n "$fr" -a "$fr" = "$rr" ]
	check "the error names the interval, 1228800, as interval 13 of 16 of the write at 1179648" \
		grep -q "bad md5 at offset 1228800 .*; interval 13 of 16 of the 65536-byte write at offset 1179648 (1 bad)" \
		"$RB_TMP/raidbench.err"
	cd - >/dev/null || exit 1
else
	echo "SKIP: fio is not installed: read-back counts not compared"
fi
# bsrange writes, sha256, a bad interval wherever it falls: named with its write
rm -f "$F"
"$RAIDBENCH" run --no-save --name=v --filename="$F" --size=4m --bsrange=4k-64k --rw=randwrite \
	--verify=sha256 --do_verify=0 --ioengine=psync >/dev/null 2>&1
printf 'CORRUPT!' | dd of="$F" bs=1 seek=2000000 conv=notrunc status=none
"$RAIDBENCH" run --no-save --name=v --filename="$F" --size=4m --bsrange=4k-64k --rw=randwrite \
	--verify=sha256 --verify_only=1 --ioengine=psync >/dev/null 2>"$RB_TMP/err"
check "bsrange: a bad interval fails the verify (exit 1)" [ $? -eq 1 ]
check "bsrange: the error names the 4k interval at 1998848 and its place in its write ($(grep -o '; interval.*' "$RB_TMP/err"))" \
	interval_named "$RB_TMP/err" 2000000 4096
# reads of 6k, writes of 8k: each 8k write is read back where it was written
# (before: 8k at multiples of 6k, "bad magic at offset 6144"; or 6k reads
# that held no whole interval and checked nothing)
rm -f "$F"
"$RAIDBENCH" run --no-save --name=v --filename="$F" --size=96k --bs=6k,8k --rw=write \
	--verify=crc32c --ioengine=psync --write_iolog="$RB_TMP/68.log" >/dev/null 2>"$RB_TMP/err"
rc=$?
check "bs=6k,8k: the write and its read-back pass ($(head -c 120 "$RB_TMP/err"))" [ $rc -eq 0 ]
awk 'NF == 5 && $3 == "write" { print $4, $5 }' "$RB_TMP/68.log" >"$RB_TMP/68.w"
awk 'NF == 5 && $3 == "read" { print $4, $5 }' "$RB_TMP/68.log" >"$RB_TMP/68.r"
check "bs=6k,8k: the 12 read-backs are the 12 writes (offset, length)" \
	eval '[ "$(wc -l <"$RB_TMP/68.w")" -eq 12 ] && cmp -s "$RB_TMP/68.w" "$RB_TMP/68.r"'
printf 'CORRUPT!' | dd of="$F" bs=1 seek=$((8192 + 3000)) conv=notrunc status=none
"$RAIDBENCH" run --no-save --name=v --filename="$F" --size=96k --bs=6k,8k --rw=write \
	--verify=crc32c --verify_only=1 --ioengine=psync >/dev/null 2>"$RB_TMP/err"
check "bs=6k,8k: a corrupted write fails the verify (exit 1)" [ $? -eq 1 ]
check "bs=6k,8k: the error names the write at 8192" grep -q "bad crc32c at offset 8192 " "$RB_TMP/err"
# verify_interval below bs leaves the job's offsets alone: zipf's land on
# multiples of bs=64k as without verify (and in fio), not of the interval
rm -f "$F"
"$RAIDBENCH" run --no-save --name=v --filename="$F" --size=4m --bs=64k --verify_interval=4k \
	--rw=randwrite --random_distribution=zipf:1.2 --verify=crc32c --ioengine=psync \
	--write_iolog="$RB_TMP/z.log" >/dev/null 2>"$RB_TMP/err"
rc=$?
check "zipf with verify_interval=4k: writes and read-back pass" [ $rc -eq 0 ]
n=$(awk 'NF == 5 && $3 == "write" && $4 % 65536 { n++ } END { print n + 0 }' "$RB_TMP/z.log")
w=$(awk 'NF == 5 && $3 == "write" { n++ } END { print n + 0 }' "$RB_TMP/z.log")
check "zipf with verify_interval=4k: all $w writes at multiples of 64k ($n are not)" \
	[ "$w" -eq 64 -a "$n" -eq 0 ]
rb_done
