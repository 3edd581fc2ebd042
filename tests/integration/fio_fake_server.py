#!/usr/bin/env -S python3 -S
"""A stand-in for a fio server of another protocol version.

Listens on HOST PORT, reads each command (fio's 24-byte little-endian header:
u16 version, u16 opcode, u32 flags, u64 tag, u32 pdu_len, u16 header crc,
u16 payload crc) and answers a PROBE with a probe reply carrying VERSION in
its header, CRCs right, as a fio of that version would. Anything else is
read and ignored. Runs until killed.

usage: fio_fake_server.py HOST PORT VERSION
"""
import socket
import struct
import sys
import threading


def crc16(data):
    crc = 0
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
    return crc


def command(version, opcode, tag, pdu):
    head = struct.pack('<HHIQI', version, opcode, 0, tag, len(pdu))
    return head + struct.pack('<HH', crc16(head), crc16(pdu)) + pdu


def recv_exact(c, n):
    buf = b''
    while len(buf) < n:
        b = c.recv(n - len(buf))
        if not b:
            return None
        buf += b
    return buf


def serve(c, version):
    with c:
        while True:
            head = recv_exact(c, 24)
            if head is None:
                return
            _, op, _, tag, n = struct.unpack_from('<HHIQI', head)
            if n and recv_exact(c, n) is None:
                return
            if op == 10:  # PROBE
                reply = b'fake'.ljust(64, b'\0') + b'\0' + b'fio-3.x'.ljust(32, b'\0')
                reply += bytes([2, 2, 8]) + struct.pack('<IQ', 1, 0)  # os, arch, bytes per pointer; cpus, flags
                c.sendall(command(version, 10, tag, reply))


def main():
    host, port, version = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((host, port))
    s.listen(8)
    while True:
        c, _ = s.accept()
        threading.Thread(target=serve, args=(c, version), daemon=True).start()


main()
