#!/bin/bash
# replay.sh - `make check`: every fuzz harness's kept corpus and regression
# inputs, run once through the reader by the replay build (no libFuzzer).
# A crash, a sanitizer report or an error without a message fails.
SRCDIR=${SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=$(dirname "${RAIDBENCH:-$(pwd)/raidbench}")
fails=0
for name in jobfile results fio-proto ssacli storcli megacli mdstat mdadm-detail; do
	bin=$BUILD/tests/fuzz/replay_${name//-/_}
	dirs=("$SRCDIR/tests/fuzz/corpus/$name")
	[ -d "$SRCDIR/tests/fuzz/regressions/$name" ] &&
		dirs+=("$SRCDIR/tests/fuzz/regressions/$name")
	if out=$("$bin" "${dirs[@]}" 2>&1) && [ -n "$(ls "${dirs[0]}")" ]; then
		echo "PASS: fuzz replay $name: $out"
	else
		echo "FAIL: fuzz replay $name:"
		tail -20 <<<"$out"
		fails=$((fails + 1))
	fi
done
[ $fails -eq 0 ]
