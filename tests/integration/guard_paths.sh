#!/bin/bash
#
# guard_paths.sh - the write guard's property test: for every way the guard
# knows a device or file to be in use (mounted, swap, a holder, a signature,
# backing a loop device, a sibling loop device over the same file), every
# path that reaches the same data (the device node, a symlink, a by-id style
# link, a bind mount of the node, the backing file, a symlink, hard link or
# bind mount of it, a sibling loop device, a loop device over the device, a
# partition, the whole disk) is refused the same way by `raidbench run
# --rw=write`: exit 2, the same kind of refusal, and not one byte changed in
# the backing file under all of them.
#
# Every world is one image file under a loop device, built afresh per state
# and torn down after it. Needs root; exits 77 (skip) otherwise.

. "$(dirname "$0")/lib.sh"

need_root
for t in losetup mount umount mkfs.ext4 mkswap swapon swapoff sfdisk partx cmp realpath; do
	need_tool "$t" "util-linux, e2fsprogs, fdisk, diffutils or coreutils"
done
[ -x "$RAIDBENCH" ] || rb_skip "raidbench is not built ($RAIDBENCH)"

GP_LOOPS=()	# loop devices of the current world, in the order attached
GP_MOUNTS=()	# its mount points, bind mounts included
GP_SWAPS=()

gp_teardown() {
	local i

	for ((i = ${#GP_MOUNTS[@]} - 1; i >= 0; i--)); do
		umount "${GP_MOUNTS[i]}" 2>/dev/null || umount -l "${GP_MOUNTS[i]}" 2>/dev/null
	done
	for i in "${GP_SWAPS[@]}"; do
		swapoff "$i" 2>/dev/null
	done
	# Newest first: a loop device over another goes before it.
	for ((i = ${#GP_LOOPS[@]} - 1; i >= 0; i--)); do
		partx -d "${GP_LOOPS[i]}" 2>/dev/null
		losetup -d "${GP_LOOPS[i]}" 2>/dev/null
	done
	GP_LOOPS=()
	GP_MOUNTS=()
	GP_SWAPS=()
	[ -n "${W:-}" ] && rm -rf "$W"
	W=
}

rb_init
trap 'gp_teardown; rb_cleanup' EXIT

# ---- the world --------------------------------------------------------------

# gp_loop [losetup options...] BACKING: attaches a loop device, in $DEV.
gp_loop() {
	DEV=$(losetup -f --show --direct-io=on "$@") || { DEV=; return 1; }
	GP_LOOPS+=("$DEV")
	# A previous user of this number may have left partx partitions behind.
	partx -d "$DEV" 2>/dev/null
	return 0
}

gp_mount() {
	mount "$@" || return 1
	GP_MOUNTS+=("${!#}")
}

mkext4() {
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$@" >/dev/null 2>&1
}

# world [OFFSET]: a 16 MiB image $IMG under loop device $X (at OFFSET bytes).
world() {
	W=$(mktemp -d "$RB_TMP/world.XXXXXX") || return 1
	IMG=$W/img
	truncate -s 16M "$IMG" || return 1
	gp_loop ${1:+-o "$1"} "$IMG" || return 1
	X=$DEV
	PATHS=()
	LABELS=()
	SUM_SKIP=
}

add_path() {
	LABELS+=("$1")
	PATHS+=("$2")
}

# Paths that reach the device $1 itself: node, symlink, by-id link, bind mount.
add_device_paths() {
	local dev=$1 what=$2 l

	add_path "$what node" "$dev"
	ln -s "$dev" "$W/link.${dev##*/}" && add_path "symlink to $what" "$W/link.${dev##*/}"
	# udev's by-id links are relative; udev may be absent, so make one alike.
	mkdir -p "$W/disk/by-id" &&
		ln -s "$(realpath --relative-to="$W/disk/by-id" "$dev")" \
			"$W/disk/by-id/raidbench-test-${dev##*/}" &&
		add_path "by-id style link to $what" "$W/disk/by-id/raidbench-test-${dev##*/}"
	for l in /dev/disk/by-*/*; do
		[ -L "$l" ] && [ "$(readlink -f "$l")" = "$dev" ] && add_path "udev link $l" "$l"
	done
	touch "$W/bind.${dev##*/}" && gp_mount --bind "$dev" "$W/bind.${dev##*/}" &&
		add_path "bind mount of the $what node" "$W/bind.${dev##*/}"
}

# Paths that reach the image file: itself, symlink, hard link, bind mount.
add_file_paths() {
	add_path "backing file" "$IMG"
	ln -s "$IMG" "$W/link.img" && add_path "symlink to the backing file" "$W/link.img"
	ln "$IMG" "$W/hard.img" && add_path "hard link to the backing file" "$W/hard.img"
	touch "$W/bind.img" && gp_mount --bind "$IMG" "$W/bind.img" &&
		add_path "bind mount of the backing file" "$W/bind.img"
}

add_sibling_path() {
	gp_loop "$IMG" && add_path "sibling loop device over the file" "$DEV"
}

add_loop_over_path() {
	gp_loop "$1" && add_path "loop device over ${1#/dev/}" "$DEV"
}

# The image's bytes against a copy taken once the state is set up (cmp is
# far cheaper than hashing every time). SUM_SKIP=A:B leaves out [A, B),
# where the kernel itself may write (swap slots). Direct I/O through the
# loop devices invalidates the file's cache, so plain reads see the disk.
snapshot() {
	cp --sparse=always "$IMG" "$W/base"
}

unchanged() {
	if [ -n "$SUM_SKIP" ]; then
		cmp -s -n "${SUM_SKIP%:*}" "$IMG" "$W/base" &&
			cmp -s -i "${SUM_SKIP#*:}" "$IMG" "$W/base"
	else
		cmp -s "$IMG" "$W/base"
	fi
}

# ---- the property -----------------------------------------------------------

attempt() {
	local path=$1

	shift
	"$RAIDBENCH" run --name=g --filename="$path" --rw=write --bs=4k --size=64k \
		--ioengine=psync --direct=1 --output-format=json "$@" >"$RB_TMP/out" 2>"$RB_TMP/err"
	RC=$?
}

# refused STATE LABEL PATH TAIL [args...]: exit 2, the refusal names PATH and
# ends the way TAIL says, and the image is unchanged.
refused() {
	local state=$1 label=$2 path=$3 tail=$4

	shift 4
	attempt "$path" "$@"
	if ! unchanged; then
		fail "$state: $label${1:+ $*}"
		echo "#   DATA CHANGED under $path (exit $RC): $(cat "$RB_TMP/err")"
		echo "#   $(cmp "$IMG" "$W/base" 2>&1)"
		snapshot	# so the next path is judged on its own
	elif [ "$RC" != 2 ]; then
		fail "$state: $label${1:+ $*}"
		echo "#   exit $RC, expected 2; stderr: $(cat "$RB_TMP/err")"
	elif ! grep -qF -- "refusing to write $path" "$RB_TMP/err" ||
		! grep -qF -- "$tail" "$RB_TMP/err"; then
		fail "$state: $label${1:+ $*}"
		echo "#   expected 'refusing to write $path' ... '$tail'"
		echo "#   got: $(cat "$RB_TMP/err")"
	else
		pass "$state: $label${1:+ $*}"
	fi
}

# allowed STATE LABEL PATH [args...]: written (exit 0, the image changed).
allowed() {
	local state=$1 label=$2 path=$3

	shift 3
	snapshot
	attempt "$path" "$@"
	if [ "$RC" = 0 ] && ! unchanged; then
		pass "$state: $label"
	else
		fail "$state: $label"
		echo "#   exit $RC (the image $(unchanged && echo "did not change" || echo changed));" \
			"stderr: $(cat "$RB_TMP/err")"
	fi
}

NEVER_MOUNT="mounted devices are never written, even with --allow-destroy"
NEVER_SWAP="active swap devices are never written, even with --allow-destroy"
CONSENT="; to destroy its contents, add --allow-destroy="

# check_all STATE never|consent TAIL: every path of the world, refused alike;
# where nothing may lift the refusal, consent to the path itself does not.
check_all() {
	local state=$1 kind=$2 tail=$3 i

	if [ ${#PATHS[@]} -lt 2 ]; then
		fail "$state: setup made no paths"
		return
	fi
	snapshot
	for i in "${!PATHS[@]}"; do
		refused "$state" "${LABELS[i]}" "${PATHS[i]}" "$tail"
		[ "$kind" = never ] &&
			refused "$state" "${LABELS[i]}" "${PATHS[i]}" "$tail" \
				--allow-destroy="${PATHS[i]}"
	done
}

# A state whose setup failed is a failure, not a skip: the tools are there.
setup_failed() {
	fail "$1: setup failed"
	gp_teardown
}

# 1. Mounted (the issue's reproducer: ext4 in a file, mounted through a loop device).
if world && mkext4 "$X" && mkdir "$W/m" && gp_mount -o ro "$X" "$W/m"; then
	add_device_paths "$X" device
	add_file_paths
	add_sibling_path
	add_loop_over_path "$X"
	check_all mounted never "$NEVER_MOUNT"
	# Exactly as reported: default engine, buffered, 4 MiB.
	"$RAIDBENCH" run --name=x --filename="$IMG" --rw=write --size=4m >/dev/null 2>"$RB_TMP/err"
	RC=$?
	if [ "$RC" = 2 ] && unchanged &&
		grep -qF "it backs $X, and ${X#/dev/} is mounted at $W/m" "$RB_TMP/err"; then
		pass "mounted: the reported 'run --filename=img --size=4m' is refused"
	else
		fail "mounted: the reported 'run --filename=img --size=4m' is refused"
		echo "#   exit $RC; stderr: $(cat "$RB_TMP/err")"
	fi
	# A job's own log file is a write too: here its name is a hard link to the file.
	ln "$IMG" "$W/job_bw.1.log"
	"$RAIDBENCH" run --name=x --ioengine=null --rw=read --size=64k --write_bw_log="$W/job" \
		--output-format=json >/dev/null 2>"$RB_TMP/err"
	RC=$?
	if [ "$RC" = 2 ] && unchanged &&
		grep -qF "refusing to write $W/job_bw.1.log: it backs $X" "$RB_TMP/err"; then
		pass "mounted: a job's write_bw_log named like a link to the file is refused"
	else
		fail "mounted: a job's write_bw_log named like a link to the file is refused"
		echo "#   exit $RC; stderr: $(cat "$RB_TMP/err")"
	fi
	gp_teardown
else
	setup_failed mounted
fi

# 2. Mounted through a loop device at an offset: nothing to probe at offset 0.
if world 1048576 && mkext4 "$X" && mkdir "$W/m" && gp_mount -o ro "$X" "$W/m"; then
	add_device_paths "$X" device
	add_file_paths
	add_sibling_path
	add_loop_over_path "$X"
	check_all "mounted at offset 1M" never "$NEVER_MOUNT"
	gp_teardown
else
	setup_failed "mounted at offset 1M"
fi

# 3. Active swap. A tiny area (pages 1-15) that the kernel may really swap
# to is left out of the sum; page 0, the header, is what every write here
# would hit first, and the kernel never writes it.
if world && mkswap "$X" 64 >/dev/null 2>&1 && swapon "$X"; then
	GP_SWAPS+=("$X")
	SUM_SKIP=4096:65536
	add_device_paths "$X" device
	add_file_paths
	add_sibling_path
	add_loop_over_path "$X"
	check_all swap never "$NEVER_SWAP"
	gp_teardown
else
	setup_failed swap
fi

# 4. A signature: consent is the only way, through every path.
if world && mkext4 "$X"; then
	add_device_paths "$X" device
	add_file_paths
	add_sibling_path
	add_loop_over_path "$X"
	check_all signature consent "$CONSENT"
	gp_teardown
else
	setup_failed signature
fi

# 5. A holder (a loop device over it; md and dm are absent here, see below).
if world && gp_loop "$X"; then
	add_device_paths "$X" device
	add_file_paths
	add_sibling_path
	add_loop_over_path "$X"
	check_all holder consent "$CONSENT"
	gp_teardown
else
	setup_failed holder
fi

# 6. A holder in use: a loop device over it, mounted.
if world && gp_loop "$X" && H=$DEV && mkext4 "$H" && mkdir "$W/m" &&
	gp_mount -o ro "$H" "$W/m"; then
	add_device_paths "$X" device
	add_file_paths
	add_sibling_path
	add_loop_over_path "$X"
	check_all "mounted holder" never "$NEVER_MOUNT"
	gp_teardown
else
	setup_failed "mounted holder"
fi

# 7. Backing a loop device: the device is blank, its file is not free.
if world; then
	add_file_paths
	check_all "backing a loop device" consent "$CONSENT"
	check "backing a loop device: the refusal says so" grep -qF "it backs $X" "$RB_TMP/err"
	allowed "backing a loop device" "consent by another path to the file lifts it" \
		"$IMG" --allow-destroy="$W/link.img"
	gp_teardown
else
	setup_failed "backing a loop device"
fi

# 8. A sibling loop device over the same file: neither is free, nor the file.
if world && gp_loop "$IMG"; then
	add_device_paths "$X" device
	add_file_paths
	add_loop_over_path "$X"
	check_all "sibling loop device" consent "$CONSENT"
	allowed "sibling loop device" "consent to the device by another path lifts it" "$X" \
		--allow-destroy="$W/link.${X#/dev/}"
	gp_teardown
else
	setup_failed "sibling loop device"
fi

# 9. A mounted partition: its whole disk, and every way to either.
if world && printf 'label: dos\n,8M,L\n,,L\n' | sfdisk -q "$X" >/dev/null 2>&1 &&
	partx -a "$X" && [ -b "${X}p1" ] && mkext4 "${X}p1" && mkdir "$W/m" &&
	gp_mount -o ro "${X}p1" "$W/m"; then
	add_device_paths "$X" "whole disk"
	add_device_paths "${X}p1" partition
	add_file_paths
	add_sibling_path
	S=$DEV
	partx -a "$S" 2>/dev/null && [ -b "${S}p1" ] &&
		add_path "partition of the sibling loop device" "${S}p1"
	add_loop_over_path "$X"
	check_all "mounted partition" never "$NEVER_MOUNT"
	gp_teardown
else
	setup_failed "mounted partition"
fi

# 10. A mounted whole disk, reached through one of its partitions.
if world && printf 'label: dos\n,8M,L\n,,L\n' | sfdisk -q "$X" >/dev/null 2>&1 &&
	partx -a "$X" && [ -b "${X}p1" ] && mkext4 "$X" && mkdir "$W/m" &&
	gp_mount -o ro "$X" "$W/m"; then
	add_device_paths "${X}p1" partition
	add_device_paths "$X" "whole disk"
	add_file_paths
	add_sibling_path
	add_loop_over_path "${X}p1"
	check_all "mounted whole disk" never "$NEVER_MOUNT"
	gp_teardown
else
	setup_failed "mounted whole disk"
fi

# 11. device-mapper and md holders cannot be built in this kernel.
for kind in "device-mapper:/sys/class/misc/device-mapper" "md:/proc/mdstat"; do
	[ -e "${kind#*:}" ] ||
		echo "# SKIP: ${kind%%:*} holders: ${kind#*:} is absent (no ${kind%%:*} in this kernel)"
done

rb_done
