#!/bin/bash
# Bad job files get one line naming file:line and the option; exit 2; the
# target is left exactly as it was.
. "$(dirname "$0")/lib.sh"
rb_init
need_root
make_loop 16
DEV=$LOOP_DEV
before=$(sha256sum <"$DEV")

# expect_error NAME PATTERN JOBFILE-CONTENT [extra args]
expect_error() {
	local name=$1 pattern=$2 content=$3; shift 3
	printf '%s\n' "$content" >"$RB_TMP/bad.fio"
	"$RAIDBENCH" run "$@" "$RB_TMP/bad.fio" >"$RB_TMP/out" 2>"$RB_TMP/err"
	local rc=$?
	local lines
	lines=$(wc -l <"$RB_TMP/err")
	if [ $rc -eq 2 ] && grep -qE -- "$pattern" "$RB_TMP/err" && [ "$lines" -eq 1 ]; then
		pass "$name"
	else
		fail "$name (exit $rc, $lines lines): $(cat "$RB_TMP/err")"
	fi
	if [ "$(sha256sum <"$DEV")" != "$before" ]; then
		fail "$name changed the target"
	fi
}

expect_error "unknown option names file:line" "bad.fio:4: .*'blocksz'" \
"[global]
filename=$DEV
[w]
blocksz=4k
rw=write"
expect_error "unknown option suggests the right one" "did you mean 'blocksize'" \
"[w]
filename=$DEV
blocksz=4k"
expect_error "bad unit names the option" "bad.fio:3: .*'bs'.*'4q'" \
"[w]
filename=$DEV
bs=4q
rw=write"
expect_error "missing include" "bad.fio:2: .*missing-include.fio" \
"[w]
include missing-include.fio
filename=$DEV"
expect_error "bs not a multiple of the logical block size with direct=1" \
"block size 1000 is not a multiple of the logical block size.*512" \
"[w]
filename=$DEV
rw=write
bs=1000
direct=1
size=1m
ioengine=psync"
expect_error "missing target" "/dev/raidbench-missing.*does not exist" \
"[w]
filename=/dev/raidbench-missing
rw=write
size=1m"
expect_error "zonemode=zbd on a device that is not zoned said so" \
	"zonemode=zbd: $DEV is not a zoned block device" \
"[w]
filename=$DEV
zonemode=zbd"
expect_error "unsupported fio option said so" "'read_iolog'.*raidbench does not" \
"[w]
filename=$DEV
read_iolog=x.log"
expect_error "bad rw value lists the allowed ones" "'rw'.*randread" \
"[w]
filename=$DEV
rw=sideways"
expect_error "option outside a section" "bad.fio:1: " \
"bs=4k
[w]
filename=$DEV"
expect_error "bad command-line option named" "command line.*'iodepth'" \
"[w]
filename=$DEV
rw=read" --iodepth=deep
check "target unchanged after all bad jobs" [ "$(sha256sum <"$DEV")" = "$before" ]
rb_done
