#!/bin/bash
# vendor_corpus.sh - every real vendor capture in tests/fixtures/vendor/ with
# an expected model beside it imports to that model, and none shows health
# better than its own words (tests/integration/vendor_corpus.py).
. "$(dirname "$0")/lib.sh"
need_tool python3 python3
rb_init

python3 "$SRCDIR/tests/integration/vendor_corpus.py" "$RAIDBENCH" \
	"$SRCDIR/tests/fixtures/vendor" >"$RB_TMP/out" 2>&1
st=$?
while IFS= read -r line; do
	case $line in
	PASS:*) pass "${line#PASS: }" ;;
	FAIL:*) fail "${line#FAIL: }" ;;
	*) echo "$line" ;;
	esac
done <"$RB_TMP/out"
[ $st -eq 0 ] || [ "$RB_FAIL" -gt 0 ] || fail "vendor_corpus.py exited $st"
rb_done
