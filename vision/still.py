"""Stillness: tell a still scene from a moving one with a cheap downscaled difference, and gate on time."""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .settings import Settings


@dataclass(frozen=True)
class Stillness:
    """Whether two frames show the same scene; ``moving_share`` is the share of changed thumbnail pixels."""

    still: bool
    moving_share: float


def thumbnail(settings: Settings, image: np.ndarray) -> np.ndarray:
    """A small grey, slightly blurred copy of a frame, the unit of comparison for stillness."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    h, w = gray.shape
    tw = settings.still_width
    small = cv2.resize(gray, (tw, max(1, round(h * tw / w))), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (3, 3), 0)


def is_still(settings: Settings, previous: np.ndarray, current: np.ndarray) -> Stillness:
    """Compare two thumbnails (see ``thumbnail``)."""
    if previous is None or previous.shape != current.shape:
        return Stillness(False, 1.0)
    diff = cv2.absdiff(previous, current)
    share = float(np.count_nonzero(diff > settings.still_delta)) / diff.size
    return Stillness(share <= settings.still_share, share)


class StillnessGate:
    """Feeds frames with their time; says when the scene has been still for ``settings.still_seconds``.

    ``update`` returns True once per still period (the moment to observe), False otherwise.
    """

    def __init__(self, settings: Settings):
        self.settings = settings
        self.previous = None
        self.still_since = None
        self.fired = False
        self.anchor = None

    def update(self, image: np.ndarray, t: float) -> bool:
        thumb = thumbnail(self.settings, image)
        result = is_still(self.settings, self.previous, thumb)
        if result.still and self.anchor is not None:  # slow drift shows against the period's first frame
            result = is_still(self.settings, self.anchor, thumb)
        self.previous = thumb
        if not result.still:
            self.still_since, self.fired, self.anchor = None, False, None
            return False
        if self.still_since is None:
            self.still_since, self.anchor = t, thumb
        if not self.fired and t - self.still_since >= self.settings.still_seconds:
            self.fired = True
            return True
        return False

    @property
    def still(self) -> bool:
        return self.still_since is not None
