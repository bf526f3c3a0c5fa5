"""Calibration: the artefacts that let vision read one real table, produced step by step and checked.

Steps (each a module, each a ``python -m calibration`` subcommand, each writing files into one
calibration folder described in docs/calibration.md): camera, markers, reference (the empty
board), regions, tokens, and the final check.
"""
from .errors import CalibrationError
from .folder import Folder, STEPS

__all__ = ["CalibrationError", "Folder", "STEPS"]
