#!/bin/bash
# dev-dax.sh - a device DAX node in the guest: 128 MiB of guest memory
# handed to the kernel as legacy persistent memory (memmap=), its namespace
# turned to devdax by ndctl, /dev/dax0.0. ioengine=dev-dax there: writing
# needs --allow-destroy (the guard cannot look inside a character device);
# the same counts as fio 3.33's dev-dax; what raidbench writes, raidbench
# verifies; fio's own write+verify runs on the same device.
# Runs inside the test guest (make check-vm).
# rb-vm: --mem=1024 --kernel-args=memmap=128M!640M --timeout=240
. "$SRCDIR/tests/vm/guest-lib.sh"
vm_init
command -v ndctl >/dev/null || rb_skip "ndctl is not installed on the host (apt-get install ndctl)"
[ -e /dev/pmem0 ] || rb_skip "no /dev/pmem0: the kernel made no legacy pmem of memmap="
ndctl create-namespace -f -e namespace0.0 -m devdax --align=4k >"$RB_TMP/ndctl" 2>&1 ||
	rb_skip "ndctl could not make a devdax namespace: $(tail -1 "$RB_TMP/ndctl")"
D=/dev/dax0.0
for i in 1 2 3 4 5; do [ -c "$D" ] && break; sleep 1; done
[ -c "$D" ] || rb_skip "no $D after ndctl create-namespace: $(cat "$RB_TMP/ndctl")"
pass "ndctl made $D ($(cat /sys/bus/dax/devices/dax0.0/size) bytes)"

R=$RB_TMP/r.json
F=$RB_TMP/f.json
# row FILE: "r_ios/r_bytes,w_ios/w_bytes" of the first job (fio may put notes before its JSON)
row() {
	sed -n '/^{/,$p' "$1" >"$1.j"
	jq_py "$1.j" '"%d/%d,%d/%d" % (d["jobs"][0]["read"]["total_ios"], d["jobs"][0]["read"]["io_bytes"], d["jobs"][0]["write"]["total_ios"], d["jobs"][0]["write"]["io_bytes"])'
}

"$RAIDBENCH" run --name=w --ioengine=dev-dax --filename=$D --rw=write --bs=64k --size=4m \
	>/dev/null 2>"$RB_TMP/err" && fail "dev-dax wrote $D without consent" ||
	check "dev-dax: writing $D needs consent" grep -q "allow-destroy" "$RB_TMP/err"

J="--ioengine=dev-dax --filename=$D --thread"
for args in "--rw=randwrite --bs=64k --size=8m" "--rw=read --bs=2m --size=16m" \
	"--rw=randrw --bs=4k --size=2m"; do
	# shellcheck disable=SC2086
	fio --output-format=json --output="$F" --name=x $J $args >/dev/null 2>"$RB_TMP/ferr" ||
		{ fail "fio $args: $(tail -2 "$RB_TMP/ferr")"; continue; }
	# shellcheck disable=SC2086
	"$RAIDBENCH" run --no-save --output-format=json --output="$R" --allow-destroy=$D \
		--name=x $J $args 2>"$RB_TMP/err" &&
		expect "dev-dax as fio: $args" "$(row "$R")" "$(row "$F")" ||
		fail "dev-dax $args: $(cat "$RB_TMP/err")"
done

# raidbench's blocks read back intact; a second run finds them still there
V="--name=v $J --allow-destroy=$D --rw=randwrite --bs=16k --size=4m --verify=crc32c"
# shellcheck disable=SC2086
"$RAIDBENCH" run --no-save --output-format=json --output="$R" $V 2>"$RB_TMP/err" &&
	expect "dev-dax write+verify" "$(row "$R")" "256/4194304,256/4194304" ||
	fail "dev-dax verify: $(cat "$RB_TMP/err")"
# shellcheck disable=SC2086
"$RAIDBENCH" run --no-save --output-format=json --output="$R" $V --verify_only=1 \
	2>"$RB_TMP/err" && expect "dev-dax verify_only of the last run's blocks" \
	"$(jq_py "$R" 'd["jobs"][0]["read"]["total_ios"]')" 256 ||
	fail "dev-dax verify_only: $(cat "$RB_TMP/err")"
# fio's own write and verify on the same device
fio --output-format=json --output="$F" --name=f $J --rw=randwrite --bs=16k --size=4m \
	--verify=crc32c >/dev/null 2>"$RB_TMP/ferr" &&
	expect "fio write+verify on $D" "$(row "$F")" "256/4194304,256/4194304" ||
	fail "fio verify: $(tail -2 "$RB_TMP/ferr") $(head -c 300 "$F")"
rb_done
