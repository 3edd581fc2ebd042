#!/bin/bash
# ThreadSanitizer: the ring stress test and a 4-job null-engine run with the
# live view on, built with -fsanitize=thread by `make check-tsan`.
. "$(dirname "$0")/lib.sh"
rb_init
T=${RAIDBENCH_TSAN:?set by make check-tsan}
export TSAN_OPTIONS="halt_on_error=1 exitcode=66"
if "$T/test_ring_stress" 200000 >"$RB_TMP/out" 2>&1; then
	pass "tsan: ring stress test, clean"
else
	fail "tsan: ring stress test: $(grep -m3 -E 'WARNING|FAIL|SUMMARY' "$RB_TMP/out")"
fi
if "$T/raidbench" run --name=t --ioengine=null --size=64m --rw=randrw --bs=4k --iodepth=8 \
	--numjobs=4 --runtime=2 --time_based --live="$RB_TMP/live.jsonl" --live-interval=20 \
	--output-format=json --no-save >"$RB_TMP/json" 2>"$RB_TMP/err"; then
	pass "tsan: null engine, 4 jobs, live view, clean"
else
	fail "tsan: null engine run: $(grep -m3 -E 'WARNING|SUMMARY|raidbench' "$RB_TMP/err")"
fi
rb_done
