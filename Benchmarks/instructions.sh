#!/usr/bin/env bash
# Instruction counts (valgrind --tool=callgrind) of the three figures every change to the core
# must keep within 3%: the automerge-paper replay, the M1 record merge and a merge of k = 100
# edits into a 4M-scalar note. Repeatable, unlike times: compare two builds with it.
#
#   Benchmarks/instructions.sh BENCH_BINARY [TRACES_DIR]
#
# BENCH_BINARY is a release build of crdtnote-bench (swift build -c release --product
# crdtnote-bench; .build/release/crdtnote-bench); TRACES_DIR defaults to ../shared/traces.
# Prints one line per figure: its name and the instructions counted inside the measured
# function (collection toggled on for it alone, so trace parsing and setup are excluded).
set -euo pipefail
bench=${1:?usage: Benchmarks/instructions.sh BENCH_BINARY [TRACES_DIR]}
traces=${2:-$(dirname "$0")/../../shared/traces}
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# symbol PATTERN: the one mangled name in the binary matching the extended regex PATTERN.
symbol() {
    local found
    found=$(nm "$bench" | awk '{print $3}' | grep -E "$1" | head -n 1)
    [ -n "$found" ] || { echo "instructions.sh: no symbol matches $1 in $bench" >&2; exit 1; }
    echo "$found"
}

# count NAME SYMBOL ARGS...: runs the benchmark under callgrind collecting inside SYMBOL only.
count() {
    local name=$1 sym=$2
    shift 2
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "--toggle-collect=$sym" "$bench" "$@" >/dev/null 2>"$work/log" \
        || { cat "$work/log" >&2; exit 1; }
    local total
    total=$(grep -E '^(summary|totals):' "$work/cg.out" | tail -n 1 | awk '{print $2}')
    printf '%-34s %15s instructions\n' "$name" "$total"
}

replay=$(symbol '^\$s14CRDTNoteTraces11TraceReplayO6replay_7replica5clock9undoLimit0A0.*SequentialC0V')
merge=$(symbol '^\$s8CRDTNote8NoteTextV5merge_14recordingPatch')
record=$(nm "$bench" | awk '{print $3}' | grep -E 'M1Bench.*recordMerge' | head -n 1 || true)
count "automerge-paper replay" "$replay" replay "$traces/automerge-paper.json.gz" --runs 1
if [ -n "$record" ]; then
    count "M1 record merge (1 run)" "$record" m1 --trace "$traces/automerge-paper.json.gz" --runs 1
else
    count "M1 record merge: NoteText.merge" "$merge" m1 --trace "$traces/automerge-paper.json.gz" --runs 1
fi
count "k=100 into 4M: NoteText.merge x7" "$merge" scaling --runs 5 --sizes 4000000 --edits 100
