#!/bin/bash
# Screen tests of the Array builder: the real TUI off-screen (raidbench
# tui-test) with the simulated vendor tools of tests/sim first on PATH, each
# script on a fresh simulator state (the H240 of seeds/000: four unassigned
# 2 TB drives). Each tests/screens/builder_*.script runs at 80x24 and
# 132x43, UTF-8 and ASCII; its dumps are compared with the goldens
# tests/fixtures/screens/NAME-SIZE-MODE.txt. UPDATE_GOLDEN=1 rewrites them
# (review the diff before committing them).
#
# Machine-specific data, and how it is kept out of the goldens: with the
# simulators on PATH the TUI's inventory also holds this machine's own
# controllers and block devices, so the Devices screen differs from machine
# to machine. It is never compared: a first run dumps it and counts the rows
# above the H240 (the GOTO_H240 line of a script becomes that many Down
# keys), and dumps of it go to ${LIVE}, where only key lines are checked.
# The builder screen shows only the chosen controller; its one
# machine-specific text, the simulator's path on the "Tool" line, becomes
# SIM/ before the diff. A script's "# env:" line sets simulator switches.
#
# Then, as root with loop devices, md: the builder over this machine's block
# devices (not golden: it lists them), RAID 1 over two loop devices through
# the mdadm simulator, which writes nothing to them.
. "$(dirname "$0")/lib.sh"
rb_init
need_tool python3 python3
GOLD=$SRCDIR/tests/fixtures/screens
SIM=$SRCDIR/tests/sim
export PATH="$SIM:$PATH"
export XDG_STATE_HOME=$RB_TMP/state XDG_CONFIG_HOME=$RB_TMP/config
unset RAIDBENCH_SIM_HANG RAIDBENCH_SIM_FAIL RAIDBENCH_TOOL_TIMEOUT RAIDBENCH_SIM_INIT_READS \
	RAIDBENCH_SIM_OSDEVS

# tui-test with a fixed locale and terminal, on a fresh simulator state
tui() {
	rm -f "$RB_TMP/sim.json"
	env LANG=C.UTF-8 LC_ALL= TERM=xterm-256color NO_COLOR= HOME=/nonexistent \
		RAIDBENCH_SIM_STATE="$RB_TMP/sim.json" RAIDBENCH_SIM_LOG="$RB_TMP/sim.log" \
		"${ENVS[@]}" "$RAIDBENCH" tui-test "$@"
}
ENVS=()

# The rows above the H240 in this machine's Devices tree.
printf 'key F2\ndump %s/tree.txt\n' "$RB_TMP" >"$RB_TMP/tree.script"
tui --size=200x250 "$RB_TMP/tree.script" 2>"$RB_TMP/err" || fail "Devices dump: $(cat "$RB_TMP/err")"
DOWNS=$(awk '/^ Device/ && !h { h = NR } /Smart HBA H240/ && h { print NR - h - 1; exit }' "$RB_TMP/tree.txt")
if [ -z "$DOWNS" ]; then
	fail "the simulated H240 is not on the Devices screen"
	cat "$RB_TMP/tree.txt"
	rb_done
fi
echo "# the H240 is row $((DOWNS + 1)) of this machine's Devices tree"

# script with GOTO_H240 expanded and ${OUT}/${LIVE} set
expand() {
	awk -v n="$DOWNS" -v out="$2" -v live="$3" '
		$0 == "GOTO_H240" { for (i = 0; i < n; i++) print "key Down"; next }
		{ gsub(/\$\{OUT\}/, out); gsub(/\$\{LIVE\}/, live); print }' "$1"
}

produced=()
for script in "$SRCDIR"/tests/screens/builder_*.script; do
	sname=$(basename "$script" .script)
	read -ra ENVS <<<"$(sed -n 's/^# env: *//p' "$script")"
	for size in 24x80 43x132; do
		for mode in utf8 ascii; do
			out=$RB_TMP/$sname-$size-$mode
			live=$RB_TMP/live-$sname-$size-$mode
			mkdir -p "$out" "$live"
			expand "$script" "$out" "$live" >"$RB_TMP/script"
			args=(--size="$size")
			[ $mode = ascii ] && args+=(--ascii)
			if ! tui "${args[@]}" "$RB_TMP/script" 2>"$RB_TMP/err"; then
				fail "$sname $size $mode: tui-test failed: $(cat "$RB_TMP/err")"
				continue
			fi
			for f in "$out"/*.txt; do
				[ -e "$f" ] || { fail "$sname $size $mode: no dumps"; break; }
				sed -i "s#$SIM/#SIM/#g" "$f"
				name=$(basename "$f" .txt)-$size-$mode.txt
				produced+=("$name")
				golden_check "$f" "$GOLD/$name"
			done
		done
	done
done
ENVS=()

# A golden no script produces any more is a test that silently stopped running.
for g in "$GOLD"/builder_*.txt; do
	[ -e "$g" ] || continue
	n=$(basename "$g")
	case " ${produced[*]} " in
	*" $n "*) ;;
	*) fail "$n: golden dump that no script produces (remove it or restore its script)" ;;
	esac
done

dump_has() { grep -qF -- "$2" "$1"; }
L=$RB_TMP/live-builder_h240-43x132-utf8
O=$RB_TMP/builder_h240-43x132-utf8

# ---- key lines, whatever the goldens say -----------------------------------------
check "walk: RAID 5 of three drives: 3.6 TiB, survives one drive failure" \
	dump_has "$O/builder_h240_raid5.txt" "3.6 TiB usable: 2 of 3 drives hold data"
check "walk: the exact command is shown before anything runs" \
	dump_has "$O/builder_h240_raid5.txt" "ssacli ctrl slot=255 create type=ld drives=1I:0:5,1I:0:6,1I:0:7 raid=5 forced"
check "walk: the estimate is labelled" dump_has "$O/builder_h240_raid5.txt" "(estimate)"
check "walk: confirmation asks for the slot" dump_has "$O/builder_h240_confirm.txt" "Type 255 (the controller's slot)"
check "walk: a wrong slot runs nothing" dump_has "$O/builder_h240_wrong.txt" "\"25\" is not 255: nothing was run"
check "walk: the new logical drive is shown" dump_has "$O/builder_h240_created.txt" "logical drive 1: RAID 5, 3.6 TiB"
check "walk: its drives are now in array A" dump_has "$O/builder_h240_created.txt" "in array A"
check "walk: the Devices screen lists the new logical drive" dump_has "$L/builder_h240_devices.txt" "LD 1"
O=$RB_TMP/builder_h240_fail-43x132-utf8
check "fail: ssacli's own words" dump_has "$O/builder_fail_refused.txt" "Error: The controller is not responding"
check "fail: nothing changed" dump_has "$O/builder_fail_unchanged.txt" "Logical drives: none yet"
O=$RB_TMP/builder_h240_init-43x132-utf8
check "init: parity initialization in progress is shown" dump_has "$O/builder_init_progress.txt" "parity initialization of logical drive 1:"
check "init: ... and ends" bash -c '! grep -q "parity initialization of" "$1"' _ "$O/builder_init_done.txt"

# ---- live: md over loop devices -------------------------------------------------------

# The md builder lists every block device, whichever such row 'b' is pressed
# on: End reaches the last row of the tree, one of the "Other block devices"
# (the loop devices made here are among them). Other tests may attach loop
# devices meanwhile and shift the rows: the walk is retried then.
live_md() {
	local o=$RB_TMP/md a b ra rb try
	mkdir -p "$o"
	make_loop 64 || return 1
	a=$LOOP_DEV
	make_loop 64 || return 1
	b=$LOOP_DEV
	for try in 1 2 3; do
		printf 'key F2\nkey End\nkey b\ndump %s/start.txt\n' "$o" >"$RB_TMP/md.script"
		tui --size=43x132 "$RB_TMP/md.script" 2>"$RB_TMP/err" ||
			{ fail "md: tui-test: $(cat "$RB_TMP/err")"; return; }
		# the rows of the two loop devices in the builder's list
		ra=$(awk -v d="$a" '/ Device /{h=NR} h && index($0, " " d " ") { print NR - h - 1; exit }' "$o/start.txt")
		rb=$(awk -v d="$b" '/ Device /{h=NR} h && index($0, " " d " ") { print NR - h - 1; exit }' "$o/start.txt")
		if [ -z "$ra" ] || [ -z "$rb" ]; then
			fail "md: the builder does not list $a and $b"
			cat "$o/start.txt"
			return
		fi
		{
			printf 'key F2\nkey End\nkey b\n'
			for ((i = 0; i < ra; i++)); do echo "key Down"; done
			echo "key Space"
			echo "key Home"
			for ((i = 0; i < rb; i++)); do echo "key Down"; done
			printf 'key Space\nkey Right\nkey Right\ndump %s/plan.txt\n' "$o"
			printf 'key Enter\ndump %s/confirm.txt\ntype md0\nkey Enter\n' "$o"
			printf 'dump %s/created.txt\nkey Esc\nkey End\nkey d\ndump %s/stop.txt\n' "$o" "$o"
			printf 'type md0\nkey Enter\ndump %s/stopped.txt\n' "$o"
		} >"$RB_TMP/md.script"
		tui --size=43x132 "$RB_TMP/md.script" 2>"$RB_TMP/err" ||
			{ fail "md: tui-test: $(cat "$RB_TMP/err")"; return; }
		dump_has "$o/plan.txt" "--raid-devices=2 $a $b" && break
		echo "# md: the block devices changed during the walk (try $try)"
	done
	check "md: 'b' on a block device opens the md builder" dump_has "$o/start.txt" "Linux software RAID (md)  (mdadm)"
	check "md: RAID 1 over the two loop devices, the exact mdadm command" \
		dump_has "$o/plan.txt" "mdadm --create /dev/md0 --run --level=1 --raid-devices=2 $a $b"
	check "md: confirmation asks for the md name" dump_has "$o/confirm.txt" "Type md0 (the md array's name)"
	check "md: the new md array is shown" dump_has "$o/created.txt" "md array md0: RAID 1"
	check "md: its members are dimmed with the reason" dump_has "$o/created.txt" "member of md0"
	check "md: stopping lists what happens first" dump_has "$o/stop.txt" "md array md0 (RAID 1"
	check "md: stopped" dump_has "$o/stopped.txt" "Done: Stop md array md0"
	check "md: the mounted root device is never offered" \
		bash -c '! grep -E "^ \[ \] /dev/\S+ .* mounted" "$1"' _ "$o/start.txt"
}

if [ "$(id -u)" -ne 0 ]; then
	echo "# not root: the md builder test needs loop devices and is not run"
elif ! command -v losetup >/dev/null; then
	echo "# losetup missing: the md builder test is not run"
else
	live_md || echo "# no loop device could be made: the md builder test is not run"
fi
rb_done
