#!/bin/bash
# ioengine=nbd against nbdkit and ioengine=libiscsi against tgt's user-space
# target (tgtd, no kernel modules): the same I/O counts as fio's nbd engine,
# data that lands where a local engine finds it (and the reverse), real
# depth, the write guard on an export holding a file system (at its start)
# or RAID metadata (at its end), and the errors of a missing server, LUN or
# malformed URI. Every server this script starts is stopped on exit.
. "$(dirname "$0")/lib.sh"
rb_init
need_tool python3 python3
need_tool nbdkit nbdkit
D=$RB_TMP
J=$D/out.json
NBD_PIDS=()
TGT_PID= TGT_CTL=

stop_servers() {
	local p
	for p in "${NBD_PIDS[@]}"; do kill "$p" 2>/dev/null; done
	if [ -n "$TGT_PID" ]; then
		# tgtd leaves at SIGINT once it serves no target
		tgtadm -C "$TGT_CTL" --lld iscsi --op delete --mode target --tid 1 --force \
			>/dev/null 2>&1
		kill -INT "$TGT_PID" 2>/dev/null
		for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$TGT_PID" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$TGT_PID" 2>/dev/null
		rm -f "/var/run/tgtd/socket.$TGT_CTL" "/var/run/tgtd/socket.$TGT_CTL.lock"
	fi
	rb_cleanup
}
trap stop_servers EXIT

# nbd_serve NAME PLUGIN ARGS...: an nbdkit on $D/NAME.sock; its pid is kept for the trap
nbd_serve() {
	local name=$1; shift
	nbdkit -U "$D/$name.sock" -P "$D/$name.pid" "$@" || return 1
	for _ in $(seq 50); do [ -s "$D/$name.pid" ] && [ -S "$D/$name.sock" ] && break; sleep 0.1; done
	NBD_PIDS+=("$(cat "$D/$name.pid")")
}
uri() { echo "nbd+unix:///?socket=$D/$1.sock"; }
rb() { "$RAIDBENCH" run --no-save "$@" 2>"$D/err" >"$D/out"; }
rb_json() { "$RAIDBENCH" run --no-save --output-format=json --output="$J" "$@" 2>"$D/err"; }
# "ios/bytes" per direction (read,write,trim) of a JSON file, then the % of I/Os at depth 16
totals() {
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]
print(",".join("%d/%d" % (j[d]["total_ios"], j[d]["io_bytes"]) for d in ("read","write","trim")),
      j.get("iodepth_level", {}).get("16", 0))' "$1"
}

# ---- nbd ------------------------------------------------------------------
nbd_serve mem memory 64M || rb_skip "nbdkit does not start here"
M=$(uri mem)

# the same bounded jobs as fio's nbd engine, on the same export
if fio --enghelp=nbd >/dev/null 2>&1; then
	for job in "--rw=randrw --bs=4k --iodepth=8 --size=16m" \
		"--rw=write --bsrange=4k-64k --iodepth=4 --size=8m" \
		"--rw=read --bs=64k --iodepth=16 --size=32m --offset=16m" \
		"--rw=randtrim --bs=64k --iodepth=4 --size=16m"; do
		# shellcheck disable=SC2086
		if rb_json --name=p --ioengine=nbd --uri="$M" $job; then
			r=$(totals "$J")
			r=${r% *}
			# shellcheck disable=SC2086
			fio --name=p --ioengine=nbd --uri="$M" $job --output-format=json \
				--output="$D/fio.json" >/dev/null 2>&1
			f=$(totals "$D/fio.json")
			f=${f% *}
			check "nbd '$job': total_ios/io_bytes as fio's ($r vs $f)" [ "$r" = "$f" ]
		else fail "nbd '$job': $(cat "$D/err")"; fi
	done
else
	echo "# fio here has no nbd engine: the side-by-side counts are not compared"
fi

# iodepth is honoured: with 16 allowed, most I/Os go out with 16 in flight
if rb_json --name=q --ioengine=nbd --uri="$M" --rw=randread --bs=4k --iodepth=16 --size=16m; then
	d16=$(totals "$J")
	d16=${d16#* }
	check "nbd keeps 16 I/Os in flight (depth 16: $d16%)" [ "${d16%%.*}" -gt 50 ]
else fail "nbd depth run: $(cat "$D/err")"; fi

# fsync= and end_fsync= reach the server as NBD flushes (nbdkit's log filter counts them)
nbd_serve flush --filter=log memory 16M logfile="$D/flush.log"
if rb --ioengine=nbd --uri="$(uri flush)" --name=s --rw=randwrite --bs=4k --size=4m \
	--fsync=8 --end_fsync=1 --iodepth=4; then
	n=$(grep -c '\.\.\.Flush .*return=0' "$D/flush.log")
	check "1024 writes with fsync=8 and end_fsync send 129 flushes ($n)" [ "$n" = 129 ]
else fail "nbd fsync run: $(cat "$D/err")"; fi

# data lands where a local engine finds it, and the reverse, through a file export
truncate -s 32M "$D/data.img"
nbd_serve data file "$D/data.img"
F=$(uri data)
V="--name=v --rw=randwrite --bs=4k --size=8m --iodepth=8 --verify=crc32c"
# shellcheck disable=SC2086
if rb --ioengine=nbd --uri="$F" $V >/dev/null; then
	pass "nbd write+verify through the export"
	# shellcheck disable=SC2086
	check "psync on the backing file verifies what nbd wrote" \
		rb --ioengine=psync --filename="$D/data.img" $V --verify_only
else fail "nbd write+verify: $(cat "$D/err")"; fi
# shellcheck disable=SC2086
rb --ioengine=psync --filename="$D/data.img" $V --randseed=7 >/dev/null &&
	check "nbd verifies what psync wrote on the backing file" \
		rb --ioengine=nbd --uri="$F" $V --randseed=7 --verify_only >/dev/null ||
	fail "psync write: $(cat "$D/err")"
dd if=/dev/urandom of="$D/data.img" bs=4k count=1 seek=3 conv=notrunc 2>/dev/null
# shellcheck disable=SC2086
rb --ioengine=nbd --uri="$F" $V --randseed=7 --verify_only >/dev/null &&
	fail "a corrupted block verified through nbd" ||
	check "a corrupted block is found through nbd (offset 12288)" grep -q "offset 12288" "$D/err"

# the write guard: an export with an ext4 file system is refused, nothing changes
truncate -s 16M "$D/ext4.img"
mkfs.ext4 -q -F -L precious "$D/ext4.img"
sum0=$(md5sum <"$D/ext4.img")
nbd_serve ext4 file "$D/ext4.img"
E=$(uri ext4)
rb --ioengine=nbd --uri="$E" --name=g --rw=write --bs=64k --size=8m
check "nbd write to an ext4 export exits 2" [ $? = 2 ]
check "the refusal names ext4 and how to consent" \
	grep -q "refusing to write $E: it has an ext4 file system labelled 'precious'; to destroy its contents, add --allow-destroy=$E" "$D/err"
check "nbd trim of an ext4 export is refused too" \
	bash -c "! '$RAIDBENCH' run --no-save --ioengine=nbd --uri='$E' --name=g --rw=trim --bs=64k --size=8m >/dev/null 2>&1"
check "the ext4 image is unchanged (0 bytes written)" [ "$(md5sum <"$D/ext4.img")" = "$sum0" ]
check "reading the ext4 export is allowed" \
	rb --ioengine=nbd --uri="$E" --name=g --rw=read --bs=64k --size=8m --output-format=terse
check "--readonly refuses a write to a blank export" \
	bash -c "! '$RAIDBENCH' run --no-save --readonly --ioengine=nbd --uri='$M' --name=g --rw=write --size=1m >/dev/null 2>&1"
# RAID metadata in the last sectors (Intel IMSM): the tail is probed as well
truncate -s 16M "$D/tail.img"
printf 'Intel Raid ISM Cfg Sig. 1.0.00' |
	dd of="$D/tail.img" bs=1 seek=$((16 * 1024 * 1024 - 1024)) conv=notrunc 2>/dev/null
nbd_serve tail file "$D/tail.img"
T=$(uri tail)
sumt=$(md5sum <"$D/tail.img")
rb --ioengine=nbd --uri="$T" --name=g --rw=write --size=1m >/dev/null
check "an export with RAID metadata at its end is refused (isw_raid_member)" \
	grep -q "refusing to write $T: it is a RAID member (isw_raid_member)" "$D/err"
check "the RAID-tailed image is unchanged" [ "$(md5sum <"$D/tail.img")" = "$sumt" ]
rb --ioengine=nbd --uri="$E" --name=g --rw=write --bs=64k --size=1m --allow-destroy="$E" \
	--output-format=terse >/dev/null
check "--allow-destroy=URI consents: the ext4 export is written" \
	[ "$(md5sum <"$D/ext4.img")" != "$sum0" ]

# the server going away mid-run: exit 1 with what ran so far, no hang
nbd_serve gone memory 16M
(sleep 0.5; kill "$(cat "$D/gone.pid")") &
# (a hang would outlast runtime=20: timeout turns it into a failure)
timeout -s KILL 40 "$RAIDBENCH" run --no-save --ioengine=nbd --uri="$(uri gone)" --name=z \
	--rw=randrw --bs=4k --time_based --runtime=20 >"$D/out" 2>"$D/err"
check "nbd: a server that dies mid-run ends the job with exit 1" [ $? = 1 ]
check "nbd: the lost connection is named" grep -q "transport endpoint\|Broken pipe\|Connection reset" "$D/err"
check "nbd: the partial results are printed" grep -q "IOPS=" "$D/out"

# errors: no server, an empty socket= (an unset ${VAR}), a malformed URI at file:line
rb --ioengine=nbd --uri="nbd+unix:///?socket=$D/none.sock" --name=e --rw=read --size=1m
check "no NBD server: exit 2 naming the URI" [ $? = 2 ]
check "no NBD server: the reason" grep -q "cannot connect to the NBD server.*No such file" "$D/err"
printf '[global]\nioengine=nbd\nuri=nbd+unix:///?socket=${RB_UNSET_SOCKET}\n[j]\nrw=read\nsize=1m\n' \
	>"$D/unset.fio"
rb "$D/unset.fio"
check "an unset \${VAR} in uri= is named as such" grep -q "socket= path is empty" "$D/err"
printf '[j]\nioengine=nbd\nrw=read\nuri=http://example.com/disk\n' >"$D/bad.fio"
rb --parse-only "$D/bad.fio"
check "a malformed uri= is refused at parse time, file:line and option" \
	grep -q "bad.fio:1: job 'j': option 'uri': 'http://example.com/disk' is not an NBD URI" "$D/err"
printf '[j]\nioengine=nbd\nrw=read\n' >"$D/nouri.fio"
rb --parse-only "$D/nouri.fio"
check "ioengine=nbd without uri= is refused at parse time" grep -q "needs option 'uri'" "$D/err"

# ---- libiscsi against tgtd ------------------------------------------------
if ! command -v tgtd >/dev/null || [ "$(id -u)" -ne 0 ]; then
	echo "# tgtd (Debian tgt) missing or not root: the libiscsi part is skipped"
	rb_done
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
TGT_CTL=$((1000 + $$ % 30000))
IQN=iqn.2016-02.com.fio:system:fio
tgtd -f --iscsi portal=127.0.0.1:"$port" -C "$TGT_CTL" >"$D/tgtd.log" 2>&1 &
TGT_PID=$!
disown "$TGT_PID"	# killed on purpose below: no job-control notice
tgt() { tgtadm -C "$TGT_CTL" --lld iscsi "$@"; }
for _ in $(seq 50); do tgt --op show --mode target >/dev/null 2>&1 && break; sleep 0.1; done
truncate -s 32M "$D/lun.img"
cp "$D/ext4.img" "$D/lun2.img"
mkfs.ext4 -q -F -L lun2 "$D/lun2.img"
if ! { tgt --op new --mode target --tid 1 -T "$IQN" &&
	tgt --op new --mode logicalunit --tid 1 --lun 1 -b "$D/lun.img" &&
	tgt --op update --mode logicalunit --tid 1 --lun 1 --params thin_provisioning=1 &&
	tgt --op new --mode logicalunit --tid 1 --lun 2 -b "$D/lun2.img" &&
	tgt --op bind --mode target --tid 1 -I ALL; } >"$D/tgtadm.log" 2>&1; then
	fail "tgtd does not serve a LUN here: $(cat "$D/tgtd.log" "$D/tgtadm.log")"
	rb_done
fi
L="iscsi\\://127.0.0.1\\:$port/${IQN//:/\\:}"
V="--name=i --rw=randwrite --bs=4k --size=16m --iodepth=16 --verify=crc32c"
# shellcheck disable=SC2086
if rb_json --ioengine=libiscsi --filename="$L/1" $V; then
	pass "libiscsi write+verify"
	t=$(totals "$J")
	check "libiscsi wrote and read 16 MiB (4096 I/Os each way)" \
		[ "${t% *}" = "4096/16777216,4096/16777216,0/0" ]
	check "libiscsi keeps up to 16 I/Os in flight (depth 16: ${t#* }%)" [ "${t#* }" != 0 ]
	# shellcheck disable=SC2086
	check "the bytes landed in the backing file (psync verifies them there)" \
		rb --ioengine=psync --filename="$D/lun.img" $V --verify_only
	dd if=/dev/urandom of="$D/lun.img" bs=4k count=1 seek=100 conv=notrunc 2>/dev/null
	# shellcheck disable=SC2086
	rb --ioengine=libiscsi --filename="$L/1" $V --verify_only >/dev/null
	check "a block corrupted in the backing file is found through iSCSI (offset 409600)" \
		grep -q "offset 409600" "$D/err"
else fail "libiscsi write+verify: $(cat "$D/err")"; fi
if rb_json --ioengine=libiscsi --filename="$L/1" --name=s --rw=write --bs=4k --size=1m \
	--fsync=8 --end_fsync=1; then
	n=$(json_get "$J" "d['jobs'][0]['sync']['total_ios']")
	check "libiscsi fsync=8: 32 SYNCHRONIZE CACHE commands counted ($n)" [ "$n" = 32 ]
else fail "libiscsi fsync run: $(cat "$D/err")"; fi
sum2=$(md5sum <"$D/lun2.img")
rb --ioengine=libiscsi --filename="$L/2" --name=g --rw=write --size=1m >/dev/null
check "libiscsi write to an ext4 LUN is refused, naming it" \
	grep -q "refusing to write iscsi://127.0.0.1:$port/$IQN/2: it has an ext4 file system labelled 'lun2'" "$D/err"
check "the ext4 LUN is unchanged" [ "$(md5sum <"$D/lun2.img")" = "$sum2" ]
rb --ioengine=libiscsi --filename="$L/7" --name=e --rw=read --size=1m
check "libiscsi: a LUN the target lacks is named" grep -q "LOGICAL_UNIT_NOT_SUPPORTED" "$D/err"
rb --ioengine=libiscsi --filename="iscsi\\://127.0.0.1\\:1/${IQN//:/\\:}/1" --name=e --rw=read --size=1m
check "libiscsi: no target at the portal is said so" \
	grep -q "no iSCSI target answers at 127.0.0.1:1: Connection refused" "$D/err"
# trim is SCSI UNMAP: tgt punches the range out of the backing file
if rb --ioengine=libiscsi --filename="$L/1" --name=t --rw=trim --bs=64k --size=1m; then
	check "libiscsi trim zeroes the first MiB of the backing file" \
		cmp -s -n 1048576 "$D/lun.img" /dev/zero
	check "libiscsi trim leaves the second MiB alone" \
		bash -c "! cmp -s -i 1048576 -n 1048576 '$D/lun.img' /dev/zero"
else fail "libiscsi trim: $(cat "$D/err")"; fi

# the target going away mid-run: exit 1 with what ran so far, no endless reconnect
(sleep 0.5; kill -KILL "$TGT_PID") &
timeout -s KILL 40 "$RAIDBENCH" run --no-save --ioengine=libiscsi --filename="$L/1" --name=z \
	--rw=randrw --bs=4k --time_based --runtime=20 >"$D/out" 2>"$D/err"
check "libiscsi: a target that dies mid-run ends the job with exit 1" [ $? = 1 ]
check "libiscsi: the partial results are printed" grep -q "IOPS=" "$D/out"
printf '[j]\nioengine=libiscsi\nrw=read\nfilename=/dev/sda\n' >"$D/badi.fio"
rb --parse-only "$D/badi.fio"
check "a filename that is no iSCSI URL is refused at parse time" \
	grep -q "badi.fio:1: job 'j': option 'filename': '/dev/sda' is not an iSCSI URL" "$D/err"
rb_done
