"""Step 1, the camera: how many pixels each board millimetre gets, where to mount it, and the lock.

Pixels per millimetre come from the registered markers (their known size against their size in
the picture). A token is read from a patch of ``Settings.feature_px`` pixels square; a camera
giving a token fewer pixels than that cannot read it. Mount height follows from a pinhole camera: a lens of
horizontal field of view F at height h over the board spans 2 h tan(F/2) millimetres.
"""
from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass

import cv2
import numpy as np

from vision.markers import detector
from vision.settings import Settings

from .board import Board
from .errors import CalibrationError

FOV_DEG = 66.0  # Raspberry Pi Camera Module 3, horizontal
FILL = 0.92     # aim for the board to fill this share of the frame's width or height


@dataclass(frozen=True)
class CameraCheck:
    """What the camera sees of the board and what to do about it (``advice`` is one line)."""

    found: tuple[int, ...]
    px_per_mm: float
    needed_px_per_mm: float
    board_share: float          # share of the frame's width the board spans
    sharpness: float            # variance of the Laplacian over the markers (focus)
    height_mm: float            # estimated height of the lens over the board now
    aim_height_mm: tuple[float, float]  # mount between these (see the board whole, tokens readable)
    ok: bool
    advice: str

    def to_dict(self) -> dict:
        d = asdict(self)
        d["found"] = list(self.found)
        return {k: (round(v, 3) if isinstance(v, float) else v) for k, v in d.items()}


def _markers(image: np.ndarray) -> dict[int, np.ndarray]:
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    corners, ids, _ = detector().detectMarkers(gray)
    out = {}
    if ids is not None:
        for c, i in zip(corners, ids.ravel()):
            if 0 <= int(i) <= 3 and int(i) not in out:
                out[int(i)] = c.reshape(4, 2).astype(np.float64)
    return out


def check(settings: Settings, board: Board, image: np.ndarray, fov_deg: float = FOV_DEG) -> CameraCheck:
    """Measure the camera over the board from one frame with at least one marker visible."""
    if image is None or image.size == 0:
        raise CalibrationError("camera: empty frame")
    h, w = image.shape[:2]
    found = _markers(image)
    needed = settings.feature_px / board.token_mm  # a token must span at least one feature patch
    tan = math.tan(math.radians(fov_deg) / 2)
    span = max(board.width_mm, board.height_mm * w / h)  # the frame dimension that limits the board
    highest_readable = w / (2 * tan * needed)
    lowest_whole = span / (FILL * 2 * tan)
    if not found:
        return CameraCheck((), 0.0, needed, 0.0, 0.0, 0.0, (lowest_whole, highest_readable), False,
                           "No marker seen: point the camera at the board and check the markers are stuck on.")
    sides = [np.linalg.norm(c - np.roll(c, 1, 0), axis=1).mean() / board.marker(i).size for i, c in found.items()]
    ppm = float(np.median(sides))
    height = w / (2 * tan * ppm)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    sharp = []
    for c in found.values():
        x0, y0 = np.maximum(c.min(0).astype(int), 0)
        x1, y1 = c.max(0).astype(int)
        roi = gray[y0:y1, x0:x1]
        if roi.size > 16:
            sharp.append(cv2.Laplacian(roi, cv2.CV_32F).var())
    sharpness = float(np.median(sharp)) if sharp else 0.0
    share = board.width_mm * ppm / w
    aim = (lowest_whole, highest_readable)
    if lowest_whole > highest_readable:
        ok, advice = False, (f"This camera cannot see the whole board and read its tokens at {w}x{h}: "
                             "use a higher resolution or a wider lens.")
    elif ppm < needed:
        ok, advice = False, (f"The board is too small in the picture ({ppm:.2f} px/mm, tokens need {needed:.2f}): "
                             f"lower the camera from about {height / 10:.0f} cm to {aim[1] / 10:.0f} cm or less "
                             f"(but not under {aim[0] / 10:.0f} cm).")
    elif len(found) < 4 and share > 1.0:
        ok, advice = False, (f"The board does not fit in the picture: raise the camera to about "
                             f"{aim[0] / 10:.0f} cm.")
    elif len(found) < 4:
        ok, advice = False, (f"Only markers {', '.join(map(str, sorted(found)))} are in view: "
                             "centre the camera over the board.")
    else:
        ok, advice = True, (f"Good: {ppm:.2f} px/mm (tokens need {needed:.2f}); the camera is about "
                            f"{height / 10:.0f} cm over the board.")
    return CameraCheck(tuple(sorted(found)), ppm, needed, share, sharpness, height, aim, ok, advice)


def lock(folder, camera, result: CameraCheck) -> dict:
    """Write camera.json: the check and the settings fixed now (focus, exposure, white balance)."""
    data = {"format": "smallworld-camera/1", "camera": getattr(camera, "name", ""), "check": result.to_dict(),
            "controls": camera.lock()}
    folder.path.mkdir(parents=True, exist_ok=True)
    folder.file("camera.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    folder.record("camera", ["camera.json"], {"px_per_mm": round(result.px_per_mm, 3), "ok": result.ok})
    return data
