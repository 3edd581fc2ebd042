#!/bin/bash
# fio's own job files (examples/*.fio and t/jobs/*.fio of a fio source tree),
# bounded (null engine, size=1m, no time limits) and run by fio 3.33 and by
# raidbench: per job and direction, total_ios and io_bytes are equal. Known,
# understood differences print as KNOWN with the reason (fio_examples.py).
#
# The job files are fio 3.33's, vendored in tests/fixtures/fio-examples
# (provenance in its README.md); FIO_SRC=/path/to/fio-source uses another
# tree. Nothing is fetched at run time.
. "$(dirname "$0")/lib.sh"
rb_init
need_tool fio fio
need_tool python3 python3
FIO_SRC=${FIO_SRC:-$SRCDIR/tests/fixtures/fio-examples}
[ -d "$FIO_SRC/examples" ] || fail "$FIO_SRC has no examples/ directory"
case "$(fio --version)" in
fio-3.33) ;;
*) rb_skip "fio is $(fio --version), the comparison is with fio-3.33" ;;
esac
python3 "$SRCDIR/tests/integration/fio_examples.py" "$FIO_SRC" "$RAIDBENCH" "$RB_TMP" \
	>"$RB_TMP/out" 2>&1
cat "$RB_TMP/out"
RB_PASS=$(grep -c '^PASS' "$RB_TMP/out")
RB_FAIL=$(grep -c '^FAIL' "$RB_TMP/out")
grep -q '^# compared' "$RB_TMP/out" || fail "fio_examples.py did not finish"
rb_done
