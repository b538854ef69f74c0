"""Scratch 3 projects: run, render, test suites, trace diff, validate, agent sessions,
patches (the CLI's ``gobo run``, ``gobo render``, ``gobo test``, ``gobo diff-trace``,
``gobo validate``, ``gobo observe``, ``gobo act``, ``gobo patch``, ``gobo edit-distance``,
``gobo scenarios``, ``gobo oracle``, ``gobo forge``).

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
    every: int = 0,
) -> dict[str, Json]:
    """Compares two traces (``gobo diff-trace A B --json``, docs/trace-diff.md): ``{identical,
    frames_a, frames_b, checkpoints, first_divergence, signals, drift}``. ``signals`` restricts
    scoring and the first-divergence search to some of vars, lists, pose, costume, visibility,
    backdrop, broadcasts, says, or the sets ``all`` and ``scratcheval`` (all but says);
    ``every`` scores every N-th frame plus the last (SPEC §2.8 drift: 10; 0 scores every
    frame)."""

def drift(
    gold: ProjectLike,
    candidate: ProjectLike,
    scenario: Source | None = None,
    *,
    frames: int | None = None,
    seed: int | None = None,
    fps: int = 30,
    signals: Sequence[str] | None = None,
    every: int = 10,
    tolerance: float = 0.0,
) -> dict[str, Json]:
    """ScratchEval's semantic drift of ``candidate`` from ``gold`` on one scenario (``POST
    /v1/metrics/drift``): both run under the same seed and their traces are compared on
    ``signals`` (default the ``scratcheval`` set: all but says) at every ``every``-th frame plus
    the last: the report of ``gobo diff-trace GOLD.trace CAND.trace --every N --signals ...
    --json`` on the two ``gobo run --trace`` traces."""

def validate(project: ProjectLike, *, assets: bool = True) -> dict[str, Json]:
    """Structural validation (``gobo validate --json``, codes in docs/patches.md): ``{valid,
    errors, warnings, findings: [{code, path, severity, message}]}``. Dropped references are
    findings, not refusals; ``assets=False`` skips the check that every costume and sound is
    present (``--no-assets``). A project that cannot be read raises :class:`gobo.GoboError`."""

def observe(
    project: ProjectLike,
    *,
    target: str | None = None,
    mode: str = "compat",
    index: str = "index",
    format: str = "json",
) -> Json:
    """What a ScratchWorld composite-mode agent sees of a project (``gobo observe``,
    docs/observation.md). ``format="json"`` gives the observation dict (``--json``),
    ``"text"`` the per-turn prompt text, ``"scratchblocks"`` the scripts in scratchblocks
    syntax. ``target`` names the editing target (default: the first sprite); ``mode`` is
    ``"compat"`` or ``"full"``, ``index`` ``"index"`` (``#n``) or ``"id"`` (``@id``). An
    unknown target or a project that cannot be read raises :class:`gobo.GoboError`."""

class Session:
    """A composite-mode agent session over a project (``gobo act``, docs/composite.md): each
    :meth:`act` applies one ``{"api", "args"}`` action and returns the envelope ``gobo act``
    prints for it. Forks (:meth:`fork`) and pickles (the core's session bytes)."""

    def __init__(
        self,
        project: ProjectLike,
        *,
        mode: str = "compat",
        index: str = "index",
        seed: int = 0,
        max_steps: int = 50,
        observe_each: bool = False,
        observation_only: bool = False,
        auto_observe: bool = True,
        session_id: str = "s-1",
    ) -> None:
        """Opens ``project`` as ScratchWorld's editor does. The keywords are ``gobo act``'s
        options (``--mode``, ``--index``, ``--seed``, ``--max-steps``, ``--observe-each``,
        ``--observation-only``, ``--no-auto-observe``); ``session_id`` is named in every
        envelope's ``meta``."""
    def act(self, action: Mapping[str, Any]) -> dict[str, Json]:
        """Applies one action and returns its envelope; a failing action gives ``success``
        False and ``error: {code, message}`` (no exception)."""
    def observe(self) -> dict[str, Json]:
        """The observation of the editing target now (``gobo observe --json``'s shape);
        later actions' indices resolve against it."""
    def fork(self) -> "Session":
        """An independent copy of this session."""
    @property
    def step(self) -> int:
        """Actions taken so far."""
    def project_json(self) -> bytes:
        """The edited project as ``project.json`` bytes."""
    def to_bytes(self) -> bytes:
        """The session as bytes (what pickling stores)."""
    @classmethod
    def from_bytes(cls, data: bytes) -> "Session":
        """A session from :meth:`to_bytes`; bad bytes raise :class:`gobo.GoboError`."""

def patch(
    project: ProjectLike,
    patch: Union[str, PathLike, bytes, Sequence[Any], Mapping[str, Any]],
    *,
    format: str = "block-edits",
    budget: int | None = None,
    seed: int = 0,
    assets: bool = True,
    output: str = "json",
) -> dict[str, Json]:
    """Applies a patch (``gobo patch apply --json``, ``POST /v1/projects/patch``,
    docs/patches.md): ``{ok, format, stage?, error?, edits, created, normalized, findings}``
    and, when it applied, the patched ``project`` (a dict, blocks in order) or, with
    ``output="sb3"``, ``sb3`` (the archive's bytes, as ``gobo patch apply -o OUT.sb3``
    writes them) and its ``sha256``. ``format`` is ``"block-edits"`` or ``"json-patch"``; a
    ``str`` patch is the patch text itself (a model's raw reply for ``json-patch``), a
    ``pathlib.Path`` is read. A patch that fails gives ``ok`` False; a project that cannot
    be read raises :class:`gobo.GoboError`."""

def invert(
    project: ProjectLike,
    patch: Union[str, PathLike, bytes, Sequence[Any]],
    *,
    seed: int = 0,
) -> dict[str, Json]:
    """The exact inverse of a block-edit patch on ``project`` (``gobo patch invert``, ``POST
    /v1/projects/invert``): ``{ok: True, inverse}``, or ``{ok: False, error}`` when the patch
    does not apply."""

def diff(a: ProjectLike, b: ProjectLike, *, atoms: bool = False) -> dict[str, Json]:
    """The normalized block-edit patch that turns ``a`` into ``b`` (``gobo patch diff``,
    ``POST /v1/projects/diff``): ``{ok: True, patch}``; with ``atoms=True`` ``{ok: True,
    atoms}`` (``--atoms``); ``{ok: False, error}`` when no patch expresses the difference."""

def edit_distance(base: ProjectLike, gold: ProjectLike, candidate: ProjectLike) -> dict[str, Json]:
    """ScratchEval's edit distance of a candidate fix to the gold fix, both made on ``base``
    (``gobo edit-distance --json``, ``POST /v1/projects/edit-distance``): ``{d_edit, matched,
    missing, extra}``; two fixes with the same effect score the same (docs/patches.md)."""

def scenarios(
    project: ProjectLike,
    *,
    templates: str | None = None,
    ticks: int = 2000,
    max_cases: int = 12,
) -> dict[str, Json]:
    """The scenario templates instantiated on a project (``gobo scenarios --json``, ``POST
    /v1/scenarios/instantiate``): ``{meta: {keys, clickable, messages, asks, mouse, ...}, fps,
    frames, cases}``, cases without assertions. ``templates`` is a comma-separated subset
    (docs/bug-forge.md)."""

def oracle(
    gold: ProjectLike,
    buggy: ProjectLike,
    *,
    cases: Source | None = None,
    reruns: int = 5,
    ticks: int = 2000,
    every: int = 10,
    theta_pass: float = 0.9,
    theta_fail: float = 0.1,
    max_assertions: int = 5,
    templates: str | None = None,
    max_cases: int = 12,
) -> dict[str, Json]:
    """A test suite that passes on ``gold`` and fails on ``buggy`` (``gobo oracle --json``,
    ``POST /v1/oracles/synthesize``, docs/oracles.md): ``{accepted, reason?, suite, assertions,
    candidates, features, work}``. ``cases`` is a suite document of scenario cases; by default
    the templates are instantiated on the gold project."""

def forge(
    gold: ProjectLike,
    *,
    pattern: str | None = None,
    operator: str | None = None,
    seed: int = 0,
    trials: int = 20,
    reruns: int = 5,
    ticks: int = 2000,
    every: int = 10,
    theta_pass: float = 0.9,
    theta_fail: float = 0.1,
    max_assertions: int = 5,
    templates: str | None = None,
    max_cases: int = 12,
) -> dict[str, Json]:
    """Injects one validated bug (``gobo forge --json``, ``POST /v1/bugs/inject``,
    docs/bug-forge.md): ``{success, pattern, reason?, record?, trials, sites, work}`` and, for a
    validated bug, ``suite`` and ``buggy_sb3`` (the buggy ``.sb3`` bytes, gold's assets kept).
    The forward and inverse block-edit patches are ``record["ground_truth"]["forward"]`` and
    ``["inverse"]``. The same arguments give the same bytes."""

def bug_sites(
    project: ProjectLike,
    *,
    pattern: str | None = None,
    operator: str | None = None,
) -> dict[str, Json]:
    """The Bug Forge's ranked injection sites (``POST /v1/bugs/sites``): ``{patterns, sites:
    [{operator, sprite, script_top, block, rank}]}``, rank 0 (scripts a scenario template
    starts) first; every applicable pattern when neither ``pattern`` nor ``operator`` is
    given."""

def probe(
    buggy: ProjectLike,
    gold: ProjectLike,
    suite: Source,
    *,
    frames: int = 300,
    seeds: int = 2,
) -> dict[str, Json]:
    """The runtime probe of a buggy program against its gold reference (``gobo probe --json``,
    ``POST /v1/signals/probe``, docs/signals.md): ``gold_pass_rate``, ``buggy_pass_rate``,
    ``pass_gap``, ``mismatch_rate``, ``rerun_instability``, ``first_divergence``, ``flags``,
    ``level`` (0 to 3), ``plan``, ``work`` and ``time`` (``{wall_ms, cpu_ms}``). Each case runs
    at most ``frames`` frames under seeds 1..``seeds``."""

def verify(
    candidate: ProjectLike,
    suite: Source,
    *,
    level: int = 2,
    frames: int = 300,
    seeds: int = 5,
    theta_pass: float = 0.9,
) -> dict[str, Json]:
    """Staged verification of a candidate fix (``gobo verify --json``, ``POST /v1/verify``,
    docs/signals.md): static checks (level 0), a smoke run of at most ``frames`` frames per case
    (level 1), then the full suite under seeds 1..``seeds`` (level 2), stopping at the first
    stage that fails: ``{passed, level, stages, work, time}``. A candidate that does not load
    fails the static stage; only an unreadable suite raises :class:`gobo.GoboError`."""

def hooks(project: ProjectLike) -> dict[str, Json]:
    """Every hat script's canonical trigger, the signals it writes and the custom blocks it
    calls (``gobo hooks --json``, ``POST /v1/hooks``): ``{hooks: [{sprite, block, trigger,
    writes, calls}]}``."""

def record(
    project: ProjectLike,
    scenario: Source | None = None,
    *,
    every: int = 3,
    frames: int | None = None,
    keyframes: int = 4,
    gold: ProjectLike | None = None,
    seed: int | None = None,
) -> dict[str, Json]:
    """Visual evidence of a run (``gobo record --json``, ``POST /v1/record``,
    docs/evidence.md): the manifest (``width``, ``height``, ``side_by_side``, ``samples``,
    ``keyframes``, ``config``, ``work``, ``sheet``, ``animation``, ``time``) and ``files``, the
    PNG ``bytes`` of every picture ``gobo record -o DIR`` writes, by file name: the stage every
    ``every`` frames, the contact sheet and the animated PNG (``clip.png``). With ``gold``, gold
    is on the left of every picture. ``frames`` and ``seed`` default to the scenario's, else 300
    and 1; the same arguments give the same bytes."""

def lint(project: ProjectLike, *, base: ProjectLike | None = None) -> dict[str, Json]:
    """Binding and barrier findings (``gobo lint --json``, ``POST /v1/lint``, docs/lint.md):
    ``{findings: [{code, severity, target, block, message}], errors, warnings, patch_rules}``.
    With ``base``, the project before a patch, the patch's rules (``binding.partial_rebind``,
    ``barrier.*``) run too."""

def suite_check(
    suite: Source,
    passing: Sequence[ProjectLike],
    failing: Sequence[ProjectLike],
    *,
    seeds: int | str | Sequence[int] | None = None,
) -> dict[str, Json]:
    """Suite adequacy (``gobo suite-check --json``, ``POST /v1/suites/check``,
    docs/test-suite.md "Adequacy"): ``adequate``; per case whether it passes every gold and
    which negatives it catches; per gold its failures; per negative whether and by which cases
    it is caught; ``warnings``. ``seeds`` is ``R`` (1..R), ``"A..B"`` or a list (default: once,
    under the suite's seed). Programs given as paths are named by them, others ``pass[i]`` and
    ``fail[i]``. A suite that does not fit a program raises :class:`gobo.GoboError`."""
