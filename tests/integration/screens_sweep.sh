#!/bin/bash
# Screen test of the RAID sweep: the real TUI off-screen (raidbench
# tui-test, where the sweep runs synchronously) with tests/sim first on PATH
# and the simulated H240's new logical drives reported as a real loop device
# (RAIDBENCH_SIM_OSDEVS), so the profile really runs: RAID 0, 1 and 5 over
# the four drives are created, measured, deleted and compared (table and
# bar charts per phase with the estimate beside each measurement). Then the
# error paths: the tool refusing one level, and a sweep killed mid-way whose
# array the screen names on the next start and deletes, and only it, after
# the typed confirmation.
#
# Not golden: the measurements differ from run to run and the Devices
# screen lists this machine's disks; key lines are checked. The profile is
# a short user profile named "default" ($XDG_CONFIG_HOME/raidbench/profiles:
# user profiles win), so the screen's default choice is what runs.
. "$(dirname "$0")/lib.sh"
rb_init
need_tool python3 python3
need_root
need_tool losetup util-linux

SIM=$SRCDIR/tests/sim
export PATH="$SIM:$PATH"
export RAIDBENCH_SIM_STATE=$RB_TMP/sim.json RAIDBENCH_SIM_LOG=$RB_TMP/sim.log
export XDG_STATE_HOME=$RB_TMP/state XDG_CONFIG_HOME=$RB_TMP/config
unset RAIDBENCH_SIM_HANG RAIDBENCH_SIM_FAIL RAIDBENCH_TOOL_TIMEOUT RAIDBENCH_SIM_INIT_READS
JOURNAL=$XDG_STATE_HOME/raidbench/sweep.json
RESULTS=$XDG_DATA_HOME/raidbench/results

make_loop 64 || rb_skip "cannot attach a loop device"
export RAIDBENCH_SIM_OSDEVS=$LOOP_DEV
mkdir -p "$XDG_CONFIG_HOME/raidbench/profiles"
cat >"$XDG_CONFIG_HOME/raidbench/profiles/default.fio" <<'EOF'
; two short phases for the sweep screen test
[global]
ioengine=psync
direct=1
size=16m
group_reporting

[rand-read-4k]
stonewall
rw=randread
bs=4k

[seq-write-64k]
stonewall
rw=write
bs=64k
EOF

tui() {
	env LANG=C.UTF-8 LC_ALL= TERM=xterm-256color NO_COLOR= HOME=/nonexistent \
		"$RAIDBENCH" tui-test "$@"
}
dump_has() { grep -qF -- "$2" "$1"; }
sim_arrays() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["ssacli"]["controllers"][0]["arrays"]))' "$RAIDBENCH_SIM_STATE"; }
journal_n() { [ -e "$JOURNAL" ] || { echo 0; return; }; json_get "$JOURNAL" "len(d['arrays'])"; }

printf 'key F2\ndump %s/tree.txt\n' "$RB_TMP" >"$RB_TMP/tree.script"
tui --size=200x250 "$RB_TMP/tree.script" 2>/dev/null
DOWNS=$(awk '/^ Device/ && !h { h = NR } /Smart HBA H240/ && h { print NR - h - 1; exit }' "$RB_TMP/tree.txt")
[ -n "$DOWNS" ] || { fail "the simulated H240 is not on the Devices screen"; rb_done; }

# keys: open the sweep on the H240, all four drives, levels 0, 1, 5, 1 s per phase
goto() { echo "key F2"; for ((i = 0; i < DOWNS; i++)); do echo "key Down"; done; echo "key w"; }
pick() {
	printf 'key Space\nkey Down\nkey Space\nkey Down\nkey Space\nkey Down\nkey Space\nkey Down\n'
	printf 'key Space\nkey Right\nkey Space\nkey Right\nkey Right\nkey Space\n'
	printf 'key Down\nkey Down\nkey Space\nkey Space\nkey Space\n'
}

# ---- RAID 0, 1, 5 ---------------------------------------------------------------------
O=$RB_TMP/sweep
mkdir -p "$O"
{ goto; echo "dump $O/start.txt"; pick; echo "dump $O/plan.txt"; echo "key Enter"
  echo "dump $O/confirm.txt"; echo "type 255"; echo "key Enter"; echo "dump $O/done.txt"
  echo "key Right"; echo "dump $O/phase2.txt"; } >"$RB_TMP/s.script"
before=$(ls "$RESULTS"/*.json 2>/dev/null | wc -l)
if ! tui --size=43x132 "$RB_TMP/s.script" 2>"$RB_TMP/err"; then
	fail "sweep: tui-test failed: $(cat "$RB_TMP/err")"
fi
check "w opens the sweep on the H240" dump_has "$O/start.txt" "RAID sweep on Smart HBA H240, slot 255  (ssacli)"
check "the picks: levels 0, 1, 5 checked" dump_has "$O/plan.txt" "[x]0 [x]1 [ ]10 [x]5"
check "the picks: 1 s per phase" dump_has "$O/plan.txt" "1 s per phase"
check "the plan shows each level's estimate" dump_has "$O/plan.txt" "survives one drive failure"
check "confirm: the exact create command per level" \
	dump_has "$O/confirm.txt" "ssacli ctrl slot=255 create type=ld drives=1I:0:5,1I:0:6,1I:0:7,1I:0:8 raid=5 forced"
check "confirm: what is lost" dump_has "$O/confirm.txt" "everything on 1I:0:5, 1I:0:6, 1I:0:7, 1I:0:8, at every level"
check "confirm: typed slot" dump_has "$O/confirm.txt" "Type 255 (the controller's slot)"
check "done: every level measured, nothing left behind" dump_has "$O/done.txt" "Sweep done: every level measured, no array left behind"
for l in 0 1 5; do
	check "done: RAID $l measured" grep -qE "^ RAID $l +measured" "$O/done.txt"
done
check "done: IOPS chart" dump_has "$O/done.txt" "  IOPS"
check "done: MB/s chart" dump_has "$O/done.txt" "  MB/s"
check "done: p99 chart" dump_has "$O/done.txt" "p99 latency (lower is better)"
check "done: the estimate beside the measurement" grep -qE "^  RAID 5 .*[0-9.]+[kM]? +4\.0x" "$O/done.txt"
check "done: the other phase" dump_has "$O/phase2.txt" "Phase 2 of 2: seq-write-64k (write, sequential)"
check "no array left in the simulator" [ "$(sim_arrays)" = 0 ]
check "the journal is empty" [ "$(journal_n)" = 0 ]
check "three results saved" [ $(($(ls "$RESULTS"/*.json 2>/dev/null | wc -l) - before)) -eq 3 ]

# ---- the tool refuses one level ----------------------------------------------------------
O=$RB_TMP/refuse
mkdir -p "$O"
{ goto; pick; echo "key Enter"; echo "type 255"; echo "key Enter"; echo "dump $O/done.txt"; } >"$RB_TMP/s.script"
RAIDBENCH_SIM_FAIL="raid=1 " tui --size=43x132 "$RB_TMP/s.script" 2>"$RB_TMP/err" ||
	fail "refuse: tui-test failed: $(cat "$RB_TMP/err")"
check "refuse: RAID 1 refused by the tool" grep -qE "^ RAID 1 +refused" "$O/done.txt"
check "refuse: ... in the tool's words" dump_has "$O/done.txt" "The controller is not responding"
check "refuse: the others are measured" grep -qE "^ RAID 5 +measured" "$O/done.txt"
check "refuse: no array left" [ "$(sim_arrays)" = 0 ]

# ---- killed mid-sweep: the next start offers to delete what it left ---------------------
RAIDBENCH_SIM_OSDEVS= "$RAIDBENCH" array create --tool=ssacli --level=1 --drives=1I:0:7,1I:0:8 --yes >/dev/null 2>&1 ||
	fail "could not create the array the sweep must leave alone"
"$RAIDBENCH" sweep --tool=ssacli --drives=1I:0:5,1I:0:6 --levels=0,1 --profile=default \
	--runtime=30 --yes >/dev/null 2>&1 &
pid=$!
for ((i = 0; i < 100 && $(journal_n) == 0; i++)); do sleep 0.1; done
sleep 1
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
check "killed: the journal holds the sweep's array" [ "$(journal_n)" = 1 ]
O=$RB_TMP/pending
mkdir -p "$O"
{ goto; echo "dump $O/offer.txt"; echo "type 25"; echo "key Enter"; echo "dump $O/wrong.txt"
  echo "type 255"; echo "key Enter"; echo "dump $O/cleaned.txt"; } >"$RB_TMP/s.script"
tui --size=43x132 "$RB_TMP/s.script" 2>"$RB_TMP/err" || fail "pending: tui-test failed: $(cat "$RB_TMP/err")"
check "pending: the sweep's array is named" dump_has "$O/offer.txt" "An interrupted sweep left 1 array behind"
check "pending: with its drives" dump_has "$O/offer.txt" "drives 1I:0:5,1I:0:6"
check "pending: a wrong word deletes nothing" dump_has "$O/wrong.txt" "\"25\" is not 255: nothing was run"
check "pending: deleted after the typed slot" dump_has "$O/cleaned.txt" "left behind are deleted"
check "pending: the journal is empty" [ "$(journal_n)" = 0 ]
check "pending: the array made before the sweep is untouched" [ "$(sim_arrays)" = 1 ]
check "pending: ... still over 1I:0:7 and 1I:0:8" [ "$(json_get "$RAIDBENCH_SIM_STATE" "','.join(d['ssacli']['controllers'][0]['arrays'][0]['drives'])")" = "1I:0:7,1I:0:8" ]
[ -n "${SHOW:-}" ] && for f in "$RB_TMP"/sweep/done.txt "$RB_TMP"/refuse/done.txt "$RB_TMP"/pending/offer.txt; do echo "---- $f"; cat "$f"; done
rb_done
