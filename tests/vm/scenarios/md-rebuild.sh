#!/bin/bash
# md-rebuild.sh - a RAID 5 of three virtio disks through raidbench only:
# `array fail` one member -> devices --json says degraded, the member faulty;
# `array add-spare` the fourth disk -> rebuilding, with progress, onto it
# (md's rebuild speed held low so that it is seen under way); then ok with
# the new member active; `remove-spare` takes the faulty one out; `delete`
# leaves no superblock on the members it had.
# Runs inside the test guest (make check-vm).
# rb-vm: --disks=virtio:4x32M --timeout=300
. "$SRCDIR/tests/vm/guest-lib.sh"
vm_init
for d in /dev/vda /dev/vdb /dev/vdc /dev/vdd; do [ -b "$d" ] || rb_skip "no $d in this guest"; done
SPEED=/proc/sys/dev/raid/speed_limit_max
status_members() { # (no pipe: the JSON helper answers only this shell and $(...))
	local s
	s=$(md_summary)
	cut -d' ' -f4,5 <<<"$s"
}

"$RAIDBENCH" array create --tool=mdadm --level=5 --drives=/dev/vda,/dev/vdb,/dev/vdc --yes \
	>"$OUT" 2>&1
expect "RAID 5 of three disks created" "$?" 0
mdadm --wait /dev/md0 >/dev/null 2>&1
devices
expect "created: ok, three active members" "$(status_members)" "ok vda:active,vdb:active,vdc:active"

"$RAIDBENCH" array fail --tool=mdadm --ld=/dev/md0 --drives=/dev/vdb --yes >"$OUT" 2>&1
expect "array fail vdb succeeds" "$?" 0
devices
expect "failed: devices --json says degraded, vdb faulty" "$(status_members)" \
	"degraded vda:active,vdb:faulty,vdc:active"

# 1 MB/s: the 30 MiB to rebuild take half a minute, long enough to be seen
echo 1000 >"$SPEED"
"$RAIDBENCH" array add-spare --tool=mdadm --ld=/dev/md0 --drives=/dev/vdd --yes >"$OUT" 2>&1
expect "add-spare vdd succeeds" "$?" 0
sleep 2
devices
read -r _ _ _ status members pct <<<"$(md_summary)"
expect "rebuilding: devices --json says rebuilding" "$status" rebuilding
# a member being rebuilt is a spare holding a slot (mdadm's "spare rebuilding")
expect "rebuilding: vdd is the spare being rebuilt into slot 1" "$members $(jq_py "$J" \
	'[x["slot"] for x in d["md_arrays"][0]["members"] if x["device"] == "vdd"]')" \
	"vda:active,vdb:faulty,vdc:active,vdd:spare [1]"
if [[ $pct =~ ^[0-9]+(\.[0-9]+)?$ ]] && [ "${pct%.*}" -lt 100 ]; then
	pass "rebuilding: with progress ($pct %)"
else
	fail "rebuilding: progress '$pct' is not a percentage under 100"
fi
echo 200000 >"$SPEED"
mdadm --wait /dev/md0 >/dev/null 2>&1
devices
expect "rebuilt: ok, vdd active, vdb still listed faulty" "$(status_members)" \
	"ok vda:active,vdb:faulty,vdc:active,vdd:active"

"$RAIDBENCH" array remove-spare --tool=mdadm --ld=/dev/md0 --drives=/dev/vdb --yes >"$OUT" 2>&1
expect "remove-spare takes the faulty vdb out" "$?" 0
devices
expect "after remove: ok, three active members" "$(status_members)" \
	"ok vda:active,vdc:active,vdd:active"

"$RAIDBENCH" array delete --tool=mdadm --ld=/dev/md0 --yes >"$OUT" 2>&1
expect "the rebuilt RAID 5 is deleted" "$?" 0
# vdb left the array before the delete: its superblock is mdadm's to wipe, not delete's
expect "no member of it keeps a superblock" "$(superblocks /dev/vda /dev/vdc /dev/vdd)" ""
rb_done
