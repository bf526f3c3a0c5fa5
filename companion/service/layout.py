"""Board geometry for the dashboard: where each region is drawn.

Where no picture of the board exists (``picture.py``), ``schematic(board)`` computes a deterministic layout from
the map's adjacency (a spectral start, then a few hundred force-directed steps). A Small World of Warcraft map is several
islands with no border between them: each island is laid out on its own, in its own part of the
picture, so the islands read as islands. ``geometry(board)`` is the one entry point: real geometry (a polygon per region) can replace the schematic here without
touching the drawing code, which accepts either a circle (x, y, r) or an SVG ``path`` per region.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

import maps

WIDTH, HEIGHT = 1000, 640
MARGIN = 60


@lru_cache(maxsize=32)
def _layout(key: tuple, box: tuple = (0, 0, WIDTH, HEIGHT), margin: float = MARGIN) -> dict:
    ids, edges, border = key
    left, top, width, height = box
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
    xy[:, 0] = left + margin + xy[:, 0] * (width - 2 * margin)
    xy[:, 1] = top + margin + xy[:, 1] * (height - 2 * margin)
    radius = float(max(22, min(44, 0.5 * min(width, height) / np.sqrt(n))))
    return {rid: (round(float(xy[i, 0]), 1), round(float(xy[i, 1]), 1), radius) for i, rid in enumerate(ids)}


def _key(regions) -> tuple:
    ids = tuple(r.id for r in regions)
    edges = tuple(sorted({tuple(sorted((r.id, a))) for r in regions for a in r.adjacent}))
    border = tuple(bool(r.border) for r in regions)
    return ids, edges, border


def islands_of(board: maps.Board) -> list[list]:
    """The board's regions by island (one group for a board that is not made of islands)."""
    groups: dict[int, list] = {}
    for r in board:
        groups.setdefault(getattr(r, "island", 0), []).append(r)
    return [groups[k] for k in sorted(groups)]


def island_boxes(count: int) -> list[tuple[float, float, float, float]]:
    """Where each island goes: one row for up to 3 islands, else two rows (the first one longer)."""
    rows = [count] if count <= 3 else [count - count // 2, count // 2]
    out = []
    for row, n in enumerate(rows):
        h = HEIGHT / len(rows)
        for i in range(n):
            w = WIDTH / n
            out.append((i * w, row * h, w, h))
    return out


def schematic(board: maps.Board) -> dict:
    groups = islands_of(board)
    if len(groups) == 1:
        return _layout(_key(board.regions))
    out: dict = {}
    for regions, box in zip(groups, island_boxes(len(groups))):
        out.update(_layout(_key(regions), box, MARGIN * 0.6))
    xy = np.array([(x, y) for x, y, _ in out.values()])
    gaps = np.sqrt(((xy[:, None, :] - xy[None, :, :]) ** 2).sum(-1)) + np.eye(len(xy)) * 1e9
    radius = round(float(max(16, min(40, 0.48 * np.sort(gaps.min(1))[len(xy) // 10]))), 1)  # but the tightest few
    return {rid: (x, y, radius) for rid, (x, y, _) in out.items()}


def geometry(board: maps.Board, picture=None, pending: bool = False) -> dict:
    """What the drawing code needs: the view box, each region's shape, terrain and symbols, borders.

    With a ``picture.Picture`` (the user's calibrated photo, the demo's rendered board) each region is
    its outline in the picture's pixels and the picture is drawn under them; without one a board of one
    piece gets the cells of the schematic layout (a clean map), a board of islands circles per island.
    ``pending``: a picture is being made; ask again soon."""
    groups = islands_of(board)
    if picture is None and len(groups) == 1:
        from .picture import schematic as cells
        picture = cells(board, WIDTH, HEIGHT)
    places = schematic(board) if picture is None else None
    regions = []
    for r in board:
        if picture is not None:
            x, y, room = picture.anchors[r.id]
            outline = picture.outlines[r.id]
            path = "M" + "L".join(f"{px:.1f},{py:.1f}" for px, py in outline) + "Z"
            radius = room
        else:
            (x, y, radius), path = places[r.id], None
        regions.append({"id": r.id, "x": x, "y": y, "r": radius, "path": path, "terrain": r.terrain,
                        "symbols": sorted(r.symbols), "border": r.border, "lost_tribe": r.lost_tribe,
                        "entry": r.entry, "island": getattr(r, "island", 0), "murloc": getattr(r, "murloc", False)})
    edges = sorted({tuple(sorted((r.id, a))) for r in board for a in r.adjacent})
    islands = []
    if len(groups) > 1 and picture is None:
        for group, (left, top, width, height) in zip(groups, island_boxes(len(groups))):
            islands.append({"island": group[0].island, "name": group[0].island_name,
                            "x": round(left + width / 2, 1), "y": round(top + 16, 1),
                            "box": [round(left, 1), round(top, 1), round(width, 1), round(height, 1)]})
    width, height = (picture.width, picture.height) if picture is not None else (WIDTH, HEIGHT)
    source = picture.source if picture is not None else "schematic"
    image = f"/api/board/{board.name}.jpg" if picture is not None and picture.jpeg else None
    return {"map": board.name, "width": width, "height": height, "regions": regions,
            "edges": [list(e) for e in edges], "islands": islands, "schematic": source == "schematic",
            "source": source, "image": image, "pending": pending}
