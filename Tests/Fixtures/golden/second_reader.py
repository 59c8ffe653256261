#!/usr/bin/env python3
"""An independent reader of crdtnote's formats, written from Docs/FORMAT.md and
Docs/RECORD-FORMAT.md alone (no Swift source), run over the golden fixtures in this folder.

For every fixture NAME it decodes NAME.bin (header, CRC-32C, replica table, text, the six run
columns, id coverage) and checks the result against NAME.txt (the text) and NAME.show.json
(replica ids, ids per replica, run count, clock range, header versions, payload size). It then
derives the legacy replica id and the fold replica id of the two plain-text fixtures
(RECORD-FORMAT.md, "Deterministic replica ids") and checks that they are the ids the Swift
library wrote.

Usage: python3 second_reader.py [folder]   (default: the folder of this script)
Prints one line per check and exits 1 on the first mismatch. Standard library only.
Run by Tests/CRDTNoteTests/Records/GoldenSecondReaderTests.swift when python3 is installed.
"""
import base64
import datetime
import json
import os
import sys

FIXTURES = ["empty", "ascii", "emoji-crlf", "multi-replica", "merged", "asset-spilled",
            "legacy-v1-upgraded", "clobbered-folded"]
M64 = (1 << 64) - 1


class Corrupt(Exception):
    pass


# --- primitives (FORMAT.md section 2) ---------------------------------------------------------

def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


class Reader:
    def __init__(self, data, start=0, end=None):
        self.data, self.pos, self.end = data, start, len(data) if end is None else end

    def left(self):
        return self.end - self.pos

    def byte(self):
        if self.pos >= self.end:
            raise Corrupt("truncated at %d" % self.pos)
        self.pos += 1
        return self.data[self.pos - 1]

    def u64(self):
        if self.left() < 8:
            raise Corrupt("truncated u64 at %d" % self.pos)
        v = int.from_bytes(self.data[self.pos:self.pos + 8], "little")
        self.pos += 8
        return v

    def varuint(self, maximum=M64):
        start, value, shift = self.pos, 0, 0
        for i in range(10):
            b = self.byte()
            if i == 9 and b > 1:
                raise Corrupt("varintOverflow at %d" % start)
            value |= (b & 0x7F) << shift
            if b < 0x80:
                if b == 0 and i > 0:
                    raise Corrupt("nonMinimalVarint at %d" % start)
                if value > maximum:
                    raise Corrupt("invalidValue at %d: %d > %d" % (start, value, maximum))
                return value
            shift += 7
        raise Corrupt("varintOverflow at %d" % start)

    def varint(self):
        u = self.varuint()
        return (u >> 1) ^ -(u & 1)

    def count(self, each):
        start = self.pos
        n = self.varuint()
        if n > self.left() // each:        # "bytes left" = after the count field, to the body's end
            raise Corrupt("lengthTooLarge at %d" % start)
        return n

    def bytes_field(self):
        n = self.varuint()
        if n > self.left():
            raise Corrupt("lengthTooLarge at %d" % self.pos)
        self.pos += n
        return self.data[self.pos - n:self.pos]

    def sub(self):                         # a snapshot column: varuint length, then a reader over it
        n = self.varuint(self.left())
        r = Reader(self.data, self.pos, self.pos + n)
        self.pos += n
        return r


# --- payloads (FORMAT.md sections 3 and 4) ----------------------------------------------------

def header(payload):
    if payload[:4] != b"CRNT":
        raise Corrupt("badMagic")
    fmt, minimum = int.from_bytes(payload[4:6], "little"), int.from_bytes(payload[6:8], "little")
    if minimum > 1:
        raise Corrupt("newerFormat")
    kind, flags = payload[8], payload[9]
    length, crc = int.from_bytes(payload[10:14], "little"), int.from_bytes(payload[14:18], "little")
    if kind not in (1, 2) or flags != 0 or length != len(payload) - 18 or crc != crc32c(payload[18:]):
        raise Corrupt("bad header")
    return {"formatVersion": fmt, "minimumReaderVersion": minimum, "kind": kind, "bodyLength": length, "crc": crc}


def decode_snapshot(payload):
    h = header(payload)
    if h["kind"] != 1:
        raise Corrupt("not a snapshot")
    r = Reader(payload, 18)
    replicas = []
    for _ in range(r.count(11)):
        rid = r.u64()
        next_seq = r.varuint(2**32 - 2)
        latest = r.varuint()
        log, seq, stamp = [], 0, 0
        for e in range(r.count(2)):
            delta = r.varuint()
            if e > 0 and delta == 0:
                raise Corrupt("clock log not increasing")
            seq, stamp = seq + delta, (stamp + r.varint()) & M64
            log.append((seq, stamp))
        replicas.append({"id": rid, "nextSeq": next_seq, "latest": latest, "log": log})
    if len({x["id"] for x in replicas}) != len(replicas):
        raise Corrupt("replica listed twice")
    text = r.bytes_field().decode("utf-8")          # strict: Python rejects surrogates and overlongs
    run_count = r.count(2)
    flags, rep, seqs, lengths, lefts, rights = (r.sub() for _ in range(6))
    if r.left() or flags.left() != run_count:
        raise Corrupt("trailing bytes or flag count")
    R = len(replicas)
    scalars = iter(text)
    runs, last_end, replica = [], [0] * R, 0
    for i in range(run_count):
        f = flags.byte()
        if f & 0xC0:
            raise Corrupt("reserved flag bits")
        if f & 2:
            replica = rep.varuint(max(R - 1, 0))
        elif i == 0:
            replica = 0
        if replica >= R:
            raise Corrupt("run %d names replica %d of %d" % (i, replica, R))
        seq = last_end[replica] + seqs.varint()
        length = lengths.varuint(2**32 - 1) + 1
        if seq < 0 or seq + length > replicas[replica]["nextSeq"]:
            raise Corrupt("run ids outside the replica's")
        last_end[replica] = seq + length
        deleted = bool(f & 1)
        chars = "" if deleted else "".join(next(scalars) for _ in range(length))
        if not deleted and len(chars) != length:
            raise Corrupt("text ends inside a run")
        lm, rm = (f >> 2) & 3, (f >> 4) & 3
        prev = runs[-1] if runs else None
        if lm == 0:
            left = (prev["r"], prev["seq"] + prev["len"] - 1) if prev else None
        elif lm == 1:
            left = None
        elif lm == 2:
            left = (lefts.varuint(max(R - 1, 0)), lefts.varuint(2**32 - 2))
        else:
            left = (replica, seq - 1)
        if rm == 2 and (prev is None or prev["rm"] == 1):
            raise Corrupt("same-as-previous right origin without a previous one")
        right = {0: None, 1: "next", 2: prev["right"] if prev else None}.get(rm)
        if rm == 3:
            right = (rights.varuint(max(R - 1, 0)), rights.varuint(2**32 - 2))
        runs.append({"r": replica, "seq": seq, "len": length, "deleted": deleted, "text": chars,
                     "left": left, "right": right, "rm": rm})
    if next(scalars, None) is not None:
        raise Corrupt("text has bytes no run uses")
    if any(c.left() for c in (rep, seqs, lengths, lefts, rights)):
        raise Corrupt("column not fully consumed")
    for i, run in enumerate(runs):
        if run["right"] == "next":
            if i + 1 == len(runs):
                raise Corrupt("last run points to a next element")
            run["right"] = (runs[i + 1]["r"], runs[i + 1]["seq"])
    for x in range(R):                               # every id 0..<nextSeq exactly once
        covered = sorted((run["seq"], run["len"]) for run in runs if run["r"] == x)
        at = 0
        for s, n in covered:
            if s != at:
                raise Corrupt("ids of replica %d not tiled" % x)
            at += n
        if at != replicas[x]["nextSeq"]:
            raise Corrupt("ids of replica %d not covered" % x)
    return h, replicas, runs, "".join(run["text"] for run in runs)


# --- derived replica ids (RECORD-FORMAT.md) ---------------------------------------------------

class Hasher:
    """FNV-1a 64 over length-framed parts, finalised with SplitMix64's mixer."""

    def __init__(self):
        self.h = 0xCBF29CE484222325

    def byte(self, b):
        self.h = ((self.h ^ b) * 0x100000001B3) & M64

    def word(self, w):
        for b in (w & M64).to_bytes(8, "little"):
            self.byte(b)

    def part(self, data):
        self.word(len(data))
        for b in data:
            self.byte(b)

    def state(self, replicas, runs, text):
        stretches = []
        for run in runs:
            rid = replicas[run["r"]]["id"]
            last = stretches[-1] if stretches else None
            if last and last[0] == rid and last[2] == run["seq"] and last[3] == run["deleted"]:
                last[2] = run["seq"] + run["len"]
            else:
                stretches.append([rid, run["seq"], run["seq"] + run["len"], run["deleted"]])
        for rid, start, end, deleted in stretches:
            self.word(rid)
            self.word(start)
            self.word(end)
            self.byte(1 if deleted else 0)
        self.word(len(stretches))
        self.word(max([x["latest"] for x in replicas], default=0))
        self.part(text.encode("utf-8"))

    def replica(self):
        z = self.h
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        z ^= z >> 31
        return z or 1


def legacy_replica(record_name, text):
    h = Hasher()
    for part in ("crdtnote.legacy", record_name, text):
        h.part(part.encode("utf-8"))
    return h.replica()


def fold_replica(record_name, base_payload, text, mode="diff"):
    _, replicas, runs, base_text = decode_snapshot(base_payload)
    h = Hasher()
    h.part(("crdtnote.fold." + mode).encode("utf-8"))
    h.part(record_name.encode("utf-8"))
    h.state(replicas, runs, base_text)
    h.part(text.encode("utf-8"))
    return h.replica()


# --- the checks -------------------------------------------------------------------------------

def iso(stamp):
    ms = stamp >> 16
    t = datetime.datetime.fromtimestamp(ms // 1000, tz=datetime.timezone.utc)
    return t.strftime("%Y-%m-%dT%H:%M:%S") + ".%03dZ" % (ms % 1000)


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        sys.exit(1)


def main(folder):
    def read(name, mode="rb"):
        with open(os.path.join(folder, name), mode) as f:
            return f.read()

    for name in FIXTURES:
        payload = read(name + ".bin")
        h, replicas, runs, text = decode_snapshot(payload)
        show = json.loads(read(name + ".show.json"))
        check(text.encode("utf-8") == read(name + ".txt"), name + ": text equals .txt")
        p = show["payloads"][0]
        check((p["encodedBytes"], p["formatVersion"], p["minimumReaderVersion"])
              == (len(payload), h["formatVersion"], h["minimumReaderVersion"]), name + ": header and size")
        check(show["runs"] == len(runs), name + ": %d runs" % len(runs))
        listed = sorted((x for x in replicas if x["nextSeq"] > 0 or x["latest"] > 0), key=lambda x: x["id"])
        got = [{"replica": str(x["id"]), "inserted": x["nextSeq"],
                "firstInsertion": iso(x["log"][0][1]) if x["log"] and x["log"][0][1] else None,
                "latestEdit": iso(x["latest"]) if x["latest"] else None} for x in listed]
        check(got == show["replicas"], name + ": replica ids, id counts and clock ranges")
        t = show["text"]
        check((t["scalars"], t["utf16"], t["utf8"])
              == (len(text), len(text.encode("utf-16-le")) // 2, len(text.encode("utf-8"))), name + ": text lengths")

    legacy_text = json.loads(read("inputs/legacy-v1-ancestor.json", "r"))["fields"]["text"]["value"]
    rid = legacy_replica("golden-legacy", legacy_text)
    ids = [x["replica"] for x in json.loads(read("legacy-v1-upgraded.show.json"))["replicas"]]
    check(str(rid) in ids, "legacy replica of golden-legacy = %d" % rid)

    # The server side of that merge is v1 too: its text is folded ("diff") into the legacy upgrade
    # of the ancestor, whose state is one run of the legacy replica stamped `modified << 16`.
    ancestor = json.loads(read("inputs/legacy-v1-ancestor.json", "r"))["fields"]
    server = json.loads(read("inputs/legacy-v1-server.json", "r"))["fields"]
    legacy = {"id": legacy_replica("golden-legacy", legacy_text), "nextSeq": len(legacy_text),
              "latest": ancestor["modified"]["value"] << 16, "log": []}
    h = Hasher()
    h.part(b"crdtnote.fold.diff")
    h.part(b"golden-legacy")
    h.state([legacy], [{"r": 0, "seq": 0, "len": len(legacy_text), "deleted": False}], legacy_text)
    h.part(server["text"]["value"].encode("utf-8"))
    rid = h.replica()
    stamps = {x["id"]: x["latest"] for x in decode_snapshot(read("legacy-v1-upgraded.bin"))[1]}
    check(stamps.get(rid) == (server["modified"]["value"] << 16 | 1),
          "fold replica of golden-legacy's v1 server = %d, stamped (modified, counter 1)" % rid)
    check(stamps.get(legacy["id"]) == legacy["latest"], "legacy replica stamped (modified, counter 0)")

    client = json.loads(read("inputs/clobbered-client.json", "r"))["fields"]
    base = base64.b64decode(client["payload"]["value"], validate=True)
    rid = fold_replica("golden-clobbered", base, client["text"]["value"])
    ids = [x["replica"] for x in json.loads(read("clobbered-folded.show.json"))["replicas"]]
    check(str(rid) in ids, "fold replica of golden-clobbered = %d" % rid)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__)))
