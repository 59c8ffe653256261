#!/usr/bin/env python3
"""How small a snapshot can get while an older (format 1 only) reader still reads it.

  swift build -c release --product crdtnote-bench
  mkdir -p /tmp/m1 && .build/release/crdtnote-bench m1 --runs 1 --save /tmp/m1
  python3 Benchmarks/format1_floor.py /tmp/m1/S0.v1.bin /tmp/m1/merged.v1.bin

Reads format 1 snapshots (Docs/FORMAT.md §3, §4.1-§4.3; standard library only) and prints, per
payload, the bytes of each part and two lower bounds for any format 1 encoding of the same state:

- "joined": the payload with every pair of neighbouring runs that could be one run (same replica,
  ids continuing, left origin the previous element, same right origin, both deleted or both
  visible) joined, i.e. the second run's bytes removed. Format 1 leaves a writer no other choice:
  runs are listed in document order, and each field of a run is determined by the run and the
  one before it (a free mode when one applies, else the explicit value), so only the split into
  runs can change the size, and splitting a run only adds a run.
- "crude": the text plus 3 bytes per run of that joined split (flag, seq and length are read for
  every run and take at least a byte each), ignoring header, replica table and origins.
"""
import struct
import sys


def varuint(b, i):
    value = shift = 0
    while True:
        byte = b[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def zigzag(v):
    return (v >> 1) ^ -(v & 1)


class Column:
    def __init__(self, data):
        self.data, self.pos = data, 0

    def read(self, signed=False):
        start = self.pos
        v, self.pos = varuint(self.data, self.pos)
        return (zigzag(v) if signed else v), self.pos - start


def analyse(path):
    b = open(path, "rb").read()
    if b[:4] != b"CRNT" or b[8] != 1:
        sys.exit(f"{path}: not a crdtnote snapshot")
    version, reader = struct.unpack_from("<HH", b, 4)
    if reader != 1:
        sys.exit(f"{path}: minimum reader version {reader}; this script reads format 1 snapshots only")
    i = 18
    replicas, i = varuint(b, i)
    table_start = i
    for _ in range(replicas):
        i += 8
        _, i = varuint(b, i)  # nextSeq
        _, i = varuint(b, i)  # latest stamp
        entries, i = varuint(b, i)
        for _ in range(entries):
            _, i = varuint(b, i)
            _, i = varuint(b, i)
    table = i - table_start
    text_length, i = varuint(b, i)
    i += text_length
    count, i = varuint(b, i)
    columns = []
    for _ in range(6):
        length, i = varuint(b, i)
        columns.append(b[i:i + length])
        i += length
    flags = columns[0]
    replica_col, seq_col, length_col, left_col, right_col = (Column(c) for c in columns[1:])
    runs, last_end, prev = [], {}, None
    for k in range(count):
        f, cost = flags[k], 1
        if f & 2:
            r, c = replica_col.read()
            cost += c
        else:
            r = 0 if k == 0 else prev["replica"]
        delta, c = seq_col.read(signed=True)
        cost += c
        seq = last_end.get(r, 0) + delta
        length, c = length_col.read()
        cost += c
        length += 1
        last_end[r] = seq + length
        left_mode, right_mode = (f >> 2) & 3, (f >> 4) & 3
        if left_mode == 0:
            left = None if k == 0 else (prev["replica"], prev["seq"] + prev["length"] - 1)
        elif left_mode == 1:
            left = None
        elif left_mode == 2:
            a, c1 = left_col.read()
            s, c2 = left_col.read()
            cost += c1 + c2
            left = (a, s)
        else:
            left = (r, seq - 1)
        if right_mode == 0:
            right = None
        elif right_mode == 1:
            right = "next"
        elif right_mode == 2:
            right = prev["right"]
        else:
            a, c1 = right_col.read()
            s, c2 = right_col.read()
            cost += c1 + c2
            right = (a, s)
        run = {"replica": r, "seq": seq, "length": length, "deleted": f & 1, "left": left, "right": right, "cost": cost}
        runs.append(run)
        prev = run
    for k, run in enumerate(runs):
        if run["right"] == "next":
            run["right"] = (runs[k + 1]["replica"], runs[k + 1]["seq"])
    joinable = [b2 for a, b2 in zip(runs, runs[1:])
                if a["replica"] == b2["replica"] and b2["seq"] == a["seq"] + a["length"]
                and b2["left"] == (a["replica"], b2["seq"] - 1) and a["right"] == b2["right"]
                and a["deleted"] == b2["deleted"]]
    saved = sum(r["cost"] for r in joinable)
    fewest = count - len(joinable)
    print(f"{path}: {len(b):,} B (format {version}); {replicas} replicas, table {table:,} B; text {text_length:,} B; "
          f"{count:,} runs, columns {', '.join(f'{len(c):,}' for c in columns)} B")
    print(f"  joinable neighbours: {len(joinable):,} (their runs take {saved:,} B)")
    print(f"  floor, joined: {len(b) - saved:,} B; crude: {text_length + 3 * fewest:,} B")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for p in sys.argv[1:]:
        analyse(p)
