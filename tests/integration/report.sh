#!/bin/bash
# report.sh - `raidbench report` end to end: a real run on a loop device,
# two runs side by side, and a RAID-level sweep on the simulated H240 of
# seeds/000 (tests/sim/ssacli, its logical drives mapped to a loop device)
# are saved, reported as HTML, SVG and CSV, and read back by
# report_check.py, which recomputes every number from the saved JSON. Also:
# fio's own JSON and json+ (no series: the report says so), a file that is
# not a result (named, exit 1, nothing written), a crafted result whose
# names try to inject markup, and the page in headless Chromium: no console
# error, a screenshot of the expected size with charts in it. Needs root for
# the loop devices; Chromium's part is skipped (saying so) only when no
# chromium is installed.
. "$(dirname "$0")/lib.sh"
rb_init
need_tool python3 python3
need_root
need_tool losetup mount

CHECK=$SRCDIR/tests/integration/report_check.py
RESULTS=$XDG_DATA_HOME/raidbench/results
OUT=$RB_TMP/out
ERR=$RB_TMP/err
rep() { "$RAIDBENCH" report "$@" >"$OUT" 2>"$ERR"; }
newest() { ls "$RESULTS"/*.json | sort | tail -1; }

make_loop 64 || rb_skip "cannot attach a loop device"
DEV=$LOOP_DEV

# ---- one run: two phases, reads and writes, on a loop device ----------------
"$RAIDBENCH" run --allow-destroy="$DEV" --filename="$DEV" --ioengine=libaio --direct=1 \
	--time_based --runtime=2 \
	--name=mixed --rw=randrw --bs=4k --iodepth=4 \
	--name=seq --stonewall --rw=read --bs=64k --runtime=1 >"$OUT" 2>"$ERR"
check "a run on $DEV is saved" [ "$(ls "$RESULTS"/*.json 2>/dev/null | wc -l)" = 1 ]
ONE=$(newest)
check "the saved result holds series for mixed read/write and seq read" \
	json_get "$ONE" "sorted((p['phase'], p['ddir']) for p in d['raidbench']['series']['phases']) == [('mixed','read'),('mixed','write'),('seq','read')] or sys.exit(1)"
check "the saved result's series has $DEV's utilisation" \
	json_get "$ONE" "d['raidbench']['series']['devices'][0]['name'] == '${DEV#/dev/}' or sys.exit(1)"
check "fio's JSON keys stay: the clat histogram as json+ bins" \
	json_get "$ONE" "d['jobs'][0]['read']['clat_ns']['bins'] or sys.exit(1)"
check "report of one run: exit 0" rep "$ONE" -o "$RB_TMP/one.html"
check "report of one run: says where it went" grep -qF "wrote $RB_TMP/one.html" "$ERR"
check "report of one run: numbers, charts and identity equal the JSON" \
	python3 "$CHECK" single "$ONE" "$RB_TMP/one.html"
check "report of one run: nothing from the file became markup" \
	python3 "$CHECK" safe "$RB_TMP/one.html"
check "report to standard output is the same document" \
	bash -c '"$1" report "$2" 2>/dev/null | cmp -s - "$3"' _ "$RAIDBENCH" "$ONE" "$RB_TMP/one.html"

# ---- the same as SVG files and CSV ------------------------------------------
check "--format=svg: exit 0" rep --format=svg -o "$RB_TMP/svg" "$ONE"
# per phase: IOPS, MB/s, latency, a histogram per direction, devices
check "--format=svg: one standalone SVG per chart (9)" python3 "$CHECK" svgdir "$RB_TMP/svg" 9
check "--format=svg without -o is refused, naming why" \
	bash -c '! "$1" report --format=svg "$2" 2>"$3"; grep -q "name the directory with -o DIR" "$3"' \
	_ "$RAIDBENCH" "$ONE" "$ERR"
check "--format=csv: exit 0" rep --format=csv -o "$RB_TMP/series.csv" "$ONE"
check "--format=csv: its rows add up to the result's totals" \
	python3 "$CHECK" csv "$ONE" "$RB_TMP/series.csv"
check "--format=pdf is refused" bash -c '! "$1" report --format=pdf "$2" 2>/dev/null' _ "$RAIDBENCH" "$ONE"

# ---- two runs side by side -----------------------------------------------------
"$RAIDBENCH" run --allow-destroy="$DEV" --filename="$DEV" --ioengine=libaio --direct=1 \
	--time_based --runtime=2 \
	--name=mixed --rw=randrw --bs=4k --iodepth=16 \
	--name=seq --stonewall --rw=read --bs=64k --runtime=1 >"$OUT" 2>"$ERR"
TWO=$(newest)
check "report of two runs: exit 0" rep "$ONE" "$TWO" -o "$RB_TMP/two.html"
check "report of two runs: bars, changes and the best equal the JSON" \
	python3 "$CHECK" compare "$RB_TMP/two.html" "$ONE" "$TWO"
check "report of two runs: each run's own charts are there too" \
	python3 "$CHECK" single "$TWO" "$RB_TMP/two.html"
check "results are found by bare name, as compare finds them" \
	rep "$(basename "$ONE")" "$(basename "$TWO" .json)" -o "$RB_TMP/byname.html"

# ---- fio's own files: no series --------------------------------------------------
FIO=$SRCDIR/tests/fixtures/report/fio-3.33-sample.json
FIOPLUS=$SRCDIR/tests/fixtures/report/fio-3.33-jsonplus.json
check "fio's JSON: a report all the same" rep "$FIO" -o "$RB_TMP/fio.html"
check "fio's JSON: its numbers, and it says the series is missing" \
	python3 "$CHECK" single "$FIO" "$RB_TMP/fio.html"
check "fio's json+: a report all the same" rep "$FIOPLUS" -o "$RB_TMP/fioplus.html"
check "fio's json+: the latency histogram from fio's own bins" \
	grep -q "latency histogram" "$RB_TMP/fioplus.html"
check "fio's json+: histogram counts equal the bins" python3 "$CHECK" single "$FIOPLUS" "$RB_TMP/fioplus.html"
check "a result and fio's side by side" rep "$ONE" "$FIO" -o "$RB_TMP/mixed.html"

# ---- bad input ------------------------------------------------------------------------
echo '{"hello": "world"}' >"$RB_TMP/notresult.json"
rep "$RB_TMP/notresult.json" -o "$RB_TMP/bad.html"
check "a JSON that is not a result: exit 1" [ $? = 1 ]
check "a JSON that is not a result: the error names the file and why" \
	grep -qF "$RB_TMP/notresult.json: not a fio or raidbench result" "$ERR"
check "a JSON that is not a result: nothing written" [ ! -e "$RB_TMP/bad.html" ]
head -c 300 "$ONE" >"$RB_TMP/truncated.json"
rep "$ONE" "$RB_TMP/truncated.json" -o "$RB_TMP/partial.html"
check "a truncated file beside a good one: exit 1, the good one reported" \
	bash -c '[ "$1" = 1 ] && [ -s "$2" ] && grep -q "truncated" "$3" && grep -q "1 of 2 files could not be read" "$3"' \
	_ $? "$RB_TMP/partial.html" "$ERR"
rep /nonexistent.json
check "a missing file: exit 1, named with why" \
	bash -c '[ "$1" = 1 ] && grep -q "/nonexistent.json: No such file" "$2"' _ $? "$ERR"

# ---- a crafted result: every name tries to become markup --------------------------
python3 - "$ONE" "$RB_TMP/crafted.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
evil = 'x</title><script>alert(1)</script><img src=x onerror=alert(2)>'
for j in d["jobs"]:
    if j["jobname"] == "mixed":
        j["jobname"] = evil
        j["desc"] = '<iframe src="http://example.com/"></iframe>'
for p in d["raidbench"]["series"]["phases"]:
    if p["phase"] == "mixed":
        p["phase"] = p["jobname"] = evil
    # buckets of a long run: min, mean and max apart (a short run's ticks have them equal)
    for k in ("iops", "bw_bytes"):
        p[k + "_min"] = [None if v is None else v * 0.5 for v in p[k + "_mean"]]
        p[k + "_max"] = [None if v is None else v * 1.5 for v in p[k + "_mean"]]
d["raidbench"]["series"]["devices"][0]["name"] = '"><svg onload=alert(3)>'
d["raidbench"]["host"] = "h<style>*{display:none}</style>"
d["raidbench"]["targets"][0]["model"] = "M\u0007\u001b[31m]]><!--"
d["raidbench"]["targets"][0]["firmware"] = "<a href='javascript:alert(4)'>fw</a>"
text = json.dumps(d)
# bytes that are not UTF-8 in a string, as a damaged file could hold
text = text.replace('"M\\u0007', '"M\xff\xfe\\u0007')
open(sys.argv[2], "w", encoding="latin-1").write(text)
EOF
check "a crafted result: a report all the same" rep "$RB_TMP/crafted.json" -o "$RB_TMP/crafted.html"
check "a crafted result: well-formed, no script, handler, load or foreign element; the names shown as text" \
	python3 "$CHECK" safe "$RB_TMP/crafted.html" \
	'x</title><script>alert(1)</script><img src=x onerror=alert(2)>' \
	'"><svg onload=alert(3)>' "h<style>*{display:none}</style>" \
	"<a href='javascript:alert(4)'>fw</a>" '<iframe src="http://example.com/"></iframe>'
check "a crafted result: its numbers still equal the JSON" \
	python3 "$CHECK" single "$RB_TMP/crafted.json" "$RB_TMP/crafted.html"
check "a crafted result: chart files get safe names" \
	bash -c '"$1" report --format=svg -o "$2" "$3" 2>/dev/null && ! ls "$2" | grep -q "[<>\"/ ]"' \
	_ "$RAIDBENCH" "$RB_TMP/crafted-svg" "$RB_TMP/crafted.json"

# ---- a RAID-level sweep on the simulated H240 ------------------------------------------
SIM=$SRCDIR/tests/sim
export PATH="$SIM:$PATH"
export RAIDBENCH_SIM_STATE=$RB_TMP/sim.json RAIDBENCH_SIM_LOG=$RB_TMP/sim.log
export XDG_STATE_HOME=$RB_TMP/state XDG_CONFIG_HOME=$RB_TMP/config
unset RAIDBENCH_SIM_HANG RAIDBENCH_SIM_FAIL RAIDBENCH_TOOL_TIMEOUT RAIDBENCH_SIM_INIT_READS
export RAIDBENCH_SIM_OSDEVS=$DEV
mkdir -p "$XDG_CONFIG_HOME/raidbench/profiles"
cat >"$XDG_CONFIG_HOME/raidbench/profiles/reporttest.fio" <<'EOF'
; two short phases for the report test's sweep
[global]
ioengine=psync
direct=1
size=16m
group_reporting

[rand-read-4k]
stonewall
rw=randread
bs=4k

[seq-write-64k]
stonewall
rw=write
bs=64k
EOF
touch "$RB_TMP/mark"
sleep 1
"$RAIDBENCH" sweep --tool=ssacli --controller=slot=255 --drives=1I:0:5,1I:0:6,1I:0:7,1I:0:8 \
	--levels=0,1,5 --profile=reporttest --runtime=1 --poll=100 --yes >"$OUT" 2>"$ERR"
mapfile -t SWEPT < <(find "$RESULTS" -name '*.json' -newer "$RB_TMP/mark" | sort)
check "the sweep saved three levels" [ "${#SWEPT[@]}" = 3 ] || tail -5 "$ERR" "$OUT"
check "report of the sweep: exit 0" rep "${SWEPT[@]}" -o "$RB_TMP/sweep.html"
check "report of the sweep: one chart per phase across RAID 0, 1, 5, numbers equal the JSON" \
	python3 "$CHECK" sweep "$RB_TMP/sweep.html" "${SWEPT[@]}"
check "report of the sweep: each level's identity (RAID level) is there" \
	grep -q "RAID level</th><td>5" "$RB_TMP/sweep.html"

# ---- headless Chromium: renders offline, no console error, a picture --------------------
CHROMIUM=$(command -v chromium || command -v chromium-browser)
if [ -z "$CHROMIUM" ]; then
	echo "SKIP: chromium is not installed (apt-get install chromium): the rendering checks did not run"
	rb_done
fi
shot() { # shot HTML PNG W H: screenshot and console lines into $RB_TMP/console
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$RB_TMP/chromium" --enable-logging=stderr --v=0 \
		--window-size="$3,$4" --screenshot="$2" "file://$1" >"$RB_TMP/console" 2>&1
}
# the console check itself: a page with a script error must be caught
printf '<html><body><script>no_such_function();</script>x</body></html>' >"$RB_TMP/broken.html"
shot "$RB_TMP/broken.html" "$RB_TMP/broken.png" 400 300
check "Chromium's console catches a script error (the check can fail)" \
	grep -q "CONSOLE.*no_such_function" "$RB_TMP/console"
for page in one sweep crafted; do
	shot "$RB_TMP/$page.html" "$RB_TMP/$page.png" 1000 2000
	check "Chromium renders the $page report" [ -s "$RB_TMP/$page.png" ]
	if grep -E "CONSOLE|Refused to|Uncaught" "$RB_TMP/console" >"$RB_TMP/console.bad"; then
		fail "Chromium's console has messages for the $page report:"
		head -5 "$RB_TMP/console.bad"
	else
		pass "Chromium's console is clean for the $page report"
	fi
done
check "the one-run screenshot: 1000x2000, drawn top to bottom, chart colours" \
	python3 "$CHECK" shot "$RB_TMP/one.png" 1000 2000
check "the sweep screenshot: 1000x2000, drawn, chart colours" \
	python3 "$CHECK" shot "$RB_TMP/sweep.png" 1000 2000
check "the crafted report's screenshot: the page is not hidden by injected style" \
	python3 "$CHECK" shot "$RB_TMP/crafted.png" 1000 2000
rb_done
