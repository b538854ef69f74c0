"""Scratch 3 projects: run, render, test suites, trace diff (the CLI's ``gobo run``,
``gobo render``, ``gobo test``, ``gobo diff-trace``).

A *project* argument is a :class:`Project`, a path (``str`` or ``os.PathLike``: an ``.sb3``, a
folder holding ``project.json``, or a ``project.json`` file), ``bytes`` (an ``.sb3`` archive or
``project.json`` text) or a dict (the parsed ``project.json``). Scenarios, suites and traces are
paths, ``bytes`` or parsed data (a dict; a list of rows for a trace). Bad input raises
:class:`gobo.GoboError` (``code == 2``) with the CLI's message.
"""

import os
from typing import Any, Iterable, Mapping, Sequence, Union

Json = Any
PathLike = Union[str, "os.PathLike[str]"]
ProjectLike = Union["Project", PathLike, bytes, Mapping[str, Any]]
Source = Union[PathLike, bytes, Mapping[str, Any]]
Trace = Union[PathLike, bytes, Sequence[Mapping[str, Any]]]

class Project:
    """A Scratch 3 project loaded and compiled once (costumes decoded), to run, render and test
    many times without reloading. Pickles (postcard bytes of the compiled program image), so
    it ships to multiprocessing, Ray and Spark workers."""

    def __init__(self, source: Union[PathLike, bytes, Mapping[str, Any]]) -> None:
        """Loads a project from a path, ``bytes`` or a ``project.json`` dict. Like scratch-vm,
        a dangling block reference or a missing costume does not stop it loading: see
        :attr:`warnings`."""
    @property
    def name(self) -> str:
        """The project as named in traces (``meta.project``): the path as given, or
        ``"project"``."""
    @property
    def md5(self) -> str | None:
        """MD5 (hex) of what the project was read from (``meta.md5`` of its traces)."""
    @property
    def warnings(self) -> list[str]:
        """Problems that did not stop the project from loading (the CLI prints them)."""
    @property
    def targets(self) -> list[str]:
        """Target names in project order (the stage first)."""

def run(
    project: ProjectLike,
    scenario: Source | None = None,
    *,
    frames: int | None = None,
    seed: int | None = None,
    fps: int = 30,
    turbo: bool = False,
    audio: str = "timed",
    drag: str = "player",
    ticks_per_frame: int = 1000,
    warp_checks: int = 1_000_000,
    epoch: str = "2020-01-01T00:00:00Z",
    until_idle: bool = False,
    trace: bool = True,
) -> Union[list[dict[str, Json]], dict[str, int]]:
    """Runs a project on the virtual clock (``gobo run``).

    With ``trace=True`` (the default) returns the trace rows (docs/trace.md): the
    ``{"meta": ...}`` row, one row per frame, the ``{"end": ...}`` row -- the lines of
    ``gobo run --trace -`` as dicts. With ``trace=False`` returns the summary ``{"frames",
    "threads", "random_draws"}`` of ``gobo run --json``. ``scenario`` is a refvm scenario
    (default: the green flag at frame 0); ``frames`` and ``seed`` default to the scenario's,
    else 300 and 1. ``audio`` is ``"timed"`` or ``"none"``, ``drag`` ``"player"``,
    ``"editor"`` or ``"none"``."""

def render(
    project: ProjectLike,
    scenario: Source | None = None,
    *,
    frame: int = 0,
    seed: int | None = None,
    fps: int = 30,
    width: int = 480,
    height: int = 360,
    scale: int | None = None,
) -> bytes:
    """The stage after ``frame`` (0-based, after the frame's step) as PNG bytes (RGB;
    ``gobo render --frame N -o F``). ``scale`` (1..8) sets the size to 480*scale x
    360*scale."""

def render_frames(
    project: ProjectLike,
    frames: Iterable[int],
    scenario: Source | None = None,
    *,
    seed: int | None = None,
    fps: int = 30,
    width: int = 480,
    height: int = 360,
    scale: int | None = None,
) -> dict[int, bytes]:
    """The stage after each of ``frames`` as PNG bytes, by frame, from one run
    (``gobo render --png-at``)."""

def test(
    project: ProjectLike,
    suite: Source,
    *,
    seeds: Union[int, str, Iterable[int], None] = None,
    traces: Mapping[str, Trace] | None = None,
    theta_pass: float = 0.9,
    theta_fail: float = 0.1,
) -> dict[str, Json]:
    """Runs a test suite (docs/test-suite.md) and returns the report of ``gobo test --json``.

    ``seeds``: ``R`` (seeds 1..R), ``"A..B"``, or an iterable of seeds; each case then passes
    when its pass rate is at least ``theta_pass`` and is a stable failure at most
    ``theta_fail``. ``traces`` maps case names to recorded traces (a path, JSON-lines bytes, or
    rows as :func:`run` returns them): only those cases are judged, on the traces. A failing
    suite is a report with ``"success": false`` (the CLI's exit code 1), not an exception."""

def diff_trace(
    a: Trace,
    b: Trace,
    *,
    signals: Sequence[str] | None = None,
    tolerance: float = 0.0,
) -> dict[str, Json]:
    """Compares two traces (``gobo diff-trace A B --json``, docs/trace-diff.md): ``{identical,
    frames_a, frames_b, checkpoints, first_divergence, signals, drift}``. ``signals`` restricts
    scoring and the first-divergence search to some of vars, lists, pose, costume, visibility,
    backdrop, broadcasts, says."""

def validate(project: ProjectLike, *, assets: bool = True) -> dict[str, Json]:
    """Structural validation (``gobo validate --json``, codes in docs/patches.md): ``{valid,
    errors, warnings, findings: [{code, path, severity, message}]}``. Dropped references are
    findings, not refusals; ``assets=False`` skips the check that every costume and sound is
    present (``--no-assets``). A project that cannot be read raises :class:`gobo.GoboError`."""
