# shellcheck shell=bash
# guest-lib.sh - shared by the scenarios inside the test guest: lib.sh's
# PASS/FAIL lines and cleanup, plus one python3 kept running for the JSON
# checks (starting python3 costs seconds under TCG; one process answers all).
# Source it from a scenario; then call vm_init.
. "$SRCDIR/tests/integration/lib.sh"

vm_init() {
	[ -n "${RB_VM:-}" ] || rb_skip "runs inside the test guest: tests/vm/run-vm.sh $0"
	# what booting cost this scenario (the kernel's uptime: its start to here)
	echo "# guest up $(cut -d' ' -f1 /proc/uptime) s when $(basename "$0") started"
	# the build tree is read-only in the guest, and no timing shares the guest
	RB_LOCK=/run/raidbench-tests.lock
	rb_init
	J=$RB_TMP/devices.json
	OUT=$RB_TMP/out
	# each request: a JSON file and a python expression over it (d), one line each way
	coproc PYJ {
		exec python3 -u -c '
import json, sys
for line in sys.stdin:
    path, _, expr = line.rstrip("\n").partition("\t")
    try:
        d = json.load(open(path))
        print(str(eval(expr)).replace("\n", " "))
    except Exception as e:
        print("ERROR %s: %s" % (type(e).__name__, e))
'
	}
}

# jq_py FILE EXPR: prints EXPR evaluated over the parsed JSON d of FILE
jq_py() {
	local r e=${2//$'\n'/ }
	printf '%s\t%s\n' "$1" "${e//$'\t'/ }" >&"${PYJ[1]}"
	read -r r <&"${PYJ[0]}"
	echo "$r"
}

expect() { # expect NAME GOT WANT
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: got '$2', want '$3'"; fi
}

# devices: raidbench devices --json into $J
devices() {
	"$RAIDBENCH" devices --json >"$J" 2>"$RB_TMP/err" && return 0
	fail "raidbench devices --json: $(head -3 "$RB_TMP/err")"
	echo '{"controllers": [], "md_arrays": [], "block_devices": [], "notes": []}' >"$J"
	return 1
}

# md_summary: "NAME LEVEL SIZE STATUS DEV:ROLE,... PROGRESS" of each md array in $J, ";"-separated
md_summary() {
	jq_py "$J" '"; ".join("%s %s %s %s %s %s" % (m["name"], m["raid_level"], m["size_bytes"],
		m["status"], ",".join("%s:%s" % (x["device"], x["role"])
		for x in sorted(m["members"], key=lambda x: x["device"])),
		"-" if m["progress_pct"] is None else m["progress_pct"]) for m in d["md_arrays"])'
}

# write_safe NAME...: "NAME:true|false|missing" of block devices in $J
write_safe() {
	local n e=""
	for n in "$@"; do e="$e${e:+ + \" \" + }(\"$n:\" + next((str(b[\"write_safe\"]).lower() for b in d[\"block_devices\"] if b[\"name\"] == \"$n\"), \"missing\"))"; done
	jq_py "$J" "$e"
}

# superblocks DEV...: the devices on which mdadm --examine finds an md superblock
superblocks() {
	local d left=
	mdadm --examine "$@" >"$OUT" 2>&1
	for d in "$@"; do
		grep -q "No md superblock detected on $d\.\$" "$OUT" || left="$left $d"
	done
	echo "${left# }"
}
