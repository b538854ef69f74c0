"""Scratch 3 projects: load once (:class:`Project`), run (:func:`run`), render stage pictures
(:func:`render`, :func:`render_frames`), test suites with seeds (:func:`test`) and compare traces (:func:`diff_trace`, :func:`drift`), validate (:func:`validate`), observe as an agent (:func:`observe`, :class:`Session`), edit (:func:`patch`, :func:`invert`, :func:`diff`, :func:`edit_distance`), and build repair
benchmarks (:func:`scenarios`, :func:`oracle`, :func:`forge`, :func:`bug_sites`). See
docs/python.md."""

from ._gobo import scratch as _native

Project = _native.Project
run = _native.run
render = _native.render
render_frames = _native.render_frames
test = _native.test
diff_trace = _native.diff_trace
drift = _native.drift
validate = _native.validate
observe = _native.observe
Session = _native.Session
patch = _native.patch
invert = _native.invert
diff = _native.diff
edit_distance = _native.edit_distance
scenarios = _native.scenarios
oracle = _native.oracle
forge = _native.forge
bug_sites = _native.bug_sites
probe = _native.probe
verify = _native.verify
hooks = _native.hooks
record = _native.record
lint = _native.lint
suite_check = _native.suite_check

__all__ = ["Project", "run", "render", "render_frames", "test", "diff_trace", "drift", "validate", "observe", "Session", "patch", "invert", "diff", "edit_distance", "scenarios", "oracle", "forge", "bug_sites", "probe", "verify", "hooks", "record", "lint", "suite_check"]
