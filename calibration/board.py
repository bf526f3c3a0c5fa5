"""The board frame: the map, the board's size, where the four markers and the play area are.

Before regions are known the frame is enough to register and rectify the board; it is stored as
``board.json`` and, with the grown regions, becomes ``geometry.json`` (vision's geometry format).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import maps
from vision import layout
from vision.geometry import Geometry, Marker

from .errors import CalibrationError

FORMAT = "smallworld-board/1"


@dataclass(frozen=True)
class Board:
    """The frame of one printed board in millimetres (no regions)."""

    map: str
    width_mm: float
    height_mm: float
    play_area: tuple[float, float, float, float]
    markers: tuple[Marker, ...]
    token_mm: float = 20.0

    def geometry(self, regions: dict | None = None, report: dict | None = None) -> Geometry:
        """A vision Geometry of this frame; without regions, the play area stands in as region 0."""
        if not regions:
            x0, y0, x1, y1 = self.play_area
            regions = {0: np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], float)}
        return Geometry(self.map, self.width_mm, self.height_mm, self.play_area, self.markers, dict(regions),
                        self.token_mm, report or {})

    def tray(self) -> tuple[float, float, float, float]:
        """The tray: the strip of board between the top markers, above the play area (x0, y0, x1, y1 mm)."""
        m0, m1 = self.marker(0), self.marker(1)
        x0 = m0.center[0] + m0.size / 2 + 12.0
        x1 = m1.center[0] - m1.size / 2 - 12.0
        y1 = self.play_area[1] - 3.0
        return (x0, 3.0, x1, max(y1, 3.0 + self.token_mm * 1.6))

    def marker(self, marker_id: int) -> Marker:
        return next(m for m in self.markers if m.id == marker_id)

    def to_json(self) -> str:
        return json.dumps({"format": FORMAT, "map": self.map, "width_mm": self.width_mm,
                           "height_mm": self.height_mm, "play_area": list(self.play_area),
                           "token_mm": self.token_mm,
                           "markers": [{"id": m.id, "center": list(m.center), "size": m.size} for m in self.markers]},
                          indent=1)


def for_map(map_name: str) -> Board:
    """The board frame for a built-in map or a house map file (the size and marker places of the
    companion's layout). ``map`` is what ``maps.load`` takes back: the name, or the file's absolute path."""
    try:
        board = maps.load(map_name)
    except ValueError as exc:
        raise CalibrationError(f"map {map_name!r}: {exc}") from None
    g = layout.generate(board)
    ref = map_name if map_name in maps.builtin_names() else str(Path(map_name).resolve())
    return Board(ref, g.width_mm, g.height_mm, g.play_area, g.markers, g.token_mm)


def from_geometry(g: Geometry) -> Board:
    return Board(g.map, g.width_mm, g.height_mm, tuple(g.play_area), tuple(g.markers), g.token_mm)


def load(path: str | Path) -> Board:
    """Read board.json; any problem is one line naming the file and field."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CalibrationError(f"{path}: missing (run the markers step first)") from None
    except (OSError, ValueError) as exc:
        raise CalibrationError(f"{path}: not readable JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CalibrationError(f"{path}: field 'format' must be {FORMAT!r}")
    try:
        markers = tuple(Marker(int(m["id"]), (float(m["center"][0]), float(m["center"][1])), float(m["size"]))
                        for m in data["markers"])
        play = tuple(float(v) for v in data["play_area"])
        out = Board(str(data["map"]), float(data["width_mm"]), float(data["height_mm"]), play, markers,
                    float(data.get("token_mm", 20.0)))
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise CalibrationError(f"{path}: missing or malformed field {exc}") from None
    if sorted(m.id for m in markers) != [0, 1, 2, 3]:
        raise CalibrationError(f"{path}: field 'markers' must hold ids 0, 1, 2, 3")
    if len(play) != 4:
        raise CalibrationError(f"{path}: field 'play_area' must be [x0, y0, x1, y1]")
    return out
