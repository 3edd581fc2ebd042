#!/bin/bash
# md-guard.sh - runs and the write guard on real md under a real kernel.
# A run on a RAID 5 /dev/md0 (4k random read, then 1M sequential write):
# raidbench's result and live records carry a row for md0 and one for each
# member drive, busy in each phase, as fio's disk_util lists them; fio on the
# same md0 completes. The guard: a write is refused on an md member (with and
# without consent), on an md array holding a mounted ext4, on a partition
# that is a member and on the disk holding it, on a disk under a
# device-mapper linear mapping; the bytes stay unchanged; a free array is
# written after consent. Runs inside the test guest (make check-vm).
# rb-vm: --disks=virtio:5x32M --timeout=420
. "$SRCDIR/tests/vm/guest-lib.sh"
vm_init
DISKS=(/dev/vda /dev/vdb /dev/vdc /dev/vdd /dev/vde)
for d in "${DISKS[@]}"; do [ -b "$d" ] || rb_skip "no $d in this guest"; done
ERR=$RB_TMP/err
stop_all() {
	umount "$RB_TMP/mnt" 2>/dev/null
	dmsetup remove rbtest >/dev/null 2>&1
	mdadm --stop --scan >/dev/null 2>&1
	mdadm --zero-superblock "${DISKS[@]}" /dev/vdc1 /dev/vdd1 >/dev/null 2>&1
}
# sum DEV: checksum of the 1 MiB at 8 MiB, where the write jobs below aim
sum() { dd if="$1" bs=1M skip=8 count=1 iflag=direct 2>/dev/null | md5sum | cut -c1-32; }
# wjob DEV [OPTION...]: a 1 MiB write at 8 MiB of DEV; its output in $OUT
wjob() {
	local dev=$1
	shift
	"$RAIDBENCH" run --name=w --filename="$dev" --rw=write --bs=64k --offset=8m --size=1m \
		--direct=1 --ioengine=psync --no-save "$@" >"$OUT" 2>&1
}
# refused NAME DEV WORDS [OPTION...]: a write on DEV is refused naming WORDS, its bytes unchanged
refused() {
	local name=$1 dev=$2 words=$3 before rc
	shift 3
	before=$(sum "$dev")
	wjob "$dev" "$@"
	rc=$?
	if [ $rc -ne 0 ] && grep -qiE "$words" "$OUT"; then
		pass "$name: refused (exit $rc): $(grep -iE -m1 "$words" "$OUT" | cut -c1-160)"
	else
		fail "$name: exit $rc, want a refusal naming '$words': $(head -3 "$OUT" | tr '\n' ' ')"
	fi
	expect "$name: its bytes unchanged" "$(sum "$dev")" "$before"
}

# ---- a run on RAID 5: member rows, beside fio ----
"$RAIDBENCH" array create --tool=mdadm --level=5 --drives=/dev/vda,/dev/vdb,/dev/vdc,/dev/vdd \
	--yes >"$OUT" 2>&1
expect "RAID 5 of four created" "$?" 0
mdadm --wait /dev/md0 >/dev/null 2>&1
MEMBERS=$(ls /sys/block/md0/slaves | sort | tr '\n' ' ')
expect "md0's members" "$MEMBERS" "vda vdb vdc vdd "
cat >"$RB_TMP/md.fio" <<'JOB'
[global]
filename=/dev/md0
direct=1
ioengine=libaio
size=16m
runtime=3
time_based
[rand-read-4k]
rw=randread
bs=4k
iodepth=8
[seq-write-1m]
stonewall
rw=write
bs=1m
iodepth=4
JOB
"$RAIDBENCH" run --allow-destroy=/dev/md0 --no-save --output-format=json \
	--output="$RB_TMP/rb.json" --live="$RB_TMP/live.jsonl" --live-interval=500 \
	"$RB_TMP/md.fio" >"$OUT" 2>&1
rc=$?
expect "raidbench run on /dev/md0: exit 0" "$rc" 0
[ $rc -eq 0 ] || head -5 "$OUT"
expect "its disk_util: md0 and each member" \
	"$(jq_py "$RB_TMP/rb.json" '" ".join(sorted(x["name"] for x in d["disk_util"]))')" \
	"md0 vda vdb vdc vdd"
expect "each member read and written in the run" \
	"$(jq_py "$RB_TMP/rb.json" '" ".join(sorted(x["name"] for x in d["disk_util"] if x["name"] != "md0" and x["read_ios"] > 0 and x["write_ios"] > 0))')" \
	"vda vdb vdc vdd"
# the live records: every tick's devices, then which members were busy reading / writing
python3 - "$RB_TMP/live.jsonl" >"$RB_TMP/live.sum" <<'PY'
import json, sys
names, rd, wr = set(), set(), set()
for line in open(sys.argv[1]):
    t = json.loads(line)
    for x in t.get("devices", []):
        names.add(x["name"])
        if x["r_s"] > 0: rd.add(x["name"])
        if x["w_s"] > 0: wr.add(x["name"])
print(" ".join(sorted(names)), "|", " ".join(sorted(rd)), "|", " ".join(sorted(wr)))
PY
expect "live records: rows for md0 and each member, each member reading and writing" \
	"$(cat "$RB_TMP/live.sum")" "md0 vda vdb vdc vdd | md0 vda vdb vdc vdd | md0 vda vdb vdc vdd"
fio --output-format=json --output="$RB_TMP/fio.json" "$RB_TMP/md.fio" >"$RB_TMP/fio.out" 2>&1
rc=$?
expect "fio on /dev/md0: exit 0" "$rc" 0
[ $rc -eq 0 ] || head -5 "$RB_TMP/fio.out"
expect "fio's disk_util lists the same devices" \
	"$(jq_py "$RB_TMP/fio.json" '" ".join(sorted(set(x["name"] for x in d["disk_util"])))')" \
	"md0 vda vdb vdc vdd"
expect "both did the 4k random reads (raidbench, fio read ios > 0)" \
	"$(jq_py "$RB_TMP/rb.json" 'd["jobs"][0]["read"]["total_ios"] > 0') $(jq_py "$RB_TMP/fio.json" 'd["jobs"][0]["read"]["total_ios"] > 0')" "True True"

# ---- the guard: an md member, with and without consent ----
refused "a write on md member vdb" /dev/vdb "md0"
# consent lifts a holder, but not the kernel's claim: the refusal names the holder
refused "a write on md member vdb with --allow-destroy" /dev/vdb \
	"held by md0.*consent cannot release" --allow-destroy=/dev/vdb
# ---- a mounted ext4 on the array ----
mkdir -p "$RB_TMP/mnt"
if mkfs.ext4 -q -F /dev/md0 >"$ERR" 2>&1 && mount -t ext4 /dev/md0 "$RB_TMP/mnt" 2>>"$ERR"; then
	refused "a write on md0 holding a mounted ext4, with --allow-destroy" /dev/md0 "mounted" \
		--allow-destroy=/dev/md0
	refused "a write on member vdc under the mounted ext4, with --allow-destroy" /dev/vdc \
		"mounted|in use" --allow-destroy=/dev/vdc
	umount "$RB_TMP/mnt"
else
	fail "cannot make and mount an ext4 on md0: $(head -2 "$ERR")"
fi
stop_all

# ---- a member by its partition ----
for d in /dev/vdc /dev/vdd; do echo ',,fd' | sfdisk -q "$d" >/dev/null 2>&1; done
n=0
until [ -b /dev/vdc1 ] && [ -b /dev/vdd1 ] || [ $n -ge 50 ]; do sleep 0.1; n=$((n + 1)); done
"$RAIDBENCH" array create --tool=mdadm --level=1 --drives=/dev/vdc1,/dev/vdd1 --yes >"$OUT" 2>&1
rc=$?
expect "RAID 1 over the partitions vdc1 and vdd1" "$rc" 0
[ $rc -eq 0 ] || head -3 "$OUT"
refused "a write on member partition vdc1" /dev/vdc1 "md[0-9]"
refused "a write on vdc, whose partition is a member, with --allow-destroy=/dev/vdc" /dev/vdc \
	"vdc1 .*held by md0.*consent cannot release" --allow-destroy=/dev/vdc
stop_all
wipefs -q -a /dev/vdc /dev/vdd >/dev/null 2>&1

# ---- device-mapper ----
if ! dmsetup version >"$ERR" 2>&1; then
	echo "# SKIP device-mapper: $(tail -1 "$ERR")"
else
	sectors=$(blockdev --getsz /dev/vde)
	if dmsetup create rbtest --table "0 $sectors linear /dev/vde 0" >"$ERR" 2>&1; then
		refused "a write on vde under a dm linear mapping" /dev/vde "dm-0|rbtest|held|in use"
		refused "... with --allow-destroy=/dev/vde" /dev/vde \
			"held by dm-0.*consent cannot release" --allow-destroy=/dev/vde
		dmsetup remove rbtest
	else
		echo "# SKIP device-mapper: dmsetup create: $(tail -1 "$ERR")"
	fi
fi

# ---- a free array, after consent ----
"$RAIDBENCH" array create --tool=mdadm --level=1 --drives=/dev/vda,/dev/vdb --yes >"$OUT" 2>&1
expect "a fresh RAID 1" "$?" 0
mdadm --wait /dev/md0 >/dev/null 2>&1
before=$(sum /dev/md0)
wjob /dev/md0 --allow-destroy=/dev/md0
rc=$?
expect "a write on the free md0 after consent: exit 0" "$rc" 0
[ $rc -eq 0 ] || head -3 "$OUT"
if [ "$(sum /dev/md0)" != "$before" ]; then pass "... and it wrote md0"
else fail "... md0's bytes are unchanged"; fi
stop_all
rb_done
