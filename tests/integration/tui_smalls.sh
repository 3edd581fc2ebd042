#!/bin/bash
# tui_smalls.sh - the small things a newcomer trips on, each checked on the
# real TUI off-screen (raidbench tui-test) or the command line: Ctrl-U and
# Ctrl-W in a text field; '/' filters Devices and Results (Esc clears);
# a cut line ends in an ellipsis; the builder's Model column holds models,
# the reason its own column; "1 controller", not "1 controllers"; the
# scratch file is not called "touches no disk"; the fio command line names
# an option once (the value that wins); a direction with no I/O shows "-"
# for its latency, and rates use one unit. (Durations past a day and
# "out of range" for a 20-digit number are unit tests: test_text,
# test_options.)
. "$(dirname "$0")/lib.sh"
rb_init
export TZ=UTC LANG=C.UTF-8 TERM=xterm-256color
unset LC_ALL LC_CTYPE NO_COLOR
O=$RB_TMP/out
mkdir -p "$O"
P440=$SRCDIR/tests/fixtures/vendor/ssacli/ssacli_ctrl-all-show-config-detail_P440ar-2arrays.txt
tui() { "$RAIDBENCH" tui-test "$@" 2>"$RB_TMP/err" || fail "tui-test $*: $(cat "$RB_TMP/err")"; }
has() { grep -q -- "$2" "$O/$1"; }
hasnt() { ! grep -q -- "$2" "$O/$1"; }

cat >"$RB_TMP/a.script" <<X
key F4
dump $O/target.txt
key End
key Enter
type /var/tmp/some dir/file.dat
key ^W
dump $O/ctrl_w.txt
key ^W
dump $O/ctrl_w2.txt
key ^U
dump $O/ctrl_u.txt
key Esc
key F2
key r
dump $O/rescan.txt
type /1i:1:4
dump $O/filter_typing.txt
key Enter
dump $O/filter_kept.txt
key Esc
dump $O/filter_cleared.txt
key Down
key b
dump $O/builder.txt
X
tui --import=ssacli:"$P440" --size=43x132 "$RB_TMP/a.script"
check "Ctrl-W removes the last path component" has ctrl_w.txt "^ > /var/tmp/some dir/_"
check "... and again the next one" has ctrl_w2.txt "^ > /var/tmp/_"
check "Ctrl-U clears the field" has ctrl_u.txt "^ > _$"
check "the scratch file is not said to touch no disk" hasnt target.txt "touches no disk"
check "one controller is '1 controller'" has rescan.txt "Rescanned: 1 controller, "
check "'/' narrows Devices to the matching rows" has filter_typing.txt "/1i:1:4_  (3 of 13; Enter keeps, Esc clears)"
check "... with the rows above them" has filter_kept.txt "Array B"
check "... and not the others" hasnt filter_kept.txt "1I:1:1"
check "Esc clears the filter" has filter_cleared.txt "1I:1:1"
check "the builder's Model column holds the model" grep -qE "1I:1:4 .* ATA +ST1000LM024 .* in array B" "$O/builder.txt"

# a cut line says so
printf 'key F2\ndump %s/narrow.txt\n' "$O" >"$RB_TMP/b.script"
tui --demo --size=24x80 "$RB_TMP/b.script"
check "a cut line ends in an ellipsis" grep -q "…$" "$O/narrow.txt"
tui --demo --ascii --size=24x80 "$RB_TMP/b.script"
check "... '~' in ASCII" grep -q "~$" "$O/narrow.txt"

# Results: '/' over the saved runs (frozen fixtures)
rm -rf "$RB_TMP/xdg"
cp -r "$SRCDIR/tests/fixtures/screens/profiles_results_xdg" "$RB_TMP/xdg"
printf 'key F6\ntype /oltp\nkey Enter\ndump %s/results_filter.txt\n' "$O" >"$RB_TMP/c.script"
XDG_CONFIG_HOME=$RB_TMP/xdg/config XDG_DATA_HOME=$RB_TMP/xdg/data tui --size=30x132 "$RB_TMP/c.script"
check "'/' narrows Results to the matching runs" has results_filter.txt "/oltp  (2 of 5"
check "... and lists only them" sh -c "[ \$(grep -c '^│\[ \] 20' '$O/results_filter.txt') = 2 ]"

# the fio command line: each option once, the value that wins
printf '[global]\nruntime=15\n[a]\nrw=read\nbs=4k\nbs=8k\n' >"$RB_TMP/dup.fio"
"$RAIDBENCH" run --showcmd --runtime=5 --time_based "$RB_TMP/dup.fio" >"$O/cmd.txt" 2>&1
check "the command line names runtime once (15 wins)" sh -c "[ \$(grep -o -- '--runtime=' '$O/cmd.txt' | wc -l) = 1 ] && grep -q -- '--runtime=15' '$O/cmd.txt'"
check "... and bs once (8k wins)" sh -c "[ \$(grep -o -- '--bs=' '$O/cmd.txt' | wc -l) = 1 ] && grep -q -- '--bs=8k' '$O/cmd.txt'"

# the Run screen: one unit for rates (no "0 ns" for a direction without I/O: tui_run_next.sh)
printf 'key F5\nfake-run 80\ndump %s/run.txt\n' "$O" >"$RB_TMP/d.script"
tui --size=43x132 "$RB_TMP/d.script"
check "rates side by side in one unit (MB/s)" sh -c "! grep -qE '[0-9] (B|kB|GB)/s' '$O/run.txt'"
rb_done
