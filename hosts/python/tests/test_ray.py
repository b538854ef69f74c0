"""Ray Data with a local Ray (2 CPUs) over 20,000 XLogo rows through examples/python/ray_xlogo.py:
every row evaluated exactly once, its line byte for byte `gobo xlogo eval --batch`'s line."""

import glob
import importlib.util
import json

import pytest

from conftest import REPO, write_jsonl
from rows import xlogo_rows

ray = pytest.importorskip("ray", reason="ray is not installed (pip install 'ray[data]')")


def load_example():
    spec = importlib.util.spec_from_file_location("ray_xlogo", REPO / "examples/python/ray_xlogo.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_ray_data_evaluates_every_row_once_as_the_cli_does(cli, tmp_path):
    rows = xlogo_rows(20_000)
    inp, cli_out, ray_out = tmp_path / "in.jsonl", tmp_path / "cli.jsonl", tmp_path / "ray"
    write_jsonl(inp, rows)
    cli.run("xlogo", "eval", "--batch", inp, "--out", cli_out, check=1)  # some rows fail: exit 1
    want = {json.loads(line)["id"]: line for line in cli_out.read_bytes().splitlines()}
    assert len(want) == len(rows)
    example = load_example()
    try:
        example.run(str(inp), str(ray_out), num_cpus=2)
    finally:
        ray.shutdown()
    got = [line for f in sorted(glob.glob(str(ray_out / "*.jsonl")))
           for line in open(f, "rb").read().splitlines()]
    ids = [json.loads(line)["id"] for line in got]
    assert len(ids) == len(set(ids)) == len(rows), "every row exactly once"
    assert set(ids) == set(want)
    differ = [i for i, line in zip(ids, got) if line != want[i]]
    assert not differ, f"{len(differ)} lines differ from the CLI's, e.g. id {differ[0]}"
    kinds = {json.loads(line)["error_type"] for line in got}
    assert {"OK", "GOAL_FAIL"} <= kinds, kinds
