#!/usr/bin/env bash
# Runs the benchmark workloads in gobo and in every installed reference implementation, in one
# run, and prints a Markdown table (figures and ratios). Options: see `--help` and
# docs/performance.md. A missing reference is skipped with the reason; it never fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo run --quiet --release -p gobo-benches --bin compare -- "$@"
