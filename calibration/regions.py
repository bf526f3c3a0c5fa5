"""Step 4, the regions: one click inside each region grows its outline along the printed borders.

The rectified photo of the empty board is flooded from the clicks (OpenCV's marker watershed on a
smoothed copy of the play area, less its mean over a few millimetres so that a lamp's glare is no
slope to climb): each region spreads over its own print until it meets a neighbour's flood, which
happens on the dark border line between them. Each flood starts from the print around its click,
wider than a printed symbol (a click on a symbol does not start inside its ring). The printed border lines
themselves belong to no flood: they are found apart (thin dark lines, whatever their colour
around) and shared out to the nearest region, so each border runs down the middle of its line and
short borders between three-region junctions keep their length. The outlines become a vision
geometry file; the map then says which regions should touch, and the check reports the pairs that
do not.
"""
from __future__ import annotations

import json

import cv2
import numpy as np

import maps
from vision.geometry import Geometry, raster

from .board import Board
from .errors import CalibrationError
from .reference import MARGIN_MM, REGION_PX_PER_MM, rectified_view

SEED_RADIUS_MM = 3.0  # the least seed around a click
SEED_MAX_MM = 12.0  # the widest: wider than a printed symbol, well inside a region
NETWORK_MM = 20.0  # border lines join into a network this long; a symbol's specks are shorter
FLAT_MM = 5.0  # the flood runs on the print less its mean over this (sigma): no slope of light (glare) in it
MIN_TOUCH_MM = 4.0
LINE_MM = 1.6  # half the width of the black-hat that finds printed border lines
LINE_SHARE = 0.35  # ... and at least this share of the clearest lines' darkness
LINE_MIN_DARKNESS = 0.1  # a line is at least 10 % darker than the print beside it


def prompts(map_name: str) -> list[dict]:
    """The regions in the order the companion asks for them, each named by terrain and symbols."""
    try:
        board = maps.load(map_name)
    except ValueError as exc:
        raise CalibrationError(f"map {map_name!r}: {exc}") from None
    out = []
    for r in board:
        words = [r.terrain.capitalize()] + [s.capitalize() for s in sorted(r.symbols)]
        if r.lost_tribe:
            words.append("Lost Tribe")
        out.append({"id": r.id, "terrain": r.terrain, "symbols": sorted(r.symbols),
                    "name": r.describe(), "prompt": f"Click inside {r.describe()}",
                    "words": ", ".join(words)})
    return out


def check_seeds(board: Board, seeds: dict) -> dict[int, tuple[float, float]]:
    """Validated clicks {region id: (x mm, y mm)}: every region of the map once, inside the play area."""
    try:
        ids = maps.load(board.map).ids
    except ValueError as exc:
        raise CalibrationError(f"map {board.map!r}: {exc}") from None
    out = {}
    x0, y0, x1, y1 = board.play_area
    for k, v in seeds.items():
        try:
            rid = int(k)
            x, y = float(v[0]), float(v[1])
        except (TypeError, ValueError, IndexError):
            raise CalibrationError(f"seeds: region {k!r}: a click is [x_mm, y_mm]") from None
        if rid not in ids:
            raise CalibrationError(f"seeds: region {rid} is not on map {board.map}")
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            raise CalibrationError(f"seeds: region {rid}: click ({x:.0f}, {y:.0f}) mm is outside the play area")
        out[rid] = (x, y)
    missing = [i for i in ids if i not in out]
    if missing:
        raise CalibrationError(f"seeds: no click yet for region{'s' if len(missing) > 1 else ''} "
                               f"{', '.join(map(str, missing))}")
    return out


def grow(board: Board, rectified: np.ndarray, seeds: dict, px_per_mm: float = REGION_PX_PER_MM) -> dict:
    """Region outlines {id: (N, 2) mm polygon} grown from one click per region on the rectified photo."""
    r = rectified_view(board, px_per_mm)
    w, h = r.size
    if rectified.shape[:2] != (h, w):
        raise CalibrationError(f"regions: the rectified photo is {rectified.shape[1]}x{rectified.shape[0]} px, "
                               f"expected {w}x{h} (redo the reference step)")
    ids = sorted(seeds)
    play = r.play_mask > 0
    ys, xs = np.nonzero(play)
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    # The flood runs on the play area alone: the image's edge stops it. (A flood from outside the
    # play area would run along the board's outer border line and into every region on the edge.)
    lines = border_lines(rectified, px_per_mm, play)
    network = line_network(lines[y0:y1, x0:x1], px_per_mm)
    markers = np.zeros((y1 - y0, x1 - x0), np.int32)
    clicks = np.array([r.to_px(np.array(seeds[rid])) - (x0, y0) for rid in ids], np.float64)
    for k, radius in enumerate(seed_radii(network, clicks, px_per_mm), 1):
        cx, cy = clicks[k - 1]
        cv2.circle(markers, (int(round(cx)), int(round(cy))), radius, k, -1)
    crop = np.ascontiguousarray(rectified[y0:y1, x0:x1])
    smooth = cv2.bilateralFilter(crop, 7, 40, 5)
    smooth = cv2.GaussianBlur(smooth, (0, 0), 0.8)
    # The flood runs on the print less its mean over a few millimetres (a print's detail, its border lines and the
    # steps of colour between regions, stay). A lamp's glare spot on the empty board is a slope of light whose
    # rise around its bright middle cost the flood more than a border line that the glare had washed out: the
    # neighbour's flood crossed the line and took the region all but the glare's middle.
    base = cv2.GaussianBlur(smooth, (0, 0), FLAT_MM * px_per_mm).astype(np.int16)
    smooth = np.clip(smooth.astype(np.int16) - base + 128, 0, 255).astype(np.uint8)
    cv2.watershed(smooth, markers)
    lab = np.zeros((h, w), np.int32)
    lab[y0:y1, x0:x1] = np.where(markers > 0, markers, 0)
    # A flood can run along a border line (one dark line is smooth to cross along) and claim it, up
    # to where it meets two other regions' line: a strand that shortens their shared border. The
    # line pixels are taken back from every flood, and an opening as wide as a blurred line cuts off
    # what is left of strands (on faint stretches of line).
    lab[lines | ~play] = 0
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius_line(px_per_mm) + 1,) * 2)
    for k in range(1, len(ids) + 1):
        m = (lab == k).astype(np.uint8)
        x, y, bw, bh = cv2.boundingRect(m)
        if bw == 0:
            continue
        sub = m[y:y + bh, x:x + bw]
        thin = (sub > 0) & (cv2.morphologyEx(sub, cv2.MORPH_OPEN, kernel) == 0)
        lab[y:y + bh, x:x + bw][thin] = 0
    # Pixels on the border lines go to their nearest region, so neighbours share one border.
    holes = ((lab == 0) & play).astype(np.uint8)
    if holes.any() and (lab > 0).any():
        _, near = cv2.distanceTransformWithLabels(holes, cv2.DIST_L2, 5, labelType=cv2.DIST_LABEL_PIXEL)
        lookup = np.zeros(near.max() + 1, np.int32)
        ys, xs = np.nonzero(holes == 0)
        lookup[near[ys, xs]] = lab[ys, xs]
        lab = np.where(holes > 0, lookup[near], lab)
        lab[~play] = 0
    polys = {}
    for k, rid in enumerate(ids, 1):
        polys[rid] = _outline((lab == k).astype(np.uint8), r, px_per_mm)
        if polys[rid] is None:
            cx, cy = seeds[rid]
            d = board.token_mm / 2
            polys[rid] = np.array([[cx - d, cy - d], [cx + d, cy - d], [cx + d, cy + d], [cx - d, cy + d]])
    return polys


def line_network(lines: np.ndarray, px_per_mm: float) -> np.ndarray:
    """The printed border lines (a ``border_lines`` mask) that join into the board's network: not a printed
    symbol's specks nor the noise of a grainy camera, which are short."""
    n, lab, stats, _ = cv2.connectedComponentsWithStats(lines.astype(np.uint8), connectivity=8)
    long = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]) >= NETWORK_MM * px_per_mm
    long[0] = False
    return long[lab]


def seed_radii(network: np.ndarray, clicks: np.ndarray, px_per_mm: float) -> list[int]:
    """The radius (px) of the flood's seed around each click: the print around the click, up to half way to
    the nearest printed border line (``network``, ``line_network``'s) and less than half way to the nearest
    other click, between ``SEED_RADIUS_MM`` and ``SEED_MAX_MM``.

    A click is often on a printed symbol (the middle of a region, where a player clicks, is where symbols are
    printed). A seed inside the symbol's outline floods out of it only at that outline's contrast, and a
    neighbour's flood, crossing a faint border between two dark terrains, takes the whole region first: the
    region was grown as the symbol alone. A seed wider than the symbol starts on the region's own print."""
    near = cv2.distanceTransform((~network).astype(np.uint8), cv2.DIST_L2, 5) if network.any() else None
    h, w = network.shape
    lo, hi = SEED_RADIUS_MM * px_per_mm, SEED_MAX_MM * px_per_mm
    out = []
    for k, (cx, cy) in enumerate(clicks):
        others = np.delete(clicks, k, 0)
        room = hi if near is None else 0.5 * float(near[min(max(int(round(cy)), 0), h - 1),
                                                          min(max(int(round(cx)), 0), w - 1)])
        if len(others):
            room = min(room, 0.45 * float(np.sqrt(((others - (cx, cy)) ** 2).sum(1)).min()))
        out.append(max(1, int(round(min(max(room, lo), hi)))))
    return out


def radius_line(px_per_mm: float) -> int:
    """Half the width, in px, of the strands a flood may leave along a printed border line."""
    return max(2, int(round(1.2 * px_per_mm)))


def border_lines(rectified: np.ndarray, px_per_mm: float = REGION_PX_PER_MM, within=None) -> np.ndarray:
    """The printed border lines of a rectified board photo (bool mask): thin and darker than either side.

    A black-hat (closing minus image) wider than a border line (up to ~3 mm) and narrower than a
    printed symbol measures how much darker each pixel is than the print around it; taken as a share
    of that print's brightness it finds lines between dark terrains (sea, forest) as well as light
    ones, under any lighting. The threshold follows the clearest lines (inside ``within``, a bool
    mask, if given).
    """
    gray = cv2.cvtColor(rectified, cv2.COLOR_BGR2GRAY) if rectified.ndim == 3 else rectified
    k = 2 * int(round(LINE_MM * px_per_mm)) + 1
    closed = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    dark = (closed.astype(np.float32) - gray) / np.maximum(closed, 16).astype(np.float32)
    clearest = float(np.percentile(dark if within is None else dark[within], 99))
    return dark > max(LINE_MIN_DARKNESS, LINE_SHARE * clearest)


def _outline(mask: np.ndarray, r, px_per_mm: float) -> np.ndarray | None:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    c = max(contours, key=cv2.contourArea)
    c = cv2.approxPolyDP(c, 1.0, True).reshape(-1, 2).astype(np.float64)
    if len(c) < 3:
        return None
    # Pixel centres to pixel edges: a filled contour covers half a pixel more on every side.
    centre = c.mean(0)
    c = c + 0.5 + np.sign(c - centre) * 0.0
    return np.round(c / px_per_mm + np.array(r.origin), 2)


def geometry(board: Board, polygons: dict) -> Geometry:
    g = board.geometry({int(k): np.asarray(v, float) for k, v in polygons.items()})
    return board.geometry(g.regions, adjacency(g))


def borders(g: Geometry) -> dict:
    """{(a, b): length in mm} of the border each pair of touching outlines shares (a < b), measured on a
    1 px/mm raster where every pixel of the play area belongs to its nearest region."""
    s = 1.0
    r = raster(g, s, 0.0)
    lab = np.where(r.play_mask > 0, r.nearest, -1).astype(np.int32)
    n = len(r.ids)
    pairs = np.zeros((n + 1, n + 1), np.int32)
    for a, b in ((lab[:, :-1], lab[:, 1:]), (lab[:-1, :], lab[1:, :])):
        diff = (a != b) & (a >= 0) & (b >= 0)
        np.add.at(pairs, (a[diff], b[diff]), 1)
    pairs = pairs + pairs.T
    ids = [int(i) for i in r.ids]
    return {(ids[i], ids[j]): float(pairs[i, j] / s) for i, j in zip(*np.nonzero(pairs[:n, :n])) if i < j}


def adjacency(g: Geometry) -> dict:
    """Pairs the map calls adjacent whose outlines do not touch ('missing') and touching pairs it does not
    list ('extra'), each [a, b] with a < b. Outlines touch when they share at least ``MIN_TOUCH_MM``."""
    try:
        board = maps.load(g.map)
    except ValueError as exc:
        raise CalibrationError(f"map {g.map!r}: {exc}") from None
    touching = {pair for pair, mm in borders(g).items() if mm >= MIN_TOUCH_MM}
    required = {tuple(sorted((reg.id, a))) for reg in board for a in reg.adjacent if reg.id in g.regions
                and a in g.regions}
    return {"missing": sorted([a, b] for a, b in required - touching),
            "extra": sorted([a, b] for a, b in touching - required)}


def describe_adjacency(map_name: str, report: dict) -> list[str]:
    """One sentence per pair that should touch and does not (and that touch but should not)."""
    board = maps.load(map_name)
    out = [f"{board[a].describe()} and {board[b].describe()} should touch but do not"
           for a, b in report.get("missing", [])]
    out += [f"{board[a].describe()} and {board[b].describe()} touch but the map does not make them adjacent"
            for a, b in report.get("extra", [])]
    return out


def validate_polygon(board: Board, rid: int, polygon) -> np.ndarray:
    """A region outline from a user (JSON list of [x, y] mm), or one line saying what is wrong with it."""
    try:
        pts = np.asarray(polygon, dtype=np.float64)
    except (TypeError, ValueError):
        raise CalibrationError(f"region {rid}: field 'polygon' must be a list of [x_mm, y_mm] points") from None
    if pts.ndim != 2 or pts.shape[1] != 2 or len(pts) < 3:
        raise CalibrationError(f"region {rid}: field 'polygon' needs at least 3 [x_mm, y_mm] points")
    if not np.isfinite(pts).all():
        raise CalibrationError(f"region {rid}: field 'polygon' has a point that is not a number")
    if len(pts) > 2000:
        raise CalibrationError(f"region {rid}: field 'polygon' has more than 2000 points")
    x0, y0, x1, y1 = board.play_area
    if (pts[:, 0] < x0 - 1).any() or (pts[:, 0] > x1 + 1).any() or (pts[:, 1] < y0 - 1).any() or \
            (pts[:, 1] > y1 + 1).any():
        raise CalibrationError(f"region {rid}: field 'polygon' goes outside the play area")
    if _self_intersects(pts):
        raise CalibrationError(f"region {rid}: the outline crosses itself")
    area = abs(cv2.contourArea(pts.astype(np.float32)))
    if area < (board.token_mm ** 2):
        raise CalibrationError(f"region {rid}: the outline encloses {area:.0f} mm², smaller than one token")
    return pts


def _self_intersects(p: np.ndarray) -> bool:
    n = len(p)
    segs = [(p[i], p[(i + 1) % n]) for i in range(n)]

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    for i in range(n):
        a, b = segs[i]
        for j in range(i + 2, n):
            if i == 0 and j == n - 1:
                continue
            c, d = segs[j]
            if (cross(a, b, c) * cross(a, b, d) < 0) and (cross(c, d, a) * cross(c, d, b) < 0):
                return True
    return False


def iou(a: np.ndarray, b: np.ndarray, px_per_mm: float = 2.0) -> float:
    """Intersection over union of two mm polygons, measured on a raster."""
    pts = np.concatenate([a, b])
    lo = pts.min(0) - 2
    size = np.ceil((pts.max(0) - lo + 2) * px_per_mm).astype(int)
    ma = np.zeros((size[1], size[0]), np.uint8)
    mb = ma.copy()
    cv2.fillPoly(ma, [np.round((a - lo) * px_per_mm * 16).astype(np.int32)], 1, cv2.LINE_8, shift=4)
    cv2.fillPoly(mb, [np.round((b - lo) * px_per_mm * 16).astype(np.int32)], 1, cv2.LINE_8, shift=4)
    union = np.count_nonzero(ma | mb)
    return float(np.count_nonzero(ma & mb)) / union if union else 0.0


def inner_point(poly: np.ndarray) -> tuple[float, float]:
    """The point of a polygon farthest from its outline (a good place to click)."""
    lo = poly.min(0) - 2
    s = 2.0
    size = np.ceil((poly.max(0) - lo + 2) * s).astype(int)
    m = np.zeros((size[1], size[0]), np.uint8)
    cv2.fillPoly(m, [np.round((poly - lo) * s).astype(np.int32)], 255)
    d = cv2.distanceTransform(m, cv2.DIST_L2, 5)
    y, x = np.unravel_index(int(d.argmax()), d.shape)
    return float(x / s + lo[0]), float(y / s + lo[1])


def save(folder, board: Board, seeds: dict, polygons: dict, fixed=()) -> Geometry:
    """Write seeds.json and geometry.json; record the regions step."""
    g = geometry(board, polygons)
    folder.path.mkdir(parents=True, exist_ok=True)
    folder.file("seeds.json").write_text(json.dumps({"format": "smallworld-seeds/1", "map": board.map,
                                                     "seeds": {str(k): [round(v[0], 2), round(v[1], 2)]
                                                               for k, v in sorted(seeds.items())}},
                                                    indent=1), encoding="utf-8")
    g.save(folder.file("geometry.json"))
    folder.record("regions", ["seeds.json", "geometry.json"],
                  {"map": board.map, "fixed": sorted(int(f) for f in fixed),
                   "missing_adjacency": len(g.adjacency_report.get("missing", []))})
    return g


def load_seeds(path) -> dict:
    from pathlib import Path
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CalibrationError(f"{p}: no such seeds file") from None
    except (OSError, ValueError) as exc:
        raise CalibrationError(f"{p}: not readable JSON: {exc}") from None
    seeds = data.get("seeds") if isinstance(data, dict) and "seeds" in data else data
    if not isinstance(seeds, dict):
        raise CalibrationError(f"{p}: field 'seeds' must map region ids to [x_mm, y_mm]")
    return seeds


__all__ = ["prompts", "check_seeds", "grow", "border_lines", "borders", "adjacency", "validate_polygon", "iou", "inner_point", "save",
           "MARGIN_MM"]
