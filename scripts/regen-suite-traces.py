#!/usr/bin/env python3
"""Records the reference traces that gobo's suite tests judge: for every example under
examples/scratch/<name>/ (project.json, broken.json, suite.json) and every case whose inputs
a recorded trace can replay (no direct writes), runs the reference VM (scratch-vm 5.0.300 in
Node, ../shared/refvm/trace.js) with the scenario of inputs the case sends, and writes
core/tests/fixtures/suite/<name>/<case-slug>.jsonl (and .broken.jsonl).

The scenario depends on what the project does (a wait until, an answer to a question), so it
is found by iteration: trace with the inputs known so far, replay the case on that trace with
`gobo test --print-scenario` (which lists the inputs the case sent and at which frames), and
repeat until the scenario no longer changes. The trace is then cut to the frames the case ran,
and fields no suite reads are dropped to keep the files small.

Usage: scripts/regen-suite-traces.py [NAME...]   (needs node, npm install in ../shared/refvm,
and a built gobo: cargo build -p gobo-cli). A regenerated trace needs a reason in its commit.
"""
import json
import math
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.join(HERE, "..")
SHARED = os.environ.get("GOBO_SHARED", os.path.join(REPO, "..", "shared"))
TRACE_JS = os.path.join(SHARED, "refvm", "trace.js")
GOBO = os.path.join(REPO, "target", "debug", "gobo")
OUT = os.path.join(REPO, "core", "tests", "fixtures", "suite")
DROP_FRAME = {"redraw", "timer", "answer", "clones"}
DROP_SPRITE = {"rot", "drag", "volume", "bubble"}


def slug(name):
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def replayable(case):
    return not any(s.get("do") in ("set_variable", "set_sprite") for s in case["steps"])


def trace(project, scenario, out):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(scenario, f)
    try:
        subprocess.run(["node", TRACE_JS, os.path.relpath(project, REPO), "--scenario", f.name, "--out", out],
                       check=True, cwd=REPO, stdout=subprocess.DEVNULL)
    finally:
        os.unlink(f.name)


def scenario_of(project, suite_path, case, trace_path):
    r = subprocess.run([GOBO, "test", project, suite_path, "--trace", "%s=%s" % (case, trace_path),
                        "--print-scenario"], capture_output=True, text=True, check=True)
    return json.loads(r.stdout)


def compact(src, dst, frames):
    keep = []
    with open(src) as f:
        for line in f:
            obj = json.loads(line)
            if "meta" in obj:
                obj["meta"].pop("project", None)
                keep.append(obj)
            elif "f" in obj and obj["f"] < frames:
                for k in DROP_FRAME:
                    obj.pop(k, None)
                obj.get("stage", {}).pop("effects", None)
                obj.get("stage", {}).pop("volume", None)
                obj.get("stage", {}).pop("tempo", None)
                for s in obj.get("sprites", []):
                    for k in DROP_SPRITE:
                        s.pop(k, None)
                    if not any(s.get("effects", {}).values()):
                        s.pop("effects", None)
                keep.append(obj)
    with open(dst, "w") as f:
        for obj in keep:
            f.write(json.dumps(obj, separators=(",", ":")) + "\n")


def record(name):
    d = os.path.join(REPO, "examples", "scratch", name)
    suite_path = os.path.join(d, "suite.json")
    suite = json.load(open(suite_path))
    fps = suite.get("fps", 30)
    os.makedirs(os.path.join(OUT, name), exist_ok=True)
    for case in suite["tests"]:
        if not replayable(case) or all("expect" in s for s in case["steps"]):
            continue
        budget = math.ceil(case.get("timeout", 60) * fps)
        for variant, suffix in (("project.json", ".jsonl"), ("broken.json", ".broken.jsonl")):
            project = os.path.join(d, variant)
            scenario = {"frames": budget, "seed": suite.get("seed", 0),
                        "events": [{"frame": 0, "action": "green_flag"}]}
            raw = os.path.join(OUT, name, slug(case["name"]) + suffix + ".raw")
            for _ in range(20):
                trace(project, scenario, raw)
                found = scenario_of(project, suite_path, case["name"], raw)
                if found["events"] == scenario["events"]:
                    break
                scenario = {"frames": budget, "seed": scenario["seed"], "events": found["events"]}
            else:
                sys.exit("%s / %s: the scenario did not settle" % (name, case["name"]))
            dst = os.path.join(OUT, name, slug(case["name"]) + suffix)
            compact(raw, dst, max(found["frames"], 1))
            os.unlink(raw)
            print("%s: %d frames, %d inputs" % (os.path.relpath(dst, REPO), found["frames"], len(found["events"])))


def main(names):
    if not os.path.exists(TRACE_JS):
        sys.exit("regen-suite-traces: %s not found (set GOBO_SHARED)" % TRACE_JS)
    ours = [n for n in names if n in ("keys", "quiz", "timing")] if names else []
    subprocess.run([sys.executable, os.path.join(HERE, "suite_examples.py")] + ours, check=True,
                   stdout=subprocess.DEVNULL)
    examples = os.path.join(REPO, "examples", "scratch")
    for name in names or sorted(os.listdir(examples)):
        # Only examples with a suite and a broken variant (others are plain example projects).
        if os.path.exists(os.path.join(examples, name, "suite.json")) and \
                os.path.exists(os.path.join(examples, name, "broken.json")):
            record(name)


if __name__ == "__main__":
    main(sys.argv[1:])
