#!/bin/bash
#
# guard_matrix.sh - the write guard (core/guard.c) against real loop devices:
# blank, file systems, partition tables, swap, mounts, holders, --readonly.
# Every attempted write is bracketed by checksums of the whole device, so a
# refusal that still wrote, or a permission that did not, both fail.
#
# Drives `raidbench run` when it works, else tests/integration/guard_probe
# ($GUARD_PROBE), which asks the same guard functions. Needs root and
# losetup; exits 77 (skip) otherwise. Touches only loop devices that
# `losetup -f --show` returned to it, and detaches them on any exit.

set -u

TMP=
LOOPS=()	# every loop device this script attached, in order
MOUNTS=()	# every mount point it mounted
SWAPS=()	# every device it swapon'ed
DMS=()		# every device-mapper name it created
PIDS=()		# background claimers
CGROUP=		# the memory cgroup that pushes a process into swap
PASSED=0
FAILED=0
SKIPPED=0

skip_all() {
	echo "SKIP: $*"
	exit 77
}

cleanup() {
	local i

	for i in "${PIDS[@]}"; do
		kill "$i" 2>/dev/null
		wait "$i" 2>/dev/null
	done
	[ -n "$CGROUP" ] && rmdir "$CGROUP" 2>/dev/null
	for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
		umount "${MOUNTS[i]}" 2>/dev/null || umount -l "${MOUNTS[i]}" 2>/dev/null
	done
	for i in "${SWAPS[@]}"; do
		swapoff "$i" 2>/dev/null
	done
	for ((i = ${#DMS[@]} - 1; i >= 0; i--)); do
		dmsetup remove "${DMS[i]}" 2>/dev/null
	done
	# Newest first: a loop device backed by another goes before it.
	for ((i = ${#LOOPS[@]} - 1; i >= 0; i--)); do
		# Partitions added by partx outlive the binding unless dropped first.
		partx -d "${LOOPS[i]}" 2>/dev/null
		losetup -d "${LOOPS[i]}" 2>/dev/null
	done
	[ -n "$TMP" ] && rm -rf "$TMP"
}

[ "$(id -u)" = 0 ] || skip_all "guard_matrix needs root (loop devices, mount, swapon)"
command -v losetup >/dev/null 2>&1 || skip_all "losetup is not available"
for tool in partx sfdisk mkfs.ext4 mkswap swapon swapoff mount umount sha256sum dd blockdev; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "$tool is not available"
done

# ---- which program asks the guard -----------------------------------------

HERE=$(cd "$(dirname "$0")" && pwd)
MODE=
if [ -n "${RAIDBENCH:-}" ] && [ -x "$RAIDBENCH" ] &&
	"$RAIDBENCH" run --name=t --ioengine=null --size=4k --rw=read >/dev/null 2>&1; then
	MODE=raidbench
	echo "# driving $RAIDBENCH run"
else
	if [ -z "${GUARD_PROBE:-}" ]; then
		for GUARD_PROBE in ${RAIDBENCH:+"$(dirname "$RAIDBENCH")/tests/integration/guard_probe"} \
			"$HERE/guard_probe" ""; do
			[ -x "$GUARD_PROBE" ] && break
		done
	fi
	[ -n "$GUARD_PROBE" ] && [ -x "$GUARD_PROBE" ] ||
		skip_all "neither 'raidbench run' (RAIDBENCH=${RAIDBENCH:-unset}) nor guard_probe (GUARD_PROBE) can run"
	MODE=probe
	echo "# 'raidbench run' is not usable (RAIDBENCH=${RAIDBENCH:-unset}): falling back to $GUARD_PROBE;"
	echo "# cases that need raidbench itself (read jobs) are skipped"
fi

# /var/tmp, like lib.sh: /tmp may be a tmpfs, which refuses O_DIRECT.
TMP=$(mktemp -d "${TMPDIR:-/var/tmp}/guard_matrix.XXXXXX") || skip_all "mktemp -d failed"
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# ---- helpers ----------------------------------------------------------------

# new_loop NAME [SIZE_MB]: a fresh zeroed image on a new loop device, in $DEV.
new_loop() {
	local img="$TMP/$1.img" n p

	truncate -s "${2:-32}M" "$img" || return 1
	DEV=$(losetup -f --show "$img") || { DEV=; return 1; }
	LOOPS+=("$DEV")
	n=${DEV#/dev/}
	# A previous user of this number may have left partx partitions behind.
	partx -d "$DEV" 2>/dev/null
	for p in /sys/class/block/"$n"/"$n"p*; do
		[ -e "$p" ] || continue
		echo "# $DEV still has stale partition ${p##*/} after partx -d" >&2
		return 1
	done
	return 0
}

# add_loop_over BACKING: a loop device backed by another device, in $DEV.
add_loop_over() {
	DEV=$(losetup -f --show "$1") || { DEV=; return 1; }
	LOOPS+=("$DEV")
}

# partition_table DEV LABEL LINES...: writes it and makes the kernel see it.
partition_table() {
	local dev=$1 label=$2

	shift 2
	{ echo "label: $label"; printf '%s\n' "$@"; } | sfdisk -q "$dev" >/dev/null 2>&1 ||
		return 1
	# This kernel does not scan loop devices (max_part=0): add them by hand.
	partx -u "$dev" && [ -b "${dev}p1" ]
}

do_mount() {
	local dev=$1 dir="$TMP/mnt.$2"

	mkdir -p "$dir" || return 1
	# Read-only keeps the checksum still: a rw ext4 mount writes on its own.
	mount -o ro "$dev" "$dir" || return 1
	MOUNTS+=("$dir")
	MNT=$dir
}

mkext4() {
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$@" >/dev/null 2>&1
}

# Devices are read around the page cache, so the sum is what the disk holds.
# SUM_SKIP=A:B leaves out bytes [A, B), which the kernel itself may write.
SUM_SKIP=
devsum() {
	if [ -b "$1" ] && [ -n "$SUM_SKIP" ]; then
		{
			dd if="$1" bs=4096 count=$((${SUM_SKIP%:*} / 4096)) iflag=direct status=none
			dd if="$1" bs=4096 skip=$((${SUM_SKIP#*:} / 4096)) iflag=direct status=none
		} | sha256sum | cut -d' ' -f1
	elif [ -b "$1" ]; then
		dd if="$1" bs=1M iflag=direct status=none | sha256sum | cut -d' ' -f1
	else
		sha256sum <"$1" | cut -d' ' -f1
	fi
}

# attempt DEV [--allow-destroy=X]... [--readonly] [--rw=read] [--numjobs=N]:
# one 64 KiB write (or read) of DEV; sets RC and ERR (stderr).
attempt() {
	local dev=$1 a rw=write args=() probe_args=()

	shift
	for a in "$@"; do
		case $a in
		--rw=*) rw=${a#--rw=} ;;
		--numjobs=*) args+=("$a"); probe_args+=("--opens=${a#--numjobs=}") ;;
		*) args+=("$a"); probe_args+=("$a") ;;
		esac
	done
	if [ "$MODE" = raidbench ]; then
		"$RAIDBENCH" run --name=g --filename="$dev" --rw="$rw" --bs=4k --size=64k \
			--ioengine=psync --direct=1 "${args[@]}" --output-format=json \
			>"$TMP/out" 2>"$TMP/err"
	else
		"$GUARD_PROBE" "${probe_args[@]}" "$dev" >"$TMP/out" 2>"$TMP/err"
	fi
	RC=$?
	ERR=$(cat "$TMP/err")
}

# PASS:/FAIL:/SKIP: lines are what tests/summary.sh counts.
pass() {
	PASSED=$((PASSED + 1))
	echo "PASS: $1"
}

fail() {
	FAILED=$((FAILED + 1))
	echo "FAIL: $1"
	shift
	printf '#   %s\n' "$@"
}

skip_case() {
	SKIPPED=$((SKIPPED + 1))
	echo "SKIP: $1: $2"
}

# expect_refused NAME DEV WANT_RC EXPECTED_LINE [attempt args...]
# WANT_RC "any" accepts any failure status (e.g. a busy device).
expect_refused() {
	local name=$1 dev=$2 want_rc=$3 line=$4 before after

	shift 4
	before=$(devsum "$dev")
	[ -n "$DURING" ] && $DURING
	attempt "$dev" "$@"
	after=$(devsum "$dev")
	if [ "$before" != "$after" ]; then
		fail "$name" "DATA CHANGED on a refused write to $dev" \
			"before: $before" "after:  $after" "exit: $RC" "stderr: $ERR"
	elif [ "$want_rc" = any ] && [ "$RC" = 0 ]; then
		fail "$name" "expected a refusal, got exit 0" "stderr: $ERR"
	elif [ "$want_rc" != any ] && [ "$RC" != "$want_rc" ]; then
		fail "$name" "exit status: expected $want_rc, got $RC" "stderr: $ERR"
	elif ! grep -qF -- "$line" "$TMP/err"; then
		fail "$name" "refusal text differs" "expected: $line" "got:      $ERR"
	else
		pass "$name"
	fi
}

# expect_allowed NAME DEV CHANGED [attempt args...]; CHANGED: yes for a
# write (the data must change), no for a read (it must not).
expect_allowed() {
	local name=$1 dev=$2 changed=$3 before after

	shift 3
	before=$(devsum "$dev")
	attempt "$dev" "$@"
	after=$(devsum "$dev")
	if [ "$RC" != 0 ]; then
		fail "$name" "expected exit 0, got $RC" "stderr: $ERR"
	elif [ "$changed" = yes ] && [ "$before" = "$after" ]; then
		fail "$name" "exit 0 but $dev did not change (sha256 $before)"
	elif [ "$changed" = no ] && [ "$before" != "$after" ]; then
		fail "$name" "a read changed $dev" "before: $before" "after:  $after"
	else
		pass "$name"
	fi
}

# A hook run between the first checksum and the attempt (expect_refused).
DURING=

# The bytes of [A, B) of device $1, SUM_SKIP style.
slotsum() {
	dd if="$1" bs=4096 skip=$((${2%:*} / 4096)) count=$(((${2#*:} - ${2%:*}) / 4096)) \
		iflag=direct status=none | sha256sum | cut -d' ' -f1
}

# Makes the kernel swap: a process in a memory cgroup of 8 MiB touches
# 48 MiB, so its pages go to whatever swap is active (ours: the only one,
# or the highest priority). SWAP_WROTE says whether the kernel wrote to
# the swap slots SUM_SKIP of device $1 meanwhile.
swap_pressure() {
	local dev=$1 before

	SWAP_WROTE="unknown (no memory cgroup)"
	before=$(slotsum "$dev" "$SUM_SKIP")
	CGROUP=/sys/fs/cgroup/memory/raidbench-guard-$$
	mkdir -p "$CGROUP" 2>/dev/null &&
		echo $((8 << 20)) >"$CGROUP/memory.limit_in_bytes" 2>/dev/null || {
		CGROUP=
		return 0
	}
	echo 100 >"$CGROUP/memory.swappiness" 2>/dev/null
	# Killed by the cgroup's OOM killer once the small swap area is full.
	(echo $BASHPID >"$CGROUP/tasks" && exec python3 -S -c '
x = bytearray(48 << 20)
for i in range(0, len(x), 4096):
    x[i] = 1' ) >/dev/null 2>&1
	rmdir "$CGROUP" 2>/dev/null && CGROUP=
	SWAP_WROTE=no
	[ "$before" != "$(slotsum "$dev" "$SUM_SKIP")" ] && SWAP_WROTE=yes
}

consent_tail() {
	echo "to destroy its contents, add --allow-destroy=$1"
}

NEVER_MOUNT="mounted devices are never written, even with --allow-destroy"
NEVER_SWAP="active swap devices are never written, even with --allow-destroy"

new_loop probe || skip_all "cannot attach a loop device (losetup -f --show failed)"

# ---- cases --------------------------------------------------------------------

# 1. A blank device holds nothing: written without consent.
if new_loop blank; then
	expect_allowed "blank device is writable" "$DEV" yes
else
	fail "blank device is writable" "setup failed"
fi

# 2. --readonly refuses every write, even to a blank device with consent (run says so
#    while reading the jobs, as fio does; the guard would say so at the open).
if new_loop readonly; then
	expect_refused "--readonly refuses a write" "$DEV" 2 \
		"--readonly is set" --allow-destroy="$DEV" --readonly
else
	fail "--readonly refuses a write" "setup failed"
fi

# 3-7. ext4 labelled 'data': refused, named, consented by path or by alias; reads pass.
if new_loop ext4 && mkext4 -L data "$DEV"; then
	E=$DEV
	ln -s "$E" "$TMP/alias"
	expect_refused "ext4 labelled 'data' needs consent" "$E" 2 \
		"refusing to write $E: it has an ext4 file system labelled 'data'; $(consent_tail "$E")"
	expect_refused "ext4 through a symlink names both paths" "$TMP/alias" 2 \
		"refusing to write $TMP/alias ($E): it has an ext4 file system labelled 'data'; $(consent_tail "$E")"
	expect_refused "consent for another device does not count" "$E" 2 \
		"refusing to write $E: it has an ext4 file system labelled 'data'" \
		--allow-destroy="${LOOPS[0]}"
	if [ "$MODE" = raidbench ]; then
		expect_allowed "a read of the ext4 device needs no consent" "$E" no --rw=read
		expect_allowed "a read is allowed under --readonly" "$E" no --rw=read --readonly
	else
		skip_case "a read of the ext4 device needs no consent" "needs raidbench run"
		skip_case "a read is allowed under --readonly" "needs raidbench run"
	fi
	expect_allowed "ext4 written with consent through an alias path" "$E" yes \
		--allow-destroy="$TMP/alias"
else
	fail "ext4 cases" "setup failed (mkfs.ext4 on $DEV)"
fi

# 8. vfat
if ! command -v mkfs.vfat >/dev/null 2>&1; then
	skip_case "vfat needs consent" "mkfs.vfat not installed (dosfstools)"
elif new_loop vfat && mkfs.vfat "$DEV" >/dev/null 2>&1; then
	expect_refused "vfat needs consent" "$DEV" 2 \
		"refusing to write $DEV: it has a vfat file system; $(consent_tail "$DEV")"
	expect_allowed "vfat written with consent" "$DEV" yes --allow-destroy="$DEV"
else
	fail "vfat needs consent" "setup failed"
fi

# 9. A swap signature that is not in use: consent is enough.
if new_loop swapsig && mkswap "$DEV" >/dev/null 2>&1; then
	expect_refused "swap signature needs consent" "$DEV" 2 \
		"refusing to write $DEV: it has a swap signature; $(consent_tail "$DEV")"
else
	fail "swap signature needs consent" "setup failed"
fi

# 10. GPT with one blank partition: the table alone asks for consent.
if new_loop gpt && partition_table "$DEV" gpt ",,L"; then
	expect_refused "gpt partition table needs consent" "$DEV" 2 \
		"refusing to write $DEV: it has a gpt partition table; $(consent_tail "$DEV")"
	expect_allowed "blank gpt partition is writable on its own" "${DEV}p1" yes
	expect_allowed "gpt disk written with consent" "$DEV" yes --allow-destroy="$DEV"
else
	fail "gpt partition table needs consent" "setup failed (sfdisk/partx on $DEV)"
fi

# 11. MBR whose first partition holds ext4: both reasons, the partition by name.
if new_loop mbr && partition_table "$DEV" dos ",16M,L" ",,L" && mkext4 "${DEV}p1"; then
	M=$DEV
	N=${M#/dev/}
	expect_refused "dos table with an ext4 partition names both" "$M" 2 \
		"refusing to write $M: it has a dos partition table; partition ${N}p1 has an ext4 file system; $(consent_tail "$M")"
	expect_refused "the ext4 partition itself needs consent" "${M}p1" 2 \
		"refusing to write ${M}p1: it has an ext4 file system; $(consent_tail "${M}p1")"
	expect_refused "consent to the disk does not cover its partition" "${M}p1" 2 \
		"refusing to write ${M}p1: it has an ext4 file system" --allow-destroy="$M"

	# 12. A mounted partition: its disk is never written; its blank sibling is.
	if do_mount "${M}p1" part; then
		expect_refused "disk with a mounted partition is refused even with consent" "$M" 2 \
			"refusing to write $M: partition ${N}p1 is mounted at $MNT; $NEVER_MOUNT" \
			--allow-destroy="$M"
		expect_refused "mounted partition is refused even with consent" "${M}p1" 2 \
			"refusing to write ${M}p1: it is mounted at $MNT; $NEVER_MOUNT" \
			--allow-destroy="${M}p1"
		expect_allowed "blank sibling of a mounted partition is writable" "${M}p2" yes
	else
		skip_case "mounted partition cases" "mount ${M}p1 failed"
	fi
else
	fail "dos table with an ext4 partition" "setup failed (sfdisk/partx/mkfs on $DEV)"
fi

# 13. A mounted device is never written, consent or not.
if new_loop mounted && mkext4 "$DEV"; then
	if do_mount "$DEV" dev; then
		expect_refused "mounted device is refused even with consent" "$DEV" 2 \
			"refusing to write $DEV: it is mounted at $MNT; $NEVER_MOUNT" \
			--allow-destroy="$DEV"
	else
		skip_case "mounted device is refused even with consent" "mount failed"
	fi
else
	fail "mounted device is refused even with consent" "setup failed"
fi

# 14-16. A loop device backed by the target is a holder; mounted, it is a mount.
if new_loop lower; then
	L=$DEV
	if add_loop_over "$L"; then
		U=$DEV
		expect_refused "device backing a loop device needs consent" "$L" 2 \
			"refusing to write $L: it is held by ${U#/dev/} (a loop device backed by it); $(consent_tail "$L")"
		expect_allowed "device backing a loop device written with consent" "$L" yes \
			--allow-destroy="$L"
		if mkext4 "$U" && do_mount "$U" upper; then
			expect_refused "device under a mounted loop device is never written" "$L" 2 \
				"refusing to write $L: it is held by ${U#/dev/} (a loop device backed by it), and ${U#/dev/} is mounted at $MNT; $NEVER_MOUNT" \
				--allow-destroy="$L"
		else
			skip_case "device under a mounted loop device is never written" "mkfs/mount of $U failed"
		fi
	else
		fail "device backing a loop device needs consent" "losetup over $L failed"
	fi
else
	fail "device backing a loop device needs consent" "setup failed"
fi

# 17. Active swap is never written, consent or not. The kernel may swap
# to it meanwhile, so the area is 16 pages and the sum leaves out its page
# slots (1-15): what is compared is the header (page 0), which the kernel
# never writes and which the attempted write (64 KiB from offset 0) would
# hit first, and the rest of the device past the area.
if new_loop swapon && mkswap "$DEV" 64 >/dev/null 2>&1; then
	if swapon "$DEV" 2>/dev/null; then
		SWAPS+=("$DEV")
		SUM_SKIP=4096:65536
		# Provoked here so the kernel's writes surely fall between the two sums.
		SWAP_WROTE="not provoked (no python3)"
		command -v python3 >/dev/null 2>&1 && DURING="swap_pressure $DEV"
		expect_refused "active swap is refused even with consent" "$DEV" 2 \
			"refusing to write $DEV: it is in use as swap; $NEVER_SWAP" \
			--allow-destroy="$DEV"
		echo "# the kernel swapped to $DEV during the attempt: $SWAP_WROTE"
		SUM_SKIP=
		DURING=
	else
		skip_case "active swap is refused even with consent" "swapon not permitted here"
	fi
else
	fail "active swap is refused even with consent" "setup failed"
fi

# 18. Two writers of one consented device share the guard's exclusive claim.
if new_loop twojobs; then
	expect_allowed "two writers of one device (numjobs=2)" "$DEV" yes --numjobs=2
else
	fail "two writers of one device (numjobs=2)" "setup failed"
fi

# 19. Claimed exclusively by another program after a clean check: the kernel says no.
if ! command -v python3 >/dev/null 2>&1 || ! python3 -c 'import os' 2>/dev/null; then
	skip_case "device claimed by another program is refused" "python3 not available"
elif new_loop claimed; then
	python3 -c 'import os, sys, time
os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
open(sys.argv[2], "w").close()
time.sleep(60)' "$DEV" "$TMP/claimed.ready" &
	PIDS+=($!)
	for _ in $(seq 50); do
		[ -e "$TMP/claimed.ready" ] && break
		sleep 0.1
	done
	expect_refused "device claimed by another program is refused" "$DEV" any \
		"$DEV is in use by another program or the kernel (mounted or claimed since the check)" \
		--allow-destroy="$DEV"
else
	fail "device claimed by another program is refused" "setup failed"
fi

# 20. device-mapper holder: consent passes the guard, the kernel's claim still refuses.
if ! command -v dmsetup >/dev/null 2>&1; then
	skip_case "device-mapper holder" "dmsetup not installed"
elif new_loop dm; then
	DMNAME="rbguard$$"
	if dmsetup create "$DMNAME" --table "0 $(blockdev --getsz "$DEV") linear $DEV 0" \
		>/dev/null 2>&1; then
		DMS+=("$DMNAME")
		H=$(ls "/sys/class/block/${DEV#/dev/}/holders")
		expect_refused "device-mapper holder needs consent" "$DEV" 2 \
			"refusing to write $DEV: it is held by $H (device-mapper '$DMNAME'); $(consent_tail "$DEV")"
		expect_refused "device-mapper holder keeps it busy even with consent" "$DEV" any \
			"$DEV is in use by another program or the kernel (mounted or claimed since the check)" \
			--allow-destroy="$DEV"
	else
		skip_case "device-mapper holder" "dmsetup create failed (no device-mapper in this kernel)"
	fi
else
	fail "device-mapper holder" "setup failed"
fi

# 21. A regular file is always writable (where its file system takes O_DIRECT).
truncate -s 1M "$TMP/plain.dat"
if dd if=/dev/zero of="$TMP/plain.dat" bs=4k count=1 oflag=direct conv=notrunc \
	status=none 2>/dev/null; then
	expect_allowed "regular file is writable" "$TMP/plain.dat" yes
else
	skip_case "regular file is writable" "$TMP does not support O_DIRECT"
fi

echo "# $PASSED passed, $FAILED failed, $SKIPPED skipped ($MODE)"
[ "$FAILED" = 0 ]
