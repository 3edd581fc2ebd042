#!/bin/bash
# fio_suite.sh - fio 3.33's own regression harness, t/run-fio-tests.py, on
# raidbench: its job-file tests (ids 1-26) run once with the installed fio
# and once with `fio` standing for `raidbench run`. Every test fio passes on
# this machine must pass on raidbench; the output lists both results per test.
#
# usage: tests/fio_suite.sh (make check-fio-suite)
#   FIO_SRC    a fio source tree to take t/ from (default: the copy of fio 3.33's
#              t/run-fio-tests.py and t/jobs in tests/fixtures/fio-examples)
#   RAIDBENCH  the binary (default: ./raidbench next to this script's tree)
#   FIO_SUITE_TESTS  test ids to run (default: 1-26)
#   FIO_SUITE_TIMEOUT  seconds each test may take per program (default: 660)
# Exit: 0 when raidbench passes everything fio passes, 1 otherwise, 77 when
# fio 3.33 or python3 is missing. Nothing is fetched.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
src=${FIO_SRC:-$top/tests/fixtures/fio-examples}
rb=${RAIDBENCH:-$top/raidbench}
ids=${FIO_SUITE_TESTS:-$(seq -s ' ' 1 26)}
limit=${FIO_SUITE_TIMEOUT:-660}
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
command -v fio >/dev/null || { echo "SKIP: fio is not installed (apt-get install fio)"; exit 77; }
[ "$(fio --version)" = fio-3.33 ] || { echo "SKIP: fio is $(fio --version), the harness is 3.33's"; exit 77; }
[ -x "$rb" ] || { echo "$rb: not built" >&2; exit 2; }
[ -f "$src/t/run-fio-tests.py" ] || { echo "$src has no t/run-fio-tests.py" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "${TMPDIR:-/tmp}/raidbench.suite.$$"' EXIT
export XDG_DATA_HOME=$tmp/data RAIDBENCH_NO_STATUS=1
# the wrapper runs the binary as it is now: a rebuild during the run must not swap it
cp "$rb" "${TMPDIR:-/tmp}/raidbench.suite.$$" && rb=${TMPDIR:-/tmp}/raidbench.suite.$$
# the harness reads the build's features from config-host.h in its fio root:
# raidbench always has libaio, and no zoned block device support (zbd tests skip)
mkdir "$tmp/root"
ln -s "$src/t" "$tmp/root/t"
echo '#define CONFIG_LIBAIO' >"$tmp/root/config-host.h"
printf '#!/bin/sh\nexec "%s" run --no-save "$@"\n' "$rb" >"$tmp/fio"
chmod +x "$tmp/fio"

# one harness run per test and program, each under a time limit (the harness's
# own 600 s limit cannot end a fio whose child process hangs): a hang is a result
harness() { # harness ID FIO ARTIFACTS OUT
	(cd "$tmp" && timeout -k 10 "$limit" python3 "$src/t/run-fio-tests.py" -r "$tmp/root" \
		-f "$2" -a "$3" --run-only "$1") >"$4" 2>&1
	grep -q "^Test $1 " "$4" || echo "Test $1 TIMEOUT after $limit s" >>"$4"
}
for id in $ids; do
	harness "$id" "$(command -v fio)" "$tmp/by-fio.$id" "$tmp/fio.$id.out"
	harness "$id" "$tmp/fio" "$tmp/by-raidbench.$id" "$tmp/rb.$id.out"
done

status=0 both=0 fio_passed=0
for id in $ids; do
	f=$(grep -m1 "^Test $id " "$tmp/fio.$id.out" | cut -d' ' -f3-)
	r=$(grep -m1 "^Test $id " "$tmp/rb.$id.out" | cut -d' ' -f3-)
	case $f in
	PASSED*)
		fio_passed=$((fio_passed + 1))
		case $r in
		PASSED*) both=$((both + 1)); echo "PASS: test $id: ${r#PASSED }" ;;
		*) status=1; echo "FAIL: test $id: fio passes, raidbench ${r:-did not run}" ;;
		esac ;;
	*) echo "SKIP: test $id: fio itself: ${f:-did not run} (raidbench: ${r%% *})" ;;
	esac
done
echo "# raidbench passes $both of the $fio_passed tests fio passes here"
[ "$fio_passed" -gt 0 ] || { cat "$tmp"/fio.*.out; exit 1; }
exit $status
