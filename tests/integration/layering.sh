#!/bin/bash
# layering.sh - the layout holds: tui -> hw -> core, nothing runs back up.
# core/ and hw/ include no curses and no header of a layer above them and never
# print; every .c file in tui/ is a front end (draws with curses or prints).
# A grep, so it also holds for an in-tree build where automake's -I. would let
# a "tui/x.h" include slip past the per-library include paths.
SRCDIR=${SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$SRCDIR" || exit 99
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "PASS: $*"; }

# header names of a layer, as an alternation for grep -E
names() { find "$@" -name '*.h' -printf '%f\n' | sed 's/\./\\./' | paste -sd'|'; }
TUI_H=$(names tui)
HW_H=$(names hw)
CURSES='<(n?curses|ncursesw/[a-z]+|panel|menu|form)\.h>'
PRINTS='\b(printf|puts|putchar|vprintf)[[:space:]]*\(|\b(stdout|stderr)\b'

hits=$(grep -nE "#[[:space:]]*include[[:space:]]*($CURSES|\"(tui/|hw/)?($TUI_H)\"|\"tui/)" core/*.[ch] hw/*.[ch])
[ -z "$hits" ] && ok "core/ and hw/ include no curses and no tui/ header" ||
	bad "curses or a tui/ header below tui/:"$'\n'"$hits"
hits=$(grep -nE "#[[:space:]]*include[[:space:]]*\"(hw/)?($HW_H)\"" core/*.[ch])
[ -z "$hits" ] && ok "core/ includes no hw/ header" || bad "core/ includes hw/:"$'\n'"$hits"
# comments may say "stderr"; code may not write there
# (string literals are text, not streams: a message may say "stdout")
hits=$(grep -nE "$PRINTS" core/*.c hw/*.c | grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/?\*|//)' |
	sed -E 's@/\*.*@@; s@"([^"\\]|\\.)*"@""@g' | grep -E "$PRINTS")
[ -z "$hits" ] && ok "core/ and hw/ never print" || bad "core/ or hw/ prints:"$'\n'"$hits"

# a tui/ file either draws (curses, directly or through headers of tui/
# that include it) or writes to stdio
CURSES_H=
while :; do
	pat="$CURSES"; [ -n "$CURSES_H" ] && pat="($CURSES|\"($CURSES_H)\")"
	more=$(grep -lE "#[[:space:]]*include[[:space:]]*$pat" $(find tui -name '*.h') |
		xargs -r -n1 basename | sort | sed 's/\./\\./' | paste -sd'|')
	[ "$more" = "$CURSES_H" ] && break
	CURSES_H=$more
done
n=0
for f in $(find tui -name '*.c' | sort); do
	n=$((n + 1))
	grep -qE "#[[:space:]]*include[[:space:]]*($CURSES|\"($CURSES_H)\")" "$f" && continue
	grep -qE "$PRINTS|\b(fputs|fprintf|fwrite|fputc|vfprintf)[[:space:]]*\(" "$f" && continue
	bad "$f neither draws nor prints: it belongs in core/ or hw/"
done
[ "$n" -gt 0 ] || bad "no .c file found under tui/"
[ $fails -eq 0 ] && ok "$n tui/ files are front ends"
[ $fails -eq 0 ]
