#!/bin/bash
# run-vm.sh - boots Debian's kernel under qemu (TCG) with emulated disk
# controllers and runs SCRIPT inside, in a chroot of this machine's / (shared
# read-only over 9p, with tmpfs on /tmp /var/tmp /run /root), so the built
# raidbench, python3 and fio run against real md and real drivers.
#
#   tests/vm/run-vm.sh [--disks=SPEC,...] [--timeout=S] [--mem=MB] SCRIPT [ARG...]
#
# SPEC is TYPE:NxSIZE with TYPE virtio, nvme, ahci, megasas or megasas-gen2
# (one controller of each megasas type, one NVMe controller per disk), or
# nvme-node1: an NVMe controller behind a pcie-root-port on a pxb-pcie
# expander of NUMA node 1, the guest then having two nodes (CPU 0 and half
# the memory on node 0, CPU 1 and the rest on node 1), e.g.
# --disks=virtio:4x64M,megasas-gen2:2x64M. A line "# rb-vm: OPTIONS" in SCRIPT
# gives its defaults. Prints the script's output (stdout and stderr) and exits
# with its status; 77 when qemu or the guest's packages cannot be had or qemu
# does not start. The VM is killed at the timeout and whenever this script
# ends; one VM runs at a time (a lock in /var/tmp). RB_VM_CONSOLE=FILE keeps
# the guest's kernel console; RB_VM_TRACE=1 runs SCRIPT under bash -x with
# timestamps; RAIDBENCH, SRCDIR and RB_* variables pass in. --kernel-args=A
# adds A to the guest kernel's command line (memmap=SIZE!START: legacy pmem).
# RB_VM_GUEST=DIR boots the guest build-guest.sh printed instead of asking it again.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
SRCDIR=${SRCDIR:-$(cd "$HERE/../.." && pwd)}
RAIDBENCH=${RAIDBENCH:-$SRCDIR/raidbench}
skip() { echo "SKIP: $*"; exit 77; }
die() { echo "run-vm: $*" >&2; exit 2; }

disks='' timeout=170 mem=768 kargs=''
parse_opt() {
	case $1 in
	--kernel-args=*) kargs="$kargs ${1#--kernel-args=}" ;;	# e.g. memmap=64M!512M (pmem)
	--disks=*) disks=${1#--disks=} ;;
	--timeout=*) timeout=${1#--timeout=} ;;
	--mem=*) mem=${1#--mem=} ;;
	*) die "unknown option '$1' (see the head of $0)" ;;
	esac
}
args=()
while [ $# -gt 0 ]; do
	case $1 in
	--*) args+=("$1") ;;
	*) break ;;
	esac
	shift
done
[ $# -ge 1 ] || die "usage: run-vm.sh [--disks=SPEC,...] [--timeout=S] [--mem=MB] SCRIPT [ARG...]"
script=$(realpath "$1") || die "no script '$1'"
shift
[ -f "$script" ] || die "no script '$script'"
# the script's own defaults first, then the command line's
for o in $(sed -n 's/^# rb-vm: //p' "$script"); do parse_opt "$o"; done
for o in "${args[@]}"; do parse_opt "$o"; done
[[ $timeout =~ ^[0-9]+$ ]] || die "--timeout=$timeout: seconds expected"
[[ $mem =~ ^[0-9]+$ ]] || die "--mem=$mem: MiB expected"

QEMU=$(command -v qemu-system-x86_64) ||
	skip "qemu-system-x86_64 is not installed (apt-get install qemu-system-x86 cpio kmod)"
[ -x "$RAIDBENCH" ] || die "no raidbench at $RAIDBENCH: build it first"
# RB_VM_GUEST: a guest build-guest.sh already found (make check-vm looks once;
# its apt-cache lookup costs seconds, more on a loaded machine)
if [ -n "${RB_VM_GUEST:-}" ] && [ -f "$RB_VM_GUEST/ready" ]; then
	G=$RB_VM_GUEST rc=0
else
	G=$("$HERE/build-guest.sh")
	rc=$?
fi
[ $rc -eq 77 ] && skip "the guest cannot be built (see above)"
[ $rc -eq 0 ] || die "the guest could not be built"

T=$(mktemp -d /var/tmp/raidbench-vm.XXXXXX) || die "no temp dir"
qpid=
cleanup() {
	local p
	if [ -n "$qpid" ] && kill -0 "$qpid" 2>/dev/null; then
		kill "$qpid" 2>/dev/null	# timeout passes it on to qemu
		sleep 1
		kill -9 "$qpid" 2>/dev/null
		wait "$qpid" 2>/dev/null
	fi
	# and qemu itself, should it have outlived its timeout process
	p=$(cat "$T/qemu.pid" 2>/dev/null)
	if [ -n "$p" ] && grep -q qemu "/proc/$p/cmdline" 2>/dev/null; then
		kill -9 "$p" 2>/dev/null
	fi
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# ---- disks and controllers ----
dev=()
n=0
numa=()
late=()	# the pxb-pcie and what sits on it: qemu puts devices named later on its bus
IFS=, read -r -a specs <<<"$disks"
for s in "${specs[@]}"; do
	[[ $s =~ ^([a-z0-9-]+):([0-9]+)x([0-9]+[KMG]?)$ ]] || die "--disks: '$s' is not TYPE:NxSIZE"
	type=${BASH_REMATCH[1]} count=${BASH_REMATCH[2]} size=${BASH_REMATCH[3]}
	case $type in
	megasas | megasas-gen2) dev+=(-device "$type,id=$type") ;;
	virtio | nvme | ahci) ;;
	nvme-node1)
		# (qemu's pxb-pcie takes its own bus numbers from bus_nr up)
		if [ ${#numa[@]} -eq 0 ]; then
			numa=(-object "memory-backend-ram,size=$((mem / 2))M,id=m0"
				-object "memory-backend-ram,size=$((mem - mem / 2))M,id=m1"
				-numa node,nodeid=0,cpus=0,memdev=m0 -numa node,nodeid=1,cpus=1,memdev=m1)
			late+=(-device pxb-pcie,id=pxb1,bus_nr=128,numa_node=1,bus=pcie.0)
		fi
		;;
	*) die "--disks: unknown controller type '$type' (virtio nvme nvme-node1 ahci megasas megasas-gen2)" ;;
	esac
	for ((i = 0; i < count; i++)); do
		img=$T/disk$n.img
		truncate -s "$size" "$img" || die "cannot make $img"
		dev+=(-drive "file=$img,format=raw,if=none,id=d$n,cache=unsafe")
		serial=rb-$type-$i
		case $type in
		virtio) dev+=(-device "virtio-blk-pci,drive=d$n,serial=$serial") ;;
		nvme) dev+=(-device "nvme,drive=d$n,serial=$serial") ;;
		nvme-node1)
			late+=(-device "pcie-root-port,id=rp$n,bus=pxb1,chassis=$((n + 1)),slot=$i"
				-device "nvme,drive=d$n,serial=$serial,bus=rp$n")
			;;
		ahci)
			[ "$i" -lt 6 ] || die "--disks: q35's AHCI has 6 ports"
			dev+=(-device "ide-hd,drive=d$n,bus=ide.$i,serial=$serial")
			;;
		megasas*)	# the second logical drive also has a WWN (an NAA designator)
			dev+=(-device "scsi-hd,drive=d$n,bus=$type.0,scsi-id=$i,serial=$serial$([ "$i" -ne 1 ] ||
				echo ,wwn=0x5000c50015ea71ac)")
			;;
		esac
		n=$((n + 1))
	done
done

# ---- the job the guest's init runs in its chroot of / ----
{
	echo "export PATH=$G/mdadm-root/sbin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	echo "export HOME=/root LANG=C.UTF-8 TERM=xterm-256color"
	printf 'export RAIDBENCH=%q SRCDIR=%q RB_VM=1\n' "$RAIDBENCH" "$SRCDIR"
	while IFS='=' read -r k _; do
		[[ $k == RB_* ]] && [ "$k" != RB_VM_CONSOLE ] && printf 'export %s=%q\n' "$k" "${!k}"
	done < <(env)
	printf 'cd %q || exit 125\n' "$SRCDIR"
	# RB_VM_TRACE=1: the script under bash -x, each line with the seconds since its start
	# (bash takes no PS4 from the environment as root: BASH_ENV sets it)
	if [ -n "${RB_VM_TRACE:-}" ]; then
		echo "echo 'PS4=\"+ \${SECONDS}s \"; set -x' >/run/rb-trace.sh"
		echo "export BASH_ENV=/run/rb-trace.sh"
	fi
	printf 'exec /bin/bash %q' "$script"
	printf ' %q' "$@"
	echo
} >"$T/job.sh"

# ---- boot, one VM at a time ----
exec 7>>/var/tmp/raidbench-vm.lock
flock 7
# Another checkout's build-guest.sh (other harness files, another guest) may
# have pruned this guest while we waited: the same key builds it again.
if [ ! -f "$G/ready" ]; then
	G2=$("$HERE/build-guest.sh")
	rc=$?
	[ $rc -eq 77 ] && skip "the guest cannot be built (see above)"
	[ $rc -eq 0 ] && [ "$G2" = "$G" ] || die "the guest $G went away and could not be built again"
fi
touch "$G/used"
boot() {
	timeout -k 5 "$timeout" "$QEMU" -machine q35 -accel tcg,thread=multi,tb-size=64 -smp 2 \
		-m "$mem" -nodefaults -no-reboot -display none -pidfile "$T/qemu.pid" \
		-kernel "$G/vmlinux" -initrd "$G/initrd.cpio" \
		-append "console=ttyS0 panic=-1 quiet rb.job=$T/job.sh rb.disks=$n$kargs" \
		-serial "file:$T/console" -serial "file:$T/out" \
		-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
		"${numa[@]}" "${dev[@]}" "${late[@]}" >"$T/qemu.log" 2>&1 &
	qpid=$!
	wait "$qpid"
	qrc=$?
	qpid=
}
start=$(date +%s)
boot
# qemu 7.2's multi-threaded TCG rarely aborts while the guest probes its
# devices (an assertion in msix_table_mmio_write): before the job started
# nothing was done, so that boot is simply made again, once.
if [ $qrc -ne 0 ] && [ $qrc -ne 124 ] && [ $qrc -ne 137 ] && ! grep -q -a '^RB-VM-START$' "$T/out"; then
	echo "run-vm: qemu stopped (exit $qrc) before the job started; booting again:" >&2
	sed 's/^/qemu: /' "$T/qemu.log" >&2
	boot
fi
secs=$(($(date +%s) - start))
[ -n "${RB_VM_CONSOLE:-}" ] && cp "$T/console" "$RB_VM_CONSOLE"

marker=$(grep -a '^RB-VM-EXIT [0-9]*$' "$T/out" 2>/dev/null | tail -1)
grep -a -v -E '^RB-VM-(EXIT [0-9]+|START)$' "$T/out" 2>/dev/null
if [ -n "$marker" ]; then
	echo "# run-vm: guest finished in ${secs}s" >&2
	exit "${marker#RB-VM-EXIT }"
fi
if [ ! -s "$T/console" ] && [ $qrc -ne 124 ] && [ $qrc -ne 137 ]; then
	sed 's/^/qemu: /' "$T/qemu.log"
	skip "qemu did not start (exit $qrc)"
fi
if [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; then
	echo "run-vm: the guest did not finish within ${timeout}s and was killed; its console:"
else
	echo "run-vm: the guest stopped (qemu exit $qrc) without reporting; its console:"
fi
tail -40 "$T/console"
sed 's/^/qemu: /' "$T/qemu.log"
exit 1
