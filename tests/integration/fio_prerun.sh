#!/bin/bash
# exec_prerun= and exec_postrun= beside fio 3.33's: the same output files
# (JOBNAME.prerun.txt, JOBNAME.postrun.txt) with the same contents, the
# prerun before the job's I/O and the postrun after it and after its logs,
# a failing prerun skips the job with exit status 0 as fio's does (and a
# failing postrun changes nothing), --parse-only shows the commands with
# their escapes as text, and a fleet job runs them on the fio server.
. "$(dirname "$0")/lib.sh"
rb_init
need_tool fio fio
need_tool python3 python3
W=$RB_TMP/w
mkdir -p "$W/rb" "$W/fio"

# verdict NAME: PASS when the condition just before it held (several commands joined by &&)
verdict() { if [ $? = 0 ]; then pass "$1"; else fail "$1"; fi; }
# jobs FILE: "name:read_ios:error;..." for every job of a JSON report
jobs() {
	python3 -c 'import json,sys
t=open(sys.argv[1]).read(); d=json.loads(t[t.index("{"):])
print(";".join("%s:%d:%d" % (j["jobname"], j["read"]["total_ios"] + j["write"]["total_ios"],
      j["error"]) for j in d["jobs"]))' "$1"
}
# both FORMAT JOBFILE: fio in $W/fio, raidbench in $W/rb, the report to out there
both() {
	rm -rf "$W"/fio/* "$W"/rb/*
	head -c 1M /dev/zero >"$W/fio/data"
	head -c 1M /dev/zero >"$W/rb/data"
	(cd "$W/fio" && timeout 60 fio --output-format="$1" "$2" >out 2>err)
	FIO_RC=$?
	(cd "$W/rb" && timeout 60 "$RAIDBENCH" run --no-save --output-format="$1" "$2" >out 2>err)
	RB_RC=$?
}

# prerun sees the data file as it was, postrun sees it written and the bw log
# there; ';' starts a comment in a job file (fio's rule), so '&&' and '||',
# inside sh -c: fio appends its redirection to the command's last part only
cat >"$W/order.fio" <<'EOF'
[wr]
filename=data
rw=write
bs=64k
size=1m
ioengine=psync
write_bw_log=wr
exec_prerun=sh -c 'cmp -s data /dev/zero -n 1048576 && echo pre-untouched >>marks || echo pre-written >>marks'
exec_postrun=sh -c '! cmp -s data /dev/zero -n 1048576 && test -s wr_bw.1.log && echo post-written-logged >>marks'

[out]
ioengine=null
size=64k
exec_prerun=echo pre $((1+2)) $0
exec_postrun=ls -d /nonexistent-prerun-dir
EOF
for fmt in normal json; do
	both "$fmt" "$W/order.fio"
	if [ "$FIO_RC" != 0 ] || [ "$RB_RC" != 0 ]; then
		fail "$fmt: fio $FIO_RC ($(cat "$W/fio/err")), raidbench $RB_RC ($(cat "$W/rb/err"))"
		continue
	fi
	check "$fmt: the order is prerun, I/O, log, postrun" \
		[ "$(cat "$W/rb/marks")" = "$(printf 'pre-untouched\npost-written-logged')" ]
	check "$fmt: ... as fio's" cmp -s "$W/rb/marks" "$W/fio/marks"
	for f in out.prerun.txt out.postrun.txt wr.prerun.txt wr.postrun.txt; do
		check "$fmt: $f is there and equals fio's" cmp -s "$W/rb/$f" "$W/fio/$f"
	done
	check "$fmt: out.prerun.txt holds the shell's output" \
		[ "$(cat "$W/rb/out.prerun.txt")" = "pre 3 sh" ]
	check "$fmt: out.postrun.txt holds the command's stderr" \
		grep -q "nonexistent-prerun-dir" "$W/rb/out.postrun.txt"
	check "$fmt: nothing the commands print on raidbench's stdout or stderr" \
		bash -c "! grep -q 'pre 3\\|No such file' '$W/rb/out' '$W/rb/err'"
done
# the last run was JSON: raidbench's stdout is JSON alone (fio puts its notes before it)
check "json: stdout parses as JSON" python3 -c "import json; json.load(open('$W/rb/out'))"
check "json: the jobs ran as fio's ($(jobs "$W/fio/out"))" [ "$(jobs "$W/rb/out")" = "$(jobs "$W/fio/out")" ]

# a failing prerun: the job does no I/O, no postrun, and the exit status stays 0 (fio);
# a failing postrun changes nothing
cat >"$W/fail.fio" <<'EOF'
[bad]
ioengine=null
size=1m
exec_prerun=echo about to fail && exit 3
exec_postrun=echo never >>marks
[badpost]
ioengine=null
size=1m
exec_postrun=exit 5
[missing]
ioengine=null
size=1m
exec_prerun=/nonexistent/prerun-cmd
EOF
for fmt in normal json; do
	both "$fmt" "$W/fail.fio"
	[ "$RB_RC" = "$FIO_RC" ] && [ "$FIO_RC" = 0 ]
	verdict "$fmt: a failing prerun exits $FIO_RC as fio"
	[ -e "$W/rb/bad.prerun.txt" ] && [ ! -e "$W/rb/marks" ] && [ ! -e "$W/fio/marks" ]
	verdict "$fmt: its prerun ran, its postrun did not (as fio)"
	# fio's appended "> bad.prerun.txt 2>&1" catches only "exit 3": the echo reaches its
	# stdout; raidbench gives the file the whole command's output, the terminal none of it
	[ "$(cat "$W/rb/bad.prerun.txt" 2>/dev/null)" = "about to fail" ] &&
		! grep -q '^about to fail' "$W/rb/out" "$W/rb/err"
	verdict "$fmt: bad.prerun.txt holds the whole command's output, none of it printed"
	[ -s "$W/rb/bad.prerun.txt" ] && [ -e "$W/fio/bad.prerun.txt" ] &&
		[ ! -s "$W/fio/bad.prerun.txt" ] && grep -q "^about to fail" "$W/fio/out"
	verdict "$fmt: ... where fio's holds its last part's (none) and fio printed the echo"
	check "$fmt: missing.prerun.txt equals fio's" \
		cmp -s "$W/rb/missing.prerun.txt" "$W/fio/missing.prerun.txt"
	check "$fmt: stderr names the job, the command and its status" \
		grep -qF "job 'bad': exec_prerun 'echo about to fail && exit 3' exited with status 3" "$W/rb/err"
	check "$fmt: ... and the missing program" \
		grep -q "job 'missing': exec_prerun '/nonexistent/prerun-cmd' exited with status 127" "$W/rb/err"
done
check "json: skipped jobs did no I/O, without an error, as fio's ($(jobs "$W/fio/out"))" \
	[ "$(jobs "$W/rb/out")" = "$(jobs "$W/fio/out")" ]
check "json: ... that is bad:0:0;badpost:256:0;missing:0:0" \
	[ "$(jobs "$W/rb/out")" = "bad:0:0;badpost:256:0;missing:0:0" ]

# --parse-only shows the commands, escapes as text
printf '[e]\nioengine=null\nsize=1m\nexec_prerun=echo \033[31mred\nexec_postrun=echo done\n' >"$W/esc.fio"
"$RAIDBENCH" run --parse-only "$W/esc.fio" >/dev/null 2>"$W/err"
check "--parse-only: exec_prerun will run, escape shown as \\x1b" \
	grep -qF "job 'e': exec_prerun will run 'echo \x1b[31mred' through /bin/sh before the job's I/O (its output to e.prerun.txt)" "$W/err"
check "--parse-only: exec_postrun will run" \
	grep -qF "job 'e': exec_postrun will run 'echo done' through /bin/sh after the job's I/O" "$W/err"
grep -q "exec_prerun will run" "$W/err" && ! grep -q $'\033' "$W/err" &&
	[ ! -e e.prerun.txt ] && [ ! -e "$W/e.prerun.txt" ]
verdict "--parse-only: no raw ESC, and nothing ran"
# a run's error lines quote commands too: escapes as text there as well
printf '[e]\nioengine=null\nsize=1m\nexec_prerun=exit 4 \033[31m\n' >"$W/esc2.fio"
(cd "$W/rb" && "$RAIDBENCH" run --no-save "$W/esc2.fio" >/dev/null 2>err)
check "a failing prerun's message shows the escape as \\x1b" grep -qF 'exit 4 \x1b[31m' "$W/rb/err"

# a stop while the prerun runs ends its process group; the run stops promptly
printf '[s]\nioengine=null\nsize=1m\nexec_prerun=sleep 57.3\n' >"$W/stop.fio"
(cd "$W/rb" && exec "$RAIDBENCH" run --no-save "$W/stop.fio" >/dev/null 2>err) &
rpid=$!
seen=0
for ((i = 0; i < 50; i++)); do pgrep -fx "sleep 57.3" >/dev/null && seen=1 && break; sleep 0.1; done
kill -INT "$rpid"
t0=$(date +%s)
wait "$rpid"
took=$(($(date +%s) - t0))
[ $seen = 1 ] && [ $took -lt 5 ] && ! pgrep -fx "sleep 57.3" >/dev/null
verdict "an interrupted prerun is ended with the run ($took s)"

# stdin: the commands get /dev/null, never raidbench's (fio's system(3) inherits
# fio's). raidbench's stdin is a pipe holding a line and kept open 30 s: cat reads
# no data and ends at once, and the run does not wait on the pipe
rm -rf "$W"/rb/*
mkfifo "$W/stdin.fifo"
(echo secret-from-stdin; exec sleep 30) >"$W/stdin.fifo" &
hold=$!
t0=$(date +%s)
(cd "$W/rb" && timeout 60 "$RAIDBENCH" run --no-save --name=in --ioengine=null --size=1m \
	--exec_prerun="cat && echo pre ended" --exec_postrun="cat && echo post ended" \
	>/dev/null 2>err) <"$W/stdin.fifo"
rc=$?
took=$(($(date +%s) - t0))
kill "$hold" 2>/dev/null
wait "$hold" 2>/dev/null
[ $rc = 0 ] && [ $took -lt 10 ] && [ "$(cat "$W/rb/in.prerun.txt")" = "pre ended" ] &&
	[ "$(cat "$W/rb/in.postrun.txt")" = "post ended" ]
verdict "prerun and postrun read /dev/null: no data, EOF at once (exit $rc, $took s)"

# the write guard: the output file is a write like any other
if [ "$(id -u)" = 0 ] && head -c 4M /dev/zero >"$W/img" && mkfs.ext4 -q -F "$W/img" 2>/dev/null &&
	L=$(losetup -f --show "$W/img" 2>/dev/null); then
	RB_LOOPS+=("$L")
	sum=$(md5sum <"$W/img")
	ln -sf "$L" "$W/rb/g.prerun.txt"
	(cd "$W/rb" && "$RAIDBENCH" run --no-save --name=g --ioengine=null --size=1m \
		--exec_prerun="echo boom" >/dev/null 2>err)
	rc=$?
	[ $rc = 2 ] && grep -q "exec_prerun's output: refusing to write g.prerun.txt ($L)" \
		"$W/rb/err" && [ "$(md5sum <"$W/img")" = "$sum" ]
	verdict "a prerun output file on a disk with a file system is refused (exit 2), the disk unchanged"
fi

# a fleet job's options reach the fio server as written: the server runs the command
PORT=$((20000 + RANDOM % 20000))
(cd "$W/fio" && rm -f ./* && exec setsid fio --server="ip:127.0.0.1,$PORT" >server.log 2>&1) &
spid=$!
for ((i = 0; i < 50; i++)); do
	(exec 3<>/dev/tcp/127.0.0.1/$PORT) 2>/dev/null && break
	sleep 0.1
done
"$RAIDBENCH" run --no-save --client="ip:127.0.0.1,$PORT" --name=fl --ioengine=null --size=1m \
	--exec_prerun="echo on the server" --output-format=json >"$W/fl.json" 2>"$W/err"
[ "$(cat "$W/fio/fl.prerun.txt" 2>/dev/null)" = "on the server" ] && [ ! -e fl.prerun.txt ]
verdict "fleet: the prerun ran on the server, not on the console"
kill -9 -- -"$spid" 2>/dev/null || kill -9 "$spid" 2>/dev/null
wait "$spid" 2>/dev/null
rb_done
