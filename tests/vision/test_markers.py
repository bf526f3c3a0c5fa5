import re

import cv2

from vision import markers


def test_sheet_png_has_four_detectable_markers(tmp_path):
    png, pdf = markers.write_sheet(tmp_path, 36, dpi=100)
    img = cv2.imread(str(png), cv2.IMREAD_GRAYSCALE)
    assert img is not None
    _, ids, _ = markers.detector().detectMarkers(img)
    assert sorted(ids.ravel().tolist()) == [0, 1, 2, 3]


def test_sheet_pdf_is_a4(tmp_path):
    _, pdf = markers.write_sheet(tmp_path, 36, dpi=60)
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF")
    box = re.search(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", data)
    assert abs(float(box.group(1)) - 595.28) < 0.5 and abs(float(box.group(2)) - 841.89) < 0.5
    assert data.rstrip().endswith(b"%%EOF")


def test_markers_are_true_size():
    page = markers.sheet(40, dpi=254)  # 10 px per mm
    _, ids, _ = markers.detector().detectMarkers(page)
    corners, _, _ = markers.detector().detectMarkers(page)
    side = cv2.norm(corners[0][0][0] - corners[0][0][1])
    assert abs(side - 400) < 6
