"""gobo: run and judge Scratch 3, XLogo-Mini and DrawingBench programs.

The engine is Rust (the ``gobo`` crate); this package is its Python binding. Modules:

- :mod:`gobo.scratch` -- Scratch 3 projects: run (trace rows or a summary), render (PNG),
  test suites with seeds, trace diff.
- :mod:`gobo.xlogo` -- XLogo-Mini: evaluate (one, or a batch on every core), prompt, render.
- :mod:`gobo.draw` -- DrawingBench: evaluate (one, or a batch on every core), feedback, render.

Every call returns the same JSON shape as the CLI's ``--json`` output, as dicts and lists. Bad
input raises :class:`GoboError` with the CLI's exit code (``e.code == 2``) and message. Calls
release the GIL while the engine works; batch calls use every core. See docs/python.md.
"""

from ._errors import GoboError
from ._gobo import IMAGE_FORMAT_VERSION, __version__
from . import draw, scratch, xlogo

__all__ = ["GoboError", "IMAGE_FORMAT_VERSION", "__version__", "draw", "scratch", "xlogo"]
