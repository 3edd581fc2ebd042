#!/bin/bash
# The Array builder end to end in a real terminal (tmux), with the simulated
# vendor tools of tests/sim first on PATH and a fresh simulator state (the
# H240 of seeds/000): Devices, 'b' on the H240, three drives, RAID 5, a wrong
# slot refused, the right one typed; the change runs off the UI thread, the
# new logical drive shows with its parity initialization
# (RAIDBENCH_SIM_INIT_READS), which the screen follows by itself until it is
# done; Devices lists the logical drive; quit; the shell works afterwards.
# Every screen is captured (SHOW=1 prints them).
. "$(dirname "$0")/lib.sh"
rb_init
need_tool tmux tmux
need_tool python3 python3
S=rbbuild$$
SIM=$SRCDIR/tests/sim
STATE=$RB_TMP/sim.json
cap() { tmux capture-pane -p -t "$S" >"$RB_TMP/$1.txt"; }
keys() { tmux send-keys -t "$S" "$@"; sleep 0.3; }
screen_has() { grep -qF -- "$2" "$RB_TMP/$1.txt"; }
# wait_for TEXT [SECONDS]: until the screen shows TEXT (the UI is ready for keys)
wait_for() {
	local i
	for ((i = 0; i < ${2:-10} * 10; i++)); do
		tmux capture-pane -p -t "$S" 2>/dev/null | grep -qF -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
# wait_gone TEXT [SECONDS]: until the screen no longer shows TEXT
wait_gone() {
	local i
	for ((i = 0; i < ${2:-10} * 10; i++)); do
		tmux capture-pane -p -t "$S" 2>/dev/null | grep -qF -- "$1" || return 0
		sleep 0.1
	done
	return 1
}
cleanup_tmux() { tmux kill-session -t "$S" 2>/dev/null; rb_cleanup; }
trap cleanup_tmux EXIT

ENV=(env PATH="$SIM:$PATH" RAIDBENCH_SIM_STATE="$STATE" RAIDBENCH_SIM_LOG="$RB_TMP/sim.log"
     RAIDBENCH_SIM_INIT_READS=2 XDG_DATA_HOME="$XDG_DATA_HOME" XDG_CACHE_HOME="$XDG_CACHE_HOME"
     XDG_STATE_HOME="$RB_TMP/state" XDG_CONFIG_HOME="$RB_TMP/config" LANG=C.UTF-8)

# The rows above the H240 in this machine's Devices tree (they differ per machine).
printf 'key F2\ndump %s/tree.txt\n' "$RB_TMP" >"$RB_TMP/tree.script"
"${ENV[@]}" TERM=xterm-256color "$RAIDBENCH" tui-test --size=200x250 "$RB_TMP/tree.script" 2>/dev/null
DOWNS=$(awk '/^ Device/ && !h { h = NR } /Smart HBA H240/ && h { print NR - h - 1; exit }' "$RB_TMP/tree.txt")
[ -n "$DOWNS" ] || { fail "the simulated H240 is not on the Devices screen"; rb_done; }
rm -f "$STATE"

tmux new-session -d -s "$S" -x 132 -y 43 \
	"${ENV[*]} $RAIDBENCH; echo RAIDBENCH-EXITED=\$?; exec bash --norc"
wait_for "F5Run" 15
wait_for "Smart HBA H240" 15
cap devices
check "the Devices screen shows the simulated H240" screen_has devices "Smart HBA H240, slot 255"
check "the key bar offers the builder" screen_has devices "bBuild"

for ((i = 0; i < DOWNS; i++)); do keys Down; done
keys b
wait_for "(ssacli, RAID mode)" 10
cap builder
check "b opens the Array builder on the H240" screen_has builder "Smart HBA H240, slot 255  (ssacli, RAID mode)"
check "the builder lists the four drives" screen_has builder "1I:0:5"

keys Space
keys Down
keys Space
keys Down
keys Space
keys Right
keys Right
wait_for "raid=5 forced" 5
cap raid5
check "RAID 5 of three drives: capacity" screen_has raid5 "3.6 TiB usable: 2 of 3 drives hold data"
check "... fault tolerance in words" screen_has raid5 "survives one drive failure"
check "... the exact command" screen_has raid5 "ssacli ctrl slot=255 create type=ld drives=1I:0:5,1I:0:6,1I:0:7 raid=5 forced"

keys Enter
wait_for "Type 255" 5
cap confirm
check "Enter asks for the controller's slot" screen_has confirm "Type 255 (the controller's slot) and Enter to run it"
tmux send-keys -t "$S" -l "2555"
keys Enter
wait_for "is not 255" 5
cap wrong
check "a wrong slot runs nothing" screen_has wrong "\"2555\" is not 255: nothing was run"
check "... and the simulator was not asked to create" bash -c '! grep -q " create " "$1"' _ "$RB_TMP/sim.log"

tmux send-keys -t "$S" -l "255"
keys Enter
wait_for "logical drive 1: RAID 5" 20
cap created
check "the new logical drive shows" screen_has created "New        logical drive 1: RAID 5, 3.6 TiB"
check "its parity initialization shows" screen_has created "parity initialization of logical drive 1"
check "the simulator ran the exact command" grep -q " ssacli ctrl slot=255 create type=ld drives=1I:0:5,1I:0:6,1I:0:7 raid=5 forced$" "$RB_TMP/sim.log"

# the screen re-reads the state by itself every 3 s until initialization is done
if wait_gone "parity initialization of" 20; then
	pass "the screen follows the initialization to its end"
else
	fail "the initialization still shows after 20 s"
fi
cap initialized
keys Escape
keys F2
wait_for "LD 1" 10
cap devices_after
check "Devices lists the new logical drive" screen_has devices_after "LD 1"

keys q
wait_for "RAIDBENCH-EXITED" 10
cap quit
check "raidbench exits cleanly" screen_has quit "RAIDBENCH-EXITED=0"
tmux send-keys -t "$S" "echo SHELL-OK" Enter
wait_for "SHELL-OK" 10
cap shell
check "the shell is usable afterwards" grep -q "^SHELL-OK" "$RB_TMP/shell.txt"
check "the simulator holds array A of the three drives" \
	[ "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(",".join(d["ssacli"]["controllers"][0]["arrays"][0]["drives"]))' "$STATE")" = "1I:0:5,1I:0:6,1I:0:7" ]
if [ "$RB_FAIL" -gt 0 ] || [ -n "${SHOW:-}" ]; then
	for f in devices builder raid5 confirm wrong created initialized devices_after quit; do
		echo "---- screen: $f"; head -45 "$RB_TMP/$f.txt" 2>/dev/null
	done
fi
rb_done
