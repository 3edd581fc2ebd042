#!/bin/bash
# vs_fio_timed.sh - time-based IOPS of raidbench against fio 3.33 on a loop
# device, by hand (`SRCDIR=. RAIDBENCH=./raidbench bash tests/bench/vs_fio_timed.sh`;
# make bench's cases b1 and b2 measure the same pairs; timing never runs in make check): 3 pairs per
# engine back to back, the order alternating; a shared machine's loop device
# swings 2-5x between runs, so the figure is the median of the per-pair ratios
# (load that lasts longer than a pair cancels out) with wide bounds.
. "$(dirname "$0")/../integration/lib.sh"
rb_init
need_root
need_tool fio fio
need_tool python3 python3
make_loop 64
DEV=$LOOP_DEV
iops_rt() {
	python3 -c 'import json,sys; t=open(sys.argv[1]).read(); d=json.loads(t[t.index("{"):]); r=d["jobs"][0]["read"]; print(int(r["iops"]), r["runtime"])' "$1"
}
rb_timing_begin
for engine in libaio io_uring; do
	ratios=() rts=()
	for round in 1 2 3; do
		args=(--name=tb --filename="$DEV" --rw=randread --bs=4k --iodepth=32 --ioengine=$engine
			--direct=1 --runtime=2 --time_based --output-format=json)
		# alternate which goes first, so an effect of order cancels out
		if [ $((round % 2)) = 1 ]; then
			fio "${args[@]}" --output="$RB_TMP/fio.json" >/dev/null 2>&1
			"$RAIDBENCH" run "${args[@]}" --output="$RB_TMP/rb.json" 2>/dev/null
		else
			"$RAIDBENCH" run "${args[@]}" --output="$RB_TMP/rb.json" 2>/dev/null
			fio "${args[@]}" --output="$RB_TMP/fio.json" >/dev/null 2>&1
		fi
		read -r fi frt <<<"$(iops_rt "$RB_TMP/fio.json")"
		read -r ri rrt <<<"$(iops_rt "$RB_TMP/rb.json")"
		ratios+=("$(python3 -c "print($ri / max(1, $fi))")")
		rts+=("$rrt")
	done
	ratio=$(python3 -c 'import statistics,sys; print("%.2f" % statistics.median(float(x) for x in sys.argv[1:]))' "${ratios[@]}")
	echo "# $engine randread 4k qd32 loop: per-pair raidbench/fio ${ratios[*]} median $ratio; runtimes ${rts[*]} ms"
	check "$engine time-based runs last the runtime (${rts[*]} ms)" \
		python3 -c "import sys; sys.exit(0 if all(1990 <= int(x) <= 2300 for x in '${rts[*]}'.split()) else 1)"
	check "$engine time-based IOPS within noise of fio (median paired ratio $ratio)" \
		python3 -c "import sys; sys.exit(0 if 0.5 <= $ratio <= 2.0 else 1)"
done
rb_timing_end
rb_done
