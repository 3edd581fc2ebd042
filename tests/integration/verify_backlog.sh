#!/bin/bash
# verify_backlog / verify_backlog_batch beside fio 3.33: the null engine's
# counts per direction equal fio's for backlogs of 1 and 4, a batch smaller
# and one larger than the backlog, loops, random and mixed jobs, and the
# read-backs come in fio's order between the writes. On a real file (psync),
# a block corrupted after its write and before its batch is caught in the
# write phase, the error naming its offset.
. "$(dirname "$0")/lib.sh"
rb_init
need_tool python3 python3
need_tool fio fio
# fio leaves a verify state file (local-*-verify.state) in its working directory
cd "$RB_TMP" || exit 1

# counts JSON -> "read_ios write_ios read_bytes write_bytes" of its first job
counts() {
	python3 - "$1" <<'PY'
import json, sys
t = open(sys.argv[1]).read()
j = json.loads(t[t.index('{'):])['jobs'][0]
print(j['read']['total_ios'], j['write']['total_ios'], j['read']['io_bytes'], j['write']['io_bytes'])
PY
}

base=(--name=bl --ioengine=null --size=1m --bs=16k --verify=crc32c)
cases=(
	"--rw=write --verify_backlog=1"
	"--rw=write --verify_backlog=4"
	"--rw=write:112k --verify_backlog=1 --loops=2"
	"--rw=write:112k --verify_backlog=4 --loops=3"
	"--rw=write:112k --verify_backlog=4 --verify_backlog_batch=2"
	"--rw=write:112k --verify_backlog=2 --verify_backlog_batch=1 --loops=2"
	"--rw=write:112k --verify_backlog=3 --verify_backlog_batch=8"
	"--rw=write --verify_backlog=5 --verify_backlog_batch=2 --loops=3"
	"--rw=write --verify_backlog=4 --iodepth=8"
	"--rw=randwrite --verify_backlog=4"
	"--rw=randwrite --verify_backlog=5 --verify_backlog_batch=2 --loops=2"
	"--rw=randwrite --norandommap --verify_backlog=2 --verify_backlog_batch=1 --loops=2"
	"--rw=randwrite --loops=2 --io_size=512k --verify_backlog=3 --verify_backlog_batch=2"
	"--rw=randrw --verify_backlog=4"
	"--rw=randrw --norandommap --loops=2 --verify_backlog=4 --verify_backlog_batch=3 --bsrange=4k-16k"
	"--rw=readwrite:32k --loops=2 --verify_backlog=3 --verify_backlog_batch=2"
	"--rw=write:112k --loops=2"
)
n=0
for c in "${cases[@]}"; do
	n=$((n + 1))
	# shellcheck disable=SC2206 # each case is a list of options
	opts=($c)
	if ! fio --output-format=json --output="$RB_TMP/f$n.json" "${base[@]}" "${opts[@]}" \
		>/dev/null 2>"$RB_TMP/err"; then
		fail "$c: fio failed: $(head -2 "$RB_TMP/err")"
		continue
	fi
	if ! "$RAIDBENCH" run --no-save --output-format=json --output="$RB_TMP/r$n.json" \
		"${base[@]}" "${opts[@]}" >/dev/null 2>"$RB_TMP/err"; then
		fail "$c: raidbench failed: $(head -2 "$RB_TMP/err")"
		continue
	fi
	f=$(counts "$RB_TMP/f$n.json") r=$(counts "$RB_TMP/r$n.json")
	if [ "$f" = "$r" ]; then
		pass "$c: reads/writes equal fio's ($r)"
	else
		fail "$c: fio $f, raidbench $r (read_ios write_ios read_bytes write_bytes)"
	fi
done

# the order: each batch's read-backs where fio issues them, lowest offset first
for c in "--rw=write:112k --verify_backlog=2 --verify_backlog_batch=1 --loops=2" \
	"--rw=randwrite --verify_backlog=5 --verify_backlog_batch=2"; do
	# shellcheck disable=SC2206
	opts=($c)
	rm -f "$RB_TMP/f.iolog" "$RB_TMP/r.iolog"
	fio "${base[@]}" "${opts[@]}" --write_iolog="$RB_TMP/f.iolog" >/dev/null 2>&1
	"$RAIDBENCH" run --no-save "${base[@]}" "${opts[@]}" --write_iolog="$RB_TMP/r.iolog" \
		>/dev/null 2>&1
	# version 3 lines: time, file, action, offset, length
	for p in f r; do
		awk 'NF == 5 && ($3 == "read" || $3 == "write") { print $3, $4, $5 }' \
			"$RB_TMP/$p.iolog" >"$RB_TMP/$p.ord"
	done
	if [ -s "$RB_TMP/f.ord" ] && cmp -s "$RB_TMP/f.ord" "$RB_TMP/r.ord"; then
		pass "$c: the $(wc -l <"$RB_TMP/f.ord") I/Os come in fio's order"
	else
		fail "$c: order differs from fio's: $(diff "$RB_TMP/f.ord" "$RB_TMP/r.ord" | head -4 | tr '\n' ' ')"
	fi
done

# a real file: block 300 (offset 1228800) is corrupted after its write and
# before the first batch (after 512 of the 1024 writes) reads it back
F=$RB_TMP/bl.dat
truncate -s 4m "$F"
(
	# wait for block 300's verify header (magic 0xacca, little-endian), then overwrite its payload
	for _ in $(seq 1000); do
		m=$(od -An -tx1 -j $((300 * 4096)) -N 2 "$F" | tr -d ' ')
		if [ "$m" = "caac" ]; then
			printf 'CORRUPT!' | dd of="$F" bs=1 seek=$((300 * 4096 + 1000)) conv=notrunc status=none
			echo corrupted >"$RB_TMP/corrupted"
			exit 0
		fi
		sleep 0.01
	done
) &
corrupter=$!
"$RAIDBENCH" run --no-save --name=bl --filename="$F" --size=4m --bs=4k --rw=write --verify=crc32c \
	--verify_backlog=512 --ioengine=psync --rate_iops=256 --output-format=json \
	--output="$RB_TMP/file.json" >/dev/null 2>"$RB_TMP/err"
rc=$?
wait "$corrupter"
check "the block was corrupted while the job wrote" [ -e "$RB_TMP/corrupted" ]
check "the corrupted block fails the job (exit 1)" [ $rc -eq 1 ]
check "the error names offset 1228800" grep -q "offset 1228800" "$RB_TMP/err"
read -r rd wr _ < <(counts "$RB_TMP/file.json")
check "caught in the write phase: writes stop at the first batch, reads at the bad block ($wr of 1024 writes, $rd reads)" \
	[ "${wr:-0}" -ge 512 -a "${wr:-0}" -lt 1024 -a "${rd:-0}" -eq 301 ]
rb_done
