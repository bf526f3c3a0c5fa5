"""What changed on the margin around the map is no piece."""
import cv2
import numpy as np
import pytest

from vision.detect import detect
from vision.register import rectify


@pytest.fixture(scope="module")
def board(settings, clean_session, clean_calibration):
    ref = clean_calibration.reference
    return ref, rectify(settings, clean_session.empty(), clean_calibration.registration, ref.raster)


def _token_radius(ref) -> int:
    return int(round(ref.raster.geometry.token_mm * ref.raster.px_per_mm / 2))


def _edge_point(ref):
    """A point on the top edge of the map, half way along (down is into the board)."""
    labels = ref.raster.labels
    x = labels.shape[1] // 2
    y = int(np.nonzero(labels[:, x] >= 0)[0][0])  # the first row on a region
    return x, y


@pytest.mark.parametrize("inward, expected", [(-0.6, 0), (0.6, 1)])
def test_a_change_on_the_margin_is_no_piece_a_token_at_the_edge_is(settings, board, inward, expected):
    """A token-sized change mostly on the margin beyond the map (the board's edge, the table, a player's supply under
    the lamp at play) is not a piece of the nearest region; a token lying mostly on its region at the edge is."""
    ref, rect = board
    x, y = _edge_point(ref)
    r = _token_radius(ref)
    frame = rect.copy()
    cv2.circle(frame, (x, int(round(y + inward * r))), r, (40, 40, 200), -1)
    det = detect(settings, ref, frame)
    assert len(det.blobs) == expected, [(b.region, b.bbox) for b in det.blobs]
