#!/usr/bin/env bash
# Runs every fuzz target (or those named) for SECONDS each and prints one line per target:
# name, seconds, executions, result. New inputs go to a scratch directory, not into the
# checked-in seed corpora; a crash leaves its input in fuzz/artifacts/<target>/ and makes the
# script exit 1 after all targets have run.
#
#   fuzz/run.sh SECONDS [TARGET...]
#
# GOBO_FUZZ_SEED fixes libFuzzer's seed (0, the default, picks one at random); CI fixes it so
# that its short runs explore the same inputs on every run.
#
# Needs a nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`).
set -uo pipefail
cd "$(dirname "$0")"
secs=${1:?usage: fuzz/run.sh SECONDS [TARGET...]}
shift
if [ $# -gt 0 ]; then targets=("$@"); else mapfile -t targets < <(cargo +nightly fuzz list); fi
for t in "${targets[@]}"; do cargo +nightly fuzz build -O "$t" || exit 1; done
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failed=0
printf '%-16s %8s %12s  %s\n' target seconds executions result
for t in "${targets[@]}"; do
    mkdir -p "$scratch/$t" "corpus/$t"
    log="$scratch/$t.log"
    start=$(date +%s)
    cargo +nightly fuzz run -O "$t" "$scratch/$t" "corpus/$t" -- \
        -max_total_time="$secs" -seed="${GOBO_FUZZ_SEED:-0}" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 >"$log" 2>&1
    rc=$?
    took=$(( $(date +%s) - start ))
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    if [ $rc -eq 0 ]; then result=ok; else result="FAILED (exit $rc), see below"; failed=1; fi
    printf '%-16s %8s %12s  %s\n' "$t" "$took" "${execs:-?}" "$result"
    if [ $rc -ne 0 ]; then grep -E 'panicked|ERROR|SUMMARY|Test unit written' "$log" | head -20; fi
done
exit $failed
