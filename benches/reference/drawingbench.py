#!/usr/bin/env python3
"""Times the public DrawingBench evaluator (hyunjun1121/DrawingBench, `src/evaluator.py`,
class `DrawingEvaluator`) on the recorded action sequences: evaluations/s of
`evaluate(actions, None, criteria=prompt["criteria"])` over every recorded turn (308), the call
convention of the recorded run (../shared/drawingbench/SEMANTICS.md §1).

    python3 benches/reference/drawingbench.py --repo CHECKOUT [--shared ../shared/drawingbench]
        [--runs 5] [--min-seconds 0.5]

The evaluator is imported from the checkout (it needs numpy and pillow in the interpreter
running this script) with its configuration `docs/UI_CONFIG.json`. Nothing of it is vendored.
The run is `checked` when every recomputed score equals the recorded one.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import pyrunner  # noqa: E402

WORKLOAD = "drawingbench_recorded"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = pyrunner.parser(__doc__.splitlines()[0])
    p.add_argument("--repo", required=False, help="checkout of DrawingBench")
    p.add_argument("--shared", default=os.path.join(here, "..", "..", "..", "shared", "drawingbench"))
    args = p.parse_args()
    if not pyrunner.wanted(args, WORKLOAD):
        return
    if not args.repo or not os.path.isfile(os.path.join(args.repo, "src", "evaluator.py")):
        pyrunner.not_installed("drawingbench.py", "no DrawingBench checkout (give --repo DIR)")
    recorded = os.path.join(args.shared, "recorded_batch_results_all_all.json")
    dataset = os.path.join(args.shared, "dataset_consolidated.json")
    for f in (recorded, dataset):
        if not os.path.isfile(f):
            pyrunner.not_installed("drawingbench.py", "missing %s" % f)
    sys.path.insert(0, os.path.join(os.path.abspath(args.repo), "src"))
    try:
        from evaluator import DrawingEvaluator
    except ImportError as e:
        pyrunner.not_installed("drawingbench.py", "cannot import the evaluator (%s)" % e)

    evaluator = DrawingEvaluator(config_path=os.path.join(args.repo, "docs", "UI_CONFIG.json"))
    with open(dataset, encoding="utf-8") as f:
        prompts = json.load(f)["prompts"]
    with open(recorded, encoding="utf-8") as f:
        records = json.load(f)
    # Records and prompts pair up by position: three ids occur twice in both files.
    cases = []
    for rec, prompt in zip(records, prompts):
        for turn in rec["results"]:
            cases.append((turn["actions"], prompt.get("criteria"), turn["evaluation"].get("score")))

    def mismatches():
        return [i for i, (a, c, want) in enumerate(cases)
                if evaluator.evaluate(a, None, criteria=c).get("score") != want]

    before = mismatches()
    unpaired = [r["id"] for r, q in zip(records, prompts) if r["id"] != q["id"]]

    def one_pass():
        for actions, crit, _ in cases:
            evaluator.evaluate(actions, None, criteria=crit)

    rates, per_pass = pyrunner.time_passes(one_pass, len(cases), args.runs, args.min_seconds)
    after = mismatches()
    note = None
    if before or after:
        note = "%d of %d recomputed scores differ from the recorded ones" % (max(len(before), len(after)), len(cases))
    if unpaired or len(records) != len(prompts):
        note = "records and prompts do not pair up by position (%s)" % unpaired[:3]
    pyrunner.emit("DrawingBench evaluator", WORKLOAD, rates, per_pass, len(cases), not note, note)


if __name__ == "__main__":
    main()
