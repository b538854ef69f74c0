#!/usr/bin/env bash
# Regenerates the Scratch trace goldens under core/tests/golden/scratch/<name>/:
#   1. writes each project.json + scenario.json from scripts/scratch_golden_projects.py
#      (skip with --no-projects to trace the checked-in JSON as it is);
#   2. runs the reference harness (scratch-vm 5.0.300 in Node, ../shared/refvm) on it:
#      node trace.js project.json --scenario scenario.json --out trace.jsonl
#      (frames and seed come from the scenario; every other option is the default:
#      30 fps, stub renderer, 1000 ticks per frame, 1e6 warp checks, epoch 2020-01-01),
#      with scripts/refvm-frame-interval.js preloaded: it puts `setInterval` (used only by the
#      Makey Makey extension's frame toggle) on the harness's virtual clock, once per frame;
#      traces of projects without that extension are byte-identical with or without it.
# Needs node and `npm install` done in ../shared/refvm (or $GOBO_SHARED/refvm).
# Usage: scripts/regen-scratch-goldens.sh [--no-projects] [NAME...]
# A regenerated golden needs a reason in its commit message.
set -euo pipefail
cd "$(dirname "$0")/.."
shared="${GOBO_SHARED:-../shared}"
refvm="$shared/refvm"
if [ ! -f "$refvm/trace.js" ]; then
    echo "regen-scratch-goldens: $refvm/trace.js not found (set GOBO_SHARED)" >&2
    exit 1
fi
if [ "${1:-}" = "--no-projects" ]; then
    shift
else
    python3 scripts/scratch_golden_projects.py "$@" >/dev/null
fi
golden=core/tests/golden/scratch
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
    for d in "$golden"/*/; do names+=("$(basename "$d")"); done
fi
for name in "${names[@]}"; do
    dir="$golden/$name"
    # Relative paths keep the trace's meta line independent of the checkout location.
    node -r ./scripts/refvm-frame-interval.js "$refvm/trace.js" "$dir/project.json" --scenario "$dir/scenario.json" --out "$dir/trace.jsonl"
    echo "$dir/trace.jsonl: $(wc -l < "$dir/trace.jsonl") lines"
done
