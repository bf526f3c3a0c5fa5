"""The companion's eyes: frames of the board in, an ``Observation`` of the visible tokens per region out.

Stages (each a function of settings and an image): ``still.is_still``, ``register.register``,
``register.rectify``, ``detect.detect``, ``classify.classify``, and ``observe.observe``.
"""
from .errors import GeometryError, ModelError, RegistrationError, SourceError, VisionError
from .observe import Calibration, Observation, Observer, RegionView, observe
from .settings import Settings

__all__ = ["Calibration", "GeometryError", "ModelError", "Observation", "Observer", "RegionView",
           "RegistrationError", "Settings", "SourceError", "VisionError", "observe"]
