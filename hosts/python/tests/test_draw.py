"""gobo.draw against the CLI (`gobo draw ...`) on the same inputs, against the published
evaluator's oracle rows (../shared/drawingbench/oracle-public.jsonl), errors."""

import json
from pathlib import Path

import pytest

import gobo
from conftest import EXAMPLES, need_shared, read_jsonl, write_jsonl

DR = EXAMPLES / "drawing"
TASK = DR / "red-circle.task.json"
ACTIONS = DR / "red_circle.json"


def test_evaluate_agrees_with_the_cli(cli):
    for profile in ("drawingbench-1.0", "paper"):
        want = cli.json("draw", "eval", "--task", TASK, "--profile", profile, ACTIONS)
        text = ACTIONS.read_text()
        task = json.loads(TASK.read_text())
        for got in (
            gobo.draw.evaluate(text, task, profile=profile),
            gobo.draw.evaluate(ACTIONS, TASK, profile=profile),
            gobo.draw.evaluate(json.loads(text), str(TASK), profile=profile),
            gobo.draw.evaluate(text.encode(), TASK.read_bytes(), profile=profile),
        ):
            assert got == want
    assert want["profile"] == "paper"


def test_text_that_is_not_json_is_scored_as_the_reference_does():
    got = gobo.draw.evaluate("I would draw a circle", TASK)
    assert got["score"] == 0.0
    assert got["parse_error"].startswith("JSONDecodeError")


def test_feedback_is_the_rows_feedback():
    row = gobo.draw.evaluate(ACTIONS.read_text(), TASK)
    fb = gobo.draw.feedback(ACTIONS.read_text(), TASK)
    assert fb["feedback"] == row["feedback_recon"]
    assert fb["text"] == row["feedback_recon_text"]
    assert fb["score"] == row["score"]
    assert fb["second_turn"] == gobo.draw.needs_second_turn(row["score"]) == (row["score"] < 0.9)
    poor = gobo.draw.feedback("[]", TASK)
    assert poor["second_turn"] is True and poor["feedback"]["errors"]
    # Where the reference raises there is no feedback.
    assert gobo.draw.feedback('["not an object"]', TASK) is None
    assert gobo.draw.final_score(0.5, 0.8) == 0.8
    assert gobo.draw.final_score(0.95, 0.1) == 0.95
    assert gobo.draw.final_score(0.5) == 0.5


def test_render_is_the_clis_png(cli, tmp_path):
    out = tmp_path / "d.png"
    cli.run("draw", "render", ACTIONS, "-o", out, check=0)
    png = gobo.draw.render(ACTIONS.read_text())
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and png == out.read_bytes()
    with pytest.raises(gobo.GoboError):
        gobo.draw.render("not actions")


def test_errors_carry_the_clis_code_and_message(cli, tmp_path):
    code, message = cli.error("draw", "eval", "--task", TASK, "--profile", "nope", ACTIONS)
    with pytest.raises(gobo.GoboError) as e:
        gobo.draw.evaluate(ACTIONS, TASK, profile="nope")
    assert (e.value.code, str(e.value), e.value.command) == (code, message, "draw")
    bad = tmp_path / "task.json"
    bad.write_text('{"criteria": {"min_segments": "many"}}')
    code, message = cli.error("draw", "eval", "--task", bad, ACTIONS)
    with pytest.raises(gobo.GoboError) as e:
        gobo.draw.evaluate(ACTIONS, bad)
    assert (e.value.code, str(e.value)) == (code, message)
    with pytest.raises(gobo.GoboError, match="out of range"):
        gobo.draw.evaluate("[]", task_index=5, dataset=b"[]")
    with pytest.raises(gobo.GoboError, match="pass task= or task_index="):
        gobo.draw.evaluate("[]")


def test_batch_rows_are_the_clis_rows(cli, tmp_path):
    task = json.loads(TASK.read_text())
    text = ACTIONS.read_text()
    rows = [
        {"id": 1, "task": task, "actions_raw": text},
        {"id": 2, "task": json.dumps(task), "actions_raw": "[]"},
        {"id": 3, "task": task, "actions": json.loads(text)},
        {"id": 4, "task": task, "actions_raw": 5},
        {"id": 5, "actions_raw": text},
        {"id": 6, "task": task, "actions_raw": "nonsense"},
    ]
    inp, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    write_jsonl(inp, rows)
    for profile in ("drawingbench-1.0", "paper"):
        cli.run("draw", "eval", "--batch", inp, "--out", out, "--profile", profile, check=1)  # some rows fail: exit 1
        want = read_jsonl(out)
        out.unlink()
        assert gobo.draw.evaluate_batch(rows, profile=profile) == want
        assert gobo.draw.evaluate_batch(rows, profile=profile, jobs=1) == want
    assert "error" in want[3] and "error" in want[4]


def test_json_lines_batch_is_the_clis_output_byte_for_byte(cli, tmp_path, monkeypatch):
    task = json.loads(TASK.read_text())
    rows = [{"id": 1, "task": task, "actions_raw": ACTIONS.read_text()},
            {"id": 2, "task": task, "actions_raw": "nonsense"}, {"id": 3, "actions_raw": "[]"}]
    text = "".join(json.dumps(r) + "\n" for r in rows) + "not json\n"
    inp, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    inp.write_text(text)
    cli.run("draw", "eval", "--batch", inp, "--out", out, check=1)  # some rows fail: exit 1
    want = out.read_bytes()
    assert gobo.draw.evaluate_jsonl(text.encode()) == want
    assert gobo.draw.evaluate_jsonl(text, jobs=1) == want
    assert [json.loads(line) for line in want.decode().splitlines()][:3] == gobo.draw.evaluate_batch(rows)
    monkeypatch.delenv("GOBO_DRAWINGBENCH_DATASET", raising=False)
    with pytest.raises(gobo.GoboError, match="task index needs the dataset"):
        gobo.draw.evaluate_jsonl(b'{"id": 1, "task_index": 0, "actions_raw": "[]"}\n', dataset=None)


def normalise(v):
    """The reference builds two lists from Python sets; compare them as sets."""
    if isinstance(v, dict):
        v = dict(v)
        for key in ("colors_exact_used", "colors_missing"):
            if isinstance(v.get(key), list):
                v[key] = sorted(v[key], key=json.dumps)
        return {k: normalise(x) for k, x in v.items()}
    return v


FIELDS = ["score", "errors", "warnings", "criteria_met", "metrics", "evaluation_rest",
          "feedback_recon", "feedback_recon_text", "exception"]


def test_batch_agrees_with_the_published_evaluator(cli, tmp_path):
    db = need_shared("drawingbench", "oracle-public.jsonl").parent
    oracle = read_jsonl(db / "oracle-public.jsonl")
    dataset = db / "dataset_consolidated.json"
    tasks = json.loads(dataset.read_text())
    tasks = tasks["prompts"] if isinstance(tasks, dict) else tasks
    rows = []
    for i, o in enumerate(oracle):
        row = {"id": i, "actions_raw": o["actions_raw"]}
        if "criteria_override" in o:
            row["task"] = {"criteria": o["criteria_override"]}
        else:
            row["task_index"] = o["task_index"]
        rows.append(row)
    got = gobo.draw.evaluate_batch(rows, dataset=dataset)
    agree = 0
    for o, g in zip(oracle, got):
        if all(normalise(o[f]) == normalise(g.get(f)) for f in FIELDS if f in o):
            agree += 1
    print(f"drawingbench-1.0 oracle via gobo.draw.evaluate_batch: {agree} / {len(oracle)}")
    assert agree == len(oracle)
    # The same rows through the CLI give the same bytes as dicts.
    sample = rows[:200]
    inp, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    write_jsonl(inp, sample)
    cli.run("draw", "eval", "--batch", inp, "--out", out, "--dataset", dataset, check=1)  # some rows are not scored: exit 1
    assert gobo.draw.evaluate_batch(sample, dataset=dataset.read_bytes()) == read_jsonl(out)
