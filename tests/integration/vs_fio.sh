#!/bin/bash
# Side by side with fio 3.33 on the same jobs: for read, write, randread,
# randwrite and randrw at bs 4k and 1M, iodepth 1 and 32, with libaio,
# io_uring and psync, on a loop device and on a file, a size-bounded job gives
# exactly fio's total_ios and io_bytes per direction (randrw splits its I/Os
# between reads and writes exactly as fio does), and the JSON has every key
# fio's has. Mixed jobs on the null engine (several mixes, clones, loops,
# randseed, several jobs) split exactly as fio's, and a time-based run lasts
# its runtime. (IOPS against fio is timing: make bench, tests/bench/vs_fio_timed.sh.)
. "$(dirname "$0")/lib.sh"
rb_init
need_root
need_tool fio fio
need_tool python3 python3
KEYS="python3 $SRCDIR/tests/integration/json_keys.py"
make_loop 64
DEV=$LOOP_DEV
FILE=$RB_TMP/target.dat
truncate -s 64M "$FILE"
keys_checked=0

# counts FIO.json RB.json -> "read_ios write_ios read_bytes write_bytes" of
# each (one interpreter for both: this runs 120 times)
counts() {
	python3 - "$@" <<'PY'
import json, sys
for f in sys.argv[1:]:
    t = open(f).read()
    j = json.loads(t[t.index('{'):])['jobs'][0]
    print(j['read']['total_ios'], j['write']['total_ios'], j['read']['io_bytes'], j['write']['io_bytes'])
PY
}

# lane TARGET: every engine, pattern, size and depth on one target, one case
# after the other; its PASS/FAIL lines on stdout, its key-set count last
lane() {
	local target=$1 kind engine rw bs qd args name keys=0 T
	kind=$([ "$target" = "$DEV" ] && echo loop || echo file)
	T=$RB_TMP/$kind
	for engine in libaio io_uring psync; do
		for rw in read write randread randwrite randrw; do
			for bs in 4k 1m; do
				for qd in 1 32; do
					args=(--name=cmp --filename="$target" --size=8m --bs=$bs --rw=$rw
						--iodepth=$qd --ioengine=$engine --direct=1 --output-format=json)
					name="$kind $engine $rw bs=$bs qd=$qd"
					fio "${args[@]}" --output="$T-fio.json" >/dev/null 2>"$T-fio.err" ||
						{ fail "$name: fio failed: $(head -2 "$T-fio.err")"; continue; }
					"$RAIDBENCH" run "${args[@]}" --output="$T-rb.json" 2>"$T-rb.err" ||
						{ fail "$name: raidbench failed: $(head -2 "$T-rb.err")"; continue; }
					{ read -r fr fw frb fwb; read -r rr rw_ rrb rwb; } \
						< <(counts "$T-fio.json" "$T-rb.json")
					if [ -n "$fr" ] && [ "$fr $fw $frb $fwb" = "$rr $rw_ $rrb $rwb" ]; then
						pass "$name: total_ios and io_bytes equal fio's ($fr/$fw)"
					else
						fail "$name: fio r=$fr w=$fw ($frb/$fwb bytes), raidbench r=$rr w=$rw_ ($rrb/$rwb bytes)"
					fi
					# key sets: once per engine and pattern is enough to cover every shape
					if [ "$bs" = 4k ] && [ "$qd" = 32 ]; then
						if $KEYS "$T-fio.json" "$T-rb.json" >"$T-keys" 2>&1; then
							keys=$((keys + 1))
						else
							fail "$name: JSON keys differ: $(head -5 "$T-keys" | tr '\n' ' ')"
						fi
					fi
				done
			done
		done
	done
	echo "keys-checked: $keys"
}
# The loop device and the file are apart: their lanes run side by side (each
# case waits mostly on I/O); their lines are counted here, lane by lane.
lane "$DEV" >"$RB_TMP/lane-loop.out" 2>&1 &
loop_pid=$!
lane "$FILE" >"$RB_TMP/lane-file.out" 2>&1 &
file_pid=$!
wait $loop_pid $file_pid
for out in "$RB_TMP/lane-loop.out" "$RB_TMP/lane-file.out"; do
	grep -q '^keys-checked: ' "$out" || fail "$(basename "$out" .out) did not finish"
	while IFS= read -r line; do
		case $line in
		"PASS: "*) pass "${line#PASS: }" ;;
		"FAIL: "*) fail "${line#FAIL: }" ;;
		"keys-checked: "*) keys_checked=$((keys_checked + ${line#keys-checked: })) ;;
		*) echo "$line" ;;
		esac
	done <"$out"
done
check "JSON key sets equal fio's in $keys_checked shapes" [ $keys_checked -eq 30 ]

# the read/write split of mixed jobs, job by job
splits() {
	python3 -c 'import json,sys; t=open(sys.argv[1]).read(); d=json.loads(t[t.index("{"):])
print(" ".join("%d/%d" % (j["read"]["total_ios"], j["write"]["total_ios"]) for j in d["jobs"]))' "$1"
}
cat >"$RB_TMP/mixes.fio" <<'EOF'
[global]
ioengine=null
size=32m
bs=4k
rw=randrw
iodepth=8
[mix70]
rwmixread=70
[mix40x2]
stonewall
numjobs=2
rwmixwrite=60
[seq60]
rw=rw
rwmixread=60
[loops3]
rwmixread=25
loops=3
[seeded]
randseed=1234
rwmixread=90
bs=8k
EOF
if fio --output-format=json --output="$RB_TMP/fio.json" "$RB_TMP/mixes.fio" >/dev/null 2>&1 &&
	"$RAIDBENCH" run --output-format=json --output="$RB_TMP/rb.json" --no-save "$RB_TMP/mixes.fio" 2>/dev/null; then
	f=$(splits "$RB_TMP/fio.json"); r=$(splits "$RB_TMP/rb.json")
	check "mixed jobs split reads/writes exactly as fio ($r)" [ "$f" = "$r" ]
else
	fail "mixed jobs: fio or raidbench failed"
fi

# rw=rw: reads and writes each walk the file from its start, so the blocks written (non-zero
# afterwards in a file that started as zeros) are the same as fio's
written() {
	python3 -c 'import sys
d = open(sys.argv[1], "rb").read()
print("".join("1" if any(d[i:i + 65536]) else "0" for i in range(0, len(d), 65536)))' "$1"
}
W=$RB_TMP/written.dat
args=(--name=seqmix --filename="$W" --size=4m --bs=64k --rw=rw --rwmixread=60 --ioengine=psync
      --output-format=json)
rm -f "$W"; truncate -s 4M "$W"
fio "${args[@]}" >/dev/null 2>&1; fw=$(written "$W")
rm -f "$W"; truncate -s 4M "$W"
"$RAIDBENCH" run "${args[@]}" --no-save >/dev/null 2>&1; rw_=$(written "$W")
check "rw=rw writes the blocks fio writes ($rw_)" [ "$fw" = "$rw_" -a "${fw#*0}" != "$fw" ]

# (rand)trimwrite: each block trimmed, then written; size= counts the writes (trims come on top)
tw() {
	python3 -c 'import json,sys; t=open(sys.argv[1]).read(); d=json.loads(t[t.index("{"):]); j=d["jobs"][0]
print(" ".join("%d/%d" % (j[k]["total_ios"], j[k]["io_bytes"]) for k in ("read", "write", "trim")))' "$1"
}
for mode in trimwrite randtrimwrite; do for engine in psync libaio; do
	args=(--name=tw --filename="$DEV" --size=2m --bs=64k --rw=$mode --ioengine=$engine
	      --iodepth=8 --direct=1 --output-format=json)
	if fio "${args[@]}" --output="$RB_TMP/fio.json" >/dev/null 2>&1 &&
		"$RAIDBENCH" run "${args[@]}" --allow-destroy="$DEV" --no-save --output="$RB_TMP/rb.json" 2>"$RB_TMP/err"; then
		f=$(tw "$RB_TMP/fio.json"); r=$(tw "$RB_TMP/rb.json")
		check "$mode $engine: read/write/trim ios and bytes equal fio's ($r)" [ "$f" = "$r" ]
	else
		fail "$mode $engine: $(head -2 "$RB_TMP/err")"
	fi
done; done

# verify with writes in flight: fio logs each write as it issues it, so of two
# overlapping random writes (no map) the one issued later is read back, whichever
# completes later (read-backs, writes and their bytes as fio's)
for size in 3m 4m; do
	args=(--name=vq --filename="$FILE" --size=$size --rw=randwrite --norandommap --bsrange=4k-64k
	      --ioengine=libaio --iodepth=16 --direct=1 --verify=crc32c --verify_state_save=0
	      --output-format=json)
	if fio "${args[@]}" --output="$RB_TMP/fio.json" >/dev/null 2>&1 &&
		"$RAIDBENCH" run "${args[@]}" --no-save --output="$RB_TMP/rb.json" 2>"$RB_TMP/err"; then
		f=$(tw "$RB_TMP/fio.json"); r=$(tw "$RB_TMP/rb.json")
		check "verify at iodepth=16, size=$size: read-backs as fio's ($r)" [ "$f" = "$r" ]
	else
		fail "verify at iodepth=16, size=$size: $(head -2 "$RB_TMP/err")"
	fi
done

# time-based runs last the runtime (the IOPS against fio, a timed comparison,
# is `make bench`'s: tests/bench/vs_fio_timed.sh)
for engine in libaio io_uring; do
	if "$RAIDBENCH" run --name=tb --filename="$DEV" --rw=randread --bs=4k --iodepth=32 \
		--ioengine=$engine --direct=1 --runtime=1 --time_based --output-format=json \
		--no-save --output="$RB_TMP/rb.json" 2>"$RB_TMP/err"; then
		rt=$(python3 -c 'import json,sys; t=open(sys.argv[1]).read(); print(json.loads(t[t.index("{"):])["jobs"][0]["read"]["runtime"])' "$RB_TMP/rb.json")
		check "$engine time-based run lasts the runtime ($rt ms)" [ "$rt" -ge 990 -a "$rt" -le 1800 ]
	else
		fail "$engine time-based run: $(head -2 "$RB_TMP/err")"
	fi
done
rb_done
