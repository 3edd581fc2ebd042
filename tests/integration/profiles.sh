#!/bin/bash
# Built-in profiles, saved results and compare (issue 7): every profile
# parses in raidbench and in fio 3.33, names no target or run length, has a
# description on each job and runs for about 2 s on a loop device; the
# CrystalDiskMark sets carry KDiskMark's fio parameters (table below);
# compare gives the numbers of the files it reads, for two saved runs and
# for fio's own JSON, and survives truncated, foreign and missing files.
. "$(dirname "$0")/lib.sh"
rb_init
need_root
need_tool python3 python3
# the build tree may not be the source tree (make distcheck)
export RAIDBENCH_PROFILE_DIR=$SRCDIR/profiles
export XDG_CONFIG_HOME=$RB_TMP/config
P=$SRCDIR/profiles
J=$RB_TMP/out.json
RES=$XDG_DATA_HOME/raidbench/results
HAVE_FIO=
command -v fio >/dev/null 2>&1 && HAVE_FIO=1
names=$(cd "$P" && ls *.fio | sed 's/\.fio$//')
# a checker's report, shown only when it is not a plain "ok"
why() { [ "${1##*$'\n'}" = ok ] || echo ": $1"; }

# ---- every profile parses and says what it does ----------------------------
for n in $names; do
	f=$P/$n.fio
	if TARGET=$RB_TMP/t.dat "$RAIDBENCH" run --parse-only "$f" 2>"$RB_TMP/err"; then
		pass "parse-only $n"
	else fail "parse-only $n: $(cat "$RB_TMP/err")"; fi
	if [ -n "$HAVE_FIO" ]; then
		if TARGET=$RB_TMP/t.dat fio --parse-only "$f" >/dev/null 2>"$RB_TMP/err"; then
			pass "fio 3.33 parses $n"
		else fail "fio --parse-only $n: $(cat "$RB_TMP/err")"; fi
	fi
	# the target and the run length come from the user
	bad=$(grep -E '^[[:space:]]*(filename|directory|size|io_size|runtime|time_based|ramp_time)[[:space:]]*(=|$)' "$f")
	check "$n names no target or run length${bad:+: $bad}" [ -z "$bad" ]
done

"$RAIDBENCH" profiles --json >"$RB_TMP/profiles.json" 2>"$RB_TMP/err"
check "profiles --json exits 0" [ $? -eq 0 ]
check "profiles lists every built-in profile" [ "$(json_get "$RB_TMP/profiles.json" "len(d)")" = "$(echo $names | wc -w)" ]
check "every phase of every profile has a description" [ "$(json_get "$RB_TMP/profiles.json" \
	"all(p['description'] for x in d for p in x['phases'])")" = True ]
check "every profile has a summary" [ "$(json_get "$RB_TMP/profiles.json" "all(x['description'] for x in d)")" = True ]
"$RAIDBENCH" profiles >"$RB_TMP/list" 2>&1
check "profiles table shows cdm-nvme with 8 phases" grep -qE '^cdm-nvme +built-in +8 ' "$RB_TMP/list"
check "profiles path finds the file" [ "$("$RAIDBENCH" profiles path oltp)" = "$P/oltp.fio" ]
"$RAIDBENCH" profiles path no-such-profile >/dev/null 2>"$RB_TMP/err"
check "unknown profile exits 2" [ $? -eq 2 ]
check "unknown profile is named" grep -q "no-such-profile" "$RB_TMP/err"
"$RAIDBENCH" profiles show latency-4k --filename=/dev/sdz >"$RB_TMP/show"
check "profiles show prints the job file" grep -q '^\[lat-4k-randread\]' "$RB_TMP/show"
check "profiles show prints the fio command line" grep -q '^; fio --filename=/dev/sdz --ioengine=libaio' "$RB_TMP/show"

# user profiles: listed, and one of a built-in's name wins over it
mkdir -p "$XDG_CONFIG_HOME/raidbench/profiles"
printf '; my own\n[mine]\ndescription=mine\nrw=read\n' >"$XDG_CONFIG_HOME/raidbench/profiles/mine.fio"
printf '; my oltp\n[oltp]\ndescription=mine\nrw=randrw\n' >"$XDG_CONFIG_HOME/raidbench/profiles/oltp.fio"
"$RAIDBENCH" profiles --json >"$RB_TMP/profiles.json"
check "user profile listed" [ "$(json_get "$RB_TMP/profiles.json" "[x['source'] for x in d if x['name'] == 'mine']")" = "['user']" ]
check "user profile wins over a built-in" [ "$(json_get "$RB_TMP/profiles.json" "[x['description'] for x in d if x['name'] == 'oltp']")" = "['my oltp']" ]
rm -rf "$XDG_CONFIG_HOME/raidbench"
"$RAIDBENCH" profiles --json >"$RB_TMP/profiles.json"

# ---- the CrystalDiskMark sets: KDiskMark's fio parameters --------------------
# KDiskMark src/helper.cpp passes these to every test; src/appsettings.cpp
# gives the tests (CrystalDiskMark 8 default and NVMe SSD presets).
cat >"$RB_TMP/kdiskmark.py" <<'EOF'
import shlex, sys
COMMON = {"ioengine": "libaio", "randrepeat": "0", "refill_buffers": "0", "end_fsync": "1",
          "direct": "1", "rwmixread": "70", "zero_buffers": "0", "group_reporting": None}
TESTS = {
    "cdm-standard": [("1024k", "8", "1"), ("1024k", "1", "1"), ("4k", "32", "1"), ("4k", "1", "1")],
    "cdm-nvme": [("1024k", "8", "1"), ("128k", "32", "1"), ("4k", "32", "16"), ("4k", "1", "1")],
}
PATTERN = ["read", "read", "randread", "randread", "write", "write", "randwrite", "randwrite"]

def jobs(cmdline):
    words = shlex.split(cmdline)
    assert words[0] == "fio", words[0]
    glob, out, cur = {}, [], None
    for w in words[1:]:
        k, _, v = w[2:].partition("=")
        v = v if "=" in w else None
        if k == "name":
            cur = dict(glob)
            out.append(cur)
        (cur if cur is not None else glob)[k] = v
    return out

profile, cmdline = sys.argv[1], open(sys.argv[2]).read().strip()
got = jobs(cmdline)
want = [dict(COMMON, rw=rw, bs=bs, iodepth=q, numjobs=t)
        for rw, (bs, q, t) in zip(PATTERN, TESTS[profile] * 2)]
ok = len(got) == len(want)
for i, (g, w) in enumerate(zip(got, want)):
    for k, v in w.items():
        if k not in g or g[k] != v:
            print("%s test %d (%s): %s=%r, KDiskMark has %r" % (profile, i + 1, g.get("name"), k, g.get(k), v))
            ok = False
    if "stonewall" not in g:
        print("%s test %d runs alongside the previous one (no stonewall)" % (profile, i + 1))
        ok = False
print("ok" if ok else "differs")
EOF
for n in cdm-standard cdm-nvme; do
	"$RAIDBENCH" run --showcmd "$P/$n.fio" >"$RB_TMP/cmd" 2>"$RB_TMP/err"
	out=$(python3 "$RB_TMP/kdiskmark.py" "$n" "$RB_TMP/cmd" 2>&1)
	check "$n has KDiskMark's parameters$(why "$out")" [ "${out##*$'\n'}" = ok ]
	if [ -n "$HAVE_FIO" ]; then
		fio --showcmd "$P/$n.fio" >"$RB_TMP/cmd"
		out=$(python3 "$RB_TMP/kdiskmark.py" "$n" "$RB_TMP/cmd" 2>&1)
		check "fio reads $n the same way$(why "$out")" [ "${out##*$'\n'}" = ok ]
	fi
done

# ---- every profile runs for ~1 s on a loop device ---------------------------
make_loop 256 || rb_skip "cannot make a loop device"
for n in $names; do
	phases=$(json_get "$RB_TMP/profiles.json" "[len(x['phases']) for x in d if x['name'] == '$n'][0]")
	ms=$((1000 / phases))
	rm -f "$RES"/*.json
	start=$(date +%s%N)
	if TARGET=$LOOP_DEV "$RAIDBENCH" run --output-format=json --output="$J" --filename="$LOOP_DEV" \
		--size=64m --runtime=${ms}ms --time_based --allow-destroy="$LOOP_DEV" --profile="$n" \
		2>"$RB_TMP/err"; then
		el=$((($(date +%s%N) - start) / 1000000))
		last=$(ls "$RES"/*.json | head -1)
		# one interpreter reads the run's JSON and the saved result: an answer a line
		{ read -r groups; read -r all_io; read -r all_desc; read -r prof; read -r ident; } < <(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(len(set(j["groupid"] for j in d["jobs"])))
print(all(j["read"]["total_ios"] + j["write"]["total_ios"] > 0 for j in d["jobs"]))
print(all(j.get("desc") for j in d["jobs"]), flush=True)
s = json.load(open(sys.argv[2]))["raidbench"]
print(s["profile"], flush=True)
print(s["targets"][0]["device"] + " " + s["targets"][0]["kind"])' "$J" "$last")
		check "$n ran $phases phase(s) in ${el} ms" [ "$groups" = "$phases" ]
		check "$n: every phase did I/O" [ "$all_io" = True ]
		check "$n: every phase has its description" [ "$all_desc" = True ]
		check "$n: saved once" [ "$(ls "$RES"/*.json | wc -l)" = 1 ]
		check "$n: saved with the profile name" [ "$prof" = "$n" ]
		check "$n: saved with the target's identity" [ "$ident" = "$LOOP_DEV block_device" ]
	else fail "$n run: $(cat "$RB_TMP/err")"; fi
done

# ---- the user's word wins over a profile's; no target means the scratch file ----
mkdir -p "$RB_TMP/cwd" "$RB_TMP/uprof/raidbench/profiles"
printf '[global]\nruntime=9\ntime_based\nioengine=null\nsize=8m\n[a]\nrw=randread\n[b]\nstonewall\nruntime=7\nrw=randwrite\n' \
	>"$RB_TMP/uprof/raidbench/profiles/long.fio"
if (cd "$RB_TMP/cwd" && XDG_CONFIG_HOME=$RB_TMP/uprof "$RAIDBENCH" run --profile=long \
	--runtime=300ms --output-format=json --output="$J" --no-save 2>"$RB_TMP/err"); then
	check "--runtime wins over the profile's [global] and a job's own runtime" \
		[ "$(json_get "$J" "[max(j['read']['runtime'], j['write']['runtime']) < 1000 for j in d['jobs']]")" = "[True, True]" ]
	check "without --filename a profile runs on the scratch file" \
		[ "$(json_get "$J" "d['jobs'][0]['job options'].get('filename') or d['global options']['filename']")" = "$XDG_CACHE_HOME/raidbench/scratch.dat" ]
	check "... and says so" grep -q "no --filename: the profile runs on the scratch file" "$RB_TMP/err"
	check "... and writes nothing in the current directory" [ -z "$(ls -A "$RB_TMP/cwd")" ]
else
	fail "run --profile=long: $(cat "$RB_TMP/err")"
fi
XDG_CONFIG_HOME=$RB_TMP/uprof "$RAIDBENCH" profiles show long --runtime=2 >"$RB_TMP/show"
check "profiles show: the user's runtime among the globals and for the job that set its own" \
	[ "$(grep '^; fio' "$RB_TMP/show" | grep -o -- '--runtime=[0-9a-z]*' | tr '\n' ' ')" = "--runtime=2 --runtime=2 " ]

# ---- the quick start: raidbench without a terminal ---------------------------
if (cd "$RB_TMP/cwd" && "$RAIDBENCH" </dev/null >"$RB_TMP/qs" 2>"$RB_TMP/err"); then
	# 2 s a phase headless (5 s on the TUI): a loaded machine may stop a job late, never early
	qs_runs=$(grep -o 'run=[0-9]*-' "$RB_TMP/qs" | tr -dc '0-9\n')
	check "the quick start runs four phases of about 2 s: $(echo $qs_runs)" \
		bash -c '[ "$(wc -w <<<"$1")" = 4 ] && for r in $1; do [ "$r" -ge 2000 ] && [ "$r" -lt 4500 ] || exit 1; done' _ "$qs_runs"
	check "... on the scratch file, saying so" grep -q "scratch file $XDG_CACHE_HOME/raidbench/scratch.dat" "$RB_TMP/err"
else
	fail "the quick start: $(cat "$RB_TMP/err")"
fi

# ---- compare: two saved runs and fio's JSON ---------------------------------
rm -f "$RES"/*.json
for i in 1 2; do
	"$RAIDBENCH" run --filename="$LOOP_DEV" --size=64m --runtime=500ms --time_based \
		--profile=latency-4k >/dev/null 2>"$RB_TMP/err" || fail "latency-4k run $i: $(cat "$RB_TMP/err")"
done
A=$(ls "$RES"/*.json | head -1)
B=$(ls "$RES"/*.json | tail -1)
check "two saved runs" [ "$A" != "$B" ]

# the numbers compare prints must be those of the files, and the change against the first
cat >"$RB_TMP/verify.py" <<'EOF'
import json, math, sys
def load(p):
    t = open(p).read()
    return json.loads(t[t.index("\n{") + 1:] if not t.startswith("{") else t)
cmp = json.load(open(sys.argv[1]))
files = [load(p) for p in sys.argv[2:]]
ok = len(cmp["files"]) == len(files) and len(cmp["phases"]) > 0
for ph in cmp["phases"]:
    base = None
    for k, f in enumerate(files):
        job = [j for j in f["jobs"] if j["jobname"] == ph["phase"]][0]
        o = job[ph["direction"]]
        want = {"iops": o["iops"], "mb_s": o["bw_bytes"] / 1e6, "lat_mean_us": o["clat_ns"]["mean"] / 1e3,
                "lat_p99_us": o["clat_ns"]["percentile"]["99.000000"] / 1e3}
        got = ph["results"][k]
        base = base or want
        for m, v in want.items():
            if not math.isclose(got[m], v, rel_tol=1e-6, abs_tol=1e-3):
                print("%s %s [%d] %s: compare says %r, the file %r" % (ph["phase"], ph["direction"], k + 1, m, got[m], v)); ok = False
            pct = (v - base[m]) / base[m] * 100
            if not math.isclose(got["change_pct"][m], pct, rel_tol=1e-6, abs_tol=1e-3):
                print("%s %s [%d] %s change: %r, want %r" % (ph["phase"], ph["direction"], k + 1, m, got["change_pct"][m], pct)); ok = False
print("ok" if ok else "wrong")
EOF
"$RAIDBENCH" compare --json "$A" "$B" >"$RB_TMP/cmp.json" 2>"$RB_TMP/err"
check "compare of two saved runs exits 0" [ $? -eq 0 ]
out=$(python3 "$RB_TMP/verify.py" "$RB_TMP/cmp.json" "$A" "$B" 2>&1)
check "compare of two saved runs gives their numbers$(why "$out")" [ "${out##*$'\n'}" = ok ]
check "compare rows: 2 phases" [ "$(json_get "$RB_TMP/cmp.json" "[(p['phase'], p['direction']) for p in d['phases']]")" = "[('lat-4k-randread', 'read'), ('lat-4k-randwrite', 'write')]" ]
"$RAIDBENCH" compare "$(basename "$A")" "$(basename "$B")" >"$RB_TMP/cmp.txt" 2>"$RB_TMP/err"
check "compare finds saved runs by file name" [ $? -eq 0 ]
check "compare table has IOPS and p99 rows" grep -q 'p99 clat (us)' "$RB_TMP/cmp.txt"
check "... and no 'nothing in common' note for runs of one profile" \
	bash -c "! grep -q 'share no phase' '$RB_TMP/cmp.txt'"
"$RAIDBENCH" run --name=other --ioengine=null --size=1m --output-format=json \
	--output="$RB_TMP/other.json" --no-save 2>/dev/null
"$RAIDBENCH" compare "$A" "$RB_TMP/other.json" >"$RB_TMP/cmp2.txt" 2>"$RB_TMP/err"
check "runs with no phase in common: compare says so" grep -q "These runs share no phase" "$RB_TMP/cmp2.txt"
"$RAIDBENCH" results >"$RB_TMP/results.txt" 2>"$RB_TMP/err"
check "results lists both runs" [ "$(grep -c 'latency-4k' "$RB_TMP/results.txt")" = 2 ]

if [ -n "$HAVE_FIO" ]; then
	fio --output-format=json --output="$RB_TMP/fio.json" --filename="$LOOP_DEV" --size=64m \
		--runtime=500ms --time_based "$P/latency-4k.fio" >/dev/null 2>"$RB_TMP/err" ||
		fail "fio run: $(cat "$RB_TMP/err")"
	# fio prints warnings before its JSON at times
	{ echo "fio: file hash not empty on exit"; cat "$RB_TMP/fio.json"; } >"$RB_TMP/fio-warn.json"
	"$RAIDBENCH" compare --json "$A" "$RB_TMP/fio-warn.json" >"$RB_TMP/cmp.json" 2>"$RB_TMP/err"
	check "compare with fio's JSON exits 0" [ $? -eq 0 ]
	out=$(python3 "$RB_TMP/verify.py" "$RB_TMP/cmp.json" "$A" "$RB_TMP/fio-warn.json" 2>&1)
	check "compare with fio's JSON gives its numbers$(why "$out")" [ "${out##*$'\n'}" = ok ]
	check "fio's file is recognized" [ "$(json_get "$RB_TMP/cmp.json" "d['files'][1]['generator']")" = fio-3.33 ]
fi

# corrupt, foreign and missing files are named; the rest are still compared
head -c 1500 "$A" >"$RB_TMP/truncated.json"
"$RAIDBENCH" profiles --json >"$RB_TMP/foreign.json"
"$RAIDBENCH" compare --json "$A" "$RB_TMP/truncated.json" "$B" "$RB_TMP/foreign.json" \
	"$RB_TMP/missing.json" >"$RB_TMP/cmp.json" 2>"$RB_TMP/err"
check "compare with bad files exits 1" [ $? -eq 1 ]
check "truncated file named" grep -q "truncated.json: truncated" "$RB_TMP/err"
check "foreign file named" grep -q "foreign.json: not a fio or raidbench result" "$RB_TMP/err"
check "missing file named" grep -q "missing.json: No such file" "$RB_TMP/err"
out=$(python3 "$RB_TMP/verify.py" "$RB_TMP/cmp.json" "$A" "$B" 2>&1)
check "the good files are still compared$(why "$out")" [ "${out##*$'\n'}" = ok ]
check "errors listed in the JSON" [ "$(json_get "$RB_TMP/cmp.json" "len(d['errors'])")" = 3 ]
"$RAIDBENCH" compare "$A" "$RB_TMP/truncated.json" >"$RB_TMP/cmp.txt" 2>/dev/null
check "text compare still prints the good file" grep -q 'lat-4k-randread (read)' "$RB_TMP/cmp.txt"
cp "$RB_TMP/truncated.json" "$RES/29990101-000000-broken.json"
"$RAIDBENCH" results >"$RB_TMP/results.txt" 2>"$RB_TMP/err"
check "results survives a broken file" [ $? -eq 0 ]
check "results names the broken file" grep -q '29990101-000000-broken.json' "$RB_TMP/err"
rb_done
