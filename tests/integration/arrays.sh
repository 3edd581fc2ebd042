#!/bin/bash
# arrays.sh - `raidbench array` end to end against the simulated tools of
# tests/sim put first on PATH: the seeds' H240 through ssacli (RAID 5 of
# three 2 TB drives, the fourth as spare, delete), a MegaRAID 9460-16i
# through storcli64 (RAID 10 over four drives) and md through mdadm over
# loop devices (RAID 1; needs root). Each error path (impossible level,
# drive already used, the tool failing, the tool hanging past --timeout)
# must say why and change nothing, and the simulators' invocation log
# proves no change ran without --yes.
. "$(dirname "$0")/lib.sh"
rb_init
need_tool python3 python3

SIM=$SRCDIR/tests/sim
export PATH="$SIM:$PATH"
export RAIDBENCH_SIM_STATE=$RB_TMP/sim.json RAIDBENCH_SIM_LOG=$RB_TMP/sim.log
unset RAIDBENCH_SIM_HANG RAIDBENCH_SIM_FAIL RAIDBENCH_TOOL_TIMEOUT
OUT=$RB_TMP/out
ERR=$RB_TMP/err
SHOW=$RB_TMP/show.json

arr() { "$RAIDBENCH" array "$@" >"$OUT" 2>"$ERR"; }
show() { "$RAIDBENCH" array show --tool="$1" --json >"$SHOW" 2>"$ERR" || fail "array show --tool=$1: $(cat "$ERR")"; }
j() { json_get "$SHOW" "$1"; }
said() { grep -qF -- "$1" "$ERR" "$OUT"; }
state_sum() { md5sum <"$RAIDBENCH_SIM_STATE"; }
# The changes (not listings) the simulators were asked to make.
changes() { grep -v -E ' ssacli ctrl all show config detail$| storcli64 /call(/vall|/eall/sall)? show all J nolog$| mdadm --detail( --scan|/dev/md[0-9]+| /dev/md[0-9]+)$' "$RAIDBENCH_SIM_LOG"; }
alive() { [ -e "/proc/$1" ] && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }
near() { python3 -c 'import sys; a, b, t = map(float, sys.argv[1:]); sys.exit(0 if abs(a - b) <= b * t else 1)' "$@"; }

# ---- ssacli: the H240 of seeds/000 ----------------------------------------------

show ssacli
check "ssacli: the simulated H240 is read" [ "$(j "d['controllers'][0]['model']")" = "Smart HBA H240" ]
check "ssacli: four unassigned 2 TB drives" \
	[ "$(j "[p['id'] for p in d['controllers'][0]['unassigned_drives']]")" = "['1I:0:5', '1I:0:6', '1I:0:7', '1I:0:8']" ]

CREATE5=(create --tool=ssacli --controller=slot=255 --level=5 --drives=1I:0:5,1I:0:6,1I:0:7)
arr "${CREATE5[@]}"
check "ssacli: create without --yes is refused (exit 2)" [ $? -eq 2 ]
check "ssacli: ... and says how to run it" said "add --yes"
arr "${CREATE5[@]}" --dry-run
check "ssacli: --dry-run prints the exact command" \
	[ "$(cat "$OUT")" = "$SIM/ssacli ctrl slot=255 create type=ld drives=1I:0:5,1I:0:6,1I:0:7 raid=5 forced" ]
check "ssacli: no change ran without --yes" [ -z "$(changes)" ]

# impossible level: refused before the tool is asked; the tool itself refuses it too
before=$(state_sum)
arr create --tool=ssacli --level=6 --drives=1I:0:5,1I:0:6,1I:0:7 --yes
check "ssacli: RAID 6 of three drives is refused (exit 2)" [ $? -eq 2 ]
check "ssacli: ... naming the rule" said "RAID 6 needs at least 4 drives with ssacli; 3 given"
"$SIM/ssacli" ctrl slot=255 create type=ld drives=1I:0:5,1I:0:6,1I:0:7 raid=6 forced >"$OUT" 2>&1
check "ssacli sim: refuses RAID 6 of three drives like ssacli" [ $? -eq 1 ]
check "ssacli sim: ... with its words" grep -q 'Error: "raid=6" is not a valid option' "$OUT"
check "ssacli: nothing changed by the refusals" [ "$(state_sum)" = "$before" ]

# the tool fails: its words, what to do, nothing changed
RAIDBENCH_SIM_FAIL="create" arr "${CREATE5[@]}" --yes
check "ssacli: a failing tool gives exit 1" [ $? -eq 1 ]
check "ssacli: ... in the vendor's words" said "Error: The controller is not responding"
check "ssacli: ... with what to do" said "what to do:"
check "ssacli: ... and nothing changed" [ "$(state_sum)" = "$before" ]

# the tool hangs: killed at --timeout with its process group, nothing changed
t0=$(date +%s)
RAIDBENCH_SIM_HANG="create" arr "${CREATE5[@]}" --yes --timeout=2
rc=$?
check "ssacli: a hanging tool gives exit 1" [ $rc -eq 1 ]
check "ssacli: ... within the timeout" [ $(($(date +%s) - t0)) -lt 20 ]
check "ssacli: ... saying it was killed" said "did not finish within 2 s and was killed"
hung=$(grep ' ssacli ctrl slot=255 create ' "$RAIDBENCH_SIM_LOG" | tail -1 | cut -d' ' -f1)
check "ssacli: ... and the hung simulator is gone" eval '! alive "$hung"'
check "ssacli: ... and nothing changed" [ "$(state_sum)" = "$before" ]

# the happy path: RAID 5 of three 2 TB drives
arr "${CREATE5[@]}" --yes
check "ssacli: create --yes succeeds" [ $? -eq 0 ]
check "ssacli: ... shows the state re-read" said "ld 1    RAID 5"
show ssacli
check "ssacli: array A holds logical drive 1, RAID 5" \
	[ "$(j "[(a['id'], l['id'], l['raid_level']) for a in d['controllers'][0]['arrays'] for l in a['logical_drives']]")" = "[('A', '1', '5')]" ]
check "ssacli: RAID 5 of three 2 TB drives is 4 TB" near "$(j "d['controllers'][0]['arrays'][0]['logical_drives'][0]['size_bytes']")" 4.0008e12 0.002
check "ssacli: its members are data drives" \
	[ "$(j "[(p['id'], p['role']) for p in d['controllers'][0]['arrays'][0]['physical_drives']]")" = "[('1I:0:5', 'data'), ('1I:0:6', 'data'), ('1I:0:7', 'data')]" ]
"$RAIDBENCH" devices --json >"$RB_TMP/dev.json" 2>"$ERR"
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if any(c["source"]=="ssacli" for c in d["controllers"]) else 1)' "$RB_TMP/dev.json" 2>/dev/null; then
	check "devices --json: shows the new RAID 5" [ "$(json_get "$RB_TMP/dev.json" "[l['raid_level'] for c in d['controllers'] if c['source']=='ssacli' for a in c['arrays'] for l in a['logical_drives']]")" = "['5']" ]
else
	echo "# devices --json does not run the vendor tools yet: checked through array show and --import"
fi
"$SIM/ssacli" ctrl all show config detail >"$RB_TMP/h240.txt"
if "$RAIDBENCH" devices --json --import "ssacli:$RB_TMP/h240.txt" >"$RB_TMP/imp.json" 2>"$ERR"; then
	check "devices --import of the simulator's output: RAID 5, 4 TB" \
		near "$(json_get "$RB_TMP/imp.json" "d['controllers'][0]['arrays'][0]['logical_drives'][0]['size_bytes']")" 4.0008e12 0.002
else fail "devices --import ssacli: $(cat "$ERR")"; fi

# drive already used
before=$(state_sum)
arr create --tool=ssacli --level=1 --drives=1I:0:5,1I:0:8 --yes
check "ssacli: a drive already in an array is refused (exit 2)" [ $? -eq 2 ]
check "ssacli: ... saying where it is" said "drive 1I:0:5 is a data drive of array A, not unassigned (unassigned drives: 1I:0:8)"
"$SIM/ssacli" ctrl slot=255 create type=ld drives=1I:0:5,1I:0:8 raid=1 forced >"$OUT" 2>&1
check "ssacli sim: refuses a drive in use" [ $? -eq 1 ]
check "ssacli: nothing changed" [ "$(state_sum)" = "$before" ]

# the fourth drive as spare
arr add-spare --tool=ssacli --drives=1I:0:8 --yes
check "ssacli: add-spare succeeds" [ $? -eq 0 ]
show ssacli
check "ssacli: 1I:0:8 is array A's spare" \
	[ "$(j "[p['role'] for p in d['controllers'][0]['arrays'][0]['physical_drives'] if p['id']=='1I:0:8']")" = "['spare']" ]
check "ssacli: the spare was added the seed's way" grep -q ' ssacli ctrl slot=255 array all add spares=1I:0:8$' "$RAIDBENCH_SIM_LOG"

# delete
arr delete --tool=ssacli --ld=1 --dry-run
check "ssacli: delete --dry-run" [ "$(cat "$OUT")" = "$SIM/ssacli ctrl slot=255 ld 1 delete forced" ]
arr delete --tool=ssacli --ld=1 --yes
check "ssacli: delete succeeds" [ $? -eq 0 ]
show ssacli
check "ssacli: no array left" [ "$(j "len(d['controllers'][0]['arrays'])")" = 0 ]
check "ssacli: all four drives unassigned again" [ "$(j "len(d['controllers'][0]['unassigned_drives'])")" = 4 ]

# ---- storcli: the MegaRAID 9460-16i of seeds/002 ------------------------------------

: >"$RAIDBENCH_SIM_LOG"
show storcli
check "storcli: the simulated 9460-16i is read" [ "$(j "d['controllers'][0]['model']")" = "MegaRAID SAS 9460-16i" ]
check "storcli: eight unconfigured drives" [ "$(j "len(d['controllers'][0]['unassigned_drives'])")" = 8 ]
CREATE10=(create --tool=storcli --controller=0 --level=10 --drives=252:4,252:5,252:6,252:7)
arr "${CREATE10[@]}"
check "storcli: create without --yes is refused" [ $? -eq 2 ]
arr "${CREATE10[@]}" --dry-run
check "storcli: --dry-run prints the exact command" \
	[ "$(cat "$OUT")" = "$SIM/storcli64 /c0 add vd r10 drives=252:4,5,6,7 pdperarray=2 J" ]
check "storcli: no change ran without --yes" [ -z "$(changes)" ]
before=$(state_sum)
arr create --tool=storcli --level=5 --drives=252:0,252:1 --yes
check "storcli: RAID 5 of two drives is refused" [ $? -eq 2 ]
"$SIM/storcli64" /c0 add vd r5 drives=252:0,1 J >"$OUT" 2>&1
check "storcli sim: refuses it with ErrCd 143 as exit status" [ $? -eq 143 ]
RAIDBENCH_SIM_FAIL="add vd" arr "${CREATE10[@]}" --yes
check "storcli: a failing tool gives exit 1" [ $? -eq 1 ]
check "storcli: ... in the vendor's words" said "Controller is not responding (simulated fault); Controller reset is required. (ErrCd 89)"
RAIDBENCH_SIM_HANG="add vd" arr "${CREATE10[@]}" --yes --timeout=1
check "storcli: a hanging tool is killed (exit 1)" [ $? -eq 1 ]
check "storcli: nothing changed by any of it" [ "$(state_sum)" = "$before" ]

arr "${CREATE10[@]}" --yes
check "storcli: RAID 10 over four drives succeeds" [ $? -eq 0 ]
show storcli
check "storcli: VD 0 in drive group 0 is RAID 10" \
	[ "$(j "[(a['id'], l['id'], l['raid_level']) for a in d['controllers'][0]['arrays'] for l in a['logical_drives']]")" = "[('0', '0', '10')]" ]
check "storcli: RAID 10 of four 900 GB drives is 1.8 TB" near "$(j "d['controllers'][0]['arrays'][0]['logical_drives'][0]['size_bytes']")" 1.8e12 0.01
arr create --tool=storcli --level=1 --drives=252:4,252:0 --yes
check "storcli: a drive already in a VD is refused" [ $? -eq 2 ]
check "storcli: ... saying where it is" said "drive 252:4 is a data drive of array 0"
arr add-spare --tool=storcli --drives=252:0 --array=0 --yes
check "storcli: add-spare succeeds" [ $? -eq 0 ]
show storcli
check "storcli: 252:0 is drive group 0's spare" \
	[ "$(j "[(p['role'], p['status_text']) for p in d['controllers'][0]['arrays'][0]['physical_drives'] if p['id']=='252:0']")" = "[('spare', 'DHS')]" ]
arr delete --tool=storcli --ld=0 --yes
check "storcli: delete succeeds" [ $? -eq 0 ]
show storcli
check "storcli: no VD left" [ "$(j "len(d['controllers'][0]['arrays'])")" = 0 ]

# ---- mdadm over loop devices ----------------------------------------------------------

: >"$RAIDBENCH_SIM_LOG"
if [ "$(id -u)" -ne 0 ] || ! command -v losetup >/dev/null; then
	echo "# md part skipped: needs root and losetup for loop devices"
else
	make_loop 64 && L1=$LOOP_DEV && make_loop 64 && L2=$LOOP_DEV && make_loop 64 && L3=$LOOP_DEV
	arr create --tool=mdadm --level=1 --drives="$L1,$L2"
	check "mdadm: create without --yes is refused" [ $? -eq 2 ]
	arr create --tool=mdadm --level=1 --drives="$L1,$L2" --dry-run
	check "mdadm: --dry-run prints the exact command" \
		[ "$(cat "$OUT")" = "$SIM/mdadm --create /dev/md0 --run --level=1 --raid-devices=2 $L1 $L2" ]
	arr create --tool=mdadm --level=6 --drives="$L1,$L2" --yes
	check "mdadm: RAID 6 of two devices is refused" [ $? -eq 2 ]
	check "mdadm: no change ran without --yes" [ -z "$(changes)" ]
	RAIDBENCH_SIM_FAIL="--create" arr create --tool=mdadm --level=1 --drives="$L1,$L2" --yes
	check "mdadm: a failing mdadm gives exit 1" [ $? -eq 1 ]
	check "mdadm: ... in its words" said "mdadm: failed to RUN_ARRAY"
	arr create --tool=mdadm --level=1 --drives="$L1,$L2" --yes
	check "mdadm: RAID 1 succeeds" [ $? -eq 0 ]
	show mdadm
	check "mdadm: md0 is RAID 1 over both" \
		[ "$(j "[(m['name'], m['raid_level'], sorted(x['device'] for x in m['members'])) for m in d['md_arrays']]")" = "[('md0', '1', $(python3 -c 'import sys; print(sorted(sys.argv[1:]))' "${L1#/dev/}" "${L2#/dev/}"))]" ]
	check "mdadm: its size is one member's" near "$(j "d['md_arrays'][0]['size_bytes']")" $((63 * 1048576)) 0.02
	arr create --tool=mdadm --level=1 --drives="$L1,$L3" --yes
	check "mdadm: a member of md0 is refused" [ $? -eq 2 ]
	check "mdadm: ... saying so" said "$L1 is already a member of md0"
	arr add-spare --tool=mdadm --ld=/dev/md0 --drives="$L3" --yes
	check "mdadm: add-spare succeeds" [ $? -eq 0 ]
	show mdadm
	check "mdadm: the third is a spare" [ "$(j "[x['role'] for x in d['md_arrays'][0]['members'] if x['device']=='${L3#/dev/}']")" = "['spare']" ]
	arr delete --tool=mdadm --ld=md0 --dry-run
	check "mdadm: delete stops md0, then wipes each member's superblock" \
		[ "$(cat "$OUT")" = "$SIM/mdadm --stop /dev/md0 --zero-superblock $L1 $L2 $L3" ]
	arr delete --tool=mdadm --ld=md0 --yes
	check "mdadm: delete succeeds" [ $? -eq 0 ]
	show mdadm
	check "mdadm: no md array left" [ "$(j "len(d['md_arrays'])")" = 0 ]
	# mdadm refuses to wipe what has no superblock: none is left on any member
	for l in "$L1" "$L2" "$L3"; do
		"$SIM/mdadm" --zero-superblock "$l" >"$OUT" 2>"$ERR"
		check "mdadm: no superblock left on $l" said "Unrecognised md component device"
	done
fi

rb_done
