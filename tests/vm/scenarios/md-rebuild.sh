#!/bin/bash
# md-rebuild.sh - a RAID 5 of three virtio disks through raidbench only:
# `array fail` one member -> devices --json says degraded, the member faulty;
# `array add-spare` the fourth disk -> rebuilding, with progress, onto it
# (md's rebuild speed held low so that it is seen under way), "rebuilding"
# in devices --json, in the text tree and in mdstat and --detail captures;
# the TUI's Devices screen degraded and rebuilding against golden dumps
# (tests/fixtures/screens/vm_*); then ok with the new member active; `remove-spare` takes the faulty one out; `delete`
# leaves no superblock on the members it had.
# Runs inside the test guest (make check-vm).
# rb-vm: --disks=virtio:4x32M --timeout=420
. "$SRCDIR/tests/vm/guest-lib.sh"
vm_init
for d in /dev/vda /dev/vdb /dev/vdc /dev/vdd; do [ -b "$d" ] || rb_skip "no $d in this guest"; done
SPEED=/proc/sys/dev/raid/speed_limit_max SPEED_MIN=/proc/sys/dev/raid/speed_limit_min
GOLD=$SRCDIR/tests/fixtures/screens
# screen NAME MEMBERS: the TUI's Devices screen (tui-test, off-screen) on md0's row, as
# tests/integration/screens_devices.sh takes it, compared with the golden vm_NAME-43x132-ascii.txt
screen() {
	local dump=$RB_TMP/vm_$1.txt gold=$GOLD/vm_$1-43x132-ascii.txt i
	{
		echo "key F2"
		echo "key End"	# md0's last member: no other block device follows md0 here
		for ((i = 0; i < $2; i++)); do echo "key Up"; done
		echo "dump $dump"
	} >"$RB_TMP/script"
	LANG=C.UTF-8 LC_ALL= TERM=xterm-256color NO_COLOR= HOME=/nonexistent XDG_CACHE_HOME=/cache \
		"$RAIDBENCH" tui-test --size=43x132 --ascii "$RB_TMP/script" 2>"$RB_TMP/err" ||
		fail "$1: tui-test failed: $(head -3 "$RB_TMP/err")"
	[ -n "${RB_VM_SHOW_CAPTURES:-}" ] && sed "s/^/# screen $1| /" "$dump"
	if [ ! -e "$gold" ]; then
		fail "$1: no golden $gold (RB_VM_SHOW_CAPTURES=1 prints the dump)"
	elif diff -u "$gold" "$dump" >"$RB_TMP/diff"; then
		pass "$1: the Devices screen matches its golden dump"
	else
		fail "$1: the Devices screen differs from $gold:"
		cat "$RB_TMP/diff"
	fi
}
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
screen md_degraded 3

# 1 KB/s: the rebuild stays at 0.0% while the screen is taken, so that it can be golden
echo 1 >"$SPEED_MIN"
echo 1 >"$SPEED"
"$RAIDBENCH" array add-spare --tool=mdadm --ld=/dev/md0 --drives=/dev/vdd --yes >"$OUT" 2>&1
expect "add-spare vdd succeeds" "$?" 0
sleep 1
screen md_rebuilding 4
# then 100 KB/s: the 30 MiB to rebuild take five minutes, so that the checks below see it
# under way however slowly the guest runs (a process start can take seconds under TCG)
echo 100 >"$SPEED"
sleep 2
devices
read -r _ _ _ status members pct <<<"$(md_summary)"
expect "rebuilding: devices --json says rebuilding" "$status" rebuilding
# a member being rebuilt is "rebuilding" into its slot, whether sysfs, mdstat or --detail says it
expect "rebuilding: vdd is being rebuilt into slot 1" "$members $(jq_py "$J" \
	'[x["slot"] for x in d["md_arrays"][0]["members"] if x["device"] == "vdd"]')" \
	"vda:active,vdb:faulty,vdc:active,vdd:rebuilding [1]"
"$RAIDBENCH" devices --ascii >"$RB_TMP/tree" 2>&1
# md0's block device hangs under the array, as a logical drive's does, not under "Other"
expect "rebuilding: the text tree has md0 under md arrays, not under Other block devices" \
	"$(sed -n '/^md arrays/,/^$/p' "$RB_TMP/tree" | grep -c -E '^[|`]- md0  RAID 5') $(sed -n '/^Other block devices/,/^$/p' "$RB_TMP/tree" | grep -c md0)" "1 0"
expect "rebuilding: the text tree says vdd is rebuilding slot 1" \
	"$(grep -c -E -e '- vdd  rebuilding, slot 1$' "$RB_TMP/tree")" 1
cat /proc/mdstat >"$RB_TMP/mdstat"
mdadm --detail /dev/md0 >"$RB_TMP/detail" 2>&1
for src in mdstat:"$RB_TMP/mdstat" mdadm-detail:"$RB_TMP/detail"; do
	"$RAIDBENCH" devices --json --import "$src" >"$RB_TMP/imp.json" 2>"$RB_TMP/err"
	expect "rebuilding: the ${src%%:*} capture says vdd is rebuilding too" "$(jq_py \
		"$RB_TMP/imp.json" '[x["role"] for x in d["md_arrays"][0]["members"] if x["device"] == "vdd"]')" \
		"['rebuilding']"
done
# the two captures, for tests/fixtures (RB_VM_SHOW_CAPTURES=1)
if [ -n "${RB_VM_SHOW_CAPTURES:-}" ]; then
	sed 's/^/# mdstat| /' "$RB_TMP/mdstat"
	sed 's/^/# detail| /' "$RB_TMP/detail"
fi
if [[ $pct =~ ^[0-9]+(\.[0-9]+)?$ ]] && [ "${pct%.*}" -lt 100 ]; then
	pass "rebuilding: with progress ($pct %)"
else
	fail "rebuilding: progress '$pct' is not a percentage under 100"
fi
echo 1000 >"$SPEED_MIN"
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
