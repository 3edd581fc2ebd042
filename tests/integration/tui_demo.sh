#!/bin/bash
# tui_demo.sh - the first minutes of a newcomer without RAID hardware:
# `raidbench --demo` shows the bundled real captures (controllers, arrays,
# md) read-only, in the off-screen TUI and in tmux; a missing capture
# directory is a clear error; Help and README say how (--demo, --import, the
# simulators and RAIDBENCH_SIM_STATE) and say what s and q do during a run as
# the screen does it; and ./configure's own checks no longer try to remove
# our core/ directory (autoconf's "rm -f core", see configure.ac).
. "$(dirname "$0")/lib.sh"
rb_init
export TZ=UTC LANG=C.UTF-8 TERM=xterm-256color
unset LC_ALL LC_CTYPE NO_COLOR RAIDBENCH_DEMO_DIR
O=$RB_TMP/out
mkdir -p "$O"
printf 'key F2\ndump %s/devices.txt\nkey Down\nkey b\ndump %s/builder.txt\nkey F1\ndump %s/help.txt\nkey End\ndump %s/help_end.txt\n' \
	"$O" "$O" "$O" "$O" >"$RB_TMP/s.script"
if ! "$RAIDBENCH" tui-test --demo --size=43x132 "$RB_TMP/s.script" 2>"$RB_TMP/err"; then
	fail "tui-test --demo failed: $(cat "$RB_TMP/err")"
fi
has() { grep -q -- "$2" "$O/$1"; }
check "--demo: the HPE controller with its arrays" has devices.txt "Smart Array P440ar, slot 0"
check "--demo: the Dell PERC" has devices.txt "PERC H755 Front"
check "--demo: md arrays, one degraded" has devices.txt "md0  RAID 5 .*degraded"
check "--demo: the inventory says it is imported" has devices.txt "^ Imported: ssacli:"
check "--demo: the builder runs nothing on a capture" has builder.txt "imported, not this machine's: plans and commands show, nothing runs"
check "Help says how to see controllers without hardware" grep -q -- "raidbench --demo" "$O/help.txt" "$O/help_end.txt"
check "Help: s asks, y stops" grep -q "s asks, y stops" "$O/help.txt"
check "Help: q during a run asks, a second q stops it" grep -q "q during a run asks, a second q stops it" "$O/help.txt"

RAIDBENCH_DEMO_DIR=$RB_TMP/nowhere "$RAIDBENCH" tui-test --demo "$RB_TMP/s.script" >/dev/null 2>"$RB_TMP/err"
check "a missing capture directory: a clear error" grep -q "the demo's captures are not in $RB_TMP/nowhere" "$RB_TMP/err"

# the real terminal
if command -v tmux >/dev/null 2>&1; then
	S=rbdemo$$
	tmux new-session -d -s "$S" -x 132 -y 43 "env HOME=$RB_TMP $RAIDBENCH --demo; echo RAIDBENCH-EXITED=\$?; exec bash --norc"
	wait_for "PERC H755" 10 || tmux capture-pane -p -t "$S" | head -5
	tmux capture-pane -p -t "$S" >"$O/tmux.txt"
	check "raidbench --demo on a terminal shows the captures" has tmux.txt "Smart Array P440ar"
	tmux send-keys -t "$S" q
	wait_for "RAIDBENCH-EXITED=0" 5
	tmux capture-pane -p -t "$S" >"$O/tmux_quit.txt"
	check "... and q quits cleanly" has tmux_quit.txt "RAIDBENCH-EXITED=0"
	tmux kill-session -t "$S" 2>/dev/null
fi

R=$SRCDIR/README.md
check "README: --demo" grep -q -- "--demo" "$R"
check "README: --import of a capture" grep -q -- "--import=TOOL:FILE" "$R"
check "README: the simulators need RAIDBENCH_SIM_STATE" grep -q "RAIDBENCH_SIM_STATE" "$R"
check "README: s asks, y stops" grep -q '`s` asks, `y` stops' "$R"
check "README: q mid-run asks, a second q stops" grep -q 'second `q` stops the run' "$R"
# a configured tree's configure: no check removes "core" (our directory) any more
if [ -f "$SRCDIR/configure" ]; then
	check "configure: no 'rm -f core ' left (it hit core/ and broke the cleanup)" \
		sh -c "! grep -q 'rm -f core ' '$SRCDIR/configure'"
fi
rb_done
