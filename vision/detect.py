"""Detection: what differs from the empty-board reference inside each region, split into tokens.

Each changed blob is assigned to the region under its centre. A blob as large as several tokens is
split into that many pieces; a blob far larger than any pile of tokens, or one reaching in from
the edge of the view, is an occluder (a hand or an arm) and the regions under it are occluded;
but only what is left of it where the board's print does not show through (a shadow or a lamp's
glare spot is the board under other light, not a hand), and not what along its outline is of another
colour than the hand: a token lying against it (read as any token), or the board in its shadow.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

import maps

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
    gain: tuple = (1.0, 1.0, 1.0)  # the change of light where it lies (BGR): divide to see it as enrolled


@dataclass(frozen=True)
class Detection:
    """The blobs found, the regions occluded, the token area used, and each region's changed share;
    each blob's ``gain`` is the change of light where it lies, measured on the board around the tokens
    (the white and colour reference of every frame): divided out, the token looks as under the lamp it
    was enrolled under."""

    blobs: tuple[Blob, ...]
    occluded: frozenset[int]
    token_area: float
    changed: np.ndarray           # bool mask, rectified size
    glare_scale: tuple = (1.0, 1.0, 1.0)  # the reference's glare at play, relit, per channel (``_glare_at_play``)
    specks: tuple = ()            # (region, px) of each change too small for a piece (``speck_share`` of a token and up),
                                  # apart from any light or hand
    level: np.ndarray | None = None  # the frame as compared with the reference (relit, the glare at play undone)


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
        self.glare = _glare(settings, raster, self.image) if settings.glare_correction else None
        # Where the glare is strong and the camera not blinded: how strong it is at play is measured there.
        self.glare_probe = None
        if self.glare is not None:
            probe = (self.glare >= max(2 * settings.glare_min, 0.3 * float(self.glare.max()))) \
                & (self.image.max(2) < settings.saturated)
            ys, xs = np.nonzero(probe[::2, ::2])
            if len(ys) >= 50:
                every = max(1, len(ys) // 2000)  # 2000 points tell the median: a fraction of a ms a frame
                self.glare_probe = (2 * ys[::every], 2 * xs[::every])
                gy, gx = np.nonzero(self.glare > 0)
                self.glare_box = (int(gy.min()), int(gy.max()) + 1, int(gx.min()), int(gx.max()) + 1)
        # Per-pixel difference (sum over channels) that counts as a change, before exposure gain.
        brightness = self.image.astype(np.float32).mean(2)
        scale = (brightness + 12.0) * 3
        self.limit = scale * settings.diff_threshold
        # The same test on whole grey levels: a sum of levels exceeds the limit when it exceeds its floor.
        self.limit8 = np.floor(np.minimum(self.limit, 255)).astype(np.uint8)
        h, w = self.image.shape[:2]
        self.half = _shrink(self.image)
        half_brightness = self.half.astype(np.float32).mean(2)
        self.half_scale = (half_brightness + 12.0) * 3
        # Under the calibration's own lamp the glare at play is the reference's, and it adds as much to a token as
        # to the board under it: the difference that counts is a share of the board's brightness without it
        # (``_same_lamp``). Under another lamp how much glare it adds is not known: the bar above stays.
        self.limit_lit, self.limit8_lit, self.half_scale_lit = self.limit, self.limit8, self.half_scale
        if self.glare is not None:
            self.limit_lit = (np.maximum(brightness - self.glare, 0) + 12.0) * 3 * settings.diff_threshold
            self.limit8_lit = np.floor(np.minimum(self.limit_lit, 255)).astype(np.uint8)
            self.half_scale_lit = (np.maximum(half_brightness - _shrink(self.glare), 0) + 12.0) * 3
        # Edges already on the board (borders, print), widened to forgive a pixel of misregistration.
        gray = cv2.cvtColor(self.image, cv2.COLOR_BGR2GRAY)
        grad = cv2.morphologyEx(gray, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
        base = cv2.dilate(grad, np.ones((3, 3), np.uint8)).astype(np.float32)
        self.edge_limit = base + settings.edge_threshold * (gray.astype(np.float32) + 12.0)
        # The board's print window by window (``lit_window``, at half size): what shows through a shadow or glare.
        k = (settings.lit_window, settings.lit_window)
        self.half_grey = _detail(settings, cv2.cvtColor(self.half, cv2.COLOR_BGR2GRAY))
        self.half_mean = cv2.blur(self.half_grey, k)
        spread = np.sqrt(np.maximum(cv2.blur(self.half_grey * self.half_grey, k) - self.half_mean ** 2, 0))
        self.half_spread = np.maximum(spread, 1e-3)
        self.textured = spread >= settings.lit_texture


def blinded_share(settings: Settings, rectified: np.ndarray, blob: Blob) -> float:
    """Share of a piece's own pixels where the camera is blinded at play (a channel at its top): its colours are
    lost there. Where glare blinded the empty board at calibration but not the piece now, the piece is read as well
    as anywhere: a token is darker than the glossy board, and its colours are its own (measured: dev boards of the
    realistic tier, every lone token there read right, 38 of 38, with half of them under 0.3 had the reference's
    blinded share lowered their confidence)."""
    x, y, w, h = blob.bbox
    patch = rectified[y:y + h, x:x + w]
    own = blob.mask > 0
    if patch.max() < settings.saturated or not own.any():  # most pieces: no pixel at the top, one reduction
        return 0.0
    return float((patch.max(2)[own] >= settings.saturated).mean())


def _glare(settings: Settings, raster: Raster, image: np.ndarray) -> np.ndarray | None:
    """The lamp's specular glare in the reference: a smooth, colourless excess over each region's own
    colour (a low percentile of the region), measured on the regions only (not the white margin or the
    markers around them) and wider than a token (not the regions' printed symbols). None when there is
    none worth correcting."""
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
    base[:-1] -= _glare_in_base(settings, raster, base[:-1])[:, None]
    excess = (image.astype(np.float32) - base[raster.nearest]).min(2)
    excess[raster.labels < 0] = 0
    side = int(round(raster.geometry.token_mm * raster.px_per_mm)) | 1
    excess = cv2.morphologyEx(np.maximum(excess, 0), cv2.MORPH_OPEN,
                              cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side)))
    excess = cv2.GaussianBlur(excess, (0, 0), 3.0 * raster.px_per_mm)
    excess[excess < settings.glare_min] = 0
    return excess if excess.max() > 0 else None


def _glare_in_base(settings: Settings, raster: Raster, base: np.ndarray) -> np.ndarray:
    """How much colourless glare lies in each region's own colour (``base``, one row per region): a region under
    a glare spot wider than itself has the glare in every pixel, its low percentile too. Regions of one terrain
    are printed in one colour: seen under the lamp, each is that colour, brighter or darker (the lamp's slope),
    plus grey (the glare). The colour is that of the terrain's more saturated regions (glare whitens); what a region
    adds in grey to it is its glare. Terrains nearly grey (the glare cannot be told from their colour) and
    boards whose terrains are not known are left as they are."""
    out = np.zeros(len(base), np.float32)
    terrain = _terrains(raster.geometry.map, tuple(int(r) for r in raster.ids))
    if terrain is None:
        return out
    groups: dict = {}
    for k, t in enumerate(terrain):
        groups.setdefault(t, []).append(k)
    for members in groups.values():
        if len(members) < 2:
            continue
        b = base[members].astype(np.float64)
        sat = (b.max(1) - b.min(1)) / np.maximum(b.max(1), 1.0)
        # The colour of the terrain's more saturated half (a region whose outline strayed onto another terrain
        # is one of many, not the colour).
        unit = b / np.maximum(np.linalg.norm(b, axis=1, keepdims=True), 1e-6)
        c = np.median(unit[sat >= np.median(sat)], axis=0)
        if (c.max() - c.min()) / max(c.max(), 1e-6) < settings.glare_chroma:
            continue
        A = np.stack([c / np.linalg.norm(c), np.ones(3)], 1)
        coef = np.linalg.lstsq(A, b.T, rcond=None)[0]  # (2, members): brightness, grey
        out[members] = np.clip(coef[1], 0, b.min(1))
    return out


@lru_cache(maxsize=16)
def _terrains(map_name: str, ids: tuple) -> tuple | None:
    """The terrain of each region (in ``ids``' order) of a map the companion knows; None otherwise."""
    try:
        terrain = {r.id: r.terrain for r in maps.load(map_name)}
    except (ValueError, OSError):
        return None
    return tuple(terrain.get(r) for r in ids)


def _light(settings: Settings, frame: np.ndarray, reference: Reference) -> np.ndarray:
    """How the light changed since the reference: per-channel gain as a coarse grid of cells (median
    frame/reference ratio in each, so tokens covering part of a cell do not matter). The grid is a
    smooth surface fitted to the cells that agree with it: cells a hand or its shadow fills are left out."""
    step = 12
    f = frame[::step, ::step].astype(np.float32)
    r = reference.image[::step, ::step].astype(np.float32)
    ratio = f / np.maximum(r, 10.0)
    gy, gx = settings.light_cells
    h, w = ratio.shape[:2]
    ch, cw = max(1, h // gy), max(1, w // gx)
    gy, gx = h // ch, w // cw
    cells = ratio[:gy * ch, :gx * cw].reshape(gy, ch, gx, cw, 3).transpose(0, 2, 1, 3, 4)
    grid = np.median(cells.reshape(gy, gx, ch * cw, 3), axis=2).astype(np.float32).reshape(-1, 3)
    v, u = np.mgrid[0:gy, 0:gx].astype(np.float32)
    u, v = (u.ravel() + 0.5) / gx - 0.5, (v.ravel() + 0.5) / gy - 0.5
    A = np.stack([np.ones_like(u), u, v, u * u, u * v, v * v], 1)
    fit = np.repeat(np.median(grid, 0)[None], len(grid), 0)
    keep = np.ones(len(grid), bool)
    # Drop the cells far from the fit, fit again, closer each time: a glare spot the empty board did not have
    # (cells two or three times as bright) must not bend the surface on its way out.
    for tolerance in (0.5, 0.25, 0.1, 0.1):
        keep = np.abs(grid / fit - 1).max(1) < tolerance
        if keep.sum() < 12:
            break
        coef, *_ = np.linalg.lstsq(A[keep], grid[keep], rcond=None)
        fit = np.maximum(A @ coef, 0.05).astype(np.float32)
    keep = np.abs(grid / fit - 1).max(1) < 0.1
    overall = np.median(grid[keep] if keep.sum() >= 6 else grid, axis=0)
    fit = fit.reshape(gy, gx, 3)
    return fit if np.abs(fit / overall - 1).max() > settings.light_tolerance else overall


def _glare_at_play(reference: Reference, level: np.ndarray) -> tuple[np.ndarray, tuple]:
    """The frame ``level`` (relit: as under the calibration's lamp) with the reference's glare as strong as there.

    The glare is light the board reflects, added to its colour; under another lamp at play it is not the
    calibration's glare times the change of light (a glossy board reflects a window as before, or the lamp at
    play less, or none). How strong it is now, per channel, relit, is measured where it was strong on the empty
    board: the median of (frame - board without glare) / glare there (tokens cover few of those pixels). The
    frame is then brought to the reference's glare, so the board under it is no change."""
    ys, xs = reference.glare_probe
    glare = reference.glare[ys, xs][:, None]
    board = reference.image[ys, xs].astype(np.float32) - glare
    scale = np.clip(np.median((level[ys, xs].astype(np.float32) - board) / glare, axis=0), 0.0, 3.0)
    if np.abs(scale - 1).max() < 0.05:
        return level, (1.0, 1.0, 1.0)
    y0, y1, x0, x1 = reference.glare_box
    glare = reference.glare[y0:y1, x0:x1]
    out = level.copy()
    planes = list(cv2.split(out[y0:y1, x0:x1]))
    for c, v in enumerate(scale):  # in whole grey levels, a channel at a time: 1 ms a frame, not 5 in float
        step = cv2.convertScaleAbs(glare, alpha=abs(float(v) - 1.0))
        planes[c] = cv2.subtract(planes[c], step) if v > 1 else cv2.add(planes[c], step)
    out[y0:y1, x0:x1] = cv2.merge(planes)
    return out, tuple(float(v) for v in scale)


def relit(g: np.ndarray, *images: np.ndarray) -> list[np.ndarray]:
    """``images`` with the change of light ``g`` (from ``_light``) undone: as under the reference's lamp."""
    if g.ndim == 1:
        lut = np.clip(np.arange(256, dtype=np.float32)[:, None] / np.maximum(g, 1e-3)[None, :] + 0.5, 0, 255)
        lut = [np.ascontiguousarray(column) for column in lut.astype(np.uint8).T]
        # One channel at a time: OpenCV's three-channel table has no fast path (1.2 against 0.9 ms a frame).
        return [cv2.merge([cv2.LUT(plane, t) for plane, t in zip(cv2.split(image), lut)]) for image in images]
    h, w = images[0].shape[:2]
    inverse = cv2.resize(1.0 / np.maximum(g, 1e-3), (w, h), interpolation=cv2.INTER_LINEAR)
    return [cv2.multiply(image, inverse, dtype=cv2.CV_8U) for image in images]


def changed(settings: Settings, reference: Reference, rectified: np.ndarray, light=None,
            level: np.ndarray | None = None) -> np.ndarray:
    """Pixels whose colour differs from the reference by more than ``settings.diff_threshold`` (uint8 0/1).
    ``light``: the change of light already measured (``_light``); ``level``: the blurred frame relit by it."""
    frame = cv2.blur(rectified, (3, 3)) if light is None or level is None or settings.edge_threshold > 0 else None
    g = _light(settings, frame, reference) if light is None else light
    # Undo the change of light on the frame, then measure how far it leaves the board's envelope.
    if level is None:
        level, = relit(g, frame)
    out = cv2.add(cv2.subtract(level, reference.high), cv2.subtract(reference.low, level))
    colour = np.greater(_channel_sum(out), reference.limit8_lit if _same_lamp(settings, g) else reference.limit8)
    if settings.edge_threshold <= 0:
        return colour.view(np.uint8)  # 0/1, no copy
    gain = float(np.mean(g))
    # New edges (a token's rim and print) show tokens whose colour matches the board under them.
    grad = cv2.morphologyEx(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    edges = grad > reference.edge_limit * gain
    return (colour | edges).view(np.uint8)


def _same_lamp(settings: Settings, g: np.ndarray) -> bool:
    """Whether the light at play is the calibration's (``g``, from ``_light``): its channels changed by at most
    ``same_lamp`` together, anywhere on the board (the same lamp: a few per cent; another lamp: a third or more)."""
    return float(np.abs(1.0 - 1.0 / np.maximum(np.asarray(g, np.float32), 1e-3)).reshape(-1, 3).sum(1).max()) \
        <= settings.same_lamp


def _channel_sum(image: np.ndarray) -> np.ndarray:
    """The sum of a uint8 image's three channels, cut at 255 (as ``cv2.transform`` with ones gives it, at a fifth
    of its cost: 0.2 against 1 ms a frame)."""
    b, g, r = cv2.split(image)
    return cv2.add(cv2.add(b, g), r)


def _gains_at(g: np.ndarray, u: np.ndarray, v: np.ndarray) -> list[tuple]:
    """The change of light ``g`` (``_light``) at points given as shares (0..1) of the width and height:
    bilinear between the grid's cells, in float32 like a point at a time (one array pass for all tokens)."""
    if g.ndim == 1:
        return [tuple(float(x) for x in g)] * len(u)
    gy, gx = g.shape[:2]
    fx = np.minimum(np.maximum(np.asarray(u, np.float64) * gx - 0.5, 0.0), gx - 1.0)
    fy = np.minimum(np.maximum(np.asarray(v, np.float64) * gy - 0.5, 0.0), gy - 1.0)
    x0 = np.minimum(fx.astype(np.int64), gx - 2) if gx > 1 else np.zeros(len(fx), np.int64)
    y0 = np.minimum(fy.astype(np.int64), gy - 2) if gy > 1 else np.zeros(len(fy), np.int64)
    x1, y1 = np.minimum(x0 + 1, gx - 1), np.minimum(y0 + 1, gy - 1)
    ax, ay = (fx - x0)[:, None], (fy - y0)[:, None]
    bx, by = (1 - ax).astype(np.float32), (1 - ay).astype(np.float32)
    ax, ay = ax.astype(np.float32), ay.astype(np.float32)
    top = g[y0, x0] * bx + g[y0, x1] * ax
    bottom = g[y1, x0] * bx + g[y1, x1] * ax
    return [tuple(float(x) for x in row) for row in (top * by + bottom * ay).tolist()]


def _detail(settings: Settings, grey: np.ndarray) -> np.ndarray:
    """The print's detail: grey less its surroundings (``lit_detail`` px), so that the slope of light across a
    shadow's soft edge is not taken for print."""
    grey = grey.astype(np.float32)
    if settings.lit_detail <= 0:
        return grey
    return grey - cv2.GaussianBlur(grey, (0, 0), settings.lit_detail)


def _lit_board(settings: Settings, reference: Reference, level: np.ndarray, rectified: np.ndarray,
               mask: np.ndarray, x: int, y: int) -> np.ndarray:
    """Where ``mask`` (a box of the rectified board from (x, y)) is the board itself under other light (a hand's
    shadow, a lamp's glare spot): its print and texture still show. The frame's grey, window by window, correlates
    with the reference's there; on a hand (or a token) it does not. Also where the camera is blinded (no sign of a
    hand) and, where the board has no print to tell, where it is only darker with its colour unchanged
    (``_shadow``). Measured at half size; the answer is a bool mask of the same box."""
    h, w = mask.shape
    out = np.zeros((h, w), bool)
    k, f = settings.lit_window, FAINT_STEP
    hh, hw = reference.half.shape[:2]
    X0, Y0 = max(0, x // f - k), max(0, y // f - k)
    X1, Y1 = min(hw, (x + w) // f + k + 1), min(hh, (y + h) // f + k + 1)
    if X1 <= X0 or Y1 <= Y0:
        return out
    half = _shrink(level[Y0 * f:Y1 * f, X0 * f:X1 * f])
    # The print from the frame as the camera saw it: the correlation needs no relighting, which clips the bright
    # board under a glare spot (its print lost) where the camera did not.
    seen = _shrink(rectified[Y0 * f:Y1 * f, X0 * f:X1 * f])
    g = _detail(settings, cv2.cvtColor(seen, cv2.COLOR_BGR2GRAY))
    box = (k, k)
    mg = cv2.blur(g, box)
    sg = np.sqrt(np.maximum(cv2.blur(g * g, box) - mg * mg, 1e-6))
    ncc = (cv2.blur(g * reference.half_grey[Y0:Y1, X0:X1], box) - mg * reference.half_mean[Y0:Y1, X0:X1])
    ncc /= sg * reference.half_spread[Y0:Y1, X0:X1]
    textured = reference.textured[Y0:Y1, X0:X1]
    good = textured & (ncc >= settings.lit_correlation)
    board = reference.half[Y0:Y1, X0:X1]
    if not textured.all():  # no print to tell: the board only darker, its colour unchanged
        good |= ~textured & _shadow(board, half, (~textured).view(np.uint8))
    # Where the lamp's glare blinded the camera at calibration, the print is lost in one or the other: the frame
    # still bright in every channel there is that glare (under another lamp, relit), not a hand.
    good |= (board.max(2) >= settings.saturated) & (half.min(2) >= settings.glare_bright * settings.saturated)
    # Most of the candidate's own pixels around each point show the board (the board outside it says nothing).
    top, left = y - Y0 * f, x - X0 * f
    inside = np.zeros(((Y1 - Y0) * f, (X1 - X0) * f), np.float32)
    inside[top:top + h, left:left + w] = mask[:inside.shape[0] - top, :inside.shape[1] - left]
    inside = _shrink(inside)
    share = cv2.blur(good.astype(np.float32) * inside, box) / np.maximum(cv2.blur(inside, box), 1e-3)
    lit = cv2.resize((share >= 0.5).view(np.uint8), ((X1 - X0) * f, (Y1 - Y0) * f), interpolation=cv2.INTER_NEAREST)
    # The box within the half-size window (whose last odd row or column may fall short of it).
    part = lit[top:top + h, left:left + w]
    out[:part.shape[0], :part.shape[1]] = part > 0
    # Where the camera is blinded (every channel at its top), nothing says a hand is there.
    out |= cv2.inRange(rectified[y:y + h, x:x + w], (settings.saturated,) * 3, (255,) * 3) > 0
    return out & (mask > 0)


def _hand(settings: Settings, reference: Reference, level: np.ndarray, part: np.ndarray, whole: np.ndarray,
          x: int, y: int, token_area: float) -> tuple[np.ndarray, list]:
    """What a hand-sized blob ``part`` (a box of the rectified board from (x, y); ``whole``: the blob before the
    board under other light was taken out of it) hides: (the hand's mask in the box, the outlines in rectified px
    of the tokens lying against it, seen whole).

    The hand is of one colour, shaded (skin): its colour is the median of the blob's middle, farther from its
    outline than a token is wide (where no token lying against it reaches). Along the outline, the blob also
    holds what is not the hand: a token lying against it (one blob with it), and a strip of the hand's shadow
    where the window of the print test (``_lit_board``) straddled hand and board. A part of another colour than
    the hand where a disc of ``pressed_share`` of a token's radius fits, a token's size or so, not at the view's
    edge, is a token the hand does not cover (a token the hand overlaps is cut short by it: it stays the hand's,
    hidden in part). Within ``shadow_band`` px of the outline, a pixel of another colour than the hand that is
    only the board darker (``_shadow``) is not hand."""
    hbox, wbox = part.shape
    r = np.sqrt(token_area / np.pi)
    seen = level[y:y + hbox, x:x + wbox]
    inner = cv2.distanceTransform(part, cv2.DIST_L2, 3)
    middle = inner > settings.palm_share * r
    if cv2.countNonZero(middle.view(np.uint8)) < token_area:
        return part, []
    skin = np.median(seen[middle], 0).astype(np.float32) + 4.0
    ratio = (seen.astype(np.float32) + 4.0) / skin
    lo, hi = ratio.min(2), ratio.max(2)
    other = ((hi > settings.skin_ratio * lo) | (hi < 1 / settings.skin_ratio ** 2) | (lo > settings.skin_ratio ** 2))
    board = reference.image[y:y + hbox, x:x + wbox]
    shade = _shadow(board, seen, whole)
    token = (other & (whole > 0) & ~shade).view(np.uint8)  # neither the hand nor the board in its shadow
    other = (other & (part > 0)).view(np.uint8)
    hand = part
    pressed = []
    if settings.pressed_share > 0:
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * int(settings.pressed_share * r) + 1,) * 2)
        cores = cv2.morphologyEx(token, cv2.MORPH_OPEN, disc)
        n, lab, stats, _ = cv2.connectedComponentsWithStats(cores, connectivity=8)
        h, w = reference.image.shape[:2]
        for j in range(1, n):
            bx, by, bw, bh, area = stats[j]
            edge = x + bx <= 1 or y + by <= 1 or x + bx + bw >= w - 1 or y + by + bh >= h - 1
            if edge or not 0.5 * token_area <= area <= 2 * token_area:
                continue
            core = (lab == j).view(np.uint8)
            if not cv2.countNonZero(core & part):  # apart from the hand already
                continue
            piece = cv2.dilate(core, np.ones((3, 3), np.uint8)) & token
            if hand is part:
                hand = part.copy()
            hand &= 1 - cv2.dilate(piece, np.ones((3, 3), np.uint8))
            pressed += list(cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=(x, y))[0])
    if settings.shadow_band > 0:
        band = hand & (1 - cv2.erode(hand, np.ones((2 * settings.shadow_band + 1,) * 2, np.uint8))) & other
        hand = hand & ~(shade.view(np.uint8) & band)
    return hand, pressed


def _no_palm(settings: Settings, reference: Reference, level: np.ndarray, rest: np.ndarray, x: int, y: int,
             token_area: float, occluder_like) -> np.ndarray:
    """``rest`` (a box of the rectified board from (x, y): what the print test left of a large blob) without the board
    under other light that the print test could not tell: a lamp's light that the fit of the change of light does not
    follow, left in blotches where the board has too little print. A hand has room for a palm (a disc of
    ``palm_share`` token radii fits in it: its palm, its arm). Where no part of ``rest`` has one, in each part as large
    as a hand the pixels that are the board's own colour, only brighter or darker (its channels changed alike, within
    ``board_colour``), are the board; what is left there is read as any blob (a token on that board, or, still as
    large as a hand, a hand: fingers reaching in from the view's edge). Beside a palm, every part is left as it is
    (the hand's fingers, or its shadow over a token it covers in part)."""
    palm = settings.palm_share * np.sqrt(token_area / np.pi)
    if not rest.any() or float(cv2.distanceTransform(rest, cv2.DIST_L2, 3).max()) >= palm:
        return rest
    n, lab, stats, _ = cv2.connectedComponentsWithStats(rest, connectivity=8)
    out = rest
    for j in range(1, n):
        bx, by, bw, bh, _ = stats[j]
        own = lab[by:by + bh, bx:bx + bw] == j
        outline = cv2.findContours(own.view(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE,
                                   offset=(x + bx, y + by))[0]
        hull = cv2.convexHull(np.concatenate(outline))
        if not occluder_like(hull, cv2.contourArea(hull)):
            continue
        seen = level[y + by:y + by + bh, x + bx:x + bx + bw].astype(np.float32) + 4.0
        ratio = seen / (reference.image[y + by:y + by + bh, x + bx:x + bx + bw].astype(np.float32) + 4.0)
        lo, hi = ratio.min(2), ratio.max(2)
        board = own & (hi < settings.board_colour * lo) & (lo > 0.25) & (hi < 4.0)
        if out is rest:
            out = rest.copy()
        out[by:by + bh, bx:bx + bw][board] = 0
    if out is rest:
        return rest
    return cv2.morphologyEx(out, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def _shadow(board: np.ndarray, level: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Where ``mask`` is only the board (the reference ``board``) in shade, darker with its colour unchanged."""
    out = np.zeros(mask.shape, bool)
    x, y, w, h = cv2.boundingRect(mask)  # of its nonzero pixels
    if w == 0:
        return out
    ref = board[y:y + h, x:x + w].astype(np.float32) + 4.0
    ratio = (level[y:y + h, x:x + w].astype(np.float32) + 4.0) / ref
    b, g, r = ratio[..., 0], ratio[..., 1], ratio[..., 2]
    lo, hi = np.minimum(np.minimum(b, g), r), np.maximum(np.maximum(b, g), r)
    out[y:y + h, x:x + w] = (mask[y:y + h, x:x + w] > 0) & (hi < 0.95) & (lo > 0.25) & (hi < lo * 1.25)
    return out


FAINT_STEP = 2  # the faint difference is measured on the frame shrunk this many times


def _shrink(image: np.ndarray) -> np.ndarray:
    """``image`` shrunk FAINT_STEP times: each pixel the mean of a whole FAINT_STEP-square block (an odd last
    row or column is dropped). An exact factor keeps OpenCV on its fast path (a board 969 px wide made
    the area resize take 3.5 ms a frame) and keeps every cell on the same pixels as the mask's (``small``)."""
    h, w = image.shape[:2]
    hh, hw = h // FAINT_STEP, w // FAINT_STEP
    return cv2.resize(image[:FAINT_STEP * hh, :FAINT_STEP * hw], (hw, hh), interpolation=cv2.INTER_AREA)


def _with_faint(settings: Settings, reference: Reference, blurred: np.ndarray, mask: np.ndarray,
                token_area: float, scale: np.ndarray | None = None) -> np.ndarray:
    """The mask with the fragments of one faint piece joined: their convex hull.

    A large piece printed in nearly the board's colour (a Mountain on Mountain terrain) differs clearly
    only at its snow cap and rim; its body differs faintly but everywhere (it hides the board's texture).
    The difference averaged over a few millimetres shows the whole body; clear fragments that one such
    faint area joins are one piece. Parts narrower than the window (printed lines that moved a pixel)
    are dropped; a clear blob alone in its faint area is left as it is (its outline, necks and all).
    Measured at half size (the window is wide)."""
    h, w = mask.shape
    hh, hw = reference.half.shape[:2]
    half = _shrink(blurred)
    rel = _channel_sum(cv2.absdiff(half, reference.half)) / (reference.half_scale if scale is None else scale)
    k = max(3, settings.faint_window // FAINT_STEP | 1)
    mean = cv2.blur(rel, (k, k))
    faint = (mean > settings.faint_threshold).astype(np.uint8)
    faint = cv2.erode(faint, np.ones((k, k), np.uint8))
    # Everything at reduced size: a clear blob is what is left of it there (any pixel of a cell).
    small = (cv2.resize(mask[:FAINT_STEP * hh, :FAINT_STEP * hw], (hw, hh), interpolation=cv2.INTER_AREA) > 0)
    small = small.astype(np.uint8)
    faint |= small
    n, labels = cv2.connectedComponents(faint, connectivity=8)  # hundreds of specks: boxes only where needed
    ns, strong = cv2.connectedComponents(small, connectivity=8)
    owner = np.zeros(ns, np.int32)
    at = np.flatnonzero(small)  # (np.nonzero of a 2-d array is 20 times slower)
    blob = strong.ravel().take(at)
    owner[blob] = labels.ravel().take(at)  # the faint area each clear blob lies in
    counts = np.bincount(owner[1:], minlength=n)
    f = FAINT_STEP
    boxes = {}  # faint area -> its box (half size), found around its clear blob
    # A clear blob smaller than a token alone in its faint area may be a fragment of a piece in the board's colour
    # (an in-decline side's emblem, a Mountain's cap): its faint area, looked at within the largest piece's reach.
    clear = np.bincount(blob, minlength=ns) * f * f
    reach = int(2 * np.sqrt(settings.faint_tokens * token_area / np.pi) / f) + 2
    for i in np.nonzero((clear >= 0.05 * token_area) & (clear < 0.75 * token_area))[0]:
        j = owner[i]
        if i == 0 or j == 0 or counts[j] != 1:
            continue
        ys, xs = np.divmod(at[blob == i], hw)
        X0, Y0 = max(int(xs.min()) - reach, 0), max(int(ys.min()) - reach, 0)
        X1, Y1 = min(int(xs.max()) + reach + 1, hw), min(int(ys.max()) + reach + 1, hh)
        x0, y0, w0, h0 = cv2.boundingRect((labels[Y0:Y1, X0:X1] == j).view(np.uint8))
        if (x0 > 0 or X0 == 0) and (y0 > 0 or Y0 == 0) and (x0 + w0 < X1 - X0 or X1 == hw) \
                and (y0 + h0 < Y1 - Y0 or Y1 == hh):  # within reach: no larger than a piece
            boxes[j] = (X0 + x0, Y0 + y0, w0, h0)
    out = mask
    for j in sorted(set(np.nonzero(counts >= 2)[0]) | set(boxes)):
        if j == 0:
            continue
        if j in boxes:
            x0, y0, w0, h0 = boxes[j]
            here = (labels[y0:y0 + h0, x0:x0 + w0] == j).view(np.uint8)
        else:
            here = (labels == j).view(np.uint8)
            x0, y0, w0, h0 = cv2.boundingRect(here)
            here = here[y0:y0 + h0, x0:x0 + w0]
        x, y, bw, bh = x0 * f, y0 * f, w0 * f, h0 * f
        area = cv2.resize(here, (bw, bh), interpolation=cv2.INTER_NEAREST)
        joined = area & mask[y:y + bh, x:x + bw]
        count = cv2.countNonZero(joined)
        if counts[j] == 1 or count < 0.25 * token_area:  # one fragment, or specks: the faint body is the piece
            hull = _faint_body(area, joined, count, token_area, settings.faint_tokens)
            if hull is not None:
                out = mask.copy() if out is mask else out
                cv2.fillPoly(out, [hull + [x, y]], 1)
            continue
        if count >= 0.6 * token_area:  # room for a whole token among them
            vivid = (mean[y // f:(y + bh) // f, x // f:(x + bw) // f] > settings.strong_threshold).view(np.uint8)
            joined = _fragments(joined, token_area, vivid, settings.faint_tokens)
            count = cv2.countNonZero(joined) if joined is not None else 0
            if count == 0:
                continue
        hull = _hull(joined)
        # No larger than the largest piece, and clearly changed in a good part of it (not specks of noise).
        if count >= 0.25 * token_area and cv2.contourArea(hull) <= settings.faint_tokens * token_area:
            if out is mask:
                out = mask.copy()
            cv2.fillPoly(out, [hull + [x, y]], 1)
    return out


def _faint_body(area: np.ndarray, joined: np.ndarray, clear: int, token_area: float, largest: float):
    """The outline (a convex hull) of a piece printed in nearly the board's colour of which only one fragment
    changed clearly (``joined``, ``clear`` px: an in-decline side's emblem, a Mountain's cap, part of a rim): its
    faint ``area`` (a mask of the same box) when that is a piece's size and shape (from half a token, the faint test
    sees it a little smaller than it is, up to the ``largest`` piece; convex: not the board under other light, which
    is larger or ragged) and clearly larger than
    the fragment; else None. A whole token (a token's size, filling its hull) is no fragment, whatever its
    shade around it. Holes in the faint area (where the piece's paint is the board's own colour) are its own."""
    outlines, _ = cv2.findContours(area, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if len(outlines) != 1:
        return None
    if cv2.countNonZero(area) < cv2.contourArea(outlines[0]):  # with holes: filled
        area = np.zeros_like(area)
        cv2.drawContours(area, outlines, -1, 1, -1)
    size = cv2.countNonZero(area)
    if not 0.45 * token_area <= size <= largest * token_area or clear >= 0.5 * size:
        return None
    if clear >= 0.6 * token_area and clear >= 0.85 * cv2.contourArea(_hull(joined)):
        return None
    hull = cv2.convexHull(outlines[0])
    if size < 0.85 * cv2.contourArea(hull):
        return None
    return hull


def _fragments(clear: np.ndarray, token_area: float, vivid: np.ndarray | None = None,
               largest: float = 3.5) -> np.ndarray | None:
    """The clear blobs of one faint area that are fragments of a piece, not whole pieces: a blob of a token's
    size or more that fills its hull is a whole piece (a token lying beside a faint one, or two tokens close
    together on a plain terrain) and is not joined to the others; so is the part of a larger blob where half a
    token's width fits and that changed strongly all over (``vivid``: a token against a faint piece's rim,
    joined to it in the mask; at the faint test's reduced size). A hand is no whole piece (larger than the
    ``largest`` piece, in tokens' area). None when fewer than two fragments are left."""
    outlines, _ = cv2.findContours(clear, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    whole, cut = [], False
    for outline in outlines:
        area = cv2.contourArea(outline)
        if not 0.6 * token_area <= area <= largest * token_area:  # a token's size, up to the largest piece's
            continue
        if area >= 0.85 * cv2.contourArea(cv2.convexHull(outline)):
            whole.append(outline)
        elif vivid is not None:
            x, y, w, h = cv2.boundingRect(outline)
            part = np.zeros((h, w), np.uint8)
            cv2.drawContours(part, [outline - [x, y]], -1, 1, -1)
            part &= clear[y:y + h, x:x + w]
            r = np.sqrt(token_area / np.pi)
            disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * int(0.5 * r) + 1,) * 2)
            if vivid.shape != clear.shape:
                vivid = cv2.resize(vivid, clear.shape[::-1], interpolation=cv2.INTER_NEAREST)
            cores = cv2.morphologyEx(part, cv2.MORPH_OPEN, disc) & vivid[y:y + h, x:x + w]
            m, clab, cstats, _ = cv2.connectedComponentsWithStats(cores, connectivity=8)
            big = [j for j in range(1, m) if cstats[j, cv2.CC_STAT_AREA] >= 0.6 * token_area]
            if big:
                if not cut:
                    clear, cut = clear.copy(), True
                token = cv2.dilate(cv2.dilate(np.isin(clab, big).view(np.uint8), disc), np.ones((5, 5), np.uint8))
                clear[y:y + h, x:x + w] &= 1 - token  # with its corners and edge
    if cut:
        return _fragments(clear, token_area, None, largest)
    if not whole:
        return clear
    if len(outlines) - len(whole) < 2:
        return None
    out = clear.copy()
    cv2.drawContours(out, whole, -1, 0, -1)
    return out


def detect(settings: Settings, reference: Reference, rectified: np.ndarray) -> Detection:
    """Blobs that differ from the empty board, assigned to regions; occluded regions."""
    raster = reference.raster
    s = raster.px_per_mm
    blurred = cv2.blur(rectified, (3, 3))
    light = _light(settings, blurred, reference)
    blurred, = relit(light, blurred)
    scale = (1.0, 1.0, 1.0)
    if reference.glare_probe is not None and not _same_lamp(settings, light):
        blurred, scale = _glare_at_play(reference, blurred)
    mask = changed(settings, reference, rectified, light, blurred)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    raw = mask  # before gaps of a few pixels are closed (two tokens side by side still apart)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    if settings.faint_threshold > 0:
        mask = _with_faint(settings, reference, blurred, mask, (raster.geometry.token_mm * s) ** 2 * 0.75,
                           reference.half_scale_lit if _same_lamp(settings, light) else reference.half_scale)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hulls = [cv2.convexHull(c) for c in contours]
    areas = np.array([cv2.contourArea(hull) for hull in hulls])
    nominal = (raster.geometry.token_mm * s) ** 2 * 0.75
    typical = areas[(areas > 0.5 * nominal) & (areas < 1.4 * nominal)]
    token_area = float(np.median(typical)) if len(typical) >= 5 else nominal
    h, w = mask.shape

    def occluder_like(hull, area) -> bool:
        x, y, bw, bh = cv2.boundingRect(hull)
        edge = x <= 1 or y <= 1 or x + bw >= w - 1 or y + bh >= h - 1
        return area > settings.occluder_tokens * token_area or (edge and area > 1.5 * token_area)

    candidates = []  # a hand or arm, or the board under other light
    kept = []
    larger = []  # larger than any piece, too small for a hand: a pile of pieces touching, or light
    for contour, hull, area in zip(contours, hulls, areas):
        if area >= settings.min_token_share * token_area and occluder_like(hull, area):
            candidates.append((contour, hull, area))
        elif area > settings.faint_tokens * token_area:
            larger.append((contour, hull, area))
        else:
            kept.append((contour, hull, area))
    # A shadow or a glare spot is the board under other light, not a hand nor pieces: what is left without it is
    # the hand (still as large as one) and the pieces that only the light joined to it. A strip left along the
    # light's edge, with no room for a piece, is the edge of the light (a hard lamp's sharp shadow).
    radius = np.sqrt(token_area / np.pi)
    room = settings.room_share * radius
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * int(settings.lit_room_share * radius) + 1,) * 2)
    occ_mask = None
    alone = len(kept)  # the blobs found apart from any light or hand: only those can be specks
    for contour, blob in [(c[0], None) for c in candidates] + [(b[0], b) for b in larger]:
        x, y, bw, bh = cv2.boundingRect(contour)
        one = np.zeros((bh, bw), np.uint8)
        cv2.drawContours(one, [contour - [x, y]], -1, 1, -1)
        lit = _lit_board(settings, reference, blurred, rectified, one, x, y)
        if blob is not None and cv2.countNonZero(lit.view(np.uint8)) < settings.min_token_share * token_area:
            kept.append(blob)  # mostly no light here: pieces, as they were found
            continue
        rest = cv2.morphologyEx(one & ~lit.view(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        if settings.board_colour > 0:
            rest = _no_palm(settings, reference, blurred, rest, x, y, token_area, occluder_like)
        fits = None
        for c in cv2.findContours(rest, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]:
            hull = cv2.convexHull(c + [x, y])
            area = cv2.contourArea(hull)
            if occluder_like(hull, area):  # the hand, fingers and all
                occ_mask = np.zeros_like(mask) if occ_mask is None else occ_mask
                part = np.zeros_like(rest)
                cv2.drawContours(part, [c], -1, 1, -1)
                hand, pressed = _hand(settings, reference, blurred, part, one, x, y, token_area)
                occ_mask[y:y + bh, x:x + bw] |= hand
                for p in pressed:  # tokens lying against the hand, seen whole
                    hull = cv2.convexHull(p)
                    kept.append((p, hull, cv2.contourArea(hull)))
                continue
            # Pieces where one fits (a strip along the light's edge, alone or against a piece, is not one).
            fits = cv2.morphologyEx(rest, cv2.MORPH_OPEN, disc) if fits is None else fits
            part = np.zeros_like(rest)
            cv2.drawContours(part, [c], -1, 1, -1)
            for p in cv2.findContours(part & fits, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=(x, y))[0]:
                hull = cv2.convexHull(p)
                if _outlined(reference, blurred, hull) < settings.rim_edge and not _on_mountain(raster, hull):
                    continue  # no rim of its own: the board under the light, where its print did not show through
                kept.append((p, hull, cv2.contourArea(hull)))
    blobs = []
    specks = []
    for k, (contour, hull, area) in enumerate(kept):
        if area < settings.min_token_share * token_area:
            if settings.speck_share > 0 and area >= settings.speck_share * token_area and k < alone:
                m = cv2.moments(hull)
                if m["m00"]:
                    region = _region_at(raster, m["m10"] / m["m00"], m["m01"] / m["m00"])
                    if region is not None:
                        specks.append((region, float(area)))
            continue
        # No room for a piece (a strip of light along the view's edge, a line of print that moved): not one. A convex
        # outline holds no disc wider than twice its area over its perimeter, so most blobs need no closer look.
        if 2 * area < 1.5 * room * cv2.arcLength(hull, True) and _room(hull) < room:
            continue
        x, y, bw, bh = cv2.boundingRect(hull)
        sub = np.zeros((bh, bw), np.uint8)
        cv2.fillPoly(sub, [hull - [x, y]], 1)
        if area < settings.split_at * token_area:
            parts = [_part(sub, x, y)]
        else:
            filled = np.zeros((bh, bw), np.uint8)
            cv2.drawContours(filled, [contour - [x, y]], -1, 1, -1)
            if cv2.countNonZero(filled) < settings.solid * area:  # fragments of one faint piece, not a neck
                filled = sub
            pieces = _pieces(settings, filled, token_area, _is_solid(reference, blurred, raw, x, y))
            if len(pieces) > 1:  # each without the bridge the closing made between it and its neighbour
                pieces = [_apart(p, raw[y:y + bh, x:x + bw]) for p in pieces]
            parts = [_part(p, x, y) for p in pieces]
        parts = [p for p in parts if p is not None]
        for part, c in parts:
            region = _region_at(raster, round(c[0]), round(c[1]))
            if region is None:
                continue
            px0, py0, pw, ph = cv2.boundingRect(part)
            if not _on_board(settings, raster, part[py0:py0 + ph, px0:px0 + pw], x + px0, y + py0):
                continue
            blobs.append((region, (float(c[0]), float(c[1])), int(cv2.countNonZero(part)),
                          (x + px0, y + py0, pw, ph), part[py0:py0 + ph, px0:px0 + pw]))
    if settings.rim_edge > 0 and settings.stand_out > 0 and blobs:
        # A patch of the camera's noise on a dark board, joined by the closing and the faint test, is no piece: it
        # changed no more inside than the board around it (``_stands_out``) and has no rim (``_outlined``). A piece
        # changed all over is not looked at; nor one on a Mountain region (a Mountain hardly stands out).
        mountains = mountain_regions(raster.geometry.map) or ()
        blobs = [b for b in blobs if b[0] in mountains or _changed_all_over(raw, b[3], b[4])
                 or _stands_out(reference, blurred, mask, b[3], b[4], token_area) >= settings.stand_out
                 or _outlined(reference, blurred, cv2.convexHull(cv2.findNonZero(b[4]) + b[3][:2])) >= settings.rim_edge]
    # Each with the change of light where it lies.
    gains = _gains_at(light, [b[1][0] / w for b in blobs], [b[1][1] / h for b in blobs])
    blobs = [Blob(*b, gain) for b, gain in zip(blobs, gains)]
    occluded = set()
    if settings.glare_hand and occ_mask is not None and reference.glare_probe is not None \
            and not _same_lamp(settings, light):
        occ_mask = _hand_in_glare(reference, blurred, blobs, occ_mask)
    if occ_mask is not None and occ_mask.any():
        inside = raster.labels[occ_mask.view(bool)]
        cover = np.bincount(inside[inside >= 0], minlength=len(raster.ids))
        hit = cover > settings.occluded_tokens * token_area
        occluded = {int(raster.ids[k]) for k in np.nonzero(hit)[0]}
    return Detection(tuple(b for b in blobs if b.region not in occluded), frozenset(occluded), token_area,
                     mask.view(bool), scale, tuple(sp for sp in specks if sp[0] not in occluded), blurred)


BESIDE_SECTORS = 8  # directions around a piece in which the change of the board beside it is measured


def lopsided(reference: Reference, det: Detection, blob: Blob) -> float:
    """How much more the board beside a piece changed on one side than on the other: over a ring from 2 px to
    1.5 token radii off its outline (changed pixels, its own and other pieces', left out), the mean change
    (summed over channels, as a share of the board's brightness, as ``changed`` weighs it) in each of
    ``BESIDE_SECTORS`` directions, two neighbours averaged; the largest less the smallest. A piece lying on the
    board leaves the board beside it as it was, all round; a fragment of a larger piece whose body hardly changes
    the picture (a Mountain in the board's colour: its cap and part of its rim) has that body on one side."""
    if det.level is None:
        return 0.0
    h, w = det.changed.shape
    r = float(np.sqrt(det.token_area / np.pi))
    reach = int(1.5 * r)
    x, y, bw, bh = blob.bbox
    x0, y0 = max(0, x - reach - 1), max(0, y - reach - 1)
    x1, y1 = min(w, x + bw + reach + 1), min(h, y + bh + reach + 1)
    own = np.zeros((y1 - y0, x1 - x0), np.uint8)
    own[y - y0:y - y0 + bh, x - x0:x - x0 + bw] = blob.mask
    outer = cv2.dilate(own, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1,) * 2))
    inner = cv2.dilate(own, np.ones((5, 5), np.uint8))
    ring = (outer > 0) & (inner == 0) & ~det.changed[y0:y1, x0:x1]
    ys, xs = np.nonzero(ring)
    if len(ys) < 10 * BESIDE_SECTORS:
        return 0.0
    ref = reference.image[y0:y1, x0:x1][ys, xs].astype(np.float32)
    seen = det.level[y0:y1, x0:x1][ys, xs].astype(np.float32)
    change = np.abs(seen - ref).sum(1) / ((ref.mean(1) + 12.0) * 3)
    angle = np.arctan2(ys + y0 - blob.center[1], xs + x0 - blob.center[0])
    sector = ((angle + np.pi) / (2 * np.pi) * BESIDE_SECTORS).astype(np.int64) % BESIDE_SECTORS
    n = np.bincount(sector, minlength=BESIDE_SECTORS)
    if (n < 10).any():
        return 0.0
    mean = np.bincount(sector, weights=change, minlength=BESIDE_SECTORS) / n
    pairs = (mean + np.roll(mean, -1)) / 2
    return float(pairs.max() - pairs.min())


def _hand_in_glare(reference: Reference, level: np.ndarray, blobs: list, hand: np.ndarray) -> np.ndarray:
    """The hand's mask (``hand``, rectified size) with what of it the lamp's glare washes out: its fingers reaching
    into a glare spot of the board.

    Under another lamp than calibration's, the change that counts under the reference's glare is a share of the
    board's brightness glare and all (``Reference.limit8``: how much glare the lamp at play adds is not known
    there), which a finger of a colour near the board's does not pass. Once the glare at play is measured and
    undone (``_glare_at_play``), the frame ``level`` holds the reference's glare again, and a hand differs from the
    board as much as without it: where the reference had glare, a pixel whose change passes the bar of the board
    without its glare (``limit8_lit``), that is neither a piece (``blobs``) nor the board only darker (its shadow),
    and that joins the hand through such pixels, is the hand. Only the hand's mask grows: pieces are as found.
    A printed line across a finger is no change at all (the board's envelope spans it), and what lies beyond it is
    not joined: bridging such gaps joined the camera's noise where the glare is strongest too."""
    y0, y1, x0, x1 = reference.glare_box
    box = (slice(y0, y1), slice(x0, x1))
    near = hand[box]
    if not near.any():
        return hand
    seen = level[box]
    out = cv2.add(cv2.subtract(seen, reference.high[box]), cv2.subtract(reference.low[box], seen))
    faint = np.greater(_channel_sum(out), reference.limit8_lit[box]) & (reference.glare[box] > 0)
    for b in blobs:  # the pieces found, seen whole
        bx, by, bw, bh = b.bbox
        cx0, cy0, cx1, cy1 = max(bx, x0), max(by, y0), min(bx + bw, x1), min(by + bh, y1)
        if cx1 > cx0 and cy1 > cy0:
            faint[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0] &= b.mask[cy0 - by:cy1 - by, cx0 - bx:cx1 - bx] == 0
    faint = faint.view(np.uint8)
    faint &= ~_shadow(reference.image[box], seen, faint).view(np.uint8)
    faint = cv2.morphologyEx(faint, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels = cv2.connectedComponents(faint | near, connectivity=8)
    joined = np.zeros(n, bool)
    joined[labels[near > 0]] = True
    joined[0] = False
    more = joined[labels] & (faint > 0)
    if not more.any():
        return hand
    hand = hand.copy()
    hand[box] |= more.view(np.uint8)
    return hand


def _on_mountain(raster: Raster, hull: np.ndarray) -> bool:
    """Whether a piece lies on a Mountain region of a map the companion knows: a Mountain is printed in the board's
    own colour, and its rim hardly shows (nor the edge of a piece lying against it)."""
    c = hull.reshape(-1, 2).mean(0)
    region = _region_at(raster, c[0], c[1])
    return region is not None and region in (mountain_regions(raster.geometry.map) or ())


@lru_cache(maxsize=16)
def mountain_regions(map_name: str) -> frozenset | None:
    """The map's Mountain regions (None when the map is not one the companion knows); read once a map, not a frame."""
    try:
        return frozenset(r.id for r in maps.load(map_name) if r.mountain)
    except (ValueError, OSError):
        return None


def _on_board(settings: Settings, raster: Raster, part: np.ndarray, x: int, y: int) -> bool:
    """Whether a piece (``part``, a box of the rectified board from (x, y)) lies on the board: ``on_board`` of its
    pixels on the regions at least. The view holds a margin around the map (the board's edge, the table beyond it,
    a player's supply): what changed there under the lamp at play (a strip of the board's edge, lit otherwise
    than the map) is no piece of the region nearest it. A token at the board's edge lies mostly on its region."""
    if settings.on_board <= 0:
        return True
    h, w = part.shape
    own = part > 0
    on = raster.labels[y:y + h, x:x + w][own] >= 0
    return bool(on.size) and float(on.mean()) >= settings.on_board


def _region_at(raster: Raster, x: float, y: float) -> int | None:
    """The region at rectified pixel (x, y), clamped to the raster; None off every region."""
    h, w = raster.nearest.shape
    k = int(raster.nearest[min(max(int(y), 0), h - 1), min(max(int(x), 0), w - 1)])
    return int(raster.ids[k]) if k >= 0 else None


def _outlined(reference: Reference, level: np.ndarray, hull: np.ndarray) -> float:
    """How clearly a piece's outline (``hull``, rectified px) is an edge the board does not have: along it, every 2 px,
    how much more the frame (``level``: relit, as the reference) changes across it (2.5 px inside to 2.5 px outside,
    channels summed) than the board there does, as a share of the board's brightness; the median. A token has a
    rim all round; what the light left of a blob where the board's print did not show through (a smooth or blurred
    board) has none, nor a patch of the camera's noise: its outline is where a test gave up, not an edge."""
    pts = hull.reshape(-1, 2).astype(np.float32)
    n = len(pts)
    if n < 3:
        return 1.0
    nxt = np.roll(pts, -1, 0)
    seg = np.hypot(*(nxt - pts).T)
    steps = np.maximum((seg / 2).astype(int), 1)
    t = np.concatenate([np.arange(k) / k for k in steps])
    i = np.repeat(np.arange(n), steps)
    p = pts[i] + (nxt[i] - pts[i]) * t[:, None]
    c = pts.mean(0)
    d = p - c
    d /= np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-3)[:, None]
    h, w = level.shape[:2]

    def at(img, q):
        u = np.clip(np.round(q[:, 0]).astype(int), 0, w - 1)
        v = np.clip(np.round(q[:, 1]).astype(int), 0, h - 1)
        return img[v, u].astype(np.float32)
    inner, outer = p - 2.5 * d, p + 2.5 * d
    seen = np.abs(at(level, inner) - at(level, outer)).sum(1)
    board = np.abs(at(reference.image, inner) - at(reference.image, outer)).sum(1)
    bright = at(reference.image, p).sum(1) + 36.0
    return float(np.median((seen - board) / bright))


def _changed_all_over(raw: np.ndarray, bbox, mask: np.ndarray) -> bool:
    """Whether a piece (``mask`` in its box ``bbox``) changed clearly all over (``raw``: the change before gaps were
    closed), as a token seen whole does; not specks joined by the closing or the faint test."""
    x, y, w, h = bbox
    return cv2.countNonZero(mask & raw[y:y + h, x:x + w]) >= 0.75 * cv2.countNonZero(mask)


def _stands_out(reference: Reference, level: np.ndarray, changed: np.ndarray, bbox, mask: np.ndarray,
                token_area: float) -> float:
    """How much more a piece (``mask`` in its box ``bbox``) changed the frame (``level``: relit, as the reference)
    than the board around it did: the mean change inside it (channels summed, as a share of the board's brightness)
    over the mean on a ring a token's radius wide around it, changed pixels left out (other pieces, a hand). The
    camera's noise changes the board alike everywhere; the patch of it that a change test picked out is no more
    changed inside than its surroundings (1.0-1.1); a piece is (1.3 and up)."""
    h, w = changed.shape
    r = int(np.sqrt(token_area / np.pi))
    x, y, bw, bh = bbox
    x0, y0, x1, y1 = max(0, x - r), max(0, y - r), min(w, x + bw + r), min(h, y + bh + r)
    own = np.zeros((y1 - y0, x1 - x0), np.uint8)
    own[y - y0:y - y0 + bh, x - x0:x - x0 + bw] = mask
    outer = cv2.dilate(own, np.ones((2 * r + 1, 2 * r + 1), np.uint8))
    inner = cv2.dilate(own, np.ones((5, 5), np.uint8))
    ring = (outer > 0) & (inner == 0) & (changed[y0:y1, x0:x1] == 0)
    if ring.sum() < 20:
        return np.inf  # nothing around it to compare with: not judged
    ref = reference.image[y0:y1, x0:x1].astype(np.float32)
    rel = np.abs(level[y0:y1, x0:x1].astype(np.float32) - ref).sum(2) / (ref.sum(2) + 36.0)
    return float(rel[own > 0].mean() / max(float(rel[ring].mean()), 1e-3))


def _room(contour) -> float:
    """The radius of the largest disc that fits inside an outline."""
    x, y, w, h = cv2.boundingRect(contour)
    inside = np.zeros((h + 2, w + 2), np.uint8)
    cv2.drawContours(inside, [contour - [x - 1, y - 1]], -1, 1, -1)
    return float(cv2.distanceTransform(inside, cv2.DIST_L2, 3).max())


def _apart(piece: np.ndarray, raw: np.ndarray) -> np.ndarray:
    """A piece cut from a blob, as the hull of what was changed before closing (the bridge to the piece beside
    it left out); the piece as it was when that leaves little of it."""
    kept = piece & raw
    pts = cv2.findNonZero(kept)
    if pts is None or len(pts) < 0.6 * cv2.countNonZero(piece):
        return piece
    out = np.zeros_like(piece)
    cv2.fillPoly(out, [cv2.convexHull(pts)], 1)
    return out & piece


def _part(mask: np.ndarray, x: int, y: int):
    """(mask, centre in rectified px) of one piece, or None when empty."""
    m = cv2.moments(mask, True)
    return (mask, (x + m["m10"] / m["m00"], y + m["m01"] / m["m00"])) if m["m00"] else None


def _is_solid(reference: Reference, level: np.ndarray, raw: np.ndarray, x: int, y: int):
    """For a part ``g`` of the blob whose box starts at (x, y): whether it is what whole tokens look like,
    changed all over (not the fragments of a faint piece joined by their hull) and not the board in shade."""
    def solid(g: np.ndarray) -> bool:
        h, w = g.shape
        n = cv2.countNonZero(g)
        if cv2.countNonZero(g & raw[y:y + h, x:x + w]) < 0.75 * n:
            return False
        shade = _shadow(reference.image[y:y + h, x:x + w], level[y:y + h, x:x + w], g)
        return int(shade.sum()) < 0.5 * n
    return solid


def _pieces(settings: Settings, filled: np.ndarray, token_area: float, solid=None) -> list[np.ndarray]:
    """A large blob (its filled outline) cut into the pieces it holds, each as its convex hull.

    Every piece is convex, so within one piece the distance to the outline rises to a single summit; where
    pieces touch, it dips at the neck between their summits. The blob is cut at every neck clearly lower
    than both summits it parts (``neck_share`` of the lower one; a stack's offset tokens dip only a little),
    whatever the pieces' sizes (a Fortress against a token is two pieces, a Mountain one): the cores are the
    blob above the level that parts the most such summits, and every pixel goes to the nearest core. A core
    that is still far longer than wide (tokens side by side along a straight edge: no neck) is cut into as
    many compact parts as its area holds squares of its own width. Deterministic: the same blob always
    gives the same pieces.
    """
    r = np.sqrt(token_area / np.pi)
    dist = cv2.distanceTransform(filled, cv2.DIST_L2, 3)
    lab = _summits(settings, dist, r)
    keep = [] if lab is None else list(range(1, int(lab.max()) + 1))
    if len(keep) <= 1:
        groups = [filled]
    else:
        src = np.where(lab > 0, 0, 255).astype(np.uint8)
        _, near = cv2.distanceTransformWithLabels(src, cv2.DIST_L2, 3, labelType=cv2.DIST_LABEL_CCOMP)
        groups = [(filled & (near == j)).astype(np.uint8) for j in np.unique(near[src == 0])]
    out = []
    for g in groups:
        area = int(cv2.countNonZero(g))
        if area == 0:
            continue
        # Its width: of its convex hull (a notch in a faint piece's outline does not make it two).
        points = _hull(g)
        hull = np.zeros_like(g)
        cv2.fillPoly(hull, [points], 1)
        width = float(cv2.distanceTransform(hull, cv2.DIST_L2, 3).max())
        k = min(max(math.floor(area / (3.5 * width * width) + 0.35), 1), 6) if width > 0 else 1
        # And its length against its width (the smallest box around it): pieces in a row, one piece a
        # half narrower than the other or overlapping a little, fill less of the squares of their width.
        _, (bw, bh), _ = cv2.minAreaRect(points)
        if min(bw, bh) > 0:
            row = int(min(math.floor(max(bw, bh) / min(bw, bh) + settings.row_share), area / (0.5 * token_area), 6))
            if row > k and (solid is None or solid(g)):
                k = row
        out += _split(g, k) if k > 1 else [g]
    hulls = []
    for m in out:
        hull = _hull(m)
        if hull is None:
            continue
        h = np.zeros_like(m)
        cv2.fillPoly(h, [hull], 1)
        hulls.append(h)
    return hulls


def _summits(settings: Settings, dist: np.ndarray, r: float) -> np.ndarray | None:
    """The cores of a blob's pieces (labels 1..n, as ``cv2.connectedComponents``), from its distance transform
    ``dist``: of the levels from ``core_share`` of a token's radius ``r`` up, the lowest where the most parts
    stand apart, each rising to a summit of at least ``core_share`` of ``r`` (smaller bumps are the rim's) and
    above the level by a clear margin (the level at most ``neck_share`` of its summit). None: one piece."""
    top = float(dist.max())
    best, count = None, 1
    level = settings.core_share * r
    while level < settings.neck_share * top:  # above that, no part rises clearly over the level
        n, lab = cv2.connectedComponents((dist > level).astype(np.uint8), connectivity=8)
        if n - 1 > count:
            peaks = np.zeros(n, np.float32)
            np.maximum.at(peaks, lab.ravel(), dist.ravel())
            clear = [i for i in range(1, n) if peaks[i] * settings.neck_share >= level
                     and peaks[i] >= settings.core_share * r * 1.5]
            if len(clear) > count:
                best, count = (lab, clear), len(clear)
        level *= 1.15
    if best is None:
        return None
    lab, clear = best
    out = np.zeros(lab.shape, np.int32)
    for j, i in enumerate(clear, 1):
        out[lab == i] = j
    return out


def _hull(mask: np.ndarray) -> np.ndarray | None:
    """The convex hull of a mask's pixels (None when it has none), from the points of its outer outlines:
    the same polygon as the hull of every pixel (a hull's corners are outline points), without sorting
    thousands of pixels (50 us a blob, 6 ms a frame with a hand and mountains on the board)."""
    outlines, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return cv2.convexHull(np.concatenate(outlines)) if outlines else None


def _split(sub: np.ndarray, k: int) -> list[np.ndarray]:
    """A blob mask cut into k compact parts: k-means on its pixel positions, started at even steps along
    its long axis (no random draw: the same blob is always cut the same way)."""
    ys, xs = np.nonzero(sub)
    pts = np.stack([xs, ys], 1).astype(np.float32)
    mean = pts.mean(0)
    _, vecs = np.linalg.eigh(np.cov((pts - mean).T))
    t = (pts - mean) @ vecs[:, -1]
    order = np.argsort(t, kind="stable")
    centres = np.array([pts[order[int((j + 0.5) * len(pts) / k)]] for j in range(k)], np.float32)
    px, py = pts[:, :1], pts[:, 1:]
    for _ in range(12):
        dx, dy = px - centres[None, :, 0], py - centres[None, :, 1]
        d = dx * dx + dy * dy  # squared distances, as summing (p - c) ** 2 over the two axes (numpy is slow at that)
        lab = d.argmin(1)
        new = np.array([pts[lab == j].mean(0) if np.any(lab == j) else centres[j] for j in range(k)], np.float32)
        if np.all(np.abs(new - centres) <= 0.05 + 1e-5 * np.abs(centres)):  # np.allclose(new, centres, atol=0.05)
            break
        centres = new
    out = []
    for j in range(k):
        m = np.zeros_like(sub)
        sel = lab == j
        m[ys[sel], xs[sel]] = 1
        out.append(m)
    return out
