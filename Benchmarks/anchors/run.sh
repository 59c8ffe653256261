#!/usr/bin/env bash
# Measures the anchors (Loro and Yrs via pycrdt) on M1 and the standard workloads, in a local
# virtual environment, one process per library (so peak memory is per library). Not run by CI.
#
#   Benchmarks/anchors/run.sh [--runs N] [--trace PATH] [--b4x100-limit SECONDS] > anchors.json
#
# Run from the package root. Prints one JSON object per line: {"library": ..., "m1": ..., "standard": [...]}.
# Environment: VENV (default Benchmarks/anchors/.venv), PYTHON (default python3),
# LORO_VERSION / PYCRDT_VERSION to pin versions (default: newest).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="${VENV:-$here/.venv}"
python="${PYTHON:-python3}"
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv" >&2
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check \
    "loro${LORO_VERSION:+==$LORO_VERSION}" "pycrdt${PYCRDT_VERSION:+==$PYCRDT_VERSION}" >&2
for lib in loro pycrdt; do
    echo "anchors: running $lib ..." >&2
    "$venv/bin/python" "$here/anchors.py" --lib "$lib" "$@"
done
