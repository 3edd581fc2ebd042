#!/bin/bash
# tui_target_new.sh - the Target screen promises only what the run does: a
# path in a directory that does not exist is refused and named; a new file
# asks for the size the run creates it with (a bad size is refused), the
# line under the title says so, and the run then creates the file at that
# size and finishes. The real TUI off-screen (raidbench tui-test) on a
# user profile named "default" (user profiles win): two short phases,
# read then write, no size= of its own.
. "$(dirname "$0")/lib.sh"
rb_init
export XDG_CONFIG_HOME=$RB_TMP/config TZ=UTC LANG=C.UTF-8 TERM=xterm-256color
unset LC_ALL LC_CTYPE NO_COLOR TARGET
mkdir -p "$XDG_CONFIG_HOME/raidbench/profiles"
cat >"$XDG_CONFIG_HOME/raidbench/profiles/default.fio" <<'X'
; two short phases, no size= (the target gives it)
[global]
ioengine=psync
direct=1
runtime=1
time_based

[r]
stonewall
rw=randread
bs=4k

[w]
stonewall
rw=write
bs=64k
X
O=$RB_TMP/out
mkdir -p "$O"
NEW=$RB_TMP/new.dat
cat >"$RB_TMP/s.script" <<X
key F4
key End
key Enter
type $RB_TMP/no-such-dir/t.dat
key Enter
dump $O/missing_dir.txt
key Esc
key End
key Enter
type $NEW
key Enter
dump $O/size_prompt.txt
type 12q
key Enter
dump $O/size_bad.txt
key Backspace
key Backspace
key Backspace
type 8m
key Enter
dump $O/chosen.txt
key F5
key Enter
wait-run 30
dump $O/ran.txt
X
if ! "$RAIDBENCH" tui-test --size=24x100 "$RB_TMP/s.script" 2>"$RB_TMP/err"; then
	fail "tui-test failed: $(cat "$RB_TMP/err")"
fi
has() { grep -qF -- "$2" "$O/$1"; }
check "a missing directory is named as missing" has missing_dir.txt "the directory $RB_TMP/no-such-dir does not exist"
check "a new file asks for its size" has size_prompt.txt "$NEW does not exist: the run creates it."
check "a size the parser refuses is not taken" has size_bad.txt "\"12q\" is not a size"
check "the chosen line promises the creation at that size" has chosen.txt "a new file: the run creates it, 8m"
check "the run finished (no 'no size= was given')" has ran.txt "finished"
check "... without an error" sh -c "! grep -q 'did not start\|no size=' '$O/ran.txt'"
check "the run created the file, 8 MiB" [ "$(stat -c %s "$NEW" 2>/dev/null)" = 8388608 ]
[ "$RB_FAIL" = 0 ] || { echo "--- ran.txt"; cat "$O/ran.txt"; echo "--- chosen.txt"; cat "$O/chosen.txt"; }
rb_done
