#!/bin/bash
# tui_probe_tmux.sh - hanging vendor tools never freeze the terminal (tmux):
# the TUI's Devices screen shows at once with each tool probing, F1 and q
# answer at once, c cancels the tools (their state says so and no process of
# them is left), a short --tool-timeout shows "timed out", quitting mid-probe
# (q or Ctrl-C) leaves no tool behind; and Ctrl-C stops `raidbench devices` while it waits
# for them, killing them too.
#
# The tools are shell scripts in a temp dir first on PATH; everything they
# start carries the temp dir's name, so pgrep finds what survives.
. "$(dirname "$0")/lib.sh"
rb_init
need_tool tmux tmux
need_tool pgrep procps
S=rbprobe$$
BIN=$RB_TMP/bin
mkdir -p "$BIN"
ln -s "$(command -v sleep)" "$BIN/nap"	# sleep, by a path that names the temp dir
MARK="[/]${BIN#/}/"			# "[/]": pgrep's own shell does not match itself
for t in ssacli storcli64; do
	printf '#!/bin/sh\n"%s/nap" 300\n' "$BIN" >"$BIN/$t"
	chmod +x "$BIN/$t"
done
left() { pgrep -af -- "$MARK"; }
reap_left() { pkill -KILL -f -- "$MARK" 2>/dev/null; true; }
cleanup() { tmux kill-session -t "$S" 2>/dev/null; reap_left; rb_cleanup; }
trap cleanup EXIT

cap() { tmux capture-pane -p -t "$S" >"$RB_TMP/$1.txt"; }
keys() { tmux send-keys -t "$S" "$@"; }
screen_has() { grep -q -- "$2" "$RB_TMP/$1.txt"; }
# await NAME PATTERN [SECONDS]: wait for PATTERN, then capture the screen as NAME
await() { wait_for "$2" "${3:-10}"; cap "$1"; }
# none_left [SECONDS]: no process of the fake tools, waiting that long for them to go
none_left() {
	local i
	for ((i = 0; i < ${1:-3} * 10; i++)); do
		[ -z "$(left)" ] && return 0
		sleep 0.1
	done
	left
	return 1
}
# start ARGS...: the TUI in a fresh session, hanging tools first on PATH
start() {
	tmux kill-session -t "$S" 2>/dev/null
	reap_left
	tmux new-session -d -s "$S" -x 100 -y 30 \
		"env PATH=$BIN:$PATH LANG=C.UTF-8 RAIDBENCH_TOOL_TIMEOUT=200 HOME=$RB_TMP XDG_DATA_HOME=$RB_TMP/data XDG_CACHE_HOME=$RB_TMP/cache XDG_CONFIG_HOME=$RB_TMP/config $RAIDBENCH $*; echo RAIDBENCH-EXITED=\$?; exec bash --norc"
}

# --- the screen comes at once, keys work while the tools hang ----------------
start
await probing "storcli: probing" 5
check "the Devices screen shows at once, with ssacli probing" screen_has probing "ssacli: probing"
check "... and storcli probing" screen_has probing "storcli: probing"
check "... each with the timeout it has (RAIDBENCH_TOOL_TIMEOUT=200)" screen_has probing "ssacli: probing.* [0-9]* s (timeout 200 s)"
check "... and says how to cancel" screen_has probing "c cancels"
check "the key bar names the cancel key" screen_has probing "cCancel tools"
check "both tools are running" test -n "$(left)"
keys F1
await help "Keys on a screen" 3
check "F1 opens Help while the tools hang" screen_has help "Keys on a screen"
check "Help documents the cancel key" screen_has help "c cancels those still running"
keys F2
await back "probing" 3
keys c
await cancelled "storcli: cancelled" 5
check "c cancels: ssacli's state says cancelled" screen_has cancelled "ssacli: cancelled"
check "... and storcli's" screen_has cancelled "storcli: cancelled"
check "no tool process is left after the cancel" none_left 3

# r asks again; q mid-probe quits at once and leaves nothing behind
keys r
await again "ssacli: probing" 5
check "r probes the tools again" screen_has again "ssacli: probing"
t0=$(date +%s)
keys q
wait_for "RAIDBENCH-EXITED" 6
took=$(($(date +%s) - t0))
cap quit
check "q quits while the tools hang (took $took s)" screen_has quit "RAIDBENCH-EXITED=0"
check "no tool process is left after quitting" none_left 3

# --- a short timeout shows as timed out ----------------------------------------
start --tool-timeout=2
await timedout "storcli: timed out" 10
check "--tool-timeout=2: ssacli timed out after 2 s" screen_has timedout "ssacli: timed out after 2 s"
check "... storcli too" screen_has timedout "storcli: timed out after 2 s"
check "no tool process is left after the timeout" none_left 3
keys q
wait_for "RAIDBENCH-EXITED" 6

# Ctrl-C while the tools hang quits as q does
start
await probing2 "storcli: probing" 5
t0=$(date +%s)
keys C-c
await ctrlc "RAIDBENCH-EXITED" 6
took=$(($(date +%s) - t0))
check "Ctrl-C quits the TUI while the tools hang (took $took s)" screen_has ctrlc "RAIDBENCH-EXITED"
check "no tool process is left after Ctrl-C in the TUI" none_left 3

# --- Ctrl-C on `raidbench devices` while it waits --------------------------------
tmux kill-session -t "$S" 2>/dev/null
tmux new-session -d -s "$S" -x 100 -y 30 \
	"env PATH=$BIN:$PATH RAIDBENCH_TOOL_TIMEOUT=200 $RAIDBENCH devices >/dev/null; echo DEVICES-EXITED=\$?; exec bash --norc"
await waiting "waiting for ssacli" 8
check "devices says which tools it waits for" screen_has waiting "waiting for ssacli"
keys C-c
await interrupted "DEVICES-EXITED" 6
check "Ctrl-C stops devices with 130" screen_has interrupted "DEVICES-EXITED=130"
check "no tool process is left after Ctrl-C" none_left 3

rb_done
