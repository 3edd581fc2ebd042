#!/bin/bash
# md-sweep.sh - `raidbench sweep --tool=mdadm --levels=0,1,5,10` over four
# virtio disks under a real kernel: every level created as a real md array,
# measured with a short profile, saved, deleted (no superblock left), and the
# comparison table lists the four levels side by side in each phase. Then a
# sweep killed (SIGKILL) mid-level leaves its md array and its journal entry;
# `sweep --resume-cleanup --yes` stops it and wipes its members.
# Runs inside the test guest (make check-vm).
# rb-vm: --disks=virtio:4x32M --timeout=420
. "$SRCDIR/tests/vm/guest-lib.sh"
vm_init
DISKS=(/dev/vda /dev/vdb /dev/vdc /dev/vdd)
ALL=$(IFS=,; echo "${DISKS[*]}")
for d in "${DISKS[@]}"; do [ -b "$d" ] || rb_skip "no $d in this guest"; done
export XDG_STATE_HOME=$RB_TMP/state XDG_CONFIG_HOME=$RB_TMP/config XDG_DATA_HOME=$RB_TMP/data
JOURNAL=$XDG_STATE_HOME/raidbench/sweep.json
ERR=$RB_TMP/err
mkdir -p "$XDG_CONFIG_HOME/raidbench/profiles"
cat >"$XDG_CONFIG_HOME/raidbench/profiles/vmsweep.fio" <<'PROFILE'
; two short phases: the sweep's point here is the real arrays, not the figures
[global]
ioengine=libaio
direct=1
size=8m
iodepth=4
group_reporting

[rand-read-4k]
stonewall
rw=randread
bs=4k

[seq-write-256k]
stonewall
rw=write
bs=256k
PROFILE
stop_all() { mdadm --stop --scan >/dev/null 2>&1; mdadm --zero-superblock "${DISKS[@]}" >/dev/null 2>&1; }
md_arrays() { ls -d /sys/block/md*/md 2>/dev/null | cut -d/ -f4 | tr '\n' ' ' | sed 's/ $//'; }

# ---- the sweep: four levels, compared ----
t0=$SECONDS
"$RAIDBENCH" sweep --tool=mdadm --drives="$ALL" --levels=0,1,5,10 --profile=vmsweep \
	--runtime=1 --poll=200 --yes >"$OUT" 2>"$ERR"
rc=$?
expect "sweep --tool=mdadm --levels=0,1,5,10: exit 0" "$rc" 0
[ $rc -eq 0 ] || { tail -15 "$ERR"; cat "$OUT"; }
echo "# the sweep of four md levels took $((SECONDS - t0)) s"
for level in 0 1 5 10; do
	n=$(grep -cE "^  RAID $level +[0-9]" "$OUT")
	expect "RAID $level measured in both phases of the table" "$n" 2
done
for ph in "rand-read-4k (read, random)" "seq-write-256k (write, sequential)"; do
	if grep -qF "phase $ph" "$OUT"; then pass "the table has phase $ph"
	else fail "the table lacks phase $ph"; fi
done
# the four rows of a phase side by side, in level order
expect "the levels side by side in the first phase's table" \
	"$(sed -n '/^phase rand-read-4k/,/^$/p' "$OUT" | grep -oE '^  RAID [0-9]+' | tr -s ' ' | tr '\n' ',')" \
	" RAID 0, RAID 1, RAID 5, RAID 10,"
expect "the sweep ran each level on a real md device" \
	"$(grep -cE "running .* on /dev/md[0-9]+" "$ERR")" 4
expect "four results saved" "$(ls "$XDG_DATA_HOME"/raidbench/results/*.json 2>/dev/null | wc -l)" 4
# (no pipe: the JSON helper answers only this shell)
tags=()
for f in "$XDG_DATA_HOME"/raidbench/results/*.json; do
	tags+=("$(jq_py "$f" '"%s:%s" % (d["raidbench"]["sweep"]["level"], d["raidbench"]["sweep"]["drives"])')")
done
expect "each result tagged with its level and four drives" \
	"$(printf '%s\n' "${tags[@]}" | sort -n | tr '\n' ' ')" "0:4 1:4 5:4 10:4 "
expect "no md array left" "$(md_arrays)" ""
expect "no member keeps a superblock" "$(superblocks "${DISKS[@]}")" ""
expect "an empty journal" "$(jq_py "$JOURNAL" 'len(d["arrays"])')" 0
"$RAIDBENCH" compare "$XDG_DATA_HOME"/raidbench/results/*.json >"$RB_TMP/cmp" 2>&1
expect "raidbench compare of the four results: exit 0" "$?" 0
for level in 0 1 5 10; do
	if grep -q "RAID $level\b" "$RB_TMP/cmp"; then pass "compare names RAID $level"
	else fail "compare does not name RAID $level: $(head -5 "$RB_TMP/cmp")"; fi
done
stop_all
echo "# the sweep part took $SECONDS s"

# ---- killed mid-level: --resume-cleanup deletes the array it left ----
"$RAIDBENCH" sweep --tool=mdadm --drives="$ALL" --levels=5,10 --profile=vmsweep \
	--runtime=30 --poll=200 --yes >"$OUT" 2>"$ERR" &
pid=$!
n=0
until grep -q "running .* on /dev/md" "$ERR" || [ $n -ge 600 ]; do sleep 0.2; n=$((n + 1)); done
kill -9 $pid
wait $pid 2>/dev/null
expect "SIGKILL mid-level: the sweep's RAID 5 is left running" \
	"$(cat /sys/block/md*/md/level 2>/dev/null)" raid5
expect "... and named in the journal" \
	"$(jq_py "$JOURNAL" '[(a["level"], a["state"]) for a in d["arrays"]]')" "[('5', 'created')]"
"$RAIDBENCH" sweep --resume-cleanup >"$OUT" 2>&1
expect "--resume-cleanup without --yes: exit 2, nothing deleted" "$? $(md_arrays | wc -w)" "2 1"
"$RAIDBENCH" sweep --resume-cleanup --yes >"$OUT" 2>&1
rc=$?
expect "--resume-cleanup --yes: exit 0" "$rc" 0
[ $rc -eq 0 ] || cat "$OUT"
expect "... no md array left" "$(md_arrays)" ""
expect "... no member keeps a superblock" "$(superblocks "${DISKS[@]}")" ""
expect "... an empty journal" "$(jq_py "$JOURNAL" 'len(d["arrays"])')" 0
devices
expect "... the disks are write-safe again" "$(write_safe vda vdb vdc vdd)" \
	"vda:true vdb:true vdc:true vdd:true"
stop_all
echo "# the scenario took $SECONDS s in the guest"
rb_done
