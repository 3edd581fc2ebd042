#!/bin/bash
# bench.sh - `make bench`: raidbench against fio 3.33 on the same jobs on the
# same machine, alternating A B A B, and whether the performance bars of
# DESIGN.md "Performance" (issue 8) hold. A measurement, not a test: it exits
# 0 even when a bar fails (and says FAIL); non-zero only when it cannot
# measure at all. Everything it creates (loop devices, files, a tmux server on
# its own socket) lives under one mktemp -d directory in /var/tmp and is
# removed on exit, also on failure or Ctrl-C. It never touches a loop device
# it did not create.
#
# Cases (each: median and min-max over the rounds; ratio raidbench/fio):
#   a  null engine, 4k randread, iodepth 32 and 1, one job, fio's default
#      latency statistics (slat, clat, lat, clat percentiles) on in both
#   b  libaio and io_uring 4k randread iodepth 32, psync iodepth 1, on a loop
#      device with direct I/O
#   c  libaio 1M sequential read, iodepth 8, on the loop device
#   d  null engine with the live view on a terminal (inside tmux) against
#      headless (stderr to a file)
#   e  peak RSS of a 16-job x iodepth 32 null run, short against long
#   f  ring records per second between two threads; `raidbench devices
#      --json` time with 64 loop devices attached
# The bars are judged on paired ratios, the median of A_r/B_r over rounds whose
# two runs ran back to back (tests/bench/benchstat.py says why).
#
# Environment:
#   RAIDBENCH        the binary (make bench sets it)
#   RING_BENCH       the ring benchmark (default: tests/bench/ring_bench next to it)
#   BENCH_CASES      which cases to run ("a b c d e f")
#   BENCH_ROUNDS     rounds per case (5; d runs twice as many: its bar is 2% wide)
#   BENCH_RUNTIME    seconds per run in a-d (3)
#   BENCH_RSS_SHORT, BENCH_RSS_LONG   seconds of the two runs of e (10, 60)
#   BENCH_LOOP_MB    size of the loop device's backing file (1024)
#   BENCH_MD         also write the table and the bars as Markdown there
#   BENCH_KEEP       copy the raw JSON and the numbers into this directory
set -u

here=$(cd "$(dirname "$0")" && pwd)
HELPER="$here/benchstat.py"
RAIDBENCH=${RAIDBENCH:-$here/../../raidbench}
RING_BENCH=${RING_BENCH:-$(dirname "$RAIDBENCH")/tests/bench/ring_bench}
CASES=${BENCH_CASES:-a b c d e f}
ROUNDS=${BENCH_ROUNDS:-5}
RUNTIME=${BENCH_RUNTIME:-3}
RSS_SHORT=${BENCH_RSS_SHORT:-10}
RSS_LONG=${BENCH_RSS_LONG:-60}
LOOP_MB=${BENCH_LOOP_MB:-1024}
NR_INV_LOOPS=64

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
LOOPS=()
TMUX_SOCK=

cleanup() {
	local dev back
	for dev in "${LOOPS[@]}"; do
		# only detach it while it is still backed by one of our files
		back=$(losetup -n -O BACK-FILE "$dev" 2>/dev/null)
		case $back in "$WORK"/*) losetup -d "$dev" 2>/dev/null ;; esac
	done
	[ -n "$TMUX_SOCK" ] && tmux -S "$TMUX_SOCK" kill-server 2>/dev/null
	[ -n "$WORK" ] && rm -rf "$WORK"
}
trap cleanup EXIT
trap 'echo "bench: interrupted" >&2; exit 130' INT TERM HUP

WORK=$(mktemp -d /var/tmp/raidbench-bench.XXXXXX) || die "mktemp failed"
TSV="$WORK/numbers.tsv"
# measure a snapshot: a rebuild of the tree during the bench must not change or remove it
cp "$RAIDBENCH" "$WORK/raidbench" || die "cannot copy $RAIDBENCH"
RAIDBENCH="$WORK/raidbench"

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

# pair CASE TITLE OPTION...: ROUNDS rounds of raidbench then fio
pair() {
	local case=$1 title=$2 r
	shift 2
	note "$case" "$title"
	echo "== $case  $title"
	echo "   options: $*"
	for r in $(seq 1 "$ROUNDS"); do
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
	echo "settings:  $ROUNDS rounds ($((ROUNDS * 2)) for d), ${RUNTIME} s per run (a-d)," \
	     "e: ${RSS_SHORT} s vs ${RSS_LONG} s," \
	     "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$WORK/header.txt"
cat "$WORK/header.txt"
case $(fio --version) in fio-3.33*) ;; *) echo "note: the bars are set against fio 3.33" ;; esac
echo

COMMON_NULL=(--name=null --ioengine=null --rw=randread --bs=4k --size=1g --time_based
	     "--runtime=$RUNTIME")

# ---- (a) null engine --------------------------------------------------------
if want a; then
	pair a1 "null engine, 4k randread, iodepth 32, 1 job" "${COMMON_NULL[@]}" --iodepth=32
	pair a2 "null engine, 4k randread, iodepth 1, 1 job" "${COMMON_NULL[@]}" --iodepth=1
fi

# ---- (b), (c) on a loop device ----------------------------------------------
LOOP=
if want b || want c; then
	if [ "$(id -u)" != 0 ]; then
		for c in b1 b2 b3 c1; do note "$c" "n/a: needs root for a loop device"; done
	else
		echo "== loop device: writing a ${LOOP_MB} MiB backing file"
		if dd if=/dev/zero of="$WORK/loop.img" bs=1M count="$LOOP_MB" oflag=direct \
		      status=none && new_loop "$WORK/loop.img"; then
			LOOP=$NEW_LOOP
			echo "   $LOOP over $WORK/loop.img, dio=$(cat "/sys/block/${LOOP#/dev/}/loop/dio" 2>/dev/null)"
		else
			LOOP=
			for c in b1 b2 b3 c1; do note "$c" "n/a: could not set up a loop device"; done
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
	fi
	if want c; then
		pair c1 "libaio, 1M sequential read, iodepth 8, loop device, direct" \
			--name=seq --ioengine=libaio --rw=read --bs=1M --iodepth=8 "${DEV[@]}"
	fi
fi

# ---- (d) live view on a terminal against headless ----------------------------
if want d; then
	title="null QD32: live status line on a tty (tmux) vs headless"
	note d "$title"
	echo "== d  $title"
	TMUX_SOCK="$WORK/tmux.sock"
	# a server of our own on a socket in $WORK; each tmux run gets a window whose pty is
	# its stderr, so the live view draws; the headless run has stderr in a file
	if ! tmux -S "$TMUX_SOCK" -f /dev/null new-session -d -s bench -x 160 -y 40 "sleep 100000"; then
		note d "n/a: tmux could not start a session"
		echo "  n/a: tmux could not start a session"
	else
		# twice the rounds: this bar is 2% wide
		for r in $(seq 1 $((ROUNDS * 2))); do
			base="$WORK/d.tmux.$r"
			cmd=$(printf '%q ' env -u RAIDBENCH_NO_STATUS /usr/bin/time -f '%U %S' \
				-o "$base.time" "$RAIDBENCH" run --no-save "${COMMON_NULL[@]}" \
				--iodepth=32 --output-format=json --output="$base.json")
			pane=$(tmux -S "$TMUX_SOCK" new-window -d -P -F '#{pane_id}' -t bench: \
				"cd $(printf %q "$WORK") && $cmd; tmux -S $(printf %q "$TMUX_SOCK") wait-for -S done$r")
			if [ -z "$pane" ]; then
				echo "  tmux round $r: could not open a window"
				continue
			fi
			if [ "$r" = 1 ]; then
				# show that the live view really draws on the terminal
				sleep "$(awk -v t="$RUNTIME" 'BEGIN { print t / 2 }')"
				seen=$(tmux -S "$TMUX_SOCK" capture-pane -p -t "$pane" 2>/dev/null |
				       grep -m 1 . | cut -c1-110)
				echo "  tty shows: ${seen:-(nothing: no live view drawn)}"
			fi
			timeout $((RUNTIME + 120)) tmux -S "$TMUX_SOCK" wait-for "done$r"
			if [ -s "$base.json" ]; then
				python3 "$HELPER" run "$TSV" d tmux "$r" "$base.json" "$base.time"
			else
				echo "  tmux round $r failed: no JSON"
			fi
			run_one d headless "$r" "${COMMON_NULL[@]}" --iodepth=32
		done
	fi
fi

# ---- (d2) the full-screen TUI running the same job, against headless --------
if want d && [ -n "$TMUX_SOCK" ]; then
	title="null QD32: the full-screen TUI (raidbench --profile=... --start, in tmux) vs headless"
	note d2 "$title"
	echo "== d2 $title"
	for r in $(seq 1 $((ROUNDS * 2))); do
		tdir="$WORK/d2.tui.$r"
		mkdir -p "$tdir/cfg/raidbench/profiles" "$tdir/data"
		# the same job as a user profile: the TUI runs profiles
		printf '[global]\nioengine=null\nrw=randread\nbs=4k\nsize=1g\niodepth=32\nruntime=%s\ntime_based\n[null-qd32]\ndescription=bench d2\n' \
			"$RUNTIME" >"$tdir/cfg/raidbench/profiles/benchnull.fio"
		cmd=$(printf '%q ' env XDG_CONFIG_HOME="$tdir/cfg" XDG_DATA_HOME="$tdir/data" \
			LANG=C.UTF-8 /usr/bin/time -f '%U %S' -o "$tdir.time" "$RAIDBENCH" \
			--profile=benchnull --start)
		pane=$(tmux -S "$TMUX_SOCK" new-window -d -P -F '#{pane_id}' -t bench: \
			"cd $(printf %q "$WORK") && $cmd; tmux -S $(printf %q "$TMUX_SOCK") wait-for -S tuidone$r")
		[ -n "$pane" ] || { echo "  tui round $r: could not open a window"; continue; }
		# the TUI saves the run when it ends; then quit it as a user would
		for ((w = 0; w < (RUNTIME + 60) * 10; w++)); do
			ls "$tdir"/data/raidbench/results/*.json >/dev/null 2>&1 && break
			sleep 0.1
		done
		[ "$r" = 1 ] && echo "  tty shows: $(tmux -S "$TMUX_SOCK" capture-pane -p -t "$pane" 2>/dev/null | sed -n 2p | cut -c1-100)"
		tmux -S "$TMUX_SOCK" send-keys -t "$pane" q
		timeout 30 tmux -S "$TMUX_SOCK" wait-for "tuidone$r"
		res=$(ls "$tdir"/data/raidbench/results/*.json 2>/dev/null | head -1)
		if [ -n "$res" ]; then
			python3 "$HELPER" run "$TSV" d2 tui "$r" "$res" "$tdir.time"
		else
			echo "  tui round $r failed: no saved result"
		fi
		run_one d2 headless "$r" "${COMMON_NULL[@]}" --iodepth=32
	done
fi

# ---- (e) memory flat with run length ----------------------------------------
if want e; then
	title="peak RSS (/usr/bin/time -v), 16 jobs x iodepth 32 null, ${RSS_SHORT} s vs ${RSS_LONG} s"
	note e "$title"
	echo "== e  $title"
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
	note f1 "ring: records/s between two threads (tests/bench/ring_bench, 1 s each; paced consumer for the bar, spinning consumer as the worst case)"
	echo "== f1 ring records per second"
	if [ -x "$RING_BENCH" ]; then
		for r in $(seq 1 "$ROUNDS"); do
			for mode in paced spin; do
				out=$(timeout 60 "$RING_BENCH" 1 1024 32 "$mode" 2>&1)
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

	echo "== f2 inventory enumeration with $NR_INV_LOOPS loop devices"
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
			truncate -s 16M "$WORK/inv$i.img" && new_loop "$WORK/inv$i.img" ||
				{ ok=0; break; }
		done
		if [ $ok = 1 ]; then
			for r in $(seq 1 "$ROUNDS"); do
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

# ---- the table ----------------------------------------------------------------
echo
echo "==================== results ===================="
cat "$WORK/header.txt"
[ -s "$TSV" ] || die "nothing was measured"
echo "took:      $SECONDS s; load average after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$WORK/header.txt"
python3 "$HELPER" report "$TSV" "$WORK/table.md"
if [ -n "${BENCH_MD:-}" ]; then
	{ sed 's/^/    /' "$WORK/header.txt"; echo; cat "$WORK/table.md"; } >"$BENCH_MD"
	echo "(Markdown written to $BENCH_MD)"
fi
if [ -n "${BENCH_KEEP:-}" ]; then
	mkdir -p "$BENCH_KEEP" && cp "$WORK"/*.json "$WORK"/*.tsv "$WORK"/*.md "$WORK"/header.txt \
		"$BENCH_KEEP"/ 2>/dev/null
	echo "(raw results copied to $BENCH_KEEP)"
fi
exit 0
