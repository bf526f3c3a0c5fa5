import numpy as np
import pytest

from vision.observe import Calibration, Observation, Observer, RegionView, mountain_regions, observe
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
    obs = Observation(True, {1: RegionView({"elves": 2}, False, 0.9), 2: RegionView({}, True, 0.0),
                             3: RegionView({"mountain": 1, "elves": 1}, False, 0.02, 0, {"mountain": 0.02, "elves": 0.8})},
                      "", False)
    again = Observation.from_json(obs.to_json())
    assert again == obs


def test_each_label_has_its_own_confidence(settings, geometry2p, clean_session, clean_calibration, model):
    """A region's confidence is the lowest of its pieces'; per label, the lowest of the pieces read as it,
    so the race tokens' reading has a confidence apart from a Mountain's beside them."""
    img, _ = clean_session.frame(random_state(geometry2p, np.random.default_rng(3)))
    obs, _ = observe(settings, clean_calibration, model, img)
    read = [v for v in obs.regions.values() if v.confidences]
    assert len(read) >= 5 and any(len(v.confidences) >= 2 for v in read)
    for v in obs.regions.values():
        assert set(v.confidences) <= set(v.tokens)
        if v.confidences:
            assert v.confidence == pytest.approx(min(v.confidences.values()))
            for label, c in v.confidences.items():
                assert v.confidence_of([label]) == c
    view = RegionView({"mountain": 1, "elves": 2}, False, 0.02, 0, {"mountain": 0.02, "elves": 0.8})
    assert view.confidence_of(["elves"]) == 0.8 and view.confidence_of(["elves", "mountain"]) == 0.02
    assert view.confidence_of(["ratmen"]) == 1.0  # not read there


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


def test_a_lone_in_decline_region_alike_a_race_in_decline_elsewhere_is_that_race(settings):
    """Rules: one race in decline a player, keeping a token on each region it held. An in-decline race read on
    one region only, nearly as near a race in decline read on two other regions, is that race; a clear reading
    and a race held on several regions keep their label."""
    from vision.classify import Classified, Model
    from vision.detect import Blob
    from vision.readings import _declined_in_frame

    labels = ("elves-decline", "orcs-decline", "ratmen-decline", "trolls")
    model = Model(labels, np.zeros((4, 1), np.float32), np.arange(4), np.ones(1, np.float32), np.ones((1, 1), np.float32))

    def blob(region):
        return Blob(region, (0.0, 0.0), 400, (0, 0, 20, 20), np.ones((20, 20), np.uint8))

    def read(rows):  # per region: (label read, squared distance to each label)
        blobs = [blob(rid) for rid, _, _ in rows]
        per_class = np.array([d for _, _, d in rows], np.float32)
        got = [lab for _, lab, _ in rows]
        result = Classified(tuple(got), np.ones(len(rows)), np.ones(len(rows)), per_class)
        return _declined_in_frame(settings, model, blobs, result, got)

    elves = [(1, "elves-decline", [1, 5, 5, 9]), (2, "elves-decline", [1, 5, 5, 9])]
    # A lone ratmen reading, the elves 1.5 times as far: the elves in decline, held on two other regions.
    assert read(elves + [(3, "ratmen-decline", [1.5, 4, 1, 9])])[-1] == "elves-decline"
    # Clearly ratmen (the elves 3 times as far): kept.
    assert read(elves + [(3, "ratmen-decline", [3, 4, 1, 9])])[-1] == "ratmen-decline"
    # Ratmen held on two regions: kept, whatever the elves' distance.
    two = read(elves + [(3, "ratmen-decline", [1.2, 4, 1, 9]), (4, "ratmen-decline", [1.2, 4, 1, 9])])
    assert two[-2:] == ["ratmen-decline", "ratmen-decline"]
    # An in-decline race held on one other region only is no evidence: kept.
    assert read(elves[:1] + [(3, "ratmen-decline", [1.2, 4, 1, 9])])[-1] == "ratmen-decline"
    # Active races are not in-decline sides: untouched.
    assert read(elves + [(3, "trolls", [1.1, 4, 4, 1])])[-1] == "trolls"


def _pieces_on(region: int, boxes):
    from types import SimpleNamespace
    return [SimpleNamespace(region=region, bbox=b, area=400) for b in boxes]


def test_a_mountain_whose_body_hardly_shows_is_not_a_race_token_too_many():
    """Issue 20: a Mountain on Mountain terrain shows only its cap and part of its rim; that fragment is
    smaller than a Mountain and is taken for the race beside it (2 Orcs and a Mountain read as 3 Orcs). It is
    far more like a Mountain than the region's other Orcs are: it is the Mountain. Orcs alike (a Mountain
    under the pile, out of sight) stay Orcs."""
    from types import SimpleNamespace

    from vision.readings import _mountains
    model = SimpleNamespace(labels=["mountain", "orcs", "elves"], areas=np.array([800.0, 270.0, 270.0], np.float32))
    region = next(iter(mountain_regions("2p")))
    # Distances to (mountain, orcs, elves): two clear Orcs, and a fragment only a little nearer Orcs than a Mountain.
    per_class = np.array([[3000.0, 40.0, 600.0], [2900.0, 30.0, 650.0], [900.0, 330.0, 700.0]], np.float32)
    blobs = _pieces_on(region, [(0, 0, 20, 20), (40, 0, 20, 20), (80, 40, 30, 30)])
    labels = _mountains(model, blobs, SimpleNamespace(per_class=per_class), ["orcs"] * 3, frozenset({region}), 1.5)
    assert labels == ["orcs", "orcs", "mountain"]
    alike = per_class.copy()
    alike[2] = [2500.0, 50.0, 640.0]
    labels = _mountains(model, blobs, SimpleNamespace(per_class=alike), ["orcs"] * 3, frozenset({region}), 1.5)
    assert labels == ["orcs"] * 3
    # Off the Mountain regions nothing of the kind happens.
    labels = _mountains(model, blobs, SimpleNamespace(per_class=per_class), ["orcs"] * 3, frozenset({region + 1}), 1.5)
    assert labels == ["orcs"] * 3


def test_a_bit_of_a_mountains_rim_beside_it_is_no_piece_of_its_own():
    """The Mountain's cap and rim came apart from a bit of its rim: the bit touches it, is nearly as like a
    Mountain as what it was taken for, and with it makes no more than a Mountain's size: part of it. A race
    token against the Mountain is a piece of its own."""
    from types import SimpleNamespace

    from vision.readings import _mountains
    model = SimpleNamespace(labels=["mountain", "amazons"], areas=np.array([800.0, 270.0], np.float32))
    region = next(iter(mountain_regions("2p")))
    mountains = frozenset({region})
    blobs = _pieces_on(region, [(0, 0, 30, 27), (8, 22, 19, 21)])
    blobs[0].area, blobs[1].area = 680, 250        # rectified px at 1.5 px/mm: 302 and 111 mm²
    bit = np.array([[290.0, 440.0], [770.0, 532.0]], np.float32)
    labels = _mountains(model, blobs, SimpleNamespace(per_class=bit), ["mountain", "amazons"], mountains, 1.5)
    assert labels == ["mountain", None]
    token = np.array([[290.0, 440.0], [3000.0, 40.0]], np.float32)
    labels = _mountains(model, blobs, SimpleNamespace(per_class=token), ["mountain", "amazons"], mountains, 1.5)
    assert labels == ["mountain", "amazons"]


def test_a_token_far_from_every_kind_does_not_outvote_one_that_reads_clearly(settings):
    """One occupant per region: a token read clearly (elves, the orcs four times as far) and a token cut short (far
    from every kind: orcs 60, elves 100) are one race: the clear one's, each token's distances weighed against its
    own nearest (summed as they are, the cut token's size of distance would make both orcs)."""
    from vision.classify import Classified, Model
    from vision.detect import Blob
    from vision.readings import _one_occupant

    labels = ("elves", "orcs", "trolls")
    model = Model(labels, np.zeros((3, 1), np.float32), np.arange(3), np.ones(1, np.float32), np.ones((1, 1), np.float32))
    blobs = [Blob(7, (0.0, 0.0), 400, (0, 0, 20, 20), np.ones((20, 20), np.uint8)) for _ in range(2)]
    per_class = np.array([[1, 4, 9], [100, 60, 300]], np.float32)
    result = Classified(("elves", "orcs"), np.ones(2), np.ones(2), per_class)
    assert _one_occupant(settings, model, blobs, result, ["elves", "orcs"]) == ["elves", "elves"]


def test_a_special_piece_read_beside_its_regions_race_nearly_as_near_is_that_race(settings):
    """Issue 20: a Lost Tribe token beside its kin read as a Hero (the Lost Tribe 1.19 times as far) is one more Lost
    Tribe token; a piece read clearly, or with no race beside it, or a Mountain, keeps its label."""
    from vision.classify import Classified, Model
    from vision.detect import Blob
    from vision.readings import _kin_not_piece

    labels = ("lost-tribe", "trolls", "hero", "mountain")
    model = Model(labels, np.zeros((4, 1), np.float32), np.arange(4), np.ones(1, np.float32), np.ones((1, 1), np.float32))

    def read(rows):  # (region, label read, squared distance to each label)
        blobs = [Blob(rid, (0.0, 0.0), 400, (0, 0, 20, 20), np.ones((20, 20), np.uint8)) for rid, _, _ in rows]
        per_class = np.array([d for _, _, d in rows], np.float32)
        got = [lab for _, lab, _ in rows]
        return _kin_not_piece(settings, model, blobs, Classified(tuple(got), np.ones(len(rows)), np.ones(len(rows)),
                                                                 per_class), got)

    kin = (5, "lost-tribe", [1, 6, 6, 9])
    assert read([kin, (5, "hero", [112, 130, 94, 300])])[-1] == "lost-tribe"
    # Clearly a Hero (the Lost Tribe twice as far): kept.
    assert read([kin, (5, "hero", [190, 230, 94, 300])])[-1] == "hero"
    # The race beside it is the region's (the token on another region says nothing here).
    assert read([kin, (6, "hero", [112, 130, 94, 300])])[-1] == "hero"
    # A Mountain is left to its own rule.
    assert read([kin, (5, "mountain", [10, 30, 30, 9])])[-1] == "mountain"
    # Two race tokens beside it: the race the region's tokens vote for.
    assert read([(5, "trolls", [6, 1, 6, 9]), (5, "trolls", [6, 1, 6, 9]),
                 (5, "hero", [100, 110, 94, 300])])[-1] == "trolls"


def test_a_mountains_fragments_read_as_grey_sides_are_the_mountain():
    """Issue 20: a Mountain whose cap and rim alone show (in a grey palette) is two fragments smaller than a token,
    each read as another grey in-decline side (no kin for each other). The Mountain's size made it far from them;
    by their look alone (that size taken off) they are nearest a Mountain: one Mountain. A token lying there that
    looks like its own kind (a Mountain under it, out of sight) stays itself."""
    from types import SimpleNamespace

    from vision.readings import _mountains
    model = SimpleNamespace(labels=["mountain", "elves-decline", "orcs-decline"],
                            areas=np.array([800.0, 270.0, 270.0], np.float32))
    region = next(iter(mountain_regions("2p")))
    blobs = _pieces_on(region, [(0, 0, 20, 20), (20, 0, 20, 20)])  # 400 px each: 178 mm², a Mountain 800 mm²
    # Distances (mountain, elves-decline, orcs-decline), the Mountain's with its size (7.8 times) in them.
    fragments = np.array([[850.0, 140.0, 150.0], [900.0, 160.0, 145.0]], np.float32)
    read = ["elves-decline", "orcs-decline"]
    got = _mountains(model, blobs, SimpleNamespace(per_class=fragments), list(read), frozenset({region}), 1.5,
                     size_weight=3.0)
    assert got == ["mountain", None]
    tokens = np.array([[2500.0, 40.0, 150.0], [2600.0, 160.0, 45.0]], np.float32)
    got = _mountains(model, blobs, SimpleNamespace(per_class=tokens), list(read), frozenset({region}), 1.5,
                     size_weight=3.0)
    assert got == read


def test_a_piece_of_a_mountains_size_that_looks_like_none_is_not_the_mountain():
    """Issue 20: a Hero beside a Mountain whose body hardly shows is the one piece of a Mountain's size on the
    region, but looks like no Mountain (fifteen times farther than a Hero); the smaller piece beside it, far more
    like a Mountain (mountain_kin_ratio, 5, times), is the Mountain, and the Hero stays a Hero. A piece of a
    Mountain's size that looks somewhat like one keeps being the Mountain."""
    from types import SimpleNamespace

    from vision.readings import _mountains
    model = SimpleNamespace(labels=["mountain", "hero", "lost-tribe"], areas=np.array([700.0, 380.0, 270.0], np.float32))
    region = next(iter(mountain_regions("2p")))
    blobs = _pieces_on(region, [(0, 0, 32, 35), (6, -31, 30, 32)])
    blobs[0].area, blobs[1].area = 853, 689     # rectified px at 1.5 px/mm: 379 and 306 mm²
    # Distances (mountain, hero, lost-tribe).
    seen = np.array([[1480.0, 100.0, 900.0], [140.0, 700.0, 120.0]], np.float32)
    got = _mountains(model, blobs, SimpleNamespace(per_class=seen), ["hero", "lost-tribe"], frozenset({region}), 1.5,
                     5.0, 1.5, 3.0)
    assert got == ["hero", "mountain"]
    alike = np.array([[300.0, 100.0, 900.0], [140.0, 700.0, 120.0]], np.float32)
    got = _mountains(model, blobs, SimpleNamespace(per_class=alike), ["hero", "lost-tribe"], frozenset({region}), 1.5,
                     5.0, 1.5, 3.0)
    assert got[0] == "mountain"


def test_a_fragment_counted_as_one_more_of_its_pile_is_the_mountain_before_a_fortress():
    """Issue 20: a Fortress beside two Lost Tribe tokens and a Mountain whose body hardly shows is the one piece of
    a Mountain's size there, and a Mountain is only twice as far as a Fortress from it; the Mountain's fragment, read
    as a grey side, was counted as a third Lost Tribe token by the one-race rule. With nothing read as a Mountain,
    that piece (its own look another kind than the label it was given, a Mountain at most
    ``mountain_fragment_ratio`` times farther than that look) is the Mountain; the Fortress stays a Fortress. Without
    the fragment ratio, or where its look is a Lost Tribe's too, the Fortress is taken as before."""
    from types import SimpleNamespace

    from vision.readings import _mountains
    model = SimpleNamespace(labels=["mountain", "fortress", "lost-tribe", "trolls-decline"],
                            areas=np.array([700.0, 380.0, 270.0, 270.0], np.float32))
    region = next(iter(mountain_regions("2p")))
    blobs = _pieces_on(region, [(0, 0, 40, 40), (60, 0, 20, 20), (90, 0, 20, 20), (120, 0, 20, 20)])
    blobs[0].area = 1000                        # 444 mm² at 1.5 px/mm: of a Mountain's size
    # Distances (mountain, fortress, lost-tribe, trolls-decline).
    rows = np.array([[200.0, 100.0, 900.0, 900.0], [1000.0, 900.0, 100.0, 900.0], [1000.0, 900.0, 100.0, 900.0],
                     [350.0, 900.0, 140.0, 100.0]], np.float32)
    read = ["fortress", "lost-tribe", "lost-tribe", "lost-tribe"]
    look = ["fortress", "lost-tribe", "lost-tribe", "trolls-decline"]

    def mountains(look, ratio=8.0):
        return _mountains(model, blobs, SimpleNamespace(per_class=rows, labels=look), list(read),
                          frozenset({region}), 1.5, fragment_ratio=ratio)

    assert mountains(look) == ["fortress", "lost-tribe", "lost-tribe", "mountain"]
    assert mountains(look, 0.0) == ["mountain", "lost-tribe", "lost-tribe", "lost-tribe"]
    assert mountains(read) == ["mountain", "lost-tribe", "lost-tribe", "lost-tribe"]
    assert mountains(look, 3.0) == ["mountain", "lost-tribe", "lost-tribe", "lost-tribe"]  # a Mountain 3.5 times


def test_a_mountain_of_its_size_and_the_token_the_one_race_rule_joined_to_it_are_not_one_pile():
    """Issue 20: a Mountain whose body shows (twice a token's area, nearer a Mountain than anything but a grey side)
    and an in-decline token beside it: the one-race rule gave both one race, so the token looked like "one more of
    its pile" and was taken for the Mountain's fragment, the Mountain for a race token. Its pile is other tokens than
    the piece of a Mountain's size: here none, so that piece is the Mountain and the token stays a token."""
    from types import SimpleNamespace

    from vision.readings import _mountains
    model = SimpleNamespace(labels=["mountain", "ratmen", "giants-decline", "halflings-decline"],
                            areas=np.array([700.0, 270.0, 270.0, 270.0], np.float32))
    region = next(iter(mountain_regions("2p")))
    blobs = _pieces_on(region, [(0, 0, 40, 40), (60, 0, 20, 20)])
    blobs[0].area = 860                         # 382 mm² at 1.5 px/mm: over half a Mountain's 700
    # Distances (mountain, ratmen, giants-decline, halflings-decline); the Mountain 1.75 and 5.7 times farther.
    rows = np.array([[175.0, 150.0, 100.0, 130.0], [570.0, 140.0, 150.0, 100.0]], np.float32)
    result = SimpleNamespace(per_class=rows, labels=["giants-decline", "halflings-decline"])
    got = _mountains(model, blobs, result, ["ratmen", "ratmen"], frozenset({region}), 1.5, fragment_ratio=8.0)
    assert got == ["mountain", "ratmen"]


def test_a_piece_of_a_mountains_size_that_looks_like_none_stays_itself_where_the_mountain_is_in_sight():
    """Issue 20: a Dragon beside a Mountain whose body did not change the picture is the one piece of a Mountain's
    size on the region, and was taken for the Mountain though a Mountain is nine times farther than a Dragon. Where
    the Mountain is in sight (wider than a token: reported whatever is read), such a piece is the Mountain only when
    a Mountain is at most ``mountain_fragment_ratio`` (8) times farther; a Mountain's size seen a little like one
    still is it."""
    from types import SimpleNamespace

    from vision.readings import _mountains
    model = SimpleNamespace(labels=["mountain", "dragon", "amazons"], areas=np.array([700.0, 420.0, 270.0], np.float32))
    region = next(iter(mountain_regions("2p")))
    blobs = _pieces_on(region, [(0, 0, 40, 40), (60, 0, 20, 20)])
    blobs[0].area = 950
    read = ["dragon", "amazons"]

    def mountains(far, sight):
        rows = np.array([[far, 100.0, 900.0], [4000.0, 900.0, 100.0]], np.float32)
        return _mountains(model, blobs, SimpleNamespace(per_class=rows, labels=read), list(read), frozenset({region}),
                          1.5, fragment_ratio=8.0, sight=sight)

    assert mountains(940.0, True) == read
    assert mountains(940.0, False) == ["mountain", "amazons"]
    assert mountains(300.0, True) == ["mountain", "amazons"]


def test_a_mountain_showing_only_a_fragment_of_another_kinds_look_is_the_mountain():
    """Issue 20: a Mountain in the board's colour may show only its cap and part of its rim, a token-sized fragment
    taken for a grey in-decline side (the region read as that side, no Mountain). Every Mountain region holds its
    Mountain: with none read there, the piece nearest a Mountain is it when a Mountain is at most
    ``mountain_fragment_ratio`` (8) times farther than what it was read as and the region's other pieces are
    ``mountain_apart`` (1.5) times farther from a Mountain, and it is the one piece of its look there (the one-race
    rule may have given it the kind of the tokens beside it). A piece alone,
    tokens of one kind, a speck of change (its cap: ``mountain_specks``) and regions without a Mountain keep their readings."""
    from types import SimpleNamespace

    from vision.readings import _mountain_fragment
    model = SimpleNamespace(labels=["mountain", "giants", "ratmen-decline"])
    region = next(iter(mountain_regions("2p")))
    mountains = frozenset({region})

    def read(rows, labels, specks=frozenset(), where=region, beside=0.0, look=None):
        blobs = _pieces_on(where, [(40 * i, 0, 20, 20) for i in range(len(rows))])
        result = SimpleNamespace(per_class=np.array(rows, np.float32), labels=list(look or labels))
        return _mountain_fragment(model, blobs, result, list(labels), mountains, set(specks), 8.0, 1.5,
                                  lambda i: beside, 0.015)

    # A grey side (a Mountain 5.6 times farther than it) beside a Giant (a Mountain 50 times farther): the Mountain.
    pair = [[500.0, 900.0, 90.0], [5000.0, 100.0, 900.0]]
    assert read(pair, ["ratmen-decline", "giants"]) == ["mountain", "giants"]
    assert read(pair, ["ratmen-decline", "giants"], specks={region}) == ["ratmen-decline", "giants"]
    assert read(pair, ["ratmen-decline", "giants"], where=region + 1) == ["ratmen-decline", "giants"]
    assert read([[5000.0, 900.0, 90.0], [5000.0, 100.0, 900.0]], ["ratmen-decline", "giants"]) == \
        ["ratmen-decline", "giants"]                     # 56 times: a token
    # Alone, with the board beside it as it was all round (a token alone on a Mountain out of sight): kept. With the
    # board beside it changed on one side (``detect.lopsided``: the Mountain's body), it is the Mountain, unless a
    # Mountain is far from it (56 times: a token beside something else that changed).
    assert read(pair[:1], ["ratmen-decline"]) == ["ratmen-decline"]
    assert read(pair[:1], ["ratmen-decline"], beside=0.005) == ["ratmen-decline"]
    assert read(pair[:1], ["ratmen-decline"], beside=0.03) == ["mountain"]
    assert read([[5000.0, 900.0, 90.0]], ["ratmen-decline"], beside=0.03) == ["ratmen-decline"]
    assert read(pair[:1], ["ratmen-decline"], specks={region}, beside=0.03) == ["ratmen-decline"]
    assert read(pair[:1], ["ratmen-decline"], where=region + 1, beside=0.03) == ["ratmen-decline"]
    # Beside two Lost Tribe tokens: the grey side far nearer a Mountain than they are is it; near as they, it is not.
    three = [[271.0, 100.0, 900.0], [940.0, 100.0, 900.0], [510.0, 100.0, 900.0]]
    labels = ["ratmen-decline", "lost-tribe", "lost-tribe"]
    assert read(three, labels) == ["mountain", "lost-tribe", "lost-tribe"]
    near = [[271.0, 100.0, 900.0], [350.0, 100.0, 900.0], [510.0, 100.0, 900.0]]
    assert read(near, labels) == labels
    # Three of one kind (the clean tier: in-decline tokens on a Mountain out of sight, one a little more like it):
    # the kin rule of ``_mountains`` judges those, not this one.
    assert read(three, ["ratmen-decline"] * 3) == ["ratmen-decline"] * 3
    # Its kind is its own look: a grey side the one-race rule gave the kind of the two Giants beside it
    # (``_one_occupant``) is still the one piece of its look there.
    giants, look = ["giants"] * 3, ["ratmen-decline", "giants", "giants"]
    grey = [[271.0, 120.0, 90.0], [940.0, 100.0, 900.0], [510.0, 100.0, 900.0]]  # a Mountain 3, 9.4, 5.1 times
    assert read(grey, giants, look=look) == ["mountain", "giants", "giants"]
    assert read(grey, giants, look=look, specks={region}) == ["mountain", "giants", "giants"]  # not one more Giant
    grey[2][0] = 350.0                                                             # 3, 9.4, 3.5 times: a token
    assert read(grey, giants, look=look) == giants
    # A Mountain read already: nothing changes.
    assert read(three, ["mountain", "lost-tribe", "lost-tribe"]) == ["mountain", "lost-tribe", "lost-tribe"]


def test_the_tokens_beside_a_mountain_fragment_choose_their_race_again_without_it(settings):
    """Issue 20: the one-race rule (``_one_occupant``) gives a region's tokens the race that fits them all best; a
    Mountain's fragment read as a grey side voted too and could tip two Giants into Trolls. Once the fragment is
    found to be the Mountain, the others' race is chosen again from their own looks, without it."""
    from types import SimpleNamespace

    from vision.readings import _vote_again
    model = SimpleNamespace(labels=["mountain", "giants", "trolls", "ratmen-decline"])
    region = next(iter(mountain_regions("2p")))
    blobs = _pieces_on(region, [(40 * i, 0, 20, 20) for i in range(3)]) + _pieces_on(region + 1, [(0, 0, 20, 20)])
    # Distances (mountain, giants, trolls, ratmen-decline): the grey side near Trolls, the two tokens Giants.
    rows = [[300.0, 900.0, 100.0, 90.0], [5000.0, 100.0, 150.0, 900.0], [5000.0, 100.0, 130.0, 900.0],
            [5000.0, 100.0, 130.0, 900.0]]
    result = SimpleNamespace(per_class=np.array(rows, np.float32),
                             labels=["ratmen-decline", "giants", "giants", "giants"])
    voted = ["trolls", "trolls", "trolls", "trolls"]  # the last: another region's, left as it was
    assert _vote_again(settings, model, blobs, result, voted, ["mountain"] + voted[1:]) == \
        ["mountain", "giants", "giants", "trolls"]
    assert _vote_again(settings, model, blobs, result, voted, list(voted)) == voted  # no fragment taken


def test_the_tokens_beside_a_mountain_of_a_mountains_size_choose_their_race_again_without_it(settings):
    """Issue 20: the one-race rule (``_one_occupant``) voted with a Mountain whose body shows, read as a grey side,
    and tipped the two Skeletons in decline beside it into Amazons in decline; the Mountain rule (``_mountains``)
    then found it to be the Mountain (of a Mountain's size, nearest one). Whichever Mountain rule finds a piece
    that voted to be the Mountain, the others' race is chosen again from their own looks, without it."""
    from types import SimpleNamespace

    from vision.readings import weigh
    labels = ["mountain", "skeletons-decline", "amazons-decline", "sorcerers-decline"]
    model = SimpleNamespace(labels=labels, areas=np.array([700.0, 270.0, 270.0, 270.0], np.float32))
    region = next(iter(mountain_regions("2p")))
    blobs = _pieces_on(region, [(0, 0, 20, 20), (40, 0, 20, 20), (80, 0, 40, 40)])
    blobs[2].area = 1000                                     # 444 mm² at 1.5 px/mm: of a Mountain's size
    # Distances (mountain, skeletons-decline, amazons-decline, sorcerers-decline).
    rows = np.array([[3000.0, 100.0, 130.0, 500.0], [3000.0, 100.0, 130.0, 500.0], [150.0, 400.0, 120.0, 100.0]],
                    np.float32)
    result = SimpleNamespace(per_class=rows, labels=["skeletons-decline", "skeletons-decline", "sorcerers-decline"],
                             confidence=np.array([0.5, 0.5, 0.1], np.float32))
    got = weigh(settings, model, blobs, result, frozenset({region}), set(), 1.5, lambda i: 0.0)
    assert got == ["skeletons-decline", "skeletons-decline", "mountain"]
    # Off the Mountain regions the three are one race, as the rule has it.
    got = weigh(settings, model, blobs, result, frozenset({region + 1}), set(), 1.5, lambda i: 0.0)
    assert got == ["amazons-decline"] * 3


def test_a_grey_side_showing_no_emblem_where_a_mountain_in_sight_was_not_read_is_its_fragment():
    """Issue 20: a Mountain wider than any token (``mountain_in_sight``) is on its region in sight; where none of
    the pieces was read as it and no speck of change is its cap, it shows as fragments in the board's muted Mountain
    colour, read as grey in-decline sides barely nearer than another (no emblem shows). Those are the Mountain (the
    one most like it) and its parts. A grey side read surely (its emblem shows), a region with a speck or a
    Mountain read, and regions off the Mountains keep their readings."""
    from types import SimpleNamespace

    from vision.readings import _mountain_grey
    model = SimpleNamespace(labels=["mountain", "lost-tribe", "trolls-decline", "sorcerers-decline"])
    region = next(iter(mountain_regions("2p")))
    mountains = frozenset({region})
    # Distances (mountain, lost-tribe, trolls-decline, sorcerers-decline): two Lost Tribe tokens, a grey piece.
    rows = np.array([[5000.0, 100.0, 900.0, 900.0], [5000.0, 100.0, 900.0, 900.0], [700.0, 900.0, 104.0, 100.0],
                     [500.0, 900.0, 100.0, 104.0]], np.float32)
    look = ["lost-tribe", "lost-tribe", "sorcerers-decline", "trolls-decline"]

    def read(sure, n=3, specks=frozenset(), where=region, labels=None):
        blobs = _pieces_on(where, [(40 * i, 0, 20, 20) for i in range(n)])
        result = SimpleNamespace(per_class=rows[:n], labels=look[:n],
                                 confidence=np.array([0.6, 0.6] + sure, np.float32)[:n])
        return _mountain_grey(model, blobs, result, list(labels or look[:n]), mountains, set(specks), 0.2)

    assert read([0.04]) == ["lost-tribe", "lost-tribe", "mountain"]
    assert read([0.5]) == look[:3]                                            # its emblem shows
    assert read([0.04], specks={region}) == look[:3]                          # its cap is a speck
    assert read([0.04], where=region + 1) == look[:3]                         # no Mountain region
    assert read([0.04], labels=["lost-tribe", "lost-tribe", "mountain"]) == ["lost-tribe", "lost-tribe", "mountain"]
    # Two fragments: the one nearer a Mountain (5 times farther than its look, the other 7) is it, the other a part.
    assert read([0.04, 0.1], n=4) == ["lost-tribe", "lost-tribe", None, "mountain"]
    assert read([0.04, 0.5], n=4) == ["lost-tribe", "lost-tribe", "mountain", "trolls-decline"]


def test_a_mountain_wider_than_a_token_is_never_out_of_sight():
    """Issue 20: rules (setup): a Mountain on each Mountain region, immovable. A Mountain enrolled larger than a
    race token (1.7 tokens wide: 2.9 times the area) shows around any token laid on it; on a Mountain region in
    sight where no piece was read as it, it lies there all the same (its body the board's colour, its cap
    unchanged). A Mountain a token's size may lie under a pile, out of sight: nothing is added; nor on a region a
    hand covers, nor off the Mountain regions."""
    from types import SimpleNamespace

    from vision.readings import mountain_in_sight, mountains_in_sight
    wide = SimpleNamespace(labels=["mountain", "orcs", "hero"], areas=np.array([780.0, 270.0, 380.0], np.float32))
    small = SimpleNamespace(labels=wide.labels, areas=np.array([280.0, 270.0, 380.0], np.float32))
    unmeasured = SimpleNamespace(labels=wide.labels, areas=None)
    assert mountain_in_sight(wide, 1.5) and not mountain_in_sight(wide, 0.0)
    assert not mountain_in_sight(small, 1.5) and not mountain_in_sight(unmeasured, 1.5)
    region = next(iter(mountain_regions("2p")))

    def seen(model, hidden=frozenset()):
        tokens = {region: {"orcs": 2}, region + 1: {}}
        mountains_in_sight(model, frozenset({region}), tokens, set(hidden), 1.5)
        return tokens

    assert seen(wide) == {region: {"orcs": 2, "mountain": 1}, region + 1: {}}
    assert seen(small) == seen(unmeasured) == {region: {"orcs": 2}, region + 1: {}}
    assert seen(wide, {region}) == {region: {"orcs": 2}, region + 1: {}}


def test_the_board_beside_a_fragment_of_a_larger_piece_changed_on_one_side(settings, clean_calibration):
    """Issue 20: a token lying on the board leaves the board beside it as it was all round; the fragment of a
    Mountain whose body hardly changes the picture (its cap) has that body on one side: ``detect.lopsided`` measures
    how much more the board beside a piece changed on one side than on the other. The faint body here changes
    the board by 3 %, under what marks a piece (``diff_threshold``) and what joins a faint area to it."""
    import cv2

    from vision.detect import detect, lopsided
    ref = clean_calibration.reference
    r = ref.raster
    region = next(iter(mountain_regions("2p")))
    inside = cv2.distanceTransform((r.labels == list(r.ids).index(region)).astype(np.uint8), cv2.DIST_L2, 3)
    y, x = np.unravel_index(int(np.argmax(inside)), inside.shape)
    radius = int(r.geometry.token_mm * r.px_per_mm / 2)

    def beside(body: bool) -> float:
        frame = ref.image.copy()
        if body:  # the Mountain's body, 1.7 tokens wide, the piece seen at its top
            disc = np.zeros(frame.shape[:2], np.uint8)
            cv2.circle(disc, (int(x), int(y) + int(1.2 * radius)), int(1.7 * radius), 1, -1)
            frame[disc > 0] = np.clip(frame[disc > 0].astype(np.float32) * 1.03, 0, 255).astype(np.uint8)
        cv2.circle(frame, (int(x), int(y)), radius, (235, 235, 235), -1)
        det = detect(settings, ref, frame)
        here = [b for b in det.blobs if b.region == region]
        assert len(here) == 1 and here[0].area < 1.5 * np.pi * radius ** 2
        return lopsided(ref, det, here[0])

    alone, fragment = beside(False), beside(True)
    assert alone < 0.005 < 0.015 < fragment


def test_a_speck_of_change_on_a_mountain_region_with_no_mountain_read_is_its_cap(settings, clean_calibration):
    """Issue 20: in the play lamp's glare, or under a lamp like the board's, a Mountain changes the picture only at
    its snow cap: a speck too small for a piece. Detection reports such specks by region; on a Mountain region with
    no Mountain read the speck is its Mountain (rules: a Mountain on each Mountain region, immovable). Nothing is
    added off the Mountain regions, nor where a Mountain was read, nor where nothing changed."""
    import cv2

    from vision.detect import detect
    from vision.readings import mountain_specks
    ref = clean_calibration.reference
    r = ref.raster
    region = next(iter(mountain_regions("2p")))
    inside = cv2.distanceTransform((r.labels == list(r.ids).index(region)).astype(np.uint8), cv2.DIST_L2, 3)
    y, x = np.unravel_index(int(np.argmax(inside)), inside.shape)
    frame = ref.image.copy()
    cv2.circle(frame, (int(x), int(y)), 4, (250, 250, 250), -1)   # a cap: about a tenth of a token
    det = detect(settings, ref, frame)
    assert not [b for b in det.blobs if b.region == region]
    assert region in {rid for rid, _ in det.specks}
    assert not detect(settings, ref, ref.image.copy()).specks
    tokens = {region: {}, region + 1: {}}
    mountain_specks(det.specks + ((region + 1, 30.0),), frozenset({region}), tokens)
    assert tokens == {region: {"mountain": 1}, region + 1: {}}
    tokens = {region: {"mountain": 1, "orcs": 2}}
    mountain_specks(det.specks, frozenset({region}), tokens)
    assert tokens == {region: {"mountain": 1, "orcs": 2}}


def test_a_race_token_laid_on_a_dragon_is_seen_with_it(settings, geometry2p):
    """Issue 20: where a region has no room, players lay the race token on the larger Dragon; the camera sees one
    blob of the Dragon's outline with the token inside. The token is found in it (and the piece under it kept);
    the Dragon alone stays one piece (the foreign printing of two development seeds, pieces of their own sizes)."""
    import dataclasses

    from vision.classify import enroll
    from vision.geometry import inside_distance
    from vision.render import Placed, designs, enrollment_samples

    tok = geometry2p.token_mm
    rid = max(geometry2p.regions, key=lambda r: inside_distance(geometry2p.regions[r])[0].max())
    dist, lo = inside_distance(geometry2p.regions[rid])
    y, x = np.unravel_index(int(np.argmax(dist)), dist.shape)
    centre = np.array([x, y], float) + lo
    for design_seed in (132, 174):
        printing = designs(design_seed, "foreign")
        sizes = {lab: float(np.pi / 4 * (d.size * tok) ** 2) for lab, d in printing.items()}
        model = enroll(settings, enrollment_samples(design_seed, per_label=3, seed=1, style="foreign"), sizes=sizes)
        session = Session(geometry2p, 41, design_seed, small("foreign", relight=False, glare_spots=0))
        cal = Calibration.build(settings, geometry2p, session.empty())
        race = next(lab for lab, d in printing.items() if d.size == 1.0 and lab in ("amazons", "dwarves", "elves"))
        dragon = Placed("dragon", *centre, 10.0)
        alone, _ = session.render([dragon], None, np.random.default_rng(3), play=True)
        assert observe(settings, cal, model, alone)[0].regions[rid].tokens == {"dragon": 1}, design_seed
        on, _ = session.render([dragon, Placed(race, *(centre + [2.0, -1.5]), -5.0)], None,
                               np.random.default_rng(3), play=True)
        tokens = observe(settings, cal, model, on)[0].regions[rid].tokens
        assert tokens.get(race) == 1 and sum(tokens.values()) == 2, (design_seed, tokens)
        off = dataclasses.replace(settings, token_on_piece=0.0)
        assert race not in observe(off, cal, model, on)[0].regions[rid].tokens  # what it was before: the Dragon alone


def test_a_pieces_taken_for_the_mountain_by_its_size_leaves_the_vote_to_the_others(settings):
    """Issue 20: a Mountain whose look is nearest a grey in-decline side votes with the race tokens beside it for
    their one race (``_one_occupant``) and can tip two Giants into Trolls. Taken for the Mountain by its size
    (``_mountains``), not only as a fragment, it leaves the vote: the others' race is chosen again without it."""
    from types import SimpleNamespace

    from vision.readings import weigh
    model = SimpleNamespace(labels=["mountain", "giants", "trolls", "ratmen-decline"],
                            areas=np.array([700.0, 270.0, 270.0, 270.0], np.float32))
    region = next(iter(mountain_regions("2p")))
    blobs = _pieces_on(region, [(0, 0, 40, 40), (60, 0, 20, 20), (100, 0, 20, 20)])
    blobs[0].area = 1600  # at 1.5 px/mm: 711 mm², a Mountain's size
    rows = [[300.0, 900.0, 100.0, 90.0], [5000.0, 100.0, 150.0, 900.0], [5000.0, 100.0, 130.0, 900.0]]
    result = SimpleNamespace(per_class=np.array(rows, np.float32), labels=["ratmen-decline", "giants", "giants"])
    got = weigh(settings, model, blobs, result, frozenset({region}), set(), 1.5, lambda i: 0.0)
    assert got == ["mountain", "giants", "giants"]


def test_an_active_race_read_on_one_region_alike_one_read_on_several_is_that_one(settings):
    """Issue 20: each player has one active race, spread over the regions it conquered: a race read on one region
    only, whose tokens find an active race read on two other regions nearly as near, is that race (Humans under a
    strongly coloured lamp read as Tritons). A clear reading keeps its label; so does the Lost Tribe (no player's
    race: late in a game it may hold one region), and an in-decline side (weighed among the in-decline sides)."""
    from types import SimpleNamespace

    from vision.readings import _active_in_frame
    model = SimpleNamespace(labels=["giants", "tritons", "lost-tribe", "giants-decline"])
    blobs = [SimpleNamespace(region=r, bbox=(0, 0, 20, 20), area=400) for r in (1, 2, 3, 4)]

    def read(lone: str, row: list) -> str:
        rows = [row] + [[100.0, 400.0, 600.0, 500.0]] * 3
        result = SimpleNamespace(per_class=np.array(rows, np.float32))
        return _active_in_frame(settings, model, blobs, result, [lone, "giants", "giants", "giants"])[0]

    assert read("tritons", [150.0, 100.0, 600.0, 500.0]) == "giants"      # Giants 1.5 times farther: Giants
    assert read("tritons", [300.0, 100.0, 600.0, 500.0]) == "tritons"     # 3 times farther: a clear Triton
    assert read("lost-tribe", [150.0, 400.0, 100.0, 500.0]) == "lost-tribe"
    assert read("giants-decline", [150.0, 400.0, 600.0, 100.0]) == "giants-decline"
    assert settings.few_active_races
