#!/bin/bash
# sweep.sh - `raidbench sweep` end to end on the simulated H240 of seeds/000
# (tests/sim/ssacli first on PATH), its new logical drives mapped to a real
# loop device (RAIDBENCH_SIM_OSDEVS) so the profile runs for real: RAID 0,
# 1 and 5 over the four drives are created, measured, saved with level,
# strip size and drive count, compared and deleted. Error paths: the tool
# refusing a level, a drive failing mid-sweep, a delete failing, the target
# mounted, an interrupted sweep (SIGINT) and a killed one (SIGKILL) whose
# arrays `sweep --resume-cleanup --yes` deletes, leaving an array the test
# made before the sweep alone. The simulator's invocation log proves no
# change ran without --yes. Needs root for the loop devices.
. "$(dirname "$0")/lib.sh"
rb_init
need_tool python3 python3
need_root
need_tool losetup mount

SIM=$SRCDIR/tests/sim
export PATH="$SIM:$PATH"
export RAIDBENCH_SIM_STATE=$RB_TMP/sim.json RAIDBENCH_SIM_LOG=$RB_TMP/sim.log
export XDG_STATE_HOME=$RB_TMP/state XDG_CONFIG_HOME=$RB_TMP/config
unset RAIDBENCH_SIM_HANG RAIDBENCH_SIM_FAIL RAIDBENCH_TOOL_TIMEOUT RAIDBENCH_SIM_INIT_READS
OUT=$RB_TMP/out
ERR=$RB_TMP/err
JOURNAL=$XDG_STATE_HOME/raidbench/sweep.json
RESULTS=$XDG_DATA_HOME/raidbench/results

make_loop 64 || rb_skip "cannot attach a loop device"
LD_DEV=$LOOP_DEV
export RAIDBENCH_SIM_OSDEVS=$LD_DEV

mkdir -p "$XDG_CONFIG_HOME/raidbench/profiles"
cat >"$XDG_CONFIG_HOME/raidbench/profiles/sweeptest.fio" <<'EOF'
; two short phases for the sweep test
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

DRIVES=1I:0:5,1I:0:6,1I:0:7,1I:0:8
SWEEP=(sweep --tool=ssacli --controller=slot=255 --drives=$DRIVES --levels=0,1,5
       --profile=sweeptest --runtime=1 --poll=100)

sw() { "$RAIDBENCH" "$@" >"$OUT" 2>"$ERR"; }
said() { grep -qF -- "$1" "$ERR" "$OUT"; }
# The changes (not listings) the simulator was asked to make.
changes() { grep -v -E ' ssacli ctrl all show config detail$' "$RAIDBENCH_SIM_LOG"; }
sim_levels() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(" ".join(l["level"] for a in d["ssacli"]["controllers"][0]["arrays"] for l in a["lds"]))' "$RAIDBENCH_SIM_STATE"; }
sim_arrays() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(" ".join("%s:%s" % (a["id"], ",".join(a["drives"])) for a in d["ssacli"]["controllers"][0]["arrays"]))' "$RAIDBENCH_SIM_STATE"; }
journal_n() { [ -e "$JOURNAL" ] || { echo 0; return; }; json_get "$JOURNAL" "len(d['arrays'])"; }
nresults() { ls "$RESULTS"/*.json 2>/dev/null | wc -l; }
# The sweep sections of the results saved since mark: "level:strip:drives:initializing ..."
MARK=$RB_TMP/mark
# mark: from now on files are -newer "$MARK"; waits only as long as the file
# system's time stamps are coarse (a whole second on some, none on ext4 or tmpfs)
mark() {
	touch "$MARK"
	until touch "$RB_TMP/probe" && [ "$RB_TMP/probe" -nt "$MARK" ]; do sleep 0.05; done
}
tags() { find "$RESULTS" -name '*.json' -newer "$MARK" | sort | while read -r f; do
	json_get "$f" "'%s:%s:%s:%s:%s' % (d['raidbench']['sweep']['level'], d['raidbench']['sweep']['strip_size_bytes'], d['raidbench']['sweep']['drives'], d['raidbench']['sweep']['initializing'], d['raidbench']['targets'][0]['raid_level'])"
	done | tr '\n' ' ' | sed 's/ $//'; }
set_drive() { # set_drive ID STATUS: a drive fails (or comes back) under the simulator's lock
	python3 - "$RAIDBENCH_SIM_STATE" "$1" "$2" <<'EOF'
import fcntl, json, os, sys
path, did, status = sys.argv[1:]
fd = os.open(path + ".lock", os.O_CREAT | os.O_RDWR, 0o644)
fcntl.flock(fd, fcntl.LOCK_EX)
d = json.load(open(path))
for x in d["ssacli"]["controllers"][0]["drives"]:
    if x["id"] == did:
        x["status"] = status
json.dump(d, open(path + ".t", "w"))
os.replace(path + ".t", path)
EOF
}
# wait_for SECONDS COMMAND...: polls until the command succeeds
wait_for() { local n=$(($1 * 20)); shift; while [ $n -gt 0 ]; do "$@" && return 0; sleep 0.05; n=$((n - 1)); done; return 1; }

# ---- consent: nothing without --yes ------------------------------------------------

"$RAIDBENCH" array show --tool=ssacli >/dev/null 2>&1	# the simulator's state file
sw "${SWEEP[@]}"
check "no --yes: refused (exit 2)" [ $? -eq 2 ]
check "... says how to run it" said "add --yes"
sw "${SWEEP[@]}" --dry-run
check "--dry-run: exit 0" [ $? -eq 0 ]
check "--dry-run: the exact create command of each level" [ "$(cat "$OUT")" = "$SIM/ssacli ctrl slot=255 create type=ld drives=$DRIVES raid=0 forced
$SIM/ssacli ctrl slot=255 create type=ld drives=$DRIVES raid=1 forced
$SIM/ssacli ctrl slot=255 create type=ld drives=$DRIVES raid=5 forced" ]
sw sweep --tool=ssacli --drives=1I:0:5,1I:0:6,1I:0:7 --levels=0,6 --profile=sweeptest --runtime=1 --yes
check "an impossible level is refused before anything runs (exit 2)" [ $? -eq 2 ]
check "... naming the rule" said "RAID 6 needs at least 4 drives with ssacli; 3 given"
sw sweep --tool=ssacli --drives=$DRIVES --levels=0 --profile=no-such-profile --yes
check "an unknown profile is refused (exit 2)" [ $? -eq 2 ]
sw sweep --tool=ssacli --drives=$DRIVES --levels=0 --profile=no-such-profile --dry-run
check "... with --dry-run too (exit 2)" [ $? -eq 2 ]
check "no change ran so far" [ -z "$(changes)" ]

# ---- the sweep: RAID 0, 1, 5, waiting for RAID 5's parity initialization -----------

mark
t0=$(date +%s)
RAIDBENCH_SIM_INIT_READS=3 sw "${SWEEP[@]}" --yes
rc=$?
check "sweep 0,1,5: exit 0" [ $rc -eq 0 ]
[ $rc -eq 0 ] || { cat "$ERR"; }
echo "# sweep of three levels took $(($(date +%s) - t0)) s"
check "... three results tagged level:strip:drives:initializing:target level" \
	[ "$(tags)" = "0:262144:4:False:0 1:262144:4:False:1 5:262144:4:False:5" ]
check "... waited for RAID 5's parity initialization" said "waiting for parity initialization: 33%"
check "... ran on the new logical drive's OS device" said "running $XDG_CONFIG_HOME/raidbench/profiles/sweeptest.fio on $LD_DEV"
check "... the comparison has each phase" eval 'grep -q "^phase rand-read-4k (read, random)" "$OUT" && grep -q "^phase seq-write-64k (write, sequential)" "$OUT"'
check "... with the estimate beside the measurement" \
	eval 'grep -qE "^  RAID 5 +[0-9]+ +[0-9.]+ +[0-9.]+ +3.00x" "$OUT" && grep -qE "^  RAID 1 +[0-9]+ +[0-9.]+ +[0-9.]+ +4.00x" "$OUT"'
check "... and fault tolerance in words" said "RAID 5   measured    5.5 TiB      survives one drive failure"
check "... created and deleted each level in turn" [ "$(changes | cut -d' ' -f3- )" = "ctrl slot=255 create type=ld drives=$DRIVES raid=0 forced
ctrl slot=255 ld 1 delete forced
ctrl slot=255 create type=ld drives=$DRIVES raid=1 forced
ctrl slot=255 ld 1 delete forced
ctrl slot=255 create type=ld drives=$DRIVES raid=5 forced
ctrl slot=255 ld 1 delete forced" ]
check "... no array left behind" [ -z "$(sim_arrays)" ]
check "... an empty journal" [ "$(journal_n)" = 0 ]
"$RAIDBENCH" compare $(find "$RESULTS" -name '*.json' -newer "$MARK" | sort) >"$OUT" 2>"$ERR"
check "compare shows the three by RAID level" eval 'grep -q "RAID 0" "$OUT" && grep -q "RAID 1" "$OUT" && grep -q "RAID 5" "$OUT"'

# ---- measuring while it initializes --------------------------------------------------

mark
RAIDBENCH_SIM_INIT_READS=100 sw sweep --tool=ssacli --drives=$DRIVES --levels=5 --profile=sweeptest --runtime=1 --no-wait-init --yes
check "--no-wait-init: exit 0" [ $? -eq 0 ]
check "... the result is marked initializing" [ "$(tags)" = "5:262144:4:True:5" ]
check "... and so is the table" said "(measured while initializing)"
check "... no array left behind" [ -z "$(sim_arrays)" ]

# ---- the tool refuses a level: the others are measured -----------------------------

: >"$RAIDBENCH_SIM_LOG"
mark
RAIDBENCH_SIM_FAIL="raid=1" sw "${SWEEP[@]}" --yes
check "the tool refuses RAID 1: exit 1" [ $? -eq 1 ]
check "... in the vendor's words" said "RAID 1: ssacli failed: Error: The controller is not responding to commands."
check "... saying nothing was created" said "nothing was created"
check "... RAID 0 and 5 are still measured" [ "$(tags)" = "0:262144:4:False:0 5:262144:4:False:5" ]
check "... the table says RAID 1 was refused" eval 'grep -q "^RAID 1   refused" "$OUT"'
check "... no array left behind" [ -z "$(sim_arrays)" ]
check "... an empty journal" [ "$(journal_n)" = 0 ]

# ---- a drive fails mid-sweep ------------------------------------------------------------

mark
rm -f "$OUT" "$ERR"
"$RAIDBENCH" "${SWEEP[@]}" --yes >"$OUT" 2>"$ERR" &
pid=$!
wait_for 30 eval '[ "$(sim_levels)" = 1 ]'
set_drive 1I:0:7 Failed
wait $pid
check "a drive fails during RAID 1: exit 1" [ $? -eq 1 ]
check "... RAID 5 is not attempted, saying why" said "RAID 5: the configuration changed since the sweep started: drive 1I:0:7 is not healthy (Failed)"
check "... RAID 0 and 1 were measured and saved" [ "$(tags)" = "0:262144:4:False:0 1:262144:4:False:1" ]
check "... no array left behind" [ -z "$(sim_arrays)" ]
check "... an empty journal" [ "$(journal_n)" = 0 ]
set_drive 1I:0:7 OK

# ---- a delete fails: the array stays in the journal until --resume-cleanup ------------

RAIDBENCH_SIM_FAIL=" delete" sw "${SWEEP[@]}" --yes
check "a delete fails: exit 1" [ $? -eq 1 ]
check "... the sweep stops and says how to clean up" said "could not be deleted: ssacli failed: Error: The controller is not responding"
check "... naming the command" said "raidbench sweep --resume-cleanup --yes"
check "... the array is still there" [ "$(sim_arrays)" = "A:$DRIVES" ]
check "... and in the journal" [ "$(journal_n)" = 1 ]
sw "${SWEEP[@]}" --yes
check "a new sweep is refused while the journal holds an array (exit 2)" [ $? -eq 2 ]
check "... saying so" said "an earlier sweep left 1 array(s) behind"
sw sweep --resume-cleanup --yes
check "--resume-cleanup --yes: exit 0" [ $? -eq 0 ]
check "... no array left behind" [ -z "$(sim_arrays)" ]
check "... an empty journal" [ "$(journal_n)" = 0 ]

# ---- the target is mounted: never written, the array deleted -------------------------

if command -v mkfs.ext4 >/dev/null; then
	make_loop 32 && MNT_DEV=$LOOP_DEV
	mkfs.ext4 -q "$MNT_DEV" && mkdir -p "$RB_TMP/mnt" && mount "$MNT_DEV" "$RB_TMP/mnt" &&
		RB_MOUNTS+=("$RB_TMP/mnt")
	mark
	RAIDBENCH_SIM_OSDEVS=$MNT_DEV sw "${SWEEP[@]}" --yes
	check "a mounted OS device: exit 1" [ $? -eq 1 ]
	check "... the guard's refusal" said "$MNT_DEV is never writable: $MNT_DEV is mounted at $RB_TMP/mnt"
	check "... nothing ran on it" eval '! said "running " && [ -z "$(tags)" ]'
	# a logical drive whose OS device is mounted is never deleted either (hw/array.h)
	check "... the array is not deleted under a mount, and says so" \
		eval 'said "could not be deleted: not deleted: logical drive" && said "($MNT_DEV) is in use"'
	check "... it stays in the journal" [ "$(journal_n)" = 1 ]
	umount "$RB_TMP/mnt"
	sw sweep --resume-cleanup --yes
	check "... unmounted, --resume-cleanup deletes it" [ $? -eq 0 ]
	check "... no array left behind" [ -z "$(sim_arrays)" ]
	check "... an empty journal" [ "$(journal_n)" = 0 ]
else
	echo "# mounted-target case skipped: no mkfs.ext4"
fi

# ---- interrupted: SIGINT and SIGHUP delete; SIGKILL leaves the journal to --resume-cleanup ------

# an array made before the sweep, which nothing of the sweep may touch
RAIDBENCH_SIM_OSDEVS= "$RAIDBENCH" array create --tool=ssacli --level=1 --drives=1I:0:7,1I:0:8 --yes >/dev/null 2>&1
check "an array made before the sweep" [ "$(sim_arrays)" = "A:1I:0:7,1I:0:8" ]
SWEEP2=(sweep --tool=ssacli --drives=1I:0:5,1I:0:6 --levels=0,1 --profile=sweeptest --runtime=5)

rm -f "$OUT" "$ERR"
"$RAIDBENCH" "${SWEEP2[@]}" --yes >"$OUT" 2>"$ERR" &
pid=$!
wait_for 30 grep -q "running .* on $LD_DEV" "$ERR"
sleep 1
kill -INT $pid
wait $pid
check "SIGINT mid-run: exit 130" [ $? -eq 130 ]
check "... it deletes its array itself" said "deleted RAID 0 logical drive"
check "... only the earlier array is left" [ "$(sim_arrays)" = "A:1I:0:7,1I:0:8" ]
check "... an empty journal" [ "$(journal_n)" = 0 ]

# a closed terminal (SIGHUP) stops the sweep the same way
rm -f "$OUT" "$ERR"
"$RAIDBENCH" "${SWEEP2[@]}" --yes >"$OUT" 2>"$ERR" &
pid=$!
wait_for 30 grep -q "running .* on $LD_DEV" "$ERR"
sleep 1
kill -HUP $pid
wait $pid
check "SIGHUP mid-run: exit 129" [ $? -eq 129 ]
check "... it deletes its array itself" said "deleted RAID 0 logical drive"
check "... only the earlier array is left" [ "$(sim_arrays)" = "A:1I:0:7,1I:0:8" ]
check "... an empty journal" [ "$(journal_n)" = 0 ]

: >"$RAIDBENCH_SIM_LOG"
rm -f "$OUT" "$ERR"
"$RAIDBENCH" "${SWEEP2[@]}" --yes >"$OUT" 2>"$ERR" &
pid=$!
wait_for 30 grep -q "running .* on $LD_DEV" "$ERR"
kill -9 $pid
wait $pid 2>/dev/null
check "SIGKILL mid-run: the sweep's array is left" [ "$(sim_arrays)" = "A:1I:0:7,1I:0:8 B:1I:0:5,1I:0:6" ]
check "... and named in the journal" [ "$(json_get "$JOURNAL" "[(a['level'], a['drives'], a['state']) for a in d['arrays']]")" = "[('0', ['1I:0:5', '1I:0:6'], 'created')]" ]
sw sweep --resume-cleanup
check "--resume-cleanup without --yes: exit 2" [ $? -eq 2 ]
check "... lists the sweep's array" said "RAID 0 on ssacli slot=255 drives 1I:0:5,1I:0:6, logical drive"
check "... and deletes nothing" [ -z "$(changes | grep delete)" ]
# before cleaning up, someone replaces the sweep's array by one of their own on the same
# drives; ssacli hands out the same logical drive number again
cp "$JOURNAL" "$RB_TMP/journal.kept"
LD_OLD=$(json_get "$JOURNAL" "d['arrays'][0]['ld']")
for lvl in 1 0; do
	"$RAIDBENCH" array delete --tool=ssacli --ld="$LD_OLD" --yes >/dev/null 2>&1
	RAIDBENCH_SIM_OSDEVS= "$RAIDBENCH" array create --tool=ssacli --level=$lvl \
		--drives=1I:0:5,1I:0:6 --yes >/dev/null 2>&1
	: >"$RAIDBENCH_SIM_LOG"
	sw sweep --resume-cleanup --yes
	check "RAID $lvl made by hand where the sweep's RAID 0 was: --resume-cleanup refuses (exit 1)" [ $? -eq 1 ]
	check "... deletes nothing" [ -z "$(changes | grep delete)" ]
	check "... the hand-made array stays (logical drive $LD_OLD again)" \
		[ "$(json_get "$RAIDBENCH_SIM_STATE" "[ld['id'] for a in d['ssacli']['controllers'][0]['arrays'] for ld in a['lds'] if a['drives'] == ['1I:0:5', '1I:0:6']]")" = "[$LD_OLD]" ]
	case $lvl in
	1) check "... saying it is RAID 1 now" said "it is RAID 1 now, not the sweep's RAID 0" ;;
	0) check "... saying its identifier is not the one the sweep made" said "its identifier is" ;;
	esac
	LD_OLD=$(json_get "$RAIDBENCH_SIM_STATE" "[ld['id'] for a in d['ssacli']['controllers'][0]['arrays'] for ld in a['lds'] if a['drives'] == ['1I:0:5', '1I:0:6']][0]")
done
# the hand-made array goes away too: the sweep's entry then names nothing and clears
"$RAIDBENCH" array delete --tool=ssacli --ld="$LD_OLD" --yes >/dev/null 2>&1
: >"$RAIDBENCH_SIM_LOG"
sw sweep --resume-cleanup --yes
check "--resume-cleanup --yes once the drives are free: exit 0" [ $? -eq 0 ]
check "... the journal entry clears" [ "$(journal_n)" = 0 ]
check "... and the cleanup itself deleted nothing" [ -z "$(changes | grep delete)" ]
check "... the earlier array is untouched" [ "$(sim_arrays)" = "A:1I:0:7,1I:0:8" ]
check "... an empty journal" [ "$(journal_n)" = 0 ]
sw sweep --resume-cleanup --yes
check "--resume-cleanup again: nothing to do" said "no arrays left behind by a sweep"

# a damaged journal is never overwritten: nothing runs until someone looks
echo '{ "arrays": [ {"id": ' >"$JOURNAL"
cp "$JOURNAL" "$RB_TMP/damaged"
: >"$RAIDBENCH_SIM_LOG"
sw "${SWEEP[@]}" --yes
check "a damaged journal: the sweep is refused (exit 2)" [ $? -eq 2 ]
check "... saying so" said "sweep.json is damaged"
sw sweep --resume-cleanup --yes
check "... and so is --resume-cleanup (exit 1)" [ $? -eq 1 ]
check "... the journal is left as it was, nothing ran" \
	eval 'cmp -s "$JOURNAL" "$RB_TMP/damaged" && [ -z "$(changes)" ]'

rb_done
