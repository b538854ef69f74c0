"""gobo.scratch against the CLI (`gobo run`, `render`, `test`, `diff-trace`) on the same
inputs, errors and pickling."""

import json
import pickle
import zipfile

import pytest

import gobo
from conftest import EXAMPLES, REPO, read_jsonl, write_jsonl

SC = EXAMPLES / "scratch"
GUESS = SC / "guess"
QUIZ = SC / "quiz"


def cli_trace(cli, *args):
    return [json.loads(line) for line in cli.run("run", *args, "--trace", "-", check=0).stdout.splitlines()]


def test_run_trace_rows_are_the_clis_lines(cli):
    want = cli_trace(cli, GUESS, "--until-idle", "--seed", "7")
    got = gobo.scratch.run(str(GUESS), until_idle=True, seed=7)
    assert got == want
    assert list(got[0]) == ["meta"] and list(got[-1]) == ["end"]
    # Key order is the trace schema's (Python's json keeps it).
    assert list(got[1])[:3] == ["f", "t", "timer"]
    assert gobo.scratch.run(gobo.scratch.Project(GUESS), until_idle=True, seed=7) == want


def test_run_options_reach_the_vm(cli):
    args = ["--frames", "40", "--fps", "60", "--turbo", "--audio", "none", "--drag", "none",
            "--epoch", "2021-06-01T12:00:00Z"]
    want = cli_trace(cli, QUIZ / "project.json", *args)
    got = gobo.scratch.run(QUIZ / "project.json", frames=40, fps=60, turbo=True, audio="none",
                           drag="none", epoch="2021-06-01T12:00:00Z")
    assert got == want and len(got) == 42
    meta = got[0]["meta"]
    assert (meta["fps"], meta["turbo"], meta["audio"], meta["drag"]) == (60, True, "none", "none")


def test_run_summary_is_run_json(cli):
    want = cli.json("run", GUESS, "--until-idle", "--json")
    assert gobo.scratch.run(GUESS, until_idle=True, trace=False) == want
    assert set(want) == {"frames", "threads", "random_draws"}


def test_project_from_bytes_and_dicts(cli, tmp_path):
    sb3 = tmp_path / "quiz.sb3"
    with zipfile.ZipFile(sb3, "w") as z:
        z.write(QUIZ / "project.json", "project.json")
    want = cli_trace(cli, sb3, "--frames", "30")
    by_bytes = gobo.scratch.run(sb3.read_bytes(), frames=30)
    # Same frames; the meta line names the project as given and hashes the same bytes.
    assert by_bytes[1:] == want[1:]
    assert by_bytes[0]["meta"]["md5"] == want[0]["meta"]["md5"]
    by_dict = gobo.scratch.run(json.loads((QUIZ / "project.json").read_text()), frames=30)
    assert by_dict[1:] == want[1:]
    p = gobo.scratch.Project(sb3)
    assert p.targets[0] == "Stage" and p.name == str(sb3) and p.md5 == want[0]["meta"]["md5"]
    assert isinstance(p.warnings, list)


def test_project_pickles_to_the_same_program():
    p = gobo.scratch.Project(QUIZ)
    back = pickle.loads(pickle.dumps(p))
    assert (back.name, back.md5, back.targets, back.warnings) == (p.name, p.md5, p.targets, p.warnings)
    assert gobo.scratch.run(back, frames=60) == gobo.scratch.run(p, frames=60)
    with pytest.raises(ValueError):
        gobo.scratch.Project._from_state(b"\x00garbage")


def test_scenario_forms(cli, tmp_path):
    scenario = {"frames": 40, "seed": 3, "events": [
        {"frame": 0, "action": "green_flag"},
        {"frame": 20, "action": "answer", "text": "Ada"},
        {"frame": 25, "action": "key_down", "key": "space"},
    ]}
    path = tmp_path / "sc.json"
    path.write_text(json.dumps(scenario))
    want = cli_trace(cli, QUIZ, "--scenario", path)
    assert len(want) == 42
    assert gobo.scratch.run(QUIZ, path) == want
    assert gobo.scratch.run(QUIZ, scenario)[1:] == want[1:]
    assert gobo.scratch.run(QUIZ, json.dumps(scenario).encode())[1:] == want[1:]


def test_render_is_the_clis_png(cli, tmp_path):
    out = tmp_path / "s.png"
    cli.run("render", QUIZ, "--frame", "10", "-o", out, check=0)
    png = gobo.scratch.render(QUIZ, frame=10)
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and png == out.read_bytes()
    cli.run("render", QUIZ, "--frame", "3", "-o", out, "--scale", "2", check=0)
    assert gobo.scratch.render(QUIZ, frame=3, scale=2) == out.read_bytes()
    d = tmp_path / "frames"
    cli.run("render", QUIZ, "--png-at", "0,5,9", "--png-dir", d, "--size", "240x180", check=0)
    got = gobo.scratch.render_frames(QUIZ, [0, 5, 9], width=240, height=180)
    assert sorted(got) == [0, 5, 9]
    for f, png in got.items():
        assert png == (d / f"frame-{f:05}.png").read_bytes()
    with pytest.raises(gobo.GoboError):
        gobo.scratch.render(QUIZ, width=0)
    with pytest.raises(gobo.GoboError):
        gobo.scratch.render(QUIZ, scale=9)


def test_suites_agree_with_the_cli(cli):
    for project, code in ((QUIZ / "project.json", 0), (QUIZ / "broken.json", 1)):
        want = cli.json("test", project, QUIZ / "suite.json", "--json", check=code)
        got = gobo.scratch.test(project, QUIZ / "suite.json")
        assert got == want
        assert got["success"] is (code == 0)
    suite = json.loads((QUIZ / "suite.json").read_text())
    assert gobo.scratch.test(gobo.scratch.Project(QUIZ), suite) == gobo.scratch.test(QUIZ, QUIZ / "suite.json")


def test_seeds_agree_with_the_cli(cli):
    want = cli.json("test", SC / "timing" / "broken.json", SC / "timing" / "suite.json",
                    "--seeds", "3", "--json", check=None)
    for seeds in (3, "1..3", [1, 2, 3], range(1, 4)):
        got = gobo.scratch.test(SC / "timing" / "broken.json", SC / "timing" / "suite.json", seeds=seeds)
        assert got == want
    with pytest.raises(gobo.GoboError) as e:
        gobo.scratch.test(QUIZ, QUIZ / "suite.json", seeds="5..1")
    code, message = cli.error("test", QUIZ, QUIZ / "suite.json", "--seeds", "5..1")
    assert (e.value.code, str(e.value)) == (code, message)


def test_traces_judge_recorded_runs(cli, tmp_path):
    suite = json.loads((QUIZ / "suite.json").read_text())
    case = suite["tests"][0]["name"]
    trace = gobo.scratch.run(QUIZ, frames=200)
    path = tmp_path / "t.jsonl"
    write_jsonl(path, trace)
    want = cli.json("test", QUIZ, QUIZ / "suite.json", "--trace", f"{case}={path}", "--json", check=None)
    assert gobo.scratch.test(QUIZ, QUIZ / "suite.json", traces={case: path}) == want
    assert gobo.scratch.test(QUIZ, QUIZ / "suite.json", traces={case: trace}) == want
    with pytest.raises(gobo.GoboError, match="names no case"):
        gobo.scratch.test(QUIZ, QUIZ / "suite.json", traces={"no such case": trace})


def test_diff_trace_agrees_with_the_cli(cli, tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    ta = gobo.scratch.run(GUESS, until_idle=True, seed=1)
    tb = gobo.scratch.run(GUESS, until_idle=True, seed=2)
    write_jsonl(a, ta)
    write_jsonl(b, tb)
    want = cli.json("diff-trace", a, b, "--json", check=1)
    assert gobo.scratch.diff_trace(a, b) == want
    assert gobo.scratch.diff_trace(ta, tb) == want
    assert want["identical"] is False
    want = cli.json("diff-trace", a, b, "--json", "--signals", "vars,says", "--tolerance", "0.5", check=None)
    assert gobo.scratch.diff_trace(a, b, signals=["vars", "says"], tolerance=0.5) == want
    assert gobo.scratch.diff_trace(ta, ta)["identical"] is True
    want = cli.json("diff-trace", a, b, "--json", "--signals", "scratcheval", "--every", "10", check=None)
    assert gobo.scratch.diff_trace(a, b, signals=["scratcheval"], every=10) == want
    assert "says" not in want["signals"] and "vars" in want["signals"]
    with pytest.raises(gobo.GoboError, match="unknown signal"):
        gobo.scratch.diff_trace(a, b, signals=["smell"])


def test_errors_carry_the_clis_code_and_message(cli, tmp_path):
    missing = tmp_path / "missing.sb3"
    code, message = cli.error("run", missing)
    with pytest.raises(gobo.GoboError) as e:
        gobo.scratch.run(missing)
    assert (e.value.code, str(e.value), e.value.command) == (code, message, "run")
    bad = tmp_path / "project.json"
    bad.write_text('{"targets": 5}')
    code, message = cli.error("run", bad)
    with pytest.raises(gobo.GoboError) as e:
        gobo.scratch.Project(bad)
    assert (e.value.code, str(e.value)) == (code, message)
    code, message = cli.error("run", QUIZ, "--epoch", "yesterday")
    with pytest.raises(gobo.GoboError) as e:
        gobo.scratch.run(QUIZ, epoch="yesterday")
    assert (e.value.code, str(e.value)) == (code, message)
    with pytest.raises(gobo.GoboError, match="expected none or timed"):
        gobo.scratch.run(QUIZ, audio="loud")
    with pytest.raises(gobo.GoboError, match="30..=60"):
        gobo.scratch.run(QUIZ, fps=5)
    with pytest.raises(gobo.GoboError):
        gobo.scratch.run(b"PK\x03\x04 not a zip")
    with pytest.raises(TypeError):
        gobo.scratch.run(3.5)
    path = tmp_path / "bad-scenario.json"
    path.write_text('[{"frame": 0, "action": "dance"}]')
    code, message = cli.error("run", QUIZ, "--scenario", path)
    with pytest.raises(gobo.GoboError) as e:
        gobo.scratch.run(QUIZ, path)
    assert (e.value.code, str(e.value)) == (code, message)


def test_validate_is_the_clis_validate(cli, tmp_path):
    base = REPO / "core/tests/fixtures/edit/base.json"
    want = cli.json("validate", base, "--json", check=1)  # two missing costumes: exit 1
    assert gobo.scratch.validate(base) == want
    assert gobo.scratch.validate(base.read_bytes()) == want
    assert want["findings"][0]["code"] == "MISSING_ASSET" and not want["valid"]
    assert gobo.scratch.validate(base, assets=False) == cli.json("validate", base, "--no-assets", "--json")
    keys = EXAMPLES / "scratch" / "keys"
    assert gobo.scratch.validate(gobo.scratch.Project(keys)) == cli.json("validate", keys, "--json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"targets": 3}')
    proc = cli.run("validate", bad, check=2)
    with pytest.raises(gobo.GoboError) as e:
        gobo.scratch.validate(bad)
    assert (e.value.code, f"gobo: {e.value}") == (2, proc.stderr.strip())  # the CLI prints "gobo: PATH: ..."
