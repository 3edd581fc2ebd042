#!/bin/bash
# A large I/O leaves as one request: raidbench's 1M reads on a loop device
# reach the device as 1M requests (its I/O buffers are on huge pages where
# the system allows them, so 256 pages do not pass the queue's limit of 128
# segments and split in two). Counted from the device's own statistics
# (/sys/block/loopN/stat: reads completed, sectors read), with libaio at
# depth 4 and psync at depth 1.
. "$(dirname "$0")/lib.sh"
rb_init
need_root
thp=/sys/kernel/mm/transparent_hugepage/enabled
[ -r "$thp" ] || rb_skip "no transparent huge pages in this kernel ($thp)"
grep -q '\[never\]' "$thp" && rb_skip "transparent huge pages are off ($thp says never)"
make_loop 64
q=/sys/block/$(basename "$LOOP_DEV")
[ "$(cat "$q/queue/max_sectors_kb")" -ge 1024 ] ||
	rb_skip "$LOOP_DEV takes requests of at most $(cat "$q/queue/max_sectors_kb") KiB"

# reads_sectors: "reads-completed sectors-read" of the loop device
reads_sectors() { awk '{ print $1, $3 }' "$q/stat"; }

for engine in libaio psync; do
	depth=$([ $engine = libaio ] && echo 4 || echo 1)
	read -r r0 s0 < <(reads_sectors)
	if "$RAIDBENCH" run --no-save --output-format=json --output="$RB_TMP/$engine.json" \
		--name=big --filename="$LOOP_DEV" --rw=read --bs=1M --size=32m --iodepth=$depth \
		--ioengine=$engine --direct=1 >"$RB_TMP/out" 2>&1; then
		read -r r1 s1 < <(reads_sectors)
		ios=$(json_get "$RB_TMP/$engine.json" "d['jobs'][0]['read']['total_ios']")
		check "$engine QD$depth: 32 reads of 1M" [ "$ios" = 32 ]
		check "$engine QD$depth: 65536 sectors read ($((s1 - s0)))" [ $((s1 - s0)) = 65536 ]
		check "$engine QD$depth: one request per I/O ($((r1 - r0)) requests)" [ $((r1 - r0)) = 32 ]
	else
		fail "$engine run: $(tail -3 "$RB_TMP/out")"
	fi
done
rb_done
