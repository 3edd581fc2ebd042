#!/bin/bash
# verify=crc32c/md5: a clean write verifies; one corrupted block of the
# backing file makes the read-back fail naming that block's offset. Writes of
# mixed sizes (bssplit, bsrange) verify too, with a header per
# verify_interval; the null engine's verify passes as fio's does; a size too
# small for a header is refused while parsing.
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

# mixed write sizes: a header every verify_interval (the sizes' gcd) bytes
for bsopt in --bssplit=4k/50:16k/30:64k/20 --bsrange=4k-32k; do
	for rw in write randwrite; do
		if "$RAIDBENCH" run --name=v --filename="$F" --size=4m $bsopt --rw=$rw --verify=md5 \
			--ioengine=libaio --iodepth=8 --direct=1 >/dev/null 2>"$RB_TMP/err"; then
			pass "verify with $bsopt rw=$rw: clean write and read-back pass"
		else
			fail "verify with $bsopt rw=$rw: $(cat "$RB_TMP/err")"
		fi
	done
done
rm -f "$F"
"$RAIDBENCH" run --name=v --filename="$F" --size=4m --bssplit=4k/50:64k/50 --rw=write \
	--verify=crc32c --do_verify=0 --ioengine=psync >/dev/null 2>"$RB_TMP/err" ||
	fail "bssplit write phase: $(cat "$RB_TMP/err")"
printf 'CORRUPT!' | dd of="$F" bs=1 seek=$((300 * 4096 + 1000)) conv=notrunc status=none
"$RAIDBENCH" run --name=v --filename="$F" --size=4m --bssplit=4k/50:64k/50 --rw=write \
	--verify=crc32c --verify_only=1 --ioengine=psync >/dev/null 2>"$RB_TMP/err"
rc=$?
check "bssplit: the corrupted chunk fails the verify (exit 1)" [ $rc -eq 1 ]
check "bssplit: the message names the chunk's offset 1228800" grep -q "offset 1228800" "$RB_TMP/err"

# a job that only reads checks what it reads, as fio's (t0003): 64k reads of 4k-written blocks
rm -f "$F"
"$RAIDBENCH" run --name=v --filename="$F" --size=1m --bs=4k --rw=write --verify=md5 \
	--do_verify=0 --ioengine=psync >/dev/null 2>"$RB_TMP/err" || fail "write: $(cat "$RB_TMP/err")"
"$RAIDBENCH" run --name=r --filename="$F" --size=1m --bs=64k --rw=read --verify=md5 \
	--ioengine=psync >/dev/null 2>"$RB_TMP/err"
check "a read job with verify passes on good data" [ $? -eq 0 ]
printf 'CORRUPT!' | dd of="$F" bs=1 seek=70000 conv=notrunc status=none
"$RAIDBENCH" run --name=r --filename="$F" --size=1m --bs=64k --rw=read --verify=md5 \
	--ioengine=psync >/dev/null 2>"$RB_TMP/err"
check "a read job with verify fails on the corrupted block (exit 1)" [ $? -eq 1 ]
check "and names its offset 69632" grep -q "offset 69632" "$RB_TMP/err"

# the null engine moves no data: nothing to check, as fio (which passes this job)
if "$RAIDBENCH" run --name=v --ioengine=null --rw=write --size=1m --verify=md5 >/dev/null \
	2>"$RB_TMP/err"; then
	pass "null engine with verify=md5 passes"
else
	fail "null engine with verify=md5: $(cat "$RB_TMP/err")"
fi
# a header does not fit 256-byte chunks: refused while parsing, before anything runs
"$RAIDBENCH" run --parse-only --name=v --filename="$F" --size=1m --bssplit=256/50:4k/50 \
	--rw=write --verify=md5 >/dev/null 2>"$RB_TMP/err"
rc=$?
check "verify with 256-byte writes is refused by --parse-only (exit 2)" [ $rc -eq 2 ]
check "the refusal says why" grep -q "verify needs write blocks of at least 512 bytes" "$RB_TMP/err"
# fio's other checksums are taken (checked with raidbench's crc32c header), with a note
"$RAIDBENCH" run --name=v --filename="$F" --size=1m --rw=write --verify=sha256 >/dev/null \
	2>"$RB_TMP/err"
rc=$?
check "verify=sha256 runs and verifies" [ $rc -eq 0 ]
check "a run's stderr stays empty (fio's harness checks it)" [ ! -s "$RB_TMP/err" ]
"$RAIDBENCH" run --parse-only --name=v --filename="$F" --size=1m --rw=write --verify=sha256 \
	>/dev/null 2>"$RB_TMP/err"
check "verify=sha256 is noted by --parse-only" \
	grep -q "option 'verify': blocks carry raidbench's own verify header" "$RB_TMP/err"
rb_done
