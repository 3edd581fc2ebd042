#!/bin/bash
# bench.sh - `make bench`: raidbench against fio 3.33 on the same jobs on the
# same machine, alternating A B A B, and whether the performance bars of
# DESIGN.md "Performance" (issue 8) hold. A measurement, not a test: it exits
# 0 even when a bar fails (and says FAIL); non-zero only when it cannot
# measure at all. Everything it creates (loop devices, files, a tmux server on
# its own socket) lives under one mktemp -d directory in /var/tmp, the loop
# devices' backing files under a second one in /dev/shm (see BENCH_LOOP_DIR),
# and is removed on exit, also on failure or Ctrl-C. It never touches a loop device
# it did not create.
#
# Cases (each: median and min-max over the rounds; ratio raidbench/fio):
#   a  null engine, 4k randread, iodepth 32 and 1, one job, fio's default
#      latency statistics (slat, clat, lat, clat percentiles) on in both
#   b  4k randread on a loop device with direct I/O: libaio and io_uring at
#      iodepth 32 and 1, psync at 1 (a sync engine's depth is 1 whatever
#      iodepth says, in both tools); io_uring at 32 tuned as fio's options
#      allow (fixedbufs registerfiles sqthread_poll nonvectored), both tools
#   c  libaio 1M sequential read, iodepth 8, on the loop device
#   d  the full-screen TUI running a profile on its Run screen (tmux,
#      132x43) against the same job headless: null QD32 one job, and libaio
#      QD4 with 64 jobs over 8 loop devices (one Target, a colon list); the main (UI)
#      thread's CPU and the engine thread's are read from /proc while it runs
#   e  peak RSS of a 16-job x iodepth 32 null run, short against long
#   f  ring records per second between two threads, spinning and paced
#      consumer; `raidbench devices --json` time with 64 loop devices attached
#   g  scale: null QD32 with 1, 4, 16, 64 jobs (IOPS, CPU/IO, the engine
#      thread's CPU per 100 ms sampling tick, peak RSS); 16 loop devices at
#      once, a libaio QD32 job on each, against fio
# The bars are judged on paired ratios, the median of A_r/B_r over rounds whose
# two runs ran back to back (tests/bench/benchstat.py says why).
#
# Environment:
#   RAIDBENCH        the binary (make bench sets it)
#   RING_BENCH       the ring benchmark (default: tests/bench/ring_bench next to it)
#   BENCH_QUICK=1    the same cases, shorter: one round each (a smoke pass), 1 s runs,
#                    g with 1 and 64 jobs, e 1 s vs 3 s, 8 loop devices for f2, a 256 MiB
#                    loop device (under 2 min)
#   BENCH_CASES      which cases to run ("a b c d e f g")
#   BENCH_ROUNDS     rounds of the device cases b, c and gl (5); a runs 3 (its ratios are
#                    several times the bar), d 8 (its bar is 2% wide), d2 16 (its runs spread widely), gl 4, g's scale 2
#   BENCH_RUNTIME    seconds per run in a-d and g (2)
#   BENCH_RSS_SHORT, BENCH_RSS_LONG   seconds of the two runs of e (3, 10)
#   BENCH_LOOP_MB    size of the loop device's backing file (512)
#   BENCH_LOOP_DIR   where the loop devices' backing files go (/dev/shm). A file in
#                    memory makes the device cost no more than its kernel path, the
#                    same for both tools, so the cases measure the tools and not
#                    the machine's disk: on a shared virtual disk the same fio job
#                    ran 28k IOPS one afternoon and 64k another morning, and one
#                    run's min-max spanned 0.58-1.30x. /var/tmp measures through
#                    the disk. A directory whose files refuse O_DIRECT falls back
#                    to /var/tmp, and the header says which was used.
#   BENCH_MD         also write the method, the table and the bars as Markdown there
#                    (tests/bench/RESULTS.md is that file from the latest run)
#   BENCH_KEEP       copy the raw JSON and the numbers into this directory
set -u

here=$(cd "$(dirname "$0")" && pwd)
HELPER="$here/benchstat.py"
RAIDBENCH=${RAIDBENCH:-$here/../../raidbench}
RING_BENCH=${RING_BENCH:-$(dirname "$RAIDBENCH")/tests/bench/ring_bench}
CASES=${BENCH_CASES:-a b c d e f g}
# the budget: at most 10 minutes on a loaded 2-CPU machine, 2 with BENCH_QUICK (most of
# it is runs of RUNTIME: rounds go where a bar is near and the spread wide)
if [ -n "${BENCH_QUICK:-}" ] && [ "${BENCH_QUICK}" != 0 ]; then
	# a smoke pass: one pair per case (process start-up, not the 1 s runs, is most of it)
	ROUNDS=${BENCH_ROUNDS:-1}
	RUNTIME=${BENCH_RUNTIME:-1}
	RSS_SHORT=${BENCH_RSS_SHORT:-1}
	RSS_LONG=${BENCH_RSS_LONG:-3}
	A_ROUNDS=$ROUNDS
	D_ROUNDS=$ROUNDS
	D2_ROUNDS=1
	G_ROUNDS=1
	G_JOBS="1 64"
	GL_ROUNDS=1
	F2_ROUNDS=1
	RING_SECS=0.2
	RING_RUNS=3
	NR_INV_LOOPS=8
	LOOP_MB=${BENCH_LOOP_MB:-256}
else
	ROUNDS=${BENCH_ROUNDS:-5}
	RUNTIME=${BENCH_RUNTIME:-2}
	RSS_SHORT=${BENCH_RSS_SHORT:-3}
	RSS_LONG=${BENCH_RSS_LONG:-10}
	# null engine: ratios of 4-8x against a bar of 1.0-1.5x; 3 rounds settle the verdict
	A_ROUNDS=3
	# d's bar is 2% wide: more rounds. d2's identical headless runs gave 211k-352k IOPS
	# on an idle machine (second by second 236k-383k inside one run): 16, which its
	# runs' quick end allows (the jobs' libaio contexts go with their threads)
	D_ROUNDS=8
	D2_ROUNDS=16
	# g's scale table has no bar; gl's ratios sit far from theirs
	G_ROUNDS=2
	G_JOBS="1 4 16 64"
	GL_ROUNDS=4
	F2_ROUNDS=3
	# the ring's bar is the best run: many short runs find the quiet moments of a busy machine
	RING_SECS=0.3
	RING_RUNS=10
fi
LOOP_MB=${LOOP_MB:-${BENCH_LOOP_MB:-512}}
NR_INV_LOOPS=${NR_INV_LOOPS:-64}

die() { echo "bench: $*" >&2; exit 2; }
want() { case " $CASES " in *" $1 "*) return 0 ;; esac; return 1; }

[ -x "$RAIDBENCH" ] || die "no raidbench binary at $RAIDBENCH (build it: make -j2 raidbench)"
command -v python3 >/dev/null || die "python3 is needed"

# fio, GNU time and tmux: install them when missing (Debian), as the README's setup does
missing=
command -v fio >/dev/null || missing="$missing fio"
[ -x /usr/bin/time ] || missing="$missing time"
command -v tmux >/dev/null || missing="$missing tmux"
if [ -n "$missing" ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		echo "bench: installing$missing"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing >/dev/null ||
			die "apt-get install$missing failed"
	else
		die "missing:$missing (install them, or run as root on Debian)"
	fi
fi

WORK=
IMG=
LOOPS=()
TMUX_SOCK=

cleanup() {
	local dev back
	for dev in "${LOOPS[@]}"; do
		# only detach it while it is still backed by one of our files
		back=$(losetup -n -O BACK-FILE "$dev" 2>/dev/null)
		case $back in
		"$WORK"/*) losetup -d "$dev" 2>/dev/null ;;
		"$IMG"/*) [ -n "$IMG" ] && losetup -d "$dev" 2>/dev/null ;;
		esac
	done
	[ -n "$TMUX_SOCK" ] && tmux -S "$TMUX_SOCK" kill-server 2>/dev/null
	[ -n "$IMG" ] && [ "$IMG" != "$WORK" ] && rm -rf "$IMG"
	[ -n "$WORK" ] && rm -rf "$WORK"
}
trap cleanup EXIT
trap 'echo "bench: interrupted" >&2; exit 130' INT TERM HUP

WORK=$(mktemp -d /var/tmp/raidbench-bench.XXXXXX) || die "mktemp failed"
TSV="$WORK/numbers.tsv"
# measure a snapshot: a rebuild of the tree during the bench must not change or remove it
cp "$RAIDBENCH" "$WORK/raidbench" || die "cannot copy $RAIDBENCH"
RAIDBENCH="$WORK/raidbench"

# the loop devices' backing files: in memory unless told otherwise (BENCH_LOOP_DIR above)
LOOP_DIR=${BENCH_LOOP_DIR:-/dev/shm}
IMG=$(mktemp -d "$LOOP_DIR/raidbench-bench.XXXXXX" 2>/dev/null) || IMG=
if [ -n "$IMG" ] && ! dd if=/dev/zero of="$IMG/probe" bs=4k count=1 oflag=direct status=none 2>/dev/null; then
	echo "bench: $LOOP_DIR does not take O_DIRECT; the loop devices' files go to /var/tmp"
	rm -rf "$IMG"
	IMG=
fi
if [ -z "$IMG" ]; then
	IMG=$WORK
	LOOP_DIR=/var/tmp
fi
rm -f "$IMG/probe"
LOOP_FS=$(stat -f -c %T "$IMG" 2>/dev/null)

# new_loop FILE: attaches FILE with direct I/O into $NEW_LOOP and records it for
# cleanup (not in a $(...) subshell, which would lose the record)
new_loop() {
	NEW_LOOP=$(losetup -f --show --direct-io=on "$1") || return 1
	LOOPS+=("$NEW_LOOP")
}

note() { python3 "$HELPER" note "$TSV" "$1" "$2"; }

# run_one CASE TOOL ROUND OPTION...: one run of raidbench or fio with the same options
run_one() {
	local case=$1 tool=$2 round=$3 base rc
	shift 3
	base="$WORK/$case.$tool.$round"
	if [ "$tool" = fio ]; then
		set -- fio "$@"
	else
		set -- "$RAIDBENCH" run --no-save "$@"
	fi
	(cd "$WORK" && timeout -k 5 $((RUNTIME * 3 + 60)) /usr/bin/time -f '%U %S' \
		-o "$base.time" "$@" --output-format=json --output="$base.json" >"$base.log" 2>&1)
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "  $tool round $round failed (exit $rc): $(tail -n 3 "$base.log" | tr '\n' ' ')"
		return 1
	fi
	python3 "$HELPER" run "$TSV" "$case" "$tool" "$round" "$base.json" "$base.time"
}

# pair CASE TITLE OPTION...: PAIR_ROUNDS (default ROUNDS) rounds of raidbench then fio
pair() {
	local case=$1 title=$2 r
	shift 2
	note "$case" "$title"
	echo "== $case  $title  (at ${SECONDS} s)"
	echo "   options: $*"
	for r in $(seq 1 "${PAIR_ROUNDS:-$ROUNDS}"); do
		run_one "$case" raidbench "$r" "$@"
		run_one "$case" fio "$r" "$@"
	done
}

# ---- the machine -----------------------------------------------------------
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
{
	echo "date:      $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "machine:   $(nproc) CPUs, ${cpu:-unknown CPU}, kernel $(uname -r)," \
	     "clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)"
	echo "tools:     $("$RAIDBENCH" --version 2>&1 | head -n 1), $(fio --version)"
	echo "loops:     backing files in $LOOP_DIR (${LOOP_FS:-unknown} file system), losetup --direct-io=on"
	echo "settings:  $ROUNDS rounds ($A_ROUNDS for a, $D_ROUNDS for d, $D2_ROUNDS for d2)," \
	     "${RUNTIME} s per run (a-d, g)," \
	     "e: ${RSS_SHORT} s vs ${RSS_LONG} s," \
	     "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" \
	     "($(ps -e --no-headers | wc -l) processes; the bars use paired ratios because other" \
	     "work on the machine moves absolute figures)"
} >"$WORK/header.txt"
cat "$WORK/header.txt"
case $(fio --version) in fio-3.33*) ;; *) echo "note: the bars are set against fio 3.33" ;; esac
echo

COMMON_NULL=(--name=null --ioengine=null --rw=randread --bs=4k --size=1g --time_based
	     "--runtime=$RUNTIME")

# ---- (a) null engine --------------------------------------------------------
if want a; then
	PAIR_ROUNDS=$A_ROUNDS pair a1 "null engine, 4k randread, iodepth 32, 1 job" "${COMMON_NULL[@]}" --iodepth=32
	PAIR_ROUNDS=$A_ROUNDS pair a2 "null engine, 4k randread, iodepth 1, 1 job" "${COMMON_NULL[@]}" --iodepth=1
fi

# ---- (b), (c) on a loop device ----------------------------------------------
LOOP=
if want b || want c; then
	if [ "$(id -u)" != 0 ]; then
		for c in b1 b2 b3 b4 b5 b6 c1; do note "$c" "n/a: needs root for a loop device"; done
	else
		echo "== loop device: writing a ${LOOP_MB} MiB backing file"
		if dd if=/dev/zero of="$IMG/loop.img" bs=1M count="$LOOP_MB" oflag=direct \
		      status=none && new_loop "$IMG/loop.img"; then
			LOOP=$NEW_LOOP
			echo "   $LOOP over $IMG/loop.img, dio=$(cat "/sys/block/${LOOP#/dev/}/loop/dio" 2>/dev/null)"
		else
			LOOP=
			for c in b1 b2 b3 b4 b5 b6 c1; do note "$c" "n/a: could not set up a loop device"; done
		fi
	fi
fi
if [ -n "$LOOP" ]; then
	DEV=(--filename="$LOOP" --direct=1 --readonly --time_based "--runtime=$RUNTIME")
	if want b; then
		pair b1 "libaio, 4k randread, iodepth 32, loop device, direct" \
			--name=rand --ioengine=libaio --rw=randread --bs=4k --iodepth=32 "${DEV[@]}"
		pair b2 "io_uring, 4k randread, iodepth 32, loop device, direct" \
			--name=rand --ioengine=io_uring --rw=randread --bs=4k --iodepth=32 "${DEV[@]}"
		pair b3 "psync, 4k randread, iodepth 1, loop device, direct" \
			--name=rand --ioengine=psync --rw=randread --bs=4k --iodepth=1 "${DEV[@]}"
		pair b4 "libaio, 4k randread, iodepth 1, loop device, direct" \
			--name=rand --ioengine=libaio --rw=randread --bs=4k --iodepth=1 "${DEV[@]}"
		pair b5 "io_uring, 4k randread, iodepth 1, loop device, direct" \
			--name=rand --ioengine=io_uring --rw=randread --bs=4k --iodepth=1 "${DEV[@]}"
		# hipri is left out: a loop device has no poll queues (both tools fail each I/O)
		pair b6 "io_uring tuned (fixedbufs registerfiles sqthread_poll nonvectored), 4k randread, iodepth 32" \
			--name=rand --ioengine=io_uring --rw=randread --bs=4k --iodepth=32 \
			--fixedbufs --registerfiles --sqthread_poll --nonvectored=1 "${DEV[@]}"
	fi
	if want c; then
		pair c1 "libaio, 1M sequential read, iodepth 8, loop device, direct" \
			--name=seq --ioengine=libaio --rw=read --bs=1M --iodepth=8 "${DEV[@]}"
	fi
fi

# ---- (d) the full-screen TUI on its Run screen against headless ----------------
# tui_pair CASE ROUNDS PROFILE JOBFILE [TARGET]: ROUNDS rounds of the TUI
# running PROFILE (--profile=bench --start, on TARGET when given, in a tmux
# window of 132x43) and of JOBFILE, the same jobs on the same target, headless
# (raidbench run), the two back to back. Both under `benchstat.py threads`, which reads the main
# thread's and the engine thread's CPU from /proc while they run.
tui_pair() {
	local case=$1 rounds=$2 prof=$3 job=$4 target=${5:-} r
	for r in $(seq 1 "$rounds"); do
		# odd rounds run the TUI first, even rounds headless first: a drift over
		# the pair (the host's caches, other work) does not always favour one side
		if [ $((r % 2)) = 1 ]; then
			tui_round "$case" "$r" "$prof" "$target"
			headless_round "$case" "$r" "$job"
		else
			headless_round "$case" "$r" "$job"
			tui_round "$case" "$r" "$prof" "$target"
		fi
	done
}

# tui_round CASE ROUND PROFILE [TARGET]: one TUI run, its numbers appended
tui_round() {
	local case=$1 r=$2 prof=$3 target=${4:-} tdir cmd pane res w
	tdir="$WORK/$case.tui.$r"
	mkdir -p "$tdir/cfg/raidbench/profiles" "$tdir/data"
	cp "$prof" "$tdir/cfg/raidbench/profiles/bench.fio"
	cmd=$(printf '%q ' python3 "$HELPER" threads "$TSV" "$case" tui "$r" -- \
		env XDG_CONFIG_HOME="$tdir/cfg" XDG_DATA_HOME="$tdir/data" \
		XDG_CACHE_HOME="$tdir/cache" LANG=C.UTF-8 /usr/bin/time -f '%U %S' \
		-o "$tdir.time" "$RAIDBENCH" --profile=bench ${target:+--target="$target"} --start)
	pane=$(tmux -S "$TMUX_SOCK" new-window -d -P -F '#{pane_id}' -t bench: \
		"cd $(printf %q "$WORK") && $cmd; tmux -S $(printf %q "$TMUX_SOCK") wait-for -S tui$case$r")
	[ -n "$pane" ] || { echo "  tui round $r: could not open a window"; return; }
	if [ "$r" = 1 ]; then
		sleep "$(awk -v t="$RUNTIME" 'BEGIN { print t / 2 + 0.5 }')"
		echo "  pane: $(tmux -S "$TMUX_SOCK" display -p -t "$pane" '#{pane_width}x#{pane_height}')," \
		     "shows: $(tmux -S "$TMUX_SOCK" capture-pane -p -t "$pane" 2>/dev/null |
			grep -m 2 '[[:alnum:]]' | tr -s ' ' | tr '\n' '|' | cut -c1-120)"
	fi
	# the TUI saves the run when it ends; then quit it as a user would
	for ((w = 0; w < (RUNTIME + 60) * 10; w++)); do
		ls "$tdir"/data/raidbench/results/*.json >/dev/null 2>&1 && break
		sleep 0.1
	done
	tmux -S "$TMUX_SOCK" send-keys -t "$pane" q
	timeout 30 tmux -S "$TMUX_SOCK" wait-for "tui$case$r"
	res=$(ls "$tdir"/data/raidbench/results/*.json 2>/dev/null | head -1)
	if [ -n "$res" ]; then
		python3 "$HELPER" run "$TSV" "$case" tui "$r" "$res" "$tdir.time"
	else
		echo "  tui round $r failed: no saved result"
	fi
}

# headless_round CASE ROUND JOBFILE: the same jobs through `raidbench run`
headless_round() {
	local case=$1 r=$2 job=$3 base
	base="$WORK/$case.headless.$r"
	if (cd "$WORK" && timeout -k 5 $((RUNTIME * 3 + 60)) python3 "$HELPER" threads "$TSV" \
		"$case" headless "$r" -- /usr/bin/time -f '%U %S' -o "$base.time" "$RAIDBENCH" run \
		--no-save "$job" --output-format=json --output="$base.json" >"$base.log" 2>&1); then
		python3 "$HELPER" run "$TSV" "$case" headless "$r" "$base.json" "$base.time"
	else
		echo "  headless round $r failed: $(tail -n 3 "$base.log" | tr '\n' ' ')"
	fi
}

if want d; then
	TMUX_SOCK="$WORK/tmux.sock"
	# a server of our own on a socket in $WORK, windows of 132x43 with no status line
	if ! tmux -S "$TMUX_SOCK" -f /dev/null new-session -d -s bench -x 132 -y 43 "sleep 100000" ||
	   ! tmux -S "$TMUX_SOCK" set-option -g status off >/dev/null ||
	   ! tmux -S "$TMUX_SOCK" set-option -g default-size 132x43 >/dev/null; then
		note d "n/a: tmux could not start a session"
		note d2 "n/a: tmux could not start a session"
		echo "  n/a: tmux could not start a session"
	else
		title="null QD32, 1 job: the TUI's Run screen (tmux 132x43) vs headless"
		note d "$title"
		echo "== d  $title  (at ${SECONDS} s)"
		printf '[global]\nioengine=null\nrw=randread\nbs=4k\nsize=1g\niodepth=32\nruntime=%s\ntime_based\n[null-qd32]\ndescription=bench d\n' \
			"$RUNTIME" >"$WORK/d.fio"
		tui_pair d "$D_ROUNDS" "$WORK/d.fio" "$WORK/d.fio"

		# 8 loop devices as one Target, fio's colon list (the target overrides filename=):
		# every job spreads its I/O over the 8, the Run screen has a row per device; the
		# headless run is given the same list
		title="libaio QD4, 64 jobs (8 sections x numjobs=8) over 8 loop devices: the TUI's Run screen vs headless"
		d2devs=
		if [ "$(id -u)" != 0 ]; then
			note d2 "n/a: needs root for loop devices"
		else
			for i in 1 2 3 4 5 6 7 8; do
				truncate -s 64M "$IMG/d2-$i.img" && new_loop "$IMG/d2-$i.img" ||
					{ d2devs=; break; }
				d2devs=${d2devs:+$d2devs:}$NEW_LOOP
			done
		fi
		if [ -n "$d2devs" ]; then
			printf '[global]\nioengine=libaio\nrw=randread\nbs=4k\niodepth=4\ndirect=1\nnumjobs=8\nruntime=%s\ntime_based\n' \
				"$RUNTIME" >"$WORK/d2.fio"
			for i in 1 2 3 4 5 6 7 8; do
				printf '[job%s]\n' "$i" >>"$WORK/d2.fio"
			done
			# line 1 is [global]: the devices go there, for every job
			sed "1a filename=$d2devs" "$WORK/d2.fio" >"$WORK/d2-headless.fio"
			note d2 "$title"
			echo "== d2 $title  (at ${SECONDS} s)"
			tui_pair d2 "$D2_ROUNDS" "$WORK/d2.fio" "$WORK/d2-headless.fio" "$d2devs"
		elif [ "$(id -u)" = 0 ]; then
			note d2 "n/a: could not attach 8 loop devices"
		fi
	fi
fi

# ---- (e) memory flat with run length ----------------------------------------
if want e; then
	title="peak RSS (/usr/bin/time -v), 16 jobs x iodepth 32 null, ${RSS_SHORT} s vs ${RSS_LONG} s"
	note e "$title"
	echo "== e  $title  (at ${SECONDS} s)"
	for spec in "short:$RSS_SHORT:raidbench" "long:$RSS_LONG:raidbench" "fio-short:$RSS_SHORT:fio"; do
		IFS=: read -r tag secs tool <<<"$spec"
		base="$WORK/e.$tag"
		opts=(--name=rss --ioengine=null --rw=randread --bs=4k --size=1g --iodepth=32
		      --numjobs=16 --time_based "--runtime=$secs" --output-format=json
		      "--output=$base.json")
		if [ "$tool" = fio ]; then
			set -- fio --thread "${opts[@]}"
		else
			set -- "$RAIDBENCH" run --no-save "${opts[@]}"
		fi
		if (cd "$WORK" && timeout -k 5 $((secs * 2 + 60)) /usr/bin/time -v -o "$base.time" \
			"$@" >"$base.log" 2>&1); then
			kb=$(sed -n 's/.*Maximum resident set size (kbytes): *//p' "$base.time")
			echo "  $tag ($tool, ${secs} s): max RSS ${kb} KiB"
			python3 "$HELPER" add "$TSV" e "$tag" 1 rss_kb "$kb"
		else
			echo "  $tag ($tool) failed: $(tail -n 3 "$base.log" | tr '\n' ' ')"
		fi
	done
fi

# ---- (f) ring and inventory ---------------------------------------------------
if want f; then
	note f1 "ring: records/s between two threads (tests/bench/ring_bench, threads pinned to CPUs 0 and 1, ${RING_SECS} s each, a ring of a run's size (RING_LIVE_CAPACITY records), in place, batches of 32; spinning consumer for the bar, best of $RING_RUNS; paced: one that drains per frame)"
	echo "== f1 ring records per second  (at ${SECONDS} s)"
	if [ -x "$RING_BENCH" ]; then
		for r in $(seq 1 "$RING_RUNS"); do
			# the paced consumer has no bar: a third of the runs
			for mode in spin $([ $((r % 3)) = 1 ] && echo paced); do
				# capacity 0: ring_bench's default, the size of a run's live ring
				out=$(timeout 60 "$RING_BENCH" "$RING_SECS" 0 32 "$mode" 2>&1)
				rate=$(echo "$out" | sed -n 's/^records_per_s //p')
				echo "  round $r $mode: $(echo "$out" | tr '\n' ' ')"
				[ -n "$rate" ] &&
					python3 "$HELPER" add "$TSV" f1 "$mode" "$r" records_per_s "$rate"
			done
		done
	else
		note f1 "n/a: not built yet (tests/bench/ring_bench is built when core/ring.h exists)"
		echo "  n/a: not built yet"
	fi

	echo "== f2 inventory enumeration with $NR_INV_LOOPS loop devices  (at ${SECONDS} s)"
	if ! timeout 120 "$RAIDBENCH" devices --json >/dev/null 2>&1; then
		note f2 "n/a: not built yet (raidbench devices --json does not succeed)"
		echo "  n/a: not built yet"
	elif [ "$(id -u)" != 0 ]; then
		note f2 "n/a: needs root for loop devices"
		echo "  n/a: needs root"
	else
		note f2 "raidbench devices --json, $NR_INV_LOOPS extra loop devices attached (wall time)"
		ok=1
		for i in $(seq 1 "$NR_INV_LOOPS"); do
			truncate -s 16M "$IMG/inv$i.img" && new_loop "$IMG/inv$i.img" ||
				{ ok=0; break; }
		done
		if [ $ok = 1 ]; then
			for r in $(seq 1 "$F2_ROUNDS"); do
				t0=$(date +%s%N)
				timeout 120 "$RAIDBENCH" devices --json >"$WORK/f2.$r.json" 2>"$WORK/f2.$r.log"
				rc=$?
				t1=$(date +%s%N)
				n=$(python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
print(sum(1 for b in d.get("block_devices", []) if str(b.get("name","")).startswith("loop")))' \
					"$WORK/f2.$r.json" 2>/dev/null)
				secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }')
				echo "  round $r: ${secs} s, exit $rc, ${n:-?} loop devices listed"
				[ $rc = 0 ] && python3 "$HELPER" add "$TSV" f2 raidbench "$r" seconds "$secs"
			done
		else
			note f2 "n/a: could not attach $NR_INV_LOOPS loop devices"
			echo "  n/a: could not attach $NR_INV_LOOPS loop devices"
		fi
	fi
fi

# ---- (g) scale -------------------------------------------------------------------
if want g; then
	for n in $G_JOBS; do
		title="$n job(s) x null 4k randread iodepth 32 (raidbench; /proc read every 0.1 s)"
		note "gj$n" "$title"
		echo "== gj$n $title  (at ${SECONDS} s)"
		for r in $(seq 1 "$G_ROUNDS"); do
			base="$WORK/gj$n.$r"
			if (cd "$WORK" && timeout -k 5 $((RUNTIME * 3 + 60)) python3 "$HELPER" threads "$TSV" \
				"gj$n" raidbench "$r" -- /usr/bin/time -f '%U %S' -o "$base.time" "$RAIDBENCH" \
				run --no-save "${COMMON_NULL[@]}" --iodepth=32 --numjobs="$n" \
				--output-format=json --output="$base.json" >"$base.log" 2>&1); then
				python3 "$HELPER" run "$TSV" "gj$n" raidbench "$r" "$base.json" "$base.time"
			else
				echo "  round $r failed: $(tail -n 3 "$base.log" | tr '\n' ' ')"
			fi
		done
	done
	if [ "$(id -u)" != 0 ]; then
		note gl "n/a: needs root for loop devices"
	else
		ok=1
		printf '[global]\nioengine=libaio\nrw=randread\nbs=4k\niodepth=32\ndirect=1\nruntime=%s\ntime_based\n' \
			"$RUNTIME" >"$WORK/gl.fio"
		for i in $(seq 1 16); do
			if truncate -s 64M "$IMG/gl-$i.img" && new_loop "$IMG/gl-$i.img"; then
				printf '[dev%s]\nfilename=%s\n' "$i" "$NEW_LOOP" >>"$WORK/gl.fio"
			else
				ok=0
				break
			fi
		done
		if [ $ok = 1 ]; then
			PAIR_ROUNDS=$GL_ROUNDS pair gl "16 loop devices at once, a libaio 4k randread QD32 job on each" "$WORK/gl.fio"
		else
			note gl "n/a: could not attach 16 loop devices"
		fi
	fi
fi

# ---- the table ----------------------------------------------------------------
echo
echo "==================== results ===================="
cat "$WORK/header.txt"
[ -s "$TSV" ] || die "nothing was measured"
echo "took:      $SECONDS s; load average after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$WORK/header.txt"
python3 "$HELPER" report "$TSV" "$WORK/table.md"
if [ -n "${BENCH_MD:-}" ]; then
	# the whole of RESULTS.md: `make bench BENCH_MD=$PWD/tests/bench/RESULTS.md`
	{
		echo '# `make bench`: raidbench against fio 3.33, latest results'
		echo
		echo 'Written by `tests/bench/bench.sh` (`BENCH_MD=FILE`), nothing by hand. Each run is'
		echo 'one process started cold with `--output-format=json` (raidbench `run --no-save`),'
		echo 'raidbench and fio alternating A B A B on the same job. Loop cases: files in a'
		echo '`mktemp -d` directory (the header says where: /dev/shm unless `BENCH_LOOP_DIR` says'
		echo 'otherwise) attached with `losetup --direct-io=on`, jobs with `--direct=1`. A file in'
		echo 'memory makes the device cost no more than its kernel path, the same for both tools, so'
		echo 'the loop cases measure the tools, not the shared disk under the machine. *CPU us/IO (job)*: (usr_cpu + sys_cpu)/100 x job_runtime / total_ios'
		echo 'from each tool'"'"'s JSON, summed over jobs; *(process)*: user + system time of the whole'
		echo 'process tree (`/usr/bin/time`) over total_ios. Cells are median [min-max]. *paired* is'
		echo 'the median [min-max] of the per-round ratios of two runs that ran back to back: the'
		echo 'bars use it, because load from other work on the machine moves absolute figures far'
		echo 'more than it moves a ratio of neighbours. The load average before and after is in the'
		echo 'header; a loaded machine widens every [min-max]. With 6 rounds or more, the CPU bars'
		echo 'of (b) and the IOPS bars of (d) also give a 95% interval of that median (the k-th'
		echo 'smallest and largest ratio, from the binomial law, no distribution assumed); where it holds the'
		echo 'bar, the verdict is the median'"'"'s side of it, and the run'"'"'s noise could have put it'
		echo 'on the other.'
		echo
		echo 'Defaults that differ from fio'"'"'s and show here: raidbench submits every I/O it could'
		echo 'prepare in one call and reaps every completion already there in one call unless'
		echo '`iodepth_batch`/`iodepth_batch_complete_max` are given (fio: one per call); its'
		echo 'io_uring registers the files and, unless `fixedbufs=0`, the buffers; its libaio reads'
		echo 'ready completions from the mapped ring (fio: `userspace_reap`). At full depth its'
		echo 'io_uring submits and waits in one `io_uring_enter` (fio: two), so its slat there is'
		echo 'the time to prepare the I/O. Case d2'"'"'s TUI runs a profile on one Target, 8 loop'
		echo 'devices as a colon list: each of the 64 jobs spreads its I/O over the 8; its rounds'
		echo 'alternate which of the two runs first. I/O buffers of 2 MiB or more, or with units of'
		echo '512 KiB or more, are mapped on transparent huge pages (fio: plain malloc), so a 1M I/O'
		echo 'leaves as one request.'
		echo
		echo 'The *split* lines under the device bars divide the job CPU per I/O into user and'
		echo 'kernel time (usr_cpu and sys_cpu of the same JSON). Both tools make the same system'
		echo 'calls per I/O, so the kernel part is a floor: where it is over 60 % of fio'"'"'s own CPU'
		echo 'per I/O, the bar of 0.6x on the total cannot be met by work in user space.'
		echo
		sed 's/^/    /' "$WORK/header.txt"
		echo
		cat "$WORK/table.md"
	} >"$BENCH_MD"
	echo "(Markdown written to $BENCH_MD)"
fi
if [ -n "${BENCH_KEEP:-}" ]; then
	mkdir -p "$BENCH_KEEP" && cp "$WORK"/*.json "$WORK"/*.tsv "$WORK"/*.md "$WORK"/header.txt \
		"$BENCH_KEEP"/ 2>/dev/null
	echo "(raw results copied to $BENCH_KEEP)"
fi
exit 0
