#!/bin/bash
# ThreadSanitizer: the ring and mailbox stress tests, a 4-job null-engine run with the
# live view on, and `devices` probing two vendor tools at once (one answers,
# one hangs until its timeout), built with -fsanitize=thread by
# `make check-tsan`.
. "$(dirname "$0")/lib.sh"
rb_init
T=${RAIDBENCH_TSAN:?set by make check-tsan}
export TSAN_OPTIONS="halt_on_error=1 exitcode=66"
if "$T/test_ring_stress" 200000 >"$RB_TMP/out" 2>&1; then
	pass "tsan: ring stress test, clean"
else
	fail "tsan: ring stress test: $(grep -m3 -E 'WARNING|FAIL|SUMMARY' "$RB_TMP/out")"
fi
# the mailbox that carries a job's latest text (exec's output) from its worker to the sampler
if CK_FORK=no "$T/test_mailbox" >"$RB_TMP/out" 2>&1; then
	pass "tsan: mailbox stress test, clean"
else
	fail "tsan: mailbox stress test: $(grep -m3 -E 'WARNING|FAIL|SUMMARY|Checks' "$RB_TMP/out")"
fi
if "$T/raidbench" run --name=t --ioengine=null --size=64m --rw=randrw --bs=4k --iodepth=8 \
	--numjobs=4 --runtime=2 --time_based --live="$RB_TMP/live.jsonl" --live-interval=20 \
	--output-format=json --no-save >"$RB_TMP/json" 2>"$RB_TMP/err"; then
	pass "tsan: null engine, 4 jobs, live view, clean"
else
	fail "tsan: null engine run: $(grep -m3 -E 'WARNING|SUMMARY|raidbench' "$RB_TMP/err")"
fi
# the vendor tools' probe threads: one answers, one is killed at its timeout
mkdir -p "$RB_TMP/bin"
printf '#!/bin/sh\ncat "%s"\n' \
	"$SRCDIR/tests/fixtures/vendor/ssacli/ssacli_ctrl-all-show-config-detail_P440ar-2arrays.txt" \
	>"$RB_TMP/bin/ssacli"
printf '#!/bin/sh\nsleep 30\n' >"$RB_TMP/bin/storcli64"
chmod +x "$RB_TMP/bin/ssacli" "$RB_TMP/bin/storcli64"
if PATH="$RB_TMP/bin:$PATH" "$T/raidbench" devices --tool-timeout=2 >"$RB_TMP/out" \
	2>"$RB_TMP/err" && grep -q "P440ar" "$RB_TMP/out"; then
	pass "tsan: devices probing two tools at once, clean"
else
	fail "tsan: devices probe: $(grep -m3 -E 'WARNING|SUMMARY|raidbench' "$RB_TMP/err")"
fi
rb_done
