#!/bin/bash
# The RAID sweep in a real terminal (tmux), its worker on its own thread as
# a user gets it (tests/sim first on PATH, the simulated H240's logical
# drives reported as a real loop device): the live line shows each level's
# run, drained by the UI thread from the run's own ring; while the user
# sits on another screen the sweep goes on (the rings are drained every
# frame, whatever screen shows) and ends; quitting mid-sweep lets the level
# finish and delete its array.
. "$(dirname "$0")/lib.sh"
rb_init
need_root
need_tool tmux tmux
need_tool python3 python3
S=rbsweep$$
SIM=$SRCDIR/tests/sim
cap() { tmux capture-pane -p -t "$S" >"$RB_TMP/$1.txt"; }
keys() { tmux send-keys -t "$S" "$@"; sleep 0.3; }
screen_has() { grep -qF -- "$2" "$RB_TMP/$1.txt"; }
await() { wait_for "$2" "${3:-10}"; cap "$1"; }
cleanup_tmux() { tmux kill-session -t "$S" 2>/dev/null; rb_cleanup; }
trap cleanup_tmux EXIT

export RAIDBENCH_SIM_STATE=$RB_TMP/sim.json
make_loop 64 || rb_skip "cannot attach a loop device"
mkdir -p "$RB_TMP/config/raidbench/profiles"
cat >"$RB_TMP/config/raidbench/profiles/default.fio" <<'EOP'
; one random-read phase for the sweep test (the sweep sets the runtime)
[global]
ioengine=psync
direct=1
size=16m
[rand-read-4k]
rw=randread
bs=4k
EOP
ENV=(env PATH="$SIM:$PATH" RAIDBENCH_SIM_STATE="$RAIDBENCH_SIM_STATE" RAIDBENCH_SIM_LOG="$RB_TMP/sim.log"
     RAIDBENCH_SIM_OSDEVS="$LOOP_DEV" XDG_DATA_HOME="$XDG_DATA_HOME" XDG_CACHE_HOME="$XDG_CACHE_HOME"
     XDG_STATE_HOME="$RB_TMP/state" XDG_CONFIG_HOME="$RB_TMP/config" LANG=C.UTF-8)
RESULTS=$XDG_DATA_HOME/raidbench/results
sim_arrays() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["ssacli"]["controllers"][0]["arrays"]))' "$RAIDBENCH_SIM_STATE"; }

printf 'key F2\ndump %s/tree.txt\n' "$RB_TMP" >"$RB_TMP/tree.script"
"${ENV[@]}" TERM=xterm-256color "$RAIDBENCH" tui-test --size=200x250 "$RB_TMP/tree.script" 2>/dev/null
DOWNS=$(awk '/^ Device/ && !h { h = NR } /Smart HBA H240/ && h { print NR - h - 1; exit }' "$RB_TMP/tree.txt")
[ -n "$DOWNS" ] || { fail "the simulated H240 is not on the Devices screen"; rb_done; }
rm -f "$RAIDBENCH_SIM_STATE"

# start_sweep SPACES: raidbench in tmux, the sweep on the H240 (4 drives, RAID 0,
# 1, 5) until its live line; SPACES presses on the Runtime row step it from the
# default 30 s through 60, 300, 1 and 5 s per level
start_sweep() {
	tmux kill-session -t "$S" 2>/dev/null
	tmux new-session -d -s "$S" -x 132 -y 43 \
		"${ENV[*]} $RAIDBENCH; echo RAIDBENCH-EXITED=\$?; exec bash --norc"
	wait_for "Smart HBA H240" 15
	keys F2
	for ((i = 0; i < DOWNS; i++)); do keys Down; done
	keys w
	await start "RAID sweep on Smart HBA H240" 10
	# all four drives; levels 0, 1 and 5; down past the Profile row to Runtime
	for k in Space Down Space Down Space Down Space Down Space Right Space Right Right Space Down Down; do
		keys $k
	done
	for ((i = 0; i < $1; i++)); do keys Space; done
	cap plan
	keys Enter
	await confirm "Type 255" 10
	tmux send-keys -t "$S" -l 255
	keys Enter
	await live " Live " 30
}
start_sweep 4
check "the plan runs each level for 5 s" screen_has plan "Runtime    5 s per phase"
check "w opens the sweep on the H240" screen_has start "RAID sweep on Smart HBA H240"
check "the sweep screen shows the level's run live (IOPS)" grep -Eq " Live +[0-9.]+[kM]? IOPS" "$RB_TMP/live.txt"
# another screen: the sweep's runs are drained there too, the sweep goes on and ends
keys F6
for ((i = 0; i < 240; i++)); do
	[ "$(ls "$RESULTS"/*.json 2>/dev/null | wc -l)" -ge 3 ] && [ "$(sim_arrays 2>/dev/null)" = 0 ] && break
	sleep 0.5
done
cap away
check "away from the sweep screen, every level was measured and saved" \
	[ "$(ls "$RESULTS"/*.json 2>/dev/null | wc -l)" -ge 3 ]
check "... and no array is left in the simulator" [ "$(sim_arrays)" = 0 ]
keys F2
for ((i = 0; i < DOWNS; i++)); do keys Down; done
keys w
await done "Sweep done" 20
check "back on the sweep screen: done" screen_has done "Sweep done: every level measured, no array left behind"
keys q
wait_for "RAIDBENCH-EXITED" 20 || keys q
await quit "RAIDBENCH-EXITED" 20
check "raidbench exits cleanly" screen_has quit "RAIDBENCH-EXITED=0"

# SIGTERM mid-run (q asks for s first during a sweep): the level's run is handed back to
# the sweep's thread, which ends it and deletes its array, and the program exits
# (30 s per level: the level is still running when the signal comes)
start_sweep 0
PANE=$(tmux display-message -p -t "$S" '#{pane_pid}')
TUI=$(pgrep -P "$PANE" -x raidbench | head -1)
kill -TERM "$TUI"
await quit2 "RAIDBENCH-EXITED" 60
check "SIGTERM mid-sweep exits (nothing waits for a drain that never comes)" \
	grep -Eq "RAIDBENCH-EXITED=(0|143)" "$RB_TMP/quit2.txt"
check "... and leaves no array in the simulator" [ "$(sim_arrays)" = 0 ]
if [ "$RB_FAIL" -gt 0 ] || [ -n "${SHOW:-}" ]; then
	for f in start plan confirm live away done quit quit2; do
		echo "---- screen: $f"; cat "$RB_TMP/$f.txt" 2>/dev/null | head -45
	done
fi
rb_done
