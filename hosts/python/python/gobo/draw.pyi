"""DrawingBench: score a model's mouse actions with the published evaluator
(``drawingbench-1.0``) or the paper's criteria (``paper``), turn-2 feedback, canvas pictures
(the CLI's ``gobo draw``).

*Actions* are the model's raw text (``str``, scored exactly as written, including text that is
not JSON), a list of action dicts, ``bytes``, or a ``pathlib.Path``. A *task* is a dict
(``{id, prompt, criteria}`` or bare criteria), a path, or JSON ``bytes``; or give
``task_index`` into the dataset (``dataset=`` a path or ``bytes`` of
``dataset_consolidated.json``, default ``$GOBO_DRAWINGBENCH_DATASET``). ``ui`` replaces the
published UI layout. Bad input raises :class:`gobo.GoboError` (``code == 2``) with the CLI's
message.
"""

import os
from typing import Any, Iterable, Mapping, Sequence, Union

Json = Any
PathLike = Union[str, "os.PathLike[str]"]
Actions = Union[str, Sequence[Mapping[str, Any]], bytes, "os.PathLike[str]"]
Source = Union[Mapping[str, Any], PathLike, bytes]

def evaluate(
    actions: Actions,
    task: Source | None = None,
    *,
    task_index: int | None = None,
    dataset: Union[PathLike, bytes, None] = None,
    profile: str = "drawingbench-1.0",
    ui: Source | None = None,
) -> dict[str, Json]:
    """Scores actions (``gobo draw eval``): for ``drawingbench-1.0`` the row ``{score, errors,
    warnings, criteria_met, metrics, evaluation_rest, feedback_recon, feedback_recon_text,
    exception, parse_error, profile}``; for ``paper`` the weighted criteria (docs/drawing.md)."""

def evaluate_batch(
    rows: Iterable[Mapping[str, Any]],
    *,
    dataset: Union[PathLike, bytes, None] = None,
    profile: str = "drawingbench-1.0",
    ui: Source | None = None,
    jobs: int = 0,
) -> list[dict[str, Json]]:
    """Scores rows ``{"id", "task_index" | "task", "actions_raw"}`` on ``jobs`` threads (0:
    every core) with the GIL released, and returns one row per input, in order: the rows
    ``gobo draw eval --batch`` writes (``id``, ``task_index`` if given, the result fields; a
    row that cannot be scored gets ``{"id", "error"}``)."""

def evaluate_jsonl(
    lines: bytes | str,
    *,
    dataset: Union[PathLike, bytes, None] = None,
    profile: str = "drawingbench-1.0",
    ui: Source | None = None,
    jobs: int = 0,
) -> bytes:
    """Scores JSON Lines rows on ``jobs`` threads (0: every core) and returns the result rows
    as JSON Lines bytes, in input order: byte for byte what ``gobo draw eval --batch`` writes.
    The dataset is read only when some line holds ``"task_index"``. The GIL is held only to
    copy the bytes (:func:`evaluate_batch` holds it while it builds dicts)."""

def feedback(
    actions: Actions,
    task: Source | None = None,
    *,
    task_index: int | None = None,
    dataset: Union[PathLike, bytes, None] = None,
    ui: Source | None = None,
) -> dict[str, Json] | None:
    """Turn-2 feedback as the published experiments gave it: ``{"feedback": {summary, errors,
    warnings, suggestions, score, turn}, "text": framed text, "score": turn-1 score,
    "second_turn": whether the two-turn rule gives a second turn}``; ``None`` where the
    reference evaluator raises on the input."""

def needs_second_turn(score: float) -> bool:
    """Whether a turn-1 score gets a second turn with feedback (scores below 0.9)."""

def final_score(turn1: float, turn2: float | None = None) -> float:
    """The two-turn protocol's final score: turn 2's if it ran, else turn 1's."""

def render(actions: Actions, *, ui: Source | None = None) -> bytes:
    """What the drawing app shows after the actions, as PNG bytes (RGBA, erased pixels
    transparent; ``gobo draw render``)."""

def episode(
    episode: Source,
    *,
    dataset: Union[PathLike, bytes, None] = None,
    max_turns: int = 2,
    stop_at: float = 0.9,
    profile: str = "drawingbench-1.0",
    ui: Source | None = None,
    render: bool = False,
) -> dict[str, Json]:
    """Runs DrawingBench's multi-turn protocol over an episode document ``{id?, task |
    task_index, turns: [...], max_turns?, stop_at?, profile?, model?, category?,
    difficulty?}`` (a dict, JSON text or bytes, or a path; docs/drawing.md, Episodes) and
    returns the row of ``gobo draw episode --json``: each turn that ran with its ``draw eval``
    row, ``first_score``, ``final_score``, ``stopped``, ``needs_next_turn``, ``next_turn`` and
    ``feedback_text``. The keywords are the defaults the document may override. With
    ``render=True`` each turn also carries ``canvas_png`` (PNG bytes, or ``None`` for text that
    is not an action list). A document that cannot be run raises :class:`gobo.GoboError`."""

def report(
    rows: Iterable[Mapping[str, Json]],
    *,
    dataset: Union[PathLike, bytes, None] = None,
) -> dict[str, Json]:
    """The DrawingBench paper's tables from result rows (episode rows or ``draw eval`` rows):
    the document of ``gobo draw report --json`` (overall first and final turn, by difficulty,
    category and model, improvement distribution, issue types, action counts). ``dataset``
    names the category and difficulty of rows carrying only a ``task_index``. No rows raises
    :class:`gobo.GoboError`."""
