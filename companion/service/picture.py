"""The board as it looks: a picture of the board and each region's outline in its pixels.

Three sources, best first:

- ``from_calibration``: the calibration's rectified photo of the user's own empty board, with the
  outlines the calibration grew (a real table);
- ``rendered``: the board the demo's simulated camera films, printed by vision's renderer (the demo);
- ``schematic``: no picture, only outlines (the cells of the schematic layout), drawn as a clean map.

``Pictures`` keeps them per map and builds the slow ones (a rendered board takes seconds) in a
background thread, so a page never waits: until a picture is ready the dashboard draws the schematic.
"""
from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field

import cv2
import numpy as np

log = logging.getLogger(__name__)


@dataclass(eq=False)
class Picture:
    """A board's picture (JPEG bytes, or None for a schematic) and its regions' outlines in its pixels."""

    map: str
    source: str  # "photo", "rendered" or "schematic"
    width: int
    height: int
    outlines: dict  # region id -> (N, 2) float array, pixels
    jpeg: bytes | None = None
    anchors: dict = field(default_factory=dict)  # region id -> (x, y, room): where its pieces are drawn

    def __post_init__(self):
        if not self.anchors:
            self.anchors = {rid: anchor(poly) for rid, poly in self.outlines.items()}


def anchor(poly: np.ndarray) -> tuple[float, float, float]:
    """The point deepest inside a region (its pieces go there) and how far it is from the outline."""
    poly = np.asarray(poly, np.float64)
    lo = poly.min(0) - 2.0
    size = np.ceil(poly.max(0) - lo).astype(int) + 4
    mask = np.zeros((size[1], size[0]), np.uint8)
    cv2.fillPoly(mask, [np.round(poly - lo).astype(np.int32)], 255)
    dist = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
    y, x = np.unravel_index(int(dist.argmax()), dist.shape)
    return round(float(x + lo[0]), 1), round(float(y + lo[1]), 1), round(float(dist[y, x]), 1)


def _jpeg(image: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 82])
    if not ok:
        raise ValueError("cannot encode the board picture")
    return data.tobytes()


def from_calibration(calibration, source: str = "photo") -> Picture:
    """A vision ``Calibration``'s rectified empty board and its outlines (the raster's pixels)."""
    reference = calibration.reference
    r = reference.raster
    outlines = {int(rid): r.to_px(poly) for rid, poly in calibration.geometry.regions.items()}
    h, w = reference.image.shape[:2]
    return Picture(calibration.geometry.map, source, w, h, outlines, _jpeg(reference.image))


def rendered(board, seed: int = 0) -> Picture:
    """The demo's board as vision's renderer prints it (the geometry the simulated camera films)."""
    from vision import layout
    from vision.render import TIERS, Session
    from vision.render.scene import TABLE_MM
    from .camera_demo import DESIGN_SEED
    geometry = layout.generate(board)
    session = Session(geometry, seed, DESIGN_SEED, TIERS["clean"])
    x0, y0, x1, y1 = geometry.view(8.0)
    s = session.s
    px0, py0 = int((x0 + TABLE_MM) * s), int((y0 + TABLE_MM) * s)
    px1, py1 = int((x1 + TABLE_MM) * s), int((y1 + TABLE_MM) * s)
    image = session._canvas[py0:py1, px0:px1]
    outlines = {int(rid): (np.asarray(poly) - [x0, y0]) * s for rid, poly in geometry.regions.items()}
    return Picture(board.name, "rendered", px1 - px0, py1 - py0, outlines, _jpeg(image))


def schematic(board, width: int = 1000, height: int = 640) -> Picture:
    """No picture: the cells around the schematic layout's places (a Voronoi diagram), one per region."""
    from .layout import schematic as places
    centres = places(board)
    subdiv = cv2.Subdiv2D((0, 0, width, height))
    ids = list(centres)
    for rid in ids:
        x, y, _ = centres[rid]
        subdiv.insert((float(min(max(x, 1), width - 1)), float(min(max(y, 1), height - 1))))
    facets, _ = subdiv.getVoronoiFacetList([])
    outlines = {}
    box = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    for rid, facet in zip(ids, facets):
        _, clipped = cv2.intersectConvexConvex(np.asarray(facet, np.float32), box)
        poly = (clipped if clipped is not None and len(clipped) else np.asarray(facet)).reshape(-1, 2)
        outlines[rid] = poly.astype(np.float64)
    return Picture(board.name, "schematic", width, height, outlines)


class Pictures:
    """The picture of each map the service knows, built once in the background."""

    def __init__(self, saved=None, rendered_maps: bool = False):
        self.saved = saved  # calibrated.Saved: its map has the user's photo
        self.rendered_maps = rendered_maps  # the demo: draw the board its simulated camera films
        self._ready: dict[str, Picture] = {}
        self._building: set[str] = set()
        self._lock = threading.Lock()

    def get(self, board) -> tuple[Picture | None, bool]:
        """The best picture ready for this board, and whether a better one is still being made."""
        name = board.name
        with self._lock:
            if name in self._ready:  # None: its making failed, the schematic stays
                return self._ready[name], False
            wanted = self._maker(board)
            if wanted is None:
                return None, False
            if name not in self._building:
                self._building.add(name)
                threading.Thread(target=self._build, args=(board, wanted), name=f"picture-{name}", daemon=True).start()
            return None, True

    def _maker(self, board):
        if self.saved is not None and self.saved.map == board.name:
            return lambda: from_calibration(self.saved.calibration)
        if self.rendered_maps and len({getattr(r, "island", 0) for r in board}) == 1:
            return lambda: rendered(board)
        return None

    def _build(self, board, make) -> None:
        try:
            picture = make()
        except Exception:  # a picture is a nicety: the schematic stays
            log.exception("cannot make the picture of map %s", board.name)
            picture = None
        with self._lock:
            self._building.discard(board.name)
            self._ready[board.name] = picture

    def image(self, name: str) -> bytes | None:
        with self._lock:
            picture = self._ready.get(name)
        return picture.jpeg if picture is not None else None
