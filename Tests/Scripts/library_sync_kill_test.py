#!/usr/bin/env python3
"""Four device libraries syncing through one server folder, with real `crdtnote` processes
killed by SIGKILL at random moments; checks that the devices converge, that every
acknowledged append is present exactly once everywhere unless deleted (issue 26, "Real
processes, real kills"), that every acknowledged deletion is gone everywhere, and that every
acknowledged mark is on its token everywhere.

  python3 Tests/Scripts/library_sync_kill_test.py [--crdtnote PATH] [--steps N] [--seed S]
                                                  [--devices D] [--notes K] [--kill-rate R]

Each step starts one process, or two at once (every third step): `library append DEVICE NOTE
TOKEN;` (a unique token) or `library sync DEVICE --server SERVER`, on a random device and
note; one step in eight instead runs `library style DEVICE NOTE --utf16-range A:B --add MARK`
alone, marking a token that device holds (bold, italic, underline or strikethrough), and
another one in eight `library edit DEVICE NOTE --utf16-range A:B` alone, deleting a token that
device holds with its separator (one exact edit). With probability --kill-rate the step sends
SIGKILL after a random delay spread over the command's own run time. An append, mark or
deletion whose process exited 0 is acknowledged. Afterwards every
device syncs, round after round, until a whole round fetches and saves nothing; then every
device must list the same notes with the same text, every acknowledged token must be in its
note exactly once (none when its deletion was acknowledged, once or none when its deletion was
killed), no token twice, nothing that was never appended (a torn deletion would leave part of a
token), and `library verify` must
pass on every device; every device's notes, exported, must show the same `crdtnote text --spans`,
with every acknowledged mark on every character of its token. Prints a summary and exits non-zero on any failure.
"""
import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time


def run(crdtnote, *args):
    return subprocess.run([crdtnote, *args], capture_output=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--crdtnote", default=".build/debug/crdtnote")
    parser.add_argument("--steps", type=int, default=700)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--devices", type=int, default=4)
    parser.add_argument("--notes", type=int, default=3)
    parser.add_argument("--kill-rate", type=float, default=0.3)
    options = parser.parse_args()
    rng = random.Random(options.seed)
    crdtnote = options.crdtnote
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as scratch:
        server = os.path.join(scratch, "server")
        devices = [os.path.join(scratch, f"device-{i}") for i in range(options.devices)]
        for device in devices:
            made = run(crdtnote, "library", "init", device)
            if made.returncode != 0:
                print(f"sync-kill-test: library init failed: {made.stderr.decode()}", file=sys.stderr)
                return 1
        notes = [f"note-{k}" for k in range(options.notes)]
        # How long each command takes here, to spread the kills over its whole run.
        timing = {}
        for verb, args in (("append", ["library", "append", devices[0], notes[0], "warmup;"]),
                           ("sync", ["library", "sync", devices[0], "--server", server])):
            start = time.monotonic()
            run(crdtnote, *args)
            timing[verb] = time.monotonic() - start
        acknowledged = {("warmup", notes[0])}
        appended = {"warmup": notes[0]}
        killed = appends = syncs = busy = styles = 0
        marked = []  # acknowledged (token, note, mark)
        deleting = set()  # (token, note) whose deletion was started
        deleted = set()  # (token, note) whose deletion was acknowledged
        deletes = 0
        empty = os.path.join(scratch, "empty")
        open(empty, "w").close()
        failures = []
        for step in range(options.steps):
            batch = 2 if step % 3 == 2 else 1
            processes = []
            if step % 8 in (3, 7):
                # A token the device holds, marked (bold, italic, underline or strikethrough) or
                # deleted with its separator as one exact edit; alone in its step, so the range
                # stays put.
                device, note = rng.choice(devices), rng.choice(notes)
                text = run(crdtnote, "library", "text", device, note).stdout.decode()
                held = [piece for piece in text.split(";") if piece]
                if held:
                    token = rng.choice(held)
                    at = (";" + text).find(";" + token + ";")
                    if step % 8 == 7:
                        mark = rng.choice(["bold", "italic", "underline", "strikethrough"])
                        styles += 1
                        kind, what = "style", (token, note, mark)
                        args = ["library", "style", device, note, "--utf16-range", f"{at}:{at + len(token)}", "--add", mark]
                    else:
                        deletes += 1
                        deleting.add((token, note))
                        kind, what = "delete", (token, note)
                        args = ["library", "edit", device, note, "--utf16-range", f"{at}:{at + len(token) + 1}", "--text", empty]
                    process = subprocess.Popen([crdtnote, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                    processes.append((kind, what, note, process))
                    batch = 0
            for k in range(batch):
                device = rng.choice(devices)
                if rng.random() < 0.55:
                    note = rng.choice(notes)
                    token = f"s{step}k{k}"
                    appended[token] = note
                    appends += 1
                    args = ["library", "append", device, note, token + ";"]
                    kind = "append"
                else:
                    token = note = None
                    syncs += 1
                    args = ["library", "sync", device, "--server", server]
                    kind = "sync"
                process = subprocess.Popen([crdtnote, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                processes.append((kind, token, note, process))
            kill = rng.random() < options.kill_rate
            if kill:
                time.sleep(rng.uniform(0, max(timing.get(kind, timing["append"]) for kind, _, _, _ in processes) * 1.2))
            for kind, token, note, process in processes:
                if kill and process.poll() is None:
                    process.send_signal(signal.SIGKILL)
                process.wait()
                if process.returncode == 0:
                    if kind == "style":
                        marked.append(token)
                    elif kind == "delete":
                        deleted.add(token)
                    elif token:
                        acknowledged.add((token, note))
                elif process.returncode == -signal.SIGKILL:
                    killed += 1
                elif process.returncode == 75:
                    busy += 1  # the library or server was held too long: not acknowledged
                else:
                    failures.append(f"step {step}: {kind} exited {process.returncode}: "
                                    f"{process.stderr.read().decode(errors='replace').strip()}")
        # Every device syncs until a whole round changes nothing.
        rounds = 0
        for rounds in range(1, 31):
            quiet = True
            for device in devices:
                result = run(crdtnote, "library", "sync", device, "--server", server, "--json")
                if result.returncode != 0:
                    failures.append(f"final sync of {os.path.basename(device)} exited {result.returncode}: "
                                    f"{result.stderr.decode(errors='replace').strip()}")
                    quiet = False
                    continue
                report = json.loads(result.stdout)
                listed = json.loads(run(crdtnote, "library", "list", device, "--json").stdout)
                if report["fetched"] or report["saved"] or report["deleted"] or any(n["unsaved"] for n in listed):
                    quiet = False
            if quiet:
                break
        else:
            failures.append("the devices did not become quiet in 30 rounds")
        texts = []
        for device in devices:
            verify = run(crdtnote, "library", "verify", device)
            if verify.returncode != 0:
                failures.append(f"verify of {os.path.basename(device)} exited {verify.returncode}: {verify.stderr.decode(errors='replace')}")
            listed = json.loads(run(crdtnote, "library", "list", device, "--json").stdout)
            texts.append({n["name"]: run(crdtnote, "library", "text", device, n["name"]).stdout.decode() for n in listed})
        # Formatting: the same spans on every device, every acknowledged mark on its token.
        spans = []
        for i, device in enumerate(devices):
            out = os.path.join(scratch, f"export-{i}")
            os.makedirs(out, exist_ok=True)
            exported = run(crdtnote, "library", "export", device, out)
            if exported.returncode != 0:
                failures.append(f"export of device-{i} exited {exported.returncode}: {exported.stderr.decode(errors='replace')}")
                spans.append({})
                continue
            spans.append({note: json.loads(run(crdtnote, "text", os.path.join(out, note + ".json"), "--spans").stdout or "[]")
                          for note in texts[i]})
        for i, device_spans in enumerate(spans[1:], start=1):
            if device_spans != spans[0]:
                failures.append(f"device-{i}'s formatting differs from device-0's")
        for token, note, mark in marked:
            if (token, note) in deleting:
                continue  # deleted since (or maybe: its deletion was killed)
            characters = [(c, span["attributes"]) for span in spans[0].get(note, []) for c in span["text"]]
            text = "".join(c for c, _ in characters)
            at = (";" + text).find(";" + token + ";")
            if at < 0 or any(attributes.get(mark) is not True for _, attributes in characters[at:at + len(token)]):
                failures.append(f"acknowledged {mark} on {token} in {note} is not on all of it")
        for i, device_texts in enumerate(texts[1:], start=1):
            if device_texts != texts[0]:
                differing = sorted(n for n in set(device_texts) | set(texts[0]) if device_texts.get(n) != texts[0].get(n))
                failures.append(f"device-{i} differs from device-0 in {differing}")
        for i, device_texts in enumerate(texts):
            counts = {}
            for note, text in device_texts.items():
                for piece in text.split(";"):
                    if piece:
                        counts[(piece, note)] = counts.get((piece, note), 0) + 1
            for token, note in acknowledged | deleted:
                # Acknowledged appends once, acknowledged deletions gone (also where the append
                # was not acknowledged), deletions killed on the way either.
                n = counts.get((token, note), 0)
                expected = {0} if (token, note) in deleted else {0, 1} if (token, note) in deleting else {1}
                if n not in expected:
                    failures.append(f"device-{i}: {token} is in {note} {n} times, expected {sorted(expected)}")
            for (token, note), n in counts.items():
                if appended.get(token) != note:
                    failures.append(f"device-{i}: {token!r} in {note} was never appended there")
                elif n > 1:
                    failures.append(f"device-{i}: {token} is in {note} {n} times")
        seconds = time.monotonic() - started
        print(f"sync-kill-test: {options.devices} devices, {options.steps} steps, {appends} appends, {syncs} syncs, "
              f"{styles} marks and {deletes} deletions, {killed} killed, {busy} busy, {len(acknowledged) - 1} appends, "
              f"{len(marked)} marks and {len(deleted)} deletions acknowledged, quiet after {rounds} rounds, {seconds:.1f} s")
        for failure in failures[:20]:
            print(f"sync-kill-test: FAIL {failure}", file=sys.stderr)
        print("sync-kill-test: " + ("FAILED" if failures else "converged; every acknowledged append present exactly once everywhere "
                                                         "unless deleted, every acknowledged deletion gone everywhere, "
                                                         "the same formatting everywhere with every acknowledged mark"))
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
