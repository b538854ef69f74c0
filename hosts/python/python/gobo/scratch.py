"""Scratch 3 projects: load once (:class:`Project`), run (:func:`run`), render stage pictures
(:func:`render`, :func:`render_frames`), test suites with seeds (:func:`test`) and compare traces (:func:`diff_trace`), validate (:func:`validate`). See
docs/python.md."""

from ._gobo import scratch as _native

Project = _native.Project
run = _native.run
render = _native.render
render_frames = _native.render_frames
test = _native.test
diff_trace = _native.diff_trace
validate = _native.validate

__all__ = ["Project", "run", "render", "render_frames", "test", "diff_trace", "validate"]
