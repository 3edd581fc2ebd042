#!/bin/bash
# Stop signals end a run the same way whichever arrives: SIGINT, SIGTERM and
# SIGHUP (a closed terminal) stop it, the partial results are written to
# --output and saved, and the exit status is 128 + the signal. The TUI
# (in tmux) gives the terminal back, saves the run as q does and says which
# signal stopped it.
. "$(dirname "$0")/lib.sh"
rb_init
need_tool python3 python3

# headless: a file target, a run far longer than the test waits
for sig in HUP TERM INT; do
	O=$RB_TMP/$sig.json
	n_before=$(ls "$XDG_DATA_HOME"/raidbench/results/*.json 2>/dev/null | wc -l)
	"$RAIDBENCH" run --name=s --filename="$RB_TMP/target.dat" --size=16m --rw=randread \
		--bs=4k --ioengine=psync --runtime=60 --time_based --output-format=json \
		--output="$O" 2>"$RB_TMP/err" &
	pid=$!
	# the run is going once the engine has started (the output file is emptied then)
	for ((i = 0; i < 100; i++)); do
		[ -e "$O" ] && [ ! -s "$O" ] && break
		sleep 0.1
	done
	sleep 1
	kill -"$sig" $pid
	wait $pid
	rc=$?
	want=$((128 + $(kill -l "$sig")))
	check "SIG$sig on a headless run: exit $want (got $rc)" [ "$rc" -eq "$want" ]
	res=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["jobs"][0]["read"]["total_ios"])' "$O" 2>&1)
	check "... --output holds valid JSON with the partial results (total_ios $res)" \
		bash -c "[ '$res' -gt 0 ] 2>/dev/null"
	check "... it says the results are partial" grep -q "interrupted; the results above are partial" "$RB_TMP/err"
	n_after=$(ls "$XDG_DATA_HOME"/raidbench/results/*.json 2>/dev/null | wc -l)
	check "... and the run is saved ($n_before -> $n_after)" [ "$n_after" -eq $((n_before + 1)) ]
done

# the TUI in a real terminal: started on a run, then signalled
need_tool tmux tmux
S=rbsig$$
cleanup_tmux() { tmux kill-session -t "$S" 2>/dev/null; rb_cleanup; }
trap cleanup_tmux EXIT
# tui_signal SIG [TIMES]: starts the TUI on the default profile, sends SIG
# TIMES times once the run shows numbers, and leaves its exit status in $RB_TMP/rc
tui_signal() {
	local sig=$1 times=${2:-1} pid i
	rm -f "$RB_TMP/rc" "$RB_TMP/pid"
	tmux kill-session -t "$S" 2>/dev/null
	tmux new-session -d -s "$S" -x 132 -y 43 \
		"env LANG=C.UTF-8 XDG_DATA_HOME=$XDG_DATA_HOME XDG_CACHE_HOME=$XDG_CACHE_HOME XDG_CONFIG_HOME=$RB_TMP/config sh -c 'echo \$\$ >$RB_TMP/pid; exec $RAIDBENCH --profile=default --start'; echo rc=\$? >$RB_TMP/rc; echo RAIDBENCH-EXITED; exec bash --norc"
	wait_for "IOPS" 20 || { fail "SIG$sig: the TUI run did not start"; return 1; }
	sleep 1
	pid=$(cat "$RB_TMP/pid")
	for ((i = 0; i < times; i++)); do
		kill -"$sig" "$pid"
		sleep 0.5
	done
	wait_for "RAIDBENCH-EXITED" 40
	tmux capture-pane -p -t "$S" >"$RB_TMP/screen-$sig.txt"
}
for sig in TERM HUP INT; do
	n_before=$(ls "$XDG_DATA_HOME"/raidbench/results/*.json 2>/dev/null | wc -l)
	times=1
	[ "$sig" = INT ] && times=2	# Ctrl-C is q: the first one asks while a run goes
	tui_signal "$sig" "$times" || continue
	want=$((128 + $(kill -l "$sig")))
	check "TUI, SIG$sig mid-run: exit $want ($(cat "$RB_TMP/rc" 2>/dev/null))" \
		grep -qx "rc=$want" "$RB_TMP/rc"
	check "... says the results so far are saved" \
		grep -q "the run was stopped; its results so far are saved as" "$RB_TMP/screen-$sig.txt"
	n_after=$(ls "$XDG_DATA_HOME"/raidbench/results/*.json 2>/dev/null | wc -l)
	check "... and they are ($n_before -> $n_after)" [ "$n_after" -eq $((n_before + 1)) ]
	tmux send-keys -t "$S" "echo SHELL-OK" Enter
	check "... the terminal works afterwards" wait_for "^SHELL-OK" 10
done
rb_done
