#!/bin/bash
# tui_rescan_tmux.sh - a rescan never freezes the keys (tmux): discovery
# reads sysfs and every block device's signature, seconds on a busy machine
# (and hot-plug events during a sweep ask for one rescan after another), so
# it runs off the UI thread. Here a recorded /sys (tests/fixtures/sysfs)
# has one attribute replaced by a FIFO nobody writes: the rescan's read
# blocks, and F1 must still open Help at once; once the FIFO is written the
# rescan ends and the screen says so no more.
. "$(dirname "$0")/lib.sh"
rb_init
need_tool tmux tmux
T=$RB_TMP/tree
bash "$SRCDIR/tests/fixtures/sysfs/mktree.sh" megaraid "$T" >/dev/null 2>&1 || rb_skip "mktree.sh megaraid failed"
S=rbrescan$$
W=
cleanup() { [ -n "$W" ] && kill "$W" 2>/dev/null; tmux kill-session -t "$S" 2>/dev/null; rb_cleanup; }
trap cleanup EXIT
tmux new-session -d -s "$S" -x 132 -y 43 "env HOME=$RB_TMP LANG=C.UTF-8 $RAIDBENCH --ascii --sysfs-root=$T/sys; echo RAIDBENCH-EXITED=\$?; exec bash --norc"
wait_for "Device" 10 || { fail "the Devices screen did not come"; rb_done; }
# the controller's NUMA node, read on every discovery, becomes a FIFO with no writer
attr=$(find "$T/sys/devices" -name numa_node | tail -1)
[ -n "$attr" ] || { fail "no numa_node in the recorded tree"; rb_done; }
rm -f "$(readlink -f "$attr")"
mkfifo "$(readlink -f "$attr")"
tmux send-keys -t "$S" r
sleep 0.3
t0=$(date +%s%N)
tmux send-keys -t "$S" F1
wait_for "Keys on a screen" 3
ms=$((($(date +%s%N) - t0) / 1000000))
tmux capture-pane -p -t "$S" >"$RB_TMP/help.txt"
check "F1 answers while a rescan is stuck in sysfs ($ms ms)" grep -q "Keys on a screen" "$RB_TMP/help.txt"
tmux send-keys -t "$S" F2
wait_for "Rescanning: reading sysfs" 3
tmux capture-pane -p -t "$S" >"$RB_TMP/rescanning.txt"
check "Devices says the rescan is reading the machine" grep -q "Rescanning: reading sysfs" "$RB_TMP/rescanning.txt"
# the attribute answers: the rescan ends
(echo 1 >"$(readlink -f "$attr")") &
W=$!
for ((i = 0; i < 50; i++)); do
	tmux capture-pane -p -t "$S" | grep -q "Rescanning: reading sysfs" || break
	sleep 0.1
done
tmux capture-pane -p -t "$S" >"$RB_TMP/done.txt"
check "once sysfs answers the rescan ends" sh -c "! grep -q 'Rescanning: reading sysfs' '$RB_TMP/done.txt'"
tmux send-keys -t "$S" q
wait_for "RAIDBENCH-EXITED=0" 5
tmux capture-pane -p -t "$S" >"$RB_TMP/quit.txt"
check "q quits cleanly afterwards" grep -q "RAIDBENCH-EXITED=0" "$RB_TMP/quit.txt"
rb_done
