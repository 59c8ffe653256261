#!/usr/bin/env python3
"""Kills real `crdtnote library append` processes with SIGKILL at random moments and checks
that nothing acknowledged is lost and nothing is applied twice (Docs/LIBRARY.md, "Durability").

  python3 Tests/Scripts/library_kill_test.py [--crdtnote PATH] [--attempts N] [--seed S]

Each attempt starts one append (or, every other attempt, two at once) of a unique token to
one note and sends SIGKILL after a random delay drawn around the command's own run time, so
about half the processes die. An append whose process exited 0 is acknowledged. Every few
attempts, and at the end, `library verify` must pass and the note's text must hold every
acknowledged token exactly once and no token twice. Prints a summary (and any failures) and
exits non-zero on any failure.
"""
import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time


def run(crdtnote, *args):
    return subprocess.run([crdtnote, *args], capture_output=True)


def check(crdtnote, folder, acknowledged, tokens):
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
        if counts.get(token, 0) != 1:
            failures.append(f"acknowledged {token} is present {counts.get(token, 0)} times")
    for token, n in counts.items():
        if token not in tokens:
            failures.append(f"{token!r} was never appended")
        elif n > 1:
            failures.append(f"{token} is present {n} times")
    return failures


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
        for attempt in range(options.attempts):
            batch = 2 if attempt % 2 else 1
            processes = []
            for k in range(batch):
                token = f"t{attempt}-{k}"
                tokens.add(token)
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
            if attempt % 50 == 49:
                checks += 1
                failures += check(crdtnote, folder, acknowledged, tokens)
        checks += 1
        failures += check(crdtnote, folder, acknowledged, tokens)
        processes = sum(2 if a % 2 else 1 for a in range(options.attempts))
        print(f"kill-test: {processes} append processes in {options.attempts} attempts, {killed} killed, "
              f"{len(acknowledged) - 1} acknowledged, {checks} checks")
        for failure in failures[:20]:
            print(f"kill-test: FAIL {failure}", file=sys.stderr)
        print("kill-test: " + ("FAILED" if failures else "every acknowledged append present exactly once"))
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
