"""Step 2, the markers: the printable sheet, the board frame, and watching until registration is stable."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from vision.errors import RegistrationError
from vision.markers import write_sheet
from vision.register import register
from vision.settings import Settings

from .board import Board
from .camera import _markers

STABLE_FRAMES = 5
STABLE_PX = 2.0


def prepare(folder, board: Board, dpi: int = 200) -> list[str]:
    """Write board.json and the marker sheet (markers.png, markers.pdf: A4, true size) into the folder."""
    folder.path.mkdir(parents=True, exist_ok=True)
    folder.file("board.json").write_text(board.to_json(), encoding="utf-8")
    size = board.markers[0].size
    write_sheet(folder.path, size, dpi)
    folder.record("markers", ["board.json", "markers.png", "markers.pdf"],
                  {"map": board.map, "marker_mm": size})
    return ["board.json", "markers.png", "markers.pdf"]


@dataclass
class MarkerWatch:
    """Frames in; which markers are seen and whether registration has held still for ``frames`` frames."""

    settings: Settings
    board: Board
    frames: int = STABLE_FRAMES
    run: int = 0
    last: np.ndarray | None = None
    history: list = field(default_factory=list)

    def feed(self, image: np.ndarray) -> dict:
        seen = sorted(_markers(image))
        reason = ""
        corners = None
        try:
            reg = register(self.settings, self.board.geometry(), image)
            corners = np.concatenate([reg.corners[i] for i in range(4)])
            error = reg.error_px
        except RegistrationError as exc:
            reason, error = str(exc), None
        if corners is not None and len(seen) == 4 and (
                self.last is None or np.abs(corners - self.last).max() <= STABLE_PX):
            self.run += 1
        else:
            self.run = 1 if (corners is not None and len(seen) == 4) else 0
        if corners is not None and len(seen) < 4:
            missing = sorted(set(range(4)) - set(seen))
            reason = f"marker {', '.join(map(str, missing))} not seen"
        self.last = corners
        out = {"seen": seen, "stable": self.run >= self.frames, "steady_frames": self.run,
               "error_px": None if error is None else round(error, 2), "reason": reason}
        self.history.append(out)
        return out
