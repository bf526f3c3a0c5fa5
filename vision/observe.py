"""Observation: from one frame, the visible tokens on every region, or why the board could not be seen.

A stack shows only its top token: it counts as one visible token of that kind.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field

import cv2
import numpy as np

from .classify import Model, classify
from .labels import OCCUPANTS
from .detect import Blob, Reference, blinded_share, detect, lopsided, mountain_regions
from .errors import RegistrationError, VisionError
from .features import batch_features, emblem_spectra, normalise
from .geometry import Geometry, raster, room
from .readings import mountain_specks, mountains_in_sight, weigh
from .register import Registration, rectify, register
from .settings import Settings
from .still import StillnessGate


@dataclass(frozen=True)
class RegionView:
    """What is seen on one region: visible tokens by label, whether it was hidden, a confidence, and
    how many tokens lie on it side by side (``room``; 0: not known).

    ``confidence`` is the lowest of its pieces' confidences; ``confidences`` the same per label (the lowest
    of the pieces read as that label), so that a reader weighs only the pieces its decision uses: on another
    printing a Mountain is read at a confidence near 0 while the race tokens beside it are read surely.
    A label the observation gives no confidence for (``confidences`` empty: an older reading) has the
    region's."""

    tokens: dict = field(default_factory=dict)
    occluded: bool = False
    confidence: float = 1.0
    room: int = 0
    confidences: dict = field(default_factory=dict)

    def confidence_of(self, labels) -> float:
        """The lowest confidence of the pieces read as any of ``labels`` (1 when none is read)."""
        got = [self.confidences.get(lab, self.confidence) for lab in labels if lab in self.tokens]
        return min(got, default=1.0)


@dataclass(frozen=True)
class Observation:
    """The board as seen in one frame. When ``registered`` is false, ``reason`` says why in one line."""

    registered: bool
    regions: dict = field(default_factory=dict)  # region id -> RegionView
    reason: str = ""
    stale: bool = False   # the homography is the last good one, not confirmed in this frame

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    def to_dict(self) -> dict:
        return {"registered": self.registered, "reason": self.reason, "stale": self.stale,
                "regions": {str(k): {"tokens": dict(sorted(v.tokens.items())), "occluded": v.occluded,
                                     "confidence": round(float(v.confidence), 3), "room": v.room,
                                     "confidences": {a: round(float(c), 3) for a, c in sorted(v.confidences.items())}}
                            for k, v in sorted(self.regions.items())}}

    @classmethod
    def from_json(cls, text: str | dict) -> "Observation":
        data = json.loads(text) if isinstance(text, str) else text
        regions = {int(k): RegionView({str(a): int(b) for a, b in v.get("tokens", {}).items()},
                                      bool(v.get("occluded", False)), float(v.get("confidence", 1.0)),
                                      int(v.get("room", 0)),
                                      {str(a): float(c) for a, c in v.get("confidences", {}).items()})
                   for k, v in data.get("regions", {}).items()}
        return cls(bool(data["registered"]), regions, str(data.get("reason", "")), bool(data.get("stale", False)))


@dataclass
class Calibration:
    """Everything fixed after calibration: geometry, its raster, the empty-board reference, its registration."""

    geometry: Geometry
    reference: Reference
    registration: Registration

    @classmethod
    def build(cls, settings: Settings, geometry: Geometry, empty_frame: np.ndarray) -> "Calibration":
        """Register the empty board and keep it, rectified, as the reference (raises RegistrationError)."""
        reg = register(settings, geometry, empty_frame)
        r = raster(geometry, settings.px_per_mm, settings.view_margin_mm)
        return cls(geometry, Reference(settings, r, rectify(settings, empty_frame, reg, r)), reg)


def observe(settings: Settings, calibration: Calibration, model: Model, image: np.ndarray,
            prior: Registration | None = None, timings: dict | None = None) -> tuple[Observation, Registration | None]:
    """Observe one frame; returns the observation and the registration to pass as ``prior`` next time."""
    clock = time.perf_counter
    t0 = clock()
    if image is None or getattr(image, "size", 0) == 0:
        raise VisionError("empty frame")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    geometry = calibration.geometry
    try:
        reg = register(settings, geometry, image, prior or calibration.registration)
    except RegistrationError as exc:
        return Observation(False, {}, str(exc)), prior
    t1 = clock()
    r = calibration.reference.raster
    rect = rectify(settings, image, reg, r)
    t2 = clock()
    det = detect(settings, calibration.reference, rect)
    t3 = clock()
    feats = blob_features(settings, rect, det.blobs, calibration.reference.glare, det.glare_scale)
    t4 = clock()
    mm2 = np.array([b.area for b in det.blobs], np.float32) / r.px_per_mm ** 2
    result = classify(model, feats, settings.neighbours, mm2, settings.size_weight,
                      lambda rows: blob_emblems(rect, [det.blobs[i] for i in rows], det.token_area))
    t5 = clock()
    tokens: dict[int, dict[str, int]] = {rid: {} for rid in geometry.region_ids}
    # per region, each label's lowest confidence (the region's own is the lowest of them)
    by_label: dict[int, dict[str, float]] = {rid: {} for rid in geometry.region_ids}
    mountains = mountain_regions(geometry.map)
    labels = weigh(settings, model, det.blobs, result, mountains, {rid for rid, _ in det.specks}, r.px_per_mm,
                   lambda i: lopsided(calibration.reference, det, det.blobs[i]))
    index = {lab: k for k, lab in enumerate(model.labels)}
    read = []  # (blob, label, confidence) of every piece seen
    for i, (blob, label, c) in enumerate(zip(det.blobs, labels, result.confidence)):
        if label is None:  # part of a piece counted already
            continue
        if label != result.labels[i]:  # a rule of the game gave it: as sure as the look is of that label
            c = min(c, result.confidence_of(i, index[label]))
        read.append((blob, label, float(c)))
    if settings.token_on_piece > 0 and read:
        read = _tokens_on_pieces(settings, model, rect, det, calibration.reference, result, read, mountains)
    for blob, label, c in read:
        c = c * (1.0 - blinded_share(settings, rect, blob))
        counts = tokens[blob.region]
        counts[label] = counts.get(label, 0) + 1
        here = by_label[blob.region]
        here[label] = min(here.get(label, 1.0), float(c))
    if settings.mountains_on_mountain_regions and "mountain" in model.labels:
        if settings.mountain_specks:
            mountain_specks(det.specks, mountains, tokens)
        mountains_in_sight(model, mountains, tokens, det.occluded, settings.mountain_in_sight)
    fits = room(geometry)
    regions = {rid: RegionView({} if rid in det.occluded else tokens[rid], rid in det.occluded,
                               0.0 if rid in det.occluded else min(by_label[rid].values(), default=1.0), fits[rid],
                               {} if rid in det.occluded else by_label[rid]) for rid in geometry.region_ids}
    if timings is not None:
        for k, v in (("register", t1 - t0), ("rectify", t2 - t1), ("detect", t3 - t2), ("features", t4 - t3),
                     ("classify", t5 - t4), ("total", clock() - t0)):
            timings[k] = v
    return Observation(True, regions, reg.reason, reg.stale), reg


def _tokens_on_pieces(settings: Settings, model: Model, rect: np.ndarray, det, reference: Reference, result,
                      read: list, mountains: frozenset | None) -> list:
    """A race token laid on a larger special piece (a Dragon, a Troll's Lair, a Hole-in-the-Ground: players put the
    token on top where a region has no room beside it) is one blob of the piece's outline, the token inside it, read
    as a piece or as none well. Where a blob at least ``token_on_piece`` tokens large is read as a special piece off
    the Mountain regions, a token-sized disc inside it (at its centre, or as far off it as the blob is wider than a
    token, in eight directions) that reads as a race (or the Lost Tribe) nearer than the whole blob reads as anything
    is that token; the piece under it is what the rest of the blob (the ring around the token) reads as, among the
    special pieces. ``read``: (blob, label, confidence) of each piece; returned with such blobs read as both."""
    r = float(np.sqrt(det.token_area / np.pi))
    occupants = [k for k, lab in enumerate(model.labels) if lab in OCCUPANTS]
    pieces = [k for k, lab in enumerate(model.labels) if lab not in OCCUPANTS and lab != "mountain"]
    if not occupants or not pieces:
        return read
    rows = {id(b): i for i, b in enumerate(det.blobs)}
    h, w = rect.shape[:2]
    px_mm2 = reference.raster.px_per_mm ** 2
    side = int(2 * r + 3)
    candidates, discs = [], []  # (row in ``read``, first and last disc) of each large piece; the discs inside them
    for n, (blob, label, c) in enumerate(read):
        if label in OCCUPANTS or label == "mountain" or blob.area < settings.token_on_piece * det.token_area \
                or (mountains and blob.region in mountains):
            continue
        x, y, bw, bh = blob.bbox
        cx, cy = blob.center
        reach = max(float(np.sqrt(blob.area / np.pi)) - r, 0.0)
        first = len(discs)
        for k in range(9):
            angle = k * np.pi / 4
            px, py = (cx, cy) if k == 8 else (cx + reach * np.cos(angle), cy + reach * np.sin(angle))
            x0, y0 = int(px - r - 1), int(py - r - 1)
            ax0, ay0, ax1, ay1 = max(x, x0), max(y, y0), min(x + bw, x0 + side), min(y + bh, y0 + side)
            if x0 < 0 or y0 < 0 or x0 + side > w or y0 + side > h or ax1 <= ax0 or ay1 <= ay0:
                continue
            disc = np.zeros((side, side), np.uint8)
            cv2.circle(disc, (int(round(px - x0)), int(round(py - y0))), int(0.9 * r), 1, -1)
            inside = np.zeros((side, side), np.uint8)  # the blob's mask where the disc's box overlaps it
            inside[ay0 - y0:ay1 - y0, ax0 - x0:ax1 - x0] = blob.mask[ay0 - y:ay1 - y, ax0 - x:ax1 - x]
            disc &= inside
            area = cv2.countNonZero(disc)
            if area >= 0.5 * np.pi * r * r:
                discs.append(Blob(blob.region, (px, py), area, (x0, y0, side, side), disc, blob.gain))
        if len(discs) > first:
            candidates.append((n, first, len(discs)))
    if not candidates:
        return read
    seen = classify(model, blob_features(settings, rect, discs, reference.glare, det.glare_scale), settings.neighbours,
                    np.array([d.area for d in discs], np.float32) / px_mm2, settings.size_weight)
    near = seen.per_class[:, occupants]
    found, rings = [], []
    for n, first, last in candidates:
        blob = read[n][0]
        best = first + int(np.argmin(near[first:last].min(1)))
        if near[best].min() >= float(result.per_class[rows[id(blob)]].min()):
            continue
        # The piece: what the blob less the token (and a rim around it) reads as, among the special pieces.
        x, y = blob.bbox[:2]
        ring = blob.mask.copy()
        cv2.circle(ring, (int(round(discs[best].center[0] - x)), int(round(discs[best].center[1] - y))),
                   int(round(1.1 * r)), 0, -1)
        if cv2.countNonZero(ring) >= 0.25 * det.token_area:
            found.append((n, best))
            rings.append(Blob(blob.region, blob.center, blob.area, blob.bbox, ring, blob.gain))
    if not found:
        return read
    rest = classify(model, blob_features(settings, rect, rings, reference.glare, det.glare_scale), settings.neighbours,
                    np.array([b.area for b in rings], np.float32) / px_mm2, settings.size_weight)
    out = list(read)
    for j, (n, best) in enumerate(found):
        blob, _, c = read[n]
        piece = pieces[int(np.argmin(rest.per_class[j, pieces]))]
        token = occupants[int(np.argmin(near[best]))]
        out[n] = (blob, model.labels[piece], min(c, rest.confidence_of(j, piece)))
        out.append((discs[best], model.labels[token], seen.confidence_of(best, token)))
    return out


def blob_features(settings: Settings, rectified: np.ndarray, blobs, glare: np.ndarray | None = None,
                  glare_scale: tuple = (1.0, 1.0, 1.0)) -> np.ndarray:
    """Feature vectors of detected blobs, one row each; ``glare`` (from the reference, as strong at play as
    ``glare_scale`` per channel, relit) is taken off first."""
    size = settings.feature_px
    patches = np.zeros((len(blobs), size, size, 3), np.uint8)
    masks = np.zeros((len(blobs), size, size), np.uint8)
    lit = list({b.gain for b in blobs if b.gain != (1.0, 1.0, 1.0)})  # under another light than enrollment's
    tables = dict(zip(lit, _undo_gains(lit)))
    for i, b in enumerate(blobs):
        x, y, w, h = b.bbox
        patch = rectified[y:y + h, x:x + w]
        if b.gain in tables:  # as under the lamp the tokens were enrolled under
            patch = cv2.LUT(patch, tables[b.gain])
        if glare is not None:
            g = glare[y:y + h, x:x + w]
            if g.any():
                g = g[..., None] * np.asarray(glare_scale, np.float32) if glare_scale != (1.0, 1.0, 1.0) else g[..., None]
                patch = np.clip(patch - g, 0, 255).astype(np.uint8)
        patches[i], masks[i] = normalise(patch, b.mask, size)
    return batch_features(patches, masks)


def _undo_gains(gains: list[tuple]) -> np.ndarray:
    """For each gain, the table (for ``cv2.LUT``) that divides each channel by it, rounded: every value as
    ``patch / gain + 0.5`` cut to 0..255 in float32 gives it, at a fraction of the cost per token (and
    without numpy 1.24's slow ``np.clip`` on small arrays). All tables in one pass: under an uneven lamp
    every token has its own."""
    g = np.maximum(np.array(gains, np.float32).reshape(-1, 1, 3), 1e-3)
    levels = np.arange(256, dtype=np.float32)[None, :, None] / g + 0.5
    return np.minimum(np.maximum(levels, 0), 255).astype(np.uint8).reshape(-1, 256, 1, 3)


def blob_emblems(rectified: np.ndarray, blobs, token_area: float = 0.0) -> np.ndarray:
    """The emblem (``features.emblem_spectra``) of each blob, one row each, looked at as a whole token's
    (``token_area`` in pixels): a token seen in part is as wide as any."""
    boxes = [b.bbox for b in blobs]
    return emblem_spectra([rectified[y:y + h, x:x + w] for x, y, w, h in boxes], [b.mask for b in blobs],
                          float(np.sqrt(max(token_area, 0.0) / np.pi)))


class Observer:
    """A live camera: frames with their times in, an Observation out once the scene has been still."""

    def __init__(self, settings: Settings, calibration: Calibration, model: Model):
        self.settings, self.calibration, self.model = settings, calibration, model
        self.gate = StillnessGate(settings)
        self.registration: Registration | None = None

    def feed(self, image: np.ndarray, t: float) -> Observation | None:
        """None while things move or settle; an Observation the moment the scene has been still long enough."""
        if image is None or getattr(image, "size", 0) == 0:
            raise VisionError("empty frame")
        if not self.gate.update(image, t):
            return None
        obs, self.registration = observe(self.settings, self.calibration, self.model, image, self.registration)
        return obs
