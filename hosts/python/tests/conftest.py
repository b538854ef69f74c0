"""Shared fixtures: the repository, ``../shared`` (skipped visibly when absent), and the ``gobo``
CLI the bindings are compared with (``$GOBO_CLI``, else ``target/debug/gobo`` built by cargo from
this checkout)."""

import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "examples"


def shared_dir():
    """``$GOBO_SHARED`` or ``../shared`` beside the repository, if present."""
    base = os.environ.get("GOBO_SHARED")
    path = Path(base) if base else REPO.parent / "shared"
    return path if path.is_dir() else None


def need_shared(*parts):
    """The path under ``../shared``, or a visible skip."""
    base = shared_dir()
    path = base.joinpath(*parts) if base else None
    if path is None or not path.exists():
        print(f"skipped: ../shared/{'/'.join(parts)} not found (set GOBO_SHARED)")
        pytest.skip(f"../shared/{'/'.join(parts)} not found (set GOBO_SHARED)")
    return path


def _find_cli():
    explicit = os.environ.get("GOBO_CLI")
    if explicit:
        return Path(explicit)
    # Built from this checkout (a no-op when up to date), so it is never stale.
    subprocess.run(["cargo", "build", "-q", "-p", "gobo-cli"], cwd=REPO, check=True)
    return REPO / "target" / "debug" / "gobo"


class Cli:
    """Runs the ``gobo`` binary."""

    def __init__(self, path):
        self.path = path

    def run(self, *args, check=None):
        """Runs ``gobo ARGS`` and returns the completed process (stdout/stderr as text)."""
        proc = subprocess.run(
            [str(self.path), *map(str, args)], capture_output=True, text=True, cwd=REPO
        )
        if check is not None:
            assert proc.returncode == check, (proc.returncode, proc.stderr)
        return proc

    def json(self, *args, check=0):
        """Runs ``gobo ARGS`` and parses its stdout as one JSON document."""
        return json.loads(self.run(*args, check=check).stdout)

    def bytes(self, *args):
        """Runs ``gobo ARGS`` and returns stdout as bytes."""
        proc = subprocess.run([str(self.path), *map(str, args)], capture_output=True, cwd=REPO)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    def error(self, *args):
        """Runs a failing ``gobo ARGS``: (exit code, the message after ``gobo CMD: ``)."""
        proc = self.run(*args)
        line = proc.stderr.strip().splitlines()[-1]
        assert line.startswith("gobo "), proc.stderr
        return proc.returncode, line.split(": ", 1)[1]


@pytest.fixture(scope="session")
def cli():
    return Cli(_find_cli())


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def write_jsonl(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")
