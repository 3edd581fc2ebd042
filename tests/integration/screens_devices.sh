#!/bin/bash
# Screen tests of the Devices and Target screens: the real TUI off-screen
# (raidbench tui-test) over imported vendor captures, so the hardware is the
# same on every machine. Each tests/screens/{devices,target}_*.script runs at
# 80x24 and 132x43, UTF-8 and ASCII; every dump is compared with its golden
# file tests/fixtures/screens/NAME-SIZE-MODE.txt. UPDATE_GOLDEN=1 rewrites
# the goldens (review the diff before committing them).
#
# A script's "# args:" line gives its tui-test options; ${VENDOR} is the
# directory of the captures, ${OUT} where the dumps go.
#
# Then, as root with loop devices, the live part that cannot be golden
# (it lists this machine's disks): a loop device with a file system needs
# its name typed before a write test, a wrong name gives no consent, and a
# mounted one is never written.
. "$(dirname "$0")/lib.sh"
rb_init
GOLD=$SRCDIR/tests/fixtures/screens
VENDOR=$SRCDIR/tests/fixtures/vendor
[ -d "$VENDOR" ] || VENDOR=$SRCDIR/../shared/fixtures/vendor
[ -d "$VENDOR" ] || rb_skip "no vendor captures (tests/fixtures/vendor)"

# tui-test with a fixed locale, terminal and scratch-file location
tui() {
	LANG=C.UTF-8 LC_ALL= TERM=xterm-256color NO_COLOR= HOME=/nonexistent \
		XDG_CACHE_HOME=/cache "$RAIDBENCH" tui-test "$@"
}

produced=()
for script in "$SRCDIR"/tests/screens/devices_*.script "$SRCDIR"/tests/screens/target_*.script; do
	sname=$(basename "$script" .script)
	read -ra sargs <<<"$(sed -n 's/^# args: *//p' "$script" | sed "s#\${VENDOR}#$VENDOR#g")"
	for size in 24x80 43x132; do
		for mode in utf8 ascii; do
			out=$RB_TMP/$sname-$size-$mode
			mkdir -p "$out"
			sed -e "s#\${OUT}#$out#g" -e "s#\${VENDOR}#$VENDOR#g" "$script" >"$RB_TMP/script"
			args=(--size="$size" "${sargs[@]}")
			[ $mode = ascii ] && args+=(--ascii)
			if ! tui "${args[@]}" "$RB_TMP/script" 2>"$RB_TMP/err"; then
				fail "$sname $size $mode: tui-test failed: $(cat "$RB_TMP/err")"
				continue
			fi
			for f in "$out"/*.txt; do
				[ -e "$f" ] || { fail "$sname $size $mode: no dumps"; break; }
				name=$(basename "$f" .txt)-$size-$mode.txt
				produced+=("$name")
				golden_check "$f" "$GOLD/$name"
			done
		done
	done
done

# A golden no script produces any more is a test that silently stopped running.
for g in "$GOLD"/devices_*.txt "$GOLD"/target_*.txt; do
	[ -e "$g" ] || continue
	n=$(basename "$g")
	case " ${produced[*]} " in
	*" $n "*) ;;
	*) fail "$n: golden dump that no script produces (remove it or restore its script)" ;;
	esac
done

# dump_has FILE TEXT: whether the dump shows TEXT
dump_has() { grep -qF -- "$2" "$1"; }

# ---- a recorded /sys: the PCIe link and NUMA node in the detail pane ----------
# Not golden: with a recorded /sys the controller's name comes from this
# machine's pci.ids and /dev is this machine's, so only the lines that come
# from the tree alone are checked.
recorded_megaraid() {
	local o=$RB_TMP/rec
	mkdir -p "$o"
	if ! bash "$SRCDIR/tests/fixtures/sysfs/mktree.sh" megaraid "$o/tree" >/dev/null 2>&1; then
		fail "recorded tree: mktree.sh megaraid failed"
		return
	fi
	printf 'key F2\ndump %s/controller.txt\nkey t\ndump %s/t.txt\n' "$o" "$o" >"$RB_TMP/rec.script"
	if ! tui --size=50x200 --sysfs-root="$o/tree/sys" "$RB_TMP/rec.script" 2>"$RB_TMP/err"; then
		fail "recorded tree: tui-test failed: $(cat "$RB_TMP/err")"
		return
	fi
	check "recorded: the PCIe link now and at most" dump_has "$o/controller.txt" "5.0 GT/s x1 now, 8.0 GT/s x8 at most"
	check "recorded: a slow link is flagged in words" dump_has "$o/controller.txt" "the link runs below its maximum (slower, fewer lanes)"
	check "recorded: the NUMA node" dump_has "$o/controller.txt" "1 (test threads run on this node's CPUs)"
	check "recorded: the driver" dump_has "$o/controller.txt" "megaraid_sas"
	check "recorded: no live columns for a recorded tree" bash -c '! grep -q "rMB/s" "$1"' _ "$o/controller.txt"
}
# the qemu guest's tree: the SATA disk's stable names in the detail pane
recorded_names() {
	local o=$RB_TMP/names
	mkdir -p "$o"
	if ! bash "$SRCDIR/tests/fixtures/sysfs/mktree.sh" qemu "$o/tree" >/dev/null 2>&1; then
		fail "recorded qemu tree: mktree.sh qemu failed"
		return
	fi
	printf 'key F2\nkey End\ndump %s/sda.txt\n' "$o" >"$RB_TMP/names.script"
	if ! tui --size=50x200 --sysfs-root="$o/tree/sys" "$RB_TMP/names.script" 2>"$RB_TMP/err"; then
		fail "recorded qemu tree: tui-test failed: $(cat "$RB_TMP/err")"
		return
	fi
	check "recorded: the disk's by-id name in the detail pane" \
		grep -qE "Names +/dev/disk/by-id/ata-QEMU_HARDDISK_rb-ahci-0 " "$o/sda.txt"
	check "recorded: and its by-path names" grep -qE "^.*  +/dev/disk/by-path/pci-0000:00:1f.2-ata-1.0 " \
		"$o/sda.txt"
}
# a RAID 5 with a write journal (the tests/vm guest's md/): the journal is a
# member row "journal", and md0's detail counts it apart from the data members,
# as with a /proc/mdstat capture whose member is flagged (J)
recorded_md_journal() {
	local o=$RB_TMP/mdj
	mkdir -p "$o"
	if ! bash "$SRCDIR/tests/fixtures/sysfs/mktree.sh" mdjournal "$o/tree" >/dev/null 2>&1; then
		fail "recorded mdjournal tree: mktree.sh mdjournal failed"
		return
	fi
	# the tree lists the four disks, then md0 and its members, vdd last
	printf 'key F2\nkey End\ndump %s/vdd.txt\nkey Up\nkey Up\nkey Up\nkey Up\ndump %s/md0.txt\n' \
		"$o" "$o" >"$RB_TMP/mdj.script"
	if ! tui --size=50x200 --sysfs-root="$o/tree/sys" "$RB_TMP/mdj.script" 2>"$RB_TMP/err"; then
		fail "recorded mdjournal tree: tui-test failed: $(cat "$RB_TMP/err")"
		return
	fi
	check "recorded md journal: the member row says journal" grep -qE "vdd +journal " "$o/vdd.txt"
	check "recorded md journal: its detail's role is journal" grep -qE "Role +journal " "$o/vdd.txt"
	check "recorded md journal: md0 counts three active members and one journal" \
		grep -qE "Members +3 active, 0 spare, 0 faulty, 1 journal " "$o/md0.txt"
	printf 'key F2\nkey Down\ndump %s/imp.txt\n' "$o" >"$RB_TMP/mdj.script"
	local cap=$VENDOR/mdadm/proc-mdstat_prompt-raid5-write-journal-J_linux-raid-2024.txt
	if ! tui --size=50x200 --import="mdstat:$cap" "$RB_TMP/mdj.script" 2>"$RB_TMP/err"; then
		fail "mdstat (J) capture: tui-test failed: $(cat "$RB_TMP/err")"
		return
	fi
	check "mdstat (J) capture: dm-0's row says journal" grep -qE "dm-0 +journal " "$o/imp.txt"
	check "mdstat (J) capture: md0 counts three active members and one journal" \
		grep -qE "Members +3 active, 0 spare, 0 faulty, 1 journal " "$o/imp.txt"
}
if [ -r "$SRCDIR/tests/fixtures/sysfs/mktree.sh" ]; then
	recorded_megaraid
	recorded_names
	recorded_md_journal
fi

# ---- live: the consent flow on a real device ---------------------------------

live_consent() {
	local dev=$LOOP_DEV name=${LOOP_DEV##*/} o=$RB_TMP/live
	mkdir -p "$o"
	cat >"$RB_TMP/live.script" <<-EOF
		key F4
		key End
		key Enter
		type $dev
		key Enter
		dump $o/prompt.txt
		type not-$name
		key Enter
		dump $o/wrong.txt
		type $name
		key Enter
		dump $o/consented.txt
		key F2
		dump $o/devices.txt
	EOF
	if ! tui --size=43x132 "$RB_TMP/live.script" 2>"$RB_TMP/err"; then
		fail "live consent: tui-test failed: $(cat "$RB_TMP/err")"
		return
	fi
	check "live: a device with ext4 asks for its name" dump_has "$o/prompt.txt" "Type $name (or $dev)"
	check "live: the guard's reason is shown" dump_has "$o/prompt.txt" "has an ext4 file system"
	check "live: before consent only reads are allowed" dump_has "$o/prompt.txt" "read tests only until you consent"
	check "live: a wrong name gives no consent" dump_has "$o/wrong.txt" "\"not-$name\" is not $name: no consent given"
	check "live: the exact name consents" dump_has "$o/consented.txt" "write tests allowed: you typed its name"
	check "live: the Devices screen lists the device" dump_has "$o/devices.txt" "$name"
}

live_mounted() {
	local dev=$LOOP_DEV name=${LOOP_DEV##*/} o=$RB_TMP/mnt
	mkdir -p "$o" "$RB_TMP/mnt.dir"
	if ! mount "$dev" "$RB_TMP/mnt.dir" 2>/dev/null; then
		echo "# mounting a loop device is not allowed here: the never-written case is not run"
		return
	fi
	RB_MOUNTS+=("$RB_TMP/mnt.dir")
	cat >"$RB_TMP/mnt.script" <<-EOF
		key F4
		key End
		key Enter
		type $dev
		key Enter
		type $name
		key Enter
		dump $o/never.txt
	EOF
	if ! tui --size=43x132 "$RB_TMP/mnt.script" 2>"$RB_TMP/err"; then
		fail "live mounted: tui-test failed: $(cat "$RB_TMP/err")"
		return
	fi
	check "live: a mounted device is never written" dump_has "$o/never.txt" "read tests only: never written"
	check "live: no consent prompt for a mounted device" \
		bash -c '! grep -qF "Type '"$name"'" "$1"' _ "$o/never.txt"
	check "live: typing its name did not consent" \
		bash -c '! grep -qF "write tests allowed" "$1"' _ "$o/never.txt"
}

if [ "$(id -u)" -ne 0 ]; then
	echo "# not root: the live consent test needs a loop device and is not run"
elif ! command -v losetup >/dev/null || ! command -v mkfs.ext4 >/dev/null; then
	echo "# losetup or mkfs.ext4 missing: the live consent test is not run"
elif make_loop 64 2>/dev/null && mkfs.ext4 -q -F "$LOOP_DEV" >/dev/null 2>&1; then
	live_consent
	live_mounted
else
	echo "# no loop device could be made: the live consent test is not run"
fi
rb_done
