#!/usr/bin/env bash
# Fuzzes gobo serve's HTTP API with schemathesis (PyPI) from its own /v1/openapi.json: every
# generated request must get an answer that is not a server error (no 5xx). Time-bounded.
#   scripts/schemathesis.sh [SECONDS]      (default 90; needs python3 with venv)
# Installs schemathesis into target/schemathesis-venv on first use; builds the debug gobo, or
# uses $GOBO_BIN when set (CI passes the binary its tests step built).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-90}"
venv=target/schemathesis-venv
if [ ! -x "$venv/bin/schemathesis" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q 'schemathesis>=4,<5'
fi
gobo="${GOBO_BIN:-}"
if [ -z "$gobo" ]; then
    cargo build -q -p gobo-cli --locked
    gobo=./target/debug/gobo
fi
data="$(mktemp -d)"
log="$data/serve.log"
"$gobo" serve --addr 127.0.0.1:0 --data "$data/db" 2>"$log" &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$data"' EXIT
addr=""
for _ in $(seq 1 100); do
    addr="$(grep -o 'http://[0-9.:]*' "$log" | head -1 || true)"
    [ -n "$addr" ] && break
    sleep 0.1
done
[ -n "$addr" ] || { echo "gobo serve did not start:"; cat "$log"; exit 1; }
# The coverage phase on POST /sessions/{id}/load_project stops inside schemathesis itself
# (hypothesis on CPython 3.11: "AST constructor recursion depth mismatch", before any request is
# sent), so that one operation gets the other phases only. The same error inside hypothesis
# (hypothesis/internal/lambda_sources.py, describing a filter) also shows now and then on other
# operations (2026-11-26, schemathesis 4.32.5, hypothesis 6.170.17): it is the fuzzer's, not a
# server error, so a run whose only errors are that one, with no failed check, passes, saying so.
fuzzer_errors_only() {
    grep -q '^=* FAILURES =*$' "$1" && return 1
    awk 'function close_block() { if (inblock) { blocks++; if (seen) good++ } inblock = 0; seen = 0 }
         /^=+ ERRORS =+$/ { inerr = 1; next }
         inerr && /^=+ [A-Z]+ =+$/ { close_block(); inerr = 0; next }
         inerr && /^_+ .+ _+$/ { close_block(); inblock = 1; next }
         inerr && inblock && /hypothesis\/internal\/lambda_sources\.py/ { seen = 1 }
         END { close_block(); exit !(blocks > 0 && good == blocks) }' "$1"
}
run() {
    local out status
    out="$(mktemp)"
    set +e
    "$venv/bin/schemathesis" run "$@" 2>&1 | tee "$out"
    status=${PIPESTATUS[0]}
    set -e
    if [ "$status" -ne 0 ] && fuzzer_errors_only "$out"; then
        echo "schemathesis.sh: the only errors are hypothesis's own (lambda_sources.py on CPython 3.11), no check failed: passed"
        status=0
    fi
    rm -f "$out"
    return "$status"
}
run "$addr/v1/openapi.json" --phases examples,fuzzing,stateful \
    --checks not_a_server_error --max-time "$seconds" --request-timeout 60 --workers 2 \
    --suppress-health-check all --no-color
run "$addr/v1/openapi.json" --phases coverage \
    --exclude-path '/sessions/{id}/load_project' \
    --checks not_a_server_error --max-time "$seconds" --request-timeout 60 --workers 2 \
    --suppress-health-check all --no-color
