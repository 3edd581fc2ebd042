#!/bin/bash
# run.sh - drives the libFuzzer harnesses `make fuzz-build` made.
#   run.sh run   BUILD SRC NAME...  each harness for FUZZ_SECONDS, one at a time
#   run.sh merge BUILD SRC NAME...  minimizes kept corpus + what runs found into SRC/corpus
# BUILD holds fuzz_NAME, corpus/NAME (new inputs) and crashes/; SRC is tests/fuzz.
set -u
how=$1 build=$2 src=$3
shift 3
secs=${FUZZ_SECONDS:-60}
max_len=${FUZZ_MAX_LEN:-4096}
# leaks count as findings; a slow input (quadratic parsing) too
opts=(-max_len="$max_len" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1)
# FUZZ_RUNS stops a harness after that many inputs (before FUZZ_SECONDS when it is fast)
[ -n "${FUZZ_RUNS:-}" ] && opts+=(-runs="$FUZZ_RUNS")
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:malloc_context_size=5}
# the scratch file is rewritten per input: keep it in memory when we can
[ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ] && export TMPDIR=/dev/shm
rc=0
for name in "$@"; do
	bin=$build/fuzz_$name
	dirs=("$src/corpus/$name")
	[ -d "$src/regressions/$name" ] && dirs+=("$src/regressions/$name")
	mkdir -p "$build/corpus/$name" "$build/crashes"
	case $how in
	run)
		echo "== $name: ${secs}s"
		"$bin" "${opts[@]}" -max_total_time="$secs" \
			-artifact_prefix="$build/crashes/$name-" "$build/corpus/$name" "${dirs[@]}" \
			>"$build/$name.log" 2>&1
		r=$?
		grep -E '^stat::number_of_executed_units|^stat::new_units_added' "$build/$name.log"
		if [ $r -ne 0 ]; then
			echo "FAIL: $name (exit $r): see $build/$name.log; the input is in $build/crashes/;"
			echo "      keep it as $src/regressions/$name/NAME once it is fixed"
			grep -m5 -E 'ERROR|SUMMARY|runtime error|fuzz:' "$build/$name.log"
			rc=1
		else
			echo "PASS: $name"
		fi
		;;
	merge)
		rm -rf "$build/merged/$name" && mkdir -p "$build/merged/$name"
		# edges only (no hit counts): the kept corpus stays a few hundred KB
		"$bin" -merge=1 -use_counters=0 -max_len="$max_len" -timeout=10 "$build/merged/$name" \
			"$src/corpus/$name" "$build/corpus/$name" >"$build/$name.merge.log" 2>&1 || {
			echo "merge of $name failed: see $build/$name.merge.log"
			rc=1
			continue
		}
		rm -rf "$src/corpus/$name" && mv "$build/merged/$name" "$src/corpus/$name"
		echo "$name: $(find "$src/corpus/$name" -type f | wc -l) inputs," \
			"$(du -sk "$src/corpus/$name" | cut -f1) KB"
		;;
	*)
		echo "run.sh: unknown action '$how'" >&2
		exit 2
		;;
	esac
done
exit $rc
