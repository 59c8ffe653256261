#!/usr/bin/env python3
"""Side-by-side tables from one run: crdtnote-bench's `standard --json` and `m1 --json` lines and
run.sh's anchor lines, as Markdown (standard library only).

  python3 Benchmarks/anchors/compare.py crdtnote-standard.json crdtnote-m1.json anchors.json

Ratios are anchor / crdtnote: above 1 means crdtnote is faster or smaller.
"""
import json, sys


def lines(path):
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip().startswith("{")]


def fmt_ms(v):
    if v is None:
        return "–"
    return f"{v:.0f} ms" if v >= 100 else f"{v:.2f} ms" if v >= 1 else f"{v:.3f} ms"


def fmt_b(v):
    return "–" if v is None else f"{v:,} B"


def ratio(a, c):
    if a is None or c in (None, 0):
        return "–"
    r = a / c
    return f"{r:.1f}×" if r >= 10 else f"{r:.2f}×"


def main():
    std = lines(sys.argv[1])[0]
    m1 = lines(sys.argv[2])[0]
    anchors = lines(sys.argv[3])
    names = [a["library"] for a in anchors]
    ours = {w["id"]: w for w in std["workloads"]}
    theirs = [{w["id"]: w for w in a.get("standard", [])} for a in anchors]
    print("| workload | figure | crdtnote | " + " | ".join(f"{n} | ratio" for n in names) + " |")
    print("| --- | --- | --- | " + " | ".join("--- | ---" for _ in names) + " |")
    figures = [("time_ms", "time", fmt_ms), ("avg_update_bytes", "avg update", fmt_b),
               ("doc_bytes", "doc size", fmt_b), ("encode_ms", "encode", fmt_ms), ("parse_ms", "parse", fmt_ms)]
    for wid, w in ours.items():
        for key, label, f in figures:
            if w.get(key) is None:
                continue
            cells = []
            for t in theirs:
                o = t.get(wid, {})
                v = o.get(key)
                note = " (partial)" if key == "time_ms" and o.get("completed_replays") else ""
                if not o.get("correct", True):
                    note += " WRONG"
                cells.append(f"{f(v)}{note} | {ratio(v, w[key]) if not note else '–'}")
            print(f"| {wid} | {label} | {f(w[key])} | " + " | ".join(cells) + " |")
    print()
    print("| M1 | crdtnote | " + " | ".join(f"{n} | ratio" for n in names) + " |")
    print("| --- | --- | " + " | ".join("--- | ---" for _ in names) + " |")
    for key, label, f in [("replay_ms", "replay base", fmt_ms), ("snapshot_bytes", "S0", fmt_b),
                          ("save_ms", "save S0", fmt_ms), ("load_ms", "load S0 + text", fmt_ms),
                          ("edit_ms", "10k edits per side", fmt_ms), ("delta_bytes", "delta B since A", fmt_b),
                          ("record_merge_ms", "record merge", fmt_ms), ("merged_bytes", "merged", fmt_b),
                          ("peak_rss_bytes", "peak RSS (process)", lambda v: f"{v / 2**20:.0f} MiB")]:
        cells = []
        for a in anchors:
            v = a.get("m1", {}).get(key)
            cells.append(f"{f(v) if v is not None else '–'} | {ratio(v, m1.get(key))}")
        print(f"| {label} | {f(m1[key])} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
