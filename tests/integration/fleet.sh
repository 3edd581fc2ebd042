#!/bin/bash
# Fleets: `raidbench run --client=...` against real fio 3.33 servers
# (`fio --server`) on loopback addresses 127.0.0.x. Per host and job, the
# totals equal what fio's own client reports for the same job, on the null
# engine and on files, and the JSON has fio's client-mode shape; the live
# JSON Lines are tagged by host; the saved run holds every host and the sum.
# Faults, each named per host while the others keep their results: nothing
# listening, a name that does not resolve, a server of another protocol
# version (a fake one, and a real one spoken to in another version), a host
# killed mid-run, a job the servers reject; SIGINT and SIGTERM stop every
# host. Every server this test starts is killed on exit.
. "$(dirname "$0")/lib.sh"
rb_init
need_tool fio fio
need_tool python3 python3
need_tool setsid util-linux

PORT=$((20000 + RANDOM % 20000))
SERVER_PGIDS=()
# tree PID...: those processes and all below them. A fio server forks a process
# per connection, that one a backend, and each job process calls setsid(): a
# process group does not hold them all, parentage does.
tree() {
	ps -eo pid=,ppid= | awk -v roots="$*" '
		BEGIN { n = split(roots, r, " "); for (i = 1; i <= n; i++) keep[r[i]] = 1 }
		{ parent[$1] = $2 }
		END {
			do { grew = 0
				for (p in parent) if (!(p in keep) && (parent[p] in keep)) { keep[p] = 1; grew = 1 }
			} while (grew)
			for (k in keep) if (k in parent) print k
		}'
}
fleet_cleanup() {
	local pids
	pids=$(tree "${SERVER_PGIDS[@]}")
	[ -n "$pids" ] && kill -9 $pids 2>/dev/null
	rb_cleanup
}
trap fleet_cleanup EXIT

# start_server ADDR: a fio server (setsid: its pid is its own group, out of the test's)
start_server() {
	setsid fio --server="ip:$1,$PORT" >"$RB_TMP/server-$1.log" 2>&1 &
	SERVER_PGIDS+=($!)
}
# wait_io LIVEFILE N: until the last live line shows I/O on N hosts (fio takes
# a few seconds to start a job), 30 s at most
wait_io() {
	python3 - "$1" "$2" <<'PY'
import json, sys, time
for _ in range(300):
    try:
        lines = open(sys.argv[1]).read().splitlines()
    except OSError:
        lines = []
    # the file is written through a buffer: the last line may be cut short
    for line in reversed(lines):
        try:
            hosts = json.loads(line).get('hosts', [])
        except ValueError:
            continue
        if sum(1 for h in hosts if h['read']['total_ios'] > 0) >= int(sys.argv[2]):
            sys.exit(0)
        break
    time.sleep(0.1)
sys.exit(1)
PY
}
wait_listen() { # wait_listen ADDR: until the server accepts
	local i
	for i in $(seq 50); do
		python3 -c "import socket,sys; socket.create_connection(('$1', $PORT), 1)" \
			2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
for a in 127.0.0.11 127.0.0.12 127.0.0.13 127.0.0.14; do start_server $a; done
for a in 127.0.0.11 127.0.0.12 127.0.0.13 127.0.0.14; do
	wait_listen $a || { fail "fio server on $a:$PORT did not start"; rb_done; }
done
CLIENTS=(--client=ip:127.0.0.11,$PORT --client=127.0.0.12,$PORT --client=ip:127.0.0.13,$PORT
	--client=127.0.0.14,$PORT)
FIO_CLIENTS=(--client=ip:127.0.0.11,$PORT --client=ip:127.0.0.12,$PORT
	--client=ip:127.0.0.13,$PORT --client=ip:127.0.0.14,$PORT)

# compare FIO.json RB.json: per (host, job, clone) and for "All clients", the
# I/O counts and bytes per direction equal, and every entry has fio's keys
compare() {
	python3 - "$1" "$2" <<'PY'
import json, sys
def load(p):
    t = open(p).read()
    return json.loads(t[t.index('{'):])
def table(d):
    out, seen = {}, {}
    for e in d['client_stats']:
        # fio labels the sum with whichever client completed it: compare it alone
        k = ('*' if e['jobname'] == 'All clients' else e['hostname'], e['jobname'])
        n = seen.get(k, 0); seen[k] = n + 1
        out[k + (n,)] = e
    return out
f, r = load(sys.argv[1]), load(sys.argv[2])
bad = []
if list(f.keys()) != [k for k in r.keys() if k != 'timestamp_ms']:
    bad.append('top-level keys: fio %s, raidbench %s' % (list(f), list(r)))
tf, tr = table(f), table(r)
if sorted(tf) != sorted(tr):
    bad.append('entries: fio %s, raidbench %s' % (sorted(tf), sorted(tr)))
for k in tf:
    if k not in tr:
        continue
    for d in ('read', 'write'):
        for m in ('total_ios', 'io_bytes', 'short_ios'):
            if tf[k][d][m] != tr[k][d][m]:
                bad.append('%s %s %s: fio %s, raidbench %s' % (k, d, m, tf[k][d][m], tr[k][d][m]))
    kf, kr = set(tf[k]), set(tr[k])
    if kf != kr:
        bad.append('%s keys: only fio %s, only raidbench %s' % (k, kf - kr, kr - kf))
if r['client_stats'][-1]['jobname'] != 'All clients':
    bad.append('the last entry is not "All clients"')
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
}

# ---- 1. null engine: totals equal fio's client ---------------------------------
cat >"$RB_TMP/null.fio" <<'EOF'
[global]
ioengine=null
size=24m
[mixed]
rw=randrw
rwmixread=60
bs=4k
numjobs=2
[seq]
rw=write
bs=64k
EOF
fio "${FIO_CLIENTS[@]}" --output-format=json "$RB_TMP/null.fio" >"$RB_TMP/fio-null.json" 2>"$RB_TMP/fio-null.err"
"$RAIDBENCH" run "${CLIENTS[@]}" --output-format=json --live="$RB_TMP/live.jsonl" \
	"$RB_TMP/null.fio" >"$RB_TMP/rb-null.json" 2>"$RB_TMP/rb-null.err"
rc=$?
check "4 null-engine servers: exit 0 (got $rc: $(head -c 300 "$RB_TMP/rb-null.err"))" [ $rc -eq 0 ]
sed -i 's/^\(.*"hostname" : "\)ip:/\1/' "$RB_TMP/rb-null.json"
if out=$(compare "$RB_TMP/fio-null.json" "$RB_TMP/rb-null.json"); then
	pass "null engine: per host and job, and All clients, totals and keys equal fio --client's"
else
	fail "null engine vs fio --client: $out"
fi
check "the JSON names each host as fio does (host part, port)" python3 - "$RB_TMP/rb-null.json" "$PORT" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
hosts = sorted({e['hostname'] for e in d['client_stats'][:-1]})
assert hosts == ['127.0.0.11', '127.0.0.12', '127.0.0.13', '127.0.0.14'], hosts
assert all(e['port'] == int(sys.argv[2]) for e in d['client_stats']), 'port'
assert len(d['client_stats']) == 4 * 3 + 1, len(d['client_stats'])
PY

# the live lines: every host has a row, job rows carry their host, and the last
# line's cumulative totals per host equal the final results
check "live JSON Lines: per-host rows and host-tagged job rows whose totals end exact" \
	python3 - "$RB_TMP/live.jsonl" "$RB_TMP/rb-null.json" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert len(lines) >= 2, len(lines)
final = json.load(open(sys.argv[2]))
want = {}
for e in final['client_stats'][:-1]:
    want[e['hostname']] = want.get(e['hostname'], 0) + e['read']['io_bytes'] + e['write']['io_bytes']
last = lines[-1]
got = {}
for h in last['hosts']:
    host = h['host'].split(',')[0].replace('ip:', '')
    got[host] = h['read']['total_bytes'] + h['write']['total_bytes']
assert got == want, (got, want)
assert all('host' in j and 'name' in j for l in lines for j in l['jobs'])
assert any(j['read']['ios'] > 0 for l in lines for j in l['jobs']), 'no interval I/O at all'
tot = last['total']['read']['total_bytes'] + last['total']['write']['total_bytes']
assert tot == sum(want.values()), (tot, want)
PY

# the saved run: each host's entries, the sum, and the hosts' states
saved=$(ls "$XDG_DATA_HOME"/raidbench/results/*.json 2>/dev/null | head -1)
check "one saved run holds every host's results and All clients" python3 - "$saved" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
jobs = d['jobs']
fl = d['raidbench']['fleet']
assert len(fl['hosts']) == 4 and all(h['state'] == 'done' for h in fl['hosts']), fl
assert jobs[fl['all_clients']]['jobname'] == 'All clients'
assert sum(h['nr_jobs'] for h in fl['hosts']) == len(jobs) - 1
s = sum(j['read']['io_bytes'] for j in jobs[:-1])
assert jobs[-1]['read']['io_bytes'] == s, (jobs[-1]['read']['io_bytes'], s)
PY
rm -f "$XDG_DATA_HOME"/raidbench/results/*.json

# ---- 2. on files: each server writes then reads its own files --------------------
mkdir -p "$RB_TMP/files"
cat >"$RB_TMP/files.fio" <<EOF
[global]
ioengine=psync
directory=$RB_TMP/files
size=4m
[w]
rw=write
bs=16k
[r]
stonewall
rw=randread
bs=4k
EOF
fio "${FIO_CLIENTS[@]}" --output-format=json "$RB_TMP/files.fio" >"$RB_TMP/fio-files.json" 2>&1
rm -f "$RB_TMP"/files/*
"$RAIDBENCH" run "${CLIENTS[@]}" --output-format=json --no-save "$RB_TMP/files.fio" \
	>"$RB_TMP/rb-files.json" 2>"$RB_TMP/rb-files.err"
rc=$?
check "4 servers on files: exit 0 (got $rc: $(head -c 300 "$RB_TMP/rb-files.err"))" [ $rc -eq 0 ]
sed -i 's/^\(.*"hostname" : "\)ip:/\1/' "$RB_TMP/rb-files.json"
if out=$(compare "$RB_TMP/fio-files.json" "$RB_TMP/rb-files.json"); then
	pass "files: per host and job totals and keys equal fio --client's"
else
	fail "files vs fio --client: $out"
fi
# fio names a generated file after the server the client asked for: one set per host
n=$(ls "$RB_TMP/files" | grep -c '^127\.0\.0\.1[1-4]\.')
check "each server wrote its own files (got $n)" [ "$n" -ge 4 ]

# ---- 3. faults: refused, unresolvable, another version; the rest carry on ----------
# not the python3 function of lib.sh: $! must be the server itself, not a subshell
command python3 -S "$SRCDIR/tests/integration/fio_fake_server.py" 127.0.0.16 $PORT 96 &
SERVER_PGIDS+=($!)	# (a plain pid: kill -- -pid fails harmlessly, the kill below does it)
FAKE_PID=$!
wait_listen 127.0.0.16 || fail "the fake server did not start"
"$RAIDBENCH" run --client=127.0.0.11,$PORT --client=127.0.0.12,$PORT \
	--client=127.0.0.15,$PORT --client=no-such-host.invalid,$PORT --client=127.0.0.16,$PORT \
	--output-format=json --no-save "$RB_TMP/null.fio" >"$RB_TMP/rb-faults.json" \
	2>"$RB_TMP/rb-faults.err"
rc=$?
kill $FAKE_PID 2>/dev/null
check "faults: exit 1 (got $rc)" [ $rc -eq 1 ]
check "refused host named with its reason" \
	grep -q "host 127.0.0.15,$PORT: refused: connect to 127.0.0.15,$PORT: Connection refused" "$RB_TMP/rb-faults.err"
check "unresolvable host named with its reason" \
	grep -q "host no-such-host.invalid,$PORT: unreachable: cannot resolve 'no-such-host.invalid'" "$RB_TMP/rb-faults.err"
check "another protocol version named with both versions" \
	grep -q "host 127.0.0.16,$PORT: version: the server speaks fio protocol version 96, raidbench speaks 97" "$RB_TMP/rb-faults.err"
check "the two good hosts keep full results despite three bad ones" python3 - "$RB_TMP/rb-faults.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
e = d['client_stats']
assert sorted({x['hostname'] for x in e[:-1]}) == ['127.0.0.11', '127.0.0.12'], e
assert all(x['read']['io_bytes'] + x['write']['io_bytes'] == 24 << 20 for x in e[:-1])
PY

# unreachable, in a network namespace of the test's own (only lo; 10.9.0.0/24
# routed into lo, where nobody answers, so a connect times out; 10.1.2.3 has no
# route at all), next to a real fio server inside the same namespace
if [ "$(id -u)" -eq 0 ] && unshare -n true 2>/dev/null; then
	unshare -n bash -c '
		ip link set lo up && ip route add 10.9.0.0/24 dev lo || exit 3
		setsid fio --server=ip:127.0.0.1,'$PORT' >/dev/null 2>&1 &
		srv=$!
		for i in $(seq 50); do
			python3 -c "import socket; socket.create_connection((\"127.0.0.1\", '$PORT'), 1)" 2>/dev/null && break
			sleep 0.1
		done
		start=$(date +%s)
		"$0" run --client=127.0.0.1,'$PORT' --client=10.9.0.2,'$PORT' --client=10.1.2.3,'$PORT' \
			--output-format=json --no-save --name=x --ioengine=null --size=8m
		echo "rc=$? took=$(( $(date +%s) - start ))" >&2
		# every process in this private network namespace is the test'"'"'s fio server
		me=$(readlink /proc/self/ns/net)
		for p in $(pgrep -x fio); do
			[ "$(readlink /proc/$p/ns/net 2>/dev/null)" = "$me" ] && kill -9 $p
		done
		exit 0' "$RAIDBENCH" >"$RB_TMP/rb-unreach.json" 2>"$RB_TMP/rb-unreach.err"
	check "unreachable: exit 1 after the 5 s connect timeout ($(grep '^rc=' "$RB_TMP/rb-unreach.err"))" \
		grep -Eq "^rc=1 took=[5-9]$" "$RB_TMP/rb-unreach.err"
	check "a connect that times out is named unreachable" grep -q \
		"host 10.9.0.2,$PORT: unreachable: connect to 10.9.0.2,$PORT timed out after 5000 ms" "$RB_TMP/rb-unreach.err"
	check "no route is named unreachable" grep -q \
		"host 10.1.2.3,$PORT: unreachable: connect to 10.1.2.3,$PORT: Network is unreachable" "$RB_TMP/rb-unreach.err"
	check "the reachable server's results stand" python3 -c "
import json; d = json.load(open('$RB_TMP/rb-unreach.json'))
assert [e['hostname'] for e in d['client_stats']] == ['127.0.0.1'], d['client_stats']
assert d['client_stats'][0]['read']['io_bytes'] == 8 << 20"
else
	echo "# unreachable hosts in a network namespace: skipped (needs root and unshare -n)"
fi

# a real fio server spoken to in another version drops the connection unanswered
RAIDBENCH_TEST_FIO_VERSION=96 "$RAIDBENCH" run --client=127.0.0.13,$PORT --no-save \
	"$RB_TMP/null.fio" >/dev/null 2>"$RB_TMP/rb-ver.err"
rc=$?
check "a real fio server of another version: exit 1 (got $rc)" [ $rc -eq 1 ]
check "...named as a version mismatch" \
	grep -q "host 127.0.0.13,$PORT: version: the server closed the connection without answering the probe" "$RB_TMP/rb-ver.err"

# ---- 4. a job the servers reject (a CPU this machine does not have) ----------------
"$RAIDBENCH" run --client=127.0.0.11,$PORT --client=127.0.0.12,$PORT --no-save \
	--name=x --ioengine=null --size=1m --cpus_allowed=1000 >/dev/null 2>"$RB_TMP/rb-rej.err"
rc=$?
check "rejected job: exit 1 (got $rc)" [ $rc -eq 1 ]
check "each host's rejection names the server's reason" \
	[ "$(grep -c "rejected: the server refused the job: .*CPU 1000 too large" "$RB_TMP/rb-rej.err")" -eq 2 ]

# ---- 5. a host killed mid-run: named lost, the others finish ------------------------
"$RAIDBENCH" run "${CLIENTS[@]:0:3}" --output-format=json --no-save --name=t --ioengine=null \
	--rw=randread --size=1g --time_based --runtime=4 --live="$RB_TMP/kill.jsonl" \
	>"$RB_TMP/rb-kill.json" 2>"$RB_TMP/rb-kill.err" &
rbpid=$!
wait_io "$RB_TMP/kill.jsonl" 3 || fail "the hosts never started I/O"
sleep 0.5
kill -9 $(tree "${SERVER_PGIDS[1]}")	# 127.0.0.12's server, connection, backend and jobs
wait $rbpid
rc=$?
check "host killed mid-run: exit 1 (got $rc)" [ $rc -eq 1 ]
check "...named lost with the reason" grep -q "host 127.0.0.12,$PORT: lost: the connection .* mid-run" "$RB_TMP/rb-kill.err"
check "...the other hosts ran to the end, the lost one kept its last status" python3 - "$RB_TMP/rb-kill.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
e = {x['hostname']: x for x in d['client_stats'][:-1]}
assert set(e) == {'127.0.0.11', '127.0.0.12', '127.0.0.13'}, list(e)
assert e['127.0.0.11']['job_runtime'] >= 3900 and e['127.0.0.13']['job_runtime'] >= 3900, \
    [(h, x['job_runtime']) for h, x in e.items()]
assert 0 < e['127.0.0.12']['read']['total_ios'] and e['127.0.0.12']['job_runtime'] < 3500, \
    e['127.0.0.12']['job_runtime']
PY

# its server again, for the sections below
start_server 127.0.0.12
PGID_12=${SERVER_PGIDS[-1]}
wait_listen 127.0.0.12 || fail "fio server on 127.0.0.12 did not restart"

# ---- 6. SIGINT and SIGTERM stop every host ------------------------------------------
for sig in INT TERM; do
	# the INT round's live file would let wait_io return before this run has
	# caught its signals (seen under ASan: killed at start, no results)
	rm -f "$RB_TMP/sig.jsonl"
	start=$(date +%s)
	"$RAIDBENCH" run --client=127.0.0.11,$PORT --client=127.0.0.13,$PORT --client=127.0.0.14,$PORT \
		--output-format=json --no-save --name=long --ioengine=null --rw=randread --size=1g --time_based \
		--runtime=60 --live="$RB_TMP/sig.jsonl" >"$RB_TMP/rb-sig.json" 2>"$RB_TMP/rb-sig.err" &
	rbpid=$!
	wait_io "$RB_TMP/sig.jsonl" 3 || fail "SIG$sig: the hosts never started I/O"
	kill -$sig $rbpid
	wait $rbpid
	rc=$?
	took=$(( $(date +%s) - start ))
	want=$([ $sig = INT ] && echo 130 || echo 143)
	check "SIG$sig: exit $want (got $rc) within 20 s of a 60 s run (took $took)" eval '[ $rc -eq $want ] && [ $took -lt 20 ]'
	check "SIG$sig: every host stopped cleanly and sent its final results (no host failed)" \
		[ -z "$(grep '^raidbench run: host ' "$RB_TMP/rb-sig.err")" ]
	check "SIG$sig: each host's partial results printed" python3 - "$RB_TMP/rb-sig.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
e = d['client_stats']
assert len(e) == 4 and all(x['read']['total_ios'] > 0 for x in e), e
assert all(x['job_runtime'] < 20000 for x in e)
PY
	# the servers stopped their jobs: nothing left below the three servers
	busy=0
	for i in $(seq 50); do
		busy=$(tree "${SERVER_PGIDS[0]}" "${SERVER_PGIDS[2]}" "${SERVER_PGIDS[3]}" | wc -l)
		[ "$busy" -le 3 ] && break
		sleep 0.2
	done
	check "SIG$sig: every server stopped the jobs ($busy processes under 3 servers)" [ "$busy" -le 3 ]
done

# ---- 7. compare --hosts: which server is slow? -----------------------------------------
"$RAIDBENCH" run "${CLIENTS[@]:0:3}" --output-format=json --name=t --ioengine=null --rw=randread \
	--size=1g --time_based --runtime=4 --live="$RB_TMP/slow.jsonl" >"$RB_TMP/rb-slow.json" \
	2>"$RB_TMP/rb-slow.err" &
rbpid=$!
# 127.0.0.12 runs a tenth of the time: the processes below its server (the
# connection's and the job's, looked up again each round, so the job is caught
# as soon as it is forked) stopped 450 ms of every 500 ms, from the start: a
# client slow to write its --live file (ASan, a loaded machine) would otherwise
# leave most of the 4 s unslowed. (Nice does little here: each fio job process
# is a session of its own, and so its own scheduling group.)
while kill -0 $rbpid 2>/dev/null; do
	pids=$(tree "$PGID_12" | grep -vx "$PGID_12")
	[ -n "$pids" ] && kill -STOP $pids 2>/dev/null
	sleep 0.45
	[ -n "$pids" ] && kill -CONT $pids 2>/dev/null
	sleep 0.05
done
pids=$(tree "$PGID_12")
kill -CONT $pids 2>/dev/null
wait $rbpid
check "slowed host: the run itself succeeds ($(head -c 300 "$RB_TMP/rb-slow.err"))" [ $? -eq 0 ]
"$RAIDBENCH" compare --hosts --tolerance=40 "$RB_TMP/rb-slow.json" >"$RB_TMP/cmp.txt" 2>&1
rc=$?
check "compare --hosts flags the slowed host (exit 1, got $rc)" eval '[ $rc -eq 1 ] &&
	grep -q "^! 127.0.0.12: read IOPS [0-9]*, [0-9]*% below the median" "$RB_TMP/cmp.txt"'
cat "$RB_TMP/cmp.txt"
saved=$(ls -t "$XDG_DATA_HOME"/raidbench/results/*.json | head -1)
"$RAIDBENCH" compare --hosts --json --tolerance=40 "$saved" >"$RB_TMP/cmp.json" 2>&1
check "compare --hosts reads the saved fleet run the same way" python3 - "$RB_TMP/cmp.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r['host'].split(',')[0]: r for r in d['hosts']}
assert set(rows) == {'ip:127.0.0.11', '127.0.0.12', 'ip:127.0.0.13'}, list(rows)
slow = rows['127.0.0.12']
assert slow['outlier'] and 'below the median' in slow['why'], slow
assert slow['read_iops'] == min(r['read_iops'] for r in rows.values())
PY
"$RAIDBENCH" compare --hosts --json "$RB_TMP/fio-null.json" >"$RB_TMP/cmp-fio.json" 2>&1
check "compare --hosts reads fio's own client output: 4 hosts" python3 -c "
import json; d = json.load(open('$RB_TMP/cmp-fio.json')); assert len(d['hosts']) == 4, d"
"$RAIDBENCH" compare --hosts "$RB_TMP/null.fio" >/dev/null 2>"$RB_TMP/e0"
rc=$?
check "compare --hosts on a file that is no result: exit 2, named (got $rc)" \
	eval '[ $rc -eq 2 ] && grep -q "null.fio: not a JSON result" "$RB_TMP/e0"'

# ---- 8. two job files: each server runs them one after the other, as a local run
printf '[a]\nioengine=null\nsize=1m\n' >"$RB_TMP/f1.fio"
printf '[b]\nioengine=null\nsize=1m\n' >"$RB_TMP/f2.fio"
"$RAIDBENCH" run --output-format=json --no-save "$RB_TMP/f1.fio" "$RB_TMP/f2.fio" >"$RB_TMP/local2.json" 2>&1
"$RAIDBENCH" run --client=127.0.0.11,$PORT --output-format=json --no-save "$RB_TMP/f1.fio" \
	"$RB_TMP/f2.fio" >"$RB_TMP/fleet2.json" 2>&1
check "two job files: the same groups on a server as here" python3 - "$RB_TMP/local2.json" "$RB_TMP/fleet2.json" <<'PY'
import json, sys
loc = [(e['jobname'], e['groupid']) for e in json.load(open(sys.argv[1]))['jobs']]
fl = [(e['jobname'], e['groupid']) for e in json.load(open(sys.argv[2]))['client_stats'][:-1]]
assert loc == [('a', 0), ('b', 1)] and fl == loc, (loc, fl)
PY

# ---- 9. bad --client values and files of hosts -----------------------------------------
"$RAIDBENCH" run --client=host,99999 --name=x --ioengine=null --size=1m >/dev/null 2>"$RB_TMP/e1"
rc=$?
check "a bad port is a usage error (got $rc)" eval '[ $rc -eq 2 ] && grep -q "bad port '"'99999'"'" "$RB_TMP/e1"'
printf '# lab\n127.0.0.11,%s\n\nip:127.0.0.13,%s  # second\nbad,port\n' $PORT $PORT >"$RB_TMP/hosts"
"$RAIDBENCH" run --client="$RB_TMP/hosts" --name=x --ioengine=null --size=1m >/dev/null 2>"$RB_TMP/e2"
rc=$?
check "a bad line in a host file names file:line (got $rc)" [ $rc -eq 2 ]
check "... the message names hosts:5" grep -q "hosts:5: --client='bad,port': bad port 'port'" "$RB_TMP/e2"
sed -i '$d' "$RB_TMP/hosts"
"$RAIDBENCH" run --client="$RB_TMP/hosts" --output-format=json --no-save --name=x --ioengine=null \
	--size=1m >"$RB_TMP/rb-file.json" 2>"$RB_TMP/e3"
rc=$?
check "--client=FILE runs on each host it names (got $rc)" python3 - "$RB_TMP/rb-file.json" "$rc" <<'PY'
import json, sys
assert sys.argv[2] == "0", "exit " + sys.argv[2]
d = json.load(open(sys.argv[1]))
assert [x['hostname'] for x in d['client_stats']] == ['127.0.0.11', '127.0.0.13', '127.0.0.13'], d['client_stats']
PY
"$RAIDBENCH" run --client=127.0.0.11,$PORT --name=x --ioengine=null --rw=write \
	--filename=/dev/sdz --size=1m >/dev/null 2>"$RB_TMP/e4"
rc=$?
check "writing a device on the servers needs --allow-destroy (got $rc)" [ $rc -eq 2 ]
check "... the message names the device and the option" \
	grep -q "writes to /dev/sdz on every server.*--allow-destroy=/dev/sdz" "$RB_TMP/e4"

rb_done
