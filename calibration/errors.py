"""The one error type of calibration: a ValueError whose message is one line a user can act on."""


class CalibrationError(ValueError):
    """A calibration step that cannot go on; the message names the file or field at fault."""
