#!/bin/bash
# The live progress follows the worker's own rule of passes (core/worker.c's
# another_pass, worker_further_pass in core/worker_offset.c): loops passes,
# verify's read-backs, further passes while io_size= is not reached, and
# runtime= or a timed job's clock. Each shape runs on the null engine paced
# by rate_iops, and every tick's percent is checked against what the job had
# moved by then of all it moved (the final cumulative bytes): it climbs to
# 100 with the bytes, never past 100, never far below.
. "$(dirname "$0")/lib.sh"
rb_init
need_tool python3 python3
L=$RB_TMP/live.jsonl

# shape NAME MODE OPTIONS...: MODE bytes (percent follows the bytes moved), paced
# (it follows the clock: the bytes of a ramp are in no live record) or clock:S (the
# run's total over a job timed at S seconds and job "s", bound by its size)
shape() {
	local name=$1 mode=$2
	shift 2
	if ! "$RAIDBENCH" run --ioengine=null --bs=4k --rate_iops=10000 --live-interval=100 \
		"$@" --live="$L" --output=/dev/null --no-save 2>"$RB_TMP/err"; then
		fail "$name: the run failed: $(cat "$RB_TMP/err")"
		return
	fi
	res=$(python3 - "$L" "$mode" <<'PY'
import json, sys
t = [json.loads(l) for l in open(sys.argv[1])]
mode = sys.argv[2]
def moved(x, name=None):
    # the run's bytes, or one job's
    o = x["total"] if name is None else next((j for j in x["jobs"] if j["name"] == name), {})
    return sum(v.get("total_bytes", 0) for v in o.values() if isinstance(v, dict))
final = moved(t[-1])
final_s = moved(t[-1], "s")
run = [x for x in t if x["running"]]
bad, worst = [], 0.0
if len(run) < 4:
    bad.append("only %d ticks while running" % len(run))
for x in run:
    p = x["percent"]
    if mode == "bytes":
        want = 100.0 * moved(x) / final
    elif mode == "paced":
        # a job paced by rate_iops from its first I/O to its end (the first tick after it)
        end = next(y["t_ms"] for y in t if not y["running"])
        want = 100.0 * x["t_ms"] / end
    else:
        # the timed job's clock and the sized job's bytes, half each
        secs = float(mode.split(":")[1])
        want = 50.0 * min(1.0, x["t_ms"] / 1000.0 / secs) + 50.0 * moved(x, "s") / final_s
        want = min(want, 100.0)
    worst = max(worst, abs(p - want))
    if p > 100.0 or abs(p - want) > (4.0 if mode == "bytes" else 8.0):
        bad.append("%.1f%% at %d ms where %.1f%% is done" % (p, x["t_ms"], want))
if t[-1]["percent"] != 100:
    bad.append("ends at %.1f%%" % t[-1]["percent"])
print("ok" if not bad else "bad", "%d ticks, %d bytes, off by %.1f at most;" % (len(run), final, worst), "; ".join(bad[:3]))
PY
)
	check "$name: percent follows what is done ($res)" [ "${res%% *}" = ok ]
}

# io_size= below size= with loops and verify: 3 x (8m written + 8m read back)
shape "io_size<size, loops=3, verify" bytes --name=a --rw=write --size=16m --io_size=8m \
	--loops=3 --verify=crc32c
# io_size= past size=: two loops of the region, then passes up to io_size= (64m, not 128m)
shape "io_size>size, loops=2" bytes --name=a --rw=read --size=16m --io_size=64m --loops=2
# a queueing engine, random: two loops of a full map, then one more (48m: a further pass
# moves size= bytes however far past io_size= that takes it, fio's cap being loops x io_size)
shape "io_size>size, randwrite, iodepth=4" bytes --name=a --rw=randwrite --size=16m \
	--io_size=40m --loops=2 --iodepth=4
# verify=: the writes, then as many bytes read back
shape "verify=crc32c" bytes --name=a --rw=write --size=32m --verify=crc32c
# the read-back reads each block once: random writes with no map hit about 63 % of them,
# and rw=write:4k's holes every other one, its two loops running on as one pass
shape "randwrite norandommap, verify" bytes --name=a --rw=randwrite --norandommap \
	--size=32m --verify=crc32c
# random writes with no map, two loops that run on as one pass: read back once, at its end
# (about 86 % of the blocks after two region's worth of draws)
shape "randwrite norandommap, loops=2, verify" bytes --name=a --rw=randwrite --norandommap \
	--size=16m --loops=2 --verify=crc32c
shape "rw=write:4k holes, loops=2, verify" bytes --name=a --rw=write:4k --size=16m --loops=2 \
	--verify=crc32c
# holes over a region that is not a whole number of blocks: each pass ends where the
# file does (a third of the region read, fio's rule), loop by loop; over three files
# the holes wrap to each file's start and the passes run on to the job's bytes
shape "rw=read:8k holes that end, loops=2" bytes --name=a --rw=read:8k --size=65534k --loops=2
shape "rw=write:8k holes that end, io_size=, verify" bytes --name=a --rw=write:8k --size=65534k \
	--io_size=48m --verify=crc32c
shape "rw=read:8k holes that wrap, nrfiles=3" bytes --name=a --rw=read:8k --nrfiles=3 --size=49158k
# ramp_time=: the ramp's bytes are not in the statistics, yet they count toward the
# passes; paced, the percent follows the clock from the first I/O (a third in the ramp)
shape "ramp_time=1 on a sized job" paced --name=a --rw=read --size=16m --io_size=120m \
	--ramp_time=1
# rw=rw past the region: a pass ends where a direction reaches the end, a further one follows
shape "rw=rw, io_size>size, loops=2" bytes --name=a --rw=rw --size=16m --io_size=64m --loops=2
shape "rw=rw, rwmixread=70, io_size>size, loops=2" bytes --name=a --rw=rw --rwmixread=70 \
	--size=16m --io_size=64m --loops=2
# io_size= below size=: io_size= x loops bounds the job over its passes, a pass ends at the
# region's end (rw=rw: 48m in passes that end where a direction reaches the end; random
# writes: a full map each pass, read back each)
shape "rw=rw, io_size<size, loops=3" bytes --name=a --rw=rw --size=32m --io_size=16m --loops=3
shape "randwrite, io_size<size, loops=3, verify" bytes --name=a --rw=randwrite --size=16m \
	--io_size=8m --loops=3 --verify=crc32c
# trims past the region: they count as moved, so io_size= ends the passes sooner for
# trimwrite (64m: two passes of writes and trims) and the further passes of trim are its own
shape "trim, io_size>size" bytes --name=a --rw=trim --size=16m --io_size=40m
shape "trimwrite, io_size>size" bytes --name=a --rw=trimwrite --size=16m --io_size=40m
# several files: a file is done once the direction picked is at its end (rw=rw), its map
# full (randrw), and the pass ends with the last one
shape "rw=rw, nrfiles=2, io_size>size, loops=2" bytes --name=a --rw=rw --nrfiles=2 --size=16m \
	--io_size=64m --loops=2
shape "randrw, nrfiles=2, io_size>size" bytes --name=a --rw=randrw --nrfiles=2 --size=16m \
	--io_size=40m
# verify_only: a dry run of each pass (not counted as moved: nothing is written) and its
# read-back, loop by loop and pass by pass: 64m read back of a 16m file, with loops=4 and
# with io_size= past size= (passes of dry-run writes and read-backs up to 100m). The
# read-back is not paced: small blocks and short ticks give it enough ticks
vo=(--ioengine=psync --filename="$RB_TMP/vo.dat" --rw=write --bs=512 --size=16m --verify=crc32c)
if "$RAIDBENCH" run --name=w "${vo[@]}" --do_verify=0 --output=/dev/null --no-save \
	2>"$RB_TMP/err"; then
	# loops=4, not 2: on a fast machine two loops' read-back took 3 ticks of 10 ms
	shape "verify_only, loops=4" bytes --live-interval=10 --name=a "${vo[@]}" --verify_only=1 \
		--loops=4
	shape "verify_only, io_size>size" bytes --live-interval=10 --name=a "${vo[@]}" \
		--verify_only=1 --io_size=100m
else
	fail "verify_only: writing the file failed: $(cat "$RB_TMP/err")"
fi
rm -f "$RB_TMP/vo.dat"
# runtime= longer than the job: it ends by its size, and so does its progress
shape "runtime= past a sized job's end" bytes --name=a --rw=read --size=32m --runtime=30
# a timed job beside a sized job with verify: half the total each
shape "time_based beside a sized job with verify" clock:2 --name=t --rw=read --size=16m \
	--runtime=2 --time_based --name=s --rw=write --size=16m --verify=crc32c
rb_done
