#!/bin/bash
# verify=crc32c/md5: a clean write verifies; one corrupted block of the
# backing file makes the read-back fail naming that block's offset.
. "$(dirname "$0")/lib.sh"
rb_init
need_tool python3 python3
F=$RB_TMP/v.dat

for v in crc32c md5; do
	if "$RAIDBENCH" run --name=v --filename="$F" --size=4m --bs=4k --rw=randwrite \
		--verify=$v --ioengine=libaio --iodepth=8 --direct=1 >/dev/null 2>"$RB_TMP/err"; then
		pass "verify=$v: clean write and read-back pass"
	else
		fail "verify=$v clean run: $(cat "$RB_TMP/err")"
	fi
done

# write with headers but without the read-back, corrupt block 300, then verify only
"$RAIDBENCH" run --name=v --filename="$F" --size=4m --bs=4k --rw=write --verify=crc32c \
	--do_verify=0 --ioengine=psync >/dev/null 2>"$RB_TMP/err" || fail "write phase: $(cat "$RB_TMP/err")"
printf 'CORRUPT!' | dd of="$F" bs=1 seek=$((300 * 4096 + 1000)) conv=notrunc status=none
"$RAIDBENCH" run --name=v --filename="$F" --size=4m --bs=4k --rw=write --verify=crc32c \
	--verify_only=1 --ioengine=psync >/dev/null 2>"$RB_TMP/err"
rc=$?
check "corrupted block fails the verify (exit 1)" [ $rc -eq 1 ]
check "the message names the block's offset 1228800" grep -q "offset 1228800" "$RB_TMP/err"
check "one bad block reported, no others" [ "$(grep -c 'offset' "$RB_TMP/err")" -eq 1 ]
rb_done
