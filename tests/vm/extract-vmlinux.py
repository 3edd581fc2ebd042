#!/usr/bin/python3
# extract-vmlinux.py - writes the uncompressed ELF kernel inside a bzImage
# (vmlinuz): qemu boots an ELF vmlinux through its PVH note in seconds, where
# the bzImage spends a minute of emulated time decompressing itself.
# Usage: extract-vmlinux.py VMLINUZ OUT
import lzma
import subprocess
import sys
import zlib

# The payload's compressor is found by its magic, as the kernel's own
# scripts/extract-vmlinux does; the first candidate that yields an ELF wins.
MAGICS = [
    (b"\xfd7zXZ\x00", "xz"),
    (b"\x1f\x8b\x08", "gzip"),
    (b"\x28\xb5\x2f\xfd", "zstd"),
]


def decompress(kind, data):
    if kind == "xz":
        d = lzma.LZMADecompressor(format=lzma.FORMAT_XZ)
        return d.decompress(data)
    if kind == "gzip":
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        return d.decompress(data)
    # python3 has no zstd: the zstd program (Debian package zstd) does it
    try:
        r = subprocess.run(["zstd", "-dcq"], input=data, capture_output=True)
    except FileNotFoundError:
        raise ValueError("zstd is not installed (apt-get install zstd)")
    return r.stdout


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: extract-vmlinux.py VMLINUZ OUT")
    data = open(sys.argv[1], "rb").read()
    tried = []
    for magic, kind in MAGICS:
        pos = data.find(magic)
        while pos >= 0:
            try:
                out = decompress(kind, data[pos:])
            except (lzma.LZMAError, zlib.error, ValueError, EOFError) as e:
                tried.append("%s at %d: %s" % (kind, pos, e))
                out = b""
            if out[:4] == b"\x7fELF":
                with open(sys.argv[2], "wb") as f:
                    f.write(out)
                return
            pos = data.find(magic, pos + 1)
    sys.exit("%s: no compressed ELF kernel found (%s)" %
             (sys.argv[1], "; ".join(tried[:5]) or "no xz, gzip or zstd magic"))


if __name__ == "__main__":
    main()
