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


# The emblem, for telling apart kinds printed alike (grey in-decline sides): the token's brightness on a polar
# grid around its centre (circles out to the emblem's reach, inside the rim), made zero-mean and of unit length,
# kept as its Fourier series along each circle. Two tokens compare by their correlation at their best turn (one
# inverse transform gives it at every turn at once), so the whole emblem counts, whatever its form: bars, a ring,
# several parts; an emblem lighter than its face correlates with its own kind as a dark one does. A token seen in
# part is centred off its emblem: it is looked at from ``EMBLEM_SHIFTS`` centres around its own, and the best
# counts.
POLAR_ANGLES = 32
POLAR_RADII = np.linspace(0.08, 0.72, 8)  # shares of the token's radius
_SHIFT = 0.12
EMBLEM_SHIFTS = np.array([(0.0, 0.0)] + [(f * _SHIFT * np.cos(t), f * _SHIFT * np.sin(t))
                                         for f in (1, 2) for t in np.arange(8) * np.pi / 4], np.float32)
_POLAR_X = (POLAR_RADII[:, None] * np.cos(np.arange(POLAR_ANGLES) * 2 * np.pi / POLAR_ANGLES)[None]).astype(np.float32)
_POLAR_Y = (POLAR_RADII[:, None] * np.sin(np.arange(POLAR_ANGLES) * 2 * np.pi / POLAR_ANGLES)[None]).astype(np.float32)
EMBLEM_SHAPE = (len(POLAR_RADII), POLAR_ANGLES // 2 + 1)


def emblem_spectra(patches, masks, radius: float = 0.0, shifts: bool = True) -> np.ndarray:
    """Each token's emblem: (N, centres, circles, harmonics) complex, from ``patches`` (BGR, any size: the token at
    the board's resolution or finer) and their ``masks``; ``radius``: a whole token's radius in pixels (a token seen
    in part is not taken for a smaller one; 0: from its mask); ``shifts``: looked at from ``EMBLEM_SHIFTS`` centres
    (a token on the board) or its own only (an enrollment photo). A token too small to look at is all zeros."""
    centres = EMBLEM_SHIFTS if shifts else EMBLEM_SHIFTS[:1]
    out = np.zeros((len(patches), len(centres)) + EMBLEM_SHAPE, np.complex64)
    for i, (patch, mask) in enumerate(zip(patches, masks)):
        m = cv2.moments(mask.astype(np.uint8), True)
        if m["m00"] < 12:
            continue
        grey = cv2.GaussianBlur(cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY), (0, 0), 0.8).astype(np.float32)
        cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
        R = max(float(np.sqrt(m["m00"] / np.pi)), radius)
        xs = (cx + R * (centres[:, 0, None, None] + _POLAR_X[None])).reshape(-1, POLAR_ANGLES)
        ys = (cy + R * (centres[:, 1, None, None] + _POLAR_Y[None])).reshape(-1, POLAR_ANGLES)
        v = cv2.remap(grey, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        v = v.reshape(len(centres), -1)
        v -= v.mean(1, keepdims=True)
        v /= np.sqrt((v * v).sum(1, keepdims=True)) + 1e-6
        out[i] = np.fft.rfft(v.reshape((len(centres), len(POLAR_RADII), POLAR_ANGLES)), axis=2)
    return out


def emblem_spectrum(patch: np.ndarray, mask: np.ndarray, radius: float = 0.0, shifts: bool = True) -> np.ndarray:
    """``emblem_spectra`` of one token."""
    return emblem_spectra([patch], [mask], radius, shifts)[0]


def emblem_likeness(queries: np.ndarray, templates: np.ndarray) -> np.ndarray:
    """(N, T): the correlation (-1..1) of each query emblem (``emblem_spectra``, any centres) with each template
    (one centre each), at the best turn and the best of the query's centres. In real arithmetic, as two matrix
    products (numpy multiplies complex matrices by the batch many times slower): the correlation's spectrum, per
    harmonic summed over the circles, then the correlation at every turn (the inverse transform, ``_TURNS``)."""
    n, t = len(queries), len(templates)
    if n == 0 or t == 0:
        return np.zeros((n, t), np.float32)
    c = queries.shape[1]
    q = queries.reshape(n * c, *EMBLEM_SHAPE).transpose(2, 0, 1)        # (harmonics, queries, circles)
    a = np.concatenate([q.real, q.imag], 2).astype(np.float32)
    tpl = templates[:, 0].transpose(2, 1, 0)                            # (harmonics, circles, templates)
    tr, ti = tpl.real.astype(np.float32), tpl.imag.astype(np.float32)
    b = np.concatenate([np.concatenate([tr, ti], 1), np.concatenate([-ti, tr], 1)], 2)
    spectrum = np.matmul(a, b)  # (harmonics, queries, 2 templates): q conj(t), real parts then imaginary
    cos, sin = _TURNS
    corr = np.tensordot(spectrum[..., :t], cos, (0, 0)) + np.tensordot(spectrum[..., t:], sin, (0, 0))
    return corr.max(2).reshape(n, c, t).max(1)


def _inverse_transform() -> tuple[np.ndarray, np.ndarray]:
    """The inverse real Fourier transform of ``POLAR_ANGLES`` points as two matrices (harmonics, turns): the
    real parts' and the imaginary parts' share of the signal at each turn (``np.fft.irfft``)."""
    k = np.arange(EMBLEM_SHAPE[1])[:, None]
    turn = np.arange(POLAR_ANGLES)[None] * 2 * np.pi / POLAR_ANGLES
    w = np.where((k == 0) | (k == POLAR_ANGLES // 2), 1.0, 2.0) / POLAR_ANGLES
    return (w * np.cos(k * turn)).astype(np.float32), (-w * np.sin(k * turn)).astype(np.float32)


_TURNS = _inverse_transform()


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
