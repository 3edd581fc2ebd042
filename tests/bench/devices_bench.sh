#!/bin/bash
# devices_bench.sh - time to enumerate (`raidbench devices --json`) with 64
# extra loop devices attached: the median of ROUNDS runs, in milliseconds,
# with and without the loops, so the per-device cost shows. Needs root;
# prints "devices enumerate: n/a (reason)" otherwise. Only the loop devices
# it attaches are touched, and they are detached on exit.
#
#   RAIDBENCH=./raidbench ROUNDS=9 NLOOPS=64 bash tests/bench/devices_bench.sh
RAIDBENCH=${RAIDBENCH:-./raidbench}
ROUNDS=${ROUNDS:-9}
NLOOPS=${NLOOPS:-64}
LOOPS=()
TMP=

cleanup() {
	local l
	for l in "${LOOPS[@]}"; do losetup -d "$l" 2>/dev/null; done
	[ -n "$TMP" ] && rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

na() { echo "devices enumerate: n/a ($*)"; exit 0; }
[ "$(id -u)" -eq 0 ] || na "needs root for loop devices"
command -v losetup >/dev/null || na "losetup missing"

# median_ms: runs `raidbench devices --json` ROUNDS times, prints the median in ms
median_ms() {
	local i t0 t1 times=()
	for ((i = 0; i < ROUNDS; i++)); do
		t0=$(date +%s%N)
		"$RAIDBENCH" devices --json >/dev/null || return 1
		t1=$(date +%s%N)
		times+=($(((t1 - t0) / 1000)))
	done
	printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)]/1000}'
}

TMP=$(mktemp -d /var/tmp/raidbench-bench.XXXXXX)
base=$(median_ms) || na "raidbench devices failed"
for ((i = 0; i < NLOOPS; i++)); do
	truncate -s 16M "$TMP/l$i.img"
	l=$(losetup -f --show "$TMP/l$i.img") || na "could attach only $i loop devices"
	LOOPS+=("$l")
done
with=$(median_ms) || na "raidbench devices failed"
echo "devices enumerate: ${base} ms; with $NLOOPS more loop devices: ${with} ms (median of $ROUNDS)"
