"""The exception every gobo call raises for bad input (the CLI's exit code 2)."""


class GoboError(ValueError):
    """Bad input, usage or I/O error: what the CLI reports as ``gobo COMMAND: MESSAGE`` with
    exit code 2.

    ``str(e)`` is the CLI's MESSAGE (for a file given by path, the same text, path included);
    ``e.code`` is the CLI's exit code (2); ``e.command`` the CLI subcommand (``"run"``,
    ``"xlogo"``, ``"draw"``, ...). Judging calls do not raise for a failing verdict (the CLI's
    exit code 1): they return it.
    """

    def __init__(self, message: str, code: int = 2, command: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.command = command

    def __str__(self) -> str:
        return self.message

    def __reduce__(self):
        return (type(self), (self.message, self.code, self.command))
