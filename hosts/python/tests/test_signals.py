"""gobo.scratch.probe, verify, hooks, record, lint and suite_check, and gobo.xlogo.classify, perturb, resample and
report, against the CLI (`gobo probe|verify|hooks|record`, `gobo xlogo
classify|perturb|resample|report`, `gobo lint`, `gobo suite-check`) on the same inputs: the same documents (wall/CPU ``time``
aside) and the same picture bytes."""

import json

import pytest

import gobo
from conftest import EXAMPLES, REPO

CLICKER = REPO / "tests-support" / "forge-corpus" / "clicker"
SUITE = REPO / "hosts" / "cli" / "tests" / "fixtures" / "signals" / "clicker.suite.json"
XLOGO = EXAMPLES / "xlogo"


def untimed(doc):
    return {k: v for k, v in doc.items() if k != "time"}


def broken_clicker():
    """The clicker whose click adds 0 (block Cob7), as project.json bytes (no assets)."""
    doc = json.loads((CLICKER / "project.json").read_text())
    for target in doc["targets"]:
        if "Cob7" in target["blocks"]:
            target["blocks"]["Cob7"]["inputs"]["VALUE"][1][1] = "0"
    return json.dumps(doc).encode()


def test_probe_and_verify_are_the_clis(cli, tmp_path):
    buggy = tmp_path / "buggy"
    buggy.mkdir()
    (buggy / "project.json").write_bytes(broken_clicker())
    want = cli.json("probe", buggy, "--gold", CLICKER, "--suite", SUITE, "--json")
    got = gobo.scratch.probe(buggy, CLICKER, SUITE)
    assert untimed(got) == untimed(want)
    assert got["level"] >= 1 and got["buggy_pass_rate"] < got["gold_pass_rate"] == 1.0
    assert set(got["time"]) == {"wall_ms", "cpu_ms"}
    same = gobo.scratch.probe(CLICKER, CLICKER, json.loads(SUITE.read_text()))
    assert same["level"] == 0 and same["pass_gap"] == 0

    passed = gobo.scratch.verify(CLICKER, SUITE)
    assert untimed(passed) == untimed(cli.json("verify", CLICKER, "--suite", SUITE, "--json"))
    assert passed["passed"] is True and len(passed["stages"]) == 3
    failed = gobo.scratch.verify(buggy, SUITE, level=1)
    assert untimed(failed) == untimed(
        cli.json("verify", buggy, "--suite", SUITE, "--level", "1", "--json", check=1)
    )
    assert failed["passed"] is False
    unloadable = gobo.scratch.verify(b'{"targets": [', SUITE)
    assert unloadable["passed"] is False and unloadable["stages"][0]["reason"]
    with pytest.raises(gobo.GoboError) as e:
        gobo.scratch.verify(CLICKER, b"not json")
    assert e.value.code == 2


def test_hooks_are_the_clis(cli):
    got = gobo.scratch.hooks(CLICKER)
    assert got == cli.json("hooks", CLICKER, "--json")
    assert any(h["trigger"] == "green_flag" for h in got["hooks"])


def test_record_writes_the_clis_files(cli, tmp_path):
    out = tmp_path / "rec"
    want = cli.json("record", CLICKER, "--frames", "30", "--every", "5", "-o", out, "--json")
    got = gobo.scratch.record(CLICKER, frames=30, every=5)
    files = got.pop("files")
    assert untimed(got) == untimed(want)
    assert sorted(files) == sorted(p.name for p in out.iterdir() if p.name != "manifest.json")
    for name, data in files.items():
        assert data == (out / name).read_bytes(), name
    assert len(got["samples"]) == 6 and files["clip.png"].startswith(b"\x89PNG")
    side = gobo.scratch.record(CLICKER, frames=30, every=5, gold=CLICKER)
    assert side["side_by_side"] is True and side["width"] > got["width"]
    with pytest.raises(gobo.GoboError, match="every"):
        gobo.scratch.record(CLICKER, every=0)


def xlogo_rows():
    find = json.loads((XLOGO / "find-strawberry.json").read_text())
    draw = json.loads((XLOGO / "draw-square.json").read_text())
    find_ref = (XLOGO / "find-strawberry.py").read_text()
    draw_ref = json.loads((XLOGO / "draw-square.ast.json").read_text())
    tasks = [
        {"task_id": "find", "task": find, "reference_code": find_ref},
        {"task_id": "draw", "task": draw, "reference_code": draw_ref},
    ]
    answers = [
        {"id": "find", "task": find, "code": find_ref},
        {"id": "draw", "task": draw, "code": {"run": [{"type": "fd"}]}},
        {"id": "other", "task": find, "code": "def run(:\n"},
    ]
    return tasks, answers


def test_xlogo_analyses_are_the_clis(cli, tmp_path):
    tasks, answers = xlogo_rows()
    task_file = tmp_path / "find.json"
    task_file.write_text(json.dumps(tasks[0]))
    want = cli.json("xlogo", "classify", task_file, "--json")
    assert gobo.xlogo.classify(tasks[0]) == want == gobo.xlogo.classify(task_file)
    bare = gobo.xlogo.classify(XLOGO / "find-strawberry.json")
    with_code = gobo.xlogo.classify(XLOGO / "find-strawberry.json", (XLOGO / "find-strawberry.py").read_text())
    assert with_code == want and bare != want

    lines = cli.run("xlogo", "perturb", task_file, "--json", check=0).stdout.splitlines()
    perturbed = gobo.xlogo.perturb(tasks[0])
    assert perturbed == [json.loads(line) for line in lines] and len(perturbed) == 8
    assert [p["subset"] for p in gobo.xlogo.perturb(tasks[0], subsets=["AB"])] == ["T_AB"]

    verdicts = gobo.xlogo.evaluate_batch(answers)
    rows, task_rows = tmp_path / "rows.jsonl", tmp_path / "tasks.jsonl"
    rows.write_text("".join(json.dumps(r) + "\n" for r in verdicts))
    task_rows.write_text("".join(json.dumps(t) + "\n" for t in tasks))
    report = gobo.xlogo.report(verdicts, tasks)
    want = cli.json("xlogo", "report", rows, "--tasks", task_rows, "--json")
    assert report.pop("unreadable_tasks") == 0 and report == want
    drawn = gobo.xlogo.resample(verdicts, beta=3.0, size=50, seed=7)
    want = cli.json("xlogo", "resample", rows, "--beta", "3", "--size", "50", "--seed", "7", "--json")
    assert drawn == want and len(drawn["sample"]) == 50

    with pytest.raises(gobo.GoboError, match="no rows"):
        gobo.xlogo.report([])
    with pytest.raises(gobo.GoboError, match="beta"):
        gobo.xlogo.resample(verdicts, beta=-1)
    with pytest.raises(gobo.GoboError, match="subset"):
        gobo.xlogo.perturb(tasks[0], subsets=["Z"])


LINT = REPO / "hosts" / "cli" / "tests" / "fixtures" / "lint"
CHECK = REPO / "tests-support" / "suite-check" / "clicker"


def test_lint_and_suite_check_are_the_clis(cli):
    clean = gobo.scratch.lint(LINT / "base.json")
    assert clean == cli.json("lint", LINT / "base.json", "--json") and clean["findings"] == []
    patched = gobo.scratch.lint(LINT / "patched.json", base=LINT / "base.json")
    want = cli.json("lint", LINT / "patched.json", "--base", LINT / "base.json", "--json", check=1)
    assert patched == want and patched["findings"]

    golds, negs = [str(CLICKER)], [str(CHECK / "double"), str(CHECK / "late-level")]
    got = gobo.scratch.suite_check(CHECK / "suite.json", golds, negs, seeds="1..2")
    want = cli.json("suite-check", CHECK / "suite.json", "--pass", *golds, "--fail", *negs,
                    "--seeds", "1..2", "--json")
    assert got.pop("warnings") == [] and got == want and got["adequate"] is True
    missed = gobo.scratch.suite_check(CHECK / "suite.json", golds, [str(CHECK / "stays-small")], seeds=[1])
    assert missed["adequate"] is False and missed["negatives"][0]["caught"] is False
    with pytest.raises(gobo.GoboError):
        gobo.scratch.suite_check(b"not json", golds, negs)
