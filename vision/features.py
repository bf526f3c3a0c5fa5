"""Token features: a short vector describing a token's colours, unchanged by rotation and exposure.

The vector joins colour means and spreads in three rings (centre, middle, rim), a hue/saturation
histogram and a histogram of brightness relative to the token's own mean.
"""
from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

RINGS = (0.0, 0.45, 0.75, 1.01)
HUE_BINS = 12
VALUE_BINS = 8
SIZE = 3 * 6 + HUE_BINS + 1 + VALUE_BINS


@lru_cache(maxsize=4)
def _radius(n: int) -> np.ndarray:
    ys, xs = np.mgrid[0:n, 0:n].astype(np.float32)
    c = (n - 1) / 2
    return np.hypot(xs - c, ys - c) / (n / 2)


def token_features(patch: np.ndarray, mask: np.ndarray, size: int = 24) -> np.ndarray:
    """Features of one token: ``patch`` is BGR around it, ``mask`` (same size, nonzero on the token)."""
    img = cv2.resize(patch, (size, size), interpolation=cv2.INTER_AREA)
    m = cv2.resize(mask.astype(np.uint8) * 255, (size, size), interpolation=cv2.INTER_AREA) > 127
    eroded = cv2.erode(m.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    if eroded.sum() >= 12:
        m = eroded
    if m.sum() < 4:
        return np.zeros(SIZE, np.float32)
    px = img[m].astype(np.float32)
    lum = px.mean(1)
    scale = float(lum.mean()) + 1.0
    norm = px / scale
    # Rings around the mask's own centre, as a share of its extent.
    ys, xs = np.nonzero(m)
    cx, cy = xs.mean(), ys.mean()
    r = np.hypot(xs - cx, ys - cy)
    r = r / (r.max() + 1e-6)
    out = []
    for lo, hi in zip(RINGS[:-1], RINGS[1:]):
        sel = (r >= lo) & (r < hi)
        part = norm[sel] if sel.sum() >= 2 else norm
        out.extend(part.mean(0))
        out.extend(part.std(0))
    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)[m].astype(np.float32)
    sat = hsv[:, 1] / 255.0
    chroma = np.clip((sat - 0.12) / 0.25, 0, 1) * np.clip(hsv[:, 2] / 60.0, 0, 1)
    hue = np.bincount((hsv[:, 0] * HUE_BINS / 180).astype(int) % HUE_BINS, weights=chroma, minlength=HUE_BINS)
    hist = np.concatenate([hue, [np.sum(1 - chroma)]]) / len(px)
    out.extend(hist * 2.0)
    rel = lum / scale
    vh = np.bincount(np.clip((rel * VALUE_BINS / 2.0).astype(int), 0, VALUE_BINS - 1), minlength=VALUE_BINS)
    out.extend(vh / len(px))
    return np.asarray(out, np.float32)


def segment_sample(image: np.ndarray) -> np.ndarray:
    """The token's mask in an enrollment photo: what differs from the background seen at the border."""
    h, w = image.shape[:2]
    b = max(2, min(h, w) // 20)
    border = np.concatenate([image[:b].reshape(-1, 3), image[-b:].reshape(-1, 3),
                             image[:, :b].reshape(-1, 3), image[:, -b:].reshape(-1, 3)]).astype(np.float32)
    bg = np.median(border, 0)
    spread = np.median(np.abs(border - bg), 0).sum() * 1.4826 + 1.0
    diff = np.abs(image.astype(np.float32) - bg).sum(2)
    mask = (diff > max(24.0, 4 * spread)).astype(np.uint8)
    k = max(3, min(h, w) // 30) | 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(mask)
    if contours:
        # The token is the large blob nearest the centre.
        def score(c):
            x, y, cw, ch = cv2.boundingRect(c)
            d = np.hypot(x + cw / 2 - w / 2, y + ch / 2 - h / 2) / max(h, w)
            return cv2.contourArea(c) * (1 - d)
        best = max(contours, key=score)
        cv2.fillPoly(out, [cv2.convexHull(best)], 1)
    return out
