#!/usr/bin/env python3
"""Writes the crafted note records of issue 29 ("Hostile payloads, round 2", items 1-3) into a
folder, as CloudKit Web Services JSON with inline payloads, written from Docs/FORMAT.md alone
(standard library only). Every record is a version of the note "hostile", so any two merge.

  normal.json              an ordinary note: "hello" typed by replica 7
  siblings-40k.v1.json     40,000 one-character tombstones of one replica, no origins (format 1)
  siblings-40k.v2.json     the same in format 2 with raw columns (3 bytes a run)
  siblings-2m.v1.json      2^21 such tombstones (format 1, 6.3 MB of payload)
  siblings-2m.v2.json      2^21 such tombstones in format 2, rANS columns of one symbol: 85 bytes
                           of payload (findings 1 and 3: the issue's 190- and 397-byte records)
  out-of-order.v1.json     "b" (replica 9) listed before "a" (replica 7), no origins (finding 2)

Usage: python3 Benchmarks/hostile/make_records.py DIR
Docs/BENCHMARKS.md ("Round 5") shows what crdtnote does with them, before and after.
"""
import base64
import json
import os
import sys


def crc32c(data):
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ (0x82F63B78 if c & 1 else 0)
        table.append(c)
    crc = 0xFFFFFFFF
    for b in data:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def varuint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def payload(body, minimum_reader):
    header = b"CRNT" + minimum_reader.to_bytes(2, "little") * 2 + bytes([1, 0])
    return header + len(body).to_bytes(4, "little") + crc32c(body).to_bytes(4, "little") + body


def replica_table(replicas):
    """[(id, nextSeq)], no stamps, no clock log."""
    out = varuint(len(replicas))
    for rid, next_seq in replicas:
        out += rid.to_bytes(8, "little") + varuint(next_seq) + b"\x00\x00"
    return out


def column(data):
    return varuint(len(data)) + bytes(data)


def siblings_v1(n, rid=0x5151):
    """n one-id tombstone runs of one replica, left and right origin none, in id order (format 1)."""
    body = replica_table([(rid, n)]) + b"\x00" + varuint(n)
    flags = bytes([0x01 | 1 << 2]) * n           # deleted, left none (mode 1), right none (mode 0)
    body += column(flags) + column(b"") + column(b"\x00" * n) + column(b"\x00" * n) + column(b"") + column(b"")
    return payload(body, 1)


def siblings_v2_raw(n, rid=0x5151):
    body = replica_table([(rid, n)]) + b"\x00" + varuint(n)
    flags = bytes([0x01 | 1 << 1 | 2 << 3]) * n  # deleted, left none, right none, sequence code 0
    for data in (flags, b"", b"\x00" * n, b"\x00" * n, b"", b"", b""):
        body += b"\x00" + column(data)
    return payload(body, 2)


def constant_rans(n, symbol):
    """A rANS column of n copies of one byte: one symbol of frequency 4096 never changes the
    state, so the stream is the 4-byte initial state whatever n is."""
    return b"\x01" + varuint(n) + bytes([0, symbol, 0x80, 0x20]) + b"\x04" + (1 << 23).to_bytes(4, "little")


def siblings_v2_rans(n, rid=0x5151):
    body = replica_table([(rid, n)]) + b"\x00" + varuint(n)
    body += constant_rans(n, 0x01 | 1 << 1 | 2 << 3) + b"\x00\x00" + constant_rans(n, 0) + constant_rans(n, 0)
    body += b"\x00\x00" * 3
    return payload(body, 2)


def out_of_order_v1():
    body = replica_table([(9, 1), (7, 1)]) + column(b"ba") + varuint(2)
    flags = bytes([0x00 | 1 << 2 | 0, 0x02 | 1 << 2])  # run 0: replica 0; run 1: explicit replica 1
    body += column(flags) + column(varuint(1)) + column(b"\x00\x00") + column(b"\x00\x00") + column(b"") + column(b"")
    return payload(body, 1)


def normal_v1():
    body = replica_table([(7, 5)]) + column(b"hello") + varuint(1)
    body += column(b"\x00") + column(b"") + column(b"\x00") + column(b"\x04") + column(b"") + column(b"")
    return payload(body, 1)


def record(data):
    return {"recordName": "hostile", "recordType": "Note", "fields": {
        "version": {"value": 2, "type": "INT64"},
        "payload": {"value": base64.b64encode(data).decode(), "type": "BYTES"},
        "modified": {"value": 1795262400000, "type": "TIMESTAMP"}}}


def main(folder):
    os.makedirs(folder, exist_ok=True)
    records = {
        "normal.json": normal_v1(),
        "siblings-40k.v1.json": siblings_v1(40_000),
        "siblings-40k.v2.json": siblings_v2_raw(40_000),
        "siblings-2m.v1.json": siblings_v1(1 << 21),
        "siblings-2m.v2.json": siblings_v2_rans(1 << 21),
        "out-of-order.v1.json": out_of_order_v1(),
    }
    for name, data in records.items():
        with open(os.path.join(folder, name), "w") as f:
            json.dump(record(data), f)
        print("%-22s payload %9d bytes, record %9d bytes" % (name, len(data), os.path.getsize(os.path.join(folder, name))))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
