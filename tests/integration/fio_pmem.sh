#!/bin/bash
# The persistent-memory engines (libpmem, pmemblk, dev-dax) on files in a
# temp dir: the same per-direction total_ios and io_bytes as fio 3.33, data
# that lands where it should (read back through another engine, or through
# libpmemblk itself), pools shared with fio both ways, and the refusals.
# fio calls a file persistent memory only with PMEM_IS_PMEM_FORCE=1 (these
# machines have none); raidbench runs both with it and without it (msync).
# raidbench's verify header is its own layout, not fio's, so neither program
# verifies the other's verify blocks: pools cross over instead.
. "$(dirname "$0")/lib.sh"
rb_init
need_tool fio fio
need_tool python3 python3
D=$RB_TMP/d
J=$RB_TMP/out.json
mkdir -p "$D"
EX=$SRCDIR/tests/fixtures/fio-examples/examples

run_json() { "$RAIDBENCH" run --output-format=json --output="$J" "$@" 2>"$RB_TMP/err"; }
# counts FILE: "job:r_ios/r_bytes,w_ios/w_bytes;..." for every job of a fio-style JSON file
counts() {
	python3 -c '
import json, sys
t = open(sys.argv[1]).read()
d = json.loads(t[t.index("{"):])	# fio prints pmemblk notes before its JSON
print(";".join("%s:%d/%d,%d/%d" % (j["jobname"], j["read"]["total_ios"], j["read"]["io_bytes"],
      j["write"]["total_ios"], j["write"]["io_bytes"]) for j in d["jobs"]))' "$1"
}
# fio_json OUT ARGS...: fio's JSON for the job, run from $D
fio_json() {
	local out=$1; shift
	(cd "$D" && PMEM_IS_PMEM_FORCE=1 fio --output-format=json "$@") >"$out" 2>"$RB_TMP/fioerr"
}
# pool_dump POOL OUT: every block of a pmemblk pool, read by libpmemblk, in order
pool_dump() {
	python3 - "$1" "$2" <<'EOF'
import ctypes, sys
L = ctypes.CDLL("libpmemblk.so.1")
L.pmemblk_open.restype = ctypes.c_void_p
L.pmemblk_open.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
for f in ("pmemblk_bsize", "pmemblk_nblock"):
    getattr(L, f).restype = ctypes.c_size_t
    getattr(L, f).argtypes = [ctypes.c_void_p]
L.pmemblk_read.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_longlong]
L.pmemblk_close.argtypes = [ctypes.c_void_p]
p = L.pmemblk_open(sys.argv[1].encode(), 0)
if not p:
    sys.exit("cannot open the pool " + sys.argv[1])
bs, n = L.pmemblk_bsize(p), L.pmemblk_nblock(p)
buf = ctypes.create_string_buffer(bs)
with open(sys.argv[2], "wb") as out:
    for i in range(n):
        if L.pmemblk_read(p, buf, i):
            sys.exit("pmemblk_read of block %d failed" % i)
        out.write(buf.raw)
L.pmemblk_close(p)
EOF
}

# fio's own examples parse
for ex in libpmem pmemblk dev-dax; do
	(cd "$EX" && "$RAIDBENCH" run --parse-only "$ex.fio") >/dev/null 2>"$RB_TMP/err" &&
		pass "fio's $ex.fio parses" || fail "fio's $ex.fio refused: $(cat "$RB_TMP/err")"
done

# ---- libpmem: the same counts as fio, forced pmem and the msync fallback
for args in "--rw=randwrite --bs=4k --size=2m --direct=1 --sync=1" \
	"--rw=write --bs=64k --size=4m" \
	"--rw=randrw --rwmixread=70 --bs=8k --size=2m --direct=1" \
	"--rw=read --bs=16k --size=1m" \
	"--rw=randwrite --bs=4k --size=1m --fsync=8"; do
	rm -f "$D"/*
	# shellcheck disable=SC2086
	fio_json "$RB_TMP/fio.json" --name=x --thread --ioengine=libpmem --filename="$D/f" $args ||
		{ fail "fio libpmem $args: $(cat "$RB_TMP/fioerr")"; continue; }
	want=$(counts "$RB_TMP/fio.json")
	for force in 1 0; do
		rm -f "$D/g"
		# shellcheck disable=SC2086
		if PMEM_IS_PMEM_FORCE=$force run_json --name=x --thread --ioengine=libpmem \
			--filename="$D/g" $args; then
			check "libpmem as fio (PMEM_IS_PMEM_FORCE=$force): $args ($want)" \
				[ "$(counts "$J")" = "$want" ]
		else fail "libpmem $args: $(cat "$RB_TMP/err")"; fi
	done
done

# libpmem's writes land where psync reads them, and the other way round
F=$D/v.dat
rm -f "$F"
V="--name=v --filename=$F --size=2m --bs=8k --rw=randwrite --verify=crc32c"
for force in 1 0; do
	rm -f "$F"
	# shellcheck disable=SC2086
	if PMEM_IS_PMEM_FORCE=$force run_json $V --ioengine=libpmem --do_verify=0 --sync=1; then
		# shellcheck disable=SC2086
		run_json $V --ioengine=psync --verify_only=1 &&
			check "psync verifies libpmem's blocks (force=$force)" \
				[ "$(json_get "$J" "d['jobs'][0]['read']['total_ios']")" = 256 ] ||
			fail "psync verify of libpmem's blocks: $(cat "$RB_TMP/err")"
	else fail "libpmem verify write: $(cat "$RB_TMP/err")"; fi
done
rm -f "$F"
# shellcheck disable=SC2086
run_json $V --ioengine=psync --do_verify=0 || fail "psync verify write: $(cat "$RB_TMP/err")"
# shellcheck disable=SC2086
run_json $V --ioengine=libpmem --verify_only=1 &&
	check "libpmem reads psync's blocks intact" \
		[ "$(json_get "$J" "d['jobs'][0]['read']['total_ios']")" = 256 ] ||
	fail "libpmem verify of psync's blocks: $(cat "$RB_TMP/err")"
# a block changed behind its back: the read-back says so
printf 'XXXXXXXX' | dd of="$F" bs=1 seek=$((8192 * 37 + 100)) conv=notrunc 2>/dev/null
# shellcheck disable=SC2086
run_json $V --ioengine=libpmem --verify_only=1 && fail "libpmem verified a changed block" ||
	check "libpmem verify catches the changed block at 303104" grep -q "303104" "$RB_TMP/err"

# libpmem refusals, by name
"$RAIDBENCH" run --name=x --ioengine=libpmem --filename="$D/f" --size=1m --bs=512 --fsync=4 \
	--rw=write >/dev/null 2>"$RB_TMP/err" && fail "libpmem bs=512 fsync=4 ran" ||
	check "libpmem: fsync= with a block under a page refused" \
		grep -q "libpmem: with fsync= or fdatasync= the block size must be a multiple of the page size" "$RB_TMP/err"
"$RAIDBENCH" run --name=x --ioengine=libpmem --filename="$D/f" --size=1m --rw=trim \
	>/dev/null 2>"$RB_TMP/err" && fail "libpmem trim ran" ||
	check "libpmem trim fails with EINVAL, as fio's" grep -q "Invalid argument" "$RB_TMP/err"

# libpmem on a block device: refused at setup by name (fio's pmem_map_file refuses it at open),
# before anything is written
if [ "$(id -u)" = 0 ] && head -c 8M /dev/urandom >"$D/blk.img" &&
	L=$(losetup -f --show --direct-io=on "$D/blk.img" 2>/dev/null); then
	RB_LOOPS+=("$L")
	sum=$(md5sum <"$D/blk.img")
	"$RAIDBENCH" run --no-save --name=x --ioengine=libpmem --filename="$L" --rw=write --bs=4k \
		--size=1m >/dev/null 2>"$RB_TMP/err"
	rc=$?
	check "libpmem on $L: refused with exit 2 (got $rc)" [ "$rc" = 2 ]
	check "libpmem on $L: the message names the engine, the device and why" grep -qF \
		"job 'x': ioengine=libpmem cannot use $L: it is a block device, and libpmem maps regular files" \
		"$RB_TMP/err"
	check "libpmem on $L: nothing written" [ "$(md5sum <"$D/blk.img")" = "$sum" ]
	fio --name=x --ioengine=libpmem --filename="$L" --rw=write --bs=4k --size=1m \
		>"$RB_TMP/fioerr" 2>&1
	check "fio refuses libpmem on $L too" grep -q "file type 060000 not supported" "$RB_TMP/fioerr"
	check "... and wrote nothing either" [ "$(md5sum <"$D/blk.img")" = "$sum" ]
	losetup -d "$L"
fi

# ---- pmemblk: pools made by either program, the same counts, the data in the pool
# (off pmem libpmemblk msyncs every block: forced, a run takes a moment, not seconds)
export PMEM_IS_PMEM_FORCE=1
P=$D/pool
rm -f "$D"/*
fio_json "$RB_TMP/fio.json" --name=p --thread --ioengine=pmemblk --rw=randwrite --bs=4k \
	--size=4m --filename="$P.fio,4096,32" || fail "fio pmemblk create: $(cat "$RB_TMP/fioerr")"
if run_json --name=p --thread --ioengine=pmemblk --rw=randwrite --bs=4k --size=4m \
	--filename="$P.rb,4096,32"; then
	check "pmemblk create+randwrite as fio ($(counts "$RB_TMP/fio.json"))" \
		[ "$(counts "$J")" = "$(counts "$RB_TMP/fio.json")" ]
	check "pmemblk made a 32 MiB pool file" [ "$(stat -c %s "$P.rb")" = 33554432 ]
else fail "pmemblk create: $(cat "$RB_TMP/err")"; fi
# each reads the whole pool the other made (the pool's usable blocks are the region)
fio_json "$RB_TMP/fio.json" --name=p --thread --ioengine=pmemblk --rw=read --bs=4k \
	--filename="$P.rb" || fail "fio read of raidbench's pool: $(cat "$RB_TMP/fioerr")"
if run_json --name=p --thread --ioengine=pmemblk --rw=read --bs=4k --filename="$P.fio"; then
	check "pmemblk reads fio's pool as fio reads raidbench's ($(counts "$RB_TMP/fio.json"))" \
		[ "$(counts "$J")" = "$(counts "$RB_TMP/fio.json")" ]
else fail "raidbench read of fio's pool: $(cat "$RB_TMP/err")"; fi
# fio writes and verifies its own data in raidbench's pool; raidbench in fio's
fio_json "$RB_TMP/fio.json" --name=p --thread --ioengine=pmemblk --rw=randwrite --bs=8k \
	--size=2m --verify=crc32c --filename="$P.rb" &&
	check "fio verifies what it wrote in raidbench's pool" \
		[ "$(counts "$RB_TMP/fio.json")" = "p:256/2097152,256/2097152" ] ||
	fail "fio verify in raidbench's pool: $(cat "$RB_TMP/fioerr")"
run_json --name=p --thread --ioengine=pmemblk --rw=randwrite --bs=8k --size=2m --verify=crc32c \
	--filename="$P.fio" && check "raidbench verifies what it wrote in fio's pool" \
	[ "$(counts "$J")" = "p:256/2097152,256/2097152" ] ||
	fail "raidbench verify in fio's pool: $(cat "$RB_TMP/err")"
# what raidbench wrote is in the pool's blocks as libpmemblk reads them: psync verifies a dump
if pool_dump "$P.fio" "$D/dump" 2>"$RB_TMP/err"; then
	run_json --name=p --filename="$D/dump" --size=2m --bs=8k --rw=randwrite --verify=crc32c \
		--verify_only=1 --ioengine=psync &&
		check "psync verifies raidbench's blocks read out of the pool by libpmemblk" \
			[ "$(json_get "$J" "d['jobs'][0]['read']['total_ios']")" = 256 ] ||
		fail "psync verify of the pool dump: $(cat "$RB_TMP/err")"
else fail "pool dump: $(cat "$RB_TMP/err")"; fi

# fio's example's shape: numjobs share one pool, stonewalled groups, unlink=1 in the last
cat >"$D/pb.fio" <<EOF
[global]
bs=4k
ioengine=pmemblk
thread
numjobs=4
size=2m
filename=$P.ex,4096,32
[w]
rw=randwrite
stonewall
[r]
rw=randread
stonewall
unlink=1
EOF
fio_json "$RB_TMP/fio.json" "$D/pb.fio" || fail "fio pb.fio: $(cat "$RB_TMP/fioerr")"
if run_json "$D/pb.fio"; then
	# fio 3.33's first reader unlinks the pool under its siblings: compare the writers
	w=$(counts "$RB_TMP/fio.json" | tr ';' '\n' | grep '^w:' | tr '\n' ';')
	check "pmemblk shared pool: writers as fio's ($w)" \
		[ "$(counts "$J" | tr ';' '\n' | grep '^w:' | tr '\n' ';')" = "$w" ]
	check "pmemblk shared pool: 4 readers read 512 blocks each" \
		[ "$(counts "$J" | tr ';' '\n' | grep -c '^r:512/2097152,0/0$')" = 4 ]
	check "pmemblk unlink=1 removed the pool" [ ! -e "$P.ex" ]
else fail "raidbench pb.fio: $(cat "$RB_TMP/err")"; fi
run_json --name=p --thread --ioengine=pmemblk --rw=write --size=1m --filename="$P.keep,4096,32" &&
	check "pmemblk keeps the pool without unlink" [ -f "$P.keep" ] ||
	fail "pmemblk keep: $(cat "$RB_TMP/err")"

# pmemblk refusals, by name
"$RAIDBENCH" run --name=p --ioengine=pmemblk --rw=read --filename="$D/none" >/dev/null \
	2>"$RB_TMP/err" && fail "pmemblk ran on a missing pool" ||
	check "pmemblk: a missing pool without sizes says how to create one" \
		grep -q "none does not exist; to create the pool name its block size" "$RB_TMP/err"
truncate -s 32m "$D/plain"
"$RAIDBENCH" run --name=p --ioengine=pmemblk --rw=read --filename="$D/plain" >/dev/null \
	2>"$RB_TMP/err" && fail "pmemblk ran on a plain file" ||
	check "pmemblk: a file that is no pool is refused" grep -q "cannot open the pool .*plain" "$RB_TMP/err"
check "pmemblk left the plain file alone" cmp -s "$D/plain" <(head -c 32M /dev/zero)
"$RAIDBENCH" run --name=p --ioengine=pmemblk --rw=read --bs=2k --filename="$P.keep" >/dev/null \
	2>"$RB_TMP/err" && fail "pmemblk bs=2k ran on a 4k pool" ||
	check "pmemblk: bs under the pool's block fails with EINVAL" grep -q "Invalid argument" "$RB_TMP/err"
"$RAIDBENCH" run --readonly --name=p --ioengine=pmemblk --rw=read --filename="$P.keep" \
	>/dev/null 2>"$RB_TMP/err" && fail "pmemblk ran under --readonly" ||
	check "pmemblk under --readonly refused" grep -q "readonly: libpmemblk opens a pool only for writing" "$RB_TMP/err"
# the guard: a pool that backs a loop device is in use; only consent lets it be written
if [ "$(id -u)" = 0 ] && L=$(losetup -f --show --direct-io=on "$P.keep" 2>/dev/null); then
	RB_LOOPS+=("$L")
	sum=$(md5sum <"$P.keep")
	"$RAIDBENCH" run --name=p --ioengine=pmemblk --rw=write --size=1m --filename="$P.keep" \
		>/dev/null 2>"$RB_TMP/err" && fail "pmemblk wrote a pool behind $L" ||
		check "pmemblk: a pool backing $L is refused by the guard" grep -q "backs $L" "$RB_TMP/err"
	check "the pool behind $L is unchanged" [ "$(md5sum <"$P.keep")" = "$sum" ]
fi

# ---- dev-dax: no DAX device here; what is not one is refused by name
"$RAIDBENCH" run --name=d --ioengine=dev-dax --rw=read --filename=/dev/zero --size=1m >/dev/null \
	2>"$RB_TMP/err" && fail "dev-dax ran on /dev/zero" ||
	check "dev-dax: /dev/zero is not a DAX device" \
		grep -q "/dev/zero is not a DAX device (sysfs puts character device 1:5 in mem" "$RB_TMP/err"
"$RAIDBENCH" run --name=d --ioengine=dev-dax --rw=write --filename="$D/plain" --size=1m \
	>/dev/null 2>"$RB_TMP/err" && fail "dev-dax ran on a regular file" ||
	check "dev-dax: a regular file is not a character device" \
		grep -q "plain is not a character device: ioengine=dev-dax drives device DAX nodes" "$RB_TMP/err"
"$RAIDBENCH" run --name=d --ioengine=dev-dax --rw=read --filename=/dev/dax97.3 >/dev/null \
	2>"$RB_TMP/err" && fail "dev-dax ran on a missing device" ||
	check "dev-dax: a missing device is named" grep -q "/dev/dax97.3 does not exist" "$RB_TMP/err"
rb_done
