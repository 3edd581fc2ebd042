#!/bin/bash
# fleet_bench.sh - `make bench`, fleets: raidbench as the console of 8 real fio
# servers (fio --server on 127.0.0.31-38, null engine, 4k randread,
# time-based), measuring the console's CPU per status message it decodes (a
# fio TS message is 184 KB: one thread_stat with its 1856-bucket histograms
# for three latency kinds and three directions) and whether the live view
# keeps up at a 100 ms tick (tick intervals, records dropped, every host in
# every line). A measurement, not a test: exits 0 even when a bar fails (and
# says FAIL); non-zero only when it cannot measure. The servers and files it
# makes are removed on exit.
#
# Environment: RAIDBENCH (the binary), FLEET_ROUNDS (3), FLEET_RUNTIME (4 s: the
# short run; the long one is 3x),
# FLEET_HOSTS (8).
set -u
here=$(cd "$(dirname "$0")" && pwd)
RAIDBENCH=${RAIDBENCH:-$here/../../raidbench}
ROUNDS=${FLEET_ROUNDS:-3}
RUNTIME=${FLEET_RUNTIME:-4}
HOSTS=${FLEET_HOSTS:-8}
die() { echo "fleet bench: $*" >&2; exit 2; }
[ -x "$RAIDBENCH" ] || die "no raidbench binary at $RAIDBENCH"
command -v fio >/dev/null || die "fio is needed (apt-get install fio)"
[ -x /usr/bin/time ] || die "GNU time is needed (apt-get install time)"

TMP=$(mktemp -d /var/tmp/raidbench-fleet-bench.XXXXXX)
PIDS=()
cleanup() {
	local all
	# the servers, their connection and backend processes, and the job processes (setsid)
	all=$(ps -eo pid=,ppid= | awk -v roots="${PIDS[*]}" '
		BEGIN { n = split(roots, r, " "); for (i = 1; i <= n; i++) keep[r[i]] = 1 }
		{ parent[$1] = $2 }
		END { do { grew = 0; for (p in parent) if (!(p in keep) && (parent[p] in keep)) { keep[p] = 1; grew = 1 } } while (grew)
		      for (k in keep) if (k in parent) print k }')
	[ -n "$all" ] && kill -9 $all 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
export XDG_DATA_HOME=$TMP/data XDG_CACHE_HOME=$TMP/cache

PORT=$((20000 + RANDOM % 20000))
CLIENTS=()
for i in $(seq 1 "$HOSTS"); do
	a=127.0.0.$((30 + i))
	setsid fio --server="ip:$a,$PORT" >"$TMP/server-$a.log" 2>&1 &
	PIDS+=($!)
	disown $!	# no "Killed" notice from the shell at cleanup
	CLIENTS+=(--client="$a,$PORT")
done
for i in $(seq 1 "$HOSTS"); do
	a=127.0.0.$((30 + i))
	for t in $(seq 50); do
		python3 -c "import socket; socket.create_connection(('$a', $PORT), 1)" 2>/dev/null && break
		sleep 0.1
	done
done

echo "fleet: $HOSTS fio servers x null engine 4k randread, runs of ${RUNTIME}s and $((3 * RUNTIME))s time-based, $ROUNDS rounds, tick 100 ms"
# the CPU of a message is the difference between a long and a short run over the
# difference in messages: start-up, connecting and the reports cancel out
for r in $(seq 1 "$ROUNDS"); do
	for len in short long; do
		rt=$([ $len = short ] && echo "$RUNTIME" || echo $((3 * RUNTIME)))
		rm -rf "$XDG_DATA_HOME"
		/usr/bin/time -f "%U %S %e" -o "$TMP/time.$len.$r" "$RAIDBENCH" run "${CLIENTS[@]}" \
			--output-format=json --output="$TMP/out.$len.$r.json" --live="$TMP/live.$len.$r.jsonl" \
			--live-interval=100 --name=t --ioengine=null --rw=randread --bs=4k --size=1g \
			--time_based --runtime="$rt" 2>"$TMP/err.$len.$r" ||
			die "round $r ($len) failed: $(cat "$TMP/err.$len.$r")"
		cp "$(ls "$XDG_DATA_HOME"/raidbench/results/*.json | head -1)" "$TMP/saved.$len.$r.json"
	done
done

python3 - "$TMP" "$ROUNDS" "$HOSTS" <<'PY'
import json, statistics, sys
tmp, rounds, hosts = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
cpu_msg, cpu_pct, msgs_s, late, drops, missing, ticks_s = [], [], [], [], [], [], []
def run(kind, r):
    usr, sys_, wall = map(float, open('%s/time.%s.%d' % (tmp, kind, r)).read().split()[-3:])
    fl = json.load(open('%s/saved.%s.%d.json' % (tmp, kind, r)))['raidbench']['fleet']
    lines = [json.loads(l) for l in open('%s/live.%s.%d.jsonl' % (tmp, kind, r))]
    return usr + sys_, wall, fl['status_messages'], lines
for r in range(1, rounds + 1):
    cs, ws, ns, _ = run('short', r)
    cl, wl, nl, lines = run('long', r)
    iv = [l['interval_ms'] for l in lines[1:-1]]          # the closing tick is short by design
    cpu_msg.append((cl - cs) / (nl - ns) * 1e6 if nl > ns else float('nan'))
    cpu_pct.append(100 * cl / wl)
    msgs_s.append(nl / wl)
    late.append(100 * sum(1 for x in iv if x > 150) / len(iv))
    drops.append(lines[-1]['drops'])
    missing.append(sum(1 for l in lines if len(l.get('hosts', [])) != hosts))
    ticks_s.append(len(lines) / wl)
med = statistics.median
fmt = lambda v, f='%.1f': ', '.join(f % x for x in v)
print('  status messages decoded/s     %8.0f  (long runs; %s)' % (med(msgs_s), fmt(msgs_s, '%.0f')))
print('  console CPU per message       %8.1f us (long - short; %s)' % (med(cpu_msg), fmt(cpu_msg)))
print('  console CPU, share of a core  %8.1f %% (long runs; %s)' % (med(cpu_pct), fmt(cpu_pct)))
print('  live lines/s                  %8.1f  (a 100 ms tick: 10)' % med(ticks_s))
print('  ticks later than 150 ms       %8.1f %% (%s)' % (med(late), fmt(late)))
print('  live records dropped          %8d' % max(drops))
print('  lines without every host      %8d' % max(missing))
ok = med(late) <= 5 and max(drops) == 0 and max(missing) == 0
print('  %s  the live view keeps up at 100 ms with %d hosts (<= 5%% late ticks, no drops, every host in every line)'
      % ('PASS' if ok else 'FAIL', hosts))
PY
