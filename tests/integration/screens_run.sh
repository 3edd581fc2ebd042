#!/bin/bash
# Screen tests of the Run and Help screens and the too-small screen: the real
# TUI off-screen (raidbench tui-test), fed deterministic live records, dumped
# as text and compared with golden files at 80x24 and 132x43, UTF-8 and
# ASCII. UPDATE_GOLDEN=1 rewrites the goldens (review the diff before
# committing them).
. "$(dirname "$0")/lib.sh"
rb_init
GOLD=$SRCDIR/tests/fixtures/screens
for size in 24x80 43x132; do
	for mode in utf8 ascii; do
		out=$RB_TMP/$size-$mode
		mkdir -p "$out"
		args=(--size=$size)
		[ $mode = ascii ] && args+=(--ascii)
		for script in "$SRCDIR"/tests/screens/run_fake.script "$SRCDIR"/tests/screens/run_clones.script \
			"$SRCDIR"/tests/screens/run_devices.script \
			"$SRCDIR"/tests/screens/run_numa.script "$SRCDIR"/tests/screens/run_output.script \
			"$SRCDIR"/tests/screens/run_error.script; do
			sed "s#\${OUT}#$out#g" "$script" >"$RB_TMP/script"
			if ! LANG=C.UTF-8 TERM=xterm-256color "$RAIDBENCH" tui-test "${args[@]}" "$RB_TMP/script" \
				2>"$RB_TMP/err"; then
				fail "tui-test $size $mode $(basename "$script"): $(cat "$RB_TMP/err")"
				continue
			fi
		done
		for f in "$out"/*.txt; do
			name=run-$size-$mode-$(basename "$f")
			golden_check "$f" "$GOLD/$name"
		done
	done
done
rb_done
