#!/bin/bash
# seams.sh - the seams hold: no code outside an I/O engine's own file and the
# engine registry names an engine, and no code outside a RAID tool's own files
# and the tool registry names a vendor tool. Code elsewhere asks the ops
# table's flags and members (core/engine.h, hw/raidtool.h), so adding an
# engine or a tool is its file + one registry line, never a hunt for names.
# Tests (tests/) and the tool simulators (tests/sim) are outside the search.
. "$(dirname "$0")/lib.sh"

cd "$SRCDIR" || exit 1
SRC=(core hw tui)

# grep over the C sources, minus the files allowed to name things
sources_grep() { # sources_grep ERE EXCLUDE-ERE(path)
	grep -rnE --include='*.c' --include='*.h' "$1" "${SRC[@]}" | grep -vE "$2"
}

# --- engines ---------------------------------------------------------------
# The names, read from the engine files themselves (.name = "...").
mapfile -t engines < <(sed -n 's/^[[:space:]]*\.name = "\([^"]*\)",$/\1/p' core/engine_*.c)
[ "${#engines[@]}" -ge 5 ] || fail "engine names read from core/engine_*.c: ${engines[*]}"
# Allowed outside the engine files:
#  - core/job.c: the notes of fio's engine-specific options that raidbench
#    accepts and ignores name the fio engine they belong to (user-visible text).
#  - "sync" and "null" are also fio's words for other things: the sync=
#    option and its values, the "sync" latency section of the reports, and
#    verify=null; those lines say so with the option or report they are in.
engine_allow='^core/engine[^/]*\.[ch]:|^core/job\.c:[0-9]+:.*an option of fio.s [a-z_]+ engine|^core/job\.c:[0-9]+:#define N_URING|^core/job\.c:[0-9]+:.*\{ "sync", |^core/report_(normal|json)\.c:[0-9]+:.*(show_lat|show_percentiles|jobj)\(.*"sync"|^core/job\.c:[0-9]+:.*verify=null|^core/job\.c:[0-9]+:.*strcmp\(v, "null"\)|^core/units\.c:[0-9]+:.*"pattern", "null"'
leaks=
for n in "${engines[@]}"; do
	hits=$(sources_grep "\"$n\"|ioengine=$n\\b|fio's $n\\b|\\b$n engine" "$engine_allow")
	[ -n "$hits" ] && leaks+="$hits"$'\n'
done
if [ -z "$leaks" ]; then
	pass "no engine named outside its engine file and core/engine.c (${engines[*]})"
else
	fail "engine names outside the engine files and the registry:"
	printf '%s' "$leaks"
fi

# --- vendor RAID tools -------------------------------------------------------
# The names are read from the tools' ops tables; the allow-list and its
# reasons are at the top of seams_tools.py.
if out=$(python3 "$SRCDIR/tests/integration/seams_tools.py" "$SRCDIR"); then
	pass "no RAID tool named outside its own files and the registry (${out#\# tools: })"
else
	fail "RAID tool names outside the tools' files and the registry:"
	printf '%s\n' "$out"
fi

rb_done
