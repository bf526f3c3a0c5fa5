"""The synthetic table: a printed board, tokens, a hand, under a camera and a lamp, with ground truth.

A ``Session`` is one camera pose, one lamp and one printing of the board and tokens (as on a real
table after calibration); it renders the empty board and any number of board states.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from ..geometry import Geometry, inside_distance
from ..labels import PIECES, RACES
from ..markers import marker_image
from .designs import designs, palette, sprite

MARKER_LABELS = frozenset(PIECES) - {"lost-tribe"}  # pieces that lie under the race tokens

TABLE_MM = 90.0  # table visible around the board frame in the canvas
TERRAIN_BGR = {"farmland": (90, 200, 215), "forest": (50, 120, 50), "hill": (80, 175, 130),
               "mountain": (120, 130, 140), "swamp": (100, 120, 95), "sea": (170, 110, 40),
               "lake": (200, 150, 80)}


@dataclass(frozen=True)
class Realism:
    """How hard the picture is: camera tilt, lens, light, glare, noise, blur, stacking."""

    tilt_deg: float = 0.0
    yaw_deg: float = 2.0
    distortion: float = 0.0
    light_gradient: float = 0.0
    dim: tuple[float, float] = (1.0, 1.0)
    glare_spots: int = 0
    noise: float = 1.0
    blur: float = 0.0
    stack_offset_mm: tuple[float, float] = (0.3, 1.2)
    stack_share: float = 0.15
    frame_size: tuple[int, int] = (1920, 1080)
    # What another printing and another room bring (all off in the tiers the pipeline grew up with):
    style: str = "plain"          # token art and board palette (designs.STYLES)
    cast: float = 0.0             # lamp colour cast per channel, up to this share (0: the mild default)
    relight: bool = False         # the lamp at play is another lamp than at calibration (empty board, tray)
    touching: float = 0.0         # share of special pieces laid against a token of their region
    hand_share: float = 0.0       # share of frames with a hand and arm over the board (bench)


# What another printing and another room bring: its token art and board palette, a lamp with a strong
# colour cast that is another lamp at play than at calibration, pieces laid against tokens, a hand.
FOREIGN = dict(style="foreign", cast=0.15, relight=True, touching=0.6, hand_share=0.25)

TIERS = {
    "clean": Realism(),
    "realistic": Realism(tilt_deg=10.0, yaw_deg=4.0, distortion=0.03, light_gradient=0.35, dim=(0.8, 1.05),
                         noise=3.0, blur=0.8),
    "hard": Realism(tilt_deg=10.0, yaw_deg=4.0, distortion=0.04, light_gradient=0.45, dim=(0.45, 0.7),
                    glare_spots=3, noise=6.0, blur=1.6, stack_offset_mm=(2.0, 5.0), stack_share=0.35),
    # Another printing under other lamps: see designs.py ("foreign") and docs/vision.md.
    "foreign": Realism(tilt_deg=10.0, yaw_deg=4.0, distortion=0.03, light_gradient=0.35, dim=(0.6, 1.05),
                       glare_spots=1, noise=4.0, blur=1.0, stack_offset_mm=(0.5, 3.0), stack_share=0.25,
                       **FOREIGN),
}
# The same camera and light as each tier the pipeline grew up with, with what another table brings
# (the independent set has those three, with a target each: the bench reports them side by side).
TIERS.update({f"foreign-{tier}": replace(TIERS[tier], **FOREIGN) for tier in ("clean", "realistic", "hard")})


@dataclass
class Placed:
    """One token on the board: its label, centre in mm, rotation in degrees."""

    label: str
    x: float
    y: float
    angle: float


@dataclass
class Truth:
    """What the camera should report: visible tokens per region, occluded regions, the camera homography."""

    regions: dict  # id -> {label: count}
    occluded: set = field(default_factory=set)
    homography: np.ndarray | None = None  # board mm -> undistorted image px

    def to_json(self) -> dict:
        return {"regions": {str(k): {"tokens": v, "occluded": k in self.occluded} for k, v in self.regions.items()},
                "homography_mm_to_px": None if self.homography is None else self.homography.tolist()}


def _fbm(rng, h, w, scales=(8, 32)):
    out = np.zeros((h, w), np.float32)
    for s in scales:
        small = rng.normal(0, 1, (max(2, h // s), max(2, w // s))).astype(np.float32)
        out += cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC) / len(scales)
    return out


class Session:
    """A fixed camera over one board with one printing of the tokens and one lamp."""

    def __init__(self, geometry: Geometry, seed: int, design_seed: int = 0, realism: Realism = Realism(),
                 px_per_mm: float = 2.0, board_seed: int | None = None):
        self.geometry, self.seed, self.realism, self.s = geometry, seed, realism, px_per_mm
        self.designs = designs(design_seed, realism.style)
        self.design_seed = design_seed
        self.rng = np.random.default_rng(seed)
        self.board_rng = np.random.default_rng(seed if board_seed is None else board_seed)
        self._canvas = self._draw_board()
        self._camera()
        self._lamp()

    # ----- the printed board ------------------------------------------------------------------
    def canvas_px(self, pts_mm: np.ndarray) -> np.ndarray:
        return (np.asarray(pts_mm, np.float64) + TABLE_MM) * self.s

    def _draw_board(self) -> np.ndarray:
        g, s, rng = self.geometry, self.s, self.board_rng
        w, h = int((g.width_mm + 2 * TABLE_MM) * s), int((g.height_mm + 2 * TABLE_MM) * s)
        table = np.array(rng.uniform(60, 200, 3))
        canvas = (table + 12 * _fbm(rng, h, w)[..., None]).clip(0, 255).astype(np.uint8)
        frame = self.canvas_px(np.array([[0, 0], [g.width_mm, g.height_mm]])).astype(int)
        paper = rng.uniform(215, 250)
        cv2.rectangle(canvas, tuple(frame[0]), tuple(frame[1]), (paper,) * 3, -1)
        if self.realism.style == "plain":
            palette = {t: np.clip(np.array(c) + rng.normal(0, 18, 3), 20, 240) for t, c in TERRAIN_BGR.items()}
        else:
            palette = {t: np.array(c) for t, c in globals()["palette"](self.design_seed).items()}
        x0, y0, x1, y1 = self.canvas_px(np.array(g.play_area).reshape(2, 2)).ravel().astype(int)
        tex = _fbm(rng, y1 - y0, x1 - x0, (6, 40))[..., None] * 14
        import maps
        try:
            board = maps.load(g.map)
            terrain = {r.id: r.terrain for r in board}
            symbols = {r.id: sorted(r.symbols) for r in board}
        except ValueError:
            terrain, symbols = {}, {}
        play = np.zeros((y1 - y0, x1 - x0, 3), np.float32)
        for rid, poly in g.regions.items():
            col = palette.get(terrain.get(rid, "farmland"), palette["farmland"])
            pts = np.round((self.canvas_px(poly) - [x0, y0]) * 16).astype(np.int32)
            cv2.fillPoly(play, [pts], tuple(float(c) for c in col), cv2.LINE_AA, shift=4)
        play += tex
        for rid, poly in g.regions.items():
            pts = np.round((self.canvas_px(poly) - [x0, y0]) * 16).astype(np.int32)
            cv2.polylines(play, [pts], True, (40, 45, 50), max(1, int(1.2 * s)), cv2.LINE_AA, shift=4)
            c = (self.canvas_px(poly.mean(0)) - [x0, y0]).astype(int)
            for k, sym in enumerate(symbols.get(rid, [])):  # printed symbols: clutter the reference also has
                p = (int(c[0] + (k * 9 - 6) * s), int(c[1] + 8 * s))
                cv2.circle(play, p, int(4 * s), (230, 230, 230), -1, cv2.LINE_AA)
                cv2.circle(play, p, int(2 * s), (60, 60, 160 + 30 * k), -1, cv2.LINE_AA)
        canvas[y0:y1, x0:x1] = play.clip(0, 255).astype(np.uint8)
        for m in g.markers:
            side = int(round(m.size * s))
            c = self.canvas_px(np.array(m.center)).astype(int) - side // 2
            q = int(5 * s)
            cv2.rectangle(canvas, (c[0] - q, c[1] - q), (c[0] + side + q, c[1] + side + q), (255, 255, 255), -1)
            canvas[c[1]:c[1] + side, c[0]:c[0] + side] = marker_image(m.id, side)[..., None]
        return canvas

    # ----- camera and lamp --------------------------------------------------------------------
    def _camera(self):
        g, r, rng = self.geometry, self.realism, self.rng
        W, H = r.frame_size
        tx, ty = rng.uniform(-1, 1, 2) * np.deg2rad(r.tilt_deg)
        yaw = np.deg2rad(rng.uniform(-r.yaw_deg, r.yaw_deg))
        Rx = np.array([[1, 0, 0], [0, np.cos(tx), -np.sin(tx)], [0, np.sin(tx), np.cos(tx)]])
        Ry = np.array([[np.cos(ty), 0, np.sin(ty)], [0, 1, 0], [-np.sin(ty), 0, np.cos(ty)]])
        Rz = np.array([[np.cos(yaw), -np.sin(yaw), 0], [np.sin(yaw), np.cos(yaw), 0], [0, 0, 1]])
        R = Rz @ Ry @ Rx
        dist = 1.6 * max(g.width_mm, g.height_mm)
        t = np.array([-g.width_mm / 2, -g.height_mm / 2, 0.0])
        H0 = np.column_stack([R[:, 0], R[:, 1], R @ t + [0, 0, dist]])
        corners = np.array([[0, 0], [g.width_mm, 0], [g.width_mm, g.height_mm], [0, g.height_mm]], float)
        p = cv2.perspectiveTransform(corners[None], H0)[0]
        lo, hi = p.min(0), p.max(0)
        fill = rng.uniform(0.86, 0.94)
        k = fill * min(W / (hi - lo)[0], H / (hi - lo)[1])
        off = np.array([W, H]) / 2 - k * (lo + hi) / 2 + rng.uniform(-1, 1, 2) * 0.02 * np.array([W, H])
        A = np.array([[k, 0, off[0]], [0, k, off[1]], [0, 0, 1]])
        self.homography = A @ H0 / (A @ H0)[2, 2]  # board mm -> undistorted image px
        self.k1 = float(rng.uniform(-1, 1) * r.distortion)
        # Map each distorted output pixel back to the board canvas.
        ys, xs = np.mgrid[0:H, 0:W].astype(np.float32)
        c = np.array([W / 2, H / 2], np.float32)
        norm = float(np.hypot(W, H) / 2)
        dx, dy = xs - c[0], ys - c[1]
        f = 1 + self.k1 * (dx * dx + dy * dy) / norm ** 2
        und = np.stack([c[0] + dx * f, c[1] + dy * f], -1)
        to_canvas = np.array([[self.s, 0, TABLE_MM * self.s], [0, self.s, TABLE_MM * self.s], [0, 0, 1]])
        M = to_canvas @ np.linalg.inv(self.homography)
        mapped = cv2.perspectiveTransform(und.reshape(1, -1, 2).astype(np.float64), M).reshape(H, W, 2)
        self._map = cv2.convertMaps(mapped[..., 0].astype(np.float32), mapped[..., 1].astype(np.float32),
                                    cv2.CV_16SC2)
        self._norm, self._center = norm, c

    def image_points(self, pts_mm: np.ndarray) -> np.ndarray:
        """Where board points (mm) appear in the distorted image (px)."""
        und = cv2.perspectiveTransform(np.asarray(pts_mm, np.float64).reshape(1, -1, 2), self.homography)[0]
        # invert f(r) = 1 + k1 r^2 by fixed-point iteration
        d = und - self._center
        out = d.copy()
        for _ in range(10):
            out = d / (1 + self.k1 * (out ** 2).sum(1, keepdims=True) / self._norm ** 2)
        return out + self._center

    def _lamp(self):
        r, rng = self.realism, self.rng
        W, H = r.frame_size
        ys, xs = np.mgrid[0:H // 8, 0:W // 8].astype(np.float32)
        xs, ys = xs / (W // 8) - 0.5, ys / (H // 8) - 0.5
        gx, gy = rng.uniform(-1, 1, 2) * r.light_gradient
        level = rng.uniform(*r.dim)
        field_ = level * (1 + gx * xs + gy * ys - r.light_gradient * 0.6 * (xs ** 2 + ys ** 2))
        cast = 1 + rng.uniform(-0.06, 0.06, 3) * (r.light_gradient > 0)
        if r.cast > 0:
            cast = 1 + rng.uniform(-r.cast, r.cast, 3)
        self._light = cv2.resize(field_, (W, H))[..., None] * cast.astype(np.float32)
        self._play_light = None  # the same lamp as at calibration
        if r.relight:  # another lamp for the game: other level, slope and colour
            gx, gy = rng.uniform(-1, 1, 2) * r.light_gradient
            level = rng.uniform(*r.dim)
            field_ = level * (1 + gx * xs + gy * ys - r.light_gradient * 0.6 * (xs ** 2 + ys ** 2))
            cast = 1 + rng.uniform(-r.cast, r.cast, 3)
            self._play_light = cv2.resize(field_, (W, H))[..., None] * cast.astype(np.float32)
        glare = np.zeros((H, W), np.float32)
        for _ in range(r.glare_spots):
            cx, cy = rng.uniform(0.1, 0.9) * W, rng.uniform(0.1, 0.9) * H
            sig = rng.uniform(0.02, 0.05) * W
            gx_ = np.exp(-((np.arange(W) - cx) ** 2) / (2 * sig ** 2)).astype(np.float32)
            gy_ = np.exp(-((np.arange(H) - cy) ** 2) / (2 * sig ** 2)).astype(np.float32)
            glare += rng.uniform(90, 200) * np.outer(gy_, gx_)
        self._glare = glare[..., None]

    # ----- tokens and hands -------------------------------------------------------------------
    def place(self, state: dict, rng: np.random.Generator | None = None) -> tuple[list, dict]:
        """Lay out a board state ({region: {label: count}}) as piles; returns (tokens, visible counts).

        Each region's tokens are spread over piles; only the top token of a pile is visible.
        Where no room is left, race tokens go on top of a pile and markers under one, as players do.
        """
        rng = rng or self.rng
        g, r = self.geometry, self.realism
        tok = g.token_mm
        placed, visible = [], {}
        step = 1.0  # mm per px of the placement raster (inside_distance)
        for rid, counts in state.items():
            dist, lo = inside_distance(g.regions[rid])
            ys, xs = np.nonzero(dist >= tok * 0.5 + 3.0)
            tokens = [lab for lab, n in sorted(counts.items()) for _ in range(n)]
            rng.shuffle(tokens)
            # Split into piles: some tokens go on top of others.
            piles = []
            for lab in tokens:
                if piles and rng.random() < r.stack_share and piles[-1][-1] == lab:
                    piles[-1].append(lab)
                else:
                    piles.append([lab])
            if r.style != "plain":  # big pieces first, while there is room
                piles.sort(key=lambda pl: -self.designs[pl[-1]].size)
            centres: list = []
            widths: list = []  # each pile's width, mm
            stacks: list[list] = []  # per pile placed: [first index in ``placed``, top label]
            seen = {}
            for pile in piles:
                wide = tok * self.designs[pile[-1]].size
                cx, cy = (xs, ys) if wide <= tok else np.nonzero(dist >= wide * 0.5 + 3.0)[::-1]
                p = None
                if r.touching > 0 and pile[-1] in MARKER_LABELS and centres and rng.random() < r.touching:
                    p = self._against(dist, lo, centres, widths, wide, rng)
                for _ in range(60 if len(cx) and p is None else 0):
                    k = int(rng.integers(len(cx)))
                    cand = np.array([cx[k], cy[k]], float) * step + lo + rng.uniform(-0.5, 0.5, 2)
                    if all(np.hypot(*(cand - q)) >= (wide + wq) / 2 * 1.18 + 2.0 for q, wq in zip(centres, widths)):
                        p = cand
                        break
                small = [k for k, st in enumerate(stacks) if self.designs[st[1]].size <= 1.1 and wide <= 1.1 * tok]
                if p is None and small:
                    # No room left: race tokens go on top of a pile, a marker under one, as players do.
                    k = small[int(rng.integers(len(small)))]
                    below = stacks[k]
                    at = len(placed) if pile[-1] not in MARKER_LABELS else below[0]
                    new = [Placed(lab, centres[k][0] + o[0], centres[k][1] + o[1], float(rng.uniform(-15, 15)))
                           for lab in pile for o in [rng.uniform(-1.5, 1.5, 2)]]
                    placed[at:at] = new
                    for other in stacks:
                        if other[0] >= at and other is not below:
                            other[0] += len(new)
                    if at == len(placed) - len(new):
                        seen[below[1]] -= 1
                        seen[pile[-1]] = seen.get(pile[-1], 0) + 1
                        below[1] = pile[-1]
                    else:
                        below[0] += len(new)
                    continue
                if p is None:  # not even one token fits: at the region's widest point
                    y, x = np.unravel_index(int(np.argmax(dist)), dist.shape)
                    p = np.array([x, y], float) * step + lo
                centres.append(p)
                widths.append(wide)
                stacks.append([len(placed), pile[-1]])
                for level, lab in enumerate(pile):
                    off = (rng.uniform(*r.stack_offset_mm) * np.array([np.cos(a := rng.uniform(0, 6.3)), np.sin(a)])
                           if level < len(pile) - 1 else np.zeros(2))
                    placed.append(Placed(lab, p[0] + off[0], p[1] + off[1], float(rng.uniform(-15, 15))))
                seen[pile[-1]] = seen.get(pile[-1], 0) + 1
            seen = {lab: n for lab, n in seen.items() if n > 0}
            visible[rid] = seen
        return placed, visible

    @staticmethod
    def _against(dist, lo, centres, widths, wide, rng):
        """A place for a piece ``wide`` mm across touching one of the piles already laid (or None)."""
        for _ in range(30):
            k = int(rng.integers(len(centres)))
            a = rng.uniform(0, 2 * np.pi)
            p = centres[k] + 0.86 * (widths[k] + wide) / 2 * np.array([np.cos(a), np.sin(a)])
            ix, iy = int(round(p[0] - lo[0])), int(round(p[1] - lo[1]))
            if not (0 <= iy < dist.shape[0] and 0 <= ix < dist.shape[1]) or dist[iy, ix] < wide * 0.4:
                continue
            if all(np.hypot(*(p - q)) >= 0.86 * (wide + wq) / 2 for j, (q, wq) in enumerate(zip(centres, widths))
                   if j != k):
                return p
        return None

    def _paste(self, canvas: np.ndarray, t: Placed, shadow: bool = True):
        design = self.designs[t.label]
        side = int(round(self.geometry.token_mm * design.size * self.s))
        img, alpha = sprite(design, side)
        big = int(side * 1.5)
        M = cv2.getRotationMatrix2D((side / 2, side / 2), t.angle, 1.0)
        cx, cy = self.canvas_px(np.array([t.x, t.y]))
        M[:, 2] += [cx - side / 2 - int(cx) + big / 2, cy - side / 2 - int(cy) + big / 2]
        im = cv2.warpAffine(img, M, (big, big), flags=cv2.INTER_LINEAR).astype(np.float32)
        al = cv2.warpAffine(alpha, M, (big, big), flags=cv2.INTER_LINEAR)[..., None]
        x0, y0 = int(cx) - big // 2, int(cy) - big // 2
        roi = canvas[y0:y0 + big, x0:x0 + big].astype(np.float32)
        if roi.shape[:2] != (big, big):
            return
        if shadow:
            sh = np.roll(cv2.GaussianBlur(al, (0, 0), 1.2 * self.s), (int(0.8 * self.s), int(1.0 * self.s)), (0, 1))
            roi *= 1 - 0.3 * sh.reshape(big, big, 1)
        roi = roi * (1 - al) + im * al
        canvas[y0:y0 + big, x0:x0 + big] = roi.clip(0, 255).astype(np.uint8)

    def hand(self, rng: np.random.Generator | None = None) -> np.ndarray:
        """A hand and arm reaching in from one side of the board: a polygon list in mm (palm, arm, fingers)."""
        rng = rng or self.rng
        g = self.geometry
        x0, y0, x1, y1 = g.play_area
        side = int(rng.integers(4))
        tip = np.array([rng.uniform(x0 + 80, x1 - 80), rng.uniform(y0 + 80, y1 - 80)])
        start = {0: [tip[0] + rng.uniform(-100, 100), -TABLE_MM], 1: [g.width_mm + TABLE_MM, tip[1]],
                 2: [tip[0] + rng.uniform(-100, 100), g.height_mm + TABLE_MM], 3: [-TABLE_MM, tip[1]]}[side]
        return np.array([start, tip], float)

    def _draw_hand(self, canvas: np.ndarray, hand: np.ndarray, rng) -> np.ndarray:
        s = self.s
        skin = np.array([rng.uniform(60, 150), rng.uniform(100, 170), rng.uniform(150, 230)])
        mask = np.zeros(canvas.shape[:2], np.uint8)
        a, b = self.canvas_px(hand)
        d = (b - a) / np.linalg.norm(b - a)
        palm = b - d * 45 * s
        cv2.line(mask, tuple(a.astype(int)), tuple(palm.astype(int)), 255, int(70 * s))
        cv2.ellipse(mask, tuple(palm.astype(int)), (int(45 * s), int(40 * s)),
                    float(np.degrees(np.arctan2(d[1], d[0]))), 0, 360, 255, -1)
        n = np.array([-d[1], d[0]])
        for k in (-1.5, -0.5, 0.5, 1.5):
            base = palm + d * 25 * s + n * k * 17 * s
            cv2.line(mask, tuple(base.astype(int)), tuple((base + d * rng.uniform(35, 55) * s).astype(int)), 255,
                     int(15 * s))
        # Shade only around the hand: its shadow reaches 3 sigma of the blur past the shifted mask.
        ys, xs = np.nonzero(mask)
        pad = int(15 * s + 3 * 8 * s) + 2
        y0, y1 = max(0, ys.min() - pad), min(mask.shape[0], ys.max() + pad + 1)
        x0, x1 = max(0, xs.min() - pad), min(mask.shape[1], xs.max() + pad + 1)
        m = mask[y0:y1, x0:x1]
        shadow = cv2.GaussianBlur(np.roll(m, (int(12 * s), int(15 * s)), (0, 1)), (0, 0), 8 * s)
        part = canvas[y0:y1, x0:x1].astype(np.float32) * (1 - 0.45 * shadow[..., None] / 255)
        shade = (0.85 + 0.15 * _fbm(rng, *m.shape))[..., None]
        al = cv2.GaussianBlur(m, (0, 0), 1.0).astype(np.float32)[..., None] / 255
        part = part * (1 - al) + skin * shade * al
        out = canvas.copy()
        out[y0:y1, x0:x1] = part.clip(0, 255).astype(np.uint8)
        return out, mask

    def _occluded(self, mask: np.ndarray, tokens=()) -> set:
        """Regions the hand covers: it hides part (15 %) of a token lying there, or an area where a token could
        lie unseen (half a token's area). An arm grazing a region's edge does not cover it."""
        g = self.geometry
        if not hasattr(self, "_areas"):
            self._areas = {}
            for rid, poly in g.regions.items():
                rm = np.zeros(mask.shape, np.uint8)
                cv2.fillPoly(rm, [np.round(self.canvas_px(poly)).astype(np.int32)], 255)
                self._areas[rid] = np.count_nonzero(rm)
        ys, xs = np.nonzero(mask)
        y0, x0 = ys.min(), xs.min()
        m = mask[y0:ys.max() + 1, x0:xs.max() + 1]
        out = set()
        for rid, poly in g.regions.items():
            rm = np.zeros_like(m)
            cv2.fillPoly(rm, [np.round(self.canvas_px(poly)).astype(np.int32)], 255, offset=(-int(x0), -int(y0)))
            inter = np.count_nonzero(rm & m)
            if inter > 0.5 * np.pi / 4 * (g.token_mm * self.s) ** 2:
                out.add(rid)
        for t in tokens:
            rid = next((rid for rid, poly in g.regions.items()
                        if cv2.pointPolygonTest(poly.astype(np.float32), (t.x, t.y), False) >= 0), None)
            if rid is None or rid in out:
                continue
            c = self.canvas_px(np.array([t.x, t.y]))
            r = g.token_mm * self.designs[t.label].size * self.s * 0.43
            disc = np.zeros_like(m)
            cv2.circle(disc, (int(c[0] - x0), int(c[1] - y0)), int(r), 255, -1)
            if np.count_nonzero(disc & m) > 0.15 * np.pi * r * r:
                out.add(rid)
        return out

    # ----- the picture ------------------------------------------------------------------------
    def render(self, tokens: list | None = None, hand: np.ndarray | None = None,
               rng: np.random.Generator | None = None, play: bool = False) -> tuple[np.ndarray, set]:
        """The camera frame (BGR uint8) of the board with tokens (and a hand); also the occluded regions.
        ``play``: under the lamp of the game (``Realism.relight``), not the lamp of calibration."""
        rng = rng or self.rng
        canvas = self._canvas.copy()
        for t in tokens or ():
            self._paste(canvas, t)
        occluded = set()
        if hand is not None:
            canvas, mask = self._draw_hand(canvas, hand, rng)
            occluded = self._occluded(mask, tokens or ())
        img = cv2.remap(canvas, *self._map, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        r = self.realism
        light = self._play_light if play and self._play_light is not None else self._light
        img = img.astype(np.float32) * light * rng.uniform(0.98, 1.02) + self._glare
        if r.blur > 0:
            img = cv2.GaussianBlur(img, (0, 0), r.blur * rng.uniform(0.8, 1.2))
        img += rng.standard_normal(img.shape[:2] + (1,), dtype=np.float32) * (r.noise * 0.7)
        img += rng.standard_normal(img.shape, dtype=np.float32) * (r.noise * 0.5)
        return img.clip(0, 255).astype(np.uint8), occluded

    def empty(self) -> np.ndarray:
        return self.render([], None)[0]

    def frame(self, state: dict, hand: bool = False, rng: np.random.Generator | None = None):
        """Render a board state; returns (image, Truth)."""
        rng = rng or self.rng
        tokens, visible = self.place(state, rng)
        h = self.hand(rng) if hand else None
        img, occluded = self.render(tokens, h, rng, play=True)
        regions = {rid: visible.get(rid, {}) for rid in self.geometry.region_ids}
        return img, Truth(regions, occluded, self.homography.copy())


def random_state(geometry: Geometry, rng: np.random.Generator, fill: float = 0.6) -> dict:
    """A plausible mid-game board: some races (active and in decline), lost tribes, and special pieces."""
    import maps
    try:
        terrain = {r.id: r.terrain for r in maps.load(geometry.map)}
    except ValueError:
        terrain = {}
    races = [str(x) for x in rng.choice(RACES, size=4, replace=False)]
    kinds = [races[0], races[1], f"{races[2]}-decline", f"{races[3]}-decline", "lost-tribe"]
    state = {}
    for rid in geometry.region_ids:
        counts: dict[str, int] = {}
        if terrain.get(rid) == "mountain":
            counts["mountain"] = 1
        if terrain.get(rid) not in ("sea", "lake") and rng.random() < fill:
            kind = kinds[int(rng.integers(len(kinds)))]
            counts[kind] = int(rng.integers(1, 4))
            if rng.random() < 0.12:
                piece = PIECES[int(rng.integers(len(PIECES)))]
                if piece not in ("mountain", "lost-tribe"):
                    counts[piece] = 1
        state[rid] = counts
    return state


def enrollment_samples(design_seed: int, per_label: int = 4, seed: int = 0,
                       style: str = "plain", printing: dict | None = None) -> dict[str, list[np.ndarray]]:
    """Photos of single tokens on a plain background, under varied light, as a user would take them;
    ``style``: the printing (``designs.STYLES``); ``printing``: the designs by label instead (another art)."""
    rng = np.random.default_rng(seed + 7919 * design_seed)
    out = {}
    for label, design in (printing or designs(design_seed, style)).items():
        imgs = []
        for _ in range(per_label):
            side = int(rng.integers(40, 80))
            img, alpha = sprite(design, side)
            n = int(side * rng.uniform(1.6, 2.2))
            bg = np.array(rng.uniform(150, 240, 3)) * rng.uniform(0.9, 1.0)
            canvas = np.ones((n, n, 3), np.float32) * bg + _fbm(rng, n, n, (4, 16))[..., None] * 6
            M = cv2.getRotationMatrix2D((side / 2, side / 2), float(rng.uniform(-180, 180)), 1.0)
            M[:, 2] += (n - side) / 2 + rng.uniform(-2, 2, 2)
            im = cv2.warpAffine(img, M, (n, n)).astype(np.float32)
            al = cv2.warpAffine(alpha, M, (n, n))[..., None]
            shadow = np.roll(cv2.GaussianBlur(al, (0, 0), side * 0.04), (2, 2), (0, 1)).reshape(n, n, 1)
            canvas = canvas * (1 - 0.3 * shadow)
            canvas = canvas * (1 - al) + im * al
            canvas *= rng.uniform(0.75, 1.15) * (1 + rng.uniform(-0.05, 0.05, 3))
            canvas = cv2.GaussianBlur(canvas, (0, 0), rng.uniform(0.3, 1.0))
            canvas += rng.normal(0, 2.5, canvas.shape)
            imgs.append(canvas.clip(0, 255).astype(np.uint8))
        out[label] = imgs
    return out
