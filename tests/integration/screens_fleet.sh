#!/bin/bash
# Screen tests of the Run screen's Hosts pane, a run on four fio servers: all
# running, a host's jobs (drill-down), one host lost, one of another protocol
# version. The real TUI off-screen (raidbench tui-test), fed deterministic
# live records, dumped as text and compared with golden files at 80x24 and
# 132x43, UTF-8 and ASCII. UPDATE_GOLDEN=1 rewrites the goldens (review the
# diff before committing them).
. "$(dirname "$0")/lib.sh"
rb_init
GOLD=$SRCDIR/tests/fixtures/screens
produced=()
for size in 24x80 43x132; do
	for mode in utf8 ascii; do
		out=$RB_TMP/$size-$mode
		mkdir -p "$out"
		sed "s#\${OUT}#$out#g" "$SRCDIR/tests/screens/run_fleet.script" >"$RB_TMP/script"
		args=(--size=$size)
		[ $mode = ascii ] && args+=(--ascii)
		if ! LANG=C.UTF-8 TERM=xterm-256color "$RAIDBENCH" tui-test "${args[@]}" "$RB_TMP/script" \
			2>"$RB_TMP/err"; then
			fail "tui-test $size $mode: $(cat "$RB_TMP/err")"
			continue
		fi
		for f in "$out"/*.txt; do
			name=fleet-$size-$mode-$(basename "$f")
			produced+=("$name")
			golden_check "$f" "$GOLD/$name"
		done
	done
done
# A golden no script produces any more is a test that silently stopped running.
for g in "$GOLD"/fleet-*.txt; do
	[ -e "$g" ] || continue
	n=$(basename "$g")
	case " ${produced[*]} " in
	*" $n "*) ;;
	*) fail "$n: golden dump that no script produces (remove it or restore its script)" ;;
	esac
done

# what the goldens must show, whatever else changes in them
D=$RB_TMP/24x80-utf8
check "the lost host is named lost with its reason" grep -q "10.0.0.3,8765 *lost .*" "$D/fleet_lost.txt"
check "...and its reason line follows it" grep -q "the connection closed mid-run" "$D/fleet_lost.txt"
check "the host of another version is named with both versions" \
	grep -q "version 96, raidbench speaks 97" "$D/fleet_version.txt"
check "the drill-down lists the chosen host's jobs" \
	grep -q "rand-write-4k" "$D/fleet_drill.txt"
rb_done
