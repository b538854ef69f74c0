"""XLogo-Mini: evaluate code against tasks with the reference emulator's verdicts, prompts and
pictures (the CLI's ``gobo xlogo``).

A *task* argument is a :class:`Task`, a dict (a task object, or a data-file row with a
``"task"`` field), a path to its JSON file, or JSON ``bytes``. *Code* is Python-style source
(``str``: ``def run(): ...``), the JSON AST (a dict ``{"run": [...]}``), or a ``pathlib.Path``
(``.py`` is Python-style, anything else the JSON AST). Bad input raises
:class:`gobo.GoboError` (``code == 2``) with the CLI's message; bad *code* is a verdict
(``FORMAT_ERROR``, ``INVALID_CODE``), not an exception.
"""

import os
from typing import Any, Iterable, Mapping, Sequence, Union

Json = Any
PathLike = Union[str, "os.PathLike[str]"]
TaskLike = Union["Task", Mapping[str, Any], PathLike, bytes]
Code = Union[str, Mapping[str, Any], "os.PathLike[str]", bytes]

class Task:
    """An XLogo-Mini task loaded and compiled once, to evaluate many programs on. Pickles (as
    its JSON)."""

    def __init__(self, task: Union[Mapping[str, Any], PathLike, bytes]) -> None:
        """Loads a task; raises :class:`gobo.GoboError` naming the JSON path of a bad field."""
    def evaluate(self, code: Code) -> dict[str, Json]:
        """Evaluates code on this task: the same as ``evaluate(task, code)``."""
    def prompt(self, style: str = "nl") -> str:
        """The task as a prompt: the same as ``prompt(task, style)``."""
    def to_dict(self) -> dict[str, Json]:
        """The task document as a dict."""

def evaluate(task: TaskLike, code: Code) -> dict[str, Json]:
    """Evaluates code against a task and returns the verdict of ``gobo xlogo eval TASK CODE``:
    ``error_type`` (``OK``, ``GOAL_FAIL``, ``CONSTRAINT_FAIL``, ``CRASH_*``, ``FORMAT_ERROR``,
    ...), ``success``, ``result``, ``final_turtle``, ``trace_xy``, ``drawn_lines``,
    ``pen_color``, ``n_actions``, ``block_cnt``, ``n_blocks`` (docs/xlogo.md)."""

def evaluate_batch(rows: Iterable[Mapping[str, Any]], *, jobs: int = 0) -> list[dict[str, Json]]:
    """Evaluates rows ``{"id", "task", "code"}`` (``code`` a Python-style string or a JSON AST
    object) on ``jobs`` threads (0: every core) with the GIL released, and returns one row per
    input, in order: the rows ``gobo xlogo eval --batch`` writes (``id`` plus the verdict; a
    row whose task does not load gets ``error_type: "INVALID_TASK"`` and an ``error``)."""

def evaluate_jsonl(lines: bytes | str, *, jobs: int = 0) -> bytes:
    """Evaluates JSON Lines rows (one ``{"id", "task", "code"}`` object per line) on ``jobs``
    threads (0: every core) and returns the result rows as JSON Lines bytes, in input order:
    byte for byte what ``gobo xlogo eval --batch`` writes (a line that is not JSON gets
    ``{"id", "line", "error"}``). Unlike :func:`evaluate_batch`, which must hold the GIL while
    it converts rows to and from dicts (about as long as XLogo takes to evaluate them), this
    call holds the GIL only to copy the bytes, so batches in two Python threads run in
    parallel."""

def prompt(task: TaskLike, style: str = "nl") -> str:
    """The task as a prompt for a language model (``gobo xlogo prompt``): ``"nl"`` (sentences)
    or ``"ascii"`` (a character grid with a legend)."""

def render(task: TaskLike, code: Code | None = None) -> bytes:
    """The task, and the run of ``code`` if given, as PNG bytes (``gobo xlogo render``)."""

def classify(task: TaskLike, code: Code | None = None) -> dict[str, Json]:
    """A task's dimensions (XLogoMiniProg §5.4; ``gobo xlogo classify --json``, ``POST
    /v1/xlogo/classify``, docs/xlogo.md §9): task type, constraints, concepts, code length and
    grid size. The dimensions that need reference code (``code``, else the data row's
    ``reference_code``) are ``None`` without it."""

def perturb(
    task: TaskLike, code: Code | None = None, *, subsets: Sequence[str] | None = None
) -> list[dict[str, Json]]:
    """The paper's three simplifications of a task (``gobo xlogo perturb --json``, docs/xlogo.md
    §11): one dict per subset (``"T"``, ``"T_A"`` .. ``"T_ABC"``, or letters such as ``"AB"``;
    default all eight) with the perturbed ``task``, what ``changed``, the turtle's move for C and
    the reference code's verdict."""

def resample(
    rows: Iterable[Mapping[str, Any]], *, beta: float = 1.0, size: int | None = None, seed: int = 1
) -> dict[str, Json]:
    """Emulator-driven curriculum resampling (``gobo xlogo resample --json``, docs/xlogo.md §12)
    over verdict rows (:func:`evaluate_batch`'s output): the weights, ``sample`` (the drawn rows'
    ids, in draw order) and the share of failed rows drawn. A failed task weighs ``1 + beta`` times a passed one;
    ``size`` draws (default: one per row), seeded."""

def report(
    rows: Iterable[Mapping[str, Any]], tasks: Iterable[Mapping[str, Any]] | None = None
) -> dict[str, Json]:
    """Success, format and no-crash rates of verdict rows, overall and per task dimension
    (``gobo xlogo report --json``, docs/xlogo.md §10); ``tasks`` (data rows or batch inputs,
    matched by ``id``) gives the per-dimension tables, and ``unreadable_tasks`` counts task rows
    that could not be read."""
