#!/usr/bin/env python3
"""Kills real `crdtnote library append`, `library edit` and `library style` processes with
SIGKILL at random moments and checks that nothing acknowledged is lost and nothing is applied
twice (Docs/LIBRARY.md, "Durability"), that every deletion kept its history, and that every
acknowledged formatting operation holds.

  python3 Tests/Scripts/library_kill_test.py [--crdtnote PATH] [--attempts N] [--seed S]

Each attempt starts one append (or, every other attempt, two at once) of a unique token to
one note and sends SIGKILL after a random delay drawn around the command's own run time, so
about half the processes die. Every fifth attempt instead removes an acknowledged token (with
its `;`) by `library edit --utf16-range`, a deletion the library logs in the note's history (on
by default). A command whose process exited 0 is acknowledged. Every few attempts, and at the
end, `library verify` must pass and the note's text must hold every acknowledged token exactly
once (none when its removal was acknowledged, none or one when the removal was killed) and no
token twice. At the end the note is exported and `crdtnote log --json` must count exactly the
characters of the removed tokens as deleted: no removal was kept without its history, and none
twice. Every fifth attempt, offset from the removals, instead sets a mark (bold, italic,
underline or strikethrough) on an acknowledged token by `library style --utf16-range`; at the end
`crdtnote text --spans` of the exported note must show every acknowledged mark on every character
of its token, when the token is still there. Prints a summary (and any failures) and exits
non-zero on any failure.
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


def check(crdtnote, folder, acknowledged, tokens, removed=(), maybe_removed=()):
    failures = []
    verify = run(crdtnote, "library", "verify", folder)
    if verify.returncode != 0:
        failures.append(f"verify exited {verify.returncode}: {verify.stderr.decode(errors='replace')}")
    text = run(crdtnote, "library", "text", folder, "log")
    if text.returncode != 0:
        failures.append(f"text exited {text.returncode}: {text.stderr.decode(errors='replace')}")
        return failures
    pieces = text.stdout.decode().split(";")
    counts = {}
    for piece in pieces:
        if piece:
            counts[piece] = counts.get(piece, 0) + 1
    for token in acknowledged:
        allowed = (0,) if token in removed else (0, 1) if token in maybe_removed else (1,)
        if counts.get(token, 0) not in allowed:
            failures.append(f"acknowledged {token} is present {counts.get(token, 0)} times")
    for token, n in counts.items():
        if token not in tokens:
            failures.append(f"{token!r} was never appended")
        elif n > 1:
            failures.append(f"{token} is present {n} times")
    return failures


def run_killed_maybe(crdtnote, arguments, rng, duration):
    """Starts `crdtnote ARGUMENTS`, sends SIGKILL after a random delay drawn around `duration`
    unless it has exited, and returns its exit status and standard error."""
    process = subprocess.Popen([crdtnote, *arguments], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(rng.uniform(0, duration * 2.2))
    if process.poll() is None:
        process.send_signal(signal.SIGKILL)
    process.wait()
    return process.returncode, process.stderr.read().decode(errors="replace")


def exported(crdtnote, folder, scratch):
    """The path of the note's record exported from the library, or an error."""
    out = os.path.join(scratch, "export")
    os.makedirs(out, exist_ok=True)
    export = run(crdtnote, "library", "export", folder, out)
    if export.returncode != 0:
        return None, f"export exited {export.returncode}: {export.stderr.decode(errors='replace')}"
    records = [name for name in os.listdir(out) if name.endswith(".json")]
    record = next((os.path.join(out, name) for name in records if name.startswith("log")), None)
    if record is None:
        return None, f"export wrote no record of the note: {records}"
    return record, None


def missing_marks(crdtnote, record, styled):
    """Failures for acknowledged marks (token -> marks) that some character of a token still in
    the exported note lacks, read from `crdtnote text --spans`."""
    spans = run(crdtnote, "text", record, "--spans")
    if spans.returncode != 0:
        return [f"text --spans exited {spans.returncode}: {spans.stderr.decode(errors='replace')}"]
    characters = []  # (character, its attributes)
    for span in json.loads(spans.stdout):
        characters += [(c, span["attributes"]) for c in span["text"]]
    text = "".join(c for c, _ in characters)
    failures = []
    for token, marks in styled.items():
        at = (";" + text).find(";" + token + ";")
        if at < 0:
            continue  # removed
        for mark in marks:
            lacking = [c for c, attributes in characters[at:at + len(token)] if attributes.get(mark) is not True]
            if lacking:
                failures.append(f"acknowledged {mark} on {token} is missing on {len(lacking)} of its characters")
    return failures


def deleted_in_history(crdtnote, record):
    """The characters `crdtnote log --json` counts as deleted in the exported note, or an error."""
    log = run(crdtnote, "log", record, "--json")
    if log.returncode != 0:
        return None, f"log exited {log.returncode}: {log.stderr.decode(errors='replace')}"
    return sum(entry["deleted"] for entry in json.loads(log.stdout)), None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--crdtnote", default=".build/debug/crdtnote")
    parser.add_argument("--attempts", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    rng = random.Random(options.seed)
    crdtnote = options.crdtnote
    with tempfile.TemporaryDirectory() as scratch:
        folder = os.path.join(scratch, "library")
        init = run(crdtnote, "library", "init", folder)
        if init.returncode != 0:
            print(f"kill-test: library init failed: {init.stderr.decode()}", file=sys.stderr)
            return 1
        # How long one append takes here, to spread the kills over its whole run.
        start = time.monotonic()
        run(crdtnote, "library", "append", folder, "log", "warmup;")
        duration = time.monotonic() - start
        acknowledged, tokens = {"warmup"}, {"warmup"}
        killed = checks = 0
        failures = []
        removed, maybe_removed, removals = set(), set(), 0
        styled, styles, appends = {}, 0, 0  # acknowledged marks by token; style and append processes started
        empty = os.path.join(scratch, "empty")
        open(empty, "w").close()
        for attempt in range(options.attempts):
            if attempt % 5 == 4:
                # Remove an acknowledged token no removal has aimed at (appends only add at the
                # end, and nothing runs beside this, so its range is where the text says).
                text = run(crdtnote, "library", "text", folder, "log").stdout.decode()
                candidates = sorted(acknowledged - removed - maybe_removed - {"warmup"})
                if candidates:
                    token = rng.choice(candidates)
                    at = (";" + text).find(";" + token + ";")
                    status, stderr = run_killed_maybe(crdtnote, ["library", "edit", folder, "log", "--text", empty,
                                                                 "--utf16-range", f"{at}:{at + len(token) + 1}"], rng, duration)
                    removals += 1
                    if status == 0:
                        removed.add(token)
                    elif status == -signal.SIGKILL:
                        killed += 1
                        maybe_removed.add(token)
                    else:
                        failures.append(f"removal of {token} exited {status}: {stderr}")
                    continue
            if attempt % 5 == 2:
                # Mark an acknowledged token no removal has aimed at (its range is where the text says).
                text = run(crdtnote, "library", "text", folder, "log").stdout.decode()
                candidates = sorted(acknowledged - removed - maybe_removed - {"warmup"})
                if candidates:
                    token = rng.choice(candidates)
                    mark = rng.choice(["bold", "italic", "underline", "strikethrough"])
                    at = (";" + text).find(";" + token + ";")
                    status, stderr = run_killed_maybe(crdtnote, ["library", "style", folder, "log", "--utf16-range",
                                                                 f"{at}:{at + len(token)}", "--add", mark], rng, duration)
                    styles += 1
                    if status == 0:
                        styled.setdefault(token, set()).add(mark)
                    elif status == -signal.SIGKILL:
                        killed += 1
                    else:
                        failures.append(f"{mark} on {token} exited {status}: {stderr}")
                    continue
            batch = 2 if attempt % 2 else 1
            processes = []
            for k in range(batch):
                token = f"t{attempt}-{k}"
                tokens.add(token)
                appends += 1
                processes.append((token, subprocess.Popen([crdtnote, "library", "append", folder, "log", token + ";"],
                                                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)))
            time.sleep(rng.uniform(0, duration * 2.2))
            for token, process in processes:
                if process.poll() is None:
                    process.send_signal(signal.SIGKILL)
                process.wait()
                if process.returncode == 0:
                    acknowledged.add(token)
                elif process.returncode == -signal.SIGKILL:
                    killed += 1
                else:
                    failures.append(f"append of {token} exited {process.returncode}: {process.stderr.read().decode(errors='replace')}")
            if attempt % 50 == 48:  # not a removal attempt (those skip the rest)
                checks += 1
                failures += check(crdtnote, folder, acknowledged, tokens, removed, maybe_removed)
        checks += 1
        failures += check(crdtnote, folder, acknowledged, tokens, removed, maybe_removed)
        # Every removal that took effect is in the history exactly once.
        pieces = run(crdtnote, "library", "text", folder, "log").stdout.decode().split(";")
        gone = removed | {token for token in maybe_removed if token not in pieces}
        record, error = exported(crdtnote, folder, scratch)
        deleted = None
        if error:
            failures.append(error)
        else:
            failures += missing_marks(crdtnote, record, styled)
            deleted, error = deleted_in_history(crdtnote, record)
        if error:
            failures.append(error)
        elif deleted != sum(len(token) + 1 for token in gone):
            failures.append(f"the history counts {deleted} deleted characters, the {len(gone)} removals made "
                            f"{sum(len(token) + 1 for token in gone)}")
        processes = appends + removals + styles
        print(f"kill-test: {processes} processes ({removals} removals, {styles} marks) in {options.attempts} attempts, {killed} killed, "
              f"{len(acknowledged) - 1} appends, {len(removed)} removals and {sum(len(m) for m in styled.values())} marks acknowledged, "
              f"{checks} checks")
        for failure in failures[:20]:
            print(f"kill-test: FAIL {failure}", file=sys.stderr)
        print("kill-test: " + ("FAILED" if failures else
                               "every acknowledged append present exactly once, every removal in the history once, "
                               "every acknowledged mark on its token"))
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
