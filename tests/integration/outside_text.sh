#!/bin/bash
# Text from outside reaching a terminal (issue 21): a result file with a
# 600-byte target path and a 3000-byte device must not crash `results`,
# `compare` or the Results screen; escape sequences in a vendor capture's
# serial, a result file's job name and path, a profile's description or a
# job file's value are shown as \xNN by `devices`, `results`, `compare`,
# `profiles`, `array show` and `run`'s job-file errors (JSON output stays
# valid JSON and UTF-8), and drawn as '?' by the TUI with every box border
# in its column.
. "$(dirname "$0")/lib.sh"
rb_init
export XDG_CONFIG_HOME=$RB_TMP/config LANG=C.UTF-8 TERM=xterm-256color TZ=UTC
unset LC_ALL LC_CTYPE NO_COLOR
RES=$XDG_DATA_HOME/raidbench/results
mkdir -p "$RES" "$XDG_CONFIG_HOME/raidbench/profiles"
VENDOR=$SRCDIR/tests/fixtures/vendor
[ -d "$VENDOR" ] || VENDOR=$SRCDIR/../shared/fixtures/vendor

# clean FILE: no C0 byte but newline and tab, no DEL, no C1 (U+0080..U+009F), valid UTF-8
clean() {
	python3 - "$1" <<'PY'
import re, sys
b = open(sys.argv[1], "rb").read()
bad = re.search(rb"[\x00-\x08\x0b-\x1f\x7f]", b)
try:
    t = b.decode("utf-8")
except UnicodeDecodeError as e:
    sys.exit("invalid UTF-8 at byte %d" % e.start)
c1 = re.search("[\x80-\x9f]", t)
if bad or c1:
    sys.exit("control character at %d: %r" % ((bad or c1).start(), (bad or c1).group()))
PY
}

# borders FILE: every line of a screen dump that opens a box line (│) closes it in the last column
borders() {
	python3 - "$1" "$2" <<'PY'
import sys
cols = int(sys.argv[2])
for n, l in enumerate(open(sys.argv[1], encoding="utf-8", errors="replace"), 1):
    l = l.rstrip("\n")
    if "^[" in l:
        sys.exit("line %d shows ^[: %r" % (n, l))
    if l.startswith("\u2502") and (len(l) != cols or not l.endswith("\u2502")):
        sys.exit("line %d: border out of column %d: %r" % (n, cols, l))
PY
}

# ---- a result file longer than any buffer for its target ------------------
python3 -c "import json;print(json.dumps({'jobs':[{'jobname':'j','read':{},'write':{}}],'raidbench':{'targets':[{'path':'A'*600,'device':'B'*3000}]}}))" \
	>"$RES/20260101-000001-long.json"
"$RAIDBENCH" compare "$RES/20260101-000001-long.json" "$RES/20260101-000001-long.json" \
	>"$RB_TMP/out" 2>"$RB_TMP/err"
check "compare survives a 600-byte target and a 3000-byte device (exit 0)" [ $? -eq 0 ]
check "compare shows the target, cut" grep -q "target AAAAAAAAAA" "$RB_TMP/out"
"$RAIDBENCH" results >"$RB_TMP/out" 2>"$RB_TMP/err"
check "results survives it (exit 0)" [ $? -eq 0 ]
check "results lists it" grep -q "20260101-000001-long.json" "$RB_TMP/out"

# ---- escape sequences in a result file -------------------------------------
python3 - "$RES/20260101-000002-esc.json" <<'PY'
import json, sys
esc = {"jobs": [{"jobname": "job\x1b]0;pwned\x07\x1b[2J", "groupid": 0, "desc": "d\x1b[31m\x9b",
                 "read": {"total_ios": 1, "iops": 1.0}, "write": {}}],
       "raidbench": {"host": "h\x1b[1m", "profile": "p\x1b[5m\x7f",
                     "targets": [{"path": "/dev/\x1b[31mA\x01", "device": "B\x07"}]}}
json.dump(esc, open(sys.argv[1], "w"))
PY
"$RAIDBENCH" results >"$RB_TMP/out" 2>"$RB_TMP/err"
check "results with escapes in a result file exits 0" [ $? -eq 0 ]
check "results stdout carries no control character ($(clean "$RB_TMP/out" 2>&1))" clean "$RB_TMP/out"
check "results shows the escape as \\x1b" grep -qF '/dev/\x1b[31mA\x01' "$RB_TMP/out"
"$RAIDBENCH" compare "$RES/20260101-000002-esc.json" "$RES/20260101-000002-esc.json" \
	>"$RB_TMP/out" 2>"$RB_TMP/err"
check "compare with escapes exits 0" [ $? -eq 0 ]
check "compare stdout carries no control character ($(clean "$RB_TMP/out" 2>&1))" clean "$RB_TMP/out"
check "compare shows the job name's escapes" grep -qF 'job\x1b]0;pwned\x07\x1b[2J' "$RB_TMP/out"
"$RAIDBENCH" compare --json "$RES/20260101-000002-esc.json" "$RES/20260101-000002-esc.json" \
	>"$RB_TMP/out.json" 2>"$RB_TMP/err"
check "compare --json stays valid JSON with the name intact" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d["phases"][0]["phase"] == "job\x1b]0;pwned\x07\x1b[2J" else 1)' "$RB_TMP/out.json"
check "compare --json carries no raw control byte ($(clean "$RB_TMP/out.json" 2>&1))" \
	clean "$RB_TMP/out.json"
# a file that is not JSON at all names itself without its bytes reaching the terminal
printf '{"jobs": [\033[2J\033]0;x\007' >"$RES/20260101-000003-broken.json"
"$RAIDBENCH" results >"$RB_TMP/out" 2>"$RB_TMP/err"
check "results stderr carries no control character ($(clean "$RB_TMP/err" 2>&1))" clean "$RB_TMP/err"
rm -f "$RES/20260101-000003-broken.json"

# ---- escape sequences in a vendor capture ---------------------------------
CAP=$VENDOR/ssacli/ssacli_ctrl-all-show-config-detail_P440ar-2arrays.txt
if [ -f "$CAP" ]; then
	python3 - "$CAP" "$RB_TMP/ssacli.txt" <<'PY'
import sys
t = open(sys.argv[1], "rb").read()
t = t.replace(b"Serial Number: REDACTED",
              b"Serial Number: " + b"X" * 60 + b"\x1b]0;pwned\x07\x1b[2J\xc2\x9b\x9b\x1b[31mY" * 3, 1)
t = t.replace(b"Model: ATA     INTEL SSDSC2KB01", b"Model: ATA     EVIL\x1b[31mRED\x7f\x01", 1)
open(sys.argv[2], "wb").write(t)
PY
	"$RAIDBENCH" devices --no-tools --import "ssacli:$RB_TMP/ssacli.txt" >"$RB_TMP/out" 2>"$RB_TMP/err"
	check "devices --import of a capture with escapes exits 0" [ $? -eq 0 ]
	check "devices stdout carries no control character ($(clean "$RB_TMP/out" 2>&1))" clean "$RB_TMP/out"
	check "devices shows the serial's escapes as \\x1b" grep -qF 'serial XXXXXXXXXX' "$RB_TMP/out"
	check "devices shows the model's escapes" grep -qF 'EVIL\x1b[31mRED\x7f\x01' "$RB_TMP/out"
	"$RAIDBENCH" devices --json --no-tools --import "ssacli:$RB_TMP/ssacli.txt" >"$RB_TMP/out.json"
	check "devices --json keeps the serial, escaped by JSON" python3 -c '
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
sys.exit(0 if any("\x1b]0;pwned\x07\x1b[2J\x9b\ufffd" in (c["serial"] or "")
                  for c in d["controllers"]) else 1)' "$RB_TMP/out.json"
	check "devices --json carries no raw control byte or broken UTF-8 ($(clean "$RB_TMP/out.json" 2>&1))" \
		clean "$RB_TMP/out.json"

	# the TUI: the controller's details (serial) and a drive's (model) in 24x80
	cat >"$RB_TMP/script" <<EOS
key F2
key Home
dump $RB_TMP/ctl.txt
key Down
key Down
key Down
key Tab
key PgDn
dump $RB_TMP/pd.txt
EOS
	HOME=/nonexistent XDG_CACHE_HOME=/cache "$RAIDBENCH" tui-test --size=24x80 \
		--import="ssacli:$RB_TMP/ssacli.txt" "$RB_TMP/script" 2>"$RB_TMP/err"
	check "tui-test over the capture exits 0" [ $? -eq 0 ]
	check "Devices: the serial is drawn" grep -q "Serial      XXXXXXXXXX" "$RB_TMP/ctl.txt"
	check "Devices: controller details keep their borders ($(borders "$RB_TMP/ctl.txt" 80 2>&1))" \
		borders "$RB_TMP/ctl.txt" 80
	check "Devices: drive details keep their borders ($(borders "$RB_TMP/pd.txt" 80 2>&1))" \
		borders "$RB_TMP/pd.txt" 80
	check "Devices: screen dumps carry no control character" clean "$RB_TMP/ctl.txt"
else
	echo "# no ssacli capture: the vendor checks are skipped"
fi

# ---- array show over a (simulated) ssacli whose drive model holds escapes ---
export RAIDBENCH_SIM_STATE=$RB_TMP/sim.json RAIDBENCH_SIM_LOG=$RB_TMP/sim.log
if PATH="$SRCDIR/tests/sim:$PATH" "$RAIDBENCH" array show --tool=ssacli >/dev/null 2>"$RB_TMP/err"; then
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["ssacli"]["controllers"][0]["drives"][0]["model"] = "EVIL\x1b[2J\x1b]0;t\x07X"
json.dump(d, open(sys.argv[1], "w"))' "$RAIDBENCH_SIM_STATE"
	PATH="$SRCDIR/tests/sim:$PATH" "$RAIDBENCH" array show --tool=ssacli >"$RB_TMP/out" 2>"$RB_TMP/err"
	check "array show: the model's escapes are shown" grep -qF 'EVIL\x1b[2J\x1b]0;t\x07X' "$RB_TMP/out"
	check "array show carries no control character ($(clean "$RB_TMP/out" 2>&1))" clean "$RB_TMP/out"
else
	fail "array show over the simulated ssacli: $(cat "$RB_TMP/err")"
fi

# ---- the Results screen over both files -----------------------------------
printf 'key F6\ndump %s\nkey Down\nkey Enter\ndump %s\n' "$RB_TMP/res.txt" "$RB_TMP/res2.txt" \
	>"$RB_TMP/script"
HOME=/nonexistent XDG_CACHE_HOME=/cache "$RAIDBENCH" tui-test --size=24x80 "$RB_TMP/script" \
	2>"$RB_TMP/err"
check "Results screen survives both files (exit 0)" [ $? -eq 0 ]
check "Results screen: borders hold ($(borders "$RB_TMP/res.txt" 80 2>&1))" borders "$RB_TMP/res.txt" 80
check "Results screen: no control character in the dump" clean "$RB_TMP/res.txt"
check "Results screen, a run's summary: borders hold ($(borders "$RB_TMP/res2.txt" 80 2>&1))" \
	borders "$RB_TMP/res2.txt" 80

# ---- a profile's description ----------------------------------------------
printf '; mine\033[31m red\033]0;x\007\n[evil\033[2Jjob]\nrw=read\n' \
	>"$XDG_CONFIG_HOME/raidbench/profiles/evil.fio"
"$RAIDBENCH" profiles >"$RB_TMP/out" 2>"$RB_TMP/err"
check "profiles lists a profile with escapes in its description" grep -q "^evil " "$RB_TMP/out"
check "profiles stdout carries no control character ($(clean "$RB_TMP/out" 2>&1))" clean "$RB_TMP/out"
"$RAIDBENCH" profiles show evil >"$RB_TMP/out" 2>"$RB_TMP/err"
check "profiles show: the summary below the file shows the job name escaped" \
	grep -qF 'evil\x1b[2Jjob' "$RB_TMP/out"

# ---- an error message that quotes a job file -------------------------------
printf '[j]\nrw=read\033[2J\033[31m\007\n' >"$RB_TMP/bad.fio"
"$RAIDBENCH" run --parse-only "$RB_TMP/bad.fio" >"$RB_TMP/out" 2>"$RB_TMP/err"
check "a bad job file is refused" [ $? -ne 0 ]
check "the refusal quotes the value with its escapes shown" grep -qF "'read\x1b[2J\x1b[31m" "$RB_TMP/err"
check "the refusal carries no control character ($(clean "$RB_TMP/err" 2>&1))" clean "$RB_TMP/err"

rb_done
