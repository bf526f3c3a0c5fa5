"""Detection: what differs from the empty-board reference inside each region, split into tokens.

Each changed blob is assigned to the region under its centre. A blob as large as several tokens is
split into that many pieces; a blob far larger than any pile of tokens, or one reaching in from
the edge of the view, is an occluder (a hand or an arm) and the regions under it are occluded.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .errors import VisionError
from .geometry import Raster
from .settings import Settings


@dataclass(frozen=True)
class Blob:
    """One visible token candidate in the rectified frame."""

    region: int
    center: tuple[float, float]   # rectified px
    area: int
    bbox: tuple[int, int, int, int]   # x, y, w, h in rectified px
    mask: np.ndarray              # uint8 mask of the bbox


@dataclass(frozen=True)
class Detection:
    """The blobs found, the regions occluded, the token area used, and each region's changed share."""

    blobs: tuple[Blob, ...]
    occluded: frozenset[int]
    token_area: float
    changed: np.ndarray           # bool mask, rectified size


class Reference:
    """The empty board as the camera sees it, rectified, ready for comparison."""

    def __init__(self, settings: Settings, raster: Raster, rectified_empty: np.ndarray):
        if rectified_empty.shape[:2] != (raster.size[1], raster.size[0]):
            raise VisionError("reference image does not match the rectified board size")
        self.raster = raster
        self.image = cv2.blur(rectified_empty, (3, 3))
        # The darkest and brightest the board shows within a pixel of each point: a frame that stays
        # inside this envelope is unchanged, even if printed detail moved by a pixel.
        k = np.ones((3, 3), np.uint8)
        self.low, self.high = cv2.erode(self.image, k), cv2.dilate(self.image, k)
        # Per-pixel difference (sum over channels) that counts as a change, before exposure gain.
        self.limit = ((self.image.astype(np.float32).mean(2) + 12.0) * 3 * settings.diff_threshold)
        # Where the lamp blinds the camera, a token's colours cannot be trusted.
        self.blinded = cv2.integral((self.image.max(2) >= settings.saturated).astype(np.uint8))
        self.glare = _glare(settings, raster, self.image) if settings.glare_correction else None
        # Edges already on the board (borders, print), widened to forgive a pixel of misregistration.
        gray = cv2.cvtColor(self.image, cv2.COLOR_BGR2GRAY)
        grad = cv2.morphologyEx(gray, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
        base = cv2.dilate(grad, np.ones((3, 3), np.uint8)).astype(np.float32)
        self.edge_limit = base + settings.edge_threshold * (gray.astype(np.float32) + 12.0)


def blinded_share(reference: Reference, bbox) -> float:
    """Share of a box (x, y, w, h) of the rectified board where glare saturates the reference."""
    x, y, w, h = bbox
    ii = reference.blinded
    total = ii[y + h, x + w] - ii[y, x + w] - ii[y + h, x] + ii[y, x]
    return float(total) / max(w * h, 1)


def _glare(settings: Settings, raster: Raster, image: np.ndarray) -> np.ndarray | None:
    """The lamp's specular glare in the reference: a smooth, colourless excess over each region's own
    colour (a low percentile of the region). None when there is none worth correcting."""
    lab = raster.nearest[::3, ::3].ravel()
    px = image[::3, ::3].reshape(-1, 3).astype(np.float32)
    keep = lab >= 0
    lab, px = lab[keep], px[keep]
    order = np.argsort(lab, kind="stable")
    lab, px = lab[order], px[order]
    starts = np.searchsorted(lab, np.arange(len(raster.ids) + 1))
    base = np.zeros((len(raster.ids) + 1, 3), np.float32)
    for k in range(len(raster.ids)):
        if starts[k + 1] > starts[k]:
            base[k] = np.percentile(px[starts[k]:starts[k + 1]], 30, axis=0)
    excess = (image.astype(np.float32) - base[raster.nearest]).min(2)
    excess = cv2.GaussianBlur(np.maximum(excess, 0), (0, 0), 3.0 * raster.px_per_mm)
    excess[excess < settings.glare_min] = 0
    return excess if excess.max() > 0 else None


def _light(settings: Settings, frame: np.ndarray, reference: Reference) -> np.ndarray:
    """How the light changed since the reference: per-channel gain as a coarse grid of cells (median
    frame/reference ratio in each, so tokens covering part of a cell do not matter)."""
    step = 12
    f = frame[::step, ::step].astype(np.float32)
    r = reference.image[::step, ::step].astype(np.float32)
    ratio = f / np.maximum(r, 10.0)
    gy, gx = settings.light_cells
    h, w = ratio.shape[:2]
    ch, cw = max(1, h // gy), max(1, w // gx)
    gy, gx = h // ch, w // cw
    cells = ratio[:gy * ch, :gx * cw].reshape(gy, ch, gx, cw, 3).transpose(0, 2, 1, 3, 4)
    grid = np.median(cells.reshape(gy, gx, ch * cw, 3), axis=2).astype(np.float32)
    overall = np.median(grid.reshape(-1, 3), axis=0)
    return grid if np.abs(grid / overall - 1).max() > settings.light_tolerance else overall


def changed(settings: Settings, reference: Reference, rectified: np.ndarray) -> np.ndarray:
    """Pixels whose colour differs from the reference by more than ``settings.diff_threshold`` (uint8 0/1)."""
    frame = cv2.blur(rectified, (3, 3))
    g = _light(settings, frame, reference)
    # Undo the change of light on the frame, then measure how far it leaves the board's envelope.
    if g.ndim == 1:
        lut = np.clip(np.arange(256, dtype=np.float32)[:, None] / np.maximum(g, 1e-3)[None, :] + 0.5, 0, 255)
        level = cv2.LUT(frame, lut.astype(np.uint8).reshape(256, 1, 3))
    else:
        h, w = frame.shape[:2]
        inverse = cv2.resize(1.0 / np.maximum(g, 1e-3), (w, h), interpolation=cv2.INTER_LINEAR)
        level = cv2.multiply(frame, inverse, dtype=cv2.CV_8U)
    out = cv2.add(cv2.subtract(level, reference.high), cv2.subtract(reference.low, level))
    total = cv2.transform(out, np.ones((1, 3), np.float32))
    gain = float(np.mean(g))
    colour = total > reference.limit
    if settings.edge_threshold <= 0:
        return colour.astype(np.uint8)
    # New edges (a token's rim and print) show tokens whose colour matches the board under them.
    grad = cv2.morphologyEx(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    edges = grad > reference.edge_limit * gain
    return (colour | edges).astype(np.uint8)


def detect(settings: Settings, reference: Reference, rectified: np.ndarray) -> Detection:
    """Blobs that differ from the empty board, assigned to regions; occluded regions."""
    raster = reference.raster
    s = raster.px_per_mm
    mask = changed(settings, reference, rectified)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hulls = [cv2.convexHull(c) for c in contours]
    areas = np.array([cv2.contourArea(hull) for hull in hulls])
    nominal = (raster.geometry.token_mm * s) ** 2 * 0.75
    typical = areas[(areas > 0.5 * nominal) & (areas < 1.4 * nominal)]
    token_area = float(np.median(typical)) if len(typical) >= 5 else nominal
    h, w = mask.shape
    occ_mask = np.zeros_like(mask)
    blobs = []
    for contour, hull, area in zip(contours, hulls, areas):
        if area < settings.min_token_share * token_area:
            continue
        x, y, bw, bh = cv2.boundingRect(hull)
        edge = x <= 1 or y <= 1 or x + bw >= w - 1 or y + bh >= h - 1
        if area > settings.occluder_tokens * token_area or (edge and area > 1.5 * token_area):
            cv2.drawContours(occ_mask, [contour], -1, 1, -1)
            continue
        sub = np.zeros((bh, bw), np.uint8)
        cv2.fillPoly(sub, [hull - [x, y]], 1)
        pieces = int(np.floor(area / token_area + 2.0 - settings.split_at))
        if pieces <= 1:
            m = cv2.moments(sub, True)
            parts = [(sub, (x + m["m10"] / m["m00"], y + m["m01"] / m["m00"]))] if m["m00"] else []
        else:
            parts = _split(sub, pieces, x, y)
        for part, c in parts:
            cx, cy = int(round(c[0])), int(round(c[1]))
            region = int(raster.nearest[min(max(cy, 0), h - 1), min(max(cx, 0), w - 1)])
            if region < 0:
                continue
            px0, py0, pw, ph = cv2.boundingRect(part)
            blobs.append(Blob(int(raster.ids[region]), (float(c[0]), float(c[1])), int(cv2.countNonZero(part)),
                              (x + px0, y + py0, pw, ph), part[py0:py0 + ph, px0:px0 + pw]))
    occluded = set()
    if occ_mask.any():
        grown = cv2.dilate(occ_mask, np.ones((7, 7), np.uint8))
        inside = raster.labels[grown > 0]
        cover = np.bincount(inside[inside >= 0], minlength=len(raster.ids))
        hit = (cover > settings.occluded_share * raster.areas) | (cover > 0.3 * token_area)
        occluded = {int(raster.ids[k]) for k in np.nonzero(hit)[0]}
    return Detection(tuple(b for b in blobs if b.region not in occluded), frozenset(occluded), token_area,
                     mask.astype(bool))


def _fill(mask: np.ndarray) -> np.ndarray:
    """Each blob replaced by its convex hull: tokens are convex, a faint token shows only its print."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(mask)
    cv2.fillPoly(out, [cv2.convexHull(c) for c in contours], 1)
    return out


def _split(sub: np.ndarray, k: int, x: int, y: int) -> list:
    """Split a blob mask into k compact pieces (k-means on its pixel positions)."""
    ys, xs = np.nonzero(sub)
    pts = np.stack([xs, ys], 1).astype(np.float32)
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    _, lab, centers = cv2.kmeans(pts, k, None, crit, 2, cv2.KMEANS_PP_CENTERS)
    out = []
    for j in range(k):
        sel = lab.ravel() == j
        m = np.zeros_like(sub)
        m[ys[sel], xs[sel]] = 1
        out.append((m, (centers[j][0] + x, centers[j][1] + y)))
    return out
