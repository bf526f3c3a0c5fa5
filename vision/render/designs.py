"""Token designs drawn from a design seed: every label gets its own shape, colours and glyph.

Tokens of one kind look alike; a race and its -decline side share shape and glyph, the decline
side being grey-ish. A different design seed gives a different printing of the whole game.

Two styles. ``plain`` (the renderer the pipeline grew up with): each label its own shape, motif and
glyph, one size. ``foreign`` (another printing, as a real box brings): every race token one shape,
its face a painting of a few shapes over a gradient; every in-decline side the same grey, differing
only by the race's emblem (large, as on the real tokens: each race of a printing its own, drawn from a family
of silhouettes with holes, bars, several parts and no symmetry, ``EMBLEMS``); pieces of their own sizes (a Mountain 1.7 tokens
wide, painted in the board's own Mountain colour, with a snow cap); the board's terrain palette
drawn from the same seed (``palette``).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from ..labels import LABELS, PIECES, RACES

SHAPES = ("circle", "square", "hexagon", "octagon")
MOTIFS = ("glyph", "ring", "stripes", "dots", "half")
STYLES = ("plain", "foreign")
FOREIGN_SHAPES = ("square", "circle", "hexagon", "octagon")
# Piece widths in the foreign printing, in race tokens (the real box: a Mountain is much larger).
FOREIGN_SIZES = {"lost-tribe": 1.0, "mountain": 1.7, "troll-lair": 1.3, "fortress": 1.3, "encampment": 0.9,
                 "hero": 1.1, "dragon": 1.45, "hole": 1.3}
TERRAINS = ("farmland", "forest", "hill", "mountain", "swamp", "sea", "lake")


@dataclass(frozen=True)
class TokenDesign:
    """How one kind of token looks in one printing of the game."""

    label: str
    shape: str
    base: tuple[int, int, int]    # BGR
    accent: tuple[int, int, int]  # BGR, glyph and motif
    edge: tuple[int, int, int]    # BGR, printed rim
    motif: str
    glyph: tuple[tuple[float, float], ...]  # polygon in unit coordinates (-1..1)
    angle: float                  # motif orientation, degrees
    size: float = 1.0             # width relative to the board's token size
    art: tuple = ()               # painted shapes under the glyph: (kind, unit-coordinate points, BGR)
    emblem: tuple = ()            # drawn instead of the glyph when given: ("fill" | "cut", unit-coordinate points)


def _hsv_to_bgr(h: float, s: float, v: float) -> tuple[int, int, int]:
    px = np.uint8([[[int(h) % 180, int(np.clip(s, 0, 255)), int(np.clip(v, 0, 255))]]])
    return tuple(int(c) for c in cv2.cvtColor(px, cv2.COLOR_HSV2BGR)[0, 0])


def _glyph(rng: np.random.Generator) -> tuple[tuple[float, float], ...]:
    k = int(rng.integers(3, 8))
    star = rng.random() < 0.5
    pts = []
    for i in range(k * (2 if star else 1)):
        a = 2 * np.pi * i / (k * (2 if star else 1)) + rng.uniform(-0.2, 0.2)
        r = (0.35 if star and i % 2 else 0.8) * rng.uniform(0.8, 1.1)
        pts.append((float(r * np.cos(a)), float(r * np.sin(a))))
    return tuple(pts)


# The emblem family of the foreign printing: silhouettes as real token art has them (holes, bars, several
# parts, no symmetry), each kind a different shape whatever its turn. A printing draws one kind per race
# and its proportions from the design seed, so no two races of a printing share an emblem.
def _disc(cx, cy, r, n=40):
    a = np.arange(n) * 2 * np.pi / n
    return np.stack([cx + r * np.cos(a), cy + r * np.sin(a)], 1)


def _box(cx, cy, w, h, turn=0.0):
    p = np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2
    c, s = np.cos(turn), np.sin(turn)
    return p @ np.array([[c, s], [-s, c]]) + (cx, cy)


def _regular(k, r, turn=0.0):
    a = np.arange(k) * 2 * np.pi / k + turn
    return np.stack([r * np.cos(a), r * np.sin(a)], 1)


def _star(k, r_out, r_in):
    a = np.arange(2 * k) * np.pi / k - np.pi / 2
    r = np.where(np.arange(2 * k) % 2, r_in, r_out)
    return np.stack([r * np.cos(a), r * np.sin(a)], 1)


def _emblem_parts(kind: str, j) -> list:
    """One emblem of ``kind``, its proportions drawn by ``j(lo, hi)``: [("fill" | "cut", points), ...]."""
    F, C = "fill", "cut"
    w = j(0.28, 0.36)  # the width of a bar
    if kind == "ring":
        return [(F, _disc(0, 0, 0.9)), (C, _disc(0, 0, j(0.42, 0.55)))]
    if kind == "ring-bar":
        return [(F, _disc(0, 0, 0.9)), (C, _disc(0, 0, 0.58)), (F, _box(0, 0, 1.3, w * 0.9))]
    if kind == "crescent":
        return [(F, _disc(0, 0, 0.9)), (C, _disc(j(0.38, 0.5), -0.1, j(0.68, 0.78)))]
    if kind == "plus":
        return [(F, _box(0, 0, 1.7, w * 1.1)), (F, _box(0, 0, w * 1.1, 1.7))]
    if kind == "arrow":
        return [(F, _box(-0.25, 0, 1.1, w)), (F, np.array([[0.2, -0.65], [0.9, 0], [0.2, 0.65]]))]
    if kind == "bars":
        return [(F, _box(0, y, 1.6, w * 0.85)) for y in (-0.6, 0.0, 0.6)]
    if kind == "dots":
        r = j(0.28, 0.33)
        return [(F, _disc(0.62 * np.cos(a), 0.62 * np.sin(a), r)) for a in np.arange(3) * 2 * np.pi / 3 - np.pi / 2]
    if kind == "star":
        return [(F, _star(5, 0.95, j(0.38, 0.45)))]
    if kind == "triangle":
        return [(F, _regular(3, 1.0, -np.pi / 2) + (0, 0.15)), (C, _disc(0, 0.2, j(0.22, 0.3)))]
    if kind == "chevron":
        return [(F, np.array([[-0.75, 0.85], [0.0, -0.95], [0.75, 0.85], [0.38, 0.85], [0.0, -0.1], [-0.38, 0.85]]))]
    if kind == "half":
        a = np.linspace(0, np.pi, 24)
        return [(F, np.stack([0.92 * np.cos(a), 0.92 * np.sin(a) - 0.3], 1))]
    if kind == "bowtie":
        return [(F, np.array([[-0.85, -0.75], [0.0, -0.05], [0.85, -0.75], [0.85, 0.75], [0.0, 0.05], [-0.85, 0.75]]))]
    if kind == "comb":
        return [(F, _box(0, 0.6, 1.6, w))] + [(F, _box(x, 0.0, w * 0.9, 1.2)) for x in (-0.65, 0.0, 0.65)]
    if kind == "cup":
        return [(F, _box(0, 0, 1.55, 1.45)), (C, _box(0, -0.3, j(0.7, 0.85), 1.2))]
    if kind == "bolt":
        return [(F, np.array([[0.15, -0.95], [0.6, -0.95], [0.3, -0.2], [0.7, -0.2], [-0.35, 0.95], [-0.05, 0.1],
                              [-0.5, 0.1]]))]
    if kind == "tee":
        return [(F, _box(0, -0.6, 1.7, w * 1.1)), (F, _box(0, 0.15, w * 1.1, 1.5))]
    if kind == "key":
        return [(F, _disc(0, -0.45, 0.5)), (C, _disc(0, -0.45, 0.2)), (F, _box(0, 0.35, w, 1.1)),
                (F, _box(0.2, 0.7, 0.4, w * 0.8))]
    if kind == "moon-dot":
        return [(F, _disc(-0.2, 0, 0.8)), (C, _disc(0.15, 0, 0.68)), (F, _disc(0.45, 0, j(0.2, 0.26)))]
    if kind == "ell":
        return [(F, _box(-0.5, 0, w * 1.2, 1.7)), (F, _box(0.1, 0.7, 1.3, w * 1.2))]
    raise ValueError(kind)


EMBLEMS = ("ring", "ring-bar", "crescent", "plus", "arrow", "bars", "dots", "star", "triangle", "chevron", "half",
           "bowtie", "comb", "cup", "bolt", "tee", "key", "moon-dot", "ell")


def _emblems(rng: np.random.Generator, n: int) -> list[tuple]:
    """``n`` emblems of different kinds, each with its own proportions: one per race of a printing."""
    kinds = [EMBLEMS[k] for k in rng.permutation(len(EMBLEMS))[:n]]

    def j(lo, hi):
        return float(rng.uniform(lo, hi))

    out = []
    for kind in kinds:
        parts = _emblem_parts(kind, j)
        stretch = np.array([j(0.9, 1.1), j(0.9, 1.1)])  # the printing's own proportions
        out.append(tuple((op, tuple((float(x), float(y)) for x, y in np.asarray(pts) * stretch)) for op, pts in parts))
    return out


@lru_cache(maxsize=8)
def designs(design_seed: int, style: str = "plain") -> dict[str, TokenDesign]:
    """One design per label, drawn from the design seed, in one of ``STYLES``."""
    if style == "foreign":
        return _foreign(design_seed)
    if style != "plain":
        raise ValueError(f"unknown token style {style!r} (one of {', '.join(STYLES)})")
    rng = np.random.default_rng(10_000 + design_seed)
    out: dict[str, TokenDesign] = {}
    hues = (rng.permutation(len(RACES)) * (180 / len(RACES)) + rng.uniform(0, 180)) % 180
    for race, hue in zip(RACES, hues):
        shape = SHAPES[int(rng.integers(len(SHAPES)))]
        motif = MOTIFS[int(rng.integers(len(MOTIFS)))]
        glyph = _glyph(rng)
        angle = float(rng.uniform(0, 180))
        s, v = rng.uniform(150, 240), rng.uniform(120, 230)
        base = _hsv_to_bgr(hue, s, v)
        accent = _hsv_to_bgr(hue + rng.uniform(40, 140), rng.uniform(60, 255), 255 - v * rng.uniform(0.3, 0.9))
        edge = _hsv_to_bgr(hue, s * 0.6, v * 0.5)
        out[race] = TokenDesign(race, shape, base, accent, edge, motif, glyph, angle)
        grey = rng.uniform(110, 190)
        dbase = _hsv_to_bgr(hue, rng.uniform(20, 60), grey)
        out[f"{race}-decline"] = TokenDesign(f"{race}-decline", shape, dbase, base, _hsv_to_bgr(hue, 30, grey * 0.5),
                                             motif, glyph, angle)
    for piece in PIECES:
        hue = rng.uniform(0, 180)
        base = _hsv_to_bgr(hue, rng.uniform(40, 230), rng.uniform(70, 230))
        accent = _hsv_to_bgr(hue + rng.uniform(50, 130), rng.uniform(40, 255), rng.uniform(40, 255))
        out[piece] = TokenDesign(piece, SHAPES[int(rng.integers(len(SHAPES)))], base, accent,
                                 _hsv_to_bgr(hue, 80, 60), MOTIFS[int(rng.integers(len(MOTIFS)))],
                                 _glyph(rng), float(rng.uniform(0, 180)))
    assert set(out) == set(LABELS)
    return out


@lru_cache(maxsize=8)
def palette(design_seed: int) -> dict[str, tuple[float, float, float]]:
    """The terrain colours (BGR) of a foreign board printing: each terrain its own muted hue."""
    rng = np.random.default_rng(20_000 + design_seed)
    hues = {"farmland": 25, "forest": 60, "hill": 45, "mountain": 15, "swamp": 75, "sea": 105, "lake": 100}
    out = {}
    for t in TERRAINS:
        hue = hues[t] + rng.uniform(-12, 12)
        sat = rng.uniform(25, 70) if t == "mountain" else rng.uniform(60, 170)
        val = rng.uniform(110, 190) if t == "mountain" else rng.uniform(90, 215)
        out[t] = tuple(float(c) for c in _hsv_to_bgr(hue, sat, val))
    return out


def _blob(rng, cx, cy, r, k=7):
    a = np.sort(rng.uniform(0, 2 * np.pi, k))
    rr = r * rng.uniform(0.6, 1.2, k)
    return tuple((float(cx + x * np.cos(t)), float(cy + x * np.sin(t))) for x, t in zip(rr, a))


def _painting(rng, hue: float, n: int) -> tuple:
    """A token's face: a few painted shapes in colours near and far from its hue."""
    art = []
    for _ in range(n):
        h = hue + rng.choice([-1, 1]) * rng.uniform(10, 80)
        col = _hsv_to_bgr(h, rng.uniform(60, 255), rng.uniform(50, 250))
        c = rng.uniform(-0.5, 0.5, 2)
        art.append(("poly", _blob(rng, c[0], c[1], rng.uniform(0.2, 0.5)), col))
    return tuple(art)


def _foreign(design_seed: int) -> dict[str, TokenDesign]:
    rng = np.random.default_rng(30_000 + design_seed)
    out: dict[str, TokenDesign] = {}
    race_shape = FOREIGN_SHAPES[int(rng.integers(len(FOREIGN_SHAPES)))]
    hues = (rng.permutation(len(RACES)) * (180 / len(RACES)) + rng.uniform(0, 180)) % 180
    grey = rng.uniform(120, 180)
    dbase = _hsv_to_bgr(rng.uniform(0, 180), rng.uniform(0, 25), grey)
    dring = _hsv_to_bgr(0, 0, grey * rng.uniform(0.55, 0.75))
    demblem = _hsv_to_bgr(0, 0, grey * rng.uniform(0.25, 0.45))
    # Each race its own emblem, from a generator of its own: the rest of the printing is drawn as before.
    emblems = _emblems(np.random.default_rng(40_000 + design_seed), len(RACES))
    for race, hue, emblem in zip(RACES, hues, emblems):
        glyph = _glyph(rng)  # not drawn (the emblem is), kept so that every colour after it is as it was
        base = _hsv_to_bgr(hue, rng.uniform(90, 240), rng.uniform(90, 230))
        accent = _hsv_to_bgr(hue + rng.uniform(40, 140), rng.uniform(60, 255), rng.uniform(40, 240))
        edge = _hsv_to_bgr(hue, 60, 60)
        out[race] = TokenDesign(race, race_shape, base, accent, edge, "glyph", glyph, float(rng.uniform(0, 180)),
                                1.0, _painting(rng, hue, int(rng.integers(2, 5))), emblem)
        # The in-decline side: the printing's one grey and ring; only the race's emblem tells them apart.
        out[f"{race}-decline"] = TokenDesign(f"{race}-decline", race_shape, dbase, demblem, dring, "glyph", glyph,
                                             float(rng.uniform(0, 180)), 1.0, (), emblem)
    terrain = palette(design_seed)
    for piece in PIECES:
        hue = rng.uniform(0, 180)
        shape = race_shape if piece == "lost-tribe" else FOREIGN_SHAPES[int(rng.integers(len(FOREIGN_SHAPES)))]
        base = _hsv_to_bgr(hue, rng.uniform(40, 230), rng.uniform(70, 230))
        accent = _hsv_to_bgr(hue + rng.uniform(50, 130), rng.uniform(40, 255), rng.uniform(40, 255))
        edge = _hsv_to_bgr(hue, 80, 60)
        art = _painting(rng, hue, int(rng.integers(1, 4)))
        if piece == "mountain":  # the board's Mountain colour, a snow cap and a rock line
            rock = np.array(terrain["mountain"]) * rng.uniform(0.92, 1.08, 3)
            base = tuple(int(c) for c in rock.clip(0, 255))
            edge = tuple(int(c) for c in (rock * 0.8).clip(0, 255))
            accent = tuple(int(c) for c in (rock * 0.7).clip(0, 255))
            snow = tuple(int(c) for c in np.clip(rock * 0.3 + 175, 0, 255))
            art = (("poly", ((-0.35, -0.05), (0.0, -0.6), (0.35, -0.05), (0.12, -0.2), (-0.1, -0.1)), snow),
                   ("poly", ((-0.8, 0.5), (-0.2, -0.2), (0.1, 0.2), (0.5, -0.1), (0.8, 0.5)),
                    tuple(int(c) for c in (rock * 0.85).clip(0, 255))))
        out[piece] = TokenDesign(piece, shape, base, accent, edge, "glyph" if piece != "mountain" else "none",
                                 _glyph(rng), float(rng.uniform(0, 180)), FOREIGN_SIZES[piece], art)
    assert set(out) == set(LABELS)
    return out


def _outline(shape: str, c: float, r: float) -> np.ndarray:
    if shape == "circle":
        n, off = 48, 0.0
    elif shape == "square":
        n, off = 4, np.pi / 4
    elif shape == "hexagon":
        n, off = 6, 0.0
    else:
        n, off = 8, np.pi / 8
    a = np.arange(n) * 2 * np.pi / n + off
    rr = r * (1.12 if shape == "square" else 1.0)
    return np.stack([c + rr * np.cos(a), c + rr * np.sin(a)], 1)


@lru_cache(maxsize=512)
def sprite(design: TokenDesign, side_px: int) -> tuple[np.ndarray, np.ndarray]:
    """The token seen from above, upright: a BGR image and its alpha (float 0..1), ``side_px`` square."""
    ss = 4
    n = side_px * ss
    c, r = n / 2, n / 2 * 0.86
    img = np.zeros((n, n, 3), np.uint8)
    alpha = np.zeros((n, n), np.uint8)
    outline = np.round(_outline(design.shape, c, r)).astype(np.int32)
    cv2.fillPoly(alpha, [outline], 255)
    img[:] = design.base
    a = np.deg2rad(design.angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    if design.motif == "stripes":
        for k in (-0.5, 0.0, 0.5):
            p = np.array([[-1.2, k - 0.1], [1.2, k - 0.1], [1.2, k + 0.1], [-1.2, k + 0.1]]) @ rot.T
            cv2.fillPoly(img, [np.round(c + p * r).astype(np.int32)], design.accent)
    elif design.motif == "ring":
        cv2.circle(img, (int(c), int(c)), int(r * 0.62), design.accent, int(r * 0.16))
    elif design.motif == "dots":
        for k in range(5):
            p = np.array([np.cos(a + k * 1.2566), np.sin(a + k * 1.2566)]) * 0.55 * r
            cv2.circle(img, (int(c + p[0]), int(c + p[1])), int(r * 0.13), design.accent, -1)
    elif design.motif == "half":
        p = np.array([[-1.2, 0], [1.2, 0], [1.2, 1.2], [-1.2, 1.2]]) @ rot.T
        cv2.fillPoly(img, [np.round(c + p * r).astype(np.int32)], design.edge)
    for _kind, pts, colour in design.art:
        cv2.fillPoly(img, [np.round(c + np.array(pts) * r).astype(np.int32)], colour, cv2.LINE_AA)
    if design.emblem:
        ink = np.zeros((n, n), np.uint8)
        for op, pts in design.emblem:
            cv2.fillPoly(ink, [np.round(c + np.array(pts) * 0.75 @ rot.T * r).astype(np.int32)], 255 if op == "fill" else 0)
        m = ink[..., None].astype(np.float32) / 255
        img = (img * (1 - m) + np.array(design.accent, np.float32) * m).astype(np.uint8)
    elif design.motif != "none":
        glyph = np.array(design.glyph) * (0.55 if design.motif != "glyph" else 0.8)
        cv2.fillPoly(img, [np.round(c + glyph @ rot.T * r).astype(np.int32)], design.accent, cv2.LINE_AA)
    cv2.polylines(img, [outline], True, design.edge, max(1, int(r * 0.1)), cv2.LINE_AA)
    img = cv2.resize(img, (side_px, side_px), interpolation=cv2.INTER_AREA)
    alpha = cv2.resize(alpha, (side_px, side_px), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    return img, alpha
