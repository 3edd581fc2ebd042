#!/bin/bash
# The man page documents every option each subcommand's --help names.
. "$(dirname "$0")/lib.sh"
rb_init
MAN=$SRCDIR/tui/raidbench.1
[ -f "$MAN" ] || rb_skip "tui/raidbench.1 not in this tree"
# the page's text with troff's escapes undone: \- is -, \f? font changes go
sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\c//g' "$MAN" >"$RB_TMP/man.txt"
for cmd in run devices array profiles results compare report sweep; do
	"$RAIDBENCH" $cmd --help >"$RB_TMP/help" 2>&1
	# "--option=value" in run's help stands for every fio job option, not one option
	opts=$(grep -oE -- '--[a-z][a-z0-9_-]+' "$RB_TMP/help" | grep -vx -- '--option' | sort -u)
	missing=""
	for o in $opts; do
		grep -q -- "$o" "$RB_TMP/man.txt" || missing="$missing $o"
	done
	if [ -z "$opts" ]; then
		fail "raidbench $cmd --help names no options"
	elif [ -z "$missing" ]; then
		pass "raidbench $cmd: the man page has every option --help names ($(echo $opts | wc -w))"
	else
		fail "raidbench $cmd: --help names options the man page lacks:$missing"
	fi
done
rb_done
