"""Board geometry: region outlines and registration markers in board millimetres, and its file format.

The format is documented in docs/board-geometry.md.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from maps import files

from .errors import GeometryError

FORMAT = "smallworld-geometry/1"
MARKER_IDS = (0, 1, 2, 3)


@dataclass(frozen=True)
class Marker:
    """A square ArUco marker (DICT_4X4_50) printed at a known place: centre and side in mm."""

    id: int
    center: tuple[float, float]
    size: float

    def corners(self) -> np.ndarray:
        """The four corners in mm, in ArUco order (top-left, top-right, bottom-right, bottom-left)."""
        cx, cy = self.center
        h = self.size / 2
        return np.array([[cx - h, cy - h], [cx + h, cy - h], [cx + h, cy + h], [cx - h, cy + h]],
                        dtype=np.float64)


@dataclass(frozen=True, eq=False)
class Geometry:
    """Where everything is on one board, in millimetres from the top-left corner of the board frame."""

    map: str
    width_mm: float
    height_mm: float
    play_area: tuple[float, float, float, float]
    markers: tuple[Marker, ...]
    regions: dict  # id -> (N, 2) float array, polygon in mm
    token_mm: float = 20.0
    adjacency_report: dict = field(default_factory=dict)

    @property
    def region_ids(self) -> tuple[int, ...]:
        return tuple(sorted(self.regions))

    def marker(self, marker_id: int) -> Marker:
        for m in self.markers:
            if m.id == marker_id:
                return m
        raise KeyError(marker_id)

    def view(self, margin_mm: float = 8.0) -> tuple[float, float, float, float]:
        """The rectangle (x0, y0, x1, y1) in mm that rectified images show: the play area plus a margin."""
        x0, y0, x1, y1 = self.play_area
        return (max(0.0, x0 - margin_mm), max(0.0, y0 - margin_mm),
                min(self.width_mm, x1 + margin_mm), min(self.height_mm, y1 + margin_mm))

    def to_json(self) -> str:
        data = {
            "format": FORMAT,
            "map": self.map,
            "width_mm": self.width_mm,
            "height_mm": self.height_mm,
            "play_area": list(self.play_area),
            "token_mm": self.token_mm,
            "markers": [{"id": m.id, "center": list(m.center), "size": m.size} for m in self.markers],
            "regions": [{"id": rid, "polygon": [[round(float(x), 2), round(float(y), 2)] for x, y in poly]}
                        for rid, poly in sorted(self.regions.items())],
        }
        if self.adjacency_report:
            data["adjacency"] = self.adjacency_report
        return json.dumps(data, indent=1)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json(), encoding="utf-8")


def load(path: str | Path) -> Geometry:
    """Read a geometry file; any problem is a GeometryError naming the file."""
    try:
        text = files.read_text(path, "geometry file", 1024 * 1024)  # a regular file, of a bounded size
    except files.BadInput as exc:
        raise GeometryError(str(exc)) from None
    return parse(text, str(path))


def parse(text: str, source: str = "<geometry>") -> Geometry:
    """Geometry from the text of a geometry file."""
    def fail(msg: str) -> GeometryError:
        return GeometryError(f"{source}: {msg}")

    try:
        data = files.loads(text, source)
    except files.BadInput as exc:
        raise GeometryError(str(exc).replace("bad JSON", "not valid JSON")) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise fail(f"format must be {FORMAT!r}")
    try:
        width, height = float(data["width_mm"]), float(data["height_mm"])
        play = tuple(float(v) for v in data["play_area"])
        token_mm = float(data.get("token_mm", 20.0))
        markers = tuple(Marker(int(m["id"]), (float(m["center"][0]), float(m["center"][1])), float(m["size"]))
                        for m in data["markers"])
        regions = {}
        for r in data["regions"]:
            poly = np.asarray(r["polygon"], dtype=np.float64)
            rid = int(r["id"])
            if poly.ndim != 2 or poly.shape[1] != 2 or len(poly) < 3:
                raise fail(f"region {rid}: polygon needs at least 3 [x, y] points")
            if rid in regions:
                raise fail(f"region {rid}: id is used twice")
            regions[rid] = poly
    except GeometryError:
        raise
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise fail(f"missing or malformed field: {exc}") from None
    if width <= 0 or height <= 0 or len(play) != 4:
        raise fail("width_mm, height_mm must be positive and play_area is [x0, y0, x1, y1]")
    if sorted(m.id for m in markers) != list(MARKER_IDS):
        raise fail("markers must be exactly ids 0, 1, 2, 3")
    if not regions:
        raise fail("no regions")
    return Geometry(str(data.get("map", "")), width, height, play, markers, regions, token_mm,
                    data.get("adjacency", {}))


class Raster:
    """A geometry drawn at a scale: the mm→pixel transform of the rectified view and region label maps."""

    def __init__(self, geometry: Geometry, px_per_mm: float, margin_mm: float = 8.0):
        self.geometry = geometry
        self.px_per_mm = s = float(px_per_mm)
        x0, y0, x1, y1 = geometry.view(margin_mm)
        self.origin = (x0, y0)
        self.size = (int(round((x1 - x0) * s)), int(round((y1 - y0) * s)))  # (width, height)
        self.mm_to_px = np.array([[s, 0, -x0 * s], [0, s, -y0 * s], [0, 0, 1]], dtype=np.float64)
        self.ids = np.array(geometry.region_ids, dtype=np.int32)
        w, h = self.size
        labels = np.full((h, w), -1, dtype=np.int16)
        for index, rid in enumerate(self.ids):
            pts = self.to_px(geometry.regions[int(rid)])
            cv2.fillPoly(labels, [np.round(pts * 16).astype(np.int32)], int(index), lineType=cv2.LINE_8, shift=4)
        self.labels = labels  # index into ids, -1 outside every region
        # Every pixel's nearest region, so a token on a border line still belongs somewhere.
        inside = (labels >= 0).astype(np.uint8)
        if inside.all():
            self.nearest = labels.copy()
        else:
            _, lab = cv2.distanceTransformWithLabels(1 - inside, cv2.DIST_L2, 5, labelType=cv2.DIST_LABEL_PIXEL)
            lookup = np.full(lab.max() + 1, -1, dtype=np.int16)
            ys, xs = np.nonzero(inside)
            lookup[lab[ys, xs]] = labels[ys, xs]
            self.nearest = lookup[lab]
        self.areas = np.bincount(labels[labels >= 0].ravel(), minlength=len(self.ids))
        play = np.zeros((h, w), np.uint8)
        px0, py0, px1, py1 = geometry.play_area
        p = self.to_px(np.array([[px0, py0], [px1, py1]]))
        cv2.rectangle(play, tuple(int(v) for v in p[0]), tuple(int(v) for v in p[1]), 255, -1)
        self.play_mask = play

    def to_px(self, points_mm: np.ndarray) -> np.ndarray:
        s = self.px_per_mm
        return (np.asarray(points_mm, dtype=np.float64) - np.array(self.origin)) * s


@lru_cache(maxsize=16)
def _raster_cached(geometry: Geometry, px_per_mm: float, margin_mm: float) -> Raster:
    return Raster(geometry, px_per_mm, margin_mm)


def raster(geometry: Geometry, px_per_mm: float, margin_mm: float = 8.0) -> Raster:
    """The (cached) raster of a geometry at a scale."""
    return _raster_cached(geometry, float(px_per_mm), float(margin_mm))


@lru_cache(maxsize=8)
def room(geometry: Geometry) -> dict[int, int]:
    """How many tokens lie side by side on each region: the area a token's centre can reach (half a
    token in from the outline) over a token's share of a packed layout, plus one. A region showing
    as many as its room is full: a token more goes on top of another, where the camera cannot see it."""
    tok = geometry.token_mm
    out = {}
    for rid, poly in geometry.regions.items():
        inner = int((inside_distance(poly)[0] >= tok / 2).sum())
        out[rid] = 1 + int(inner / (tok * tok * 0.866))
    return out


def inside_distance(poly: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Millimetres from each point of a region (a 1 mm raster over its box, with a margin, so every
    point of the outline is seen) to its outline, and the raster's corner in board millimetres."""
    lo = poly.min(0) - 2.0
    size = np.ceil(poly.max(0) - lo).astype(int) + 4
    mask = np.zeros((size[1], size[0]), np.uint8)
    cv2.fillPoly(mask, [np.round(poly - lo).astype(np.int32)], 255)
    return cv2.distanceTransform(mask, cv2.DIST_L2, 5), lo
