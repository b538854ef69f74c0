"""DrawingBench: score a model's actions (:func:`evaluate`, or rows on every core with
:func:`evaluate_batch`, JSON Lines with :func:`evaluate_jsonl`), turn-2 feedback (:func:`feedback`, :func:`needs_second_turn`,
:func:`final_score`), the canvas as PNG (:func:`render`), multi-turn episodes (:func:`episode`) and the
paper's tables (:func:`report`). See docs/python.md."""

from ._gobo import draw as _native

evaluate = _native.evaluate
evaluate_batch = _native.evaluate_batch
evaluate_jsonl = _native.evaluate_jsonl
feedback = _native.feedback
needs_second_turn = _native.needs_second_turn
final_score = _native.final_score
render = _native.render
episode = _native.episode
report = _native.report

__all__ = ["evaluate", "evaluate_batch", "evaluate_jsonl", "feedback", "needs_second_turn", "final_score", "render", "episode", "report"]
