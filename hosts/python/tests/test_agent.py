"""gobo.scratch.observe and gobo.scratch.Session against the CLI (`gobo observe`, `gobo act`)
on the same inputs: observations, replayed trajectories, forks and pickling."""

import json
import pickle

import gobo
from conftest import EXAMPLES, REPO

KEYS = EXAMPLES / "scratch" / "keys"
AGENT = REPO / "hosts/cli/tests/fixtures/agent"


def test_observe_is_the_clis_observe(cli):
    assert gobo.scratch.observe(KEYS) == cli.json("observe", KEYS, "--json")
    assert gobo.scratch.observe(KEYS, format="text") == cli.run("observe", KEYS, check=0).stdout
    sb = cli.run("observe", KEYS, "--format", "scratchblocks", check=0).stdout
    assert gobo.scratch.observe(gobo.scratch.Project(KEYS), format="scratchblocks") == sb
    full = cli.json("observe", KEYS, "--json", "--mode", "full", "--index", "id", "--target", "Stage")
    assert gobo.scratch.observe(KEYS, mode="full", index="id", target="Stage") == full
    proc = cli.run("observe", KEYS, "--target", "Nobody", check=2)
    try:
        gobo.scratch.observe(KEYS, target="Nobody")
        raise AssertionError("no error")
    except gobo.GoboError as e:
        assert (e.code, f"gobo: observe: {e}") == (2, proc.stderr.strip())


def game_actions():
    text = (AGENT / "game.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def strip(envelope):
    envelope = json.loads(json.dumps(envelope))
    envelope.get("meta", {}).pop("duration_ms", None)
    return envelope


def test_session_replays_the_clis_act(cli, tmp_path):
    start = AGENT / "start"
    out = tmp_path / "out.sb3"
    proc = cli.run("act", start, AGENT / "game.jsonl", "-o", out)
    want = [strip(json.loads(line)) for line in proc.stdout.splitlines()]
    s = gobo.scratch.Session(start)
    got = [strip(s.act(a)) for a in game_actions()]
    assert len(got) == len(want) == len(game_actions())
    assert got == want
    assert s.step == len(got)
    assert s.observe() == gobo.scratch.observe(json.loads(s.project_json()))


def test_session_forks_and_pickles_independently():
    actions = game_actions()
    half = len(actions) // 2
    s = gobo.scratch.Session(AGENT / "start", seed=3)
    for a in actions[:half]:
        s.act(a)
    f = s.fork()
    p = pickle.loads(pickle.dumps(s))
    assert p.step == f.step == s.step == half
    rest_s = [strip(s.act(a)) for a in actions[half:]]
    assert f.step == half and p.step == half  # the fork did not move with s
    assert [strip(f.act(a)) for a in actions[half:]] == rest_s
    assert [strip(p.act(a)) for a in actions[half:]] == rest_s
    assert p.project_json() == f.project_json() == s.project_json()


def test_a_bad_action_fails_with_its_code(cli, tmp_path):
    bad = {"api": "connect_blocks", "args": {"sourceBlockIndex": 999, "targetBlockIndex": 1}}
    lines = tmp_path / "bad.jsonl"
    lines.write_text(json.dumps(bad) + "\n")
    want = strip(json.loads(cli.run("act", KEYS, lines, check=1).stdout))
    got = strip(gobo.scratch.Session(KEYS).act(bad))
    assert got == want
    assert got["success"] is False and got["error"]["code"]


def test_an_invalid_result_is_refused_like_the_cli(cli, tmp_path):
    # Deleting a custom block definition (#1) while its call (#2) remains: INVALID_RESULT,
    # the same envelope as `gobo act`, and no step used.
    project = AGENT / "custom-block.json"
    actions = [
        {"api": "add_block", "args": {"blockType": "procedures_call"}},
        {"api": "delete_block", "args": {"blockIndex": 1}},
    ]
    lines = tmp_path / "custom.jsonl"
    lines.write_text("".join(json.dumps(a) + "\n" for a in actions))
    proc = cli.run("act", project, lines, "--mode", "full", check=1)
    want = [strip(json.loads(line)) for line in proc.stdout.splitlines()]
    s = gobo.scratch.Session(project, mode="full")
    got = [strip(s.act(a)) for a in actions]
    assert got == want
    assert got[1]["error"]["code"] == "INVALID_RESULT" and got[1]["meta"]["step"] == 1
    assert s.step == 1


def test_patch_invert_diff_are_the_clis(cli, tmp_path):
    broken, fixed = KEYS / "broken.json", KEYS / "project.json"
    want_patch = cli.json("patch", "diff", broken, fixed)
    d = gobo.scratch.diff(broken, fixed)
    assert d == {"ok": True, "patch": want_patch} and want_patch
    assert gobo.scratch.diff(broken, fixed, atoms=True) == {
        "ok": True, "atoms": cli.json("patch", "diff", broken, fixed, "--atoms")}
    patch_file = tmp_path / "fix.json"
    patch_file.write_text(json.dumps(want_patch))
    report = gobo.scratch.patch(broken, d["patch"])
    want = cli.json("patch", "apply", broken, patch_file, "--json")
    assert {k: v for k, v in report.items() if k != "project"} == want and want["ok"]
    assert gobo.scratch.diff(report["project"], fixed) == {"ok": True, "patch": []}
    out = tmp_path / "out.sb3"
    cli.run("patch", "apply", KEYS, patch_file, "-o", out, check=0)
    archive = gobo.scratch.patch(gobo.scratch.Project(KEYS), patch_file, output="sb3")
    assert archive["sb3"] == out.read_bytes() and "project" not in archive
    inverse = gobo.scratch.invert(broken, json.dumps(want_patch))
    assert inverse == {"ok": True, "inverse": cli.json("patch", "invert", broken, patch_file)}
    back = gobo.scratch.patch(report["project"], inverse["inverse"])
    assert gobo.scratch.diff(back["project"], broken) == {"ok": True, "patch": []}
    bad = [{"op": "modify", "sprite_id": "Cat", "block_id": "nope", "path": "inputs/DY", "value": "1"}]
    bad_file = tmp_path / "bad.json"
    bad_file.write_text(json.dumps(bad))
    failed = gobo.scratch.patch(broken, bad)
    assert failed == cli.json("patch", "apply", broken, bad_file, "--json", check=1) and not failed["ok"]
    assert gobo.scratch.invert(broken, bad)["ok"] is False
