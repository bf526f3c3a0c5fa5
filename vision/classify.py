"""Classification of tokens, learned only from enrollment samples (SAMPLES/<label>/*.png|jpg).

Enrollment turns each sample photo into many board-like views (turned, resized to the board's
token size, brighter or dimmer, blurred, noisy) and keeps their feature vectors; classification is
the nearest enrolled vector. The model is a small npz file of arrays.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import json

import cv2
import numpy as np

from .errors import ModelError
from .features import EMBLEM_SHAPE, SIZE, batch_features, crop_to_mask, emblem_likeness, emblem_spectra, normalise, segment_sample
from .labels import DECLINED, LABELS, OCCUPANTS
from .settings import Settings

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")
MODEL_FORMAT = "smallworld-tokens/1"


@dataclass(frozen=True)
class Model:
    """Enrolled feature vectors with their labels, and the scaling applied before distances."""

    labels: tuple[str, ...]
    vectors: np.ndarray     # (n, k) float32, enrolled views already projected
    targets: np.ndarray     # (n,) int index into labels, sorted
    scale: np.ndarray       # (SIZE,) float32, applied to raw features
    projection: np.ndarray  # (SIZE, k) float32, discriminant directions
    areas: np.ndarray | None = None  # (labels,) float32: each kind's area on the board in mm² (0: not measured)
    second: "SecondLook | None" = None  # kinds printed alike, told apart by their emblem

    def project(self, features: np.ndarray) -> np.ndarray:
        return (np.asarray(features, np.float32) * self.scale) @ self.projection

    def save(self, path: str | Path) -> None:
        with open(path, "wb") as f:
            np.savez_compressed(f, format=np.array(MODEL_FORMAT), labels=np.array(self.labels),
                                vectors=self.vectors, targets=self.targets, scale=self.scale,
                                projection=self.projection,
                                areas=self.areas if self.areas is not None else np.zeros(len(self.labels), np.float32),
                                **(self.second.arrays() if self.second is not None else {}))


@dataclass(frozen=True)
class SecondLook:
    """The emblems (``features.emblem_spectra``) of the enrollment photos of kinds the first look finds alike (the
    grey in-decline sides): a token the first look gives one of them is looked at again, its emblem against theirs."""

    members: np.ndarray     # (m,) int: indices into the model's labels, sorted
    templates: np.ndarray   # (n, 1, circles, harmonics) complex64: the photos' emblems
    targets: np.ndarray     # (n,) int: index into members, sorted
    spread: float           # how unlike its own kind's other photos a photo's emblem is (1 - correlation, median)

    def arrays(self) -> dict:
        return {"second_members": self.members, "second_templates": self.templates, "second_targets": self.targets,
                "second_spread": np.array(self.spread, np.float32)}

    @classmethod
    def from_arrays(cls, data) -> "SecondLook | None":
        if "second_members" not in data.files:
            return None
        if "second_templates" not in data.files:  # a model of the emblems' outlines (before they were compared whole)
            raise KeyError("emblem size")
        look = cls(data["second_members"].astype(np.int32), data["second_templates"].astype(np.complex64),
                   data["second_targets"].astype(np.int32), float(data["second_spread"]))
        if look.templates.shape[2:] != EMBLEM_SHAPE:
            raise KeyError("emblem size")
        return look

    def distances(self, emblems: np.ndarray) -> np.ndarray:
        """(N, members): how unlike each emblem is the nearest photo of each member (1 - correlation), in shares of
        ``spread``, squared (as the first look's distances are)."""
        d = 1.0 - emblem_likeness(np.asarray(emblems), self.templates)
        starts = np.searchsorted(self.targets, np.arange(len(self.members)))
        return (np.minimum.reduceat(d, starts, axis=1) / max(self.spread, 1e-3)) ** 2


def load_model(path: str | Path) -> Model:
    """Read a model written by ``Model.save``; problems are a ModelError."""
    try:
        with np.load(path, allow_pickle=False) as data:
            if str(data["format"]) != MODEL_FORMAT:
                raise ModelError(f"{path}: not a token model ({MODEL_FORMAT})")
            model = Model(tuple(str(s) for s in data["labels"]), data["vectors"].astype(np.float32),
                          data["targets"].astype(np.int32), data["scale"].astype(np.float32),
                          data["projection"].astype(np.float32),
                          data["areas"].astype(np.float32) if "areas" in data.files else None,
                          SecondLook.from_arrays(data))
    except FileNotFoundError:
        raise ModelError(f"{path}: no such model file") from None
    except (OSError, ValueError, KeyError) as exc:
        if isinstance(exc, ModelError):
            raise
        if "emblem size" in str(exc):
            raise ModelError(f"{path}: model was made by another version (emblems described otherwise): "
                             "enroll the tokens again") from None
        raise ModelError(f"{path}: not a readable token model ({type(exc).__name__})") from None
    if model.projection.ndim != 2 or model.projection.shape[0] != SIZE:
        raise ModelError(f"{path}: model was made by another version (feature size differs)")
    return model


def read_sizes(folder: str | Path) -> dict[str, float]:
    """Each kind's area on the board in mm², where enrollment measured it (``SAMPLES/<label>/size.json``,
    written by the calibration's tray step: ``{"area_mm2": ...}``)."""
    out = {}
    for f in sorted(Path(folder).glob("*/size.json")):
        try:
            area = float(json.loads(f.read_text(encoding="utf-8"))["area_mm2"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ModelError(f"{f}: not a size file ({type(exc).__name__})") from None
        if area > 0:
            out[f.parent.name] = area
    return out


def read_samples(folder: str | Path) -> dict[str, list[np.ndarray]]:
    """The enrollment photos of a SAMPLES folder, by label; unknown label folders are an error."""
    root = Path(folder)
    if not root.is_dir():
        raise ModelError(f"{root}: no such samples folder")
    out: dict[str, list[np.ndarray]] = {}
    for sub in sorted(p for p in root.iterdir() if p.is_dir()):
        if sub.name not in LABELS:
            raise ModelError(f"{sub}: {sub.name!r} is not a token label (e.g. 'elves', 'elves-decline', 'hero')")
        for f in sorted(sub.iterdir()):
            if f.suffix.lower() not in IMAGE_SUFFIXES:
                continue
            img = cv2.imread(str(f), cv2.IMREAD_COLOR)
            if img is None:
                raise ModelError(f"{f}: cannot read this image")
            out.setdefault(sub.name, []).append(img)
    if not out:
        raise ModelError(f"{root}: no samples (expected {root}/<label>/*.png or *.jpg)")
    return out


def _views(settings: Settings, image: np.ndarray, mask: np.ndarray, rng: np.random.Generator, n: int):
    """Board-like views of one sample: the token cut out, turned, put on another background at the
    board's token size, with a shadow, lit brighter or dimmer, blurred and noisy."""
    ys, xs = np.nonzero(mask)
    if len(xs) < 16:
        return
    x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
    side = max(x1 - x0, y1 - y0)
    target = 20.0 * settings.px_per_mm  # token size on the rectified board, before random scaling
    centre = ((x0 + x1) / 2, (y0 + y1) / 2)
    for k in range(n):
        px = target * rng.uniform(0.75, 1.25)
        f = px / side
        big = int(side * 1.5 * f) + 6
        M = cv2.getRotationMatrix2D(centre, rng.uniform(-180, 180), f)
        M[:, 2] += big / 2 - np.array(centre) + rng.uniform(-1, 1, 2)
        token = cv2.warpAffine(image, M, (big, big), flags=cv2.INTER_AREA if f < 1 else cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
        alpha = cv2.warpAffine(mask.astype(np.float32), M, (big, big), flags=cv2.INTER_LINEAR)[..., None]
        bg = rng.uniform(25, 235, 3) * (1 + 0.08 * rng.standard_normal((big, big, 1)))
        shift = rng.integers(0, 3, 2)
        shadow = np.roll(alpha, tuple(shift), (0, 1))
        img = bg * (1 - rng.uniform(0.1, 0.4) * shadow)
        img = img * (1 - alpha) + token * alpha
        img *= rng.uniform(0.45, 1.3) * (1 + rng.uniform(-0.06, 0.06, 3))
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.2, 1.6))
        img += rng.normal(0, rng.uniform(0, 7), img.shape)
        m = (alpha[..., 0] > 0.5).astype(np.uint8)
        grow = int(rng.integers(-1, 3))
        if grow > 0:
            m = cv2.dilate(m, np.ones((2 * grow + 1,) * 2, np.uint8))
        elif grow < 0:
            m = cv2.erode(m, np.ones((3, 3), np.uint8))
        yield img.clip(0, 255).astype(np.uint8), m


def enroll(settings: Settings, samples: dict[str, list[np.ndarray]], seed: int = 0,
           sizes: dict[str, float] | None = None) -> Model:
    """Learn a model from enrollment photos by label (see ``read_samples``); ``sizes``: each kind's area on
    the board in mm² where it was measured (``read_sizes``), so a blob far from a kind's size is not it."""
    rng = np.random.default_rng(seed)
    labels = tuple(sorted(samples))
    alike = [li for li, label in enumerate(labels) if label in DECLINED]
    vecs, targets, emblems = [], [], []
    for li, label in enumerate(labels):
        for image in samples[label]:
            mask = segment_sample(image)
            if mask.sum() < 16:
                raise ModelError(f"{label}: a sample shows no token against its background")
            crops = [crop_to_mask(image, mask)] + [crop_to_mask(img, m) for img, m in
                                                   _views(settings, image, mask, rng, settings.augment)]
            views = [normalise(p, m, settings.feature_px) for p, m in crops]
            vecs.append(batch_features(np.array([v[0] for v in views]), np.array([v[1] for v in views])))
            targets += [li] * len(views)
            if li in alike and len(alike) >= 2:  # the photo itself: turned views add nothing a turn does not
                emblems.append((li, emblem_spectra([crops[0][0]], [crops[0][1]], shifts=False)[0]))
    X = np.concatenate(vecs)
    y = np.array(targets, np.int32)
    scale = (1.0 / (X.std(0) + 0.02)).astype(np.float32)
    W = _discriminant(X * scale, y, len(labels))
    areas = np.array([float((sizes or {}).get(lab, 0.0)) for lab in labels], np.float32)
    return Model(labels, (X * scale) @ W, y, scale, W, areas if areas.any() else None, _second_look(alike, emblems))


def _second_look(members: list[int], emblems: list) -> SecondLook | None:
    """The enrolled emblems of ``members`` (label indices), or None (fewer than two kinds)."""
    if len(members) < 2 or not emblems:
        return None
    templates = np.array([e for _, e in emblems], np.complex64)
    targets = np.array([members.index(li) for li, _ in emblems], np.int32)
    like = emblem_likeness(templates, templates)
    np.fill_diagonal(like, -1.0)
    same = targets[:, None] == targets[None]
    own = np.where(same, like, -1.0).max(1)  # each photo against its kind's other photos
    spread = float(np.median(1.0 - own[own > -1.0])) if (own > -1.0).any() else 0.1
    return SecondLook(np.array(members, np.int32), templates, targets, max(spread, 0.02))


def _discriminant(X: np.ndarray, y: np.ndarray, n_classes: int) -> np.ndarray:
    """Directions that separate the classes relative to the spread within each (Fisher's discriminant)."""
    d = X.shape[1]
    if n_classes < 2:
        return np.eye(d, dtype=np.float32)
    means = np.array([X[y == c].mean(0) for c in range(n_classes)])
    within = X - means[y]
    Sw = within.T @ within / len(X)
    centred = means - X.mean(0)
    counts = np.bincount(y, minlength=n_classes)
    Sb = (centred * counts[:, None]).T @ centred / len(X)
    Sw += np.eye(d) * (0.05 * np.trace(Sw) / d + 1e-6)
    L = np.linalg.cholesky(Sw)
    Li = np.linalg.inv(L)
    vals, vecs = np.linalg.eigh(Li @ Sb @ Li.T)
    k = min(n_classes - 1, d)
    order = np.argsort(vals)[::-1][:k]
    return (Li.T @ vecs[:, order]).astype(np.float32)


@dataclass(frozen=True)
class Classified:
    """Labels of a batch of tokens, with confidences (0..1: how much nearer the best class is than the next)."""

    labels: tuple[str, ...]
    confidence: np.ndarray
    distance: np.ndarray
    per_class: np.ndarray | None = None  # (N, labels) squared distance to the nearest view of each label
    sure: np.ndarray | None = None  # the same with the emblem's full say, where the second look weighed it

    def confidence_of(self, row: int, label: int) -> float:
        """How much nearer ``label`` (an index) is than every other kind for the token of ``row`` (0 where another
        is nearer): the confidence of a label a rule of the game gave the token."""
        d = (self.sure if self.sure is not None else self.per_class)[row]
        others = np.delete(d, label)
        if not len(others):
            return 1.0
        return float(max(0.0, 1 - np.sqrt(d[label]) / max(np.sqrt(float(others.min())), 1e-6)))


def classify(model: Model, features: np.ndarray, neighbours: int = 1, areas: np.ndarray | None = None,
             size_weight: float = 0.0, emblems=None) -> Classified:
    """The nearest enrolled label for each feature vector (rows of ``features``); with ``areas`` (each
    token's area in mm²) and a model that measured its kinds' sizes, a kind whose size differs is farther:
    its distance grows by ``size_weight`` times the squared log of the ratio, as a share.

    ``emblems``: a function of row indices giving those tokens' emblems (``features.emblem_spectra``); a token
    the first look gives a kind of the model's second look (the grey in-decline sides) is ranked again among
    those kinds by its emblem."""
    if len(features) == 0:
        return Classified((), np.zeros(0), np.zeros(0))
    q = model.project(features)
    d2 = (q ** 2).sum(1)[:, None] - 2 * q @ model.vectors.T + (model.vectors ** 2).sum(1)[None, :]
    d2 = np.maximum(d2, 0)
    n_labels = len(model.labels)
    starts = np.searchsorted(model.targets, np.arange(n_labels + 1))  # targets are sorted by enrollment
    k = max(1, int(neighbours))
    if k == 1:
        per_class = np.minimum.reduceat(d2, starts[:-1], axis=1)
    else:  # mean of each label's k nearest views
        per_class = np.empty((len(q), n_labels), np.float32)
        for li in range(n_labels):
            block = d2[:, starts[li]:starts[li + 1]]
            kk = min(k, block.shape[1])
            per_class[:, li] = np.partition(block, kk - 1, axis=1)[:, :kk].mean(1)
    if areas is not None and model.areas is not None and size_weight > 0:
        known = model.areas > 0
        ratio = np.log(np.maximum(np.asarray(areas, np.float32)[:, None], 1.0) / np.maximum(model.areas[None], 1.0))
        per_class = per_class * (1 + size_weight * np.where(known[None], ratio * ratio, 0.0)).astype(np.float32)
    sure = per_class
    if model.second is not None and emblems is not None:
        per_class, sure = _look_again(model.second, per_class, emblems)
    order = np.argsort(per_class, 1, kind="stable")
    rows = np.arange(len(q))
    best = per_class[rows, order[:, 0]]
    # The label's confidence, from the distances with the emblem's full say: how much nearer the label is than
    # the nearest other kind (0 where the emblem alone would have chosen another).
    mine = sure[rows, order[:, 0]]
    rest = sure.copy()
    rest[rows, order[:, 0]] = np.inf
    second = rest.min(1) if n_labels > 1 else mine * 4 + 1
    conf = 1 - np.sqrt(mine) / np.maximum(np.sqrt(second), 1e-6)
    return Classified(tuple(model.labels[i] for i in order[:, 0]), conf.clip(0, 1), np.sqrt(best), per_class, sure)


# The first look finds its nearest two kinds alike when within this ratio: kinds printed alike but for their
# emblem (the grey in-decline sides of one printing) are often that near, and which of them is nearest then
# says as much about where on the tray each was enrolled, under which part of the lamp, as about the token.
ALIKE = 3.0
EMBLEM_CAP = 3.0  # an emblem makes a kind at most this much farther, for its label


def _look_again(second: SecondLook, per_class: np.ndarray, emblems) -> tuple[np.ndarray, np.ndarray]:
    """``per_class`` with the second look's kinds weighed again by emblem, for the rows whose nearest is one of
    them and whose first look finds the nearest two alike (within ``ALIKE``): each one's distance is multiplied
    by how much less like its emblem each is than the likest. A first look that tells them apart clearly
    keeps its say; where it finds them alike, the emblem decides.

    Returned twice: with the emblem's weight capped at ``EMBLEM_CAP`` (the labels and the region's vote: a
    printing whose in-decline sides differ by colour and motif, not by an emblem, keeps what the first look
    reads, and a region's vote can still bring a token back to its pile's kind), and with its full weight (the
    confidence: a token whose emblem matches one kind's many times better than any other's is sure of it; with
    the cap every reading the emblem decided looked unsure, under 0.3)."""
    rows = np.nonzero(np.isin(per_class.argmin(1), second.members))[0]
    if len(rows) == 0:
        return per_class, per_class
    block = per_class[np.ix_(rows, second.members)]
    near = np.partition(block, 1, axis=1)[:, :2] if block.shape[1] > 1 else np.ones((len(rows), 2))
    alike = near[:, 1] < ALIKE * near[:, 0]
    rows, block = rows[alike], block[alike]
    if len(rows) == 0:
        return per_class, per_class
    d = second.distances(emblems(rows)) + 1.0  # + one within-kind spread: an exact match is not infinitely sure
    ratio = d / d.min(1, keepdims=True)
    out = []
    for cap in (EMBLEM_CAP, np.inf):
        weighed = block * np.minimum(ratio, cap)
        # Scaled so the nearest of them stays as near as the first look found them: which side is up (active or
        # in decline) is still the first look's to say.
        weighed *= block.min(1, keepdims=True) / weighed.min(1, keepdims=True)
        o = per_class.copy()
        o[np.ix_(rows, second.members)] = weighed
        out.append(o)
    return out[0], out[1]


def vote(model: Model, per_class: np.ndarray) -> int | None:
    """The one occupant label (index) that best explains a group of tokens, by summed squared distance;
    None when no occupant label is enrolled."""
    occ = [i for i, lab in enumerate(model.labels) if lab in OCCUPANTS]
    if not occ:
        return None
    totals = per_class[:, occ].sum(0)
    return occ[int(np.argmin(totals))]
