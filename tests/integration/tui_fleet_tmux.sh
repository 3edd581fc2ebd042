#!/bin/bash
# End to end in a real terminal (tmux): `raidbench --client=A --client=B
# --client=C --profile=P --target=PATH --start` against two real fio servers
# and an address where nothing listens: the Hosts pane shows both servers
# running with live rates, the third refused with its reason; Right shows a
# host's jobs; both end "done", the run is saved with every host; q quits.
. "$(dirname "$0")/lib.sh"
rb_init
need_tool tmux tmux
need_tool fio fio
need_tool setsid util-linux
S=rbfleet$$
PORT=$((20000 + RANDOM % 20000))
PIDS=()
tree() {
	ps -eo pid=,ppid= | awk -v roots="$*" '
		BEGIN { n = split(roots, r, " "); for (i = 1; i <= n; i++) keep[r[i]] = 1 }
		{ parent[$1] = $2 }
		END { do { grew = 0; for (p in parent) if (!(p in keep) && (parent[p] in keep)) { keep[p] = 1; grew = 1 } } while (grew)
		      for (k in keep) if (k in parent) print k }'
}
cleanup_all() {
	local pids
	tmux kill-session -t "$S" 2>/dev/null
	pids=$(tree "${PIDS[@]}")
	[ -n "$pids" ] && kill -9 $pids 2>/dev/null
	rb_cleanup
}
trap cleanup_all EXIT
for a in 127.0.0.41 127.0.0.42; do
	setsid fio --server="ip:$a,$PORT" >"$RB_TMP/server-$a.log" 2>&1 &
	PIDS+=($!)
done
for a in 127.0.0.41 127.0.0.42; do
	for i in $(seq 50); do
		python3 -c "import socket; socket.create_connection(('$a', $PORT), 1)" 2>/dev/null && break
		sleep 0.1
	done
done
mkdir -p "$RB_TMP/config/raidbench/profiles"
printf '[global]\nioengine=null\nsize=1g\ntime_based\nruntime=6\n[fleet-null]\nrw=randread\nbs=4k\n' \
	>"$RB_TMP/config/raidbench/profiles/fleetnull.fio"
cap() { tmux capture-pane -p -t "$S" >"$RB_TMP/$1.txt"; }
screen_has() { grep -q -- "$2" "$RB_TMP/$1.txt"; }

tmux new-session -d -s "$S" -x 100 -y 30 \
	"env LANG=C.UTF-8 XDG_DATA_HOME=$XDG_DATA_HOME XDG_CACHE_HOME=$XDG_CACHE_HOME XDG_CONFIG_HOME=$RB_TMP/config $RAIDBENCH --client=127.0.0.41,$PORT --client=127.0.0.42,$PORT --client=127.0.0.43,$PORT --profile=fleetnull --target=$RB_TMP/on-server.dat --start; echo RAIDBENCH-EXITED=\$?; exec bash --norc"
check "the Hosts pane shows the first server running with I/O" \
	wait_for "127.0.0.41,$PORT *running *[0-9.]*[1-9][0-9.]*[kMG]\? " 30
cap running
check "...the second one too" screen_has running "127.0.0.42,$PORT *running"
check "the third is named refused, with its reason" screen_has running "127.0.0.43,$PORT *refused"
check "...the reason line" screen_has running "connect to 127.0.0.43,$PORT: Connection refused"
tmux send-keys -t "$S" Down Right
check "Right shows the chosen host's jobs" wait_for "fleet-null" 5
tmux send-keys -t "$S" Left
check "both servers end done" wait_for "127.0.0.42,$PORT *done" 30
wait_for "Run finished on 3 hosts" 10
cap done
check "the run's end is announced with where it was saved" screen_has done "Run finished on 3 hosts (some failed, see the Hosts pane), saved as"
saved=$(ls "$XDG_DATA_HOME"/raidbench/results/*.json 2>/dev/null | head -1)
check "the saved run holds both servers' results and the refused host" python3 - "$saved" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
hosts = {h['client'].split(',')[0]: h for h in d['raidbench']['fleet']['hosts']}
assert hosts['127.0.0.41']['state'] == 'done' and hosts['127.0.0.42']['state'] == 'done', hosts
assert hosts['127.0.0.43']['fault'] == 'refused', hosts['127.0.0.43']
assert [j['jobname'] for j in d['jobs']] == ['fleet-null', 'fleet-null', 'All clients'], d['jobs']
assert all(j['read']['total_ios'] > 0 for j in d['jobs'])
PY
tmux send-keys -t "$S" q
check "q quits (exit 0)" wait_for "RAIDBENCH-EXITED=0" 10

# headless on a terminal: the status line counts the hosts still going
tmux send-keys -t "$S" "clear; env -u RAIDBENCH_NO_STATUS $RAIDBENCH run --client=127.0.0.41,$PORT --client=127.0.0.42,$PORT \
--client=127.0.0.43,$PORT --no-save --output-format=json --output=$RB_TMP/h.json --name=h \
--ioengine=null --rw=randread --size=1g --time_based --runtime=5; echo HEADLESS-EXITED=\$?" Enter
check "the headless status line shows the hosts up (2 of 3: one refused)" \
	wait_for "Hosts: 2/3 up, Jobs: [0-9]* (run)" 30
check "...and the run ends (exit 1: one host refused)" wait_for "HEADLESS-EXITED=1" 30
rb_done
