#!/bin/bash
# ioengine=exec beside fio 3.33's: the program runs with %n and %r expanded,
# std_redirect writes JOBNAME.stdout and JOBNAME.stderr as fio's do, the job
# lasts its runtime and then the program gets SIGTERM (SIGKILL after
# grace_time), a failing program is reported with its exit status, and a
# bounded copy of fio's examples/exec.fio runs its exec jobs beside cpuio.
. "$(dirname "$0")/lib.sh"
rb_init
need_tool fio fio
need_tool python3 python3
EX=$SRCDIR/tests/fixtures/fio-examples/examples
W=$RB_TMP/w
mkdir -p "$W/rb" "$W/fio"

jget() { # jget FILE EXPR over the JSON's first job j
	python3 -c 'import json,sys
t=open(sys.argv[1]).read(); j=json.loads(t[t.index("{"):])["jobs"][0]; print(eval(sys.argv[2]))' "$1" "$2"
}
# both TOOLDIR ARGS...: fio in $W/fio, raidbench in $W/rb, JSON to out.json there
both() {
	(cd "$W/fio" && timeout 60 fio --output-format=json --output=out.json "$@" >/dev/null 2>err)
	FIO_RC=$?
	(cd "$W/rb" && timeout 60 "$RAIDBENCH" run --no-save --output-format=json \
		--output=out.json "$@" >/dev/null 2>err)
	RB_RC=$?
}

# %n and %r, and the output files; the program's own exit status 0
cat >"$W/prog.sh" <<'EOF'
#!/bin/sh
echo "args: $*"
echo "to stderr" >&2
exit "${CODE:-0}"
EOF
chmod +x "$W/prog.sh"
both --name=job1 --ioengine=exec --program="$W/prog.sh" --arguments="%n  %r x%ny" --runtime=1
if [ "$RB_RC" = 0 ] && [ "$FIO_RC" = 0 ]; then
	check "std_redirect: JOBNAME.stdout has the expanded arguments" \
		[ "$(cat "$W/rb/job1.stdout")" = "args: job1 1 xjob1y" ]
	check "JOBNAME.stdout equals fio's" cmp -s "$W/rb/job1.stdout" "$W/fio/job1.stdout"
	check "JOBNAME.stderr equals fio's" cmp -s "$W/rb/job1.stderr" "$W/fio/job1.stderr"
	check "no other file is created" [ "$(ls "$W/rb" | sort | tr '\n' ' ')" = "err job1.stderr job1.stdout out.json " ]
else fail "exec runs: fio $FIO_RC, raidbench $RB_RC: $(cat "$W/rb/err")"; fi

# a program that fails: fio says nothing; raidbench reports the status as the job's error
rm -f "$W"/rb/* "$W"/fio/*
CODE=3 both --name=bad --ioengine=exec --program="$W/prog.sh" --runtime=1
check "a program exiting 3 fails the job" [ "$RB_RC" != 0 ]
check "the error names the command and its status" grep -q "job 'bad': exec: '$W/prog.sh' exited with status 3" "$W/rb/err"
(cd "$W/rb" && "$RAIDBENCH" run --no-save --name=nope --ioengine=exec --program="$W/no-such" \
	--runtime=1 >/dev/null 2>err)
check "a program that does not exist is refused by name" grep -q "no-such.*No such file" "$W/rb/err"

# runtime honoured, the program stopped at its end: sleep 30 in a 2 s job
rm -f "$W"/rb/* "$W"/fio/*
both --name=s --ioengine=exec --program=/bin/sleep --arguments=30 --runtime=2 --std_redirect=0
if [ "$RB_RC" = 0 ] && [ "$FIO_RC" = 0 ]; then
	rt=$(jget "$W/rb/out.json" 'j["job_runtime"]')
	frt=$(jget "$W/fio/out.json" 'j["job_runtime"]')
	# fio sleeps the whole grace_time (1 s) after its SIGTERM; raidbench waits for the exit
	check "the job ends at its runtime, not the program's 30 s (raidbench ${rt} ms, fio ${frt} ms)" \
		eval '[ "$rt" -ge 1900 ] && [ "$rt" -lt 4000 ] && [ "$frt" -lt 4500 ]'
	check "it counted 100 ms ticks as fio does (raidbench $(jget "$W/rb/out.json" 'j["read"]["total_ios"]'), fio $(jget "$W/fio/out.json" 'j["read"]["total_ios"]'))" \
		[ "$(jget "$W/rb/out.json" 'abs(j["read"]["total_ios"] - 20) <= 4')" = True ]
else fail "sleep job: fio $FIO_RC, raidbench $RB_RC: $(cat "$W/rb/err")"; fi

# grace_time: a program that ignores SIGTERM is killed, with what it started
cat >"$W/stubborn.sh" <<'EOF'
#!/bin/sh
trap '' TERM
echo $$ >"$1"
sleep 59.9
EOF
chmod +x "$W/stubborn.sh"
start=$(date +%s%N)
(cd "$W/rb" && "$RAIDBENCH" run --no-save --name=st --ioengine=exec --program="$W/stubborn.sh" \
	--arguments="$W/pid" --runtime=1 --grace_time=1 >/dev/null 2>err)
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
check "a program ignoring SIGTERM does not fail the job" [ "$rc" = 0 ]
check "it is killed grace_time after SIGTERM (${ms} ms in all)" eval '[ "$ms" -ge 1900 ] && [ "$ms" -lt 5000 ]'
pid=$(cat "$W/pid" 2>/dev/null)
check "neither it nor its sleep outlives the job" eval '[ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null &&
	! pgrep -fx "sleep 59.9" >/dev/null'

# an interrupted run takes its program with it
(cd "$W/rb" && exec "$RAIDBENCH" run --no-save --name=i --ioengine=exec --program="$W/stubborn.sh" \
	--arguments="$W/pid2" --runtime=30 --grace_time=1 >/dev/null 2>err) &
rpid=$!
for ((i = 0; i < 50; i++)); do [ -s "$W/pid2" ] && break; sleep 0.1; done
kill -INT "$rpid"
wait "$rpid"
pid=$(cat "$W/pid2" 2>/dev/null)
check "an interrupted exec job stops its program and what it started" eval '[ -n "$pid" ] &&
	! kill -0 "$pid" 2>/dev/null && ! pgrep -fx "sleep 59.9" >/dev/null'

# fio's exec.fio, bounded: 1 s runs, two cpuio clones, echo in place of turbostat
sed -e 's/^runtime=.*/runtime=1/' -e 's/^numjobs=.*/numjobs=2/' \
	-e 's|^program=/usr/sbin/turbostat|program=/bin/echo|' "$EX/exec.fio" >"$W/exec.fio"
rm -f "$W"/rb/* "$W"/fio/*
both "$W/exec.fio"
if [ "$RB_RC" = 0 ]; then
	check "exec.fio: every job ran (2 exec, 4 cpuio, sleep)" \
		[ "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["jobs"]))' "$W/rb/out.json")" = 7 ]
	check "exec.fio: monitoring_noop.stdout equals fio's" \
		cmp -s "$W/rb/monitoring_noop.stdout" "$W/fio/monitoring_noop.stdout"
	check "exec.fio: monitoring_qsort.stdout has echo's arguments" \
		grep -q "^-c package -qS --interval 5" "$W/rb/monitoring_qsort.stdout"
else fail "exec.fio: $(cat "$W/rb/err")"; fi

# verdict NAME: PASS when the condition just before it held (several commands joined by &&)
verdict() { if [ $? = 0 ]; then pass "$1"; else fail "$1"; fi; }

# stdin: the program gets /dev/null, never raidbench's (fio's inherits fio's). Here
# raidbench's stdin is a pipe holding a line and kept open: cat reads no data and
# ends at once with status 0; the old code's cat printed the line and waited on
# the pipe until its SIGTERM
cat >"$W/reader.sh" <<'EOF'
#!/bin/sh
cat
echo "cat exited $?"
EOF
chmod +x "$W/reader.sh"
rm -f "$W"/rb/*
mkfifo "$W/stdin.fifo"
(echo secret-from-stdin; exec sleep 30) >"$W/stdin.fifo" &
hold=$!
(cd "$W/rb" && timeout 60 "$RAIDBENCH" run --no-save --name=in --ioengine=exec \
	--program="$W/reader.sh" --runtime=1 >/dev/null 2>err) <"$W/stdin.fifo"
rc=$?
kill "$hold" 2>/dev/null
wait "$hold" 2>/dev/null
got=$(tr '\n' '|' <"$W/rb/in.stdout" 2>/dev/null)
[ $rc = 0 ] && [ "$got" = "cat exited 0|" ]
verdict "the program's stdin is /dev/null: no data, EOF at once (exit $rc, in.stdout '$got')"

# the write guard: JOBNAME.stdout is a write like any other. Here it is the file
# behind a loop device with an ext4 file system: the job is refused at setup
# (exit 2, nothing run, nothing written); with --allow-destroy= naming it, the
# program runs and writes it (the consent reaches the engine's open)
cat >"$W/loud.sh" <<'EOF'
#!/bin/sh
echo boom
echo boom >&2
touch "$1"
EOF
chmod +x "$W/loud.sh"
rm -f "$W"/rb/* "$W/ran"
if [ "$(id -u)" = 0 ] && head -c 4M /dev/zero >"$W/rb/g.stdout" &&
	mkfs.ext4 -q -F "$W/rb/g.stdout" 2>/dev/null &&
	L=$(losetup -f --show "$W/rb/g.stdout" 2>/dev/null); then
	RB_LOOPS+=("$L")
	sum=$(md5sum <"$W/rb/g.stdout")
	(cd "$W/rb" && timeout 60 "$RAIDBENCH" run --no-save --name=g --ioengine=exec \
		--program="$W/loud.sh" --arguments="$W/ran" --runtime=1 >/dev/null 2>err)
	rc=$?
	check "an exec job whose g.stdout backs $L is refused (exit $rc, 2 wanted)" [ $rc = 2 ]
	check "... with a message naming the file and why" \
		grep -q "job 'g': ioengine=exec's output: refusing to write g.stdout.*backs $L" \
		"$W/rb/err"
	[ ! -e "$W/ran" ] && [ ! -e "$W/rb/g.stderr" ] && [ "$(md5sum <"$W/rb/g.stdout")" = "$sum" ]
	verdict "... at setup: the program did not run, g.stdout is unchanged, no g.stderr"
	(cd "$W/rb" && timeout 60 "$RAIDBENCH" run --no-save --allow-destroy="$W/rb/g.stdout" \
		--name=g --ioengine=exec --program="$W/loud.sh" --arguments="$W/ran" --runtime=1 \
		>/dev/null 2>err)
	rc=$?
	msg=$(head -c 300 "$W/rb/err")
	[ $rc = 0 ] && [ -e "$W/ran" ] && [ "$(cat "$W/rb/g.stdout")" = boom ] &&
		[ "$(cat "$W/rb/g.stderr")" = boom ]
	verdict "with --allow-destroy=g.stdout it runs and writes there (exit $rc: $msg)"
	# std_redirect=0 writes no file: nothing for the guard to refuse
	(cd "$W/rb" && timeout 60 "$RAIDBENCH" run --no-save --name=g --ioengine=exec \
		--program=/bin/true --runtime=1 --std_redirect=0 >/dev/null 2>err)
	rc=$?
	check "std_redirect=0: the same job runs, g.stdout still backing $L (exit $rc)" [ $rc = 0 ]
fi

# --parse-only names the command; no program= is refused by name
(cd "$EX" && "$RAIDBENCH" run --parse-only exec.fio) >/dev/null 2>"$W/err" &&
	check "exec.fio parses; --parse-only names the command" \
		grep -q "job 'sleep': runs '/bin/sleep 10' for 10s" "$W/err" ||
	fail "exec.fio refused: $(cat "$W/err")"
"$RAIDBENCH" run --parse-only --name=x --ioengine=exec --runtime=1 >/dev/null 2>"$W/err" &&
	fail "exec without program= accepted" ||
	check "exec without program= refused" grep -q "ioengine=exec needs program=" "$W/err"
"$RAIDBENCH" run --parse-only --name=x --ioengine=exec --program=/bin/true >/dev/null \
	2>"$W/err" && fail "exec without runtime= accepted" ||
	check "exec without runtime= refused" grep -q "ioengine=exec needs runtime=" "$W/err"
# the command shown comes from the job file: its escapes reach the terminal as text
printf '[e]\nioengine=exec\nprogram=/bin/true\narguments=\033[31mred\nruntime=1\n' >"$W/esc.fio"
"$RAIDBENCH" run --parse-only "$W/esc.fio" >/dev/null 2>"$W/err"
check "--parse-only prints a job file's escape as \\x1b" grep -qF "'/bin/true \x1b[31mred'" "$W/err"
check "... and no raw ESC" bash -c "! grep -q \$'\\033' '$W/err'"
rb_done
