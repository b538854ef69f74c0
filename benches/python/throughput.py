#!/usr/bin/env python3
"""Rows per second through gobo's Python batch API beside the CLI's batch command, through Ray
Data, and beside the Python XLogo reference emulator, in one run (docs/performance.md, "Python
and Ray"). A benchmark, not a test: it prints a Markdown table with the machine's load.

    python benches/python/throughput.py [--rows 50000] [--ray-rows 1000000] [--ray-cpus 2]
        [--cli target/release/gobo] [--xlogo-repo CHECKOUT] [--skip-ray]

Needs the gobo package (pip install ./hosts/python), `ray[data]` for the Ray figure, a release
CLI (cargo build --release -p gobo-cli) and ../shared (or $GOBO_SHARED) for the oracle rows;
without ../shared the example tasks with seeded random programs are used. Figures are wall
clock and CPU time (user + system of this process and its children): on a shared machine the
CPU figure is the one that does not depend on what else runs.
"""

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import gobo

REPO = Path(__file__).resolve().parents[2]


def shared():
    base = os.environ.get("GOBO_SHARED")
    path = Path(base) if base else REPO.parent / "shared"
    return path if path.is_dir() else None


def cpu(children=False):
    who = resource.RUSAGE_CHILDREN if children else resource.RUSAGE_SELF
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def load():
    return " / ".join(open("/proc/loadavg").read().split()[:3])


def xlogo_rows(n):
    """The public oracle's programs on their tasks (task as JSON text, code as Python-style
    source where the oracle has it), cycled to n rows; else the examples with random code."""
    sh = shared()
    pairs = []
    if sh and (sh / "xlogo" / "oracle-public.jsonl").exists():
        tasks = {}
        for name in ("real_tasks", "edge_tasks", "aied_syn_tasks", "extra_tasks_not_in_benchmark"):
            for line in open(sh / "xlogo" / f"{name}.jsonl", encoding="utf-8"):
                row = json.loads(line)
                tasks[row["task_id"]] = json.dumps(row["task"])
        for line in open(sh / "xlogo" / "oracle-public.jsonl", encoding="utf-8"):
            o = json.loads(line)
            if o.get("code_py"):
                pairs.append((tasks[o["task_id"]], o["code_py"]))
        source = "oracle-public programs on their tasks"
    else:
        rng = random.Random(1)
        moves = ["move_forward()", "turn_left()", "turn_right()", "move_backward()"]
        tasks = [json.dumps(json.loads((REPO / "examples/xlogo" / f).read_text()))
                 for f in ("find-strawberry.json", "draw-square.json")]
        for i in range(1000):
            body = "\n".join("    " + rng.choice(moves) for _ in range(rng.randint(1, 10)))
            pairs.append((tasks[i % 2], "def run():\n" + body))
        source = "example tasks, random programs"
    return [{"id": i, "task": pairs[i % len(pairs)][0], "code": pairs[i % len(pairs)][1]}
            for i in range(n)], source


def drawing_rows(n):
    sh = shared()
    if not sh or not (sh / "drawingbench" / "oracle-public.jsonl").exists():
        return None, None, None
    db = sh / "drawingbench"
    base = []
    for line in open(db / "oracle-public.jsonl", encoding="utf-8"):
        o = json.loads(line)
        if "criteria_override" not in o:
            base.append({"task_index": o["task_index"], "actions_raw": o["actions_raw"]})
    rows = [dict(base[i % len(base)], id=i) for i in range(n)]
    return rows, db / "dataset_consolidated.json", "oracle-public turns"


def timed(fn):
    w, c = time.perf_counter(), cpu()
    fn()
    return time.perf_counter() - w, cpu() - c


def write_jsonl(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")


def cli_batch(cli, args, rows, tmp):
    inp, out = tmp / "cli-in.jsonl", tmp / "cli-out.jsonl"
    write_jsonl(inp, rows)
    if out.exists():
        out.unlink()
    w, c = time.perf_counter(), cpu(children=True)
    # Exit 1 means some rows failed their task (the oracle's programs include wrong ones).
    proc = subprocess.run([str(cli), *args, "--batch", str(inp), "--out", str(out)],
                          stderr=subprocess.PIPE, text=True)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"{cli} {' '.join(args)} --batch: exit {proc.returncode}: {proc.stderr}")
    return time.perf_counter() - w, cpu(children=True) - c


def ray_run(rows_n, cpus, tmp):
    import ray  # noqa: F401  (fail early when Ray is missing)
    examples = str(REPO / "examples" / "python")
    sys.path.insert(0, examples)
    # Ray's workers unpickle `ray_xlogo.evaluate` by module name: they need the folder too (a
    # local cluster's workers inherit the driver's environment).
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [examples, os.environ.get("PYTHONPATH")]))
    import ray_xlogo
    rows, _ = xlogo_rows(rows_n)
    inp, out = tmp / "ray-in.jsonl", tmp / "ray-out"
    write_jsonl(inp, rows)
    del rows
    w = time.perf_counter()
    ray_xlogo.run(str(inp), str(out), num_cpus=cpus)
    wall = time.perf_counter() - w
    n = sum(1 for f in out.glob("*.jsonl") for _ in open(f, encoding="utf-8"))
    import ray as _ray
    _ray.shutdown()
    return n, wall


def reference_xlogo(repo):
    script = REPO / "benches" / "reference" / "xlogo.py"
    proc = subprocess.run([sys.executable, str(script), "--repo", str(repo), "--runs", "3"],
                          capture_output=True, text=True)
    return proc.stdout.strip() or proc.stderr.strip()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=int, default=50_000)
    p.add_argument("--ray-rows", type=int, default=1_000_000)
    p.add_argument("--ray-cpus", type=int, default=2)
    p.add_argument("--cli", default=str(REPO / "target" / "release" / "gobo"))
    p.add_argument("--xlogo-repo", default=None)
    p.add_argument("--skip-ray", action="store_true")
    args = p.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="gobo-bench-"))
    lines = [f"load average before: {load()}; {os.cpu_count()} cores; gobo {gobo.__version__}", "",
             "| workload | rows | wall s | rows/s (wall) | CPU s | rows per CPU-second | vs CLI (CPU) |",
             "|---|---|---|---|---|---|---|"]
    try:
        rows, source = xlogo_rows(args.rows)
        lines.insert(1, f"XLogo rows: {source}")
        w, c = timed(lambda: gobo.xlogo.evaluate_batch(rows))
        cw, cc = cli_batch(args.cli, ["xlogo", "eval"], rows, tmp)
        lines.append(f"| XLogo, gobo.xlogo.evaluate_batch | {len(rows)} | {w:.2f} | {len(rows)/w:,.0f} | {c:.2f} | {len(rows)/c:,.0f} | {cc/c:.2f}x |")
        lines.append(f"| XLogo, gobo xlogo eval --batch (CLI) | {len(rows)} | {cw:.2f} | {len(rows)/cw:,.0f} | {cc:.2f} | {len(rows)/cc:,.0f} | 1 |")
        drows, dataset, dsource = drawing_rows(args.rows)
        if drows:
            w, c = timed(lambda: gobo.draw.evaluate_batch(drows, dataset=dataset))
            cw, cc = cli_batch(args.cli, ["draw", "eval", "--dataset", str(dataset)], drows, tmp)
            lines.append(f"| DrawingBench ({dsource}), gobo.draw.evaluate_batch | {len(drows)} | {w:.2f} | {len(drows)/w:,.0f} | {c:.2f} | {len(drows)/c:,.0f} | {cc/c:.2f}x |")
            lines.append(f"| DrawingBench, gobo draw eval --batch (CLI) | {len(drows)} | {cw:.2f} | {len(drows)/cw:,.0f} | {cc:.2f} | {len(drows)/cc:,.0f} | 1 |")
        else:
            lines.append("| DrawingBench | skipped: ../shared/drawingbench not found | | | | | |")
        if not args.skip_ray:
            try:
                n, wall = ray_run(args.ray_rows, args.ray_cpus, tmp)
                lines.append(f"| XLogo through Ray Data (read_text → map_batches(evaluate_jsonl) → JSON Lines, {args.ray_cpus} CPUs) | {n} | {wall:.1f} | {n/wall:,.0f} | | | |")
            except ImportError as e:
                lines.append(f"| Ray Data | skipped: {e} | | | | | |")
        if args.xlogo_repo:
            lines.append("")
            lines.append("Python reference emulator (benches/reference/xlogo.py, 85 REAL tasks):")
            lines.append("    " + reference_xlogo(args.xlogo_repo))
        else:
            lines.append("")
            lines.append("Python reference emulator: skipped (give --xlogo-repo CHECKOUT)")
        lines.append("")
        lines.append(f"load average after: {load()}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
