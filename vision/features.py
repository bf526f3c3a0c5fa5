"""Token features: a short vector describing a token, unchanged by rotation and exposure.

The vector joins colour means and spreads in three rings (centre, middle, rim), a hue/saturation
histogram, a histogram of brightness relative to the token's own mean, and the strength of
angular patterns on three circles (magnitudes of a Fourier series around the centre).
"""
from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

RINGS = (0.0, 0.45, 0.75, 1.01)
HUE_BINS = 12
VALUE_BINS = 8
ANGLES = 16
RADII = (0.3, 0.55, 0.8)
HARMONICS = 5
# The emblem: brightness on small circles around the token's centre (its radial profile and the
# strength of its angular patterns): what tells apart in-decline sides printed in the same grey.
EMBLEM_RADII = (0.1, 0.18, 0.26, 0.34, 0.42, 0.5)
EMBLEM_ANGLES = 24
EMBLEM_HARMONICS = 7
SIZE = (3 * 6 + HUE_BINS + 1 + VALUE_BINS + len(RADII) * 3 * HARMONICS
        + len(EMBLEM_RADII) * (1 + EMBLEM_HARMONICS))


_KERNEL = np.ones((3, 3), np.uint8)


@lru_cache(maxsize=4)
def _grid(n: int):
    ys, xs = np.mgrid[0:n, 0:n].astype(np.float32)
    a = np.arange(ANGLES) * 2 * np.pi / ANGLES
    c = (n - 1) / 2
    px = np.array([[c + r * n / 2 * np.cos(t) for t in a] for r in RADII]).round().astype(int).clip(0, n - 1)
    py = np.array([[c + r * n / 2 * np.sin(t) for t in a] for r in RADII]).round().astype(int).clip(0, n - 1)
    return xs.ravel(), ys.ravel(), (py * n + px).ravel()


def crop_to_mask(image: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The part of an image (and mask) inside the mask's bounding box."""
    x, y, w, h = cv2.boundingRect(mask.astype(np.uint8))
    return image[y:y + h, x:x + w], mask[y:y + h, x:x + w]


def normalise(patch: np.ndarray, mask: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """A token patch and its mask resized to ``size`` square (the mask slightly eroded)."""
    img = cv2.resize(patch, (size, size), interpolation=cv2.INTER_AREA)
    m = cv2.resize(mask.astype(np.uint8) * 255, (size, size), interpolation=cv2.INTER_AREA) > 127
    m = m.view(np.uint8)
    eroded = cv2.erode(m, _KERNEL)
    return img, (eroded if cv2.countNonZero(eroded) >= 12 else m)


def batch_features(patches: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Features of N tokens: ``patches`` (N, S, S, 3) BGR uint8, ``masks`` (N, S, S) 0/1."""
    n, s = len(patches), patches.shape[1] if len(patches) else 0
    if n == 0:
        return np.zeros((0, SIZE), np.float32)
    P = s * s
    w = masks.reshape(n, P).astype(np.float32)
    cnt = w.sum(1) + 1e-6
    bgr = patches.reshape(n, P, 3).astype(np.float32)
    lum = _mean3(bgr)
    scale = (w * lum).sum(1) / cnt + 1.0
    norm = bgr / scale[:, None, None]
    xs, ys, polar = _grid(s)
    cx = (w * xs).sum(1) / cnt
    cy = (w * ys).sum(1) / cnt
    r = np.hypot(xs[None] - cx[:, None], ys[None] - cy[:, None]) * w
    r = r / (r.max(1, keepdims=True) + 1e-6)
    out = []
    both = np.concatenate([norm, norm * norm], 2)  # (n, P, 6): values and squares
    for lo, hi in zip(RINGS[:-1], RINGS[1:]):
        ring = w * ((r >= lo) & (r < hi))
        rc = ring.sum(1, keepdims=True) + 1e-6
        sums = np.matmul(ring[:, None, :], both)[:, 0] / rc
        mean = sums[:, :3]
        out += [mean, np.sqrt(np.maximum(sums[:, 3:] - mean * mean, 0))]
    hsv = cv2.cvtColor(patches.reshape(n * s, s, 3), cv2.COLOR_BGR2HSV).reshape(n, P, 3).astype(np.float32)
    sat = hsv[..., 1] / 255.0
    chroma = np.clip((sat - 0.12) / 0.25, 0, 1) * np.clip(hsv[..., 2] / 60.0, 0, 1) * w
    hb = (hsv[..., 0] * HUE_BINS / 180).astype(np.int64) % HUE_BINS + np.arange(n)[:, None] * HUE_BINS
    hue = np.bincount(hb.ravel(), weights=chroma.ravel(), minlength=n * HUE_BINS).reshape(n, HUE_BINS)
    grey = (w - chroma).sum(1, keepdims=True)
    out.append(np.concatenate([hue, grey], 1) / cnt[:, None] * 2.0)
    rel = lum / scale[:, None]
    vb = np.clip((rel * VALUE_BINS / 2.0).astype(np.int64), 0, VALUE_BINS - 1) + np.arange(n)[:, None] * VALUE_BINS
    out.append(np.bincount(vb.ravel(), weights=w.ravel(), minlength=n * VALUE_BINS).reshape(n, VALUE_BINS)
               / cnt[:, None])
    # Angular patterns: opponent colours sampled on circles, Fourier magnitudes (rotation invariant).
    smooth = cv2.GaussianBlur(patches.reshape(n * s, s, 3), (3, 3), 0).reshape(n, P, 3).astype(np.float32)
    smooth /= scale[:, None, None]
    smooth_lum = _mean3(smooth)
    opp = np.stack([smooth_lum, smooth[..., 2] - smooth[..., 1],
                    smooth[..., 0] - (smooth[..., 1] + smooth[..., 2]) / 2], 2)
    ring_vals = opp[:, polar].reshape(n, len(RADII), ANGLES, 3)
    spec = np.abs(np.fft.rfft(ring_vals, axis=2))[:, :, 1:HARMONICS + 1] / ANGLES
    out.append(spec.reshape(n, -1) * 0.8)
    out.append(_emblem(smooth_lum.reshape(n, s, s), cx, cy))
    return np.concatenate(out, 1).astype(np.float32)


def _mean3(x: np.ndarray) -> np.ndarray:
    """The mean of the last axis of three (colour channels): the same values as ``x.mean(-1)`` (which adds
    the three in this order), without numpy's slow reduction over a short axis (0.45 ms against 0.03 ms
    for 50 tokens)."""
    return (x[..., 0] + x[..., 1] + x[..., 2]) / 3


# cv2.remap takes images of fewer than SHRT_MAX (32767) rows: the tokens stacked one above another go to it
# in batches of at most this many rows.
REMAP_ROWS = 32766


def _emblem(lum: np.ndarray, cx: np.ndarray, cy: np.ndarray) -> np.ndarray:
    """Relative brightness on circles around each token's centre (bilinear): per circle its mean and the
    magnitudes of its first angular harmonics (unchanged by turning the token)."""
    n, s = lum.shape[:2]
    a = np.arange(EMBLEM_ANGLES) * 2 * np.pi / EMBLEM_ANGLES
    r = np.array(EMBLEM_RADII)[:, None] * s
    dx, dy = (r * np.cos(a)).ravel().astype(np.float32), (r * np.sin(a)).ravel().astype(np.float32)
    mx = (cx[:, None] + dx[None]).astype(np.float32)
    step = max(1, REMAP_ROWS // max(s, 1))
    vals = np.empty((n, len(EMBLEM_RADII) * EMBLEM_ANGLES), np.float32)
    for i in range(0, n, step):  # each batch's tokens stacked, one above another
        j = min(n, i + step)
        my = (cy[i:j, None] + dy[None]).astype(np.float32) + (np.arange(j - i) * s)[:, None].astype(np.float32)
        vals[i:j] = cv2.remap(lum[i:j].reshape((j - i) * s, s).astype(np.float32), mx[i:j], my, cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REPLICATE)
    vals = vals.reshape(n, len(EMBLEM_RADII), EMBLEM_ANGLES)
    spec = np.abs(np.fft.rfft(vals, axis=2))[:, :, 1:EMBLEM_HARMONICS + 1] / EMBLEM_ANGLES
    return np.concatenate([vals.mean(2), spec.reshape(n, -1)], 1)


# The emblem's outline, for telling apart kinds printed alike (grey in-decline sides): the emblem's radius (its
# ink darker than the face around it, or lighter, whichever the printing chose) along rays from its own ink
# centre (so a shadow or a stacked token in the blob's outline does not move it), described by its harmonics'
# magnitudes and the bispectrum's phase couplings F_k F_l conj(F_k+l): unchanged by turning the token, yet a
# five-pointed star and a pentagon differ.
OUTLINE_ANGLES = 64
OUTLINE_RADII = 16
OUTLINE_REACH = 0.9       # rays reach this share of the token's radius
OUTLINE_HARMONICS = 9
OUTLINE_PAIRS = tuple((k, m) for k in range(2, 5) for m in range(k, 9 - k))
OUTLINE_SIZE = OUTLINE_HARMONICS + 2 * len(OUTLINE_PAIRS)
_PAIRS = tuple(np.array(p) for p in zip(*OUTLINE_PAIRS))


def emblem_outline(patch: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The rotation-invariant description of a token's emblem (``OUTLINE_SIZE`` numbers), from ``patch``
    (BGR, any size: the token at the board's resolution or finer) and its ``mask``."""
    return emblem_outlines([patch], [mask])[0]


def emblem_outlines(patches, masks) -> np.ndarray:
    """``emblem_outline`` of several tokens at once, one row each."""
    return outline_invariants(emblem_radii(patches, masks))


def emblem_radii(patches, masks) -> np.ndarray:
    """The emblem's radius along ``OUTLINE_ANGLES`` rays from its ink centre, in shares of the token's radius,
    one row per token (zeros where a token is too small to look at)."""
    n = len(patches)
    rings = np.zeros((n, OUTLINE_RADII, OUTLINE_ANGLES), np.float32)
    a = np.arange(OUTLINE_ANGLES) * 2 * np.pi / OUTLINE_ANGLES
    rho = (np.arange(OUTLINE_RADII) + 0.5) / OUTLINE_RADII * OUTLINE_REACH
    ray_x, ray_y = (rho[:, None] * np.cos(a)[None]).astype(np.float32), (rho[:, None] * np.sin(a)[None]).astype(np.float32)
    seen = np.zeros(n, bool)
    for i, (patch, mask) in enumerate(zip(patches, masks)):
        m = cv2.moments(mask.astype(np.uint8), True)
        if m["m00"] < 12:
            continue
        grey = cv2.GaussianBlur(cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY), (0, 0), 0.8).astype(np.float32)
        cx, cy, R = m["m10"] / m["m00"], m["m01"] / m["m00"], float(np.sqrt(m["m00"] / np.pi))
        if _light_ink(grey, cx, cy, R):  # a light emblem on a darker face: its ink is what is lighter
            grey = 255 - grey
        # The ink's own centre: the emblem is printed at the token's centre (the blob's outline may hold a
        # shadow or a token beneath).
        disc = np.zeros(grey.shape, np.uint8)
        cv2.circle(disc, (int(round(cx * 4)), int(round(cy * 4))), int(0.75 * R * 4), 1, -1, shift=2)
        vals = grey[disc > 0]
        if len(vals) >= 12:
            k = max(len(vals) // 20, 1)
            part = np.partition(vals, (k, len(vals) - 1 - k))
            c = cv2.moments(np.maximum((part[k] + part[len(vals) - 1 - k]) / 2 - grey, 0) * disc)
            if c["m00"] > 0:
                cx, cy = c["m10"] / c["m00"], c["m01"] / c["m00"]
        rings[i] = cv2.remap(grey, cx + ray_x * R, cy + ray_y * R, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        seen[i] = True
    # Ink along each ray, from the centre up to where it first ends: the emblem's radius at that angle.
    inner = np.sort(rings[:, :OUTLINE_RADII * 2 // 3].reshape(n, -1), 1)
    lo, hi = inner[:, inner.shape[1] // 10, None, None], inner[:, inner.shape[1] * 9 // 10, None, None]
    dark = np.clip(((lo + hi) / 2 - rings) / np.maximum((hi - lo) * 0.25, 1.0) + 0.5, 0, 1)
    light = dark <= 0.5
    before = np.cumsum(light, 1) - light  # light samples nearer the centre than this one
    radius = (dark * (before == 0)).sum(1) / OUTLINE_RADII * OUTLINE_REACH
    radius[~seen] = 0
    return radius.astype(np.float32)


def _ring_offsets(radii, n: int) -> np.ndarray:
    a = np.arange(n) * 2 * np.pi / n
    return np.array([(r * np.cos(t), r * np.sin(t)) for r in radii for t in a])


# Where a token's emblem and its face are sampled, in shares of the token's radius: the emblem's middle, then
# the face around it, inside the rim.
_CENTRE = _ring_offsets((0.0, 0.12, 0.2), 8)
_PROBES = np.concatenate([_CENTRE, _ring_offsets((0.55, 0.62, 0.7), 16)]).T.copy()


def _light_ink(grey: np.ndarray, cx: float, cy: float, R: float) -> bool:
    """Whether a token's emblem is printed lighter than its face: the emblem lies at the centre, the face around
    it (the median of a ring between half and three quarters of the token's radius)."""
    h, w = grey.shape
    x = (cx + 0.5 + _PROBES[0] * R).astype(np.intp)
    y = (cy + 0.5 + _PROBES[1] * R).astype(np.intp)
    vals = grey[np.minimum(np.maximum(y, 0), h - 1), np.minimum(np.maximum(x, 0), w - 1)]
    face = np.sort(vals[len(_CENTRE):])
    return float(vals[:len(_CENTRE)].mean()) > float(face[len(face) // 2])


def outline_invariants(radius: np.ndarray) -> np.ndarray:
    """What of the emblem radii (``emblem_radii``) a turn of the token leaves unchanged: the harmonics'
    magnitudes and the bispectrum's phase couplings (``OUTLINE_SIZE`` numbers a row)."""
    seen = radius.any(1)
    F = np.fft.rfft(radius.astype(np.float64), axis=1) / OUTLINE_ANGLES
    k, j = _PAIRS
    z = F[:, k] * F[:, j] * np.conj(F[:, k + j])
    size = np.abs(z)
    z = z * np.where(size > 1e-12, np.cbrt(size) / np.maximum(size, 1e-12), 0.0)
    out = np.concatenate([np.abs(F[:, :OUTLINE_HARMONICS]), z.real, z.imag], 1).astype(np.float32)
    out[~seen] = 0
    return out


def token_features(patch: np.ndarray, mask: np.ndarray, size: int = 24) -> np.ndarray:
    """Features of one token: ``patch`` is BGR around it, ``mask`` (same size, nonzero on the token)."""
    img, m = normalise(patch, mask, size)
    return batch_features(img[None], m[None])[0]


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
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    keep = []
    for i in range(1, n):
        x, y, cw, ch, area = stats[i]
        touches = x == 0 or y == 0 or x + cw >= w or y + ch >= h
        if area >= 0.002 * h * w and not touches:
            keep.append(i)
    out = np.zeros_like(mask)
    if keep:
        # The token is everything that stands out from the background, away from the photo's edges.
        pts = cv2.findNonZero(np.isin(labels, keep).astype(np.uint8))
        cv2.fillPoly(out, [cv2.convexHull(pts)], 1)
    return out
