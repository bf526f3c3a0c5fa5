"""Board geometry for the dashboard: where each region is drawn.

No measured board geometry exists yet, so ``schematic(board)`` computes a deterministic layout from
the map's adjacency (a spectral start, then a few hundred force-directed steps). ``geometry(board)``
is the one entry point: real geometry (a polygon per region) can replace the schematic here without
touching the drawing code, which accepts either a circle (x, y, r) or an SVG ``path`` per region.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

import maps

WIDTH, HEIGHT = 1000, 640
MARGIN = 60


@lru_cache(maxsize=16)
def _layout(key: tuple) -> dict:
    ids, edges, border = key
    n = len(ids)
    index = {rid: i for i, rid in enumerate(ids)}
    adj = np.zeros((n, n))
    for a, b in edges:
        adj[index[a], index[b]] = adj[index[b], index[a]] = 1
    lap = np.diag(adj.sum(1)) - adj
    _, vecs = np.linalg.eigh(lap)
    pos = vecs[:, 1:3].copy()
    for k in range(2):  # a deterministic sign, so the picture never flips
        if pos[np.argmax(np.abs(pos[:, k])), k] < 0:
            pos[:, k] *= -1
    pos = (pos - pos.mean(0)) / (pos.std(0) + 1e-9)
    rng = np.random.default_rng(7)
    pos += rng.normal(scale=0.01, size=pos.shape)
    ideal = 3.0 / np.sqrt(n)
    for step in range(300):
        delta = pos[:, None, :] - pos[None, :, :]
        dist = np.sqrt((delta ** 2).sum(-1)) + np.eye(n) + 1e-9
        repulse = (ideal ** 2 / dist ** 2)[:, :, None] * delta
        attract = (adj * dist / ideal)[:, :, None] * delta
        force = repulse.sum(1) - attract.sum(1)
        # border regions drift outwards, like the edge of the printed board
        centre = pos - pos.mean(0)
        force += 0.05 * np.array(border, dtype=float)[:, None] * centre
        temp = 0.1 * (1 - step / 300) + 0.002
        length = np.sqrt((force ** 2).sum(1, keepdims=True)) + 1e-9
        pos += force / length * np.minimum(length, temp)
    lo, hi = pos.min(0), pos.max(0)
    span = np.where(hi - lo > 1e-9, hi - lo, 1)
    xy = (pos - lo) / span
    xy[:, 0] = MARGIN + xy[:, 0] * (WIDTH - 2 * MARGIN)
    xy[:, 1] = MARGIN + xy[:, 1] * (HEIGHT - 2 * MARGIN)
    radius = float(max(22, min(44, 0.5 * min(WIDTH, HEIGHT) / np.sqrt(n))))
    return {rid: (round(float(xy[i, 0]), 1), round(float(xy[i, 1]), 1), radius) for i, rid in enumerate(ids)}


def schematic(board: maps.Board) -> dict:
    ids = tuple(board.ids)
    edges = tuple(sorted({tuple(sorted((r.id, a))) for r in board for a in r.adjacent}))
    border = tuple(bool(r.border) for r in board)
    return _layout((ids, edges, border))


def geometry(board: maps.Board) -> dict:
    """What the drawing code needs: the view box, each region's shape, terrain and symbols, borders."""
    places = schematic(board)
    regions = []
    for r in board:
        x, y, radius = places[r.id]
        regions.append({"id": r.id, "x": x, "y": y, "r": radius, "path": None, "terrain": r.terrain,
                        "symbols": sorted(r.symbols), "border": r.border, "lost_tribe": r.lost_tribe})
    edges = sorted({tuple(sorted((r.id, a))) for r in board for a in r.adjacent})
    return {"width": WIDTH, "height": HEIGHT, "regions": regions, "edges": [list(e) for e in edges],
            "schematic": True}
