#!/bin/bash
# End to end in a real terminal (tmux): start raidbench, open Devices, pick a
# profile and a blank loop device, try a device with a file system (the
# refusal shows), run, watch the live numbers change between two captures,
# resize mid-run, stop, read the results, quit; the shell works afterwards.
. "$(dirname "$0")/lib.sh"
rb_init
need_root
need_tool tmux tmux
need_tool mkfs.ext4 e2fsprogs
S=rbtest$$
cap() { tmux capture-pane -p -t "$S" >"$RB_TMP/$1.txt"; }
keys() { tmux send-keys -t "$S" "$@"; sleep 0.7; }
screen_has() { grep -q -- "$2" "$RB_TMP/$1.txt"; }
# wait_for PATTERN [SECONDS]: until the screen shows PATTERN (the UI is ready for keys)
wait_for() {
	local i
	for ((i = 0; i < ${2:-10} * 10; i++)); do
		tmux capture-pane -p -t "$S" 2>/dev/null | grep -q -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
cleanup_tmux() { tmux kill-session -t "$S" 2>/dev/null; rb_cleanup; }
trap cleanup_tmux EXIT

make_loop 256
BLANK=$LOOP_DEV
make_loop 64
FS=$LOOP_DEV
mkfs.ext4 -q -L data "$FS"
before_fs=$(sha256sum <"$FS")

tmux new-session -d -s "$S" -x 132 -y 43 \
	"env LANG=C.UTF-8 XDG_DATA_HOME=$XDG_DATA_HOME XDG_CACHE_HOME=$XDG_CACHE_HOME XDG_CONFIG_HOME=$RB_TMP/config $RAIDBENCH; echo RAIDBENCH-EXITED=\$?; exec bash --norc"
wait_for "F5Run" 15
sleep 0.5
cap start
check "opens on the Devices screen" screen_has start "Controllers\|Other block devices\|Devices"
check "the key bar is there" screen_has start "F5Run"

keys F3
cap profiles
check "F3 shows the profiles" screen_has profiles "cdm-standard"
keys Home
for i in 1 2 3 4 5; do keys Down; done
keys Enter
cap chosen
check "a profile is chosen (latency-4k)" screen_has chosen "latency-4k chosen"

# the file-system device: typed as a path, the guard's reason and the question show
keys F4
wait_for "Target:" 5
keys End
keys Enter
tmux send-keys -t "$S" -l "$FS"
keys Enter
cap refusal
check "a device with a file system shows the guard's reason" screen_has refusal "ext4"
keys Escape

# the blank device
keys End
keys Enter
tmux send-keys -t "$S" -l "$BLANK"
keys Enter
cap target
check "the blank loop device is the target" screen_has target "$(basename "$BLANK")"

keys F5
keys Enter
sleep 1.5
cap run1
sleep 1
cap run2
check "the run screen is live" screen_has run1 "IOPS"
if ! diff -q "$RB_TMP/run1.txt" "$RB_TMP/run2.txt" >/dev/null; then
	pass "the live numbers change between two captures"
else
	fail "two captures a second apart are identical"
fi
tmux resize-window -t "$S" -x 100 -y 30 2>/dev/null || tmux resize-pane -t "$S" -x 100 -y 30
sleep 0.6
cap resized
check "after a resize mid-run the layout reflows (key bar on the last line)" \
	bash -c "tail -n 3 '$RB_TMP/resized.txt' | grep -q 'F5Run'"
keys s
keys y
sleep 1.5
cap stopped
check "stopping keeps the results" screen_has stopped "results\|Results"
keys F6
cap results
check "the Results screen shows the run" screen_has results "IOPS\|MB/s"
keys q
sleep 0.8
cap quit
check "raidbench exits cleanly" screen_has quit "RAIDBENCH-EXITED=0"
tmux send-keys -t "$S" "echo SHELL-OK" Enter
sleep 0.5
cap shell
check "the shell is usable afterwards" screen_has shell "^SHELL-OK"
check "the file-system device was not touched" [ "$(sha256sum <"$FS")" = "$before_fs" ]
if [ "$RB_FAIL" -gt 0 ] || [ -n "${SHOW:-}" ]; then
	for f in start refusal target run2 resized stopped results quit; do
		echo "---- screen: $f"; cat "$RB_TMP/$f.txt" 2>/dev/null | head -45
	done
fi
rb_done
