#!/usr/bin/env bash
# Load test of `gobo serve` on loopback (docs/performance.md, "HTTP service"): CLIENTS
# connections (default 64) over as many sessions, made first from examples/scratch/keys, loop
# observe/act for SECONDS (default 60), then observe/act/evaluate (the suite of
# examples/scratch/keys) for SECONDS. Prints wrk's JSON line per phase (requests per second,
# latency percentiles, answers by status, socket errors) and the server's memory (VmRSS, VmHWM)
# before and after. Needs wrk (Debian) and curl; builds the release gobo. GOBO_SERVE_ARGS adds
# flags to `gobo serve` (e.g. "--snapshot-every 1" to snapshot sessions on every change).
#   benches/serve/load.sh [SECONDS] [CLIENTS]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-60}"
clients="${2:-64}"
command -v wrk >/dev/null || { echo "load.sh: needs wrk (apt-get install wrk)"; exit 2; }
cargo build -q --release -p gobo-cli --locked
data="$(mktemp -d)"
# shellcheck disable=SC2086 # GOBO_SERVE_ARGS is a list of flags
./target/release/gobo serve --addr 127.0.0.1:0 --data "$data/db" ${GOBO_SERVE_ARGS:-} 2>"$data/serve.log" &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$data"' EXIT
addr=""
for _ in $(seq 1 100); do
    addr="$(grep -o 'http://[0-9.:]*' "$data/serve.log" | head -1 || true)"
    [ -n "$addr" ] && break
    sleep 0.1
done
[ -n "$addr" ] || { echo "gobo serve did not start:"; cat "$data/serve.log"; exit 1; }
memory() { grep -E '^(VmRSS|VmHWM)' "/proc/$pid/status" | tr -s ' \t' ' ' | paste -sd' '; }

body="{\"project\": $(cat examples/scratch/keys/project.json), \"max_steps\": 0}"
for _ in $(seq 1 "$clients"); do
    curl -sf "$addr/v1/sessions" -H 'content-type: application/json' -d "$body" |
        grep -o '"session_id":"[^"]*"' | cut -d'"' -f4
done >"$data/sessions.txt"
[ "$(wc -l <"$data/sessions.txt")" -eq "$clients" ] || { echo "could not make $clients sessions"; exit 1; }
echo "server: $addr, $clients sessions; $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "memory before: $(memory)"
for kinds in observe,act observe,act,evaluate; do
    echo "phase $kinds (${seconds}s, $clients connections):"
    wrk -t2 -c"$clients" -d"${seconds}s" --timeout 10s -s benches/serve/load.lua "$addr" -- \
        "$data/sessions.txt" examples/scratch/keys/suite.json "$kinds" | tail -1
    echo "memory after: $(memory); load: $(cut -d' ' -f1-3 /proc/loadavg)"
done
