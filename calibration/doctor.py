"""What ``companion doctor`` checks through the camera: a frame, its light and focus, the markers,
and the saved calibration against what the camera sees now.

Each function returns a ``Finding``: ok, warn, fail or skip, what was seen, and for a problem how to
fix it. ``Look`` opens the configured camera once and keeps the frame for the other checks.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.settings import Settings

from . import board as board_mod
from . import camera as camera_mod
from .errors import CalibrationError
from .folder import STEPS, Folder

GRAB_TIMEOUT_S = 30.0  # a camera that gives no frame in this time is reported, not waited on
DARK, BRIGHT = 40.0, 215.0  # mean grey level (0-255) of a usable frame
CLIPPED_SHARE = 0.05  # more of the frame than this at 250+ is overexposed
EDGE_SOFT_PX, EDGE_BLURRED_PX = 5.0, 6.5  # a marker edge's width: ~2 px sharp, ~3 px in a real lamp's light
MIN_MARKER_PX = 20.0  # ArUco loses markers under ~15 px a side; keep a margin
CALIBRATE = "open /calibrate on the dashboard (or run python -m calibration)"


@dataclass(frozen=True)
class Finding:
    name: str
    status: str  # ok, warn, fail, skip
    message: str
    fix: str = ""


def _fix_for_camera(spec: str) -> str:
    if spec == "picamera":
        return ("check the ribbon cable (contacts towards the board) with the Pi off; `rpicam-hello --list-cameras` "
                "should list it; without a Pi camera use a USB webcam: [camera] source = \"camera:0\"")
    if spec.startswith("camera:"):
        return "plug the USB webcam in (`ls /dev/video*` lists it) or set [camera] source to its number"
    return "set [camera] source in the configuration file to 'picamera', 'camera:N', a video or an image folder"


@dataclass
class Look:
    """One frame from the configured camera (opened once, closed at once)."""

    spec: str
    frame: np.ndarray | None = None
    name: str = ""
    problem: str = ""
    size: tuple[int, int] = field(default=(0, 0))

    @classmethod
    def take(cls, spec: str, timeout_s: float = GRAB_TIMEOUT_S) -> "Look":
        from .sim import open_camera
        look = cls(spec)
        result: dict = {}

        def grab():
            try:
                camera = open_camera(spec)
                try:
                    result["frame"] = camera.frame()
                finally:
                    camera.close()
            except CalibrationError as exc:
                result["problem"] = str(exc)
            except Exception as exc:  # a driver's own error: say it, do not crash the doctor
                result["problem"] = f"{type(exc).__name__}: {exc}"

        worker = threading.Thread(target=grab, daemon=True)
        worker.start()
        worker.join(timeout_s)
        if worker.is_alive():
            look.problem = f"camera {spec!r} gave no frame in {timeout_s:g} s"
            return look
        look.problem = result.get("problem", "")
        look.name = spec
        frame = result.get("frame")
        if frame is not None and getattr(frame, "size", 0):
            look.frame = frame if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
            look.size = (frame.shape[1], frame.shape[0])
        elif not look.problem:
            look.problem = f"camera {spec!r} opened but gave an empty frame"
        return look

    @property
    def gray(self) -> np.ndarray:
        return cv2.cvtColor(self.frame, cv2.COLOR_BGR2GRAY)


def camera(look: Look) -> Finding:
    """The camera opens and gives a frame with enough light, not overexposed."""
    if look.frame is None:
        return Finding("camera", "fail", f"{look.problem} ([camera] source = \"{look.spec}\")", _fix_for_camera(look.spec))
    gray = look.gray
    mean = float(gray.mean())
    clipped = float((gray >= 250).mean())
    seen = f"{look.name}: {look.size[0]}x{look.size[1]} frame, brightness {mean:.0f}/255"
    if mean < DARK:
        return Finding("camera", "fail", f"{seen}: too dark to read tokens",
                       "light the table evenly (a lamp over the board), then recalibrate the light: " + CALIBRATE)
    if mean > BRIGHT or clipped > CLIPPED_SHARE:
        return Finding("camera", "warn", f"{seen}, {clipped:.0%} of it white: overexposed",
                       "move the lamp so it does not shine into the lens or onto glossy tokens; lower the exposure")
    return Finding("camera", "ok", seen)


def _edge_width_px(gray: np.ndarray, corners) -> float | None:
    """How many pixels a marker's black-to-white edge takes (focus): ~2 sharp, more when blurred."""
    widths = []
    for c in corners:
        x0, y0 = np.maximum(c.min(0).astype(int) - 2, 0)
        x1, y1 = c.max(0).astype(int) + 2
        roi = gray[y0:y1, x0:x1].astype(np.float32)
        if roi.size < 64:
            continue
        lo, hi = np.percentile(roi, (5, 95))
        grad = np.hypot(cv2.Sobel(roi, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(roi, cv2.CV_32F, 0, 1, ksize=3)) / 8
        widths.append(float((hi - lo) / max(float(np.percentile(grad, 99)), 1e-3)))
    return float(np.median(widths)) if widths else None


def markers(settings: Settings, board, look: Look) -> Finding:
    """The four markers are seen, large enough, sharp; the board gets enough pixels for tokens."""
    if look.frame is None:
        return Finding("markers", "skip", "no frame from the camera")
    result = camera_mod.check(settings, board, look.frame)
    found = camera_mod._markers(look.frame)
    if not found:
        return Finding("markers", "fail", f"no marker seen in the {look.size[0]}x{look.size[1]} frame",
                       "stick the four printed markers on the board's corners and point the camera at the "
                       "board (python -m calibration markers prints them)")
    side_px = float(np.median([np.linalg.norm(c - np.roll(c, 1, 0), axis=1).mean() for c in found.values()]))
    edge = _edge_width_px(look.gray, found.values())
    seen = (f"markers {', '.join(map(str, result.found))} seen, {side_px:.0f} px a side, "
            f"{result.px_per_mm:.2f} px/mm (tokens need {result.needed_px_per_mm:.2f})"
            + (f", edges {edge:.1f} px wide" if edge is not None else ""))
    if side_px < MIN_MARKER_PX:
        return Finding("markers", "fail", f"{seen}: too small to be found reliably",
                       f"print the markers larger or lower the camera; {result.advice}")
    if edge is not None and edge > EDGE_BLURRED_PX:  # before the count: a blurred marker is a missing one
        return Finding("markers", "fail", f"{seen}: out of focus",
                       "focus the lens on the board (Camera Module 3: autofocus, then lock it on /calibrate)")
    if not result.ok:
        return Finding("markers", "fail", seen, result.advice)
    if edge is not None and edge > EDGE_SOFT_PX:
        return Finding("markers", "warn", f"{seen}: a little soft", "focus the lens on the board, then lock it")
    return Finding("markers", "ok", seen)


def calibration(settings: Settings, folder: Folder, look: Look, loaded: bool) -> Finding:
    """The saved calibration is complete, and the camera and the light are as they were then."""
    status = folder.status()
    if all(state == "missing" for state in status.values()):
        return Finding("calibration", "warn", f"no saved calibration in {folder.path}: the camera cannot follow the game",
                       CALIBRATE)
    stale = [step for step in STEPS if status[step] != "done"]
    if stale:
        return Finding("calibration", "fail", f"the calibration in {folder.path} is not finished or stale: "
                       f"{', '.join(f'{s} ({status[s]})' for s in stale)}", f"redo {', '.join(stale)}: {CALIBRATE}")
    if look.frame is None:
        return Finding("calibration", "skip", f"{folder.path}: complete; not compared (no frame from the camera)")
    steady = _steady(settings, folder, look.frame)
    if not steady["ok"]:
        return Finding("calibration", "fail", f"{folder.path}: {steady['say']}",
                       f"put the camera and the lamp back as they were, or redo the {steady['redo']} step: {CALIBRATE}")
    if not loaded:
        return Finding("calibration", "warn", f"{folder.path}: {steady['say']}, but the service does not load it",
                       "set [camera] load_calibration = true in the configuration file, then restart the companion")
    return Finding("calibration", "ok", f"{folder.path}: {steady['say']}")


def _steady(settings: Settings, folder: Folder, frame: np.ndarray) -> dict:
    from .check import camera_steady
    return camera_steady(settings, folder, [frame])


def board_for(folder: Folder, map_name: str):
    """The board frame the calibration was made for, else the map's."""
    try:
        return board_mod.load(folder.file("board.json"))
    except CalibrationError:
        return board_mod.for_map(map_name)
