import numpy as np

from vision.detect import detect
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
