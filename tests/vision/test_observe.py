import numpy as np
import pytest

from vision.observe import Calibration, Observation, Observer, RegionView, observe
from vision.render import Session, random_state

from .conftest import DESIGN, region_accuracy, small


def test_counts_right_on_a_clean_board(settings, geometry2p, clean_session, clean_calibration, model):
    right = total = 0
    prior = None
    for k in range(3):
        img, truth = clean_session.frame(random_state(geometry2p, np.random.default_rng(k)))
        obs, prior = observe(settings, clean_calibration, model, img, prior)
        assert obs.registered
        # Counting alone (whatever the labels) is exact on a clean board.
        for rid, tokens in truth.regions.items():
            assert sum(obs.regions[rid].tokens.values()) == sum(tokens.values()), rid
        r, t = region_accuracy(truth, obs)
        right, total = right + r, total + t
    assert right / total >= 0.97


@pytest.mark.slow
def test_accuracy_at_moderate_realism(settings, geometry2p, model):
    """Enroll one printing's samples, observe boards of that printing under realistic conditions."""
    right = total = 0
    for seed in (21, 22):
        session = Session(geometry2p, seed, DESIGN, small("realistic"))
        cal = Calibration.build(settings, geometry2p, session.empty())
        prior = None
        for k in range(3):
            img, truth = session.frame(random_state(geometry2p, np.random.default_rng(seed * 10 + k)))
            obs, prior = observe(settings, cal, model, img, prior)
            r, t = region_accuracy(truth, obs)
            right, total = right + r, total + t
    assert right / total >= 0.95, f"{right}/{total} regions right"


def test_hand_occludes_regions(settings, geometry2p, clean_session, clean_calibration, model):
    img, truth = clean_session.frame(random_state(geometry2p, np.random.default_rng(7)), hand=True,
                                     rng=np.random.default_rng(7))
    obs, _ = observe(settings, clean_calibration, model, img)
    flagged = {rid for rid, v in obs.regions.items() if v.occluded}
    assert truth.occluded, "the rendered hand covers some regions"
    assert len(flagged & truth.occluded) >= 0.8 * len(truth.occluded)
    assert len(flagged - truth.occluded) <= 2
    assert all(not obs.regions[rid].tokens for rid in flagged)


def test_unregistered_frame_says_why(settings, clean_calibration, model):
    obs, _ = observe(settings, clean_calibration, model, np.full((720, 1280, 3), 80, np.uint8),
                     prior=None)
    # The calibration's registration serves as the prior: markers hidden, last good homography kept.
    assert obs.stale or not obs.registered
    assert obs.reason and "\n" not in obs.reason


def test_observation_json_round_trip():
    obs = Observation(True, {1: RegionView({"elves": 2}, False, 0.9), 2: RegionView({}, True, 0.0)}, "", False)
    again = Observation.from_json(obs.to_json())
    assert again == obs


def test_observer_waits_for_stillness(settings, geometry2p, clean_session, clean_calibration, model):
    observer = Observer(settings, clean_calibration, model)
    img, truth = clean_session.frame(random_state(geometry2p, np.random.default_rng(8)))
    moving, _ = clean_session.frame(random_state(geometry2p, np.random.default_rng(9)))
    assert observer.feed(moving, 0.0) is None
    assert observer.feed(img, 0.1) is None
    assert observer.feed(img, 0.2) is None          # still since 0.2
    assert observer.feed(img, 0.5) is None          # not yet still_seconds
    obs = observer.feed(img, 0.21 + settings.still_seconds)
    assert obs is not None and obs.registered
    assert observer.feed(img, 2.0) is None          # one observation per still period
