"""Ray Data with a local Ray (2 CPUs) over 20,000 XLogo rows through examples/python/ray_xlogo.py:
every row evaluated exactly once and equal to `gobo xlogo eval --batch`'s row."""

import glob
import importlib.util
import json

import pytest

from conftest import REPO, read_jsonl, write_jsonl
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
    want = {row["id"]: row for row in read_jsonl(cli_out)}
    assert len(want) == len(rows)
    example = load_example()
    try:
        example.run(str(inp), str(ray_out), num_cpus=2)
    finally:
        ray.shutdown()
    got = [json.loads(line) for f in sorted(glob.glob(str(ray_out / "*.json")))
           for line in open(f, encoding="utf-8")]
    ids = [row["id"] for row in got]
    assert len(ids) == len(set(ids)) == len(rows), "every row exactly once"
    assert set(ids) == set(want)
    differ = [row["id"] for row in got if row != want[row["id"]]]
    assert not differ, f"{len(differ)} rows differ from the CLI, e.g. {got[ids.index(differ[0])]} vs {want[differ[0]]}"
    kinds = {row["error_type"] for row in got}
    assert {"OK", "GOAL_FAIL"} <= kinds, kinds
