"""Step 3, the empty board: a still capture that becomes the reference for detection.

Writes ``empty.png`` (the camera frame, what ``vision.observe.Calibration.build`` takes),
``empty-rectified.png`` (the board seen from above at ``REGION_PX_PER_MM``, for the regions step)
and ``reference.json`` (the registration it was taken with).
"""
from __future__ import annotations

import json

import cv2
import numpy as np

from vision.errors import RegistrationError
from vision.geometry import raster
from vision.register import rectify, register
from vision.settings import Settings
from vision.still import is_still, thumbnail

from .board import Board, fit_problem
from .camera import _markers
from .errors import CalibrationError

REGION_PX_PER_MM = 2.0  # the rectified photo the regions are grown on
MARGIN_MM = 8.0


def rectified_view(board: Board, px_per_mm: float = REGION_PX_PER_MM):
    """The raster (mm <-> px) of the rectified board photo: the play area plus a margin."""
    return raster(board.geometry(), px_per_mm, MARGIN_MM)


def capture(settings: Settings, folder, board: Board, frames: list[np.ndarray]) -> dict:
    """Check the frames are still and registered, keep their median as the empty board."""
    if not frames:
        raise CalibrationError("reference: no frames")
    thumbs = [thumbnail(settings, f) for f in frames]
    for a, b in zip(thumbs, thumbs[1:]):
        s = is_still(settings, a, b)
        if not s.still:
            raise CalibrationError(f"reference: the picture is moving ({s.moving_share:.1%} changed); "
                                   "keep hands off the board and try again")
    problem = fit_problem(board, _markers(frames[-1]))
    if problem:
        raise CalibrationError(f"board: {problem} (python -m calibration markers --board WxH --marker-mm S "
                               "--marker-inset D, or the board's measurements on /calibrate/markers)")
    try:
        reg = register(settings, board.geometry(), frames[-1])
    except RegistrationError as exc:
        raise CalibrationError(f"reference: {exc}") from None
    if len(reg.found) < 4:
        raise CalibrationError(f"reference: {reg.reason}; uncover every marker")
    empty = np.median(np.stack(frames), 0).astype(np.uint8) if len(frames) >= 3 else frames[-1]
    r = rectified_view(board)
    flat = rectify(settings, empty, reg, r)
    folder.path.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(folder.file("empty.png")), empty)
    cv2.imwrite(str(folder.file("empty-rectified.png")), flat)
    info = {"format": "smallworld-reference/1", "homography_mm_to_px": reg.homography.tolist(),
            "error_px": round(reg.error_px, 3), "frame_size": [empty.shape[1], empty.shape[0]],
            "rectified": {"px_per_mm": REGION_PX_PER_MM, "origin_mm": list(r.origin),
                          "size_px": list(r.size)},
            "brightness": round(float(flat.mean()), 2)}
    folder.file("reference.json").write_text(json.dumps(info, indent=1), encoding="utf-8")
    folder.record("reference", ["empty.png", "empty-rectified.png", "reference.json"],
                  {"error_px": info["error_px"]})
    return info


def load_empty(folder) -> np.ndarray:
    p = folder.file("empty.png")
    img = cv2.imread(str(p), cv2.IMREAD_COLOR) if p.is_file() else None
    if img is None:
        raise CalibrationError(f"{p}: missing or unreadable (run the reference step)")
    return img


def load_rectified(folder) -> np.ndarray:
    p = folder.file("empty-rectified.png")
    img = cv2.imread(str(p), cv2.IMREAD_COLOR) if p.is_file() else None
    if img is None:
        raise CalibrationError(f"{p}: missing or unreadable (run the reference step)")
    return img
