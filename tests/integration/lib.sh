# lib.sh - shared by the shell tests: a temp dir and loop devices that are
# always cleaned up, PASS/FAIL lines that tests/summary.sh counts, and JSON
# helpers. Source it; then call rb_init.
#
# Every loop device a test makes is detached and every file removed on exit,
# also when the test fails or is interrupted. Only devices this shell made
# are ever touched.

RAIDBENCH=${RAIDBENCH:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/raidbench}
SRCDIR=${SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
export RAIDBENCH_NO_STATUS=1
RB_PASS=0
RB_FAIL=0
RB_LOOPS=()
RB_MOUNTS=()
RB_DIRS=()	# more directories to remove on exit
RB_TMP=

rb_cleanup() {
	local m l d
	for m in "${RB_MOUNTS[@]}"; do umount -l "$m" 2>/dev/null; done
	for l in "${RB_LOOPS[@]}"; do losetup -d "$l" 2>/dev/null; done
	for d in "${RB_DIRS[@]}"; do rm -rf "$d"; done
	# this test's own tmux server (TMUX_TMPDIR below), if one still runs
	[ -n "${TMUX_TMPDIR:-}" ] && [ "$TMUX_TMPDIR" = "$RB_TMP" ] && tmux kill-server 2>/dev/null
	[ -n "$RB_TMP" ] && rm -rf "$RB_TMP"
}

# Timing (make bench: tests/bench/) must not share the machine with this build
# tree's tests: every test holds this lock shared for its lifetime, and
# rb_timing_begin/rb_timing_end take it exclusively for the timed part. The
# lock belongs to the build tree of $RAIDBENCH, so other checkouts never wait.
RB_LOCK=${RB_LOCK:-$(dirname "$RAIDBENCH")/.raidbench-tests.lock}
rb_timing_begin() { flock -x 9; }
rb_timing_end() { flock -s 9; }

rb_init() {
	exec 9>>"$RB_LOCK"
	flock -s 9
	RB_TMP=$(mktemp -d /var/tmp/raidbench-test.XXXXXX)
	trap rb_cleanup EXIT
	trap 'exit 130' INT TERM
	export XDG_DATA_HOME=$RB_TMP/data XDG_CACHE_HOME=$RB_TMP/cache
	# a tmux server of this test's own: tests run side by side, and a shared server
	# exits under one test when another kills its last session
	export TMUX_TMPDIR=$RB_TMP
	unset TMUX
	# ...which stays up when its last session closes: a test that kills its
	# session and starts the next one otherwise races the exiting server
	# ("server exited unexpectedly"); rb_cleanup kills it
	echo "set -g exit-empty off" >"$RB_TMP/tmux.conf"
	# python3 is Debian's (.ci/deps installs it) when a version manager's shim
	# comes first on PATH: a pyenv shim is a shell script that costs ~0.35 s a
	# call, the tests (and the simulators' #! lines) make hundreds of calls
	local py
	py=$(type -P python3)
	if [ -x /usr/bin/python3 ] && [ -n "$py" ] && [ "$(readlink -f "$py")" != "$(readlink -f /usr/bin/python3)" ] &&
		head -c 2 "$py" | grep -q '#!'; then
		mkdir -p "$RB_TMP/bin" && ln -s /usr/bin/python3 "$RB_TMP/bin/python3" &&
			export PATH="$RB_TMP/bin:$PATH"
	fi
}
# Test helpers need only Python's standard library: -S skips site's start-up
# hooks, which a machine may load with every interpreter (most of its start-up CPU)
python3() { command python3 -S "$@"; }
# every tmux call of a test starts (if need be) the server configured above
tmux() {
	if [ -n "$RB_TMP" ] && [ -f "$RB_TMP/tmux.conf" ]; then
		command tmux -f "$RB_TMP/tmux.conf" "$@"
	else
		command tmux "$@"
	fi
}

pass() { echo "PASS: $*"; RB_PASS=$((RB_PASS + 1)); }
fail() { echo "FAIL: $*"; RB_FAIL=$((RB_FAIL + 1)); }
check() { # check NAME COMMAND... : PASS when the command succeeds
	local name=$1; shift
	if "$@"; then pass "$name"; else fail "$name"; fi
}

rb_done() {
	echo "# $RB_PASS passed, $RB_FAIL failed"
	[ "$RB_FAIL" -eq 0 ]
	exit $?
}

# Skips the whole script (automake's 77) with the reason.
rb_skip() { echo "SKIP: $*"; exit 77; }

need_root() { [ "$(id -u)" -eq 0 ] || rb_skip "needs root for loop devices"; }
need_tool() { command -v "$1" >/dev/null 2>&1 || rb_skip "$1 is not installed (apt-get install $2)"; }

# make_loop SIZE_MB: attaches a new loop device (direct I/O on) over a sparse
# file and sets LOOP_DEV and LOOP_IMG. Not in a subshell: cleanup must see it.
make_loop() {
	LOOP_IMG=$(mktemp "$RB_TMP/loop.XXXXXX.img")
	truncate -s "${1}M" "$LOOP_IMG"
	LOOP_DEV=$(losetup -f --show --direct-io=on "$LOOP_IMG") || return 1
	RB_LOOPS+=("$LOOP_DEV")
}

# json_get FILE PYEXPR: evaluates a Python expression over the parsed JSON `d`.
json_get() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# golden_check DUMP GOLDEN: PASS when the screen dump equals its golden file;
# UPDATE_GOLDEN=1 rewrites the golden instead (review the diff before committing).
golden_check() {
	local dump=$1 gold=$2 name
	name=$(basename "$gold")
	if [ -n "${UPDATE_GOLDEN:-}" ]; then
		cp "$dump" "$gold"
		pass "$name (golden updated)"
	elif [ ! -e "$gold" ]; then
		fail "$name has no golden dump (UPDATE_GOLDEN=1 makes it)"
	elif diff -u "$gold" "$dump" >"$RB_TMP/diff" 2>&1; then
		pass "$name matches its golden dump"
	else
		fail "$name differs from its golden dump:"
		head -60 "$RB_TMP/diff"
	fi
}

# wait_for PATTERN [SECONDS]: until the tmux session $S shows PATTERN (a
# regular expression) on screen, 10 s unless told; false when it never does
wait_for() {
	local i
	for ((i = 0; i < ${2:-10} * 10; i++)); do
		tmux capture-pane -p -t "$S" 2>/dev/null | grep -q -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
