#!/bin/bash
# md-levels.sh - Linux md RAID through raidbench only, on four virtio disks
# under a real kernel: `array create --tool=mdadm` at RAID 0, 1, 5, 6, 10 and
# linear; `devices --json` shows each with its level, the kernel's size, all
# four members active and health ok, the members not write-safe; `array
# delete` stops it and leaves no superblock on any member (mdadm --examine),
# so the disks are write-safe again and the next level starts clean.
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
rb_done
