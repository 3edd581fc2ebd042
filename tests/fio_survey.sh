#!/bin/bash
# fio_survey.sh - how much of fio's own job material `raidbench run` takes.
# Runs `fio --parse-only` and `raidbench run --parse-only` over a fio source
# tree's examples/*.fio and t/jobs/*.fio and prints, per file, whether each
# accepts it and raidbench's reason when it refuses; then the totals.
#
# usage: tests/fio_survey.sh [FIO_SOURCE_TREE [RAIDBENCH]]
#   FIO_SOURCE_TREE  default: fio 3.33's files in tests/fixtures/fio-examples
#   RAIDBENCH        the binary (default: ./raidbench next to this script's tree)
# Output lines: "ok   FILE", "REFUSED FILE: reason", "fio-refuses FILE" (skipped).
# Development tool: not part of make check (it needs fio installed).
set -u
src=${1:-$(cd "$(dirname "$0")" && pwd)/fixtures/fio-examples}
rb=${2:-$(cd "$(dirname "$0")/.." && pwd)/raidbench}
command -v fio >/dev/null || { echo "fio is not installed (apt-get install fio)" >&2; exit 2; }
[ -x "$rb" ] || { echo "$rb: not built" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_DATA_HOME=$tmp/data RAIDBENCH_NO_STATUS=1

for set in examples t/jobs; do
	total=0 fio_ok=0 rb_ok=0
	for f in "$src/$set"/*.fio; do
		[ -e "$f" ] || continue
		total=$((total + 1))
		name=$set/${f##*/}
		# run from inside the file's directory, as a user would: includes are relative
		if ! (cd "$(dirname "$f")" && timeout 20 fio --parse-only "$f") >/dev/null 2>&1; then
			echo "fio-refuses $name"
			continue
		fi
		fio_ok=$((fio_ok + 1))
		if (cd "$(dirname "$f")" && timeout 20 "$rb" run --parse-only "$f") >/dev/null \
			2>"$tmp/err"; then
			rb_ok=$((rb_ok + 1))
			echo "ok   $name"
		else
			echo "REFUSED $name: $(grep -v '^$' "$tmp/err" | head -1)"
		fi
	done
	echo "# $set: $total files, fio accepts $fio_ok, raidbench accepts $rb_ok of those"
done
