"""The one place that knows which OpenCV it runs on (4.6 to 5.0): ArUco markers and the version.

Raspberry Pi OS bookworm ships OpenCV 4.6, where ArUco is the free functions
(``cv2.aruco.detectMarkers``, ``drawMarker``, ``DetectorParameters_create``) and calling
``cv2.aruco.DetectorParameters()`` kills the process; 4.7 brought ``ArucoDetector`` and
``generateImageMarker``, and 5.0 removed the free functions. Everything else the project calls
is the same on every version tested, so the rest of the code imports only this module for ArUco.
"""
from __future__ import annotations

import cv2
import numpy as np

VERSION: tuple[int, int] = tuple(int(p) for p in cv2.__version__.split(".")[:2])  # type: ignore[assignment]
# ``ArucoDetector`` is the test, not the version number: a build can carry either API.
NEW_ARUCO: bool = hasattr(cv2.aruco, "ArucoDetector")


def dictionary(name: int = cv2.aruco.DICT_4X4_50):
    """A predefined ArUco dictionary."""
    return cv2.aruco.getPredefinedDictionary(name)


def detector_parameters():
    """Fresh detector parameters with OpenCV's defaults."""
    if NEW_ARUCO:
        return cv2.aruco.DetectorParameters()
    return cv2.aruco.DetectorParameters_create()  # 4.6: the constructor crashes the process


class _FreeFunctionDetector:
    """``ArucoDetector``'s ``detectMarkers`` on OpenCV < 4.7, through the free function.

    4.6 refines every corner in a fixed window (``cornerRefinementWinSize``, 5 px each side),
    which on small markers reaches past the black border and slides a corner onto the edge of
    the printed quiet zone (10 px off on a 50 px marker). 4.8 bounds the window by the marker's
    module size (``relativeCornerRefinmentWinSize``); this does the same: it detects without
    refinement and refines each marker's corners itself.
    """

    RELATIVE_WIN = 0.3  # OpenCV 4.8's default relativeCornerRefinmentWinSize

    def __init__(self, dictionary, params):
        self._dictionary, self._params = dictionary, params
        self._subpix = params.cornerRefinementMethod == cv2.aruco.CORNER_REFINE_SUBPIX
        if self._subpix:
            params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
        self._cells = dictionary.markerSize + 2 * params.markerBorderBits

    def detectMarkers(self, image: np.ndarray):  # noqa: N802 -- OpenCV's own name
        corners, ids, rejected = cv2.aruco.detectMarkers(image, self._dictionary, parameters=self._params)
        if self._subpix and corners:
            gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
            p = self._params
            crit = (cv2.TERM_CRITERIA_MAX_ITER | cv2.TERM_CRITERIA_EPS,
                    p.cornerRefinementMaxIterations, p.cornerRefinementMinAccuracy)
            for c in corners:
                perimeter = float(np.linalg.norm(c[0] - np.roll(c[0], -1, axis=0), axis=1).sum())
                win = min(p.cornerRefinementWinSize, max(1, round(self.RELATIVE_WIN * perimeter / (4 * self._cells))))
                cv2.cornerSubPix(gray, c.reshape(-1, 1, 2), (win, win), (-1, -1), crit)
        return corners, ids, rejected


def aruco_detector(dictionary, params):
    """An object whose ``detectMarkers(image)`` returns ``(corners, ids, rejected)`` on every version."""
    if NEW_ARUCO:
        return cv2.aruco.ArucoDetector(dictionary, params)
    return _FreeFunctionDetector(dictionary, params)


def marker_image(dictionary, marker_id: int, side_px: int) -> np.ndarray:
    """The black-and-white marker, ``side_px`` square, without quiet zone."""
    if hasattr(cv2.aruco, "generateImageMarker"):
        return cv2.aruco.generateImageMarker(dictionary, int(marker_id), int(side_px))
    return cv2.aruco.drawMarker(dictionary, int(marker_id), int(side_px))
