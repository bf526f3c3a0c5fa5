"""Step 5, the tokens: lay a handful of one kind on the tray, cut them out, enroll, then a self-test.

The tray is the strip of board between the two top markers (``Board.tray``), split into slots.
Each capture is compared with the empty board rectified the same way; what differs is cut out,
one token per blob, and written as an enrollment photo (the token on a plain background, as
``vision.classify.read_samples`` expects) under ``samples/<label>/``. The model is
``vision.classify.enroll`` of those photos. The self-test lays mixed kinds in known slots and
reports which kinds are taken for which.
"""
from __future__ import annotations

import json
import shutil
from collections import Counter

import cv2
import numpy as np

from vision.classify import classify, enroll, load_model, read_samples, read_sizes
from vision.errors import ModelError, RegistrationError
from vision.features import batch_features, emblem_spectra, normalise
from vision.labels import LABELS, RACES
from vision.register import register
from vision.settings import Settings

from .board import Board
from .errors import CalibrationError

CUT_PX_PER_MM = 3.0
HANDFUL = 5
ALL_KINDS = LABELS
TRAY_RING = (0, 230, 255)  # BGR: the yellow ring of a place to lay a token


def kinds_order(kinds=ALL_KINDS) -> list[str]:
    """The order the companion asks for kinds: each race, then the same tokens turned to their in-decline
    side, then the other pieces."""
    out = []
    for r in RACES:
        out += [k for k in (r, f"{r}-decline") if k in kinds]
    return out + [k for k in kinds if k not in out]


def describe(label: str) -> str:
    if label.endswith("-decline"):
        return f"{label[:-8].capitalize()} tokens turned to their in-decline side"
    if label in RACES:
        return f"{label.capitalize()} tokens, active side up"
    return {"lost-tribe": "Lost Tribe tokens", "mountain": "Mountain tokens", "troll-lair": "Troll's Lairs",
            "fortress": "Fortresses", "encampment": "Encampments", "hero": "Heroes", "dragon": "the Dragon",
            "hole": "Holes-in-the-Ground"}.get(label, label)


def slots(board: Board) -> list[tuple[float, float]]:
    """Slot centres (mm) on the tray, left to right, row by row."""
    x0, y0, x1, y1 = board.tray()
    pitch = board.token_mm * 1.45
    cols = max(1, int((x1 - x0) // pitch))
    rows = max(1, int((y1 - y0) // pitch))
    xs = x0 + (x1 - x0 - cols * pitch) / 2 + pitch * (np.arange(cols) + 0.5)
    ys = y0 + (y1 - y0 - rows * pitch) / 2 + pitch * (np.arange(rows) + 0.5)
    return [(float(x), float(y)) for y in ys for x in xs]


def plan_kind(board: Board, label: str, n: int = HANDFUL) -> list[tuple[str, float, float]]:
    """Where to lay ``n`` tokens of one kind: (label, x mm, y mm) per token."""
    s = slots(board)
    step = max(1, len(s) // n)
    return [(label, *s[i * step]) for i in range(min(n, len(s)))]


def plan_mixed(board: Board, kinds, rng: np.random.Generator) -> list[tuple[str, float, float]]:
    """A mixed layout: every slot, kinds drawn so each appears about equally often."""
    s = slots(board)
    kinds = list(kinds)
    labels = [kinds[i % len(kinds)] for i in range(len(s))]
    rng.shuffle(labels)
    return [(lab, x, y) for lab, (x, y) in zip(labels, s)]


def _tray_view(board: Board, homography: np.ndarray, image: np.ndarray, s: float):
    x0, y0, x1, y1 = board.tray()
    S = np.array([[s, 0, -x0 * s], [0, s, -y0 * s], [0, 0, 1]])
    size = (int(round((x1 - x0) * s)), int(round((y1 - y0) * s)))
    return cv2.warpPerspective(image, S @ np.linalg.inv(homography), size, flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)


def cut(settings: Settings, board: Board, empty: np.ndarray, frame: np.ndarray, s: float = CUT_PX_PER_MM):
    """The tokens on the tray: a list of (centre mm, patch BGR, mask 0/1), compared with the empty board."""
    try:
        reg = register(settings, board.geometry(), frame)
        ref_reg = register(settings, board.geometry(), empty)
    except RegistrationError as exc:
        raise CalibrationError(f"tokens: {exc}") from None
    cur = cv2.GaussianBlur(_tray_view(board, reg.homography, frame, s), (0, 0), 0.8).astype(np.float32)
    ref = cv2.GaussianBlur(_tray_view(board, ref_reg.homography, empty, s), (0, 0), 0.8).astype(np.float32)
    ok = ref.min(2) > 10
    gain = np.median(cur[ok] / ref[ok], 0) if ok.sum() > 50 else np.ones(3)
    diff = np.abs(cur - ref * gain).sum(2)
    limit = 3 * settings.diff_threshold * (ref.mean(2) * float(gain.mean()) + 12)
    mask = (diff > np.maximum(limit, 30)).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    nominal = (board.token_mm * s) ** 2
    x0, y0 = board.tray()[:2]
    out = []
    view = _tray_view(board, reg.homography, frame, s)
    for c in contours:
        hull = cv2.convexHull(c)
        area = cv2.contourArea(hull)
        if not 0.3 * nominal <= area <= 3.5 * nominal:  # pieces up to 1.8 tokens wide (a Mountain)
            continue
        x, y, w, h = cv2.boundingRect(hull)
        m = np.zeros((h, w), np.uint8)
        cv2.fillPoly(m, [hull - [x, y]], 1)
        centre = ((x + w / 2) / s + x0, (y + h / 2) / s + y0)
        out.append((centre, view[y:y + h, x:x + w].copy(), m))
    return out


def tray_picture(settings: Settings, board: Board, frame: np.ndarray, plan, s: float = CUT_PX_PER_MM) -> np.ndarray:
    """The tray as the camera sees it now, from above, with a numbered ring at each place ``plan`` asks a
    token to be laid (what the person at the table follows)."""
    try:
        reg = register(settings, board.geometry(), frame)
    except RegistrationError as exc:
        raise CalibrationError(f"tray: {exc}") from None
    view = _tray_view(board, reg.homography, frame, s)
    x0, y0 = board.tray()[:2]
    r = int(round(board.token_mm * s / 2))
    for i, (_, x, y) in enumerate(plan, 1):
        c = (int(round((x - x0) * s)), int(round((y - y0) * s)))
        cv2.circle(view, c, r, (0, 0, 0), 5, cv2.LINE_AA)
        cv2.circle(view, c, r, TRAY_RING, 3, cv2.LINE_AA)
        cv2.putText(view, str(i), (c[0] - r // 3, c[1] + r // 3), cv2.FONT_HERSHEY_SIMPLEX, r / 22, TRAY_RING, 2,
                    cv2.LINE_AA)
    return view


def sample_photo(patch: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """A token cut from the tray, on a plain background of a colour unlike its own (an enrollment photo)."""
    h, w = mask.shape
    pad = max(6, max(h, w) // 3)
    mean = patch[mask > 0].mean(0)
    bg = np.where(mean > 128, 40.0, 215.0)
    out = np.empty((h + 2 * pad, w + 2 * pad, 3), np.uint8)
    out[:] = bg.astype(np.uint8)
    region = out[pad:pad + h, pad:pad + w]
    region[mask > 0] = patch[mask > 0]
    return out


def _nearest(plan, centre, tol_mm):
    best, d = None, tol_mm
    for i, (_, x, y) in enumerate(plan):
        dd = float(np.hypot(x - centre[0], y - centre[1]))
        if dd < d:
            best, d = i, dd
    return best


MIN_SAMPLES = 3       # tokens of a kind the tray must show
WASHED_OUT = 0.25     # share of a token more white with glare than its kind's others that spoils it
BLURRED = 0.6         # marker sharpness against the empty board's below which the picture is blurred


def _sharpness(settings: Settings, board: Board, image: np.ndarray) -> float:
    """How crisp the markers' edges are: strongest gradients against the marker's contrast (median of 4)."""
    try:
        h = register(settings, board.geometry(), image).homography
    except RegistrationError as exc:
        raise CalibrationError(f"tokens: {exc}") from None
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    out = []
    for m in board.markers:
        pts = cv2.perspectiveTransform(np.asarray(m.corners(), np.float64).reshape(1, -1, 2), h)[0]
        x, y, w, hh = cv2.boundingRect(pts.astype(np.float32))
        crop = grey[max(y, 0):y + hh, max(x, 0):x + w]
        if crop.size < 64:
            continue
        mag = cv2.magnitude(cv2.Sobel(crop, cv2.CV_32F, 1, 0), cv2.Sobel(crop, cv2.CV_32F, 0, 1))
        lo, hi = np.percentile(crop, (5, 95))
        out.append(float(np.percentile(mag, 95)) / (hi - lo + 1.0))
    return float(np.median(out)) if out else 0.0


def photo_problem(settings: Settings, board: Board, empty: np.ndarray, frame: np.ndarray, matched,
                  asked: int) -> str | None:
    """Why the picture of a kind on the tray would teach the model badly (one phrase), or None."""
    need = min(MIN_SAMPLES, asked)
    if len(matched) < need:
        return f"only {len(matched)} of the {asked} tokens were seen on the tray (at least {need} needed)"
    # Glare whitens some tokens of a handful and not the others (a white token is white in all five).
    washed = np.array([float(((p[m > 0].max(1) >= settings.saturated) & (p[m > 0].min(1) >= 0.8 * settings.saturated))
                             .mean()) for _, p, m in matched])
    spoiled = int(np.sum(washed > np.median(washed) + WASHED_OUT))
    if spoiled:
        return (f"glare washes out {spoiled} of {len(matched)} tokens (up to {max(washed):.0%} of a token white): "
                "move the lamp or the camera so the tray shows no glare")
    now, before = _sharpness(settings, board, frame), _sharpness(settings, board, empty)
    if before > 0 and now < BLURRED * before:
        return (f"the picture is blurred (markers {now / before:.0%} as sharp as on the empty board): "
                "hold the camera and the table still")
    return None


def capture_kind(settings: Settings, folder, board: Board, label: str, plan, empty: np.ndarray,
                 frame: np.ndarray) -> dict:
    """Cut the tokens of one kind laid as ``plan`` asked; write samples/<label>/NN.png (replacing old ones)."""
    if label not in LABELS:
        raise CalibrationError(f"tokens: {label!r} is not a token kind (e.g. 'elves', 'elves-decline', 'hero')")
    found = cut(settings, board, empty, frame)
    matched = [(centre, p, m) for centre, p, m in found if _nearest(plan, centre, board.token_mm) is not None]
    if not matched:
        raise CalibrationError(f"tokens: no {label} token seen on the tray; lay them in the marked places")
    problem = photo_problem(settings, board, empty, frame, matched, len(plan))
    if problem:
        raise CalibrationError(f"tokens: {label}: {problem}; photograph {describe(label)} again")
    out = folder.file(f"samples/{label}")
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for i, (_, patch, m) in enumerate(matched):
        cv2.imwrite(str(out / f"{i:02d}.png"), sample_photo(patch, m))
    # The kind's size on the board, measured here once (pieces differ: a Mountain is much larger).
    area = float(np.median([cv2.countNonZero(m) for _, _, m in matched])) / CUT_PX_PER_MM ** 2
    (out / "size.json").write_text(json.dumps({"area_mm2": round(area, 1)}), encoding="utf-8")
    return {"label": label, "asked": len(plan), "seen": len(matched), "strays": len(found) - len(matched)}


def build_model(settings: Settings, folder, kinds=None) -> dict:
    """Enroll every kind in samples/ into model.npz (and record the tokens step)."""
    try:
        samples = read_samples(folder.file("samples"))
    except ModelError as exc:
        raise CalibrationError(str(exc)) from None
    missing = sorted(set(kinds or ()) - set(samples))
    if missing:
        raise CalibrationError(f"tokens: no samples yet for {', '.join(missing)}")
    model = enroll(settings, samples, sizes=read_sizes(folder.file("samples")))
    model.save(folder.file("model.npz"))
    files = [str(p.relative_to(folder.path)) for p in sorted(folder.file("samples").glob("*/*.png"))
             + sorted(folder.file("samples").glob("*/size.json"))]
    info = {"kinds": sorted(samples), "samples": sum(len(v) for v in samples.values())}
    folder.record("tokens", files + ["model.npz"], info)
    return info


def selftest(settings: Settings, folder, board: Board, empty: np.ndarray, layouts) -> dict:
    """Classify mixed layouts [(plan, frame), ...] with model.npz; accuracy and the kinds it confuses."""
    try:
        model = load_model(folder.file("model.npz"))
    except ModelError as exc:
        raise CalibrationError(str(exc)) from None
    s = settings.px_per_mm
    truth, patches, masks, cuts, areas = [], [], [], [], []
    missed = 0
    for plan, frame in layouts:
        found = cut(settings, board, empty, frame, s)
        used = set()
        for centre, patch, m in found:
            i = _nearest(plan, centre, board.token_mm)
            if i is None or i in used:
                continue
            used.add(i)
            p, mm = normalise(patch, m, settings.feature_px)
            patches.append(p)
            masks.append(mm)
            cuts.append((patch, m))
            areas.append(cv2.countNonZero(m) / s ** 2)
            truth.append(plan[i][0])
        missed += len(plan) - len(used)
    if not truth:
        raise CalibrationError("self-test: no token seen on the tray")
    # Read as in play: with each kind's size and the second look at the emblems (vision.observe).
    result = classify(model, batch_features(np.array(patches), np.array(masks)), settings.neighbours,
                      np.array(areas, np.float32), settings.size_weight,
                      lambda rows: emblem_spectra([cuts[i][0] for i in rows], [cuts[i][1] for i in rows]))
    pairs = Counter((t, p) for t, p in zip(truth, result.labels) if t != p)
    right = sum(t == p for t, p in zip(truth, result.labels))
    report = {"format": "smallworld-selftest/1", "tokens": len(truth), "right": right,
              "accuracy": round(right / len(truth), 4), "missed": missed,
              "confused": [{"kind": a, "taken_for": b, "times": n} for (a, b), n in pairs.most_common()]}
    folder.file("selftest.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    return report


def confusion_sentences(report: dict) -> list[str]:
    return [f"{c['kind']} taken for {c['taken_for']} {c['times']} time{'s' if c['times'] > 1 else ''}"
            for c in report.get("confused", [])]
