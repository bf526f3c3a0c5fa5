"""Observation: from one frame, the visible tokens on every region, or why the board could not be seen.

A stack shows only its top token: it counts as one visible token of that kind.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field

import cv2
import numpy as np

from .classify import Model, classify, vote
from .labels import DECLINED, OCCUPANTS
from .detect import Blob, Reference, blinded_share, detect, lopsided, mountain_regions
from .errors import RegistrationError, VisionError
from .features import batch_features, emblem_spectra, normalise
from .geometry import Geometry, raster, room
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
    labels = list(result.labels)
    if settings.piece_kin_ratio > 0 and len(det.blobs):
        labels = _kin_not_piece(settings, model, det.blobs, result, labels)
    if settings.one_occupant_per_region and len(det.blobs):
        labels = _one_occupant(settings, model, det.blobs, result, labels)
    if settings.few_races_in_decline and len(det.blobs):
        labels = _declined_in_frame(settings, model, det.blobs, result, labels)
    mountains = mountain_regions(geometry.map)
    if settings.mountains_on_mountain_regions and len(det.blobs):
        labels = _mountains(model, det.blobs, result, labels, mountains, r.px_per_mm,
                            settings.mountain_kin_ratio, settings.mountain_part_ratio, settings.size_weight,
                            settings.mountain_fragment_ratio)
        if settings.mountain_fragment_ratio > 0:
            before = labels
            labels = _mountain_fragment(model, det.blobs, result, list(labels), mountains,
                                        {rid for rid, _ in det.specks}, settings.mountain_fragment_ratio,
                                        settings.mountain_apart,
                                        lambda i: lopsided(calibration.reference, det, det.blobs[i]),
                                        settings.mountain_body)
            if settings.one_occupant_per_region:
                labels = _vote_again(settings, model, det.blobs, result, before, labels)
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
    if settings.mountains_on_mountain_regions and settings.mountain_specks and "mountain" in model.labels:
        _mountain_specks(det.specks, mountains, tokens)
    fits = room(geometry)
    regions = {rid: RegionView({} if rid in det.occluded else tokens[rid], rid in det.occluded,
                               0.0 if rid in det.occluded else min(by_label[rid].values(), default=1.0), fits[rid],
                               {} if rid in det.occluded else by_label[rid]) for rid in geometry.region_ids}
    if timings is not None:
        for k, v in (("register", t1 - t0), ("rectify", t2 - t1), ("detect", t3 - t2), ("features", t4 - t3),
                     ("classify", t5 - t4), ("total", clock() - t0)):
            timings[k] = v
    return Observation(True, regions, reg.reason, reg.stale), reg


def _one_occupant(settings: Settings, model: Model, blobs, result, labels: list[str]) -> list[str]:
    """Race and Lost Tribe tokens of one region take the single occupant label that fits them best (rules: one
    race per region; each token's distances relative to its own nearest, summed), unless a token clearly shows
    another."""
    by_region: dict[int, list[int]] = {}
    for i, (b, lab) in enumerate(zip(blobs, labels)):
        if lab in OCCUPANTS:
            by_region.setdefault(b.region, []).append(i)
    index = {lab: k for k, lab in enumerate(model.labels)}
    for members in by_region.values():
        if len(members) < 2:
            continue
        # Each token's distances as shares of its own nearest: a token cut short or half in glare, far from every
        # kind, does not outvote the tokens that read clearly by how far it is from everything.
        pc = result.per_class[members]
        pc = pc / np.maximum(pc.min(1, keepdims=True), 1e-6)
        best = vote(model, pc)
        if best is None:
            continue
        for row, i in enumerate(members):
            own = index[labels[i]]
            if pc[row, best] <= settings.vote_ratio * pc[row, own] + 1e-9:
                labels[i] = model.labels[best]
    return labels


def _vote_again(settings: Settings, model: Model, blobs, result, before: list, labels: list) -> list:
    """Where a fragment was found to be the Mountain, it voted among its region's tokens for their one race
    (``_one_occupant``): the others' race is chosen again from their own looks, without it."""
    again = {blobs[i].region for i, (was, now) in enumerate(zip(before, labels)) if now == "mountain" and was != now}
    if not again:
        return labels
    mine = [i for i, b in enumerate(blobs) if b.region in again and labels[i] not in (None, "mountain")]
    looks = [None] * len(labels)
    for i in mine:
        looks[i] = result.labels[i]
    looks = _one_occupant(settings, model, blobs, result, looks)
    out = list(labels)
    for i in mine:
        out[i] = looks[i]
    return out


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


def _kin_not_piece(settings: Settings, model: Model, blobs, result, labels: list[str]) -> list[str]:
    """A piece read as a special piece (a Hero, a Troll's Lair, a Fortress, ...) beside tokens read as one race (or the
    Lost Tribe) is one more token of that race when the race is nearly as near (within ``piece_kin_ratio``): a region
    holds several tokens of its occupant far more often than a special piece (the game has a few of each, the races
    many tokens), and a token half in glare or cut short by its neighbour is as far from its own kind as from a piece
    printed alike. The Mountains are left to their own rule."""
    index = {lab: k for k, lab in enumerate(model.labels)}
    kin: dict[int, list[int]] = {}
    pieces: dict[int, list[int]] = {}
    for i, (b, lab) in enumerate(zip(blobs, labels)):
        if lab in OCCUPANTS:
            kin.setdefault(b.region, []).append(i)
        elif lab != "mountain":
            pieces.setdefault(b.region, []).append(i)
    for rid, here in pieces.items():
        if rid not in kin:
            continue
        race = vote(model, result.per_class[kin[rid]])
        if race is None:
            continue
        for i in here:
            if result.per_class[i, race] <= settings.piece_kin_ratio * result.per_class[i, index[labels[i]]]:
                labels[i] = model.labels[race]
    return labels


def _declined_in_frame(settings: Settings, model: Model, blobs, result, labels: list[str]) -> list[str]:
    """Rules ("Going into Decline"): a player has one race in decline at a time (the one before is removed), and a
    race in decline keeps a token on each region it held. So few in-decline races lie on the board at once, each
    mostly on several regions. An in-decline race read on one region only, whose tokens find another in-decline
    race read on at least two other regions nearly as near (within ``decline_ratio``, summed), is that one:
    in-decline sides are printed alike and differ by their emblem, which a lone token may show poorly."""
    index = {lab: k for k, lab in enumerate(model.labels)}
    held: dict[str, set] = {}
    tokens: dict[int, list[int]] = {}
    for i, (b, lab) in enumerate(zip(blobs, labels)):
        if lab in DECLINED:
            held.setdefault(lab, set()).add(b.region)
            tokens.setdefault(b.region, []).append(i)
    for rid in sorted(tokens):
        here = tokens[rid]
        own = {labels[i] for i in here}
        if len(own) != 1 or len(held[next(iter(own))]) > 1:
            continue
        others = [lab for lab in sorted(held) if lab not in own and len(held[lab] - {rid}) >= 2]
        if not others:
            continue
        pc = result.per_class[here].sum(0)
        best = min(others, key=lambda lab: pc[index[lab]])
        if pc[index[best]] <= settings.decline_ratio * pc[index[next(iter(own))]]:
            for i in here:
                labels[i] = best
    return labels


def _mountains(model: Model, blobs, result, labels: list[str], mountains: frozenset | None,
               px_per_mm: float, kin_ratio: float = 5.0, part_ratio: float = 1.5, size_weight: float = 0.0,
               fragment_ratio: float = 0.0) -> list[str]:
    """Rules (setup): "Put a Mountain token on each Region of the map featuring a Mountain"; "Mountains are
    immovable". So a Mountain read off the Mountain regions is the next kind that fits; on a Mountain region
    the piece most like a Mountain of a Mountain's size (where enrollment measured it) is the Mountain, and
    other pieces read as Mountains there that touch it are parts of it. With none of them read as a Mountain, a
    piece counted as one more token of its pile only by the one-race rule (its own look another kind), a Mountain
    at most ``fragment_ratio`` times farther than that look, is the Mountain's fragment before a piece of a
    Mountain's size read as what it is (a Fortress beside Lost Tribe and a Mountain whose body hardly shows)."""
    if mountains is None or "mountain" not in model.labels:
        return labels
    k = model.labels.index("mountain")
    pc = result.per_class
    others = np.ones(len(model.labels), bool)
    others[k] = False
    size = float(model.areas[k]) * px_per_mm ** 2 if model.areas is not None and model.areas[k] > 0 else 0.0
    drop = set()
    by_region: dict[int, list[int]] = {}
    for i, b in enumerate(blobs):  # the pieces of each region, gathered once (not once per region)
        by_region.setdefault(b.region, []).append(i)
    for rid, here in by_region.items():
        if rid not in mountains:
            for i in here:
                if labels[i] == "mountain":
                    labels[i] = model.labels[int(np.argmin(np.where(others, pc[i], np.inf)))]
            continue
        # How much farther a Mountain is than what the piece was read as (1: read as a Mountain).
        # A Mountain may lie under a pile of race tokens, out of sight: only a piece of a Mountain's size (where
        # enrollment measured it) is taken for it.
        ratio = {i: pc[i, k] / max(float(pc[i].min()), 1e-9) for i in here}
        fit = {i: ratio[i] for i in here if (size and blobs[i].area >= 0.5 * size) or labels[i] == "mountain"}
        rest = [i for i in here if i not in fit]
        if fit and rest and min(ratio[i] for i in rest) * kin_ratio <= min(fit.values()):
            # What is of a Mountain's size looks like none (a piece beside a Mountain whose body hardly shows): a
            # piece far more like a Mountain than it is the Mountain.
            fit = {i: ratio[i] for i in rest if ratio[i] * kin_ratio <= min(fit.values())}
        if fragment_ratio > 0 and fit and all(labels[i] != "mountain" for i in fit):
            # None read as a Mountain: a piece counted as one more of its pile only by the one-race rule (its own
            # look another kind) is the Mountain's fragment before a piece read as what it is.
            absorbed = {i: ratio[i] for i in rest if ratio[i] <= fragment_ratio and labels[i] != result.labels[i]
                        and sum(labels[j] == labels[i] for j in here) > 1}
            if absorbed:
                fit = absorbed
        outliers = set()
        if not fit:
            # None of a Mountain's size: its body may hardly show (its cap and part of its rim), and the fragment
            # is taken for the race beside it. Such a piece is far more like a Mountain than the region's other
            # pieces read as the same kind are; a Mountain under a pile of tokens leaves no such piece.
            for i in here:
                kin = [ratio[j] for j in here if j != i and labels[j] == labels[i]]
                if kin and ratio[i] * kin_ratio <= float(np.median(kin)):
                    outliers.add(i)
            if not outliers and size and size_weight > 0:
                # A fragment of the Mountain is any size up to it: a piece nearest a Mountain by its look alone (the
                # Mountain's size taken off its distance) is one.
                for i in here:
                    shrink = np.log(max(blobs[i].area, 1.0) / size)
                    if pc[i, k] / (1 + size_weight * shrink * shrink) <= float(pc[i].min()):
                        outliers.add(i)
            if not outliers:
                continue
            fit = {i: ratio[i] for i in outliers}
        best = min(fit, key=fit.get)
        labels[best] = "mountain"
        bx, by, bw, bh = blobs[best].bbox
        for i in here:
            if i == best:
                continue
            x, y, w, h = blobs[i].bbox
            touching = x <= bx + bw + 2 and bx <= x + w + 2 and y <= by + bh + 2 and by <= y + h + 2
            if labels[i] == "mountain" or i in outliers:
                if touching:
                    drop.add(i)
                elif labels[i] == "mountain":
                    labels[i] = model.labels[int(np.argmin(np.where(others, pc[i], np.inf)))]
            elif (touching and pc[i, k] <= part_ratio * float(pc[i].min())
                  and (not size or blobs[i].area + blobs[best].area <= 1.3 * size)):
                drop.add(i)  # a bit of its rim, nearly as like a Mountain as anything: with it, no larger than one
    return [None if i in drop else lab for i, lab in enumerate(labels)]


def _mountain_fragment(model: Model, blobs, result, labels: list, mountains: frozenset | None, specks: set,
                       fragment_ratio: float, apart: float, beside=None, body: float = 0.0) -> list:
    """Rules (setup): every Mountain region holds its Mountain. Where none of a region's pieces was read as it,
    and no speck of change there is its cap (``_mountain_specks``), the Mountain shows as one fragment (its cap and
    part of its rim, any size up to it) taken for another kind: the region's piece most like a Mountain is it when a
    Mountain is at most ``fragment_ratio`` times farther than what it was read as, and the region's other pieces (one
    at least: a token alone on a Mountain out of sight has nothing to be weighed against) are ``apart`` times farther
    from a Mountain than it, and it is the only piece of its kind there (tokens of one kind on a Mountain out of
    sight, one of them a little more like it, stay: the kin rule of ``_mountains`` judges those).

    A piece alone on such a region has nothing to be weighed against: it is the Mountain's fragment when a Mountain
    is at most ``fragment_ratio`` times farther and the board beside it changed unevenly, ``body`` more on one side
    than on the other (``beside``: a row's ``detect.lopsided``): the Mountain's body, which hardly changes the
    picture, lies on that side. A token alone leaves the board around it as it was."""
    if not mountains or "mountain" not in model.labels:
        return labels
    k = model.labels.index("mountain")
    by_region: dict[int, list[int]] = {}
    for i, b in enumerate(blobs):
        if labels[i] is not None:
            by_region.setdefault(b.region, []).append(i)
    for rid, here in by_region.items():
        if rid not in mountains or any(labels[i] == "mountain" for i in here):
            continue
        pc = result.per_class
        ratio = {i: float(pc[i, k]) / max(float(pc[i].min()), 1e-9) for i in here}
        best = min(here, key=lambda i: (ratio[i], i))
        if rid in specks and (labels[best] == result.labels[best] or sum(labels[i] == labels[best] for i in here) < 2):
            continue  # its cap is a speck (``_mountain_specks``), unless the piece is counted as one more of its pile
        if len(here) == 1 and body > 0 and beside is not None:
            if ratio[best] <= fragment_ratio and beside(best) >= body:
                labels[best] = "mountain"
            continue
        # its kind by its own look: the one-race rule (``_one_occupant``) gives a fragment the kind of its pile
        if len(here) < 2 or sum(result.labels[i] == result.labels[best] for i in here) > 1:
            continue  # alone, nothing to weigh it against; one of a pile's kind: ``_mountains`` weighs its kin
        if ratio[best] <= fragment_ratio and all(ratio[i] >= apart * ratio[best] for i in here if i != best):
            labels[best] = "mountain"
    return labels


def _mountain_specks(specks, mountains: frozenset | None, tokens: dict[int, dict[str, int]]) -> None:
    """Rules (setup): "Put a Mountain token on each Region of the map featuring a Mountain"; "Mountains are
    immovable". A Mountain in the board's own colour may change the picture only at its cap (the lamp's glare on
    it, or a lamp like the board's): a change too small for a piece on a Mountain region where no Mountain was
    read is that Mountain's. With no change there at all, nothing is reported (a Mountain under a pile)."""
    if not mountains:
        return
    for rid in sorted({rid for rid, _ in specks} & mountains):
        if rid in tokens and "mountain" not in tokens[rid]:
            tokens[rid]["mountain"] = 1


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
