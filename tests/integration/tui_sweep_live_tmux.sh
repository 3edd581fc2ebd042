#!/bin/bash
# tui_sweep_live_tmux.sh - a RAID sweep seen from the other screens (tmux):
# while it measures, the Run screen shows its run live (not "No run yet"),
# Devices shows the array the sweep made and, once the sweep has deleted
# it, the drives unassigned again; keys answer at once all along (a loose
# bound, not a benchmark); afterwards the Run screen says what Enter starts.
# The simulated H240 (tests/sim/ssacli first on PATH), its new logical
# drive reported as a real loop device (RAIDBENCH_SIM_OSDEVS).
. "$(dirname "$0")/lib.sh"
rb_init
need_tool tmux tmux
need_tool python3 python3
need_root
need_tool losetup util-linux
export PATH="$SRCDIR/tests/sim:$PATH"
export RAIDBENCH_SIM_STATE=$RB_TMP/sim.json XDG_STATE_HOME=$RB_TMP/state XDG_CONFIG_HOME=$RB_TMP/config
unset RAIDBENCH_SIM_HANG RAIDBENCH_SIM_FAIL RAIDBENCH_TOOL_TIMEOUT RAIDBENCH_SIM_INIT_READS
make_loop 64 || rb_skip "cannot attach a loop device"
export RAIDBENCH_SIM_OSDEVS=$LOOP_DEV
mkdir -p "$XDG_CONFIG_HOME/raidbench/profiles"
cat >"$XDG_CONFIG_HOME/raidbench/profiles/default.fio" <<'X'
; one phase of random reads for the sweep (runtime: the sweep's 30 s)
[global]
ioengine=psync
direct=1
size=16m

[rand-read-4k]
rw=randread
bs=4k
X
S=rbsweeplive
cleanup() { tmux kill-session -t "$S" 2>/dev/null; rb_cleanup; }
trap cleanup EXIT
cap() { tmux capture-pane -p -t "$S" >"$RB_TMP/$1.txt"; }
has() { grep -q -- "$2" "$RB_TMP/$1.txt"; }
keys() { tmux send-keys -t "$S" "$@"; }
# keylat KEY: milliseconds until the key bar changes after KEY (screens differ in their hints)
keylat() {
	local before cur t0 i
	before=$(tmux capture-pane -p -t "$S" | tail -1)
	t0=$(date +%s%N)
	keys "$1"
	for ((i = 0; i < 500; i++)); do
		cur=$(tmux capture-pane -p -t "$S" | tail -1)
		[ "$cur" != "$before" ] && break
		sleep 0.01
	done
	echo $((($(date +%s%N) - t0) / 1000000))
}

tmux new-session -d -s "$S" -x 132 -y 43 "env LANG=C.UTF-8 HOME=$RB_TMP $RAIDBENCH"
wait_for "Smart HBA H240" 20 || { fail "the simulated H240 is not on Devices"; rb_done; }
cap tree
DOWNS=$(awk '/^ Device/ && !h { h = NR } /Smart HBA H240/ && h { print NR - h - 1; exit }' "$RB_TMP/tree.txt")
for ((i = 0; i < DOWNS; i++)); do keys Down; done
keys w
wait_for "RAID sweep on" 5 || { fail "w did not open the sweep"; rb_done; }
# all four drives, RAID 0 only, 30 s (the default runtime)
for k in Space Down Space Down Space Down Space Down Space; do keys "$k"; done
sleep 0.5
keys Enter
wait_for "Type 255" 20 || { cap plan; fail "no confirmation prompt"; cat "$RB_TMP/plan.txt"; rb_done; }
keys 2 5 5 Enter
wait_for "Now.*run\|measuring" 30
sleep 1
keys F5
wait_for "rand-read-4k" 5
cap run
check "the Run screen shows the sweep's run live" has run "^ running"
check "... with its job" has run "rand-read-4k"
check "... not 'No run yet'" sh -c "! grep -q 'No run yet' '$RB_TMP/run.txt'"
check "... and says Enter starts nothing meanwhile" has run "A RAID sweep's run"
keys F2
wait_for "Array A" 25
cap devices
check "Devices shows the sweep's array while it exists" has devices "Array A"
check "... not the drives as unassigned" sh -c "! grep -q 'Unassigned drives (4)' '$RB_TMP/devices.txt'"
worst=0
for k in F5 F2 F5 F2 F5 F2 F5 F2; do
	ms=$(keylat "$k")
	echo "# $k answered in $ms ms"
	[ "$ms" -gt "$worst" ] && worst=$ms
	sleep 0.2
done
check "keys answer during the sweep (worst $worst ms, bound 1500 ms)" [ "$worst" -lt 1500 ]
keys F2
wait_for "Unassigned drives (4)" 60
cap after
check "after the sweep Devices shows the drives unassigned again" has after "Unassigned drives (4)"
keys F5
wait_for "Next (Enter)" 5
cap next
check "the Run screen then says what Enter starts" has next "Next (Enter): default on the scratch file"
rb_done
