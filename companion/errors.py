"""Errors a user can cause outside the rules (bad files, bad options): one line, an exit status."""


class UserError(Exception):
    """Printed as one line by the command line; ``status`` is the exit code (2 unless told)."""

    def __init__(self, message: str, status: int = 2):
        super().__init__(message)
        self.status = status
