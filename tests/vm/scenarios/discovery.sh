#!/bin/bash
# discovery.sh - `raidbench devices` on real drivers: megaraid_sas on qemu's
# megasas-gen2 (two logical drives), nvme, ahci and virtio, all on the root
# bus. Each controller with its driver and no PCIe link (not "0 GT/s x0");
# each disk listed once (a logical drive's disk nested under it); serials and
# the SATA disk's T10 wwn without padding. Stable names: without udevd each
# disk's by-id and by-path names are derived from sysfs; then udevd (this
# machine's own) is started and the links it makes in /dev/disk must be
# exactly those names, which `devices` then takes from udev's database; a
# by-id link works as a run target and the write guard refuses it on a
# mounted disk as it refuses the node. Runs inside the test guest.
# rb-vm: --disks=megasas-gen2:2x32M,nvme:1x32M,ahci:1x32M,virtio:1x32M --timeout=240
. "$SRCDIR/tests/vm/guest-lib.sh"
vm_init
devices
TREE=$RB_TMP/tree
"$RAIDBENCH" devices --ascii >"$TREE" 2>&1 || fail "raidbench devices (text)"

expect "controllers and their drivers" \
	"$(jq_py "$J" 'sorted((c["driver"], c["pcie"]) for c in d["controllers"])')" \
	"[('ahci', None), ('megaraid_sas', None), ('nvme', None), ('virtio-pci', None)]"
if grep -q 'GT/s' "$TREE"; then fail "the text tree shows a PCIe link: $(grep 'GT/s' "$TREE")"
else pass "no PCIe link in the text tree (all on the root bus)"; fi
expect "the megasas logical drives, level unknown, on sdb and sdc" \
	"$(jq_py "$J" 'sorted((l["raid_level"], l["os_device"]) for c in d["controllers"] for a in c["arrays"] for l in a["logical_drives"])')" \
	"[(None, '/dev/sdb'), (None, '/dev/sdc')]"
expect "each disk with its controller's driver and serial" \
	"$(jq_py "$J" 'sorted((b["name"], b["serial"], {c["id"]: c["driver"] for c in d["controllers"]}.get(b["controller"])) for b in d["block_devices"])')" \
	"[('nvme0n1', 'rb-nvme-0', 'nvme'), ('sda', 'rb-ahci-0', 'ahci'), ('sdb', 'rb-megasas-gen2-0', 'megaraid_sas'), ('sdc', 'rb-megasas-gen2-1', 'megaraid_sas'), ('vda', 'rb-virtio-0', 'virtio-pci')]"
expect "the SATA disk's T10 wwn has single spaces" \
	"$(jq_py "$J" '[b["wwn"] for b in d["block_devices"] if b["name"] == "sda"]')" \
	"['t10.ATA QEMU HARDDISK rb-ahci-0']"
expect "the text tree: each logical drive's level unknown (no vendor tool)" \
	"$(grep -c -F 'level unknown (no vendor tool)' "$TREE")" 2
for disk in sda sdb sdc vda nvme0n1; do
	expect "$disk is listed once in the text tree" "$(grep -cE "^[ |]*[|\`]- $disk  " "$TREE")" 1
done
expect "sdb is nested under its logical drive" \
	"$(grep -A1 -F 'logical drive 6:2:0:0' "$TREE" | grep -cE -e '- sdb  ')" 1

# ---- stable names ----
DISKS="nvme0n1 sda sdb sdc vda"
# names FILE DISK: "SOURCE NAME NAME..." of DISK in FILE
names() {
	jq_py "$1" "next((' '.join([str(b['stable_names_source'])] + b['stable_names']) for b in d['block_devices'] if b['name'] == '$2'), 'missing')"
}
cp "$J" "$RB_TMP/sysfs.json"
for disk in $DISKS; do
	n=$(names "$RB_TMP/sysfs.json" "$disk")
	if [[ $n == "sysfs /dev/disk/by-id/"*" /dev/disk/by-path/"* ]]; then
		pass "$disk: by-id and by-path names without udevd: ${n#sysfs }"
	else
		fail "$disk: want names derived from sysfs without udevd, got '$n'"
	fi
done
expect "the text tree lists the names" "$(grep -c -E '^[ |]+/dev/disk/by-(id|path)/' "$TREE")" \
	"$(jq_py "$J" 'sum(len(b["stable_names"]) for b in d["block_devices"])')"

UDEVD=/lib/systemd/systemd-udevd
if [ ! -x "$UDEVD" ]; then
	fail "no $UDEVD on this machine to compare the names with udev's (apt-get install udev)"
	rb_done
fi
# udev's database and links go to the guest's own /run and /dev; systemd's
# tools refuse to act in a chroot unless told it is meant
export SYSTEMD_IGNORE_CHROOT=1
"$UDEVD" --daemon --resolve-names=never >"$OUT" 2>&1 || fail "systemd-udevd: $(head -2 "$OUT")"
udevadm trigger --action=add --subsystem-match=block >"$OUT" 2>&1
udevadm settle --timeout=120 >>"$OUT" 2>&1 || fail "udevadm settle: $(head -2 "$OUT")"
if [ -n "${RB_VM_DEBUG:-}" ]; then
	sed 's/^/# udev: /' "$OUT"
	echo "# udev db: $(ls /run/udev/data 2>&1 | tr '\n' ' ')"
	ls -l /dev/disk/by-id /dev/disk/by-path 2>&1 | sed 's/^/# /'
	for x in /sys/block/sd?/device; do
		for p in vpd_pg83 vpd_pg89 vpd_pg80; do
			[ -r "$x/$p" ] && echo "# $x/$p: $(od -An -v -tx1 "$x/$p" | tr -d ' \n' | cut -c1-400)"
		done
		echo "# $x: $(cat "$x/vendor" "$x/model" "$x/wwid" 2>&1 | tr '\n' '|')"
	done
	echo "# nvme: $(cat /sys/block/nvme0n1/wwid /sys/block/nvme0n1/nsid /sys/block/nvme0n1/device/model 2>&1 | tr '\n' '|')"
	echo "# ata: $(cat /sys/class/ata_port/ata1/port_no; readlink -f /sys/block/sda)"
fi
# links DISK: udev's by-id and by-path links to /dev/DISK, sorted
links() {
	local l
	for l in /dev/disk/by-id/* /dev/disk/by-path/*; do
		[ "$(readlink -f "$l")" = "/dev/$1" ] && echo "$l"
	done | LC_ALL=C sort | tr '\n' ' '
}
devices
for disk in $DISKS; do
	u=$(links "$disk")
	u=${u% }
	[ -n "$u" ] || fail "$disk: udev made no by-id or by-path link"
	expect "$disk: the names derived without udevd are udev's links" \
		"$(names "$RB_TMP/sysfs.json" "$disk")" "sysfs $u"
	expect "$disk: with udevd, the names come from its database" "$(names "$J" "$disk")" "udev $u"
done

# ---- a by-id link as a run target, and to the write guard ----
sum() { dd if="$1" bs=1M skip=8 count=1 iflag=direct 2>/dev/null | md5sum | cut -c1-32; }
wjob() {
	local dev=$1
	shift
	"$RAIDBENCH" run --name=w --filename="$dev" --rw=write --bs=64k --offset=8m --size=1m \
		--direct=1 --ioengine=psync --no-save "$@" >"$OUT" 2>&1
}
NV=/dev/disk/by-id/nvme-QEMU_NVMe_Ctrl_rb-nvme-0
"$RAIDBENCH" run --name=r --filename="$NV" --rw=read --bs=64k --size=1m --direct=1 \
	--ioengine=psync --no-save --output-format=json >"$OUT" 2>"$RB_TMP/err"
expect "a read run on $NV completes" "$?" 0
expect "... and reads 1 MiB" "$(jq_py "$OUT" 'd["jobs"][0]["read"]["io_bytes"]')" 1048576
wjob "$NV" --allow-destroy="$NV"
expect "a write run on $NV with consent completes" "$?" 0
SA=/dev/disk/by-id/ata-QEMU_HARDDISK_rb-ahci-0
mkdir -p "$RB_TMP/mnt"
if mkfs.ext4 -q -F /dev/sda >"$OUT" 2>&1 && mount -t ext4 /dev/sda "$RB_TMP/mnt" 2>>"$OUT"; then
	before=$(sum /dev/sda)
	want=
	for p in /dev/sda "$SA"; do
		wjob "$p" --allow-destroy="$p"
		rc=$?
		want=${want:-$rc}
		if [ $rc -ne 0 ] && [ $rc -eq "$want" ] && grep -q "mounted at $RB_TMP/mnt" "$OUT"; then
			pass "a write on $p (sda, mounted) is refused (exit $rc): $(grep -m1 mounted "$OUT" | cut -c1-120)"
		else
			fail "a write on $p (sda, mounted): exit $rc, want $want (not 0) and 'mounted': $(head -3 "$OUT" | tr '\n' ' ')"
		fi
		expect "... sda's bytes unchanged" "$(sum /dev/sda)" "$before"
	done
	umount "$RB_TMP/mnt"
else
	fail "cannot make and mount an ext4 on sda: $(head -2 "$OUT")"
fi
udevadm control --exit >/dev/null 2>&1
rb_done
