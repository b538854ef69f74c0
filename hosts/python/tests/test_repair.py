"""gobo.scratch.edit_distance, scenarios, oracle, forge and bug_sites against the CLI (`gobo
edit-distance`, `gobo scenarios`, `gobo oracle`, `gobo forge`) on the same inputs: the same
documents (the CLI's wall/CPU ``time`` aside) and the same buggy ``.sb3`` bytes."""

import json

import pytest

import gobo
from conftest import EXAMPLES, REPO

SCENES = REPO / "tests-support" / "forge-corpus" / "scenes"
KEYS = EXAMPLES / "scratch" / "keys"
QUICK = ["--ticks", "300", "--reruns", "3"]


def untimed(doc):
    return {k: v for k, v in doc.items() if k != "time"}


def test_edit_distance_is_the_clis(cli, tmp_path):
    broken, fixed = KEYS / "broken.json", KEYS / "project.json"
    want = cli.json("edit-distance", "--base", broken, "--gold", fixed, "--candidate", fixed, "--json")
    got = gobo.scratch.edit_distance(broken, fixed, fixed)
    assert got == want and got["d_edit"] == 0
    unfixed = gobo.scratch.edit_distance(broken, fixed, broken)
    assert unfixed["d_edit"] > 0 and unfixed["missing"]


def test_scenarios_and_sites(cli):
    want = cli.json("scenarios", SCENES, "--ticks", "300", "--json")
    got = gobo.scratch.scenarios(SCENES, ticks=300)
    assert got == want and got["meta"]["messages"] and got["cases"]
    sites = gobo.scratch.bug_sites(SCENES, pattern="desynchronization")
    assert sites["patterns"] == ["desynchronization"] and sites["sites"]
    ranks = [s["rank"] for s in sites["sites"]]
    assert ranks == sorted(ranks)
    every = gobo.scratch.bug_sites(SCENES)
    assert "desynchronization" in every["patterns"] and len(every["sites"]) >= len(sites["sites"])


def test_forge_and_oracle_are_the_clis(cli, tmp_path):
    out = tmp_path / "bug"
    want = cli.json("forge", SCENES, "--pattern", "desynchronization", *QUICK, "-o", out, "--json")
    got = gobo.scratch.forge(SCENES, pattern="desynchronization", ticks=300, reruns=3)
    assert got["success"] is True
    buggy = got.pop("buggy_sb3")
    suite = got.pop("suite")
    assert got == untimed(want)
    assert buggy == (out / "buggy.sb3").read_bytes()
    assert suite == json.loads((out / "suite.json").read_text())
    assert got["record"]["ground_truth"]["inverse"] == json.loads((out / "inverse.json").read_text())
    # The inverse patch restores the gold scripts exactly.
    fixed = gobo.scratch.patch(buggy, got["record"]["ground_truth"]["inverse"], assets=False)
    assert fixed["ok"] and gobo.scratch.diff(fixed["project"], SCENES) == {"ok": True, "patch": []}

    want = cli.json("oracle", SCENES, out / "buggy.sb3", *QUICK, "--json")
    syn = gobo.scratch.oracle(SCENES, buggy, ticks=300, reruns=3)
    assert syn == untimed(want) and syn["accepted"] is True
    cases = tmp_path / "cases.json"
    cli.run("scenarios", SCENES, "--ticks", "300", "-o", cases, check=0)
    assert gobo.scratch.oracle(SCENES, buggy, cases=cases, ticks=300, reruns=3)["accepted"] is True


def test_bad_arguments_raise_the_clis_errors(cli):
    with pytest.raises(gobo.GoboError) as e:
        gobo.scratch.forge(SCENES, pattern="no-such")
    assert e.value.code == 2 and "unknown pattern" in str(e.value)
    code, message = cli.error("forge", SCENES, "--pattern", "no-such", "-o", "/tmp/unused")
    assert code == 2 and "unknown pattern 'no-such'" in message
    with pytest.raises(gobo.GoboError, match="not both"):
        gobo.scratch.forge(SCENES, pattern="desynchronization", operator="sync.nowait")
    with pytest.raises(gobo.GoboError, match="reruns"):
        gobo.scratch.oracle(SCENES, SCENES, reruns=0)
    with pytest.raises(gobo.GoboError):
        gobo.scratch.scenarios(SCENES, templates="nope")
    with pytest.raises(gobo.GoboError):
        gobo.scratch.edit_distance(b"not a project", KEYS, KEYS)
