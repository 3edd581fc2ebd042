#!/bin/bash
# The exec engine's program with std_redirect=0 under the TUI, in a real
# terminal (tmux): its output must not reach the terminal (where it would
# write over the screen, and an escape sequence would act on the terminal).
# It is caught and shown, escaped, in the job's note on the Run screen once
# the job ends. The program clears the screen, writes at its top left and
# retitles the window; then says a line of text. A second program counts a
# line every 0.3 s: its latest lines show, escaped, while the job runs (the
# live view, not only the note at the end). On the command line its output
# stays raidbench's own, as fio's (checked last; that held before too).
. "$(dirname "$0")/lib.sh"
rb_init
need_tool tmux tmux
S=rbexout$$
cleanup_tmux() { tmux kill-session -t "$S" 2>/dev/null; rb_cleanup; }
trap cleanup_tmux EXIT

W=$RB_TMP/w
PROF_DIR=$RB_TMP/config/raidbench/profiles
mkdir -p "$W" "$PROF_DIR"
cat >"$W/loud.sh" <<'EOF'
#!/bin/sh
printf '\033]2;CHILD-TITLE\007'
printf '\033[2J\033[HSCREEN-WRECKED\n'
echo "child says hello"
echo "to stderr too" >&2
sleep 30
EOF
chmod +x "$W/loud.sh"
cat >"$PROF_DIR/exout.fio" <<EOF
[global]
runtime=3
time_based
[rd]
description=reads the target beside the program
ioengine=psync
rw=read
bs=64k
[prog]
description=a program whose output is not redirected
ioengine=exec
program=$W/loud.sh
std_redirect=0
EOF
truncate -s 16M "$W/target.dat"

tmux new-session -d -s "$S" -x 160 -y 43 -c "$W" \
	"env LANG=C.UTF-8 XDG_DATA_HOME=$XDG_DATA_HOME XDG_CACHE_HOME=$XDG_CACHE_HOME XDG_CONFIG_HOME=$RB_TMP/config $RAIDBENCH --profile=exout --target=$W/target.dat --start; echo RAIDBENCH-EXITED=\$?; exec bash --norc"
# the program has written by now (it writes at once, then sleeps)
if wait_for "Run finished" 40; then
	pass "the run finished"
else
	fail "the run did not finish: $(tmux capture-pane -p -t "$S" | grep -v '^ *$' | tail -5)"
fi
screen=$(tmux capture-pane -p -t "$S")
title=$(tmux display-message -p -t "$S" '#{pane_title}')
check "no escape sequence reached the terminal: the title is not the program's ('$title')" \
	[ "$title" != CHILD-TITLE ]
check "the screen stays intact: nothing written at its top left ('$(printf '%s\n' "$screen" | head -1 | cut -c1-60)')" \
	eval '! printf "%s\n" "$screen" | grep -q "^SCREEN-WRECKED"'
check "the TUI's own top line is there" eval 'printf "%s\n" "$screen" | head -1 | grep -q raidbench'
check "the program's output is shown in the job's note" \
	eval 'printf "%s\n" "$screen" | grep -q "wrote: .*child says hello | to stderr too"'
check "escaped: ESC shows as \\x1b, not sent" \
	eval 'printf "%s\n" "$screen" | grep -qF "\x1b]2;CHILD-TITLE\x07\x1b[2J\x1b[HSCREEN-WRECKED"'
tmux send-keys -t "$S" q
wait_for "RAIDBENCH-EXITED=" 20
check "raidbench exits 0 ($(tmux capture-pane -p -t "$S" | grep -o 'RAIDBENCH-EXITED=[0-9]*'))" \
	eval 'tmux capture-pane -p -t "$S" | grep -q "RAIDBENCH-EXITED=0"'

# while it runs: a numbered line every 0.3 s for 3 s (each with an escape sequence), then quiet
cat >"$W/count.sh" <<'EOF'
#!/bin/sh
i=1
while [ $i -le 10 ]; do
	printf 'line %d \033[7mlit\033[0m\n' $i
	i=$((i + 1))
	sleep 0.3
done
sleep 30
EOF
chmod +x "$W/count.sh"
cat >"$PROF_DIR/exlive.fio" <<EOF
[prog]
description=a program that counts while the job runs
ioengine=exec
program=$W/count.sh
std_redirect=0
runtime=7
EOF
tmux kill-session -t "$S" 2>/dev/null
tmux new-session -d -s "$S" -x 160 -y 43 -c "$W" \
	"env LANG=C.UTF-8 XDG_DATA_HOME=$XDG_DATA_HOME XDG_CACHE_HOME=$XDG_CACHE_HOME XDG_CONFIG_HOME=$RB_TMP/config $RAIDBENCH --profile=exlive --target=$W/target.dat --start; echo RAIDBENCH-EXITED=\$?; exec bash --norc"
# watch the screen until the run finishes: what did it show while the job was running?
mid="" last="" early=""
for ((i = 0; i < 400; i++)); do
	shot=$(tmux capture-pane -p -t "$S" 2>/dev/null)
	if printf '%s\n' "$shot" | grep -q "Run finished"; then
		break
	fi
	if printf '%s\n' "$shot" | grep -q "^ *running  elapsed"; then
		if [ -z "$mid" ] && printf '%s\n' "$shot" | grep -q "output: .*line 5 "; then
			mid=$shot
			printf '%s\n' "$shot" | grep -q "line 10 " || early=1
		fi
		printf '%s\n' "$shot" | grep -q "output: .*line 10 " && last=$shot
	fi
	sleep 0.1
done
check "a middle line (line 5) shows on the Run screen while the job runs" [ -n "$mid" ]
check "it shows before the program has written its last line (line 10): live, not at the end" \
	[ -n "$early" ]
check "the live line is escaped: ESC shows as \\x1b ($(printf '%s\n' "$mid" | grep -o "line 5 .*" | head -1))" \
	eval 'printf "%s\n" "$mid" | grep -qF "line 5 \x1b[7mlit\x1b[0m"'
check "it is refreshed as the program goes on: line 10 shows while the job still runs" [ -n "$last" ]
check "then the run finished" eval 'tmux capture-pane -p -t "$S" | grep -q "Run finished"'
# (the note wraps over rows; the live rows give way to it)
check "the note at the end is still there ($(tmux capture-pane -p -t "$S" | grep -o "its program wrote.*" | cut -c1-60))" \
	eval 'tmux capture-pane -p -t "$S" | grep -q "its program wrote: line 1 " &&
	      tmux capture-pane -p -t "$S" | grep -qF "line 10 \x1b[7mlit\x1b[0m"'
tmux send-keys -t "$S" q
wait_for "RAIDBENCH-EXITED=" 20
check "raidbench exits 0 after the live run ($(tmux capture-pane -p -t "$S" | grep -o 'RAIDBENCH-EXITED=[0-9]*'))" \
	eval 'tmux capture-pane -p -t "$S" | grep -q "RAIDBENCH-EXITED=0"'

# the command line keeps fio's way: the program writes on raidbench's own stdout and stderr
cat >"$W/hello.sh" <<'EOF'
#!/bin/sh
echo HEADLESS-OUT
echo HEADLESS-ERR >&2
EOF
chmod +x "$W/hello.sh"
(cd "$W" && timeout 60 "$RAIDBENCH" run --no-save --output=/dev/null --name=h --ioengine=exec \
	--program="$W/hello.sh" --runtime=1 --std_redirect=0 >"$RB_TMP/hout" 2>"$RB_TMP/herr")
check "command line: the program's stdout is raidbench's ($(tr '\n' '|' <"$RB_TMP/hout"))" \
	grep -qx HEADLESS-OUT "$RB_TMP/hout"
check "command line: its stderr is raidbench's ($(tr '\n' '|' <"$RB_TMP/herr"))" \
	grep -qx HEADLESS-ERR "$RB_TMP/herr"
rb_done
