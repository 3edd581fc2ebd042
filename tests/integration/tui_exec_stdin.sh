#!/bin/bash
# A job's programs under the TUI, in a real terminal (tmux): the exec engine's
# program and exec_prerun's command read /dev/null, not the terminal. Each reads
# its stdin to the end and then says how that went: with /dev/null cat ends at
# once with status 0; with the terminal the read fails (the child's process
# group is not the terminal's: EIO, or SIGTTIN stops it) or takes the keys
# typed meanwhile.
. "$(dirname "$0")/lib.sh"
rb_init
need_tool tmux tmux
S=rbexin$$
cleanup_tmux() { tmux kill-session -t "$S" 2>/dev/null; rb_cleanup; }
trap cleanup_tmux EXIT

W=$RB_TMP/w
PROF_DIR=$RB_TMP/config/raidbench/profiles
mkdir -p "$W" "$PROF_DIR"
cat >"$W/reader.sh" <<'EOF'
#!/bin/sh
cat
echo "cat exited $?"
EOF
chmod +x "$W/reader.sh"
# one phase: a short read of the target beside the program, 3 s
cat >"$PROF_DIR/exin.fio" <<EOF
[global]
runtime=3
time_based
[rd]
description=reads the target, after a prerun that reads stdin
ioengine=psync
rw=read
bs=64k
exec_prerun=cat && echo pre ended
[prog]
description=a program that reads stdin
ioengine=exec
program=$W/reader.sh
EOF
truncate -s 16M "$W/target.dat"

tmux new-session -d -s "$S" -x 132 -y 43 -c "$W" \
	"env LANG=C.UTF-8 XDG_DATA_HOME=$XDG_DATA_HOME XDG_CACHE_HOME=$XDG_CACHE_HOME XDG_CONFIG_HOME=$RB_TMP/config $RAIDBENCH --profile=exin --target=$W/target.dat --start; echo RAIDBENCH-EXITED=\$?; exec bash --norc"
if wait_for "Run finished" 40; then
	pass "the run finished"
else
	fail "the run did not finish: $(tmux capture-pane -p -t "$S" | grep -v '^ *$' | tail -5)"
fi
check "the program read /dev/null: EOF at once (prog.stdout '$(tr '\n' '|' <"$W/prog.stdout" 2>/dev/null)', prog.stderr '$(tr '\n' '|' <"$W/prog.stderr" 2>/dev/null)')" \
	[ "$(cat "$W/prog.stdout" 2>/dev/null)" = "cat exited 0" ]
check "the prerun read /dev/null: EOF at once (rd.prerun.txt '$(tr '\n' '|' <"$W/rd.prerun.txt" 2>/dev/null)')" \
	[ "$(cat "$W/rd.prerun.txt" 2>/dev/null)" = "pre ended" ]
rb_done
