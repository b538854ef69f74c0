"""XLogo-Mini: load a task once (:class:`Task`), evaluate code (:func:`evaluate`, or rows on
every core with :func:`evaluate_batch`, or JSON Lines with :func:`evaluate_jsonl`), prompts (:func:`prompt`) and pictures
(:func:`render`). See docs/python.md."""

from ._gobo import xlogo as _native

Task = _native.Task
evaluate = _native.evaluate
evaluate_batch = _native.evaluate_batch
evaluate_jsonl = _native.evaluate_jsonl
prompt = _native.prompt
render = _native.render
classify = _native.classify
perturb = _native.perturb
resample = _native.resample
report = _native.report

__all__ = ["Task", "evaluate", "evaluate_batch", "evaluate_jsonl", "prompt", "render", "classify", "perturb", "resample", "report"]
