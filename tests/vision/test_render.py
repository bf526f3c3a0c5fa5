import cv2
import numpy as np
import pytest

from vision.labels import RACES
from vision.render import Session, designs, random_state
from vision.render.designs import sprite

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


def _emblem_ink(design, side=48):
    """The emblem of a grey in-decline side as a mask (ink darker than halfway to the face), centred on its ink."""
    img, alpha = sprite(design, side)
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    inside = cv2.erode((alpha > 0.99).astype(np.uint8), np.ones((7, 7), np.uint8)) > 0
    ink = ((grey < (np.mean(design.base) + np.mean(design.accent)) / 2) & inside).astype(np.float32)
    ys, xs = np.nonzero(ink)
    return cv2.warpAffine(ink, np.float32([[1, 0, side / 2 - xs.mean()], [0, 1, side / 2 - ys.mean()]]), (side, side))


def _alike(a, b):
    """How much two emblems overlap at the turn that matches them best (1: the same shape)."""
    centre = (a.shape[1] / 2, a.shape[0] / 2)
    return max(float(np.minimum(a, t).sum() / np.maximum(a, t).sum())
               for t in (cv2.warpAffine(b, cv2.getRotationMatrix2D(centre, turn, 1), a.shape[::-1])
                         for turn in range(0, 360, 6)))


@pytest.mark.parametrize("design_seed", [100, 101, 102])
def test_each_race_of_a_foreign_printing_has_its_own_emblem(design_seed):
    """A real printing gives every race its own emblem: the grey in-decline sides, alike but for it, are told
    apart by an eye whatever their turn (no two overlap as much as the star polygons of 3-7 points that made
    twins, 0.8-0.9); a race's active side bears its in-decline side's emblem."""
    printing = designs(design_seed, "foreign")
    sides = [printing[f"{race}-decline"] for race in RACES]
    for race, side in zip(RACES, sides):
        assert printing[race].emblem == side.emblem
        assert (side.base, side.accent, side.edge, side.shape) == (sides[0].base, sides[0].accent, sides[0].edge,
                                                                   sides[0].shape)
    inks = [_emblem_ink(side) for side in sides]
    worst = max((_alike(inks[i], inks[j]), RACES[i], RACES[j]) for i in range(len(inks)) for j in range(i))
    assert worst[0] < 0.8, worst
    assert designs(design_seed + 1, "foreign")["elves"].emblem != printing["elves"].emblem
