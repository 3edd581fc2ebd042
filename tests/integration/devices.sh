#!/bin/bash
# devices.sh - `raidbench devices` on this machine's real loop devices: they
# appear with the right size and block sizes; a file system signature, a
# mount and a holder (a loop device over one of them) each show in the JSON;
# the output is valid JSON listing vda and the virtio controller when the
# machine has them; nothing is written; a non-root run still answers; and
# the hot-plug monitor sees a loop device attached and detached.
#
# Only the loop devices this script makes are touched (lib.sh cleans them up).
. "$(dirname "$0")/lib.sh"
need_root
need_tool mkfs.ext4 e2fsprogs
need_tool python3 python3
rb_init

J=$RB_TMP/devices.json

# dev_json NAME EXPR: evaluates EXPR over block device NAME's JSON object `b`
dev_json() {
	python3 - "$J" "$1" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
b = [x for x in d["block_devices"] if x["name"] == sys.argv[2]]
if not b:
    print("MISSING")
    sys.exit(0)
b = b[0]
print(eval(sys.argv[3]))
EOF
}
expect() { # expect NAME GOT WANT
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: got '$2', want '$3'"; fi
}

make_loop 64 || rb_skip "cannot attach loop devices"
PLAIN=$LOOP_DEV; PLAIN_N=${PLAIN#/dev/}
make_loop 32
FS=$LOOP_DEV; FS_N=${FS#/dev/}
mkfs.ext4 -q -F "$FS" >/dev/null 2>&1 || fail "mkfs.ext4 $FS"
mkdir -p "$RB_TMP/mnt"
if mount "$FS" "$RB_TMP/mnt" 2>/dev/null; then
	RB_MOUNTS+=("$RB_TMP/mnt")
	MOUNTED=1
else
	MOUNTED=0
fi
# a holder: a loop device whose backing "file" is the PLAIN loop device
HOLDER=$(losetup -f --show "$PLAIN") && RB_LOOPS+=("$HOLDER")
HOLDER_N=${HOLDER#/dev/}
# 4 KiB logical blocks
IMG4K=$(mktemp "$RB_TMP/loop4k.XXXXXX.img")
truncate -s 48M "$IMG4K"
BIG=$(losetup -f --show --sector-size 4096 "$IMG4K") && RB_LOOPS+=("$BIG")
BIG_N=${BIG#/dev/}

SUM_BEFORE=$(md5sum <"$PLAIN")
"$RAIDBENCH" devices --json >"$J" 2>"$RB_TMP/devices.err"
check "devices --json exits 0" test $? -eq 0
check "devices --json is valid JSON" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$J"
check "no stderr from devices --json" test ! -s "$RB_TMP/devices.err"

expect "$PLAIN_N size" "$(dev_json "$PLAIN_N" 'b["size_bytes"]')" $((64 * 1024 * 1024))
expect "$PLAIN_N path" "$(dev_json "$PLAIN_N" 'b["path"]')" "$PLAIN"
expect "$PLAIN_N logical block size" "$(dev_json "$PLAIN_N" 'b["logical_block_size"]')" 512
expect "$BIG_N size" "$(dev_json "$BIG_N" 'b["size_bytes"]')" $((48 * 1024 * 1024))
expect "$BIG_N logical block size 4096" "$(dev_json "$BIG_N" 'b["logical_block_size"]')" 4096
expect "$BIG_N physical block size 4096" "$(dev_json "$BIG_N" 'b["physical_block_size"]')" 4096
expect "$BIG_N blank is write-safe" "$(dev_json "$BIG_N" 'b["write_safe"]')" True
expect "$BIG_N has no signature" "$(dev_json "$BIG_N" 'b["signature"]')" None
expect "$BIG_N has no controller" "$(dev_json "$BIG_N" 'b["controller"]')" None

expect "$FS_N ext4 signature" "$(dev_json "$FS_N" 'b["signature"]')" ext4
expect "$FS_N not write-safe" "$(dev_json "$FS_N" 'b["write_safe"]')" False
if [ "$MOUNTED" = 1 ]; then
	expect "$FS_N mount shows" "$(dev_json "$FS_N" '"'"$RB_TMP/mnt"'" in b["mounts"]')" True
	expect "$FS_N reason names the mount" \
		"$(dev_json "$FS_N" '"mounted" in (b["why_not_write_safe"] or "")')" True
else
	echo "# mount not permitted here: mount check skipped"
fi

expect "$PLAIN_N holder $HOLDER_N shows" "$(dev_json "$PLAIN_N" '"'"$HOLDER_N"'" in b["holders"]')" True
expect "$PLAIN_N with a holder is not write-safe" "$(dev_json "$PLAIN_N" 'b["write_safe"]')" False
check "$HOLDER_N over a block device is listed" test "$(dev_json "$HOLDER_N" 'b["name"]')" = "$HOLDER_N"

if [ -e /sys/block/vda ]; then
	expect "vda listed" "$(dev_json vda 'b["name"]')" vda
	CTL=$(dev_json vda 'b["controller"]')
	expect "vda tied to its PCI controller" "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(any(c["id"] == sys.argv[2] and (c["driver"] or "").startswith("virtio") for c in d["controllers"]))
' "$J" "$CTL")" True
fi
if ls /sys/bus/pci/drivers/virtio-pci/ 2>/dev/null | grep -q :; then
	check "a virtio controller is listed" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if any((c["driver"] or "") == "virtio-pci" for c in d["controllers"]) else 1)
' "$J"
fi
check "every controller has the schema keys" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
keys = {"id", "source", "model", "slot", "serial", "firmware", "driver", "pci", "numa_node",
        "mode", "status", "status_text", "pcie", "arrays", "unassigned_drives",
        "passthrough_drives"}
sys.exit(0 if all(keys <= set(c) for c in d["controllers"]) else 1)
' "$J"

check "every block device has its stable names (a list) and their source" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
ok = all(isinstance(b["stable_names"], list) and b["stable_names_source"] in ("udev", "sysfs", None)
         and (b["stable_names_source"] is None) == (not b["stable_names"])
         and all(n.startswith(("/dev/disk/by-id/", "/dev/disk/by-path/")) for n in b["stable_names"])
         for b in d["block_devices"])
sys.exit(0 if ok else 1)
' "$J"

check "nothing was written to $PLAIN" test "$(md5sum <"$PLAIN")" = "$SUM_BEFORE"

"$RAIDBENCH" devices >"$RB_TMP/tree.txt" 2>&1
check "devices (tree) exits 0" test $? -eq 0
check "tree lists $PLAIN_N" grep -q " $PLAIN_N " "$RB_TMP/tree.txt"
check "tree says $FS_N is not write-safe" grep -q "$FS_N .*NOT write-safe" "$RB_TMP/tree.txt"
"$RAIDBENCH" devices --ascii >"$RB_TMP/tree-ascii.txt" 2>&1
check "--ascii tree is plain ASCII" python3 -c '
import sys; open(sys.argv[1], "rb").read().decode("ascii")' "$RB_TMP/tree-ascii.txt"
"$RAIDBENCH" devices --import ssacli:/nonexistent >/dev/null 2>"$RB_TMP/import.err"
check "--import of a missing file fails" test $? -ne 0
check "--import says why" test -s "$RB_TMP/import.err"
# a capture of another ssacli command: the error names the file, not a command it did not run
F395=$SRCDIR/tests/fixtures/vendor/ssacli/seed000_L395_controller-slot-255-ld-1-show-status.txt
"$RAIDBENCH" devices --import "ssacli:$F395" >/dev/null 2>"$RB_TMP/import.err"
check "--import of a tool's error output fails, naming the file and the tool's words" \
	grep -q "ssacli output in $F395: Error: The specified device does not have a logicaldrive" "$RB_TMP/import.err"
# --import goes through hw/raidtool.c's raidtool_import() (a weak reference here)
CAP=$SRCDIR/tests/fixtures/vendor/ssacli/seed000_L045_controller-all-show-config.txt
if [ -f "$CAP" ]; then
	"$RAIDBENCH" devices --json --import "ssacli:$CAP" >"$RB_TMP/import.json" 2>"$RB_TMP/import.err"
	check "--import ssacli: is built and reads a capture ($(head -c 200 "$RB_TMP/import.err"))" \
		python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if any(c["source"] == "ssacli" for c in d["controllers"]) else 1)
' "$RB_TMP/import.json"
	"$RAIDBENCH" devices --import "ssacli:$CAP" >"$RB_TMP/import.txt" 2>&1
	check "--import tree exits 0" test $? -eq 0
fi

# non-root: shows what it can read, notes what needed root
if command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups \
	test -x "$RAIDBENCH" 2>/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$RAIDBENCH" devices --json \
		>"$RB_TMP/user.json" 2>"$RB_TMP/user.err"
	check "non-root devices --json exits 0" test $? -eq 0
	check "non-root output is valid JSON and lists $PLAIN_N" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if any(b["name"] == sys.argv[2] for b in d["block_devices"]) else 1)
' "$RB_TMP/user.json" "$PLAIN_N"
	check "non-root run notes what needed root" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if any("root" in n for n in d["notes"]) else 1)
' "$RB_TMP/user.json"
else
	echo "# setpriv or an unprivileged user cannot run $RAIDBENCH: non-root check skipped"
fi

# the monitor: attach and detach a loop device while it listens
"$RAIDBENCH" devices --monitor-events=100000 --monitor-timeout=30 >"$RB_TMP/mon.out" 2>&1 &
MON=$!
for _ in $(seq 50); do grep -q listening "$RB_TMP/mon.out" && break; sleep 0.1; done
if ! grep -q listening "$RB_TMP/mon.out"; then
	kill "$MON" 2>/dev/null
	fail "monitor did not start: $(cat "$RB_TMP/mon.out")"
else
	make_loop 16
	MON_N=${LOOP_DEV#/dev/}
	for _ in $(seq 50); do grep -Eq "^(add|change) $MON_N\$" "$RB_TMP/mon.out" && break; sleep 0.1; done
	check "monitor saw $MON_N attached" grep -Eq "^(add|change) $MON_N\$" "$RB_TMP/mon.out"
	N_BEFORE=$(grep -Ec "^(change|remove) $MON_N\$" "$RB_TMP/mon.out")
	losetup -d "$LOOP_DEV"
	for _ in $(seq 50); do
		[ "$(grep -Ec "^(change|remove) $MON_N\$" "$RB_TMP/mon.out")" -gt "$N_BEFORE" ] && break
		sleep 0.1
	done
	check "monitor saw $MON_N detached" \
		test "$(grep -Ec "^(change|remove) $MON_N\$" "$RB_TMP/mon.out")" -gt "$N_BEFORE"
	kill "$MON" 2>/dev/null
	wait "$MON" 2>/dev/null
fi
"$RAIDBENCH" devices --monitor-events=1 --monitor-timeout=1 >/dev/null 2>&1
R=$?
# nothing attached in that second: it gives up with status 1 (an event from
# another test's loop device is fine too)
check "monitor gives up at its timeout" test $R -eq 1 -o $R -eq 0

# A controller's logical drive and pass-through drive are each listed once in
# the text tree, the OS device nested under it (the recorded MegaRAID tree:
# sda is logical drive 1:2:0:0, sdb pass-through drive 1:0:8:0).
T=$RB_TMP/megaraid
bash "$SRCDIR/tests/fixtures/sysfs/mktree.sh" megaraid "$T"
"$RAIDBENCH" devices --no-tools --ascii --sysfs="$T/sys" --proc="$T/proc" --dev="$T/dev" \
	--pci-ids="$SRCDIR/tests/fixtures/sysfs/pci.ids" >"$RB_TMP/tree" 2>&1
# the controller's own children: the array and the pass-through drive, no disk again
check "devices: the controller lists sda and sdb once, not again as disks of its own" \
	test "$(grep -cE '^   [|`]- ' "$RB_TMP/tree")" -eq 2
check "devices: sda is nested under logical drive 1:2:0:0" \
	sh -c 'grep -A1 -F "logical drive 1:2:0:0" "$1" | grep -q -e "- sda  "' _ "$RB_TMP/tree"
check "devices: sdb is nested under pass-through drive 1:0:8:0" \
	sh -c 'grep -A1 -F "passthrough drive 1:0:8:0" "$1" | grep -q -e "- sdb  "' _ "$RB_TMP/tree"

# The text tree is the Devices screen's tree: an md array's OS device is
# nested under the array after its members (as a logical drive's is), once.
T=$RB_TMP/mdtree
bash "$SRCDIR/tests/fixtures/sysfs/mktree.sh" md "$T"
"$RAIDBENCH" devices --no-tools --ascii --sysfs="$T/sys" --proc="$T/proc" --dev="$T/dev" \
	--pci-ids="$SRCDIR/tests/fixtures/sysfs/pci.ids" >"$RB_TMP/mdtree.txt" 2>&1
check "devices: md0's OS device is listed once, under its md array after the members" \
	sh -c 'test "$(grep -c -e "- md0  " "$1")" -eq 2 && ! grep -q "^Other block devices" "$1" &&
		grep -A6 -e "^md arrays" "$1" | tail -n 3 | grep -q -e "^   \`- md0  10.9 TiB"' _ "$RB_TMP/mdtree.txt"

rb_done
