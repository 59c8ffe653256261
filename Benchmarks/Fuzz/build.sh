#!/bin/sh
# Builds the libFuzzer harness Benchmarks/Fuzz/PayloadFuzzer.swift (Docs/FUZZING.md, "Build").
#
# The package is split into modules (CRDTNoteSupport, CRDTNoteDurableFiles <- CRDTNote <- CRDTNoteFiles,
# CRDTNoteTraces; the note library in CRDTNote writes through CRDTNoteDurableFiles) and the harness uses them, so they are compiled
# one by one, in dependency order, as static libraries instrumented for libFuzzer and ASan, then
# the harness is compiled and linked against them. CRDTNote is built with -enable-testing so the
# harness can `@testable import` it (it checks internal invariants); all modules share the
# package name so `package` declarations are visible.
#
# Usage (from the package root): Benchmarks/Fuzz/build.sh [output] [extra swiftc flags, e.g. -O]
# Default output /tmp/payload-fuzzer; intermediate files in ${FUZZ_BUILD_DIR:-/tmp/payload-fuzzer-build}.
set -eu
OUT=${1:-/tmp/payload-fuzzer}
[ $# -gt 0 ] && shift
DIR=${FUZZ_BUILD_DIR:-/tmp/payload-fuzzer-build}
SWIFTC=${SWIFTC:-swiftc}
mkdir -p "$DIR"
COMMON="-sanitize=fuzzer,address -parse-as-library -package-name crdtnote -swift-version 6 -I $DIR -g $*"

module() {   # module NAME SOURCE-DIR
    # shellcheck disable=SC2046,SC2086
    $SWIFTC $COMMON -enable-testing -module-name "$1" -emit-module -emit-module-path "$DIR/$1.swiftmodule" \
        -emit-library -static -o "$DIR/lib$1.a" $(find "$2" -name '*.swift' | sort)
}

module CRDTNoteSupport Sources/CRDTNoteSupport
module CRDTNoteDurableFiles Sources/CRDTNoteDurableFiles
module CRDTNote Sources/CRDTNote
module CRDTNoteFiles Sources/CRDTNoteFiles
module CRDTNoteTraces Sources/CRDTNoteTraces
# shellcheck disable=SC2086
$SWIFTC $COMMON -module-name PayloadFuzzer -use-ld=lld Benchmarks/Fuzz/PayloadFuzzer.swift \
    -L "$DIR" -lCRDTNoteTraces -lCRDTNoteFiles -lCRDTNote -lCRDTNoteDurableFiles -lCRDTNoteSupport -o "$OUT"
echo "built $OUT"
