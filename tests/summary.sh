#!/bin/bash
# Counts test cases over the logs `make check` left: Check's "Checks: N,
# Failures: F, Errors: E" lines for unit tests, "PASS:"/"FAIL:" lines for the
# shell tests (also the VM scenarios of `make check-vm`); a test program that
# died without a summary counts as failed.
# Prints skips with their reasons, failures' logs, and "N passed, N failed".
# Counts the sanitizer pass (asan/src/, tests/asan.log) and tsan.log too.
cd "$(dirname "$0")/.."
passed=0 failed=0 skipped=0
# asan/src/: the tree `make check-asan` built and tested with the sanitizers;
# tests/vm/: what `make check-vm` left (.ci/run runs it after make check)
for trs in tests/unit/*.trs tests/integration/*.trs tests/fuzz/*.trs \
	asan/src/tests/unit/*.trs asan/src/tests/integration/*.trs asan/src/tests/fuzz/*.trs \
	tests/vm/*.trs; do
	[ -e "$trs" ] || continue
	log=${trs%.trs}.log
	result=$(sed -n 's/^:test-result: //p' "$trs" | head -1)
	name=${trs%.trs}
	if [[ $name == */tests/unit/* || $name == tests/unit/* ]]; then
		line=$(grep -E '^[0-9]+%: Checks: ' "$log" | tail -1)
		if [ -n "$line" ]; then
			n=$(sed -E 's/.*Checks: ([0-9]+).*/\1/' <<<"$line")
			f=$(sed -E 's/.*Failures: ([0-9]+).*/\1/' <<<"$line")
			e=$(sed -E 's/.*Errors: ([0-9]+).*/\1/' <<<"$line")
			passed=$((passed + n - f - e))
			failed=$((failed + f + e))
		elif [ "$result" = PASS ]; then
			passed=$((passed + 1))
		else
			failed=$((failed + 1))
		fi
	else
		p=$(grep -c '^PASS: ' "$log")
		f=$(grep -c '^FAIL: ' "$log")
		s=$(grep -c '^SKIP: ' "$log")
		passed=$((passed + p))
		failed=$((failed + f))
		skipped=$((skipped + s))
		if [ "$result" = FAIL ] || [ "$result" = ERROR ]; then
			[ "$f" -eq 0 ] && failed=$((failed + 1))
		fi
		[ "$result" = SKIP ] && [ "$s" -eq 0 ] && skipped=$((skipped + 1))
	fi
	if [ "$result" != PASS ] && [ "$result" != SKIP ]; then
		echo "---- $name: $result"
		tail -30 "$log"
	fi
	grep -h '^SKIP: ' "$log" 2>/dev/null | sed "s|^|$name: |"
done
# make check-tsan's log, when .ci/run made one
if [ -e tests/tsan.log ]; then
	p=$(grep -c '^PASS: ' tests/tsan.log)
	f=$(grep -c '^FAIL: ' tests/tsan.log)
	passed=$((passed + p))
	failed=$((failed + f))
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
		echo "---- make check-tsan did not run its tests"
		tail -20 tests/tsan.log
		failed=$((failed + 1))
	elif [ "$f" -gt 0 ]; then
		grep '^FAIL: ' tests/tsan.log
	fi
fi
# make check-asan's log, when .ci/run made one: its own verdict on the reports
# (the tests it ran are counted above from asan/src/)
if [ -e tests/asan.log ]; then
	p=$(grep -c '^PASS: no sanitizer reports' tests/asan.log)
	f=$(grep -c '^FAIL: sanitizer report' tests/asan.log)
	passed=$((passed + p))
	failed=$((failed + f))
	if [ "$f" -gt 0 ]; then
		grep -A12 '^FAIL: sanitizer report' tests/asan.log
	elif [ "$p" -eq 0 ]; then
		echo "---- make check-asan did not finish"
		tail -20 tests/asan.log
		failed=$((failed + 1))
	fi
fi
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
