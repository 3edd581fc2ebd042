#!/bin/bash
# vendor_truncated.sh - every real vendor capture cut short at several
# points imports without a crash or hang, is refused naming the tool and
# the file, or shows nothing healthier than the whole capture
# (tests/integration/vendor_truncated.py).
. "$(dirname "$0")/lib.sh"
need_tool python3 python3
rb_init

PYTHONPATH="$SRCDIR/tests/integration" python3 "$SRCDIR/tests/integration/vendor_truncated.py" \
	"$RAIDBENCH" "$SRCDIR/tests/fixtures/vendor" >"$RB_TMP/out" 2>&1
st=$?
while IFS= read -r line; do
	case $line in
	PASS:*) pass "${line#PASS: }" ;;
	FAIL:*) fail "${line#FAIL: }" ;;
	*) echo "$line" ;;
	esac
done <"$RB_TMP/out"
[ $st -eq 0 ] || [ "$RB_FAIL" -gt 0 ] || fail "vendor_truncated.py exited $st"
rb_done
