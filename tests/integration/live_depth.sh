#!/bin/bash
# In-flight depth means the same for every engine: sync-engine jobs count while
# inside their syscall, so 8 sync jobs on a direct-I/O loop device show a
# depth near 8 in --live (total and per job), as an async engine at iodepth=8
# does; it never reads 0 while the device is busy.
. "$(dirname "$0")/lib.sh"
rb_init
need_root
need_tool python3 python3
make_loop 256
DEV=$LOOP_DEV

depth_of() { # depth_of ENGINE NUMJOBS IODEPTH: "max mean jobmax" of the ticks' inflight
	local L=$RB_TMP/live-$1.jsonl
	"$RAIDBENCH" run --name=d --filename="$DEV" --rw=randread --ioengine="$1" --numjobs="$2" \
		--iodepth="$3" --direct=1 --bs=4k --runtime=2 --time_based --live="$L" --no-save \
		--output-format=terse >/dev/null 2>"$RB_TMP/err" || { echo "run failed: $(cat "$RB_TMP/err")"; return; }
	python3 - "$L" <<'PY'
import json, sys
ticks = [json.loads(l) for l in open(sys.argv[1])]
# the run phase only: the first and last ticks hold setup and the tail
run = [t for t in ticks if t["running"] and t["total"].get("read", {}).get("ios", 0)]
tot = [t["total"]["inflight"] for t in run]
jobs = [j["inflight"] for t in run for j in t["jobs"]]
print(max(tot or [0]), sum(tot) / max(len(tot), 1), max(jobs or [0]))
PY
}

for eng in sync psync; do
	read -r max mean jobmax < <(depth_of $eng 8 1)
	check "$eng x8: the total in-flight reaches 8 jobs in their syscalls (max $max)" \
		[ "${max:-0}" -ge 6 ]
	check "$eng x8: the mean depth is not 0 while the device works (mean $mean)" \
		python3 -c "import sys; sys.exit(0 if float('${mean:-0}') >= 4 else 1)"
	check "$eng x8: a job's own inflight is 1 while it waits on the device (max $jobmax)" \
		[ "${jobmax:-0}" -eq 1 ]
done
# the same meaning as an async engine's: submitted and not completed
read -r max mean jobmax < <(depth_of libaio 1 8)
check "libaio x1 at iodepth=8: in-flight up to 8 (max $max)" [ "${max:-0}" -ge 6 -a "${max:-0}" -le 8 ]
rb_done
