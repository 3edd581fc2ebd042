#!/bin/bash
# discovery.sh - `raidbench devices` on real drivers: megaraid_sas on qemu's
# megasas-gen2 (two logical drives), nvme, ahci and virtio, all on the root
# bus. Each controller with its driver and no PCIe link (not "0 GT/s x0");
# each disk listed once (a logical drive's disk nested under it); serials and
# the SATA disk's T10 wwn without padding. Runs inside the test guest.
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
rb_done
