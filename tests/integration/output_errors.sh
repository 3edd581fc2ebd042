#!/bin/bash
# Writing the results can fail, and refusing a run must not cost the user a
# file: a report that cannot be written names the file and the reason and
# exits 1; a refused run or a bad job file leaves an existing --output (and
# --live) file as it was; a file that cannot be laid out (a full disk) is a
# run-time failure (1), not a usage error (2); a busy device's message reads
# right; a report is never written over data in use.
. "$(dirname "$0")/lib.sh"
rb_init
need_root
need_tool python3 python3
need_tool mkfs.ext4 e2fsprogs
ERR=$RB_TMP/err
null_run() { "$RAIDBENCH" run --name=a --ioengine=null --size=1m --rw=read --no-save "$@"; }

# 1. a full disk under the report
null_run --output=/dev/full 2>"$ERR"
rc=$?
check "--output=/dev/full: exit 1 (got $rc)" [ "$rc" -eq 1 ]
check "... names the file and the reason ($(head -1 "$ERR"))" \
	grep -qx "raidbench run: cannot write /dev/full: No space left on device" "$ERR"
null_run --output-format=json >/dev/full 2>"$ERR"
rc=$?
check "stdout on a full disk: exit 1 (got $rc)" [ "$rc" -eq 1 ]
check "... says so ($(head -1 "$ERR"))" \
	grep -qx "raidbench run: cannot write standard output: No space left on device" "$ERR"
null_run --output=/dev/null --live=/dev/full 2>"$ERR"
rc=$?
check "--live=/dev/full: exit 1 (got $rc)" [ "$rc" -eq 1 ]
check "... names the file ($(head -1 "$ERR"))" grep -q "cannot write /dev/full: No space left on device" "$ERR"
# write_iolog= on a full disk: the log the user asked for is lost, so the job fails and
# says why (fio 3.33 exits 0 and says nothing); the results are still reported
null_run --output=/dev/null --output-format=json --write_iolog=/dev/full 2>"$ERR"
rc=$?
check "write_iolog=/dev/full: exit 1 (got $rc)" [ "$rc" -eq 1 ]
check "... names the job, the file and the reason ($(head -1 "$ERR"))" \
	grep -qx "job 'a': write_iolog=/dev/full: No space left on device" "$ERR"

# a reader that went away (a pipe into a command that quit): said, and the run still saved
n_before=$(ls "$XDG_DATA_HOME"/raidbench/results/*.json 2>/dev/null | wc -l)
"$RAIDBENCH" run --name=p --ioengine=null --size=64m --rw=read --runtime=1 --time_based \
	--output-format=json 2>"$ERR" | true
rc=${PIPESTATUS[0]}
n_after=$(ls "$XDG_DATA_HOME"/raidbench/results/*.json 2>/dev/null | wc -l)
check "stdout into a closed pipe: exit 1, not killed by SIGPIPE (got $rc)" [ "$rc" -eq 1 ]
check "... says so ($(head -1 "$ERR"))" \
	grep -qx "raidbench run: cannot write standard output: Broken pipe" "$ERR"
check "... and the run is saved all the same ($n_before -> $n_after)" [ "$n_after" -eq $((n_before + 1)) ]

# 2. refused runs leave --output and --live as they were
O=$RB_TMP/report.txt
L=$RB_TMP/live.jsonl
keep() { printf 'an earlier report\n' >"$O"; printf 'earlier live lines\n' >"$L"; }
untouched() { [ "$(cat "$O")" = "an earlier report" ] && [ "$(cat "$L")" = "earlier live lines" ]; }
keep
"$RAIDBENCH" run --name=a --filename=/dev/raidbench-no-such-device --rw=read --size=1m \
	--output="$O" --live="$L" --no-save 2>"$ERR"
rc=$?
check "a missing device: refused with 2 (got $rc)" [ "$rc" -eq 2 ]
check "... --output and --live are untouched" untouched
keep
"$RAIDBENCH" run --name=a --filename="$RB_TMP/no-such-file" --rw=read --output="$O" \
	--live="$L" --no-save 2>"$ERR"
check "a read job on a missing file: --output and --live are untouched" untouched
printf '[j]\nrw=read\nfilename=%s\nbs=3x\n' "$RB_TMP/f" >"$RB_TMP/bad.fio"
keep
"$RAIDBENCH" run --output="$O" --live="$L" --no-save "$RB_TMP/bad.fio" 2>"$ERR"
check "a job file that does not parse: --output and --live are untouched" untouched
make_loop 64
mkfs.ext4 -q "$LOOP_DEV"
keep
"$RAIDBENCH" run --name=w --filename="$LOOP_DEV" --rw=write --size=1m --direct=1 \
	--output="$O" --live="$L" --no-save 2>"$ERR"
rc=$?
check "the write guard refuses a device with a file system (exit $rc)" [ "$rc" -eq 2 ]
check "... --output and --live are untouched" untouched
rm -f "$O" "$L"
"$RAIDBENCH" run --name=w --filename="$LOOP_DEV" --rw=write --size=1m --direct=1 \
	--output="$O" --live="$L" --no-save 2>"$ERR"
check "... and leaves no empty file where there was none" eval '[ ! -e "$O" ] && [ ! -e "$L" ]'
# a run that starts does empty --output, as fio does
keep
null_run --output="$O" --output-format=json 2>"$ERR"
check "a run that starts replaces --output with its report" \
	[ "$(json_get "$O" 'd["jobs"][0]["jobname"]' 2>&1)" = a ]
check "... (no earlier text left)" bash -c "! grep -q 'an earlier report' '$O'"

# 3. a full file system while laying out a file: a run-time failure
M=$RB_TMP/small
mkdir "$M"
if mount -t tmpfs -o size=1m tmpfs "$M"; then
	RB_MOUNTS+=("$M")
	"$RAIDBENCH" run --name=l --filename="$M/f" --size=4m --rw=read --no-save 2>"$ERR"
	rc=$?
	check "ENOSPC laying out a file: exit 1, not the usage code 2 (got $rc)" [ "$rc" -eq 1 ]
	check "... names the file and the error ($(head -1 "$ERR"))" \
		grep -q "laying out $M/f: .*No space left on device" "$ERR"
else
	fail "cannot mount a 1 MiB tmpfs"
fi

# 4. a device someone holds exclusively: the message's brackets are balanced
make_loop 16
python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
print("held", flush=True)
time.sleep(30)' "$LOOP_DEV" >"$RB_TMP/held" &
holder=$!
for ((i = 0; i < 50; i++)); do grep -q held "$RB_TMP/held" && break; sleep 0.1; done
"$RAIDBENCH" run --name=b --filename="$LOOP_DEV" --rw=write --size=1m --no-save 2>"$ERR"
rc=$?
kill $holder 2>/dev/null
wait $holder 2>/dev/null
msg=$(head -1 "$ERR")
check "a device held O_EXCL elsewhere: refused ($rc): $msg" [ "$rc" -eq 2 ]
check "... the message says busy" grep -q "Device or resource busy" "$ERR"
opens=$(tr -cd '(' <<<"$msg" | wc -c)
closes=$(tr -cd ')' <<<"$msg" | wc -c)
check "... with balanced brackets ($opens '(' and $closes ')')" [ "$opens" -eq "$closes" ]
# 5. a report never lands on data in use: the image of a mounted file system,
#    or a disk with a file system, is refused like a job's target
make_loop 64
mkfs.ext4 -q "$LOOP_IMG"
MI=$RB_TMP/mounted
mkdir "$MI"
if mount "$LOOP_DEV" "$MI"; then
	RB_MOUNTS+=("$MI")
	before=$(sha256sum <"$LOOP_IMG")
	for opt in --output --live; do
		null_run "$opt=$LOOP_IMG" 2>"$ERR"
		rc=$?
		check "$opt=IMG of a mounted file system: refused with 2 (got $rc)" [ "$rc" -eq 2 ]
		check "... saying why ($(head -1 "$ERR"))" grep -q "refusing to write $LOOP_IMG.*mounted" "$ERR"
		check "... and the image is unchanged" [ "$(sha256sum <"$LOOP_IMG")" = "$before" ]
	done
	umount "$MI"
else
	fail "cannot mount the ext4 loop device"
fi
null_run "--output=$LOOP_DEV" 2>"$ERR"
rc=$?
check "--output=DEV with a file system on it: refused with 2 (got $rc)" [ "$rc" -eq 2 ]
check "... its file system still there" bash -c "blkid -p '$LOOP_DEV' | grep -q ext4"
rb_done
