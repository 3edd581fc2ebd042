#!/bin/bash
# tool_probe.sh - `raidbench devices` with vendor tools that misbehave: two
# that hang are run at once and time out together (about one timeout, not
# the sum), the slow ones are named on stderr while they are waited for,
# and nothing of them is left running; a tool that leaves a daemon child
# holding its output and exits with a valid answer is not waited on, its
# answer shows, and the child is gone afterwards.
#
# The tools are shell scripts in a temp dir first on PATH; everything they
# start carries the temp dir's name, so pgrep finds what survives.
. "$(dirname "$0")/lib.sh"
rb_init
need_tool pgrep procps

VENDOR=$SRCDIR/tests/fixtures/vendor
BIN=$RB_TMP/bin
mkdir -p "$BIN"
ln -s "$(command -v sleep)" "$BIN/nap"	# sleep, by a path that names the temp dir
MARK="[/]${BIN#/}/"			# "[/]": pgrep's own shell does not match itself
unset RAIDBENCH_TOOL_TIMEOUT
left() { pgrep -af -- "$MARK"; }
# SIGKILL lands asynchronously: a killed tool may be listed for a moment under load
gone() { local i; for ((i = 0; i < 50; i++)); do [ -z "$(left)" ] && return 0; sleep 0.1; done; false; }
reap_left() { pkill -KILL -f -- "$MARK" 2>/dev/null; true; }
trap 'reap_left; rb_cleanup' EXIT

# fake TOOL BODY: a tool on PATH that runs the shell text BODY
fake() {
	printf '#!/bin/sh\n%s\n' "$2" >"$BIN/$1"
	chmod +x "$BIN/$1"
}

# --- two hanging tools: one timeout, not two ---------------------------------
fake ssacli "\"$BIN/nap\" 300"
fake storcli64 "\"$BIN/nap\" 300"
start=$(date +%s)
RAIDBENCH_TOOL_TIMEOUT=6 PATH="$BIN:$PATH" timeout 120 "$RAIDBENCH" devices \
	>"$RB_TMP/out" 2>"$RB_TMP/err"
rc=$?
took=$(($(date +%s) - start))
check "devices with two hanging tools succeeds (status $rc)" [ "$rc" = 0 ]
# at once: about 6 s; one after the other: 12 s or more
check "two hanging tools time out together (took $took s, a 6 s timeout each)" \
	test "$took" -ge 4 -a "$took" -lt 10
check "the note names each tool that did not answer" \
	grep -q "ssacli: .*did not finish within 6 s" "$RB_TMP/out"
check "... storcli too" grep -q "storcli: .*did not finish within 6 s" "$RB_TMP/out"
check "stderr names the tools it waits for" grep -q "waiting for ssacli.*storcli" "$RB_TMP/err"
sleep 0.5
check "no process of the hanging tools is left: $(left | tr '\n' ' ')" gone
reap_left

# --tool-timeout on the command line, below the environment's
start=$(date +%s)
RAIDBENCH_TOOL_TIMEOUT=100 PATH="$BIN:$PATH" timeout 120 "$RAIDBENCH" devices --json \
	--tool-timeout=3 >"$RB_TMP/json" 2>"$RB_TMP/err"
rc=$?
took=$(($(date +%s) - start))
check "--tool-timeout=3 wins over the environment (status $rc, took $took s)" \
	test "$rc" = 0 -a "$took" -lt 8
check "--json stays valid JSON with the notes" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert any("did not finish within 3 s" in n for n in d.get("notes", [])), d.get("notes")' \
	"$RB_TMP/json"
PATH="$BIN:$PATH" "$RAIDBENCH" devices --tool-timeout=0 >/dev/null 2>"$RB_TMP/err"
rc=$?
check "--tool-timeout=0 is a usage error (status $rc)" [ "$rc" = 2 ]
check "... that says what it takes" grep -q "tool-timeout=0: seconds" "$RB_TMP/err"
reap_left

# --- a tool that leaves a daemon behind holding its stdout -------------------
rm -f "$BIN/storcli64"
fake ssacli "\"$BIN/nap\" 1000 &
cat '$VENDOR/ssacli/ssacli_ctrl-all-show-config-detail_P440ar-2arrays.txt'
exit 0"
start=$(date +%s)
RAIDBENCH_TOOL_TIMEOUT=30 PATH="$BIN:$PATH" timeout 120 "$RAIDBENCH" devices --json \
	>"$RB_TMP/json" 2>"$RB_TMP/err"
rc=$?
took=$(($(date +%s) - start))
check "a tool that leaves a daemon holding its output is not waited on (took $took s of a 30 s timeout)" \
	test "$rc" = 0 -a "$took" -lt 10
check "its answer is in the inventory (the P440ar from ssacli)" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert any(c["source"] == "ssacli" or "P440ar" in (c.get("model") or "")
           for c in d["controllers"]), d["controllers"]' "$RB_TMP/json"
sleep 0.5
check "the daemon child is gone afterwards: $(left | tr '\n' ' ')" gone

rb_done
