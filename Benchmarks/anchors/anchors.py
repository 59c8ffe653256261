#!/usr/bin/env python3
"""Runs M1 (Docs/BENCHMARKS.md, "Workload M1") and the standard workloads (crdt-benchmarks B1.1-B1.6,
B2.1-B2.4, B4, B4x100; Docs/BENCHMARKS.md "Standard workloads") on Loro and Yrs (pycrdt) through
their Python bindings, and prints the figures `crdtnote-bench m1 --json` and
`crdtnote-bench standard --json` print, as one JSON object per library.

Usage: anchors.py --lib loro|pycrdt [--trace PATH] [--runs N] [--b4x100-limit SECONDS] [--skip-b4x100]

Not run by CI; use run.sh, which creates the virtual environment. Edits are generated exactly as
the Swift bench generates them (SplitMix64, seed 42 per workload), and every final text is checked
against a plain-list oracle.

What the bindings add: every edit is one Python -> Rust call (argument conversion, a Python loop
iteration, for Loro also a commit). `python_loop_ms` is the same loop calling an empty Python
function, a floor for the interpreter's share. Encode (one export / get_update call) and parse (one
import / apply_update call plus one to_string / str call) are single native calls; their cost is
almost entirely native.
"""
import argparse, gc, gzip, json, resource, sys, time

MASK = (1 << 64) - 1
N = 6000
LETTERS = "abcdefghijklmnopqrstuvwxyz"
ALPHABET27 = "abcdefghijklmnopqrstuvwxyz "


class SplitMix64:
    def __init__(self, seed):
        self.s = seed & MASK

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & MASK
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)


class Gen:
    def __init__(self):
        self.rng = SplitMix64(42)

    def word(self, lo, hi):
        n = lo + self.rng.next() % (hi - lo + 1)
        return "".join(LETTERS[self.rng.next() % 26] for _ in range(n))

    def index(self, length):
        return self.rng.next() % (length + 1)

    def coin(self):
        return self.rng.next() % 2 == 1

    def count(self, m):
        return 1 + self.rng.next() % m


# Edits are (pos, delete_count, insert_text): exactly one of the last two is non-empty.

def single_workloads():
    out = []
    g = Gen(); s = g.word(N, N)
    out.append(("B1.1", "Append N characters", [[(i, 0, c)] for i, c in enumerate(s)], s))
    g = Gen(); s = g.word(N, N)
    out.append(("B1.2", "Insert string of length N", [[(0, 0, s)]], s))
    g = Gen(); s = g.word(N, N)
    out.append(("B1.3", "Prepend N characters", [[(0, 0, c)] for c in reversed(s)], s))
    for wid, title, lo, hi in (("B1.4", "Insert N characters at random positions", 1, 1),
                               ("B1.5", "Insert N words at random positions", 2, 10)):
        g = Gen(); text = []; steps = []
        for _ in range(N):
            i = g.index(len(text)); w = g.word(lo, hi)
            text[i:i] = list(w); steps.append([(i, 0, w)])
        out.append((wid, title, steps, "".join(text)))
    g = Gen(); s = g.word(N, N)
    out.append(("B1.6", "Insert string, then delete it", [[(0, 0, s), (0, N, "")]], ""))
    return out


def apply_oracle(chars, tags, edit, tag):
    pos, dele, ins = edit
    if dele:
        del chars[pos:pos + dele]; del tags[pos:pos + dele]
    else:
        chars[pos:pos] = list(ins); tags[pos:pos] = [tag] * len(ins)


def pair_workloads():
    def random_inserts(lo, hi):
        def gen(g, length):
            edits = []
            for _ in range(N):
                i = g.index(length); w = g.word(lo, hi)
                edits.append((i, 0, w)); length += len(w)
            return edits
        return gen

    def insert_delete(g, length):
        edits = []
        for _ in range(N):
            i = g.index(length); w = g.word(3, 9)
            edits.append((i, 0, w)); length += len(w)
            if length == i or g.coin():
                w2 = g.word(2, 10); edits.append((i, 0, w2)); length += len(w2)
            else:
                c = g.count(min(9, length - i)); edits.append((i, c, "")); length -= c
        return edits

    specs = [("B2.1", "Concurrently insert string of length N at index 0", lambda g, l: [(0, 0, g.word(N, N))]),
             ("B2.2", "Concurrently insert N characters at random positions", random_inserts(1, 1)),
             ("B2.3", "Concurrently insert N words at random positions", random_inserts(3, 9)),
             ("B2.4", "Concurrently insert & delete", insert_delete)]
    out = []
    for wid, title, gen in specs:
        g = Gen(); initial = g.word(100, 100)
        e1 = gen(g, 100); e2 = gen(g, 100)
        finals, kept = [], []
        for edits, tag in ((e1, 1), (e2, 2)):
            chars = list(initial); tags = [("s", k) for k in range(100)]
            for n, e in enumerate(edits):
                apply_oracle(chars, tags, e, (tag, n))
            finals.append("".join(chars)); kept.append(tags)
        start1 = {t for t in kept[0] if t[0] == "s"}; start2 = {t for t in kept[1] if t[0] == "s"}
        merged = len(start1 & start2) + sum(1 for t in kept[0] if t[0] != "s") + sum(1 for t in kept[1] if t[0] != "s")
        out.append((wid, title, initial, e1, e2, finals[0], finals[1], merged))
    return out


def random_edits(seed, length, count):
    """E(seed, start, count) of Docs/BENCHMARKS.md ("Workload M1")."""
    rng = SplitMix64(seed); edits = []
    for _ in range(count):
        r = rng.next()
        if length == 0 or r % 3 != 0:
            pos = rng.next() % (length + 1); n = 1 + rng.next() % 8
            edits.append((pos, 0, "".join(ALPHABET27[rng.next() % 27] for _ in range(n)))); length += n
        else:
            pos = rng.next() % length; n = min(1 + rng.next() % 8, length - pos)
            edits.append((pos, n, "")); length -= n
    return edits


# ---------------------------------------------------------------- libraries

class Loro:
    name = "loro"

    def __init__(self, snapshot=None):
        import loro
        self.m = loro
        self.doc = loro.LoroDoc()
        if snapshot is not None:
            self.doc.import_(snapshot)
        self.text = self.doc.get_text("text")
        self.ins = self.text.insert
        self.dele = self.text.delete

    @staticmethod
    def version():
        import loro
        return "loro " + getattr(loro, "LORO_VERSION", "?")

    def edit(self, e):
        pos, d, ins = e
        if d:
            self.dele(pos, d)
        if ins:
            self.ins(pos, ins)

    def commit(self):
        self.doc.commit()

    def vv(self):
        self.doc.commit()
        return self.doc.oplog_vv

    def update_since(self, vv):
        self.doc.commit()
        return self.doc.export(self.m.ExportMode.Updates(vv))

    def apply(self, update):
        self.doc.import_(update)

    def encode(self):
        self.doc.commit()
        return self.doc.export(self.m.ExportMode.Snapshot())

    def merge_state(self, state):
        self.doc.import_(state)

    def string(self):
        self.doc.commit()
        return self.text.to_string()


class Yrs:
    name = "pycrdt"

    def __init__(self, snapshot=None):
        import pycrdt
        self.m = pycrdt
        self.doc = pycrdt.Doc()
        if snapshot is not None:
            self.doc.apply_update(snapshot)
        self.text = self.doc.get("text", type=pycrdt.Text)
        self.ins = self.text.insert
        # pycrdt indexes text in UTF-8 bytes; every workload here is ASCII, so bytes = scalars.

    @staticmethod
    def version():
        from importlib.metadata import version
        return "pycrdt " + version("pycrdt")

    def edit(self, e):
        pos, d, ins = e
        if d:
            del self.text[pos:pos + d]
        if ins:
            self.ins(pos, ins)

    def commit(self):
        pass

    def vv(self):
        return self.doc.get_state()

    def update_since(self, state):
        return self.doc.get_update(state)

    def apply(self, update):
        self.doc.apply_update(update)

    def encode(self):
        return self.doc.get_update()

    def merge_state(self, state):
        self.doc.apply_update(state)

    def string(self):
        return str(self.text)


LIBS = {"loro": Loro, "pycrdt": Yrs}


def ms(f):
    t = time.perf_counter(); v = f(); return (time.perf_counter() - t) * 1000, v


def median(xs):
    s = sorted(xs); n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def peak_rss():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def noop(e):
    pass


def python_loop_ms(steps):
    """The interpreter's floor: the same loop with an empty function instead of the binding."""
    t = time.perf_counter()
    for step in steps:
        for e in step:
            noop(e)
    return (time.perf_counter() - t) * 1000


def snapshot_figures(Lib, doc, runs, expected):
    encodes, parses = [], []
    ok = True
    for _ in range(runs):
        t, state = ms(doc.encode); encodes.append(t)
    for _ in range(runs):
        t, text = ms(lambda: Lib(state).string()); parses.append(t)
        ok = ok and text == expected
    return state, median(encodes), median(parses), ok


def run_single(Lib, w, runs):
    wid, title, steps, expected = w
    times, edits_only = [], []
    ok = True
    for _ in range(runs):
        gc.collect()
        t0 = time.perf_counter()
        a = Lib(); b = Lib(); updates = []
        for step in steps:
            for e in step:
                v = a.vv(); a.edit(e); updates.append(a.update_since(v))
        for u in updates:
            b.apply(u)
        good = a.string() == expected and b.string() == expected
        times.append((time.perf_counter() - t0) * 1000)
        ok = ok and good
        c = Lib()
        t, _ = ms(lambda: [c.edit(e) for step in steps for e in step] and c.commit())
        edits_only.append(t)
    state, enc, par, sok = snapshot_figures(Lib, a, runs, expected)
    return {"id": wid, "title": title, "time_ms": median(times), "time_min_ms": min(times),
            "edit_ms": median(edits_only), "python_loop_ms": python_loop_ms(steps),
            "avg_update_bytes": round(sum(len(u) for u in updates) / len(steps)), "updates": len(updates),
            "doc_bytes": len(state), "encode_ms": enc, "parse_ms": par, "final_len": len(a.string()),
            "correct": ok and sok}


def run_pair(Lib, w, runs):
    wid, title, initial, e1, e2, f1, f2, merged_len = w
    start = Lib(); start.edit((0, 0, initial))
    start_state = start.encode()
    times, edits_only = [], []
    ok = True
    for _ in range(runs):
        gc.collect()
        a = Lib(start_state); b = Lib(start_state)
        va, vb = a.vv(), b.vv()
        t0 = time.perf_counter()
        for e in e1: a.edit(e)
        for e in e2: b.edit(e)
        local = a.string() == f1 and b.string() == f2
        u1 = a.update_since(va); u2 = b.update_since(vb)
        b.apply(u1); a.apply(u2)
        ta, tb = a.string(), b.string()
        times.append((time.perf_counter() - t0) * 1000)
        ok = ok and local and ta == tb and len(ta) == merged_len
        c = Lib(start_state); d = Lib(start_state)
        t0 = time.perf_counter()
        for e in e1: c.edit(e)
        for e in e2: d.edit(e)
        c.commit(); d.commit()
        edits_only.append((time.perf_counter() - t0) * 1000)
    state, enc, par, sok = snapshot_figures(Lib, a, runs, ta)
    return {"id": wid, "title": title, "time_ms": median(times), "time_min_ms": min(times),
            "edit_ms": median(edits_only), "python_loop_ms": python_loop_ms([e1, e2]),
            "avg_update_bytes": round((len(u1) + len(u2)) / 2), "updates": 2,
            "doc_bytes": len(state), "encode_ms": enc, "parse_ms": par, "final_len": len(ta),
            "correct": ok and sok}


def run_trace(Lib, patches, end, times_, wid, title, runs, limit_s=None):
    samples, cpu = [], []
    done = times_
    for _ in range(runs):
        doc = None; gc.collect()
        t0 = time.perf_counter(); c0 = time.process_time()
        doc = Lib()
        edit = doc.edit
        for k in range(times_):
            for p in patches:
                edit(p)
            if limit_s is not None and time.perf_counter() - t0 > limit_s and k + 1 < times_:
                done = k + 1
                break
        doc.commit()
        ok = times_ > 1 or doc.string() == end
        samples.append((time.perf_counter() - t0) * 1000); cpu.append((time.process_time() - c0) * 1000)
        if done < times_:
            break
    expected = end * done
    text = doc.string()
    ok = ok and text == expected
    state, enc, par, sok = snapshot_figures(Lib, doc, min(runs, 3) if times_ > 1 else runs, expected)
    row = {"id": wid, "title": title, "time_ms": median(samples), "time_min_ms": min(samples),
           "python_loop_ms": python_loop_ms([patches]) * done, "doc_bytes": len(state), "encode_ms": enc,
           "parse_ms": par, "final_len": len(text), "correct": ok and sok, "runs": len(samples),
           "cpu_ms": median(cpu)}
    if done < times_:
        row["completed_replays"] = done
        row["note"] = f"stopped after {done} of {times_} replays (limit {limit_s} s); time is for {done}"
    return row


def load_trace(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        data = json.load(f)
    patches = [(p[0], p[1], p[2]) for t in data["txns"] for p in t["patches"]]
    return data, patches


def m1(Lib, data, patches, runs):
    end = data["endContent"]
    replays = []
    for _ in range(runs):
        gc.collect()
        t0 = time.perf_counter()
        base = Lib()
        for p in patches: base.edit(p)
        base.commit()
        replays.append((time.perf_counter() - t0) * 1000)
    assert base.string() == end and len(end) == 104852
    saves = []
    for _ in range(runs):
        t, s0 = ms(base.encode); saves.append(t)
    loads = [ms(lambda: len(Lib(s0).string()))[0] for _ in range(runs)]
    ea, eb = random_edits(1, 104852, 10000), random_edits(2, 104852, 10000)
    a, b = Lib(s0), Lib(s0)
    ta, _ = ms(lambda: ([a.edit(e) for e in ea], a.commit()))
    tb, _ = ms(lambda: ([b.edit(e) for e in eb], b.commit()))
    sa, sb = a.encode(), b.encode()
    delta = len(b.update_since(a.vv()))

    def record_merge(first, second):
        n = Lib(first); n.merge_state(second); text = n.string(); return text, n.encode()
    merges = []
    for _ in range(runs):
        gc.collect()
        t, (text, merged) = ms(lambda: record_merge(sa, sb)); merges.append(t)
    other, _ = record_merge(sb, sa)
    return {"workload": "M1", "runs": runs, "replay_ms": median(replays), "save_ms": median(saves),
            "snapshot_bytes": len(s0), "load_ms": median(loads), "edit_ms": (ta + tb) / 2,
            "diverged_snapshot_bytes": [len(sa), len(sb)], "delta_bytes": delta,
            "record_merge_ms": median(merges), "record_merge_min_ms": min(merges),
            "record_merge_max_ms": max(merges), "merged_bytes": len(merged), "merged_len": len(text),
            "expected_merged_len": 136655, "converged": text == other,
            "python_loop_ms": python_loop_ms([patches]), "peak_rss_bytes": peak_rss()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", choices=sorted(LIBS), required=True)
    ap.add_argument("--trace", default="../shared/traces/automerge-paper.json.gz")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--only", choices=["m1", "standard", "b4x100"], help="run only this part")
    ap.add_argument("--b4x100-limit", type=float, default=120.0,
                    help="stop B4x100 after this many seconds and report the replays done")
    args = ap.parse_args()
    Lib = LIBS[args.lib]
    out = {"library": Lib.version(), "python": sys.version.split()[0], "runs": args.runs,
           "generator": "SplitMix64, fresh seed 42 per workload (same edits as crdtnote-bench standard)"}
    data, patches = load_trace(args.trace)
    if args.only in (None, "m1"):
        out["m1"] = m1(Lib, data, patches, args.runs)
    if args.only in (None, "standard"):
        rows = [run_single(Lib, w, args.runs) for w in single_workloads()]
        rows += [run_pair(Lib, w, args.runs) for w in pair_workloads()]
        rows.append(run_trace(Lib, patches, data["endContent"], 1, "B4", "Apply real-world editing dataset", args.runs))
        out["standard"] = rows
    if args.only in (None, "b4x100"):
        rss0 = peak_rss()
        row = run_trace(Lib, patches, data["endContent"], 100, "B4x100",
                        "Apply real-world editing dataset 100 times", 1, args.b4x100_limit)
        row["peak_rss_bytes"] = peak_rss(); row["peak_rss_before_bytes"] = rss0
        out.setdefault("standard", []).append(row)
    out["peak_rss_bytes"] = peak_rss()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
