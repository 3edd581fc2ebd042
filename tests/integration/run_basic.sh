#!/bin/bash
# raidbench run on files and the null engine: counts, groups, formats, exits.
. "$(dirname "$0")/lib.sh"
rb_init
need_tool python3 python3
F=$RB_TMP/f.dat
J=$RB_TMP/out.json

run_json() { "$RAIDBENCH" run --output-format=json --output="$J" "$@" 2>"$RB_TMP/err"; }

# size-bounded sequential read: exactly size/bs I/Os
if run_json --name=r --filename="$F" --size=8m --bs=4k --rw=read --ioengine=psync; then
	check "seq read total_ios = 2048" [ "$(json_get "$J" "d['jobs'][0]['read']['total_ios']")" = 2048 ]
	check "seq read io_bytes = 8 MiB" [ "$(json_get "$J" "d['jobs'][0]['read']['io_bytes']")" = 8388608 ]
	check "file laid out to 8 MiB" [ "$(stat -c %s "$F")" = 8388608 ]
else fail "seq read run: $(cat "$RB_TMP/err")"; fi

# randwrite with the random map: every block once
if run_json --name=w --filename="$F" --size=8m --bs=4k --rw=randwrite --ioengine=libaio --iodepth=16 --direct=1; then
	check "randwrite total_ios = 2048" [ "$(json_get "$J" "d['jobs'][0]['write']['total_ios']")" = 2048 ]
	check "randwrite slat recorded for async" [ "$(json_get "$J" "d['jobs'][0]['write']['slat_ns']['N']")" = 2048 ]
else fail "randwrite run: $(cat "$RB_TMP/err")"; fi

# loops and io_size
run_json --name=l --filename="$F" --size=4m --bs=64k --rw=read --loops=3 --ioengine=psync &&
	check "loops=3 gives 3 passes" [ "$(json_get "$J" "d['jobs'][0]['read']['total_ios']")" = 192 ] ||
	fail "loops run: $(cat "$RB_TMP/err")"
run_json --name=l --filename="$F" --size=4m --io_size=1m --bs=4k --rw=randread --ioengine=sync &&
	check "io_size bounds the I/O" [ "$(json_get "$J" "d['jobs'][0]['read']['io_bytes']")" = 1048576 ] ||
	fail "io_size run: $(cat "$RB_TMP/err")"

# numjobs + group_reporting merge into one entry; stonewall makes groups
if run_json --name=a --ioengine=null --size=1m --bs=4k --rw=randread --numjobs=3 --group_reporting \
	--name=b --ioengine=null --size=1m --bs=4k --rw=read --stonewall; then
	check "group_reporting merges 3 clones" [ "$(json_get "$J" "len(d['jobs'])")" = 2 ]
	check "merged entry counts all clones" [ "$(json_get "$J" "d['jobs'][0]['read']['total_ios']")" = 768 ]
	check "stonewall starts group 1" [ "$(json_get "$J" "d['jobs'][1]['groupid']")" = 1 ]
else fail "groups run: $(cat "$RB_TMP/err")"; fi

# time_based on the null engine runs for the runtime
if run_json --name=t --ioengine=null --size=1g --bs=4k --rw=randread --iodepth=32 --runtime=1 --time_based; then
	rt=$(json_get "$J" "d['jobs'][0]['read']['runtime']")
	check "time_based runtime ~1000 ms ($rt)" test "$rt" -ge 990 -a "$rt" -le 1200
	check "bw samples taken" [ "$(json_get "$J" "d['jobs'][0]['read']['bw_samples']")" -ge 1 ]
else fail "time_based run: $(cat "$RB_TMP/err")"; fi

# formats
"$RAIDBENCH" run --output-format=terse --name=t --ioengine=null --size=1m --rw=read >"$RB_TMP/terse" 2>&1
check "terse line starts with version 3" grep -q '^3;raidbench' "$RB_TMP/terse"
"$RAIDBENCH" run --name=t --ioengine=null --size=1m --rw=read >"$RB_TMP/normal" 2>&1
check "normal output has the IOPS line" grep -q 'read: IOPS=' "$RB_TMP/normal"
check "normal output has the group line" grep -q 'Run status group 0' "$RB_TMP/normal"
"$RAIDBENCH" run --output-format=json,normal --name=t --ioengine=null --size=1m --rw=read >"$RB_TMP/both" 2>"$RB_TMP/err"
check "json,normal both printed" grep -q '"jobs"' "$RB_TMP/both"

# results saved
check "run saved under XDG_DATA_HOME" [ "$(ls "$XDG_DATA_HOME/raidbench/results/" | wc -l)" -ge 5 ]
last=$(ls -t "$XDG_DATA_HOME"/raidbench/results/*.json | head -1)
check "saved result has the raidbench section" [ "$(json_get "$last" "'raidbench' in d and 'jobs' in d")" = True ]

# fio's getopt form: "--opt value" as well as "--opt=value"
if "$RAIDBENCH" run --name t --ioengine null --size 1m --bs 64k --rw read --output-format json \
	--output "$J" --no-save 2>"$RB_TMP/err"; then
	check "--opt value form: 16 I/Os of 64k" [ "$(json_get "$J" "d['jobs'][0]['read']['total_ios']")" = 16 ]
else fail "--opt value form: $(cat "$RB_TMP/err")"; fi

# exit codes
"$RAIDBENCH" run --name=x --ioengine=null --size=1m --rw=read --bogus=1 >/dev/null 2>&1
check "unknown option exits 2" [ $? -eq 2 ]
"$RAIDBENCH" run --name=x --filename=/dev/raidbench-nonexistent --rw=read >/dev/null 2>"$RB_TMP/err"
check "missing device exits 2" [ $? -eq 2 ]
check "missing device named" grep -q 'raidbench-nonexistent' "$RB_TMP/err"

# Ctrl-C: partial results, exit 130
"$RAIDBENCH" run --output-format=json --output="$J" --name=i --ioengine=null --size=1g --rw=read --runtime=30 --time_based 2>/dev/null &
pid=$!
sleep 1
kill -INT $pid
wait $pid
check "SIGINT exits 130" [ $? -eq 130 ]
check "SIGINT keeps partial results" [ "$(json_get "$J" "d['jobs'][0]['read']['total_ios'] > 0")" = True ]
rb_done
