#!/usr/bin/env python3
"""Times the public XLogo-Mini emulator (machine-teaching-group/aied2024-xlogo-tasksyn) on the
85 REAL tasks with their reference solutions: evaluations/s of its `execute(task, code)`,
which builds the world, goal and constraints from the task JSON, runs the code and checks
goal and constraints (the same work gobo's evaluation does).

    python3 benches/reference/xlogo.py --repo CHECKOUT [--tasks ../shared/xlogo/real_tasks.jsonl]
        [--runs 5] [--min-seconds 0.5]

The checkout is imported from the given path (its root goes on sys.path, as its own scripts
expect: `src.xlogomini...`); it needs numpy, pandas, networkx, sympy, z3-solver and zss in
the interpreter running this script. Nothing of it is vendored. The run is `checked` when
every reference solution succeeds (not crashed, goal and constraints met), as the oracle says.
"""
import copy
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import pyrunner  # noqa: E402

WORKLOAD = "xlogo_real"


def main():
    p = pyrunner.parser(__doc__.splitlines()[0])
    p.add_argument("--repo", required=False, help="checkout of aied2024-xlogo-tasksyn")
    p.add_argument("--tasks", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                   "..", "..", "..", "shared", "xlogo", "real_tasks.jsonl"))
    args = p.parse_args()
    if not pyrunner.wanted(args, WORKLOAD):
        return
    if not args.repo or not os.path.isfile(os.path.join(args.repo, "src", "xlogomini", "emulator", "executor.py")):
        pyrunner.not_installed("xlogo.py", "no aied2024-xlogo-tasksyn checkout (give --repo DIR)")
    if not os.path.isfile(args.tasks):
        pyrunner.not_installed("xlogo.py", "no REAL tasks file %s" % args.tasks)
    sys.path.insert(0, os.path.abspath(args.repo))
    try:
        from src.xlogomini.emulator.executor import execute
    except ImportError as e:
        pyrunner.not_installed("xlogo.py", "cannot import the emulator (%s)" % e)

    with open(args.tasks, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    cases = [(r["task"], r["reference_code"]) for r in rows]

    # The oracle check, on copies (execute must not depend on earlier calls).
    failures = []
    for r, (task, code) in zip(rows, cases):
        res = execute(copy.deepcopy(task), copy.deepcopy(code))
        if res["crashed"] or not res["goal_ok"] or not res["cons_ok"]:
            failures.append(r["task_id"])

    def one_pass():
        for task, code in cases:
            execute(task, code)

    rates, per_pass = pyrunner.time_passes(one_pass, len(cases), args.runs, args.min_seconds)
    # The same check after the timed passes: the inputs were not changed by being evaluated.
    after = [r["task_id"] for r, (t, c) in zip(rows, cases)
             if (lambda res: res["crashed"] or not res["goal_ok"] or not res["cons_ok"])(execute(t, c))]
    note = None
    if failures or after != failures:
        note = "reference solutions failing: %s (after timing: %s)" % (failures, after)
    pyrunner.emit("XLogo aied2024 emulator", WORKLOAD, rates, per_pass, len(cases), not note, note)


if __name__ == "__main__":
    main()
