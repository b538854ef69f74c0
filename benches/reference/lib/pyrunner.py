"""Shared helpers of the Python reference runners (xlogo.py, drawingbench.py): arguments,
timing passes over a fixed list of evaluations, and the result line (format:
docs/performance.md). A runner whose reference is missing says why on stderr and exits 3."""
import argparse
import json
import platform
import statistics
import sys
import time

NOT_INSTALLED = 3


def parser(description):
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--runs", type=int, default=5, help="timed runs (the median is reported)")
    p.add_argument("--min-seconds", type=float, default=0.5,
                   help="each run repeats the whole list until at least this long")
    p.add_argument("--only", default=None, help="comma-separated workload names (others skip)")
    return p


def wanted(args, name):
    return args.only is None or name in args.only.split(",")


def not_installed(runner, why):
    sys.stderr.write("%s: not installed: %s\n" % (runner, why))
    sys.exit(NOT_INSTALLED)


def time_passes(one_pass, count, runs, min_seconds):
    """Times `one_pass()` (which performs `count` evaluations). One untimed warm-up pass;
    then `runs` runs, each repeating passes until `min_seconds` have gone by. Returns the
    per-run evaluations/s and the median milliseconds per pass."""
    one_pass()
    rates, per_pass = [], []
    for _ in range(max(1, runs)):
        passes = 0
        start = time.perf_counter()
        while True:
            one_pass()
            passes += 1
            elapsed = time.perf_counter() - start
            if elapsed >= min_seconds:
                break
        rates.append(passes * count / elapsed)
        per_pass.append(elapsed * 1e3 / passes)
    return rates, per_pass


def emit(impl, workload, rates, per_pass, count, checked, note=None):
    line = {"impl": "%s (Python %s)" % (impl, platform.python_version()), "workload": workload,
            "unit": "evaluations/s", "value": statistics.median(rates),
            "median_ms": statistics.median(per_pass), "min_ms": min(per_pass),
            "runs": len(rates), "frames": 0, "evaluations_per_pass": count, "checked": checked}
    if note:
        line["note"] = note
    sys.stdout.write(json.dumps(line) + "\n")
    sys.stdout.flush()
    sys.stderr.write("%s %s: %.1f evaluations/s (%d per pass, median %.2f ms per pass)\n"
                     % (line["impl"], workload, line["value"], count, line["median_ms"]))
