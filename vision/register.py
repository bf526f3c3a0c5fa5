"""Registration: find the four board markers in a frame and compute the board→image homography."""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .errors import RegistrationError
from .geometry import Geometry
from .markers import detector
from .settings import Settings


@dataclass(frozen=True)
class Registration:
    """Where the board is in a frame: ``homography`` maps board mm to image px.

    ``stale`` means the markers could not be confirmed in this frame and the last good homography
    is kept; ``reason`` says why in one line (empty when all is well).
    """

    homography: np.ndarray
    corners: dict          # marker id -> (4, 2) image corners seen (or predicted)
    found: tuple[int, ...]
    error_px: float
    stale: bool = False
    reason: str = ""
    method: str = "search"


_DETECTORS: dict = {}


def _detector(min_perimeter_rate: float = 0.02):
    """Detectors are cached; a re-check window holds one large marker, so it uses a high minimum."""
    if min_perimeter_rate not in _DETECTORS:
        _DETECTORS[min_perimeter_rate] = detector(min_perimeter_rate, large=min_perimeter_rate >= 0.3)
    return _DETECTORS[min_perimeter_rate]


def _gray(image: np.ndarray) -> np.ndarray:
    if image is None or image.size == 0:
        raise RegistrationError("empty image")
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image


def _detect(gray: np.ndarray, wanted: set[int], min_perimeter_rate: float = 0.02) -> dict[int, np.ndarray]:
    corners, ids, _ = _detector(min_perimeter_rate).detectMarkers(gray)
    out = {}
    if ids is not None:
        for c, i in zip(corners, ids.ravel()):
            if int(i) in wanted and int(i) not in out:
                out[int(i)] = c.reshape(4, 2).astype(np.float64)
    return out


def _search(settings: Settings, gray: np.ndarray, wanted: set[int]) -> dict[int, np.ndarray]:
    s = settings.detect_scale
    small = cv2.resize(gray, None, fx=s, fy=s, interpolation=cv2.INTER_AREA) if s < 1 else gray
    found = _detect(small, wanted)
    if s < 1 and len(found) < len(wanted):
        # Small markers (a low-resolution camera or a high mount) need the full frame.
        full = _detect(gray, wanted)
        if len(full) > len(found):
            return full
    if s < 1 and found:
        pts = np.concatenate([c / s for c in found.values()]).astype(np.float32)
        crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05)
        pts = cv2.cornerSubPix(gray, pts.reshape(-1, 1, 2), (5, 5), (-1, -1), crit).reshape(-1, 4, 2)
        found = {k: p.astype(np.float64) for k, p in zip(found, pts)}
    return found


def _recheck(settings: Settings, image: np.ndarray, prior: Registration) -> dict[int, np.ndarray]:
    """The markers found again in a window around where each was (only the windows are made grey)."""
    found = {}
    h, w = image.shape[:2]
    for mid, c in prior.corners.items():
        side = np.linalg.norm(c[0] - c[2]) / 1.414
        pad = side * settings.roi_scale
        x0, y0 = np.maximum(c.min(0) - pad, 0).astype(int)
        x1, y1 = np.minimum(c.max(0) + pad, [w, h]).astype(int)
        if x1 - x0 < 8 or y1 - y0 < 8:
            continue
        got = _detect(np.ascontiguousarray(_gray(image[y0:y1, x0:x1])), {mid}, 0.3)
        if mid in got:
            found[mid] = got[mid] + [x0, y0]
    return found


def _fit(geometry: Geometry, found: dict[int, np.ndarray]) -> tuple[np.ndarray, float]:
    src = np.concatenate([geometry.marker(i).corners() for i in sorted(found)])
    dst = np.concatenate([found[i] for i in sorted(found)])
    H, _ = cv2.findHomography(src, dst, 0)
    if H is None or abs(np.linalg.det(H)) < 1e-12:
        raise RegistrationError("markers give a degenerate homography")
    err = np.linalg.norm(cv2.perspectiveTransform(src[None], H)[0] - dst, axis=1).mean()
    return H, float(err)


def predicted_corners(geometry: Geometry, homography: np.ndarray) -> dict[int, np.ndarray]:
    """Where each marker's corners should appear in the image under a homography."""
    return {m.id: cv2.perspectiveTransform(m.corners()[None], homography)[0] for m in geometry.markers}


def register(settings: Settings, geometry: Geometry, image: np.ndarray,
             prior: Registration | None = None) -> Registration:
    """Register the board in ``image``; with a ``prior`` only the known marker places are re-checked first.

    Raises RegistrationError (one line) when fewer than three markers are found and there is no prior.
    """
    if image is None or image.size == 0:
        raise RegistrationError("empty image")
    wanted = {m.id for m in geometry.markers}
    method = "search"
    found = {}
    if prior is not None:
        found = _recheck(settings, image, prior)
        method = "recheck"
        expected = predicted_corners(geometry, prior.homography)
        unmoved = len(found) >= 2 and all(np.abs(found[i] - expected[i]).max() <= settings.moved_px
                                          for i in found)
        if len(found) < 4 and not unmoved:  # covered markers need no search while the rest stay put
            more = _search(settings, _gray(image), wanted - set(found))
            found.update(more)
            if more:
                method = "search"
    else:
        found = _search(settings, _gray(image), wanted)
    missing = sorted(wanted - set(found))
    if prior is not None:
        expected = predicted_corners(geometry, prior.homography)
        moved = [i for i in found if np.abs(found[i] - expected[i]).max() > settings.moved_px]
        # Steady: each marker is where it was last seen, on average over its corners (a corner alone
        # jitters by a pixel in a noisy, blurred frame, and a lens's distortion keeps some corners a
        # pixel off any homography: neither is the camera moving).
        steady = all(np.linalg.norm((found[i] - prior.corners[i]).mean(0)) <= settings.steady_px for i in found)
        if len(found) == 4 and steady:
            # Same pose as before: keep the very same homography, so rectified frames line up with
            # the reference to the pixel (no jitter from re-fitting).
            return Registration(prior.homography, prior.corners, (0, 1, 2, 3), prior.error_px, False, "", method)
        if not moved and 2 <= len(found) < 4:
            # The camera has not moved; the hidden markers are simply covered.
            return Registration(prior.homography, prior.corners, tuple(sorted(found)), prior.error_px, False,
                                f"marker{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))} hidden; "
                                "camera has not moved", method)
        if len(found) < 3:
            why = (f"markers {', '.join(map(str, missing))} not found" if missing else "markers moved")
            return Registration(prior.homography, prior.corners, tuple(sorted(found)), prior.error_px, True,
                                f"{why}; keeping the last good registration", method)
    if len(found) < 3:
        seen = ", ".join(map(str, sorted(found))) or "none"
        raise RegistrationError(f"cannot register the board: need 3 of markers 0-3, found {seen}")
    H, err = _fit(geometry, found)
    if err > settings.max_reprojection_px:
        if prior is not None:
            return Registration(prior.homography, prior.corners, tuple(sorted(found)), prior.error_px, True,
                                f"markers disagree by {err:.1f} px; keeping the last good registration", method)
        raise RegistrationError(f"cannot register the board: markers disagree by {err:.1f} px "
                                "(is a marker sheet misplaced?)")
    corners = predicted_corners(geometry, H)
    corners.update(found)
    reason = f"marker {', '.join(map(str, missing))} hidden" if missing else ""
    return Registration(H, corners, tuple(sorted(found)), err, False, reason, method)


def rectifying_transform(registration: Registration, raster) -> np.ndarray:
    """The image→rectified-pixel homography for a raster of the geometry."""
    return raster.mm_to_px @ np.linalg.inv(registration.homography)


def rectify(settings: Settings, image: np.ndarray, registration: Registration, raster) -> np.ndarray:
    """The board seen from straight above, at the raster's scale (``settings.px_per_mm``).

    The camera rarely moves: once a pose has been seen twice, its sampling maps are kept, and each frame
    is only their ``remap`` (half the time of ``warpPerspective``, the very same pixels)."""
    M = rectifying_transform(registration, raster)
    maps = _warp_maps(M, raster.size)
    if maps is None:
        return cv2.warpPerspective(image, M, raster.size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return cv2.remap(image, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


_MAPS: dict = {}   # (M, size) -> None (seen once) or the maps
_INTER_BITS = 5    # OpenCV's fixed point for bilinear sampling: 1/32 px (INTER_BITS in imgproc)


def forget_poses() -> None:
    """Drop the kept rectification maps: the next frames cost what they cost after the camera moved."""
    _MAPS.clear()


def _warp_maps(M: np.ndarray, size: tuple[int, int]):
    """``warpPerspective``'s own maps for ``M`` (image -> output), or None the first time ``M`` is seen.

    They are computed as OpenCV does inside ``warpPerspective`` (the inverse by LU, each source point in
    double, rounded to 1/32 px; integer part and the interpolation table's index), so ``remap`` with them
    gives the same pixels bit for bit (checked by tests/vision/test_register.py on this OpenCV)."""
    key = (np.asarray(M, np.float64).tobytes(), tuple(size))
    if key not in _MAPS:
        if len(_MAPS) >= 4:   # a camera that moves: forget the old poses
            _MAPS.clear()
        _MAPS[key] = None
        return None
    if _MAPS[key] is None:
        w, h = size
        inv = cv2.invert(np.asarray(M, np.float64), flags=cv2.DECOMP_LU)[1]
        xs, ys = np.arange(w, dtype=np.float64)[None, :], np.arange(h, dtype=np.float64)[:, None]
        den = inv[2, 0] * xs + (inv[2, 1] * ys + inv[2, 2])
        den = np.divide(1 << _INTER_BITS, den, out=np.zeros_like(den), where=den != 0)
        fixed = []
        for row in inv[:2]:
            v = (row[0] * xs + (row[1] * ys + row[2])) * den
            fixed.append(np.rint(np.clip(v, -2.0 ** 31, 2.0 ** 31 - 1)).astype(np.int32))
        x, y = fixed
        whole = np.stack([x >> _INTER_BITS, y >> _INTER_BITS], 2).clip(-32768, 32767).astype(np.int16)
        mask = (1 << _INTER_BITS) - 1
        _MAPS[key] = (whole, ((y & mask) << _INTER_BITS | (x & mask)).astype(np.uint16))
    return _MAPS[key]
