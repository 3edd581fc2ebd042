#!/bin/bash
# numa.sh - a guest with two NUMA nodes: an NVMe controller behind a
# pcie-root-port on a pxb-pcie expander of node 1, and qemu's `megasas`
# (LSI SAS1078, the older MegaRAID) with one logical drive. `devices` shows
# the NVMe controller on node 1 with its PCIe link and the SAS1078 with its
# driver and a logical drive of unknown level; a run on the NVMe namespace
# puts its worker on node 1's CPU and its I/O buffers in node 1's memory,
# unless the job places them itself (cpus_allowed).
# Runs inside the test guest (make check-vm).
# rb-vm: --disks=nvme-node1:1x64M,megasas:1x32M --timeout=300
. "$SRCDIR/tests/vm/guest-lib.sh"
vm_init
[ -b /dev/nvme0n1 ] || rb_skip "no /dev/nvme0n1 in this guest"
expect "the guest has two NUMA nodes" "$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)" 2
expect "node 1's CPUs" "$(cat /sys/devices/system/node/node1/cpulist)" 1

devices
# (q35's own AHCI is there, without disks)
expect "controllers: driver, NUMA node, a PCIe link or none" \
	"$(jq_py "$J" 'sorted((c["driver"], c["numa_node"], None if c["pcie"] is None else "%s GT/s x%s" % (c["pcie"]["speed_gts"], c["pcie"]["width"])) for c in d["controllers"])')" \
	"[('ahci', None, None), ('megaraid_sas', None, None), ('nvme', 1, '2.5 GT/s x1')]"
expect "the SAS1078's logical drive, level unknown" \
	"$(jq_py "$J" '[(l["raid_level"], l["os_device"]) for c in d["controllers"] if c["driver"] == "megaraid_sas" for a in c["arrays"] for l in a["logical_drives"]]')" \
	"[(None, '/dev/sda')]"
"$RAIDBENCH" devices --ascii >"$RB_TMP/tree" 2>&1
expect "the text tree: the logical drive's level unknown (no vendor tool)" \
	"$(grep -c -F 'level unknown (no vendor tool)' "$RB_TMP/tree")" 1
if grep -q "NUMA node 1.*2.5 GT/s x1" "$RB_TMP/tree"; then pass "the text tree: NUMA node 1, 2.5 GT/s x1"
else fail "the text tree lacks 'NUMA node 1 ... 2.5 GT/s x1': $(grep -i -m2 'nvme' "$RB_TMP/tree")"; fi

# place JOBOPTS...: runs a 1 MiB read job on nvme0n1 and prints, while it runs, the CPUs its
# threads may use (sorted, unique) and the largest count of its pages on node 1 in one mapping
place() {
	local pid n=0 cpus pages
	"$RAIDBENCH" run --name=p --filename=/dev/nvme0n1 --rw=read --bs=1m --iodepth=4 \
		--ioengine=libaio --direct=1 --time_based --runtime=20 --no-save "$@" \
		--live="$RB_TMP/live" >"$RB_TMP/place.out" 2>&1 &
	pid=$!
	: >"$RB_TMP/live"
	until [ "$(wc -l <"$RB_TMP/live")" -ge 3 ] || [ $n -ge 300 ]; do sleep 0.2; n=$((n + 1)); done
	cpus=$(cat /proc/$pid/task/*/status 2>/dev/null | sed -n 's/^Cpus_allowed_list:\t//p' | sort -u | tr '\n' ' ')
	pages=$(grep -o 'N1=[0-9]*' /proc/$pid/numa_maps 2>/dev/null | cut -d= -f2 | sort -n | tail -1)
	kill -INT $pid 2>/dev/null
	wait $pid
	echo "$cpus| ${pages:-0}"
}
IFS="|" read -r cpus pages <<<"$(place)"; pages=${pages// /}
# (the main thread and its helpers keep both CPUs; the worker has node 1's)
expect "no placement in the job: a thread on node 1's CPU only" \
	"$(tr ' ' '\n' <<<"$cpus" | grep -cx 1)" 1
if [ "${pages:-0}" -ge 1024 ]; then pass "... its 4 MiB of buffers in node 1's memory ($pages pages in one mapping)"
else fail "... no mapping with 4 MiB on node 1 (largest: ${pages:-0} pages)"; fi
expect "... and the run says where it placed the job" \
	"$(grep -c -F "job 'p' runs on NUMA node 1, its target's" "$RB_TMP/place.out")" 1
IFS="|" read -r cpus pages <<<"$(place --cpus_allowed=0)"; pages=${pages// /}
expect "cpus_allowed=0 in the job: no thread on node 1's CPU only" \
	"$(tr ' ' '\n' <<<"$cpus" | grep -cx 1)" 0
expect "... and no placement is reported" "$(grep -c -F 'NUMA node' "$RB_TMP/place.out")" 0
rb_done
