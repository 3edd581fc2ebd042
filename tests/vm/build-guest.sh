#!/bin/bash
# build-guest.sh - makes (or finds in the cache) the test guest from Debian
# packages: the kernel linux-image-amd64 depends on, as an uncompressed
# vmlinux; an initramfs of busybox-static, the kernel's storage, md, dm and
# 9p modules and tests/vm/init; mdadm unpacked for the guest's PATH.
# Nothing is installed on the host. Prints the guest's directory.
#
# Cache: $RAIDBENCH_VM_CACHE, else /var/cache/raidbench-vm when root, else
# ${XDG_CACHE_HOME:-~/.cache}/raidbench-vm; one directory per set of package
# versions and harness files, so an update of either builds a new guest.
# Exit 77 (with the reason on stderr) when the packages cannot be had.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
skip() { echo "build-guest: $*" >&2; exit 77; }
die() { echo "build-guest: $*" >&2; exit 1; }

if [ -n "${RAIDBENCH_VM_CACHE:-}" ]; then
	CACHE=$RAIDBENCH_VM_CACHE
elif [ "$(id -u)" -eq 0 ]; then
	CACHE=/var/cache/raidbench-vm
else
	CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/raidbench-vm
fi
mkdir -p "$CACHE/debs" || die "cannot make the cache $CACHE"
exec 8>"$CACHE/lock"
flock 8

for t in apt-get apt-cache dpkg-deb depmod cpio python3; do
	command -v $t >/dev/null || skip "$t is missing (apt-get install qemu-system-x86 cpio kmod)"
done

# The kernel package the metapackage points at, and the versions: one
# apt-cache run (each costs seconds on a busy machine). The metapackage's
# version moves with every kernel upload, so it stands for the kernel's.
info=$(apt-cache show --no-all-versions linux-image-amd64 busybox-static mdadm 2>/dev/null)
kdep=$(sed -n 's/^Depends: .*\(linux-image-[0-9][^ ,]* (= [^)]*)\).*/\1/p' <<<"$info" | head -1)
[ -n "$kdep" ] || skip "apt-cache does not know linux-image-amd64 (apt-get update?)"
kpkg=${kdep%% *} kv=${kdep#*(= }
declare -A VER=([$kpkg]=${kv%)})
while read -r p v; do VER[$p]=$v; done < <(awk '/^Package: /{p=$2} /^Version: /{print p, $2}' <<<"$info")
PKGS="$kpkg busybox-static mdadm"
key=
for p in $PKGS; do
	[ -n "${VER[$p]:-}" ] || skip "apt-cache does not know $p"
	key="$key$p=${VER[$p]} "
done
# the harness files that go into the guest are part of the key too
hash=$(cat "$HERE/init" "$HERE/build-guest.sh" "$HERE/extract-vmlinux.py" | sha256sum)
key=$(printf '%s%s' "$key" "$hash" | sha256sum | cut -c1-16)
G=$CACHE/guest-$key
if [ -f "$G/ready" ]; then
	echo "$G"
	exit 0
fi

echo "build-guest: building the guest in $G (packages: $PKGS)" >&2
# the .deb of package $1 at the version wanted ("1:1.35" is saved as "1%3a1.35")
deb() {
	local v=${VER[$1]}
	echo "$CACHE/debs/$1_${v//:/%3a}_amd64.deb"
}
get=
for p in $PKGS; do [ -s "$(deb "$p")" ] || get="$get $p"; done
# apt-get download writes into the current directory
if [ -n "$get" ]; then
	(cd "$CACHE/debs" && apt-get download -q $get >/dev/null 2>"$CACHE/debs/download.log") ||
		skip "apt-get download$get failed: $(tail -1 "$CACHE/debs/download.log")"
fi
for p in $PKGS; do	# older versions go
	for f in "$CACHE/debs/$p"_*.deb; do [ "$f" = "$(deb "$p")" ] || rm -f "$f"; done
done
rm -rf "$G.tmp"
trap 'rm -rf "$G.tmp"' EXIT	# a half-built guest never stays
mkdir -p "$G.tmp/kernel" "$G.tmp/mdadm" "$G.tmp/bb" "$G.tmp/initrd"
for p in $PKGS; do [ -s "$(deb "$p")" ] || die "no $(deb "$p") after apt-get download"; done
dpkg-deb -x "$(deb "$kpkg")" "$G.tmp/kernel" &&
	dpkg-deb -x "$(deb mdadm)" "$G.tmp/mdadm" &&
	dpkg-deb -x "$(deb busybox-static)" "$G.tmp/bb" || die "dpkg-deb -x failed"
kver=$(ls "$G.tmp/kernel/lib/modules" | head -1)
"$HERE/extract-vmlinux.py" "$G.tmp/kernel/boot/vmlinuz-$kver" "$G.tmp/vmlinux" ||
	die "cannot extract vmlinux from vmlinuz-$kver"

# initramfs: busybox, the modules with everything they need, /init
R=$G.tmp/initrd
mkdir -p "$R"/{bin,sbin,etc,proc,sys,dev,host,lib/modules/$kver}
cp "$G.tmp/bb/bin/busybox" "$R/bin/busybox"
for a in $("$R/bin/busybox" --list); do
	[ "$a" = busybox ] || ln -sf busybox "$R/bin/$a"
done
ln -sf ../bin/busybox "$R/sbin/modprobe"	# the kernel's request_module runs /sbin/modprobe
MODS="virtio_pci virtio_blk virtio_scsi 9pnet_virtio 9p
  md_mod linear raid0 raid1 raid10 raid456 dm_mod
  sd_mod sg ahci nvme megaraid_sas ext4 crc32c_generic
  nd_e820 nd_pmem dax_pmem device_dax"
M=$G.tmp/kernel/lib/modules/$kver
depmod -b "$G.tmp/kernel" "$kver" || die "depmod failed"
# each module's file and those of its dependencies, from modules.dep
python3 - "$M" $MODS >"$G.tmp/modfiles" <<'PY' || die "a module is missing"
import sys
mdir, want = sys.argv[1], sys.argv[2:]
dep = {}
for line in open(mdir + "/modules.dep"):
    f, _, d = line.partition(":")
    dep[f] = d.split()
byname = {f.rsplit("/", 1)[-1].split(".ko")[0].replace("-", "_"): f for f in dep}
# built-in ones (modules.builtin) need no file
builtin = {l.strip().rsplit("/", 1)[-1].split(".ko")[0].replace("-", "_")
           for l in open(mdir + "/modules.builtin")}
out = set()
for w in want:
    if w in builtin:
        continue
    if w not in byname:
        sys.exit("module %s is neither in modules.dep nor built in" % w)
    out.add(byname[w])
    out.update(dep[byname[w]])
print("\n".join(sorted(out)))
PY
while read -r f; do
	mkdir -p "$R/lib/modules/$kver/$(dirname "$f")"
	cp "$M/$f" "$R/lib/modules/$kver/$f"
done <"$G.tmp/modfiles"
cp "$M"/modules.builtin* "$M"/modules.order "$R/lib/modules/$kver/" 2>/dev/null
depmod -b "$R" "$kver" || die "depmod of the initramfs failed"
echo $MODS >"$R/etc/rb-modules"
cp "$HERE/init" "$R/init"
chmod 755 "$R/init"
(cd "$R" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$G.tmp/initrd.cpio" ||
	die "cpio failed"
# mdadm and its udev rules stay unpacked: the guest runs it from here over 9p
mv "$G.tmp/mdadm" "$G.tmp/mdadm-root"
echo "$kver" >"$G.tmp/kernel-version"
rm -rf "$G.tmp/kernel" "$G.tmp/bb" "$R"
touch "$G.tmp/ready"
rm -rf "$G"
mv "$G.tmp" "$G"
# other guests go (each is ~70 MB), but not one booted in the last two hours:
# checkouts with other harness files share the cache and may be using it
for old in "$CACHE"/guest-*; do
	[ "$old" = "$G" ] || [ -n "$(find "$old/used" -mmin -120 2>/dev/null)" ] || rm -rf "$old"
done
echo "$G"
