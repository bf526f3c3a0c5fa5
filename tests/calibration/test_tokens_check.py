import shutil

import cv2
import numpy as np
import pytest

from calibration import CalibrationError, check, flow
from calibration.folder import Folder
from calibration.sim import SimulatedTable
from vision.observe import observe
from vision.settings import Settings

from .conftest import KINDS


def test_enrolled_kinds_and_selftest(calibrated):
    folder, report = calibrated
    assert sorted(report["tokens"]["kinds"]) == sorted(KINDS)
    assert report["tokens"]["samples"] >= 4 * len(KINDS)
    for k in KINDS:
        assert len(list(folder.file(f"samples/{k}").glob("*.png"))) >= 4
    # Each kind's size on the board, measured on the tray, travels in the model.
    from vision.classify import load_model
    model = load_model(folder.file("model.npz"))
    areas = dict(zip(model.labels, model.areas))
    token = np.pi / 4 * (0.86 * 20) ** 2  # a rendered token: 0.86 of its 20 mm box
    assert all(0.7 * token < areas[k] < 1.5 * token for k in KINDS)
    st = report["selftest"]
    assert st["tokens"] >= 30 and st["accuracy"] >= 0.9
    assert all(set(c) == {"kind", "taken_for", "times"} for c in st["confused"])


def _game(rng, geometry):
    import maps
    board = maps.load(geometry.map)
    state = {}
    for r in board:
        counts = {}
        if r.terrain == "mountain":
            counts["mountain"] = 1
        if not r.water and rng.random() < 0.6:
            counts[KINDS[int(rng.integers(5))]] = int(rng.integers(1, 3))
        state[r.id] = counts
    return state


@pytest.mark.slow
def test_observe_reads_games_after_the_guided_calibration(calibrated, table):
    folder, _ = calibrated
    settings = Settings()
    calibration, model = check.load_for_vision(settings, folder)
    rng = np.random.default_rng(5)
    right = total = 0
    prior = None
    for _ in range(4):
        img, truth = table.session.frame(_game(rng, table.geometry), rng=rng)
        obs, prior = observe(settings, calibration, model, img, prior)
        assert obs.registered
        for rid, tokens in truth.regions.items():
            total += 1
            right += obs.regions[rid].tokens == tokens
    assert right / total >= 0.85


def test_check_says_ready_and_what_to_redo(calibrated, tmp_path):
    folder, report = calibrated
    assert report["check"]["ready"], report["check"]
    copy = Folder(tmp_path / "copy")
    shutil.copytree(folder.path, copy.path)
    # Another camera pose: only the empty board must be taken again.
    moved = SimulatedTable("2p", 4, "realistic")
    out = flow.check_step(Settings(), copy, moved)
    assert not out["ready"] and out["redo"] == ["reference"]
    assert any("camera moved" in it["say"] for it in out["items"] if not it["ok"])
    # A region file edited by hand: the regions step, and only it.
    copy.file("geometry.json").write_text(copy.file("geometry.json").read_text().replace("\"map\"", "\"map\" "))
    out = check.run(Settings(), copy)
    assert out["redo"] == ["regions"]


def test_missing_steps_are_one_line_errors(tmp_path):
    folder = Folder(tmp_path)
    with pytest.raises(CalibrationError, match="board.json: missing"):
        flow.reference_step(Settings(), folder, None)
    report = check.run(Settings(), folder)
    assert not report["ready"] and report["redo"] == ["camera", "markers", "reference", "regions", "tokens"]


def test_the_tray_picture_rings_where_to_lay_each_token(calibrated, table):
    from calibration import tokens
    folder, _ = calibrated
    b = flow.board(folder)
    plan = tokens.plan_kind(b, "elves")
    picture = tokens.tray_picture(Settings(), b, table.frame(), plan)
    x0, y0, x1, y1 = b.tray()
    s = tokens.CUT_PX_PER_MM
    assert abs(picture.shape[1] - (x1 - x0) * s) <= 1 and abs(picture.shape[0] - (y1 - y0) * s) <= 1
    ring = np.all(np.abs(picture.astype(int) - tokens.TRAY_RING) < 40, axis=2)
    r = b.token_mm * s / 2
    for _, x, y in plan:  # a ring on each place asked, centred on it
        cx, cy = (x - x0) * s, (y - y0) * s
        for dx, dy in ((r, 0), (-r, 0), (0, r), (0, -r)):
            px, py = int(round(cx + dx)), int(round(cy + dy))
            assert ring[max(py - 2, 0):py + 3, max(px - 2, 0):px + 3].any(), (x, y, dx, dy)
    assert ring.mean() < 0.2


class _Spoiled:
    """The simulated table, but each tray picture passes through ``spoil`` (glare, a shaken camera)."""

    def __init__(self, table, spoil):
        self.table, self.spoil = table, spoil

    def prepare(self, request):
        self.table.prepare(request)

    def frame(self):
        return self.spoil(self.table.frame())


def _glare_on_two(table):
    """A lamp's reflection whitening two of the five tokens laid on the tray."""
    def spoil(img):
        out = img.astype(np.float32)
        for x, y in table.session.image_points(np.array([[t.x, t.y] for t in (table.tokens[0], table.tokens[2])])):
            glare = np.zeros(img.shape[:2], np.float32)
            cv2.circle(glare, (int(x), int(y)), 9, 1.0, -1)
            out += 255 * cv2.GaussianBlur(glare, (0, 0), 2.0)[..., None]
        return out.clip(0, 255).astype(np.uint8)
    return spoil


@pytest.mark.parametrize("spoil, says", [
    (_glare_on_two, "glare washes out 2 of 5 tokens"),
    (lambda table: lambda img: cv2.GaussianBlur(img, (0, 0), 2.5), "blurred"),
])
def test_a_spoiled_tray_picture_is_refused_with_the_reason(calibrated, table, tmp_path, spoil, says):
    folder, _ = calibrated
    copy = Folder(tmp_path / "c")
    shutil.copytree(folder.path, copy.path)
    with pytest.raises(CalibrationError) as err:
        flow.token_kind_step(Settings(), copy, _Spoiled(table, spoil(table)), "orcs")
    text = str(err.value)
    assert says in text and "photograph Orcs tokens, active side up again" in text and "\n" not in text
    # What was enrolled before is kept.
    assert len(list(copy.file("samples/orcs").glob("*.png"))) >= 4


def test_too_few_tokens_on_the_tray_is_refused(calibrated, table, tmp_path):
    folder, _ = calibrated
    copy = Folder(tmp_path / "c")
    shutil.copytree(folder.path, copy.path)
    with pytest.raises(CalibrationError, match="only 2 of the 5 tokens"):
        flow.token_kind_step(Settings(), copy, _TwoOnly(table), "elves")


class _TwoOnly(_Spoiled):
    def __init__(self, table):
        super().__init__(table, lambda img: img)

    def prepare(self, request):
        if request.get("kind") == "tray":
            request = {**request, "slots": request["slots"][:2]}
        self.table.prepare(request)


@pytest.mark.slow
def test_selftest_reads_the_tray_as_play_does(tmp_path):
    """Another printing whose in-decline sides are one grey, differing only by the race's emblem: the self-test
    reads them as observing a game does (with each kind's size and the second look at the emblem), so what it
    reports taken for what is what play will get wrong, not the first look's confusions."""
    from vision.labels import DECLINED
    table = SimulatedTable("2p", 4, "foreign", (1920, 1080), 120)
    report = flow.whole(Settings(), Folder(tmp_path), table, "2p", list(DECLINED))["selftest"]
    assert report["tokens"] >= 40 and report["accuracy"] >= 0.85, report
