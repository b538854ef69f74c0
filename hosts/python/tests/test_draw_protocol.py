"""gobo.draw.episode, gobo.draw.report and gobo.scratch.drift against the CLI on the same
inputs: `gobo draw episode --json` (and its canvases), `gobo draw report --json` over
`gobo draw episode --batch` rows, and `gobo diff-trace --every 10 --signals scratcheval --json`
over two `gobo run --trace` traces."""

import json

import pytest

import gobo
from conftest import EXAMPLES, write_jsonl

DR = EXAMPLES / "drawing"
EPISODE = DR / "red-circle.episode.json"
KEYS = EXAMPLES / "scratch" / "keys" / "project.json"


def test_episode_agrees_with_the_cli(cli):
    want = cli.json("draw", "episode", EPISODE, "--json")
    doc = json.loads(EPISODE.read_text())
    for got in (
        gobo.draw.episode(doc),
        gobo.draw.episode(EPISODE),
        gobo.draw.episode(EPISODE.read_text()),
        gobo.draw.episode(EPISODE.read_bytes()),
    ):
        assert got == want
    assert want["turns_run"] == 2 and want["stopped"] == "threshold"
    # Defaults from the keywords: three turns and a threshold the first turn does not reach.
    one = dict(doc, turns=doc["turns"][:1])
    got = gobo.draw.episode(one, max_turns=3, stop_at=0.95)
    assert got == cli.json("draw", "episode", "--max-turns", "3", "--stop-at", "0.95", "--json",
                           _write(one))
    assert got["needs_next_turn"] is True and got["next_turn"] == 2


def _write(doc, _n=[0]):
    import tempfile
    from pathlib import Path

    _n[0] += 1
    path = Path(tempfile.mkdtemp()) / f"doc{_n[0]}.json"
    path.write_text(json.dumps(doc))
    return path


def test_episode_canvases_are_the_clis_pngs(cli, tmp_path):
    cli.run("draw", "episode", EPISODE, "--png-dir", tmp_path, "--json", check=0)
    got = gobo.draw.episode(EPISODE, render=True)
    for turn in got["turns"]:
        assert turn["canvas_png"] == (tmp_path / f"turn-{turn['turn']}.png").read_bytes()
    assert gobo.draw.episode({"task": {"min_segments": 1}, "turns": ["no"]}, render=True)[
        "turns"][0]["canvas_png"] is None


def test_episode_errors():
    with pytest.raises(gobo.GoboError, match="turns"):
        gobo.draw.episode({"task": {"min_segments": 1}, "turns": []})
    with pytest.raises(gobo.GoboError, match="max_turns"):
        gobo.draw.episode(EPISODE, max_turns=0)
    with pytest.raises(gobo.GoboError, match="profile"):
        gobo.draw.episode(EPISODE, profile="nope")


def test_report_agrees_with_the_cli(cli, tmp_path):
    doc = json.loads(EPISODE.read_text())
    inputs = [doc, dict(doc, id="one", turns=doc["turns"][:1], difficulty="easy", model="m")]
    write_jsonl(tmp_path / "in.jsonl", inputs)
    cli.run("draw", "episode", "--batch", tmp_path / "in.jsonl", "--out", tmp_path / "out.jsonl",
            check=0)
    want = cli.json("draw", "report", tmp_path / "out.jsonl", "--json")
    rows = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert gobo.draw.report(rows) == want
    assert want["overall"]["episodes"] == 2 and want["by_model"][0]["name"] == "m"
    with pytest.raises(gobo.GoboError):
        gobo.draw.report([])


def test_drift_agrees_with_the_cli(cli, tmp_path):
    gold = KEYS.read_text()
    at = gold.index('"motion_gotoxy"')
    zero = gold.index('"0"', at)
    moved = tmp_path / "moved.json"
    moved.write_text(gold[:zero] + '"60"' + gold[zero + 3:])
    traces = []
    for project in (KEYS, moved):
        out = tmp_path / f"{len(traces)}.jsonl"
        cli.run("run", project, "--frames", "40", "--trace", out, check=0)
        traces.append(out)
    want = cli.json("diff-trace", *traces, "--every", "10", "--signals", "scratcheval", "--json",
                    check=1)
    got = gobo.scratch.drift(KEYS, moved, frames=40)
    assert got == want
    assert got["drift"] > 0 and got["first_divergence"]["frame"] == 0
    same = gobo.scratch.drift(KEYS, KEYS, frames=40)
    assert same["identical"] is True and same["drift"] == 0.0
    want = cli.json("diff-trace", *traces, "--every", "0", "--signals", "all", "--json", check=1)
    assert gobo.scratch.drift(KEYS, moved, frames=40, every=0, signals=["all"]) == want
    with pytest.raises(gobo.GoboError):
        gobo.scratch.drift(KEYS, moved, signals=["nope"])
