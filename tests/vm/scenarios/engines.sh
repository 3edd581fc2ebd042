#!/bin/bash
# engines.sh - the engines that need devices a build machine lacks, side by
# side with Debian's fio 3.33 on the same device (same I/O counts per job and
# direction), and their bytes checked:
# * mtd on mtdram (1 MiB, 16 KiB erase blocks): examples/mtd.fio's trim,
#   write and trimwrite jobs; the example itself run by raidbench; a verified
#   write, a corrupted byte found; a trim leaves erased (0xff) flash; the guard
#   refuses the flash while UBI is attached to it and while jffs2 is mounted
#   on it, bytes unchanged.
# * libzbc on null_blk zoned (4 MiB zones) beside fio's psync with
#   zonemode=zbd: a sequential write over written (full) zones, which both
#   reset as they reach them, and a read; the zones full afterwards; a verified
#   write read back through libaio; psync with zonemode=zbd refused by name.
# * sg on scsi_debug's /dev/sgN: random writes and reads as fio's sg engine;
#   a verified write through sg read back through the block device (/dev/sdX).
# * io_uring_cmd (cmd_type=nvme) on qemu's NVMe, /dev/ng0n1, as fio's; a
#   verified write read back through /dev/nvme0n1.
# Runs inside the test guest (make check-vm); its modules are loaded here,
# with their parameters, from the guest's on-demand set.
# rb-vm: --disks=nvme:1x16M --timeout=300
. "$SRCDIR/tests/vm/guest-lib.sh"
vm_init
M=${RB_VM_MODULES:-}
[ -f "$M/ready" ] || rb_skip "no on-demand modules for this guest ('$M'): tests/vm/build-guest.sh makes them"
need_tool fio fio
EX=$SRCDIR/tests/fixtures/fio-examples/examples

load() {
	modprobe -d "$M" "$@" 2>"$RB_TMP/modprobe.err" && return 0
	fail "modprobe $*: $(head -2 "$RB_TMP/modprobe.err")"
	return 1
}
# wait_dev PATH: at most 10 s for the node to appear
wait_dev() {
	local i=0
	while [ ! -e "$1" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	[ -e "$1" ] || fail "$1 did not appear"
	[ -e "$1" ]
}
# counts FILE: "job:reads/writes/trims" of each job in a JSON report
counts() {
	jq_py "$1" '" ".join("%s:%d/%d/%d" % (j["jobname"], j["read"]["total_ios"], j["write"]["total_ios"], j["trim"]["total_ios"]) for j in d["jobs"])'
}
# side NAME FIO_ENGINE RB_ENGINE JOB...: the job by fio and by raidbench, counts compared
side() {
	local name=$1 fe=$2 re=$3 f r
	shift 3
	if ! fio --output-format=json --output="$RB_TMP/f.json" ${fe:+--ioengine=$fe} "$@" \
		>"$RB_TMP/f.out" 2>&1; then
		fail "$name: fio failed: $(tail -3 "$RB_TMP/f.out" | tr '\n' ' ')"
		return 1
	fi
	if ! "$RAIDBENCH" run --no-save --output-format=json --output="$RB_TMP/r.json" \
		"${ALLOW[@]}" ${re:+--ioengine=$re} "$@" >"$RB_TMP/r.out" 2>&1; then
		fail "$name: raidbench failed: $(tail -3 "$RB_TMP/r.out" | tr '\n' ' ')"
		return 1
	fi
	f=$(counts "$RB_TMP/f.json") r=$(counts "$RB_TMP/r.json")
	expect "$name: I/O counts (read/write/trim) as fio's: $f" "$r" "$f"
}
# rb NAME JOB...: a raidbench run that must succeed
rb() {
	local name=$1
	shift
	if "$RAIDBENCH" run --no-save "${ALLOW[@]}" "$@" >"$OUT" 2>&1; then pass "$name"
	else fail "$name: $(grep -v '^$' "$OUT" | tail -3 | tr '\n' ' ')"; fi
}
# refused NAME DEV WORDS JOB...: a write refused naming WORDS, the first MiB of DEV unchanged
refused() {
	local name=$1 dev=$2 words=$3 before rc
	shift 3
	before=$(head -c 1M "$dev" | md5sum)
	"$RAIDBENCH" run --no-save "${ALLOW[@]}" "$@" >"$OUT" 2>&1
	rc=$?
	if [ $rc -ne 0 ] && grep -qiE "$words" "$OUT"; then
		pass "$name: refused: $(grep -iE -m1 "$words" "$OUT" | cut -c1-150)"
	else
		fail "$name: exit $rc, want a refusal naming '$words': $(head -3 "$OUT" | tr '\n' ' ')"
	fi
	expect "$name: bytes unchanged" "$(head -c 1M "$dev" | md5sum)" "$before"
}

# ---- mtd: raw flash ----
# fio's examples/mtd.fio's jobs, trimwrite with one block size (fio 3.33 aborts on
# block_error_percentiles=1 here, and its trimwrite with 512 B writes after 16 KiB trims
# lags a block behind each trim: 31 writes fewer per pass than "each byte trimmed, then
# written"; raidbench runs the example itself below)
cat >"$RB_TMP/mtd.fio" <<'JOB'
[global]
gtod_reduce=1
filename=/dev/mtd0
ioengine=mtd
ignore_error=,EIO
blocksize=512,512,16384
skip_bad=1
[trim]
stonewall
rw=trim
[write]
stonewall
rw=write
[trimwrite]
stonewall
rw=trimwrite
bs=16k
loops=2
JOB
if load mtdram total_size=1024 erase_size=16 && wait_dev /dev/mtd0; then
	ALLOW=(--allow-destroy=/dev/mtd0)
	side "mtd" "" "" "$RB_TMP/mtd.fio"
	# (no pipeline after counts: jq_py's coprocess is not reachable from one)
	read -r want1 want2 _ <<<"$(counts "$RB_TMP/f.json")"
	rb "fio's examples/mtd.fio, as it is" --output-format=json --output="$RB_TMP/ex.json" \
		"$EX/mtd.fio"
	read -r got1 got2 got3 <<<"$(counts "$RB_TMP/ex.json")"
	expect "examples/mtd.fio: its trim and write jobs as fio's ($want1 $want2)" \
		"$got1 $got2" "$want1 $want2"
	# each byte trimmed, then written, 4 times
	expect "examples/mtd.fio: trimwrite, 64 erase blocks and 2048 writes a pass, 4 passes" \
		"$got3" "trimwrite:0/8192/256"
	rb "mtd: a verified write (md5) read back" --name=v --filename=/dev/mtd0 --ioengine=mtd \
		--rw=write --bs=4k --verify=md5
	printf 'X' | dd of=/dev/mtd0 bs=1 seek=70000 conv=notrunc 2>/dev/null
	if "$RAIDBENCH" run --no-save --name=v --filename=/dev/mtd0 --ioengine=mtd --rw=write \
		--bs=4k --verify=md5 --verify_only >"$OUT" 2>&1; then
		fail "mtd: a byte changed at 70000 and verify_only passed"
	else
		pass "mtd: verify_only finds the byte changed at 70000"
	fi
	rb "mtd: erased" --name=e --filename=/dev/mtd0 --ioengine=mtd --bs=16k --rw=trim
	expect "mtd: erased flash reads 0xff" "$(tr -d '\377' </dev/mtd0 | wc -c)" 0
	# the guard: UBI owns the flash it is attached to; jffs2 mounts it directly
	if load ubi mtd=0; then
		refused "mtd under UBI" /dev/mtd0 "UBI" --name=w --filename=/dev/mtd0 \
			--ioengine=mtd --bs=4k --size=64k --rw=write
		rmmod ubi 2>/dev/null
	fi
	rb "mtd: erased after UBI" --name=e --filename=/dev/mtd0 --ioengine=mtd --bs=16k --rw=trim
	mkdir -p "$RB_TMP/mnt"
	if load jffs2 && mount -t jffs2 mtd0 "$RB_TMP/mnt" 2>"$RB_TMP/mount.err"; then
		# jffs2 writes clean markers on the erased blocks from its own thread after the
		# mount (one CI run saw the first MiB change under a refused run): wait until
		# the flash holds still, so "unchanged" speaks of raidbench only
		# (the same first MiB for a whole second, 15 s at most)
		prev=$(head -c 1M /dev/mtd0 | md5sum) still=0
		for _ in $(seq 1 75); do
			[ "$still" -ge 5 ] && break
			sleep 0.2
			cur=$(head -c 1M /dev/mtd0 | md5sum)
			if [ "$cur" = "$prev" ]; then still=$((still + 1)); else still=0; fi
			prev=$cur
		done
		refused "mtd with jffs2 mounted" /dev/mtd0 "mounted" --name=w --filename=/dev/mtd0 \
			--ioengine=mtd --bs=4k --size=64k --rw=write
		umount "$RB_TMP/mnt"
	else
		fail "mount -t jffs2 mtd0: $(head -2 "$RB_TMP/mount.err" 2>/dev/null)"
	fi
fi

# ---- libzbc: a host-managed zoned disk ----
if load null_blk nr_devices=1 zoned=1 zone_size=4 gb=1 memory_backed=1 &&
	wait_dev /dev/nullb0; then
	ALLOW=(--allow-destroy=/dev/nullb0)
	expect "null_blk: a host-managed zoned disk" "$(cat /sys/block/nullb0/queue/zoned)" \
		host-managed
	Z=(--filename=/dev/nullb0 --zonemode=zbd --direct=1 --bs=64k --size=16m)
	# fio's write fills 4 zones; raidbench's finds them full and resets each as it comes
	printf '[w]\nrw=write\n[r]\nstonewall\nrw=read\n' >"$RB_TMP/zbd.fio"
	side "libzbc write, read (fio: psync, zonemode=zbd)" psync libzbc "${Z[@]}" "$RB_TMP/zbd.fio"
	expect "libzbc: 4 zones full after the write" \
		"$(blkzone report -c 4 /dev/nullb0 | grep -c '(fu)')" 4
	# fio resets full zone 0 and writes 1 MiB; raidbench writes the next MiB at the pointer
	side "libzbc 1 MiB into zone 0 (fio: psync, zonemode=zbd)" psync libzbc --name=w1 \
		"${Z[@]}" --size=4m --io_size=1m --rw=write
	expect "libzbc: zone 0 written to 2 MiB at its write pointer, zone 1 still full" \
		"$(blkzone report -c 2 /dev/nullb0 |
			sed -n 's/.*wptr \(0x[0-9a-f]*\).*(\([a-z][a-z]\)).*/\1 \2/p' |
			while read -r w c; do printf '%d %s ' "$w" "$c"; done)" "4096 oi 8192 fu "
	rb "libzbc: a verified write (md5) over 4 zones" --name=v "${Z[@]}" --ioengine=libzbc \
		--rw=write --verify=md5
	rb "libzbc: its blocks read back through libaio" --name=v --filename=/dev/nullb0 \
		--direct=1 --bs=64k --size=16m --ioengine=libaio --rw=write --verify=md5 --verify_only
	refused "psync with zonemode=zbd" /dev/nullb0 "ioengine=libzbc" --name=w "${Z[@]}" \
		--ioengine=psync --rw=write
fi

# a random write and a read job, for sg and io_uring_cmd
printf '[w]\nrw=randwrite\nbs=4k\n[r]\nstonewall\nrw=read\nbs=64k\n' >"$RB_TMP/wr.fio"

# ---- sg: SCSI generic on scsi_debug ----
if load scsi_debug dev_size_mb=16; then
	sg= sd=
	for i in $(seq 50); do
		for d in /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*:*/; do
			sg=$(ls "$d/scsi_generic" 2>/dev/null) sd=$(ls "$d/block" 2>/dev/null)
		done
		[ -n "$sg" ] && [ -n "$sd" ] && [ -e "/dev/$sg" ] && [ -e "/dev/$sd" ] && break
		sleep 0.2
	done
	if [ -n "$sg" ] && [ -e "/dev/$sg" ] && [ -e "/dev/$sd" ]; then
		ALLOW=(--allow-destroy=/dev/$sg)
		G=(--filename=/dev/$sg --size=4m)
		side "sg random writes, reads" sg sg "${G[@]}" "$RB_TMP/wr.fio"
		rb "sg: a verified write (md5) through /dev/$sg" --name=v "${G[@]}" --ioengine=sg \
			--rw=write --bs=16k --verify=md5
		rb "sg: its blocks read back through /dev/$sd (libaio)" --name=v --filename="/dev/$sd" \
			--size=4m --direct=1 --ioengine=libaio --rw=write --bs=16k --verify=md5 --verify_only
	else
		fail "scsi_debug: no sg node and disk ($(ls /sys/class/scsi_generic | tr '\n' ' '))"
	fi
fi

# ---- io_uring_cmd: NVMe pass-through on the generic node ----
if wait_dev /dev/ng0n1; then
	ALLOW=(--allow-destroy=/dev/ng0n1)
	U=(--filename=/dev/ng0n1 --cmd_type=nvme --size=4m --iodepth=4)
	side "io_uring_cmd random writes, reads" io_uring_cmd io_uring_cmd "${U[@]}" "$RB_TMP/wr.fio"
	rb "io_uring_cmd: a verified write (md5)" --name=v "${U[@]}" --ioengine=io_uring_cmd \
		--rw=write --bs=16k --verify=md5
	rb "io_uring_cmd: its blocks read back through /dev/nvme0n1 (libaio)" --name=v \
		--filename=/dev/nvme0n1 --size=4m --direct=1 --ioengine=libaio --rw=write --bs=16k \
		--verify=md5 --verify_only
fi
rb_done
