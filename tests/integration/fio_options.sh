#!/bin/bash
# fio options the examples of fio 3.33 use, run for real: number_ios,
# offset_increment, rw=read:-N, zonemode=strided, zoned distributions give
# fio's counts (compared with fio 3.33 when it is installed) and put I/O where
# fio does; --readonly refuses a writing job before anything runs (also with
# --parse-only, and on the null engine); a job whose CPU or NUMA placement
# cannot work stops the whole run before any job does I/O; --max-jobs; the
# notes --parse-only prints where raidbench's effect differs from fio's.
. "$(dirname "$0")/lib.sh"
rb_init
need_tool python3 python3

# counts FILE.json -> "job:rios/rbytes,wios/wbytes ..." for every job
counts() {
	python3 - "$1" <<'PY'
import json, sys
t = open(sys.argv[1]).read()
d = json.loads(t[t.index('{'):])
print(' '.join('%s:%d/%d,%d/%d' % (j['jobname'], j['read']['total_ios'], j['read']['io_bytes'],
                                     j['write']['total_ios'], j['write']['io_bytes'])
               for j in d['jobs']))
PY
}

# same_as_fio NAME ARGS...: raidbench's counts equal fio's (or the expected ones without fio)
same_as_fio() {
	local name=$1 want=$2; shift 2
	local got
	if ! (cd "$RB_TMP" && "$RAIDBENCH" run --no-save "$@" --output-format=json \
		--output="$RB_TMP/rb.json") 2>"$RB_TMP/err" >/dev/null; then
		fail "$name: raidbench failed: $(grep -v 'note:' "$RB_TMP/err" | head -2)"
		return
	fi
	got=$(counts "$RB_TMP/rb.json")
	if command -v fio >/dev/null; then
		(cd "$RB_TMP" && fio "$@" --output-format=json --output="$RB_TMP/fio.json") \
			>/dev/null 2>&1 && want=$(counts "$RB_TMP/fio.json")
	fi
	if [ "$got" = "$want" ]; then
		pass "$name: $got"
	else
		fail "$name: want $want, raidbench $got"
	fi
}

same_as_fio "number_ios=10 per loop" "z:20/81920,0/0" \
	--name=z --ioengine=null --size=1m --bs=4k --loops=2 --number_ios=10
same_as_fio "number_ios with randrw" "z:5/20480,2/8192" \
	--name=z --ioengine=null --size=1m --bs=4k --rw=randrw --number_ios=7
same_as_fio "zonemode=strided" "z:128/1048576,0/0" \
	--name=z --ioengine=null --size=1m --zonemode=strided --zonesize=16k --zonerange=32k \
	--zoneskip=16k --bs=8k --rw=read
same_as_fio "rw=read:-8k" "z:16/65536,0/0" --name=z --ioengine=null --size=64k --rw=read:-8k
same_as_fio "random_distribution=zoned" "z:256/1048576,0/0" \
	--name=z --ioengine=null --size=1m --rw=randread --random_distribution=zoned:50/5:30/15:20/
same_as_fio "bsrange with / (fio reads 512-1k)" "z:1024/786432,0/0" \
	--name=z --ioengine=null --size=768k --rw=read --bsrange=512/25:1k:25:2k:25:4k/25

# offset_increment: clone n writes at offset + n * increment of one shared file
F=$RB_TMP/inc.dat
truncate -s 512k "$F"
if "$RAIDBENCH" run --no-save --name=inc --filename="$F" --rw=write --bs=4k --size=64k \
	--numjobs=2 --offset_increment=256k --ioengine=psync >/dev/null 2>"$RB_TMP/err"; then
	nz() { dd if="$F" bs=64k skip=$1 count=1 status=none | tr -d '\0' | wc -c; }
	check "offset_increment: clone 0 wrote 0-64k" [ "$(nz 0)" -gt 0 ]
	check "offset_increment: nothing at 64k-128k" [ "$(nz 1)" -eq 0 ]
	check "offset_increment: clone 1 wrote 256k-320k" [ "$(nz 4)" -gt 0 ]
else
	fail "offset_increment run: $(cat "$RB_TMP/err")"
fi

# per_job_logs=0 and log_offset: fio's log name and its offset column (fio's t0019-t0022)
(cd "$RB_TMP" && "$RAIDBENCH" run --no-save --name=lg --ioengine=null --size=64k --rw=read \
	--write_bw_log=seq --per_job_logs=0 --log_offset=1 >/dev/null 2>"$RB_TMP/err") ||
	fail "log run: $(cat "$RB_TMP/err")"
check "per_job_logs=0: the log is seq_bw.log" [ -f "$RB_TMP/seq_bw.log" ]
check "log_offset: every offset once, in order" \
	[ "$(cut -d, -f5 "$RB_TMP/seq_bw.log" | tr -d ' ' | tr '\n' ' ')" = "$(seq 0 4096 61440 | tr '\n' ' ')" ]
# random_generator=lfsr visits every block once even with norandommap (fio's t0021)
(cd "$RB_TMP" && "$RAIDBENCH" run --no-save --name=lf --ioengine=null --size=1m --rw=randread \
	--norandommap --random_generator=lfsr --write_bw_log=lfsr --per_job_logs=0 \
	--log_offset=1 >/dev/null 2>"$RB_TMP/err") || fail "lfsr run: $(cat "$RB_TMP/err")"
check "lfsr with norandommap: 256 distinct offsets" \
	[ "$(cut -d, -f5 "$RB_TMP/lfsr_bw.log" | sort -u | wc -l)" -eq 256 ]

# --readonly: a job that writes is refused before anything runs, as fio does
for rw in randwrite rw trim; do
	"$RAIDBENCH" run --no-save --readonly --name=ro --ioengine=null --rw=$rw --size=1m \
		>/dev/null 2>"$RB_TMP/err"
	rc=$?
	check "--readonly with rw=$rw on the null engine is refused (exit 2)" [ $rc -eq 2 ]
	check "--readonly rw=$rw: the refusal names the job and rw" \
		grep -q "job 'ro' .* (rw=$rw) but --readonly is set" "$RB_TMP/err"
done
"$RAIDBENCH" run --parse-only --readonly --name=ro --ioengine=null --rw=write --size=1m \
	>/dev/null 2>&1
check "--readonly --parse-only refuses a writing job too" [ $? -eq 2 ]
"$RAIDBENCH" run --no-save --readonly --name=ro --ioengine=null --rw=read --size=1m \
	>/dev/null 2>&1
check "--readonly with rw=read runs" [ $? -eq 0 ]

# a job whose placement cannot work stops the run before its sibling does any I/O
for bad in --numa_cpu_nodes=63 --cpus_allowed=1000-1001; do
	G=$RB_TMP/sibling.dat
	rm -f "$G"
	"$RAIDBENCH" run --no-save --name=a --filename="$G" --rw=write --size=64k \
		--name=b --stonewall --ioengine=null --size=64k $bad >/dev/null 2>"$RB_TMP/err"
	rc=$?
	check "$bad: the run is refused (exit 2)" [ $rc -eq 2 ]
	check "$bad: the earlier job wrote nothing" [ ! -s "$G" ]
	check "$bad: the message names job b" grep -q "job 'b'" "$RB_TMP/err"
done

# --max-jobs, as fio's harness passes it
"$RAIDBENCH" run --no-save --max-jobs=16 --name=m --ioengine=null --size=64k >/dev/null 2>&1
check "--max-jobs=16 with one job runs" [ $? -eq 0 ]
"$RAIDBENCH" run --parse-only --max-jobs=2 --name=m --ioengine=null --size=64k --numjobs=3 \
	>/dev/null 2>"$RB_TMP/err"
check "--max-jobs=2 with numjobs=3 is refused (exit 2)" [ $? -eq 2 ]

# notes: where the effect differs, --parse-only says so by job and option
"$RAIDBENCH" run --parse-only --name=n --ioengine=null --size=64k --gtod_reduce=1 \
	--io_submit_mode=offload --flow=1 >/dev/null 2>"$RB_TMP/err"
check "gtod_reduce is accepted with a note" grep -q "note: job 'n': option 'gtod_reduce'" "$RB_TMP/err"
check "io_submit_mode=offload is noted" grep -q "option 'io_submit_mode'" "$RB_TMP/err"
check "flow is honoured, not noted" sh -c "! grep -q \"option 'flow'\" '$RB_TMP/err'"
"$RAIDBENCH" run --parse-only --name=n --ioengine=null --size=64k --number_ios=4 \
	>/dev/null 2>"$RB_TMP/err"
check "an honoured option has no note" [ ! -s "$RB_TMP/err" ]
rb_done
