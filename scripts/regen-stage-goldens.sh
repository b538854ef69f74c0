#!/usr/bin/env bash
# Regenerates the stage-geometry trace goldens under hosts/host/tests/golden/stage/<name>/:
#   1. writes project.json, scenario.json and the costume assets from
#      scripts/stage_golden_projects.py (skip with --no-projects);
#   2. traces each with the browser reference (scratch-vm 5.0.300 + scratch-render 2.2.84 in
#      headless Chromium, ../shared/refvm-browser):
#      node trace.js project.json --scenario scenario.json --out trace.jsonl
#   3. traces ../shared/refvm/bench/{clones300_move,sprites100_motion} the same way for 100
#      frames into hosts/host/tests/golden/stage/bench/<name>.trace.zip (deflated: the traces
#      of 300 and 100 sprites are megabytes of JSON).
# Needs node, chromium and `npm install && npm run build` in ../shared/refvm-browser.
# Usage: scripts/regen-stage-goldens.sh [--no-projects] [NAME...]
# A regenerated golden needs a reason in its commit message.
set -euo pipefail
cd "$(dirname "$0")/.."
shared="${GOBO_SHARED:-../shared}"
oracle="$shared/refvm-browser"
if [ ! -f "$oracle/trace.js" ]; then
    echo "regen-stage-goldens: $oracle/trace.js not found (set GOBO_SHARED)" >&2
    exit 1
fi
if [ "${1:-}" = "--no-projects" ]; then
    shift
else
    python3 scripts/stage_golden_projects.py "$@" >/dev/null
fi
golden=hosts/host/tests/golden/stage
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
    for d in "$golden"/*/; do
        [ "$(basename "$d")" = bench ] || names+=("$(basename "$d")")
    done
    mkdir -p "$golden/bench"
    for b in clones300_move sprites100_motion; do
        tmp="$(mktemp -d)"
        node "$oracle/trace.js" "$shared/refvm/bench/$b/project.json" --frames 100 \
            --out "$tmp/$b.trace.jsonl"
        python3 -c 'import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
    z.write(sys.argv[2], "trace.jsonl")' "$golden/bench/$b.trace.zip" "$tmp/$b.trace.jsonl"
        rm -r "$tmp"
        echo "$golden/bench/$b.trace.zip: $(wc -c < "$golden/bench/$b.trace.zip") bytes"
    done
fi
# Goldens that also keep stage PNGs (ref-NNNNN.png, compared by hosts/cli/tests/render.rs).
png_frames() {
    case "$1" in
        mouse_undefined) echo 0,6,9,15 ;;
    esac
}
for name in "${names[@]}"; do
    dir="$golden/$name"
    pngs=$(png_frames "$name")
    if [ -n "$pngs" ]; then
        tmp="$(mktemp -d)"
        node "$oracle/trace.js" "$dir/project.json" --scenario "$dir/scenario.json" --out "$dir/trace.jsonl" \
            --png-at "$pngs" --png-dir "$tmp"
        rm -f "$dir"/ref-*.png
        for f in "$tmp"/frame-*.png; do cp "$f" "$dir/ref-${f##*/frame-}"; done
        rm -r "$tmp"
    else
        node "$oracle/trace.js" "$dir/project.json" --scenario "$dir/scenario.json" --out "$dir/trace.jsonl"
    fi
    echo "$dir/trace.jsonl: $(wc -l < "$dir/trace.jsonl") lines"
done
