#!/usr/bin/env bash
# Regenerates the Scratch 2 trace goldens under hosts/host/tests/golden/sb2/<name>/:
#   1. writes each project.sb2 + scenario.json from scripts/sb2_golden_projects.py (skip with
#      --no-projects to trace the checked-in archives);
#   2. runs the reference harness (scratch-vm 5.0.300 in Node, ../shared/refvm), which loads the
#      archive with scratch-vm's own sb2 deserializer:
#      node trace.js project.sb2 --scenario scenario.json --out trace.jsonl
#      (frames and seed come from the scenario; every other option is the default).
# Needs node and `npm install` done in ../shared/refvm (or $GOBO_SHARED/refvm).
# Usage: scripts/regen-sb2-goldens.sh [--no-projects] [NAME...]
# A regenerated golden needs a reason in its commit message.
set -euo pipefail
cd "$(dirname "$0")/.."
shared="${GOBO_SHARED:-../shared}"
refvm="$shared/refvm"
if [ ! -f "$refvm/trace.js" ]; then
    echo "regen-sb2-goldens: $refvm/trace.js not found (set GOBO_SHARED)" >&2
    exit 1
fi
if [ "${1:-}" = "--no-projects" ]; then
    shift
else
    python3 scripts/sb2_golden_projects.py "$@" >/dev/null
fi
golden=hosts/host/tests/golden/sb2
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
    for d in "$golden"/*/; do names+=("$(basename "$d")"); done
fi
for name in "${names[@]}"; do
    dir="$golden/$name"
    # Relative paths keep the trace's meta line independent of the checkout location.
    node "$refvm/trace.js" "$dir/project.sb2" --scenario "$dir/scenario.json" --out "$dir/trace.jsonl"
    echo "$dir/trace.jsonl: $(wc -l < "$dir/trace.jsonl") lines"
done
