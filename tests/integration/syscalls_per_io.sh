#!/bin/bash
# Syscalls per I/O at QD1 on a loop device, counted by strace (counts, not
# times): io_uring submits and waits in one io_uring_enter per I/O, libaio
# needs io_submit and at most one io_getevents, psync one pread.
. "$(dirname "$0")/lib.sh"
rb_init
# the sanitizers make calls of their own, and LeakSanitizer cannot run under ptrace
[ -n "${RAIDBENCH_SANITIZER:-}" ] &&
	rb_skip "syscall counts are for the plain build (strace under ${RAIDBENCH_SANITIZER} stops LeakSanitizer)"
need_root
need_tool strace strace
make_loop 16
# calls of SYSCALL per I/O in a 500 ms QD1 randread with ENGINE, as "calls ios"
per_io() {
	local engine=$1 sc=$2
	strace -f -qq -c -e trace="$sc" -o "$RB_TMP/st.$engine" "$RAIDBENCH" run --no-save \
		--name=q1 --ioengine="$engine" --rw=randread --bs=4k --iodepth=1 \
		--filename="$LOOP_DEV" --direct=1 --readonly --time_based --runtime=500ms \
		--output-format=json --output="$RB_TMP/q1.$engine.json" >/dev/null 2>&1 || return 1
	awk -v s="$sc" '$NF == s { print $4 }' "$RB_TMP/st.$engine"
	json_get "$RB_TMP/q1.$engine.json" 'd["jobs"][0]["read"]["total_ios"]'
}
# ENGINE SYSCALL MAX: at most MAX calls per I/O (a few set-up calls aside)
for spec in io_uring:io_uring_enter:1.02 libaio:io_submit:1.02 libaio:io_getevents:1.02 \
	psync:pread64:1.02; do
	IFS=: read -r engine sc max <<<"$spec"
	read -r -d '' calls ios < <(per_io "$engine" "$sc")
	echo "# $engine: $calls $sc for $ios I/Os"
	check "$engine at QD1: at most $max $sc per I/O ($calls for $ios I/Os)" \
		python3 -c "import sys; c, n = int('${calls:-0}'), int('${ios:-0}'); sys.exit(0 if n > 100 and c <= $max * n + 8 else 1)"
done
rb_done
