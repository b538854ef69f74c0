"""gobo: run and judge Scratch 3, XLogo-Mini and DrawingBench programs (see docs/python.md)."""

from . import draw as draw, scratch as scratch, xlogo as xlogo

__version__: str
IMAGE_FORMAT_VERSION: int

class GoboError(ValueError):
    """Bad input, usage or I/O error: the CLI's ``gobo COMMAND: MESSAGE`` with exit code 2.
    ``str(e)`` is MESSAGE, ``e.code`` the exit code (2), ``e.command`` the subcommand."""

    message: str
    code: int
    command: str
    def __init__(self, message: str, code: int = 2, command: str = "") -> None: ...
