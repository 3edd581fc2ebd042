#!/bin/bash
# Job files nobody in this project wrote (tests/fixtures/outside-jobs, their
# provenance in its jobs.tsv and README.md), judged by fio 3.33: for each,
# `fio --parse-only` and `raidbench run --parse-only` must agree, accepted by
# both or refused by both. A file marked "refused: REASON" is one raidbench
# refuses on purpose; there the refusal must name the file, its line and the
# option. Include-only files are read through the jobs that include them.
# What both accept is then run bounded by both (outside_jobs.py): the same
# I/O counts per job and direction.
# Each file is read from its own directory (includes are relative), with
# the variables of outside-jobs/env (the values the repositories' own
# scripts set).
. "$(dirname "$0")/lib.sh"
rb_init
need_tool fio fio
case "$(fio --version)" in
fio-3.33) ;;
*) rb_skip "fio is $(fio --version), the judge here is fio-3.33" ;;
esac
DIR=$SRCDIR/tests/fixtures/outside-jobs
[ -f "$DIR/jobs.tsv" ] || fail "no $DIR/jobs.tsv"
set -a
. "$DIR/env"
set +a

nr=0
while IFS=$'\t' read -r file repo path commit kind expect; do
	case "$file" in '#'*|'') continue ;; esac
	[ "$kind" = job ] || continue
	nr=$((nr + 1))
	dir=$DIR/$(dirname "$file") base=$(basename "$file")
	if [ ! -f "$dir/$base" ]; then
		fail "$file: missing"
		continue
	fi
	(cd "$dir" && timeout 20 fio --parse-only "$base") >/dev/null 2>&1
	frc=$?
	(cd "$dir" && timeout 20 "$RAIDBENCH" run --parse-only "$base") >/dev/null 2>"$RB_TMP/err"
	rrc=$?
	first=$(grep -v '^$' "$RB_TMP/err" | head -1)
	case "$expect" in
	same)
		if [ $frc -eq 0 ] && [ $rrc -eq 0 ]; then
			pass "$file: both accept"
		elif [ $frc -ne 0 ] && [ $rrc -ne 0 ]; then
			pass "$file: both refuse"
		elif [ $frc -eq 0 ]; then
			fail "$file: fio 3.33 accepts, raidbench refuses: $first"
		else
			fail "$file: fio 3.33 refuses, raidbench accepts"
		fi ;;
	refused:*)
		# the option named in the list, at a line of this file
		opt=${expect#refused: }
		opt=${opt%%[= ]*}
		if [ $rrc -ne 0 ] && printf '%s\n' "$first" |
			grep -qE "$base:[0-9]+: option '$opt'"; then
			pass "$file: refused on purpose, naming $base:LINE and '$opt' (${expect#refused: })"
		else
			fail "$file: expected a refusal naming $base:LINE and option '$opt', got rc $rrc: $first"
		fi ;;
	*)
		fail "$file: unknown expectation '$expect' in jobs.tsv" ;;
	esac
done <"$DIR/jobs.tsv"
check "at least 40 outside job files were judged ($nr)" [ "$nr" -ge 40 ]

# ---- what both accept, run bounded (null engine, size=1m): the same I/O counts as fio
python3 "$SRCDIR/tests/integration/outside_jobs.py" "$DIR" "$RAIDBENCH" "$RB_TMP" >"$RB_TMP/runs" 2>&1
grep -E '^(PASS|FAIL|KNOWN)' "$RB_TMP/runs"
RB_PASS=$((RB_PASS + $(grep -c '^PASS' "$RB_TMP/runs")))
RB_FAIL=$((RB_FAIL + $(grep -c '^FAIL' "$RB_TMP/runs")))
check "outside_jobs.py finished ($(grep '^# compared' "$RB_TMP/runs"))" grep -q '^# compared' "$RB_TMP/runs"

# ---- the patterns fixed for these files, their values as fio 3.33 takes them
# zone counts ("8z", fio's zbd examples): bytes per job as fio reads them on a 4 MiB file
F=$RB_TMP/zones.dat
truncate -s 4m "$F"
bytes() { # bytes PROGRAM ARGS...: each job's read bytes/ios, one line
	"$@" --name=j --filename="$F" --rw=read --bs=64k --ioengine=psync --output-format=json \
		--output="$RB_TMP/z.json" >/dev/null 2>&1 &&
		json_get "$RB_TMP/z.json" "' '.join('%d/%d' % (j['read']['io_bytes'], j['read']['total_ios']) for j in d['jobs'])"
}
for opts in "--zonemode=strided --zonesize=1m --offset=3z" \
	"--zonemode=strided --zonesize=1m --size=3z --io_size=2z" \
	"--numjobs=2 --zonemode=strided --zonesize=1m --offset_increment=3z" \
	"--zonemode=strided --zonesize=128k --zonerange=256k --size=4z --zoneskip=1z" \
	"--size=3z"; do
	# shellcheck disable=SC2086
	want=$(bytes fio $opts) got=$(bytes "$RAIDBENCH" run --no-save $opts)
	check "zone counts $opts: $got, fio $want" [ -n "$want" -a "$got" = "$want" ]
done
"$RAIDBENCH" run --parse-only --name=j --filename="$F" --bs=4z >/dev/null 2>"$RB_TMP/err"
check "a zone count where fio takes none (bs=4z) is refused" grep -q "option 'bs'" "$RB_TMP/err"
# zonesize= with zonemode none (the default), zonemode=strided without zonesize=: fio 3.33
# refuses both when it runs (fixup_options; its --parse-only does not get there)
for opts in "--zonesize=256k --zonerange=1m" "--zonemode=none --zonesize=256k" "--zonemode=strided"; do
	# shellcheck disable=SC2086
	fio --name=j --filename="$F" --rw=read --bs=64k --size=64k --ioengine=psync $opts >/dev/null 2>&1
	frc=$?
	# shellcheck disable=SC2086
	"$RAIDBENCH" run --parse-only --name=j --filename="$F" $opts >/dev/null 2>"$RB_TMP/err"
	rrc=$?
	check "$opts: fio 3.33's run refuses it (rc $frc), raidbench too (rc $rrc), naming zonesize=" \
		eval '[ $frc -ne 0 ] && [ $rrc -ne 0 ] && grep -q "zonesize=" "$RB_TMP/err"'
done
# pattern files ('FILE' in buffer_pattern/verify_pattern, t0027): fio reads them while parsing
for opt in buffer_pattern verify_pattern; do
	for v in "'$RB_TMP/nofile'" "\"abc" "'$F'" '0xdeadbeef"abc"'; do
		fio --parse-only --name=j --filename="$F" --$opt="$v" >/dev/null 2>&1
		frc=$?
		"$RAIDBENCH" run --parse-only --name=j --filename="$F" --$opt="$v" >/dev/null 2>&1
		rrc=$?
		check "$opt=$v: fio rc $frc, raidbench rc $rrc: both accept or both refuse" \
			[ $((frc != 0)) = $((rrc != 0)) ]
	done
done
# pvsync and pvsync2 (riteme/fuse-vs-ublk, NinaMaller/docker-fio): fio's counts
# for the same seeded random jobs on a file
for e in pvsync pvsync2; do
	for rw in randread randwrite randrw; do
		set -- --name=j --filename="$F" --rw=$rw --bs=4k --size=1m --ioengine=$e --randseed=7 \
			--output-format=json
		fio "$@" --output="$RB_TMP/f.json" >/dev/null 2>&1
		"$RAIDBENCH" run --no-save "$@" --output="$RB_TMP/r.json" >/dev/null 2>&1
		q="'%d %d' % (d['jobs'][0]['read']['total_ios'], d['jobs'][0]['write']['total_ios'])"
		want=$(json_get "$RB_TMP/f.json" "$q") got=$(json_get "$RB_TMP/r.json" "$q")
		check "ioengine=$e rw=$rw: reads and writes $got, fio $want" [ -n "$want" -a "$got" = "$want" ]
	done
done
if command -v strace >/dev/null; then
	# LeakSanitizer cannot stop the world under ptrace: no leak check for this one
	# run of a sanitizer build (ASan's other checks stay)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -o "$RB_TMP/strace" -e trace=preadv2,pwritev2 "$RAIDBENCH" run --no-save --name=j \
			--filename="$F" --rw=randrw --bs=4k --size=64k --ioengine=pvsync2 --hipri >/dev/null 2>&1
	check "pvsync2 --hipri reads with preadv2(..., RWF_HIPRI)" grep -q 'preadv2(.*RWF_HIPRI' "$RB_TMP/strace"
	check "pvsync2 --hipri writes with pwritev2(..., RWF_HIPRI)" grep -q 'pwritev2(.*RWF_HIPRI' "$RB_TMP/strace"
fi
rb_done
