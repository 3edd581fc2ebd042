#!/bin/bash
# The end of a TUI run, in a real terminal (tmux) on a loop device:
#  - while it runs, sync-engine jobs show a depth (jobs inside their syscall), not 0;
#  - once "Run finished" shows, the TUI holds no descriptor on the device and
#    another raidbench can use it (O_EXCL) while the TUI stays up;
#  - the screen shows a summary per phase whose every number is the saved
#    JSON's (IOPS, MB/s, mean/p50/p99/p99.9/max, IOPS min-max, errors), and
#    the job rows marked done show the whole job, as saved;
#  - the saved run is named by profile and target, with "profile" and
#    "job_files" filled;
#  - a run stopped with s, and one stopped by SIGTERM, are marked "(stopped)"
#    on the Results screen, in `raidbench results` (text and JSON) and compare.
. "$(dirname "$0")/lib.sh"
rb_init
need_root
need_tool tmux tmux
need_tool python3 python3
S=rbend$$
cap() { tmux capture-pane -p -t "$S" >"$RB_TMP/$1.txt"; }
keys() { tmux send-keys -t "$S" "$@"; sleep 0.7; }
screen_has() { grep -q -- "$2" "$RB_TMP/$1.txt"; }
await() { wait_for "$2" "${3:-10}"; cap "$1"; }
cleanup_tmux() { tmux kill-session -t "$S" 2>/dev/null; rb_cleanup; }
trap cleanup_tmux EXIT

make_loop 256
DEV=$LOOP_DEV
NAME=$(basename "$DEV")
PROF_DIR=$RB_TMP/config/raidbench/profiles
mkdir -p "$PROF_DIR"
# two phases: four clones on the sync engine, then one libaio job; reads only
cat >"$PROF_DIR/endchk.fio" <<'EOF'
[global]
direct=1
runtime=2
time_based
[rand]
description=4 KiB random read, 4 sync jobs
ioengine=psync
rw=randread
bs=4k
numjobs=4
[seq]
stonewall
description=64 KiB sequential read, libaio QD 4
ioengine=libaio
iodepth=4
rw=read
bs=64k
EOF
RESULTS=$XDG_DATA_HOME/raidbench/results

tmux new-session -d -s "$S" -x 132 -y 43 \
	"env LANG=C.UTF-8 XDG_DATA_HOME=$XDG_DATA_HOME XDG_CACHE_HOME=$XDG_CACHE_HOME XDG_CONFIG_HOME=$RB_TMP/config $RAIDBENCH --profile=endchk --target=$DEV --start; echo RAIDBENCH-EXITED=\$?; exec bash --norc"
await running "elapsed 00:01" 20
check "sync jobs show a depth while they run (not 0)" \
	grep -Eq "running .*depth [1-4]( |$)" "$RB_TMP/running.txt"
check "the 4 clones are one row, 'rand ×4'" screen_has running "rand ×4"
await fin "Run finished" 40
sleep 0.5
cap fin
PANE=$(tmux display-message -p -t "$S" '#{pane_pid}')
TUI=$(pgrep -P "$PANE" -x raidbench | head -1)
check "the TUI is still up after the run (pid ${TUI:-none})" [ -n "$TUI" ]
held=$(for f in /proc/"$TUI"/fd/*; do readlink "$f"; done 2>/dev/null | grep -cx "$DEV")
check "after Run finished the TUI holds no descriptor on $DEV (held: $held)" [ "$held" = 0 ]
check "another raidbench can open $DEV while the TUI is up" \
	"$RAIDBENCH" run --name=other --filename="$DEV" --rw=read --bs=64k --size=4m --no-save \
	--output-format=terse
SAVED=$(ls -t "$RESULTS"/*.json 2>/dev/null | head -1)
check "the run was saved" [ -f "$SAVED" ]
check "saved as profile-target ($(basename "$SAVED"))" \
	bash -c "basename '$SAVED' | grep -Eq '^[0-9]{8}-[0-9]{6}-endchk-$NAME(-[0-9]+)?\.json$'"
check "the saved profile is endchk" [ "$(json_get "$SAVED" 'd["raidbench"]["profile"]')" = endchk ]
check "job_files names the profile's file" \
	[ "$(json_get "$SAVED" 'd["raidbench"]["job_files"]')" = "['$PROF_DIR/endchk.fio']" ]
check "the finished run is not marked interrupted" \
	[ "$(json_get "$SAVED" 'd["raidbench"]["interrupted"]')" = False ]

# every number of the summary on screen, from the saved JSON as results.c merges clones
python3 - "$SAVED" "$RB_TMP/fin.txt" >"$RB_TMP/cmp" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
screen = open(sys.argv[2]).read().splitlines()
phases = {}
for j in d["jobs"]:
    for dd in ("read", "write", "trim"):
        o = j[dd]
        if o["total_ios"] <= 0:
            continue
        p = phases.setdefault((j["jobname"], dd), dict(ios=0, iops=0, bw=0, mean=0, p=[-1] * 4,
                                                       lo=0, hi=0, err=0))
        pct = o["clat_ns"].get("percentile", {})
        vals = [pct.get(k, -1) for k in ("50.000000", "99.000000", "99.900000")]
        vals.append(o["clat_ns"]["max"])
        p["mean"] = (p["mean"] * p["ios"] + o["clat_ns"]["mean"] * o["total_ios"]) / (p["ios"] + o["total_ios"])
        p["ios"] += o["total_ios"]
        p["iops"] += o["iops"]
        p["bw"] += o["bw_bytes"]
        p["p"] = [max(a, b) for a, b in zip(p["p"], vals)]
        p["lo"] += o["iops_min"]
        p["hi"] += o["iops_max"]
        p["err"] += j.get("total_err", 1 if j["error"] else 0)
bad = 0
for (name, dd), p in phases.items():
    want = [name, dd, "%.0f" % p["iops"], "%.1f" % (p["bw"] / 1e6), "%.1f" % (p["mean"] / 1e3)]
    want += ["%.1f" % (v / 1e3) if v >= 0 else "-" for v in p["p"]]
    want += ["%.0f-%.0f" % (p["lo"], p["hi"]), "%d" % p["err"]]
    rows = [l.split() for l in screen if l.split()[:2] == [name, dd]]
    if not rows:
        print("no summary row for", name, dd); bad += 1
    elif rows[0] != want:
        print("summary", rows[0], "saved", want); bad += 1
    else:
        print("same", " ".join(want))
    # the job row marked done: the whole job, as saved
    row = [l.split() for l in screen if l.split()[:1] == [name] or l.split()[:2] == [name, "\u00d74"]]
    jr = [r for r in row if "done" in r]
    if dd == "read" and not jr:
        print("no done job row for", name); bad += 1
print("phases", len(phases))
sys.exit(1 if bad else 0)
PY
check "the summary on screen is the saved JSON, number for number" [ $? = 0 ]
check "the summary covers both phases" grep -q "^phases 2$" "$RB_TMP/cmp"
check "the end shows no last-interval READ line" bash -c "! grep -q '^ READ ' '$RB_TMP/fin.txt'"

# stopped with s: marked everywhere a run is listed
keys Enter
await again "elapsed 00:01" 20
keys s
keys y
await stopped "Run stopped" 20
STOPPED=$(ls -t "$RESULTS"/*.json | head -1)
check "a second result was saved" [ "$STOPPED" != "$SAVED" ]
check "it is marked interrupted" [ "$(json_get "$STOPPED" 'd["raidbench"]["interrupted"]')" = True ]
keys F6
await results "Saved runs"
check "the Results screen marks the stopped run" screen_has results "(stopped) endchk"
# stopped by a signal, from the command line
"$RAIDBENCH" run --name=sig --filename="$DEV" --rw=randread --bs=4k --runtime=30 --time_based \
	--output-format=terse >/dev/null 2>&1 &
RUN=$!
sleep 2
kill -TERM "$RUN"
wait "$RUN"
check "SIGTERM stops the run (exit 143)" [ $? = 143 ]
"$RAIDBENCH" results >"$RB_TMP/results.txt" 2>&1
check "raidbench results marks the run stopped with s" grep -q "(stopped) endchk" "$RB_TMP/results.txt"
check "raidbench results marks the run stopped by SIGTERM" grep -q "(stopped) sig" "$RB_TMP/results.txt"
check "raidbench results does not mark the finished run" grep -Eq "[0-9]  endchk +/dev/$NAME " "$RB_TMP/results.txt"
"$RAIDBENCH" results --json >"$RB_TMP/results.json"
check "raidbench results --json says interrupted" \
	[ "$(json_get "$RB_TMP/results.json" '[r["interrupted"] for r in d]')" = "[False, True, True]" ]
"$RAIDBENCH" compare "$SAVED" "$STOPPED" >"$RB_TMP/compare.txt" 2>&1
check "compare says the stopped run stopped early" grep -q "stopped before its end" "$RB_TMP/compare.txt"
check "compare says it of that run only" [ "$(grep -c "stopped before its end" "$RB_TMP/compare.txt")" = 1 ]
keys q
await quit "RAIDBENCH-EXITED" 15
check "raidbench exits cleanly" screen_has quit "RAIDBENCH-EXITED=0"
if [ "$RB_FAIL" -gt 0 ] || [ -n "${SHOW:-}" ]; then
	cat "$RB_TMP/cmp"
	for f in running fin stopped results; do
		echo "---- screen: $f"; cat "$RB_TMP/$f.txt" 2>/dev/null | head -45
	done
	cat "$RB_TMP/results.txt"
fi
rb_done
