"""The OpenCV compatibility layer: the same markers and corners on OpenCV 4.6 (Debian bookworm) and newer.

These run on whichever OpenCV the interpreter has; `.ci/run` runs them on the pip wheels and again
on Debian's python3-opencv 4.6.
"""
import cv2
import numpy as np
import pytest

from vision import cvcompat, markers


def scene(side: int, quiet: int, scale: int = 8):
    """A printed marker (dark ink on white paper, ``quiet`` px of paper around it) on a mid-grey board,
    drawn large and shrunk so its edges are soft like a camera's; the true corners."""
    img = np.full((200 * scale, 200 * scale), 90, np.uint8)
    x0 = 60 * scale
    paper = slice(x0 - quiet * scale, x0 + (side + quiet) * scale)
    img[paper, paper] = 235
    ink = markers.marker_image(0, side * scale) // 255 * 215 + 20
    img[x0:x0 + side * scale, x0:x0 + side * scale] = ink
    small = cv2.GaussianBlur(cv2.resize(img, (200, 200), interpolation=cv2.INTER_AREA), (0, 0), 0.8)
    c = 60 - 0.5
    return small, np.array([[c, c], [c + side, c], [c + side, c + side], [c, c + side]])


def test_the_marker_image_is_the_dictionary_s_bits():
    img = markers.marker_image(7, 60)
    assert img.shape == (60, 60) and img.dtype == np.uint8 and set(np.unique(img)) == {0, 255}
    assert (img[:10] == 0).all() and (img[:, :10] == 0).all()  # the black border: one cell of 6
    page = np.full((200, 200), 255, np.uint8)
    page[70:130, 70:130] = img
    _, ids, _ = markers.detector().detectMarkers(page)
    assert ids is not None and ids.ravel().tolist() == [7]


def test_detector_parameters_are_fresh_and_settable():
    a, b = cvcompat.detector_parameters(), cvcompat.detector_parameters()
    a.minMarkerPerimeterRate = 0.2
    assert b.minMarkerPerimeterRate != pytest.approx(0.2)


@pytest.mark.parametrize("side, quiet", [(16, 3), (20, 5), (25, 5), (40, 5)])
def test_small_marker_corners_stay_on_the_marker(side, quiet):
    """OpenCV 4.6 refines corners in a fixed 11 px window, which pulls a corner of a small marker
    onto the edge of its paper (4 px off here); the layer bounds the window by the marker's cells."""
    img, truth = scene(side, quiet)
    corners, ids, _ = markers.detector().detectMarkers(img)
    assert ids is not None and ids.ravel().tolist() == [0]
    assert np.abs(corners[0].reshape(4, 2) - truth).max() < 1.0


def test_colour_frames_are_accepted():
    img, truth = scene(25, 5)
    corners, ids, _ = markers.detector().detectMarkers(cv2.cvtColor(img, cv2.COLOR_GRAY2BGR))
    assert ids is not None and np.abs(corners[0].reshape(4, 2) - truth).max() < 1.0
