"""Token designs drawn from a design seed: every label gets its own shape, colours and glyph.

Tokens of one kind look alike; a race and its -decline side share shape and glyph, the decline
side being grey-ish. A different design seed gives a different printing of the whole game.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from ..labels import LABELS, PIECES, RACES

SHAPES = ("circle", "square", "hexagon", "octagon")
MOTIFS = ("glyph", "ring", "stripes", "dots", "half")


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


@lru_cache(maxsize=8)
def designs(design_seed: int) -> dict[str, TokenDesign]:
    """One design per label, drawn from the design seed."""
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
    glyph = np.array(design.glyph) * (0.55 if design.motif != "glyph" else 0.8)
    cv2.fillPoly(img, [np.round(c + glyph @ rot.T * r).astype(np.int32)], design.accent, cv2.LINE_AA)
    cv2.polylines(img, [outline], True, design.edge, max(1, int(r * 0.1)), cv2.LINE_AA)
    img = cv2.resize(img, (side_px, side_px), interpolation=cv2.INTER_AREA)
    alpha = cv2.resize(alpha, (side_px, side_px), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    return img, alpha
