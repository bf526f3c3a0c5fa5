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


def measured(map_name: str, board_mm: tuple[float, float] | None = None, marker_mm: float | None = None,
             marker_inset_mm: float | None = None, token_mm: float | None = None) -> Board:
    """The frame of the user's own board, from a ruler: its size (``board_mm``: width, height of the
    area the markers frame), the printed markers' side, how far each marker's centre sits from the two
    board edges at its corner, and a token's width. What is not given is the companion's layout's;
    the play area keeps its share of the board. Bad values: one line naming the option."""
    base = for_map(map_name)
    w, h = board_mm if board_mm is not None else (base.width_mm, base.height_mm)
    side = marker_mm if marker_mm is not None else base.markers[0].size
    inset = marker_inset_mm if marker_inset_mm is not None else base.markers[0].center[0]
    token = token_mm if token_mm is not None else base.token_mm
    if not (150 <= w <= 2000 and 150 <= h <= 2000):
        raise CalibrationError(f"--board {w:g}x{h:g}: a board is 150 to 2000 mm on each side (width x height, mm)")
    if not 10 <= side <= 120:
        raise CalibrationError(f"--marker-mm {side:g}: a printed marker is 10 to 120 mm across")
    if not side / 2 <= inset <= min(w, h) / 4:
        raise CalibrationError(f"--marker-inset {inset:g}: a marker's centre is at least half its side ({side / 2:g} mm) "
                               f"and at most {min(w, h) / 4:g} mm from the board's edges")
    if not 8 <= token <= 60:
        raise CalibrationError(f"--token-mm {token:g}: a token is 8 to 60 mm across")
    sx, sy = w / base.width_mm, h / base.height_mm
    x0, y0, x1, y1 = base.play_area
    markers = tuple(Marker(i, c, float(side)) for i, c in
                    enumerate([(inset, inset), (w - inset, inset), (w - inset, h - inset), (inset, h - inset)]))
    return Board(base.map, float(w), float(h), (x0 * sx, y0 * sy, x1 * sx, y1 * sy), markers, float(token))


def fit_problem(board: Board, corners: dict) -> str | None:
    """Whether the frame fits what the camera sees (``corners``: marker id -> 4 image corners): the
    markers' centres fix the board's plane, and each marker's own corners, taken back to board mm,
    must measure the side given. One sentence saying which measurement looks wrong, or None."""
    import cv2
    if sorted(corners) != [0, 1, 2, 3]:
        return None
    src = np.array([corners[m.id].mean(0) for m in board.markers], np.float64)
    dst = np.array([m.center for m in board.markers], np.float64)
    to_mm = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
    across, down = [], []
    for m in board.markers:
        c = cv2.perspectiveTransform(corners[m.id].reshape(1, 4, 2), to_mm)[0]
        across += [np.linalg.norm(c[1] - c[0]), np.linalg.norm(c[2] - c[3])]
        down += [np.linalg.norm(c[3] - c[0]), np.linalg.norm(c[2] - c[1])]
    side = board.markers[0].size
    sx, sy = float(np.mean(across)) / side, float(np.mean(down)) / side
    if abs(sx - 1) <= FIT_TOLERANCE and abs(sy - 1) <= FIT_TOLERANCE:
        return None
    seen = f"the markers measure {sx * side:.0f} x {sy * side:.0f} mm on the board the camera sees, not {side:g} mm"
    if abs(sx - sy) > FIT_TOLERANCE:
        wrong = "the board's width" if abs(sx - 1) > abs(sy - 1) else "the board's height"
        return f"{seen}: {wrong} (between the markers' centres) looks wrong; measure it again"
    return (f"{seen}: the marker side or the distance between the markers' centres looks wrong "
            f"(expected {board.width_mm - 2 * board.markers[0].center[0]:.0f} x "
            f"{board.height_mm - 2 * board.markers[0].center[1]:.0f} mm centre to centre); measure them again")


FIT_TOLERANCE = 0.04  # markers may measure this share off their printed side (print, ruler, camera)


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
