#!/usr/bin/env python3
"""An independent reader of crdtnote's formats, written from Docs/FORMAT.md and
Docs/RECORD-FORMAT.md alone (no Swift source), run over the golden fixtures in this folder.

Snapshots with either run table are read: version 1 (FORMAT.md 4.3, six columns) and version 2
(4.5: seven raw or rANS-coded columns, stacks of open ends, predicted right origins, at most 4 runs
per byte of run table), with the id, causality and rule-order checks of 4.3 and 4.4; a refusal
names FORMAT.md's error kind and payload offset.

For every fixture NAME it decodes NAME.bin (header, CRC-32C, replica table, text, the six run
columns, id coverage) and checks the result against NAME.txt (the text) and NAME.show.json
(replica ids, ids per replica, run count, clock range, header versions, payload size). It checks
that each format 2 fixture ../format2/NAME.v2.bin decodes to NAME.txt and to the replica table and
runs of NAME.v1.bin. It then derives the legacy replica id and the fold replica id of the two
plain-text fixtures (RECORD-FORMAT.md, "Deterministic replica ids") and checks that they are the
ids the Swift library wrote.

Usage: python3 second_reader.py [folder]   (default: the folder of this script)
Prints one line per check and exits 1 on the first mismatch. Standard library only.
       python3 second_reader.py --dump FILE...
Prints one JSON line per payload file: what it decodes to (text, replicas, runs with replica ids
and origins, state digest) or why it is refused (kind, offset).
       python3 second_reader.py --dump-formatting FILE...
The same for formatting payloads (FORMAT.md 10.7): their mark and paragraph operations.
       python3 second_reader.py --dump-history FILE...
The same for history payloads (FORMAT.md 11.2, versions 1 and 2): their deletion events with the
deleted text.
Run by Tests/CRDTNoteTests/Records/GoldenFixtureFactsTests.swift and SecondReaderFormatTwoTests.swift
when python3 is installed.
"""
import base64
import bisect
import datetime
import json
import os
import sys

FIXTURES = ["empty", "ascii", "emoji-crlf", "multi-replica", "merged", "asset-spilled",
            "legacy-v1-upgraded", "clobbered-folded"]
FORMAT2_FIXTURES = ["multi-replica", "edited"]        # in ../format2
M64 = (1 << 64) - 1


class Corrupt(Exception):
    """A payload the specs say a reader must refuse: FORMAT.md's error kind and, where the spec
    names one, the payload offset it is reported at (None where it names none)."""

    def __init__(self, kind, offset, what):
        super().__init__("%s at %s: %s" % (kind, "?" if offset is None else offset, what))
        self.kind, self.offset, self.what = kind, offset, what


MAX_ELEMENTS, MAX_REPLICAS, MAX_RUNS, MAX_TEXT = 2**26, 2**16, 2**21, 2**24
RUNS_PER_TABLE_BYTE = 4                 # FORMAT.md 4.5: a version 2 run table's density bound
SEQ_MAX = 2**32 - 2                     # the largest seq or origin seq a field may hold


# --- primitives (FORMAT.md section 2) ---------------------------------------------------------

def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


class Reader:
    """Reads data[start:end]; offsets in errors are `base + position in data` (base 0 when data is
    the payload), or always `base` when pinned (data is a rANS column's decoded bytes, base the
    column's first byte: decoded bytes have no offset of their own)."""

    def __init__(self, data, start=0, end=None, base=0, pinned=False):
        self.data, self.pos, self.end, self.base = data, start, len(data) if end is None else end, base
        self.pinned = pinned

    def at(self, pos=None):
        return self.base if self.pinned else self.base + (self.pos if pos is None else pos)

    def left(self):
        return self.end - self.pos

    def byte(self):
        if self.pos >= self.end:
            raise Corrupt("truncated", self.at(), "a byte is missing")
        self.pos += 1
        return self.data[self.pos - 1]

    def u64(self):
        if self.left() < 8:
            raise Corrupt("truncated", self.at(), "a u64 is cut off")
        v = int.from_bytes(self.data[self.pos:self.pos + 8], "little")
        self.pos += 8
        return v

    def varuint(self, maximum=M64, what="value"):
        start, value, shift = self.pos, 0, 0
        for i in range(10):
            if self.pos >= self.end:   # FORMAT.md 2: a cut-off varint is reported at its first byte
                raise Corrupt("truncated", self.at(start), "%s: varint cut off" % what)
            b = self.byte()
            if i == 9 and b > 1:
                raise Corrupt("varintOverflow", self.at(start), what)
            value |= (b & 0x7F) << shift
            if b < 0x80:
                if b == 0 and i > 0:
                    raise Corrupt("nonMinimalVarint", self.at(start), what)
                if value > maximum:
                    raise Corrupt("invalidValue", self.at(start), "%s %d > %d" % (what, value, maximum))
                return value
            shift += 7
        raise Corrupt("varintOverflow", self.at(start), what)

    def varint(self, what="value"):
        u = self.varuint(what=what)
        return (u >> 1) ^ -(u & 1)

    def count(self, each, what):
        start = self.pos
        n = self.varuint(what=what)
        if n > self.left() // each:        # "bytes left" = after the count field, to the body's end
            raise Corrupt("lengthTooLarge", self.at(start), "%s %d" % (what, n))
        return n

    def length(self, kind, what):
        """A length field: a varuint no larger than the bytes left after it (else `kind`)."""
        start = self.pos
        n = self.varuint(what=what)
        if n > self.left():
            raise Corrupt(kind, self.at(start), "%s %d > %d bytes left" % (what, n, self.left()))
        return n

    def column_length(self, what):
        """A run column's (or rANS stream's) length: FORMAT.md 4.3 step 2 and 4.5 "Columns". Above
        the bytes left counted from the length field's own first byte: invalidValue at the field;
        above the bytes left after it (so by at most the field's size): lengthTooLarge after it."""
        start, before = self.pos, self.left()
        n = self.varuint(what=what)
        if n > before:
            raise Corrupt("invalidValue", self.at(start), "%s %d > %d bytes left" % (what, n, before))
        return n

    def sub(self, n, what):
        if n > self.left():
            raise Corrupt("lengthTooLarge", self.at(), "%s %d > %d bytes left" % (what, n, self.left()))
        return Reader(self.data, self.take(n), self.pos, self.base, self.pinned)

    def take(self, n):
        self.pos += n
        return self.pos - n

    def done(self, what):
        if self.left():
            raise Corrupt("trailingBytes", self.at(), "%s: %d bytes unused" % (what, self.left()))


def strict_utf8(data, offset):
    """FORMAT.md 2, text: strict UTF-8, else invalidValue at the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        i = e.start                        # the lead byte of the first bad sequence
        lead = data[i]
        if lead < 0xC2 or lead > 0xF4:
            raise Corrupt("invalidValue", offset + i, "not UTF-8")
        n = 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
        low, high = {0xE0: (0xA0, 0xBF), 0xED: (0x80, 0x9F), 0xF0: (0x90, 0xBF), 0xF4: (0x80, 0x8F)}.get(lead, (0x80, 0xBF))
        for k in range(1, n):
            if i + k >= len(data):
                raise Corrupt("invalidValue", offset + i, "UTF-8 cut off")
            if not (low <= data[i + k] <= high if k == 1 else 0x80 <= data[i + k] <= 0xBF):
                raise Corrupt("invalidValue", offset + i + k, "not UTF-8")
        raise Corrupt("invalidValue", offset + i, "not UTF-8")


# --- payloads (FORMAT.md sections 3 and 4) ----------------------------------------------------

READER_VERSION = 7                      # snapshot bodies of formats 1 to 3 (4 and 5 read as 3), 6 and 7, history 1 and 2


def header(payload):
    if payload[:4] != b"CRNT":
        raise Corrupt("badMagic", 0, "magic")
    if len(payload) < 18:
        raise Corrupt("truncated", len(payload), "header")
    fmt, minimum = int.from_bytes(payload[4:6], "little"), int.from_bytes(payload[6:8], "little")
    if minimum > READER_VERSION:
        raise Corrupt("newerFormat", 6, "needs reader %d" % minimum)
    kind, flags = payload[8], payload[9]
    length, crc = int.from_bytes(payload[10:14], "little"), int.from_bytes(payload[14:18], "little")
    if kind not in (1, 2, 3, 4):
        raise Corrupt("invalidValue", 8, "kind %d" % kind)
    if flags != 0:
        raise Corrupt("invalidValue", 9, "flags %d" % flags)
    if length != len(payload) - 18:
        raise Corrupt("truncated" if length > len(payload) - 18 else "trailingBytes", 10, "body length")
    if crc != crc32c(payload[18:]):
        raise Corrupt("checksumMismatch", 14, "body CRC-32C")
    return {"formatVersion": fmt, "minimumReaderVersion": minimum, "kind": kind, "bodyLength": length, "crc": crc}


def replica_table(r, log_columns=False):
    """FORMAT.md 4.1, with id counts (snapshots); with `log_columns` (format 6, 4.8) each replica
    has its log's length only, and the entries follow the table in columns."""
    replicas, total = [], 0
    count_at = r.pos
    count = r.count(11, "replica count")
    if count > MAX_REPLICAS:
        raise Corrupt("lengthTooLarge", count_at, "replica count")
    for _ in range(count):
        id_at = r.pos
        rid = r.u64()
        if any(x["id"] == rid for x in replicas):
            raise Corrupt("invalidValue", id_at, "replica %d listed twice" % rid)
        next_seq = r.varuint(SEQ_MAX, "nextSeq")
        total += next_seq
        if total > MAX_ELEMENTS:
            raise Corrupt("lengthTooLarge", id_at, "more than maximumElements ids")
        latest = r.varuint(what="latest stamp")
        if log_columns:
            at = r.pos
            length = r.varuint(2**32 - 1, "clock log length")
            if length > max(next_seq, 1):
                raise Corrupt("invalidValue", at, "clock log longer than the ids")
            replicas.append({"id": rid, "nextSeq": next_seq, "latest": latest, "log": [], "logLength": length})
            continue
        log, seq, stamp = [], 0, 0
        for e in range(r.count(2, "clock log count")):
            delta_at = r.pos
            delta = r.varuint(what="seq delta")
            seq += delta
            if (e > 0 and delta == 0) or seq >= 2**32 - 1:
                raise Corrupt("invalidValue", delta_at, "clock log seq")
            stamp = (stamp + r.varint()) & M64
            log.append((seq, stamp))
        replicas.append({"id": rid, "nextSeq": next_seq, "latest": latest, "log": log})
    if log_columns:
        clock_log_columns(r, replicas)
    for x in replicas:
        if x["log"] and x["log"][-1][0] >= max(x["nextSeq"], 1):
            raise Corrupt("invalidValue", r.pos, "clock log beyond the ids")
    return replicas


def clock_log_columns(r, replicas):
    """FORMAT.md 4.8: the stamp base, then the seq, low byte, high part and counter columns, one
    value per entry, the replicas' logs one after the other in table order."""
    at = r.pos
    count = sum(x["logLength"] for x in replicas)
    if count > 4 * r.left():
        raise Corrupt("lengthTooLarge", at, "clock log entries")
    base = r.varuint(MAX_MS, "clock log stamp base")
    seqs = column_v2(r, 5 * count, "clock log seqs")
    first = r.pos
    low = column_v2(r, count, "clock log low bytes")
    if low.left() != count:
        raise Corrupt("invalidValue", first, "clock log low bytes for %d entries" % count)
    high = column_v2(r, 6 * count, "clock log high parts")
    counters = column_v2(r, 3 * count, "clock log counters")
    ms = 0
    for x in replicas:
        nxt = 0
        for _ in range(x["logLength"]):
            at = seqs.at()
            seq = nxt + seqs.varuint(what="clock log seq")
            if seq >= 2**32 - 1:
                raise Corrupt("invalidValue", at, "clock log seq")
            nxt = seq + 1
            at = high.at()
            lo = low.byte()
            hi = high.varint("clock log high part")
            if not -2**41 <= hi < 2**41:
                raise Corrupt("invalidValue", at, "clock log high part")
            ms += base + (hi * 256 + lo)
            if not 0 <= ms <= MAX_MS:
                raise Corrupt("invalidValue", at, "clock log stamp outside 0 ..< 2^48 ms")
            tick = counters.varuint(0xFFFF, "clock log counter")
            x["log"].append((seq, ms << 16 | tick))
    for col in (seqs, high, counters):
        col.done("clock log column")


class Runs:
    """Shared state of a run-table decoder: the runs so far and the text they take (4.3 step 5)."""

    def __init__(self, replicas, text, text_at):
        self.replicas, self.R, self.text, self.text_at, self.used, self.list = replicas, len(replicas), text, text_at, 0, []
        self.count_at = None                   # the run count's offset, where whole-table errors are reported

    def add(self, replica, seq, length, deleted, at):
        if seq < 0 or seq + length > self.replicas[replica]["nextSeq"]:
            raise Corrupt("invalidValue", at, "run ids %d..<%d of replica %d not declared" % (seq, seq + length, replica))
        chars = ""
        if not deleted:
            chars = self.text[self.used:self.used + length]
            if len(chars) != length:
                raise Corrupt("invalidValue", self.text_at, "text ends inside run %d" % len(self.list))
            self.used += length
        run = {"r": replica, "seq": seq, "len": length, "deleted": deleted, "text": chars}
        self.list.append(run)
        return run

    def finish(self, columns):
        """After the last run: text used up, then every column consumed, then the next-element
        right origins resolved (FORMAT.md 4.3, "After the last run", in this order)."""
        if self.used != len(self.text):
            raise Corrupt("invalidValue", self.text_at, "text has %d scalars no run uses" % (len(self.text) - self.used))
        for name, c in columns:
            c.done(name + " column")
        for i, run in enumerate(self.list):
            if run["right"] == "next":
                if i + 1 == len(self.list):
                    raise Corrupt("invalidValue", self.count_at, "last run points to a next element")
                run["right"] = (self.list[i + 1]["r"], self.list[i + 1]["seq"])

    def previous_end(self):
        p = self.list[-2] if len(self.list) > 1 else None     # called after add: [-1] is the run itself
        return (p["r"], p["seq"] + p["len"] - 1) if p else None

    def explicit(self, column, what):
        at = column.at()
        origin = (column.varuint(max(self.R - 1, 0), what + " replica"), column.varuint(SEQ_MAX, what + " seq"))
        if origin[0] >= self.R or origin[1] >= self.replicas[origin[0]]["nextSeq"]:
            raise Corrupt("invalidValue", at, "%s %s names no element" % (what, origin))
        return origin


def runs_v1(r, runs, replicas):
    """FORMAT.md 4.3: the six columns."""
    R = len(replicas)
    count_at = runs.count_at = r.pos
    run_count = r.count(2, "run count")
    cols = []
    for name in ("flag", "replica", "seq", "length", "left", "right"):
        cols.append(r.sub(r.column_length(name + " column length"), name + " column"))
    r.done("snapshot body")
    flags, rep, seqs, lengths, lefts, rights = cols
    if flags.left() != run_count:
        raise Corrupt("invalidValue", count_at, "flag column length")
    if run_count > MAX_RUNS:
        raise Corrupt("lengthTooLarge", count_at, "run count")
    last_end, replica, previous_mode = [0] * R, 0, None
    for i in range(run_count):
        flag_at = flags.at()
        f = flags.byte()
        if f & 0xC0:
            raise Corrupt("invalidValue", flag_at, "reserved flag bits")
        if f & 2:
            replica = rep.varuint(max(R - 1, 0), "replica")
        elif i == 0:
            replica = 0
        if replica >= R:
            raise Corrupt("invalidValue", flag_at, "run %d names replica %d of %d" % (i, replica, R))
        seq_at = seqs.at()
        seq = last_end[replica] + seqs.varint("seq delta")
        length = lengths.varuint(2**32 - 1, "length") + 1
        run = runs.add(replica, seq, length, bool(f & 1), seq_at)
        last_end[replica] = seq + length
        lm, rm = (f >> 2) & 3, (f >> 4) & 3
        if lm == 0:
            run["left"] = runs.previous_end()
        elif lm == 1:
            run["left"] = None
        elif lm == 2:
            run["left"] = runs.explicit(lefts, "left origin")
        elif seq == 0:
            raise Corrupt("invalidValue", flag_at, "own predecessor of seq 0")
        else:
            run["left"] = (replica, seq - 1)
        if rm == 2 and (i == 0 or previous_mode == 1):
            raise Corrupt("invalidValue", flag_at, "same-as-previous right origin without a previous one")
        run["right"] = {0: None, 1: "next", 2: runs.list[-2]["right"] if i else None}.get(rm)
        if rm == 3:
            run["right"] = runs.explicit(rights, "right origin")
        previous_mode = rm
    runs.finish(zip(("replica", "seq", "length", "left", "right"), (rep, seqs, lengths, lefts, rights)))


# --- FORMAT.md 4.5: version 2 columns and the rANS coder --------------------------------------

RANS_M, RANS_L = 4096, 2**23


def rans_decode(r, n, first):
    """A rANS column after its count n: frequency table, stream length m, stream. Returns a Reader
    over the n decoded bytes, whose errors are all reported at `first` (the column's first byte)."""
    table_at = r.pos
    k = r.byte() + 1
    cum, freq, symbols, total, previous = [], [], [], 0, -1
    for _ in range(k):
        s_at = r.pos
        s = r.byte()
        if s <= previous:
            raise Corrupt("invalidValue", s_at, "rANS symbols out of order")
        f_at = r.pos
        f = r.varuint(what="rANS frequency")
        if not 1 <= f <= RANS_M:
            raise Corrupt("invalidValue", f_at, "rANS frequency %d" % f)
        symbols.append(s), cum.append(total), freq.append(f)
        total, previous = total + f, s
    if total != RANS_M:
        raise Corrupt("invalidValue", table_at, "rANS frequencies sum to %d" % total)
    stream = r.sub(r.column_length("rANS stream length"), "rANS stream")
    stream_at, m = stream.pos, stream.left()
    if m < 4:
        raise Corrupt("truncated", stream_at, "rANS stream shorter than its state")
    x = int.from_bytes(r.data[stream_at:stream_at + 4], "little")
    stream.pos += 4
    if not RANS_L <= x < 2**31:
        raise Corrupt("invalidValue", stream_at, "rANS initial state %d" % x)
    slot_symbol = bytearray(RANS_M)
    for i in range(k):
        slot_symbol[cum[i]:cum[i] + freq[i]] = bytes([i]) * freq[i]
    out = bytearray()
    for _ in range(n):
        slot = x % RANS_M
        i = slot_symbol[slot]
        out.append(symbols[i])
        x = freq[i] * (x >> 12) + slot - cum[i]
        while x < RANS_L:
            if not stream.left():
                raise Corrupt("truncated", stream.at(), "rANS stream ends early")
            x = (x << 8) | stream.byte()
    stream.done("rANS stream")
    if x != RANS_L:
        raise Corrupt("invalidValue", stream_at, "rANS final state %d" % x)
    return Reader(bytes(out), 0, n, base=first, pinned=True)


def column_v2(r, bound, what):
    """A version 2 column: mode byte, then raw bytes or rANS. `bound` limits the decoded length
    before decoding (lengthTooLarge: at the mode byte for a raw column, at the count for rANS)."""
    first = r.pos
    mode = r.byte()
    if mode not in (0, 1):
        raise Corrupt("invalidValue", first, "%s column mode %d" % (what, mode))
    n_at = r.pos
    if mode == 0:
        n = r.column_length(what + " column length")
        if n > bound:
            raise Corrupt("lengthTooLarge", first, "%s column holds %d bytes, its runs use at most %d" % (what, n, bound))
        return r.sub(n, what + " column")
    n = r.varuint(2**31 - 1, what + " column length")
    if n < 1:
        raise Corrupt("invalidValue", n_at, "empty rANS " + what + " column")
    if n > bound:
        raise Corrupt("lengthTooLarge", n_at, "%s column holds %d bytes, its runs use at most %d" % (what, n, bound))
    return rans_decode(r, n, first)


def runs_v2(r, runs, replicas):
    """FORMAT.md 4.5: seven columns, sequence codes over stacks of open ends, predicted rights."""
    R = len(replicas)
    count_at = runs.count_at = r.pos
    run_count = r.varuint(2**31 - 1, "run count")
    if run_count > MAX_RUNS or run_count > sum(x["nextSeq"] for x in replicas):
        raise Corrupt("lengthTooLarge", count_at, "run count %d" % run_count)
    if run_count > RUNS_PER_TABLE_BYTE * r.left():
        raise Corrupt("lengthTooLarge", count_at, "%d runs in %d bytes of run table" % (run_count, r.left()))
    flags = column_v2(r, run_count, "flag")
    if flags.left() != run_count:
        raise Corrupt("invalidValue", count_at, "flag column holds %d bytes for %d runs" % (flags.left(), run_count))
    fl = flags.data[flags.pos:flags.end]
    code = column_v2(r, sum(1 for f in fl if f >> 6 == 3), "code")
    delta = column_v2(r, 10 * sum(1 for f in fl if f >> 6 == 0), "delta")
    lengths = column_v2(r, 5 * run_count, "length")
    rep = column_v2(r, 5 * sum(1 for f in fl if f & 0x20), "replica")
    lefts = column_v2(r, 10 * sum(1 for f in fl if (f >> 1) & 3 == 3), "left")
    rights = column_v2(r, 10 * sum(1 for f in fl if (f >> 3) & 3 == 3), "right")
    r.done("snapshot body")
    stacks, last_end, replica = [[] for _ in range(R)], [0] * R, 0
    for i in range(run_count):
        flag_at = flags.at()
        f = flags.byte()
        if f & 0x20:
            replica = rep.varuint(max(R - 1, 0), "replica")
        elif i == 0:
            replica = 0
        if replica >= R:
            raise Corrupt("invalidValue", flag_at, "run %d names replica %d of %d" % (i, replica, R))
        c, seq_at = f >> 6, flag_at            # a seq taken from an open end is reported at the flag byte
        if c == 3:
            code_at = code.at()
            c = code.byte()
            if not 3 <= c <= 8:
                raise Corrupt("invalidValue", code_at, "sequence code %d" % c)
        stack = stacks[replica]
        if c == 0:
            seq_at = delta.at()
            seq = last_end[replica] + delta.varint("seq delta")
        elif len(stack) < c:
            raise Corrupt("invalidValue", flag_at, "sequence code %d with %d open ends" % (c, len(stack)))
        else:
            seq = stack.pop(len(stack) - c)
        length = lengths.varuint(2**32 - 1, "length") + 1
        run = runs.add(replica, seq, length, bool(f & 1), seq_at)
        last_end[replica] = seq + length
        stack.append(seq + length)
        lm, rm = (f >> 1) & 3, (f >> 3) & 3
        if lm == 0:
            run["left"] = runs.previous_end()
        elif lm == 1:
            run["left"] = None
        elif lm == 2:
            if seq == 0:
                raise Corrupt("invalidValue", flag_at, "own predecessor of seq 0")
            run["left"] = (replica, seq - 1)
        else:
            run["left"] = runs.explicit(lefts, "left origin")
        run["right"] = {0: "predicted", 1: "next", 2: None}.get(rm)
        if rm == 3:
            run["right"] = runs.explicit(rights, "right origin")
    runs.finish((("code", code), ("delta", delta), ("length", lengths), ("replica", rep),
                 ("left", lefts), ("right", rights)))
    starts = [[] for _ in range(R)]            # right to left: the first later run of the replica starting lower
    for run in reversed(runs.list):
        st = starts[run["r"]]
        while st and st[-1] >= run["seq"]:
            st.pop()
        if run["right"] == "predicted":
            run["right"] = (run["r"], st[-1]) if st else None
        st.append(run["seq"])


def header_of_kind(payload, kind, refusal):
    """The payload's header, refused (at the kind byte, offset 8) unless it is of `kind`."""
    h = header(payload)
    if h["kind"] != kind:
        raise Corrupt("invalidValue", 8, refusal)
    return h


def decode_snapshot(payload):
    """Header, replica table, text and run table (either layout) with the checks of 4.3 and 4.4.
    Returns (header, replicas, runs, text); each run has r, seq, len, deleted, text, left, right."""
    h = header_of_kind(payload, 1, "not a snapshot")
    r = Reader(payload, 18)
    replicas = replica_table(r, log_columns=h["minimumReaderVersion"] >= 6)
    text_at = r.pos
    n = r.length("lengthTooLarge", "text length")
    if n > MAX_TEXT:
        raise Corrupt("lengthTooLarge", text_at, "text length")
    text = strict_utf8(payload[r.pos:r.pos + n], r.take(n))
    compacted = h["minimumReaderVersion"] >= 3
    h["ledger"] = ledger(r, replicas, repointed=h["minimumReaderVersion"] >= 7) if compacted else None
    runs = Runs(replicas, text, text_at)
    (runs_v2 if h["minimumReaderVersion"] >= 2 else runs_v1)(r, runs, replicas)
    check_tiling_and_causality(replicas, runs.list, runs.count_at, compacted)
    check_rule_order(replicas, runs.list, runs.count_at)
    return h, replicas, runs.list, text


def ledger(r, replicas, repointed=False):
    """FORMAT.md 4.7, "Ledger encoding": seen vectors by device, the cut, the proposed ranges
    (and, in format 7, the re-pointed ranges)."""
    R = len(replicas)

    def vector(what):
        at = r.pos
        n = r.count(2, what + " entry count")
        if n > R:
            raise Corrupt("invalidValue", at, what + " has more entries than replicas")
        out, previous = {}, -1
        for _ in range(n):
            i_at = r.pos
            i = r.varuint(max(R - 1, 0), "replica of " + what)
            if i <= previous or i >= R:
                raise Corrupt("invalidValue", i_at, what + " lists replica index %d out of order" % i)
            previous = i
            out[i] = r.varuint(what="stamp")
        return out

    at = r.pos
    devices = r.count(9, "ledger device count")
    if devices > MAX_REPLICAS:
        raise Corrupt("lengthTooLarge", at, "ledger device count")
    seen, previous = {}, None
    for _ in range(devices):
        id_at = r.pos
        device = r.u64()
        if previous is not None and device <= previous:
            raise Corrupt("invalidValue", id_at, "ledger device out of order")
        previous = device
        seen[device] = vector("seen vector")
    cut = vector("cut")

    def ranges(what):
        at = r.pos
        count = r.count(3, what + " range count")
        if count > MAX_RUNS:
            raise Corrupt("lengthTooLarge", at, what + " range count")
        out, last = [], (-1, 0)
        for _ in range(count):
            range_at = r.pos
            i = r.varuint(max(R - 1, 0), "replica of a " + what + " range")
            if i < last[0] or i >= R:
                raise Corrupt("invalidValue", range_at, what + " range out of order")
            seq = (last[1] if i == last[0] else 0) + r.varuint(SEQ_MAX, what + " seq")
            length = r.varuint(SEQ_MAX, what + " length") + 1
            if seq + length > replicas[i]["nextSeq"] or (i == last[0] and seq <= last[1]):
                raise Corrupt("invalidValue", range_at, what + " ids overlap others or lie past the ids")
            out.append((i, seq, length))
            last = (i, seq + length)
        return out

    proposed = ranges("proposed")
    listed = ranges("re-pointed") if repointed else []
    return {"seen": seen, "cut": cut, "proposed": proposed, "repointed": listed}


def check_tiling_and_causality(replicas, runs, at, compacted=False):
    """Every id 0..<nextSeq of every replica exactly once (4.3), or in format 3 at most once with
    every origin held (4.7); and the origins acyclic (4.4). Refusals at `at`, the run count's offset."""
    by_replica = [[] for _ in replicas]
    for i, run in enumerate(runs):
        by_replica[run["r"]].append((run["seq"], i))
    gaps = False
    for x, own in enumerate(by_replica):
        own.sort()
        next_id = 0
        for s, i in own:
            if s < next_id or (s > next_id and not compacted):
                raise Corrupt("invalidValue", at, "ids of replica %d not tiled at seq %d" % (x, next_id))
            gaps = gaps or s > next_id
            next_id = s + runs[i]["len"]
        if next_id != replicas[x]["nextSeq"]:
            if not compacted:
                raise Corrupt("invalidValue", at, "ids of replica %d not covered" % x)
            gaps = True

    def run_of(element):
        own = by_replica[element[0]]
        k = bisect.bisect_right(own, (element[1], len(runs))) - 1
        if k < 0 or own[k][0] + runs[own[k][1]]["len"] <= element[1]:
            return None                        # compacted: held by no run
        return own[k][1]

    if gaps:
        for run in runs:
            for o in (run["left"], run["right"]):
                if o is not None and run_of(o) is None:
                    raise Corrupt("invalidValue", at, "an origin names compacted id %s" % (o,))
    after = [set() for _ in runs]              # after[j]: runs that need run j first
    waiting = [0] * len(runs)
    for i, run in enumerate(runs):
        needs = {run_of(o) for o in (run["left"], run["right"]) if o is not None}
        if run["seq"] > 0 and run_of((run["r"], run["seq"] - 1)) is not None:
            needs.add(run_of((run["r"], run["seq"] - 1)))
        for j in needs:
            after[j].add(i)
        waiting[i] = len(needs)
    ready = [i for i, w in enumerate(waiting) if w == 0]
    done = 0
    while ready:
        j = ready.pop()
        done += 1
        for i in after[j]:
            waiting[i] -= 1
            if waiting[i] == 0:
                ready.append(i)
    if done != len(runs):
        raise Corrupt("invalidValue", at, "the runs' origins are not causally ordered")


def check_rule_order(replicas, runs, at):
    """FORMAT.md 4.4, "Rule order": the elements (run by run, a run's later elements having their
    predecessor as left origin) must be in the order the merge rule gives them. Built here from the
    right, as 4.4 describes it, and compared with the stored order; refusals at `at`."""
    elements = []                              # (id, left, right) in stored order; id = (replica, seq)
    for run in runs:
        for k in range(run["len"]):
            ident = (run["r"], run["seq"] + k)
            elements.append((ident, run["left"] if k == 0 else (run["r"], run["seq"] + k - 1), run["right"]))
    children = {}                              # parent (None: the document start) -> child ids
    for ident, left, _ in elements:
        children.setdefault(left, []).append(ident)
    right_of = {ident: right for ident, _, right in elements}

    def id_key(ident):
        return (replicas[ident[0]]["id"], ident[1])

    distance = {}                              # element -> elements emitted after it (from the end)

    def ordered(parent):
        kids = children.get(parent, [])
        siblings = set(kids) if len(kids) > 1 else ()
        groups, roots = {}, []
        for c in kids:
            r = right_of[c]
            if r in siblings and r != c:
                groups.setdefault(r, []).append(c)
            elif r is None:
                roots.append((-1, id_key(c), c))
            elif r in distance:                # after the parent's block: emitted already
                roots.append((distance[r], id_key(c), c))
            else:
                raise Corrupt("invalidValue", at, "the right origin of %s lies inside or before its left origin's block" % (c,))
        out = []
        for _, _, root in sorted(roots):      # each root after its group, a member after its own
            walk = [(root, sorted(groups.get(root, []), key=id_key))]
            while walk:
                c, members = walk[-1]
                if members:
                    m = members.pop(0)
                    walk.append((m, sorted(groups.get(m, []), key=id_key)))
                else:
                    walk.pop()
                    out.append(c)
        if len(out) != len(kids):
            raise Corrupt("invalidValue", at, "right origins among the children of %s form a cycle" % (parent,))
        return out

    emitted = []                               # the rule's order, last element first
    stack = [(None, ordered(None))]
    while stack:
        node, kids = stack[-1]
        if kids:
            c = kids.pop()
            stack.append((c, ordered(c)))
        else:
            stack.pop()
            if node is not None:
                distance[node] = len(emitted)
                emitted.append(node)
    if [e[0] for e in elements] != emitted[::-1]:
        raise Corrupt("invalidValue", at, "the runs are not in the order the merge rule gives them")


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

    def value(self):
        z = self.h
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    def replica(self):
        return self.value() or 1


def state_digest(replicas, runs, text):
    """RECORD-FORMAT.md "State digest", finalised: canonical over replica order and run splits."""
    h = Hasher()
    h.state(replicas, runs, text)
    return h.value()


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

    check_format2(os.path.join(folder, "..", "format2"))

    client = json.loads(read("inputs/clobbered-client.json", "r"))["fields"]
    base = base64.b64decode(client["payload"]["value"], validate=True)
    rid = fold_replica("golden-clobbered", base, client["text"]["value"])
    ids = [x["replica"] for x in json.loads(read("clobbered-folded.show.json"))["replicas"]]
    check(str(rid) in ids, "fold replica of golden-clobbered = %d" % rid)


def check_format2(folder):
    """Tests/Fixtures/format2: each NAME.v2.bin (run table version 2, FORMAT.md 4.5) decodes to
    NAME.txt and to the very runs (ids, origins, tombstones) and replica table of NAME.v1.bin."""
    for name in FORMAT2_FIXTURES:
        def read(suffix):
            with open(os.path.join(folder, name + suffix), "rb") as f:
                return f.read()
        h2, replicas2, runs2, text2 = decode_snapshot(read(".v2.bin"))
        h1, replicas1, runs1, text1 = decode_snapshot(read(".v1.bin"))
        check((h2["formatVersion"], h2["minimumReaderVersion"]) == (2, 2), name + ".v2: format version 2, minimum reader 2")
        check(text2.encode("utf-8") == read(".txt"), name + ".v2: text equals .txt")
        check(replicas2 == replicas1, name + ".v2: replica table equals .v1's")
        check([run_key(x) for x in runs2] == [run_key(x) for x in runs1],
              name + ".v2: %d runs, ids and origins equal .v1's" % len(runs2))


# --- formatting (FORMAT.md 10.7) --------------------------------------------------------------

MAX_FORMATTING_OPERATIONS, MAX_FORMATTING_STRING = 2**20, 4096
PARAGRAPH_VALUES = {"heading": [str(n) for n in range(7)], "list": ["none", "bullet", "number", "check"],
                    "checked": ["true", "false"], "quote": ["true", "false"], "codeblock": ["true", "false"]}


def increasing_ids(r):
    """The replica table of a formatting or history payload: a count (at most MAX_REPLICAS),
    then u64 ids, strictly increasing."""
    at = r.pos
    n = r.count(8, "replica count")
    if n > MAX_REPLICAS:
        raise Corrupt("lengthTooLarge", at, "replica count")
    ids = []
    for _ in range(n):
        at = r.pos
        rid = r.u64()
        if ids and rid <= ids[-1]:
            raise Corrupt("invalidValue", at, "replica ids not increasing")
        ids.append(rid)
    return ids


def decode_formatting(payload):
    """A formatting payload: replica and string tables, then mark and paragraph operations, with
    ids as [replica id (decimal string), seq]. Returns {"marks": [...], "paragraphs": [...]}."""
    h = header_of_kind(payload, 3, "not a formatting payload")
    r = Reader(payload, 18)
    ids = increasing_ids(r)
    strings = []
    for _ in range(r.count(1, "string count")):
        at = r.pos
        size = r.length("lengthTooLarge", "string length")
        if size > MAX_FORMATTING_STRING:
            raise Corrupt("lengthTooLarge", at, "string length")
        raw = payload[r.pos:r.pos + size]
        text = strict_utf8(raw, r.take(size))
        if strings and raw <= strings[-1].encode("utf-8"):
            raise Corrupt("invalidValue", at, "strings not increasing")
        strings.append(text)

    def index(table, what):
        if not table:
            raise Corrupt("invalidValue", r.at(), "%s with an empty table" % what)
        return r.varuint(len(table) - 1, what)

    def element():
        return [str(ids[index(ids, "replica index")]), r.varuint(2**32 - 1, "seq")]

    operations = 0

    def count(each, what):
        nonlocal operations
        at = r.pos
        k = r.count(each, what)
        operations += k
        if operations > MAX_FORMATTING_OPERATIONS:
            raise Corrupt("lengthTooLarge", at, what)
        return k

    marks = []
    for _ in range(count(9, "mark count")):
        at = r.pos
        flags = r.byte()
        if flags & 0xE0 or flags & 3 == 3 or flags & 12 == 12:
            raise Corrupt("invalidValue", at, "mark flags")
        mark = {"name": strings[index(strings, "name")]}
        mark["value"] = strings[index(strings, "value")] if flags & 0x10 else None
        for end, code in (("start", flags & 3), ("end", flags >> 2 & 3)):
            mark[end] = [["documentStart", "documentEnd"][end == "end"]] if code == 0 else \
                [["before", "after"][code - 1]] + element()
        mark["first"], mark["last"] = element(), element()
        at = r.pos
        k = r.count(2, "core version count")
        if k > len(ids):
            raise Corrupt("invalidValue", at, "core version count")
        version, previous = {}, -1
        for _ in range(k):
            at = r.pos
            i = index(ids, "core version replica")
            if i <= previous:
                raise Corrupt("invalidValue", at, "core version replicas not increasing")
            previous = i
            version[str(ids[i])] = r.varuint(2**32 - 1, "core version count")
        mark["coreVersion"] = version
        mark["stamp"], mark["replica"] = str(r.varuint(what="stamp")), str(ids[index(ids, "author")])
        marks.append(mark)
    paragraphs = []
    for _ in range(count(5, "paragraph count")):
        at = r.pos
        key = r.byte()
        if key > 1:
            raise Corrupt("invalidValue", at, "paragraph key")
        paragraph = {"key": ["documentStart"] if key == 0 else ["newline"] + element()}
        at = r.pos
        name, value = strings[index(strings, "attribute name")], strings[index(strings, "attribute value")]
        if name in PARAGRAPH_VALUES and value not in PARAGRAPH_VALUES[name]:
            raise Corrupt("invalidValue", at, "%s=%s" % (name, value))
        paragraph.update(name=name, value=value, stamp=str(r.varuint(what="stamp")),
                         replica=str(ids[index(ids, "author")]))
        paragraphs.append(paragraph)
    r.done("formatting")
    return {"marks": marks, "paragraphs": paragraphs}


def dump_decoded(decode, path):
    """One JSON line: the payload at `path` decoded by `decode` (a function returning a dict),
    or why it is refused."""
    with open(path, "rb") as f:
        payload = f.read()
    try:
        return dict(decode(payload), file=path, ok=True)
    except Corrupt as e:
        return {"file": path, "ok": False, "kind": e.kind, "offset": e.offset, "error": str(e)}


# --- history (FORMAT.md 11.2) -----------------------------------------------------------------

MAX_HISTORY_EVENTS = 2**21


def decode_history(payload):
    """A history payload: replica table, events (version 1: stamp deltas, deleter, inserter, seq,
    length, text byte count; version 2, minimum reader 4: the same as nine coded columns), then
    the text column. Returns {"deletions": [...]} with replica ids and stamps as decimal strings
    and the text as a string, in payload order."""
    h = header_of_kind(payload, 4, "not a history payload")
    r = Reader(payload, 18)
    ids = increasing_ids(r)
    events, total = (history_columns if h["minimumReaderVersion"] >= 4 else history_events)(r, ids)
    first = r.pos
    column = column_v2(r, total, "deleted text")
    data = bytes(column.data[column.pos:column.end])
    if len(data) != total:
        raise Corrupt("invalidValue", first, "text column length")
    offset = 0
    for e in events:
        raw = data[offset:offset + e.pop("size")]
        offset += len(raw)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise Corrupt("invalidValue", first, "deleted text not UTF-8")
        if len(text) != e["length"]:
            raise Corrupt("invalidValue", first, "deleted text scalar count")
        e["text"] = text
    out = {"deletions": events}
    if h["minimumReaderVersion"] >= 4 and r.pos < r.end:
        out["shadows"], out["shadowStamps"] = history_shadows(r, ids)
    r.done("history")
    return out


def history_shadows(r, ids):
    """FORMAT.md 11.6: the shadow section a version 2 history may end with. The shadow count, then
    (when not 0) six columns read in step: inserters (in order), seqs (deltas from the previous
    shadow's end of the same replica), lengths - 1, left and right origin tags (0 none, else index
    + 1), origin seqs (zigzag, the left one from seq - 1, the right one from seq + length); then
    per replica (increasing) its count of dropped clock entries, and (when any) three columns:
    seq deltas, millisecond deltas, counters."""

    def column_count(what):
        at = r.pos
        n = r.varuint(what=what)
        if n > HISTORY_EVENTS_PER_BYTE * r.left() or n > MAX_HISTORY_EVENTS:
            raise Corrupt("lengthTooLarge", at, what)
        return n

    def index(col, what):
        at = col.at()
        i = col.varuint(what=what)
        if i >= len(ids):
            raise Corrupt("invalidValue", at, "%s index %d of %d" % (what, i, len(ids)))
        return i

    def origin(tags, seqs, near):
        at = tags.at()
        tag = tags.varuint(what="origin")
        if tag == 0:
            return None
        if tag > len(ids):
            raise Corrupt("invalidValue", at, "origin replica index %d" % (tag - 1))
        at = seqs.at()
        seq = near + seqs.varint("seq of an origin")
        if not 0 <= seq <= 2**32 - 2:
            raise Corrupt("invalidValue", at, "seq of an origin")
        return [str(ids[tag - 1]), seq]

    count = column_count("shadow count")
    shadows = []
    if count:
        cols = [column_v2(r, width * count, what) for width, what in
                ((5, "shadow inserters"), (5, "shadow seqs"), (5, "shadow lengths"),
                 (5, "left origins"), (5, "right origins"), (10, "origin seqs"))]
        inserters, seqs, lengths, lefts, rights, origin_seqs = cols
        prev = None
        for _ in range(count):
            at = inserters.at()
            i = index(inserters, "shadow inserter")
            if prev is not None and i < prev[0]:
                raise Corrupt("invalidValue", at, "shadows out of replica order")
            base = prev[1] if prev is not None and prev[0] == i else 0
            at = seqs.at()
            seq = base + seqs.varuint(2**32 - 1, "seq of a shadow")
            length = lengths.varuint(2**32 - 2, "length of a shadow") + 1
            if seq + length > 2**32 - 1:
                raise Corrupt("invalidValue", at, "shadow passes 2^32 - 1")
            left = origin(lefts, origin_seqs, seq - 1)
            right = origin(rights, origin_seqs, seq + length)
            shadows.append({"inserter": str(ids[i]), "seq": seq, "length": length, "left": left, "right": right})
            prev = (i, seq + length)
        for col in cols:
            col.done("shadow column")
    at = r.pos
    n_replicas = r.count(2, "replicas with dropped clock entries")
    if n_replicas > len(ids):
        raise Corrupt("lengthTooLarge", at, "replicas with clock entries")
    lists, last, total = [], -1, 0
    for _ in range(n_replicas):
        at = r.pos
        i = index(r, "clock entry replica")
        if i <= last:
            raise Corrupt("invalidValue", at, "clock entry replicas not increasing")
        last = i
        at = r.pos
        n = column_count("dropped clock entries")
        total += n
        if n == 0:
            raise Corrupt("invalidValue", at, "empty clock entry list")
        if total > MAX_HISTORY_EVENTS:
            raise Corrupt("lengthTooLarge", at, "dropped clock entries")
        lists.append((i, n))
    stamps = {}
    if total:
        cols = [column_v2(r, width * total, what) for width, what in
                ((5, "entry seqs"), (7, "entry milliseconds"), (3, "entry counters"))]
        seqs, mss, ticks = cols
        for i, n in lists:
            entries, seq, ms, tick = [], 0, 0, 0
            for k in range(n):
                at = seqs.at()
                delta = seqs.varuint(2**32 - 1, "seq of a dropped clock entry")
                seq += delta
                if (k > 0 and delta == 0) or seq >= 2**32 - 1:
                    raise Corrupt("invalidValue", at, "clock entry seqs")
                at = mss.at()
                d = mss.varuint(MAX_MS, "milliseconds of a dropped clock entry")
                t = ticks.varuint(0xFFFF, "counter of a dropped clock entry")
                if ms + d > MAX_MS or (k > 0 and d == 0 and t < tick):
                    raise Corrupt("invalidValue", at, "clock entry stamp goes back or passes 2^48 - 1 ms")
                ms, tick = ms + d, t
                entries.append([seq, str(ms << 16 | tick)])
            stamps[str(ids[i])] = entries
        for col in cols:
            col.done("clock entry column")
    return shadows, stamps


def history_events(r, ids):
    """FORMAT.md 11.2, version 1: the event count and six varuints per event."""
    at = r.pos
    count = r.count(6, "event count")
    if count > MAX_HISTORY_EVENTS:
        raise Corrupt("lengthTooLarge", at, "event count")
    events, stamp, total = [], 0, 0
    for _ in range(count):
        at = r.pos
        stamp += r.varuint(what="stamp delta")
        if stamp > M64:
            raise Corrupt("invalidValue", at, "stamp passes 2^64 - 1")
        replica = []
        for what in ("deleter", "inserter"):
            at = r.pos
            i = r.varuint(what=what)
            if i >= len(ids):
                raise Corrupt("invalidValue", at, what + " index")
            replica.append(ids[i])
        seq = r.varuint(2**32 - 1, "seq")
        at = r.pos
        length = r.varuint(2**32 - 1, "length")
        if length < 1 or seq + length > 2**32 - 1:
            raise Corrupt("invalidValue", at, "deleted range")
        at = r.pos
        size = r.varuint(4 * length, "text byte count")
        if size < length:
            raise Corrupt("invalidValue", at, "text byte count below the length")
        total += size
        if total > MAX_TEXT:
            raise Corrupt("lengthTooLarge", at, "deleted text")
        events.append({"stamp": str(stamp), "deleter": str(replica[0]), "inserter": str(replica[1]),
                       "seq": seq, "length": length, "size": size})
    return events, total


HISTORY_EVENTS_PER_BYTE = 4             # FORMAT.md 11.2, version 2: the event count's density bound
MAX_MS = 2**48 - 1


def history_columns(r, ids):
    """FORMAT.md 11.2, version 2: the event count, the stamp base, then eight columns read in step
    (the text column follows): stamp low bytes, stamp high parts, counters, deleters, inserters,
    lengths - 1, seq codes, extra text bytes."""
    at = r.pos
    count = r.varuint(what="event count")
    if count > HISTORY_EVENTS_PER_BYTE * r.left() or count > MAX_HISTORY_EVENTS:
        raise Corrupt("lengthTooLarge", at, "event count")
    base = r.varuint(MAX_MS, "stamp base")
    first = r.pos
    low = column_v2(r, count, "stamp low bytes")
    if low.left() != count:
        raise Corrupt("invalidValue", first, "stamp low bytes for %d events" % count)
    cols = [column_v2(r, width * count, what) for width, what in
            ((6, "stamp high parts"), (3, "counters"), (5, "deleters"), (5, "inserters"), (5, "lengths"),
             (5, "seq codes"), (5, "extra text bytes"))]
    high, counter, deleter, inserter, lengths, seqs, extra = cols
    events, ms, total = [], 0, 0
    runs = [[0, 0, False] for _ in ids]          # per inserter: previous first seq, end, forwards
    for _ in range(count):
        at = high.at()
        lo = low.byte()
        hi = high.varint("stamp high part")
        if not -(MAX_MS >> 8) - 1 <= hi <= MAX_MS >> 8:
            raise Corrupt("invalidValue", at, "stamp high part")
        d = base + (hi * 256 + lo)
        if d < 0 or ms + d > MAX_MS:
            raise Corrupt("invalidValue", at, "stamp before the previous one or past 2^48 - 1 ms")
        ms += d
        tick = counter.varuint(0xFFFF, "counter")
        replica = []
        for col, what in ((deleter, "deleter"), (inserter, "inserter")):
            at = col.at()
            i = col.varuint(what=what)
            if i >= len(ids):
                raise Corrupt("invalidValue", at, what + " index")
            replica.append(i)
        length = lengths.varuint(2**32 - 2, "length - 1") + 1
        at = seqs.at()
        code = seqs.varuint(what="seq code")
        run = runs[replica[1]]
        if code <= 1:
            if code == 1:
                run[2] = not run[2]
            end = run[1] + length if run[2] else run[0]
        else:
            z = code - 2
            end = run[0] + ((z >> 1) ^ -(z & 1))
        if end < length or end > 2**32 - 1:
            raise Corrupt("invalidValue", at, "deleted range")
        run[0], run[1] = end - length, end
        at = extra.at()
        size = length + extra.varuint(3 * length, "extra text bytes")
        total += size
        if total > MAX_TEXT:
            raise Corrupt("lengthTooLarge", at, "deleted text")
        events.append({"stamp": str(ms << 16 | tick), "deleter": str(ids[replica[0]]), "inserter": str(ids[replica[1]]),
                       "seq": end - length, "length": length, "size": size})
    for col in cols:
        col.done("history column")
    return events, total


def run_key(run):
    return (run["r"], run["seq"], run["len"], run["deleted"], run["left"], run["right"])


def dump(path):
    """One JSON line: what the payload at `path` decodes to, or why it is refused."""
    with open(path, "rb") as f:
        payload = f.read()
    try:
        h, replicas, runs, text = decode_snapshot(payload)
    except Corrupt as e:
        return {"file": path, "ok": False, "kind": e.kind, "offset": e.offset, "error": str(e)}
    ids = [str(x["id"]) for x in replicas]
    origin = lambda o: None if o is None else [ids[o[0]], o[1]]
    return {"file": path, "ok": True, "formatVersion": h["formatVersion"],
            "minimumReaderVersion": h["minimumReaderVersion"], "text": text,
            "replicas": [{"id": ids[i], "nextSeq": x["nextSeq"], "latest": str(x["latest"]),
                          "log": [[s, str(t)] for s, t in x["log"]]} for i, x in enumerate(replicas)],
            "runs": [[ids[x["r"]], x["seq"], x["len"], x["deleted"], origin(x["left"]), origin(x["right"])] for x in runs],
            "digest": str(state_digest(replicas, runs, text)), "ledger": dump_ledger(h["ledger"], ids)}


def dump_ledger(ledger, ids):
    """The ledger with replica ids as decimal strings (null for a body without one)."""
    if ledger is None:
        return None
    vector = lambda v: {ids[i]: str(t) for i, t in v.items()}
    out = {"seen": {str(d): vector(v) for d, v in ledger["seen"].items()}, "cut": vector(ledger["cut"]),
           "proposed": [[ids[i], seq, length] for i, seq, length in ledger["proposed"]]}
    if ledger["repointed"]:
        out["repointed"] = [[ids[i], seq, length] for i, seq, length in ledger["repointed"]]
    return out


if __name__ == "__main__":
    if sys.argv[1:2] == ["--dump"]:
        for p in sys.argv[2:]:
            print(json.dumps(dump(p), ensure_ascii=True))
    elif sys.argv[1:2] == ["--dump-history"]:
        for p in sys.argv[2:]:
            print(json.dumps(dump_decoded(decode_history, p), ensure_ascii=True))
    elif sys.argv[1:2] == ["--dump-formatting"]:
        for p in sys.argv[2:]:
            print(json.dumps(dump_decoded(decode_formatting, p), ensure_ascii=True))
    else:
        main(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__)))
