import cv2
import numpy as np

from vision.detect import _pieces, detect
from vision.observe import Calibration, observe
from vision.register import rectify
from vision.render import Session, random_state

from .conftest import DESIGN, region_accuracy, small


def test_empty_board_shows_nothing(settings, clean_session, clean_calibration):
    img = clean_session.empty()
    ref = clean_calibration.reference
    det = detect(settings, ref, rectify(settings, img, clean_calibration.registration, ref.raster))
    assert det.blobs == () and not det.occluded


def test_light_that_changed_since_calibration(settings, geometry2p, model):
    """Daylight moved after calibration: one side of the board is now 25 % darker, the other 25 % brighter."""
    session = Session(geometry2p, 31, DESIGN, small("clean"))
    cal = Calibration.build(settings, geometry2p, session.empty())
    h, w = session._light.shape[:2]
    session._light = session._light * np.linspace(0.75, 1.25, w, dtype=np.float32)[None, :, None]
    right = total = 0
    for k in range(2):
        img, truth = session.frame(random_state(geometry2p, np.random.default_rng(k)))
        obs, _ = observe(settings, cal, model, img)
        r, t = region_accuracy(truth, obs)
        right, total = right + r, total + t
    assert right / total >= 0.95, f"{right}/{total}"


def test_a_lamp_of_another_colour_at_play(settings, geometry2p, model):
    """The lamp at play casts 30 % more red and 25 % less blue than the one the board was calibrated under:
    the board around the tokens shows the cast, and the tokens are read as under the calibration lamp."""
    session = Session(geometry2p, 32, DESIGN, small("clean"))
    cal = Calibration.build(settings, geometry2p, session.empty())
    session._play_light = session._light * np.array([0.75, 1.0, 1.3], np.float32)
    right = total = 0
    for k in range(2):
        img, truth = session.frame(random_state(geometry2p, np.random.default_rng(10 + k)))
        obs, _ = observe(settings, cal, model, img)
        r, t = region_accuracy(truth, obs)
        right, total = right + r, total + t
    assert right / total >= 0.95, f"{right}/{total}"


def _discs(*circles, size=(80, 120)):
    m = np.zeros(size, np.uint8)
    for x, y, r in circles:
        cv2.circle(m, (x, y), r, 1, -1)
    return m


def test_touching_pieces_are_cut_where_they_meet(settings):
    token_area = np.pi * 13 ** 2
    # A Fortress (larger) against two race tokens: three pieces, not four.
    assert len(_pieces(settings, _discs((30, 40, 17), (60, 27, 13), (60, 53, 13)), token_area)) == 3
    # Two squares side by side along an edge (no neck): two pieces.
    sq = np.zeros((80, 120), np.uint8)
    cv2.rectangle(sq, (20, 25), (43, 48), 1, -1)
    cv2.rectangle(sq, (44, 25), (67, 48), 1, -1)
    assert len(_pieces(settings, sq, token_area)) == 2


def test_a_large_piece_and_an_offset_stack_stay_one(settings):
    token_area = np.pi * 13 ** 2
    assert len(_pieces(settings, _discs((50, 40, 23)), token_area)) == 1   # a Mountain, 1.7 tokens wide
    assert len(_pieces(settings, _discs((40, 40, 13), (47, 40, 13)), token_area)) == 1   # a stack, 5 mm apart


def test_the_same_frame_reads_the_same_every_time(settings, geometry2p, clean_session, clean_calibration, model):
    """No random draw anywhere: OpenCV's global generator changed between the readings changes nothing."""
    state = random_state(geometry2p, np.random.default_rng(21), fill=0.95)
    img, _ = clean_session.frame(state, rng=np.random.default_rng(21))
    cv2.setRNGSeed(1)
    a, _ = observe(settings, clean_calibration, model, img)
    cv2.setRNGSeed(12345)
    cv2.randu(np.zeros((4, 4), np.float32), 0, 1)
    b, _ = observe(settings, clean_calibration, model, img)
    assert a.to_dict() == b.to_dict()


def test_a_faint_large_piece_is_one_blob(settings):
    """A Mountain painted in its terrain's colour: only its cap and rim differ clearly; its body hides the
    board's texture. The fragments are one piece; two clear tokens far apart stay two."""
    from types import SimpleNamespace

    from vision.detect import _with_faint
    rng = np.random.default_rng(0)
    board = np.clip(130 + cv2.GaussianBlur(rng.normal(0, 40, (120, 160)), (0, 0), 1.5), 0, 255)
    board = np.repeat(board[..., None], 3, 2).astype(np.uint8)
    frame = board.copy()
    cv2.circle(frame, (50, 60), 22, (130, 130, 130), -1)          # the body: the board's mean colour
    cv2.circle(frame, (50, 50), 6, (240, 240, 240), -1)           # the snow cap
    cv2.ellipse(frame, (50, 60), (22, 22), 0, 20, 80, (60, 60, 60), 3)   # bits of the rim
    cv2.ellipse(frame, (50, 60), (22, 22), 0, 200, 250, (60, 60, 60), 3)
    cv2.circle(frame, (130, 30), 12, (40, 40, 200), -1)           # a race token, far away
    cv2.circle(frame, (130, 90), 12, (40, 200, 40), -1)           # and another
    half = cv2.resize(board, (80, 60), interpolation=cv2.INTER_AREA)
    ref = SimpleNamespace(half=half, half_scale=(half.astype(np.float32).mean(2) + 12.0) * 3)
    strong = (np.abs(frame.astype(int) - board.astype(int)).sum(2) > 60).astype(np.uint8)
    strong = cv2.morphologyEx(strong, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    before = cv2.connectedComponents(strong)[0] - 1
    out = _with_faint(settings, ref, cv2.blur(frame, (3, 3)), strong, np.pi * 13 ** 2)
    n, labels = cv2.connectedComponents(out)
    assert before >= 5 and n - 1 == 3
    assert labels[60, 50] > 0  # the body is inside the joined piece


def test_a_large_piece_with_a_notch_in_its_outline_stays_one_piece(settings):
    """A Mountain whose change mask has a notch (its rim barely differs from its terrain) is one piece: its
    width is its convex hull's, not the notched outline's."""
    blob = np.zeros((46, 46), np.uint8)
    cv2.circle(blob, (23, 23), 21, 1, -1)
    cv2.fillPoly(blob, [np.array([[0, 14], [16, 20], [16, 28], [0, 34]], np.int32)], 0)  # a notch on the left
    assert len(_pieces(settings, blob, 456.0)) == 1
