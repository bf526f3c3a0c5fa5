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


def _pair_counts(settings, geometry2p, design_seed: int, pieces, seed: int = 41) -> list[int]:
    """For each piece, the blobs detected on a roomy region where it lies against a race token (the foreign
    printing: pieces of their own sizes and shapes), one frame each."""
    from vision.geometry import inside_distance
    from vision.render import Placed
    session = Session(geometry2p, seed, design_seed, small("foreign", relight=False, glare_spots=0))
    cal = Calibration.build(settings, geometry2p, session.empty())
    ref = cal.reference
    rid = max(geometry2p.regions, key=lambda r: inside_distance(geometry2p.regions[r])[0].max())
    dist, lo = inside_distance(geometry2p.regions[rid])
    y, x = np.unravel_index(int(np.argmax(dist)), dist.shape)
    centre = np.array([x, y], float) + lo
    race = next(lab for lab in session.designs if lab not in ("mountain",) and session.designs[lab].size == 1.0
                and not lab.endswith("-decline") and lab != "lost-tribe")
    tok = geometry2p.token_mm
    rng = np.random.default_rng(seed)
    counts = []
    for piece in pieces:
        wide = session.designs[piece].size * tok
        a = rng.uniform(0, 2 * np.pi)
        at = centre + 0.86 * (tok + wide) / 2 * np.array([np.cos(a), np.sin(a)])  # laid against it, as players do
        tokens = [Placed(race, *centre, float(rng.uniform(-15, 15))), Placed(piece, *at, float(rng.uniform(-15, 15)))]
        img, _ = session.render(tokens, None, rng, play=True)
        det = detect(settings, ref, rectify(settings, img, cal.registration, ref.raster))
        counts.append(sum(b.region == rid for b in det.blobs))
    return counts


def test_a_piece_against_a_race_token_is_two_pieces_whatever_its_size(settings, geometry2p):
    """Issue 20, cause 4: an Encampment (smaller than a race token), a Fortress or a Troll's Lair (larger)
    laid against a race token make one merged blob; it holds two pieces, not one and not three."""
    pieces = ("encampment", "fortress", "troll-lair", "hero")
    for design_seed in (132, 174):  # the foreign printing of two development seeds
        assert _pair_counts(settings, geometry2p, design_seed, pieces) == [2] * len(pieces), design_seed


def test_a_small_piece_in_a_row_with_a_token_is_cut_off(settings):
    """A token and a slightly smaller square piece edge to edge and a little overlapping: no neck, and not
    twice as long as wide; still two pieces. A piece half as long again as wide (a stack's offset) stays one."""
    token_area = np.pi * 14 ** 2
    row = _discs((25, 24, 15), size=(80, 60))
    cv2.rectangle(row, (11, 34), (38, 58), 1, -1)   # as wide as the token: no neck where they meet
    assert len(_pieces(settings, row, token_area)) == 2
    stack = np.zeros((80, 80), np.uint8)
    cv2.rectangle(stack, (20, 20), (45, 45), 1, -1)
    cv2.rectangle(stack, (26, 24), (51, 49), 1, -1)
    assert len(_pieces(settings, stack, token_area)) == 1


def _faint_scene(settings, draw):
    """_with_faint on a textured grey board with what ``draw(frame)`` paints: the mask it returns."""
    from types import SimpleNamespace

    from vision.detect import _with_faint
    rng = np.random.default_rng(0)
    board = np.clip(130 + cv2.GaussianBlur(rng.normal(0, 40, (120, 160)), (0, 0), 1.5), 0, 255)
    board = np.repeat(board[..., None], 3, 2).astype(np.uint8)
    frame = board.copy()
    draw(frame)
    half = cv2.resize(board, (80, 60), interpolation=cv2.INTER_AREA)
    ref = SimpleNamespace(half=half, half_scale=(half.astype(np.float32).mean(2) + 12.0) * 3)
    strong = (np.abs(frame.astype(int) - board.astype(int)).sum(2) > 60).astype(np.uint8)
    strong = cv2.morphologyEx(strong, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return _with_faint(settings, ref, cv2.blur(frame, (3, 3)), strong, np.pi * 13 ** 2)


def test_whole_tokens_close_together_are_not_joined_as_a_faint_pieces_fragments(settings):
    """Two whole tokens whose faint surroundings touch (a shadow between them) stay two blobs, not the hull of
    both; the cap and rim bits of a faint piece beside them are still joined."""
    def draw(frame):
        cv2.rectangle(frame, (95, 20), (150, 55), (115, 115, 115), -1)      # a faint shade around both
        cv2.circle(frame, (108, 40), 12, (40, 40, 200), -1)
        cv2.rectangle(frame, (124, 28), (146, 50), (40, 200, 40), -1)       # 4 px apart
        cv2.circle(frame, (50, 60), 22, (130, 130, 130), -1)                # a faint Mountain: body, cap, rim
        cv2.circle(frame, (50, 50), 6, (240, 240, 240), -1)
        cv2.ellipse(frame, (50, 60), (22, 22), 0, 20, 80, (60, 60, 60), 3)
        cv2.ellipse(frame, (50, 60), (22, 22), 0, 200, 250, (60, 60, 60), 3)
    n, labels = cv2.connectedComponents(_faint_scene(settings, draw))
    assert labels[40, 108] != labels[40, 135] and labels[40, 122] == 0   # two tokens, the gap left open
    assert labels[60, 50] > 0                                             # the Mountain's body joined


def test_a_token_against_a_faint_pieces_rim_is_not_one_of_its_fragments(settings):
    """A Fortress laid against a Mountain's rim: in the clear mask the Fortress and that bit of rim are one blob.
    The part where half a token's width fits and that changed strongly all over is a whole piece of its own;
    the rim and the cap are the Mountain's fragments, joined by their hull without the Fortress."""
    def draw(frame):
        cv2.circle(frame, (50, 60), 22, (130, 130, 130), -1)
        cv2.circle(frame, (50, 50), 6, (240, 240, 240), -1)
        for a, b in ((-40, 40), (70, 100), (110, 160), (200, 250)):       # bits of the rim
            cv2.ellipse(frame, (50, 60), (22, 22), 0, a, b, (60, 60, 60), 3)
        cv2.circle(frame, (86, 60), 15, (40, 40, 200), -1)                  # against the rim on the right
    out = _faint_scene(settings, draw)
    assert out[60, 50] == 1                       # the Mountain's body joined
    assert out[46, 75] == 0 and out[74, 75] == 0  # not the hull of the Mountain's bits and the Fortress


def test_a_piece_in_the_boards_colour_showing_one_fragment_is_its_whole_body(settings):
    """A grey in-decline side on grey terrain changes clearly only at its emblem; alone it is a speck under a
    piece's size. Its faint body (the board's texture hidden, a token's size and round) is the piece. A token
    seen whole keeps its outline, however wide the shade around it."""
    def draw(frame):
        cv2.circle(frame, (40, 60), 14, (121, 121, 121), -1)                 # the grey side, near the board's grey
        cv2.fillPoly(frame, [np.array([[40, 53], [46, 64], [34, 64]], np.int32)], (30, 30, 30))  # its emblem
        cv2.rectangle(frame, (95, 30), (145, 80), (118, 118, 118), -1)      # a wide shade around ...
        cv2.circle(frame, (120, 55), 12, (40, 40, 200), -1)                  # ... a whole token
    clear = _faint_scene(settings, lambda f: None)
    assert clear.sum() == 0
    out = _faint_scene(settings, draw)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(out)
    body = stats[labels[60, 40], cv2.CC_STAT_AREA]
    assert labels[60, 40] > 0 and all(labels[y, x] == labels[60, 40] for y, x in ((60, 32), (52, 40), (67, 47)))
    assert 0.6 * np.pi * 14 ** 2 <= body <= 1.4 * np.pi * 14 ** 2
    token = stats[labels[55, 120], cv2.CC_STAT_AREA]
    assert token <= 1.2 * np.pi * 12 ** 2 and labels[35, 100] == 0


def test_the_changed_test_on_whole_grey_levels_is_the_colour_difference_against_its_limit(settings, geometry2p):
    """``changed`` sums the channels in uint8 and compares with the limit's floor: the same pixels as the sum in
    float (``cv2.transform``) against the float limit, on a hard frame under another lamp (glare, blur, noise)."""
    from vision.detect import _light, changed, relit
    session = Session(geometry2p, 41, DESIGN, small("hard"))
    cal = Calibration.build(settings, geometry2p, session.empty())
    ref = cal.reference
    img, _ = session.frame(random_state(geometry2p, np.random.default_rng(4)))
    rect = rectify(settings, img, cal.registration, ref.raster)
    blurred = cv2.blur(rect, (3, 3))
    light = _light(settings, blurred, ref)
    level, = relit(light, blurred)
    out = cv2.add(cv2.subtract(level, ref.high), cv2.subtract(ref.low, level))
    from vision.detect import _same_lamp
    assert _same_lamp(settings, light) and ref.glare is not None  # the calibration's lamp, with its glare
    expected = cv2.transform(out, np.ones((1, 3), np.float32)) > ref.limit_lit
    got = changed(settings, ref, rect, light, level)
    assert got.dtype == np.uint8 and 0.01 < got.mean() < 0.5
    assert np.array_equal(got.view(bool), expected)


def test_a_faint_body_with_holes_where_its_paint_is_the_boards_colour_is_whole():
    """A Mountain painted in its terrain's colour differs faintly over most of its body, not where its paint
    matches the board: its faint area has holes. Those are its own: the body is the filled outline, convex and of a
    piece's size. A ragged area (the board under another light) is none."""
    from vision.detect import _faint_body
    area = np.zeros((60, 60), np.uint8)
    cv2.circle(area, (30, 30), 24, 1, -1)
    for c in ((20, 22), (38, 26), (28, 40), (40, 40)):
        cv2.circle(area, c, 5, 0, -1)                      # where the paint is the board's colour
    cap = np.zeros_like(area)
    cv2.circle(cap, (30, 14), 5, 1, -1)
    token_area = np.pi * 13 ** 2
    hull = _faint_body(area, cap, cv2.countNonZero(cap), token_area, 3.5)
    assert hull is not None and cv2.contourArea(hull) > 0.9 * np.pi * 24 ** 2
    ragged = np.zeros_like(area)
    cv2.circle(ragged, (30, 30), 24, 1, -1)
    for a in range(0, 360, 45):                            # deep notches from the outside
        x, y = 30 + 26 * np.cos(np.radians(a)), 30 + 26 * np.sin(np.radians(a))
        cv2.circle(ragged, (int(x), int(y)), 10, 0, -1)
    assert _faint_body(ragged, cap, cv2.countNonZero(cap), token_area, 3.5) is None
