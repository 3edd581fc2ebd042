#!/bin/bash
# md-levels.sh - Linux md RAID through raidbench only, on four virtio disks
# under a real kernel: `array create --tool=mdadm` at RAID 0, 1, 5, 6, 10 and
# linear; `devices --json` shows each with its level, the kernel's size, all
# four members active and health ok, the members not write-safe; `array
# delete` stops it and leaves no superblock on any member (mdadm --examine),
# so the disks are write-safe again and the next level starts clean. Then a
# RAID 5 of three with vdd as its write journal (mdadm --write-journal): vdd
# has role "journal" from sysfs, in the text tree and in a /proc/mdstat capture.
# Runs inside the test guest (make check-vm); RB_LEVELS="0 5" picks levels.
# rb-vm: --disks=virtio:4x32M --timeout=600
. "$SRCDIR/tests/vm/guest-lib.sh"
vm_init
DISKS=(/dev/vda /dev/vdb /dev/vdc /dev/vdd)
ALL=$(IFS=,; echo "${DISKS[*]}")
for d in "${DISKS[@]}"; do [ -b "$d" ] || rb_skip "no $d in this guest"; done
ALL_SAFE="vda:true vdb:true vdc:true vdd:true"

devices
expect "before: the four disks are write-safe" "$(write_safe vda vdb vdc vdd)" "$ALL_SAFE"

# LEVEL:DATA_DISKS (of four, for the size)
declare -A DATA=([0]=4 [1]=1 [5]=3 [6]=2 [10]=2 [linear]=4)
for level in ${RB_LEVELS:-0 1 5 6 10 linear}; do
	L="RAID $level" data=${DATA[$level]}
	"$RAIDBENCH" array create --tool=mdadm --level="$level" --drives="$ALL" --yes >"$OUT" 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "$L: array create failed (exit $rc): $(tail -3 "$OUT" | tr '\n' ' ')"
		mdadm --stop /dev/md0 >/dev/null 2>&1
		mdadm --zero-superblock "${DISKS[@]}" >/dev/null 2>&1
		continue
	fi
	pass "$L: array create --tool=mdadm over four disks"
	mdadm --wait /dev/md0 >/dev/null 2>&1	# the initial resync: health is ok after it
	size=$(blockdev --getsize64 /dev/md0)
	devices
	expect "$L: devices --json: md0, its level, the kernel's size, ok, four active members" \
		"$(md_summary)" "md0 $level $size ok vda:active,vdb:active,vdc:active,vdd:active -"
	# what md keeps for itself (superblock, data offset) is under 4 MiB of each 32 MiB disk
	if [ "$size" -le $((data * 32 << 20)) ] && [ "$size" -ge $((data * 28 << 20)) ]; then
		pass "$L: its size ($size) is $data disk(s) of data"
	else
		fail "$L: its size ($size) is not $data disk(s) of data"
	fi
	expect "$L: its members are not write-safe" "$(write_safe vda vdb vdc vdd)" \
		"vda:false vdb:false vdc:false vdd:false"
	"$RAIDBENCH" array delete --tool=mdadm --ld=/dev/md0 --yes >"$OUT" 2>&1
	rc=$?
	expect "$L: array delete succeeds" "$rc" 0
	[ $rc -eq 0 ] || cat "$OUT"
	if [ ! -e /sys/block/md0/md ]; then pass "$L: md0 is stopped"; else fail "$L: md0 runs"; fi
	expect "$L: no member keeps an md superblock (mdadm --examine)" \
		"$(superblocks "${DISKS[@]}")" ""
	devices
	expect "$L: after delete devices lists no md array" "$(md_summary)" ""
	expect "$L: after delete the disks are write-safe again" "$(write_safe vda vdb vdc vdd)" \
		"$ALL_SAFE"
	# whatever failed above, the next level starts clean
	mdadm --stop /dev/md0 >/dev/null 2>&1
	mdadm --zero-superblock "${DISKS[@]}" >/dev/null 2>&1
done

# A RAID 5 with a write journal (mdadm --write-journal): the journal device is
# in md/ as dev-vdd with state "journal" and slot "journal", and in
# /proc/mdstat as vdd[3](J). raidbench gives it role "journal" from sysfs and
# from the mdstat capture alike, never "active" (it holds no data slot).
J5="RAID 5 + journal"
if mdadm --create /dev/md0 --run --level=5 --raid-devices=3 /dev/vda /dev/vdb /dev/vdc \
	--write-journal /dev/vdd >"$OUT" 2>&1; then
	pass "$J5: mdadm --create --write-journal /dev/vdd"
	mdadm --wait /dev/md0 >/dev/null 2>&1
	size=$(blockdev --getsize64 /dev/md0)
	devices
	expect "$J5: devices --json: three active members and vdd the journal" \
		"$(md_summary)" "md0 5 $size ok vda:active,vdb:active,vdc:active,vdd:journal -"
	expect "$J5: the journal holds no slot" "$(jq_py "$J" \
		'[x["slot"] for x in d["md_arrays"][0]["members"] if x["device"] == "vdd"]')" "[None]"
	expect "$J5: the journal is not write-safe either" "$(write_safe vdd)" "vdd:false"
	"$RAIDBENCH" devices --ascii >"$RB_TMP/tree" 2>&1
	expect "$J5: the text tree says vdd is the journal" \
		"$(grep -c -E -e '- vdd  journal$' "$RB_TMP/tree")" 1
	cat /proc/mdstat >"$RB_TMP/mdstat"
	"$RAIDBENCH" devices --json --import mdstat:"$RB_TMP/mdstat" >"$RB_TMP/imp.json" 2>"$RB_TMP/err"
	expect "$J5: the /proc/mdstat capture says vdd is the journal too" "$(jq_py \
		"$RB_TMP/imp.json" '[x["role"] for x in d["md_arrays"][0]["members"] if x["device"] == "vdd"]')" \
		"['journal']"
	# what md shows, for tests/fixtures/sysfs (RB_VM_SHOW_SYSFS=1)
	if [ -n "${RB_VM_SHOW_SYSFS:-}" ]; then
		sed 's/^/# mdstat| /' "$RB_TMP/mdstat"
		for f in /sys/block/md0/size /sys/block/md0/md/* /sys/block/md0/md/dev-*/*; do
			if [ -L "$f" ]; then echo "# sysfs| $f -> $(readlink "$f")"
			elif [ -f "$f" ] && [ -r "$f" ]; then
				echo "# sysfs| $f = $(head -c 200 "$f" 2>&1 | tr '\n' '|')"
			fi
		done
	fi
else
	fail "$J5: mdadm --create --write-journal failed: $(tail -3 "$OUT" | tr '\n' ' ')"
fi
mdadm --stop /dev/md0 >/dev/null 2>&1
mdadm --zero-superblock "${DISKS[@]}" >/dev/null 2>&1
devices
expect "$J5: stopped, the four disks are write-safe again" "$(write_safe vda vdb vdc vdd)" \
	"$ALL_SAFE"
rb_done
