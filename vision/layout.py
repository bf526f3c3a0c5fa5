"""A plausible, deterministic geometry for a map from its region list alone.

Seeds are placed by a force layout of the adjacency graph (border regions pulled to the frame),
refined so that the Voronoi partition of the play area reproduces the map's adjacency as far as it
can; the adjacencies that still do not touch (and touching pairs the map does not list) are
reported in the geometry's ``adjacency`` field.
"""
from __future__ import annotations

import zlib
from functools import lru_cache

import cv2
import numpy as np

from .geometry import Geometry, Marker

AREA_PER_REGION_MM2 = 7000.0
MARGIN_MM = 50.0
MARKER_MM = 36.0
_CHECK_SCALE = 0.4  # px per mm of the raster used while refining


def _touching(labels: np.ndarray, n: int, min_px: int) -> tuple[set, np.ndarray]:
    """Pairs of labels that share a border of at least ``min_px`` pixels, and which labels touch the frame."""
    pairs = np.zeros(n * n, np.int64)
    for a, b in ((labels[:, :-1], labels[:, 1:]), (labels[:-1, :], labels[1:, :])):
        diff = a != b
        pairs += np.bincount(a[diff] * n + b[diff], minlength=n * n)
    pairs = pairs.reshape(n, n)
    pairs = pairs + pairs.T
    touching = {(i, j) for i, j in zip(*np.nonzero(pairs >= min_px)) if i < j}
    edge = np.zeros(n, bool)
    for side in (labels[0], labels[-1], labels[:, 0], labels[:, -1]):
        edge[np.unique(side)] = True
    return touching, edge


@lru_cache(maxsize=4)
def _pixels(w: int, h: int, scale: float) -> np.ndarray:
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    return (np.stack([xs.ravel(), ys.ravel()], 1) + 0.5) / scale


def _voronoi_raster(seeds: np.ndarray, w: int, h: int, scale: float) -> np.ndarray:
    px = _pixels(w, h, scale)
    s = seeds.astype(np.float32)
    d = (s ** 2).sum(1)[None, :] - 2 * px @ s.T
    return d.argmin(1).reshape(h, w).astype(np.int32)


def _force_layout(n, edges, border, width, height, rng, iterations=600):
    pos = rng.uniform(0.2, 0.8, (n, 2)) * [width, height]
    ideal = np.sqrt(width * height / n)
    e = np.array(edges, dtype=int).reshape(-1, 2)
    for it in range(iterations):
        temp = 0.1 * ideal * (1 - it / iterations) + 0.5
        delta = pos[:, None, :] - pos[None, :, :]
        dist = np.sqrt((delta ** 2).sum(-1)) + 1e-6
        rep = (ideal ** 2 / dist ** 2)[..., None] * delta
        np.fill_diagonal(rep[..., 0], 0)
        np.fill_diagonal(rep[..., 1], 0)
        force = rep.sum(1)
        d = pos[e[:, 0]] - pos[e[:, 1]]
        dl = np.sqrt((d ** 2).sum(-1, keepdims=True)) + 1e-6
        att = d * dl / ideal
        np.add.at(force, e[:, 0], -att)
        np.add.at(force, e[:, 1], att)
        # Border regions drift to the nearest side of the frame; inner ones away from it.
        gaps = np.stack([pos[:, 0], width - pos[:, 0], pos[:, 1], height - pos[:, 1]], 1)
        side = gaps.argmin(1)
        dirs = np.array([[-1, 0], [1, 0], [0, -1], [0, 1]], float)[side]
        pull = np.where(border[:, None], 1.0, -0.3) * dirs * ideal
        force += pull
        step = np.sqrt((force ** 2).sum(-1, keepdims=True)) + 1e-9
        pos += force / step * np.minimum(step, temp)
        pos = np.clip(pos, [2, 2], [width - 2, height - 2])
    return pos


def _exact_cells(seeds: np.ndarray, width: float, height: float) -> list[np.ndarray]:
    subdiv = cv2.Subdiv2D((-2 * int(width), -2 * int(height), 5 * int(width), 5 * int(height)))
    for x, y in seeds:
        subdiv.insert((float(x), float(y)))
    facets, centers = subdiv.getVoronoiFacetList([])
    rect = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    cells = [None] * len(seeds)
    for facet, center in zip(facets, centers):
        idx = int(np.argmin(((seeds - np.asarray(center)) ** 2).sum(1)))
        _, clipped = cv2.intersectConvexConvex(np.asarray(facet, np.float32), rect)
        cells[idx] = clipped.reshape(-1, 2).astype(np.float64)
    return cells


def generate(board, seed: int = 0, attempts: int = 6) -> Geometry:
    """A geometry for a ``maps.Board`` whose Voronoi regions respect its adjacency as far as feasible.

    Several deterministic starts are tried; the first that matches the map exactly, or else the one
    with the fewest mismatches, is kept. Results are cached per board and seed.
    """
    return _generate_cached(board, seed, attempts)


@lru_cache(maxsize=16)
def _generate_cached(board, seed: int, attempts: int) -> Geometry:
    best, best_score = None, None
    for k in range(attempts):
        geo = _generate_once(board, seed * attempts + k)
        rep = geo.adjacency_report
        score = 3 * len(rep["missing"]) + len(rep["extra"])
        if best is None or score < best_score:
            best, best_score = geo, score
        if score == 0:
            break
    return best


def _generate_once(board, seed: int, iterations: int = 200) -> Geometry:
    regions = list(board.regions)
    n = len(regions)
    index = {r.id: i for i, r in enumerate(regions)}
    area = AREA_PER_REGION_MM2 * n
    width = float(round(np.sqrt(area * 1.45) / 10) * 10)
    height = float(round(area / width / 10) * 10)
    rng = np.random.default_rng(zlib.crc32(board.name.encode()) * 1000 + seed)
    required = {tuple(sorted((index[r.id], index[a]))) for r in regions for a in r.adjacent if a in index}
    border = np.array([r.border for r in regions])
    seeds = _force_layout(n, sorted(required), border, width, height, rng)

    w, h = int(width * _CHECK_SCALE), int(height * _CHECK_SCALE)
    ideal = np.sqrt(width * height / n)
    best = (None, 10 ** 9)
    gy, gx = np.mgrid[0:h, 0:w]
    gx, gy = (gx.ravel() + 0.5) / _CHECK_SCALE, (gy.ravel() + 0.5) / _CHECK_SCALE
    since = 0
    for it in range(iterations):
        labels = _voronoi_raster(seeds, w, h, _CHECK_SCALE)
        touching, edge = _touching(labels, n, 3)
        missing = required - touching
        extra = touching - required
        wrong_edge = np.nonzero(edge != border)[0]
        score = len(missing) * 3 + len(extra) + len(wrong_edge)
        if score < best[1]:
            best = (seeds.copy(), score)
            since = 0
        since = since + 1 if score >= best[1] else 0
        if score == 0 or since > 50:
            break
        step = 0.08 * ideal * (1 - 0.7 * it / iterations)
        # Lloyd relaxation keeps cells round and large enough for tokens.
        counts = np.bincount(labels.ravel(), minlength=n).astype(float)
        cx = np.bincount(labels.ravel(), weights=gx, minlength=n)
        cy = np.bincount(labels.ravel(), weights=gy, minlength=n)
        centroid = np.where(counts[:, None] > 0, np.stack([cx, cy], 1) / np.maximum(counts, 1)[:, None], seeds)
        move = 0.25 * (centroid - seeds)
        for group, sign in ((missing, 1.0), (extra, -0.5)):
            for i, j in group:
                d = seeds[j] - seeds[i]
                d = d / (np.linalg.norm(d) + 1e-9) * step * sign
                move[i] += d
                move[j] -= d
        for i in wrong_edge:
            x, y = seeds[i]
            gaps = np.array([x, width - x, y, height - y])
            k = gaps.argmin()
            dirs = np.array([[-1, 0], [1, 0], [0, -1], [0, 1]], float)[k]
            move[i] += dirs * step * (1.0 if border[i] else -1.0)
        seeds = np.clip(seeds + move + rng.normal(0, 0.01 * step, seeds.shape), [1, 1], [width - 1, height - 1])

    seeds = best[0]
    cells = _exact_cells(seeds, width, height)
    # Final report from the exact outlines.
    scale = 1.0
    fine = np.full((int(height * scale), int(width * scale)), -1, np.int32)
    for i, cell in enumerate(cells):
        cv2.fillPoly(fine, [np.round(cell * scale).astype(np.int32)], i)
    fine = np.where(fine < 0, _voronoi_raster(seeds, fine.shape[1], fine.shape[0], scale), fine)
    touching, _ = _touching(fine, n, 5)
    ids = [r.id for r in regions]
    report = {
        "missing": sorted([ids[i], ids[j]] for i, j in required - touching),
        "extra": sorted([ids[i], ids[j]] for i, j in touching - required),
    }
    m = MARGIN_MM
    W, H = width + 2 * m, height + 2 * m
    c = m / 2
    markers = (Marker(0, (c, c), MARKER_MM), Marker(1, (W - c, c), MARKER_MM),
               Marker(2, (W - c, H - c), MARKER_MM), Marker(3, (c, H - c), MARKER_MM))
    polys = {ids[i]: np.round(cell + m, 2) for i, cell in enumerate(cells)}
    return Geometry(board.name, W, H, (m, m, m + width, m + height), markers, polys, 20.0, report)
