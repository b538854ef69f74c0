#!/usr/bin/env bash
# Differential fuzzing of gobo against scratch-vm 5.0.300 (docs/conformance.md):
#   scripts/diff-fuzz.sh N [diff_fuzz options]
# generates N random valid projects (geometry-free profile), runs each in gobo and in
# ../shared/refvm (Node), compares the traces and minimizes every divergence. Reports go to
# target/diff-fuzz/ (report.jsonl, summary-*.json, one folder per divergence).
# The dev profile (optimised) is enough: the reference is the slow side.
# Pass --oracle browser to use ../shared/refvm-browser (real renderer, every block; slow).
# Exit 0: no divergence; 1: divergences found; 2: bad arguments or no reference.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ] || ! [[ $1 =~ ^[0-9]+$ ]]; then
    echo "usage: scripts/diff-fuzz.sh N [--seed S] [--start I] [--oracle node|browser] [--out DIR] [--no-minimize]" >&2
    exit 2
fi
n=$1
shift
exec nice -n 10 cargo run --quiet -p gobo-benches --bin diff_fuzz -- --programs "$n" "$@"
