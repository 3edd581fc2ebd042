#!/bin/bash
# tui_run_next.sh - the Run screen says what Enter starts, after every pick:
# the profile, the target, the phases, their length and whether it writes;
# picking another profile (or target) changes it, also when the screen
# still shows the last run. The real TUI off-screen (raidbench tui-test)
# with the built-in profiles of the source tree and a user profile that
# only writes (last in the list).
. "$(dirname "$0")/lib.sh"
rb_init
export XDG_CONFIG_HOME=$RB_TMP/config TZ=UTC LANG=C.UTF-8 TERM=xterm-256color
export RAIDBENCH_PROFILE_DIR=$SRCDIR/profiles
unset LC_ALL LC_CTYPE NO_COLOR TARGET
mkdir -p "$XDG_CONFIG_HOME/raidbench/profiles"
P=$XDG_CONFIG_HOME/raidbench/profiles
printf '[global]\nioengine=psync\nruntime=1\ntime_based\n[w]\nrw=randwrite\nbs=4k\n' >"$P/wonly.fio"
O=$RB_TMP/out
mkdir -p "$O"
cat >"$RB_TMP/s.script" <<X
key F5
dump $O/first.txt
key F3
key End
key Enter
key F5
dump $O/wonly.txt
key Enter
wait-run 20
dump $O/ran.txt
key F3
key Home
key Enter
key F4
key End
key Enter
type $RB_TMP/t.dat
key Enter
type 4m
key Enter
key F5
dump $O/after.txt
X
if ! "$RAIDBENCH" tui-test --size=43x132 "$RB_TMP/s.script" 2>"$RB_TMP/err"; then
	fail "tui-test failed: $(cat "$RB_TMP/err")"
fi
has() { grep -qF -- "$2" "$O/$1"; }
check "before any run: Next names profile and target" has first.txt "Next: default on the scratch file"
check "... the phases, their length, reads and writes" has first.txt "4 phases (read, write, randread, randwrite); 5 s each, 20 s in all; reads and writes"
check "a write profile picked: Next says so" has wonly.txt "Next: wonly on the scratch file"
check "... and that it only writes" has wonly.txt "1 phase (randwrite); 1 s in all; writes"
check "the run of it finished" has ran.txt "finished"
check "... its read side, without I/O, shows '-' for latency" grep -q "read.*write" "$O/ran.txt"
check "... never '0 ns'" sh -c "! grep -q '0 ns' '$O/ran.txt'"
check "after the run, the other pick is what Enter starts" has after.txt "Next (Enter): backup-stream on $RB_TMP/t.dat:"
[ "$RB_FAIL" = 0 ] || { for f in "$O"/*.txt; do echo "--- $f"; cat "$f"; done; }
rb_done
