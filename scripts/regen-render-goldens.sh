#!/bin/sh
# Regenerates the stage-render and touching-colour goldens under hosts/cli/tests/fixtures/render/:
# the projects (scripts/render_fixture_projects.py), then refvm-browser's PNGs (ref-NNNNN.png)
# and traces (ref.jsonl) for them. Needs ../shared/refvm-browser (or GOBO_SHARED) with Chromium.
# A golden regenerated to make a test pass needs a reason in the commit message.
set -eu
cd "$(dirname "$0")/.."
SHARED=${GOBO_SHARED:-../shared}
REFVM="$SHARED/refvm-browser"
FIX=hosts/cli/tests/fixtures/render
python3 scripts/render_fixture_projects.py
# name frames png-frames
while read -r name frames pngs; do
    dir="$FIX/$name"
    tmp=$(mktemp -d)
    scenario=""
    [ -f "$dir/scenario.json" ] && scenario="--scenario $(pwd)/$dir/scenario.json"
    # shellcheck disable=SC2086
    node "$REFVM/trace.js" "$(pwd)/$dir/project.json" $scenario --frames "$frames" \
        --png-at "$pngs" --png-dir "$tmp" --out "$(pwd)/$dir/ref.jsonl"
    rm -f "$dir"/ref-*.png
    for f in "$tmp"/frame-*.png; do
        cp "$f" "$dir/ref-${f##*/frame-}"
    done
    rm -rf "$tmp"
done <<'LIST'
placement 3 2
effects 3 2
pen 3 2
touch_color 90 10,89
touch_layers 80 79
LIST
