#!/bin/bash
# Two threads through the live ring at several capacities (including 2).
. "$(dirname "$0")/lib.sh"
STRESS=$(dirname "$RAIDBENCH")/tests/unit/test_ring_stress
[ -x "$STRESS" ] || { echo "FAIL: $STRESS not built"; exit 1; }
"$STRESS" 2000000
