#!/bin/bash
# End to end in a real terminal (tmux): start raidbench, open Devices, pick a
# profile and a blank loop device, try a device with a file system (the
# refusal shows), run for 3 s, watch the live numbers change between two captures,
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
# await NAME PATTERN [SECONDS]: wait until the screen shows PATTERN, then capture
# it as NAME (a loaded machine redraws late; a fixed sleep would flake)
await() { wait_for "$2" "${3:-10}"; cap "$1"; }
cleanup_tmux() { tmux kill-session -t "$S" 2>/dev/null; rb_cleanup; }
trap cleanup_tmux EXIT

make_loop 1024		# sparse; large enough that the profile outlasts the 3 s we watch
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
await profiles "cdm-standard"
check "F3 shows the profiles" screen_has profiles "cdm-standard"
keys Home
for i in 1 2 3 4 5; do keys Down; done
keys Enter
await chosen "latency-4k chosen"
check "a profile is chosen (latency-4k)" screen_has chosen "latency-4k chosen"

# the file-system device: typed as a path, the guard's reason and the question show
keys F4
wait_for "Target:" 5
keys End
keys Enter
tmux send-keys -t "$S" -l "$FS"
keys Enter
await refusal "ext4"
check "a device with a file system shows the guard's reason" screen_has refusal "ext4"
keys Escape

# the blank device
keys End
keys Enter
tmux send-keys -t "$S" -l "$BLANK"
keys Enter
await target "$(basename "$BLANK")"
check "the blank loop device is the target" screen_has target "$(basename "$BLANK")"

keys F5
keys Enter
await run1 "IOPS" 15
check "the run screen is live" screen_has run1 "IOPS"
for ((i = 0; i < 50; i++)); do
	sleep 0.2
	cap run2
	diff -q "$RB_TMP/run1.txt" "$RB_TMP/run2.txt" >/dev/null || break
done
if ! diff -q "$RB_TMP/run1.txt" "$RB_TMP/run2.txt" >/dev/null; then
	pass "the live numbers change between two captures"
else
	fail "the screen did not change in 10 s of the run"
fi
tmux resize-window -t "$S" -x 100 -y 30 2>/dev/null || tmux resize-pane -t "$S" -x 100 -y 30
for ((i = 0; i < 50; i++)); do
	cap resized
	tail -n 3 "$RB_TMP/resized.txt" | grep -q 'F5Run' && break
	sleep 0.2
done
check "after a resize mid-run the layout reflows (key bar on the last line)" \
	bash -c "tail -n 3 '$RB_TMP/resized.txt' | grep -q 'F5Run'"
check "the run goes on for 3 seconds" wait_for "elapsed 00:03" 20
keys s
keys y
await stopped "Run stopped; the results so far are kept" 15
check "stopping keeps the results" screen_has stopped "Run stopped; the results so far are kept"
keys F6
await results "Saved runs"
check "the Results screen shows the run" screen_has results "stopped early (the results so far)"
keys q
await quit "RAIDBENCH-EXITED" 15
check "raidbench exits cleanly" screen_has quit "RAIDBENCH-EXITED=0"
tmux send-keys -t "$S" "echo SHELL-OK" Enter
await shell "^SHELL-OK"
check "the shell is usable afterwards" screen_has shell "^SHELL-OK"
check "the file-system device was not touched" [ "$(sha256sum <"$FS")" = "$before_fs" ]

# quitting mid-run keeps the results so far, as s does
tmux kill-session -t "$S" 2>/dev/null
n_before=$(ls "$XDG_DATA_HOME"/raidbench/results/*.json 2>/dev/null | wc -l)
tmux new-session -d -s "$S" -x 132 -y 43 \
	"env LANG=C.UTF-8 XDG_DATA_HOME=$XDG_DATA_HOME XDG_CACHE_HOME=$XDG_CACHE_HOME XDG_CONFIG_HOME=$RB_TMP/config $RAIDBENCH --profile=default --start; echo RAIDBENCH-EXITED=\$?; exec bash --norc"
await quitrun "IOPS" 15
keys q
await quitask "Press q again"
keys q
await quitdone "RAIDBENCH-EXITED" 40
check "q, q mid-run says the results so far are saved" screen_has quitdone "the run was stopped; its results so far are saved as"
check "... exits 0" screen_has quitdone "RAIDBENCH-EXITED=0"
check "... and the result is there" [ "$(ls "$XDG_DATA_HOME"/raidbench/results/*.json 2>/dev/null | wc -l)" = $((n_before + 1)) ]
if [ "$RB_FAIL" -gt 0 ] || [ -n "${SHOW:-}" ]; then
	for f in start refusal target run2 resized stopped results quit quitask quitdone; do
		echo "---- screen: $f"; cat "$RB_TMP/$f.txt" 2>/dev/null | head -45
	done
fi
rb_done
