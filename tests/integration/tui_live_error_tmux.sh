#!/bin/bash
# A job that fails says so at once, not at the run's end. Two jobs in one
# run: "ok" reads a file for 6 s, "bad" runs (ioengine=exec) a program that
# exits 3 after 0.5 s, its runtime 1 s. While "ok" still runs:
#  - the Run screen (tmux) shows "job 'bad' failed: ..." in its message area
#    and bad's row says "failed", ok's "run";
#  - `raidbench run --live=FILE` has a line {"failed": {...}} before the
#    ticks where "ok" still runs;
#  - the status line (stderr a terminal) has the error on a line of its own
#    and counts "[1 failed]".
# At the end nothing changes: the error shows once on the screen (the run's
# own list), the TUI exits 0, and the command line exits 1 with the same
# stderr and the same error in its report as before.
. "$(dirname "$0")/lib.sh"
rb_init
need_tool tmux tmux
need_tool python3 python3
S=rbliverr$$
cap() { tmux capture-pane -p -t "$S" >"$RB_TMP/$1.txt"; }
cleanup_tmux() { tmux kill-session -t "$S" 2>/dev/null; rb_cleanup; }
trap cleanup_tmux EXIT

W=$RB_TMP/w
PROF_DIR=$RB_TMP/config/raidbench/profiles
mkdir -p "$W" "$PROF_DIR"
printf '#!/bin/sh\nsleep 0.5\nexit 3\n' >"$W/fail.sh"
chmod +x "$W/fail.sh"
truncate -s 16M "$W/target.dat"
WHY="exec: '$W/fail.sh' exited with status 3"
cat >"$PROF_DIR/liveerr.fio" <<EOF
[ok]
description=reads the target for 6 s
ioengine=psync
rw=read
bs=64k
runtime=6
time_based
[bad]
description=a program that fails after half a second
ioengine=exec
program=$W/fail.sh
runtime=1
EOF

tmux new-session -d -s "$S" -x 160 -y 43 -c "$W" \
	"env LANG=C.UTF-8 XDG_DATA_HOME=$XDG_DATA_HOME XDG_CACHE_HOME=$XDG_CACHE_HOME XDG_CONFIG_HOME=$RB_TMP/config $RAIDBENCH --profile=liveerr --target=$W/target.dat --start; echo RAIDBENCH-EXITED=\$?; exec bash --norc"
# watch until the run finishes: the first screen that shows the error while it runs
seen="" running_after=""
for ((i = 0; i < 300; i++)); do
	shot=$(tmux capture-pane -p -t "$S" 2>/dev/null)
	printf '%s\n' "$shot" | grep -q "Run finished" && break
	if [ -z "$seen" ] && printf '%s\n' "$shot" | grep -q "^ *running  elapsed" &&
	   printf '%s\n' "$shot" | grep -qF "job 'bad' failed: $WHY"; then
		seen=$shot
		printf '%s\n' "$shot" >"$RB_TMP/seen.txt"
	fi
	sleep 0.1
done
cap fin
check "the error shows on the Run screen while the run goes on" [ -n "$seen" ]
el=$(grep -o "running  elapsed [0-9:]*" "$RB_TMP/seen.txt" 2>/dev/null | grep -o "[0-9:]*$")
check "it shows at once, not at the end: elapsed ${el:-?} of 6 s" \
	eval '[ -n "$el" ] && [ "${el##*:}" -le 3 ]'
check "bad's row says failed" eval 'grep -Eq "^ *bad +failed " "$RB_TMP/seen.txt"'
check "ok's row still runs" eval 'grep -Eq "^ *ok +run " "$RB_TMP/seen.txt"'
check "then the run finished" grep -q "Run finished" "$RB_TMP/fin.txt"
n=$(grep -cF "$WHY" "$RB_TMP/fin.txt")
check "at the end the error shows once, the run's own list (shown $n times)" [ "$n" = 1 ]
check "the run's own list as before: \"job 'bad': $WHY\"" grep -qF "job 'bad': $WHY" "$RB_TMP/fin.txt"
check "bad's row still says failed at the end" eval 'grep -Eq "^ *bad +failed " "$RB_TMP/fin.txt"'
tmux send-keys -t "$S" q
wait_for "RAIDBENCH-EXITED=" 20
check "the TUI exits 0 ($(tmux capture-pane -p -t "$S" | grep -o 'RAIDBENCH-EXITED=[0-9]*'))" \
	eval 'tmux capture-pane -p -t "$S" | grep -q "RAIDBENCH-EXITED=0"'

# the command line: --live says it in a line of its own, at once
(cd "$W" && timeout 60 "$RAIDBENCH" run --no-save --output-format=json --output="$RB_TMP/out.json" \
	--live="$RB_TMP/live.jsonl" "$PROF_DIR/liveerr.fio" --filename="$W/target.dat" \
	>"$RB_TMP/cout" 2>"$RB_TMP/cerr")
rc=$?
check "raidbench run exits 1, as before ($rc)" [ "$rc" = 1 ]
check "its stderr is the run's error list, as before ($(tr '\n' '|' <"$RB_TMP/cerr"))" \
	[ "$(cat "$RB_TMP/cerr")" = "job 'bad': $WHY" ]
check "the report has bad's error, as before" \
	[ "$(json_get "$RB_TMP/out.json" '[(j["jobname"], j["error"]) for j in d["jobs"]]')" = "[('ok', 0), ('bad', 10)]" ]
python3 - "$RB_TMP/live.jsonl" "job 'bad': $WHY" >"$RB_TMP/livecheck" 2>&1 <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
fail = [i for i, l in enumerate(lines) if "failed" in l]
if len(fail) != 1:
    print("failed lines:", len(fail)); sys.exit(1)
f = lines[fail[0]]
print("line", fail[0], "of", len(lines), json.dumps(f))
want = {"job": 1, "name": "bad", "groupid": 0, "error": sys.argv[2]}
if f["failed"] != want:
    print("want", want); sys.exit(1)
if f["t_ms"] > 3000:
    print("too late"); sys.exit(1)
after = [l for l in lines[fail[0] + 1:] if any(j["name"] == "ok" and j.get("phase") == "run"
                                                for j in l.get("jobs", []))]
print("ticks after it with ok running:", len(after))
sys.exit(0 if len(after) >= 10 else 1)
PY
lrc=$?
check "--live: one \"failed\" line naming bad and its error, at once, ok running after it ($(tr '\n' ' ' <"$RB_TMP/livecheck" | cut -c1-200))" \
	[ "$lrc" = 0 ]

# the status line, stderr a terminal
tmux kill-session -t "$S" 2>/dev/null
tmux new-session -d -s "$S" -x 200 -y 20 -c "$W" \
	"env -u RAIDBENCH_NO_STATUS $RAIDBENCH run --no-save --output=/dev/null $PROF_DIR/liveerr.fio --filename=$W/target.dat; echo RUN-EXITED=\$?; exec bash --norc"
if wait_for "raidbench run: job 'bad' failed" 10; then
	cap status
	check "status line: the error on a line of its own while ok runs" \
		eval 'grep -qF "raidbench run: job '"'"'bad'"'"' failed: $WHY" "$RB_TMP/status.txt" &&
		      ! grep -q "RUN-EXITED" "$RB_TMP/status.txt"'
	wait_for "\[1 failed\]" 5
	check "the status line counts it: [1 failed]" eval 'tmux capture-pane -p -t "$S" | grep -qF "[1 failed]"'
else
	fail "status line: no line says the job failed ($(tmux capture-pane -p -t "$S" | grep -v '^ *$' | tail -3))"
fi
wait_for "RUN-EXITED=" 20
check "the command line in a terminal exits 1" eval 'tmux capture-pane -p -t "$S" | grep -q "RUN-EXITED=1"'
rb_done
