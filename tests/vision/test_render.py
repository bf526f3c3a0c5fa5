import numpy as np

from vision.render import Session, designs, random_state

from .conftest import DESIGN, small


def test_rendering_is_deterministic(geometry2p):
    state = random_state(geometry2p, np.random.default_rng(3))
    a = Session(geometry2p, 7, DESIGN, small("realistic")).frame(state, rng=np.random.default_rng(1))
    b = Session(geometry2p, 7, DESIGN, small("realistic")).frame(state, rng=np.random.default_rng(1))
    assert np.array_equal(a[0], b[0]) and a[1].regions == b[1].regions
    assert a[0].shape == (720, 1280, 3)


def test_truth_counts_only_what_was_placed(clean_session, geometry2p):
    state = random_state(geometry2p, np.random.default_rng(4))
    tokens, visible = clean_session.place(state, np.random.default_rng(4))
    tops = sum(sum(v.values()) for v in visible.values())
    assert 0 < tops <= len(tokens) <= sum(sum(v.values()) for v in state.values())


def test_design_seed_changes_the_printing():
    a, b = designs(1), designs(2)
    assert a["elves"] != b["elves"]
    assert designs(1)["elves"] == a["elves"]
    assert a["elves"].glyph == a["elves-decline"].glyph  # a race and its decline side share motifs
