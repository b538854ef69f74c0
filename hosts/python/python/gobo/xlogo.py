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

__all__ = ["Task", "evaluate", "evaluate_batch", "evaluate_jsonl", "prompt", "render"]
