"""Registration markers: the ArUco dictionary, detection, and the printable marker sheet (PNG and PDF)."""
from __future__ import annotations

import zlib
from pathlib import Path

import cv2
import numpy as np

from . import cvcompat
from .errors import VisionError

DICTIONARY = cv2.aruco.DICT_4X4_50
A4_MM = (210.0, 297.0)


def dictionary():
    return cvcompat.dictionary(DICTIONARY)


def detector(min_perimeter_rate: float = 0.01, large: bool = False):
    """An ArUco detector for the board markers; small markers are allowed (low minimum perimeter).

    ``large``: the marker fills much of the image (a re-check window), so only wide thresholding
    windows are tried, which ignores sensor noise and is several times faster.
    """
    params = cvcompat.detector_parameters()
    params.minMarkerPerimeterRate = min_perimeter_rate
    if large:
        params.adaptiveThreshWinSizeMin, params.adaptiveThreshWinSizeMax = 23, 43
        params.adaptiveThreshWinSizeStep = 20
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cvcompat.aruco_detector(dictionary(), params)


def marker_image(marker_id: int, side_px: int) -> np.ndarray:
    """The black-and-white marker, ``side_px`` square, without quiet zone."""
    return cvcompat.marker_image(dictionary(), marker_id, side_px)


MAX_MARKER_MM = 60  # four markers and their quiet zones on one A4 page


def sheet(marker_mm: float, dpi: int = 200, page_mm: tuple[float, float] = A4_MM) -> np.ndarray:
    """A page (grey image) with markers 0–3 at true size, each labelled with the board corner it goes to."""
    px = dpi / 25.4
    w, h = int(round(page_mm[0] * px)), int(round(page_mm[1] * px))
    page = np.full((h, w), 255, np.uint8)
    side = int(round(marker_mm * px))
    if not 6 <= side or side * 5 / 3 > min(w / 2, h / 2):
        raise VisionError(f"a {marker_mm:g} mm marker at {dpi} dpi does not fit four to a page "
                          f"(from 5 to {MAX_MARKER_MM} mm)")
    names = ("0: top-left", "1: top-right", "2: bottom-right", "3: bottom-left")
    for i in range(4):
        cx = int(w * (0.25 + 0.5 * (i % 2)))
        cy = int(h * (0.25 + 0.5 * (i // 2)))
        x0, y0 = cx - side // 2, cy - side // 2
        page[y0:y0 + side, x0:x0 + side] = marker_image(i, side)
        q = side // 3  # cut line with a quiet zone around the marker
        cv2.rectangle(page, (x0 - q, y0 - q), (x0 + side + q, y0 + side + q), 160, 1)
        cv2.putText(page, f"marker {names[i]}  ({marker_mm:g} mm)", (x0 - q, y0 + side + q + int(6 * px)),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.9 * dpi / 200, 0, max(1, dpi // 150), cv2.LINE_AA)
    return page


def pdf_bytes(page: np.ndarray, page_mm: tuple[float, float] = A4_MM) -> bytes:
    """A one-page PDF showing a grey image over the whole page of the given size."""
    h, w = page.shape[:2]
    pw, ph = page_mm[0] / 25.4 * 72, page_mm[1] / 25.4 * 72
    data = zlib.compress(np.ascontiguousarray(page).tobytes(), 6)
    content = f"q {pw:.2f} 0 0 {ph:.2f} 0 0 cm /Im0 Do Q".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {pw:.2f} {ph:.2f}] "
         f"/Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>").encode(),
        (f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceGray "
         f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(data)} >>\nstream\n").encode() + data
        + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, obj in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + obj + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def write_sheet(out_dir: str | Path, marker_mm: float, dpi: int = 200) -> tuple[Path, Path]:
    """Write markers.png and markers.pdf (A4, true scale) into ``out_dir``; returns both paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    page = sheet(marker_mm, dpi)
    png, pdf = out / "markers.png", out / "markers.pdf"
    cv2.imwrite(str(png), page)
    pdf.write_bytes(pdf_bytes(page))
    return png, pdf
