"""companion follow: a folder of rendered camera frames becomes the inferred record, flags printed as they happen."""
import json

import cv2
import numpy as np
import pytest

import maps
from companion.cli import main
from companion.reconcile import expected_view
from companion.rules import Game
from companion.rules.actions import parse_notation
from companion.rules.record import read, write
from tests.rules.helpers import setup_with
from vision import layout
from vision.classify import enroll
from vision.render import TIERS, Session, enrollment_samples
from vision.settings import Settings


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    folder = tmp_path_factory.mktemp("follow")
    geo = layout.generate(maps.load("2p"))
    geo.save(folder / "geometry.json")
    realism = TIERS["clean"]
    session = Session(geo, 5, 3, type(realism)(**{**realism.__dict__, "frame_size": (1280, 720)}))
    cv2.imwrite(str(folder / "empty.png"), session.empty())
    enroll(Settings(), enrollment_samples(3, seed=1)).save(folder / "model.npz")
    setup = setup_with("alchemist ratmen")
    game = Game(setup)
    game.apply(__import__("companion.rules", fromlist=["x"]).parse_notation("pick ratmen"))
    write(folder / "setup.jsonl", setup, game.history)
    rng = np.random.default_rng(5)
    frames = folder / "frames"
    frames.mkdir()
    boards = [expected_view(game)]
    after = dict(boards[0])
    after[4] = {"ratmen": 2}
    boards.append(after)
    illegal = dict(after)
    illegal[20] = {"ratmen": 2}
    boards.append(illegal)
    n = 0
    for board in boards:
        img, _ = session.frame(board, hand=True, rng=rng)
        cv2.imwrite(str(frames / f"frame-{n:03d}.png"), img)
        n += 1
        still, _ = session.frame(board, rng=rng)
        for _ in range(8):
            cv2.imwrite(str(frames / f"frame-{n:03d}.png"), still)
            n += 1
    return folder


def test_follow_infers_the_conquest_and_flags_the_illegal_one(table, capsys):
    out_record = table / "inferred.jsonl"
    code = main(["follow", "--setup", str(table / "setup.jsonl"), "--geometry", str(table / "geometry.json"),
                 "--model", str(table / "model.npz"), "--reference", str(table / "empty.png"),
                 "--record", str(out_record), str(table / "frames")])
    out = capsys.readouterr().out
    assert code == 0
    assert "conquer 4" in out
    assert "FLAG not-adjacent (Ann): Region 20 (Swamp) is not adjacent to any region your Ratmen hold." in out
    assert "region 20: the camera reads 2 Ratmen, the game has nothing" in out  # what was read, what is held
    record = read(out_record)
    assert [a.notation() for a in record.actions] == ["pick ratmen", "conquer 4"]


def test_follow_takes_inputs_the_camera_cannot_see(table, capsys, tmp_path):
    inputs = tmp_path / "inputs.jsonl"
    inputs.write_text(json.dumps({"after": "frame-017.png", "input": "confirm"}) + "\n")
    code = main(["follow", "--setup", str(table / "setup.jsonl"), "--geometry", str(table / "geometry.json"),
                 "--model", str(table / "model.npz"), "--reference", str(table / "empty.png"),
                 "--record", str(tmp_path / "out.jsonl"), "--inputs", str(inputs), str(table / "frames")])
    assert code == 0
    notations = [a.notation() for a in read(tmp_path / "out.jsonl").actions]
    assert notations[:2] == ["pick ratmen", "conquer 4"] and notations[-1] == "end"


def test_follow_bad_paths_are_one_line(table, capsys, tmp_path):
    code = main(["follow", "--setup", str(table / "setup.jsonl"), "--geometry", str(tmp_path / "nope.json"),
                 "--model", str(table / "model.npz"), "--reference", str(table / "empty.png"),
                 "--record", str(tmp_path / "o.jsonl"), str(table / "frames")])
    err = capsys.readouterr().err
    assert code == 2 and "nope.json" in err and err.count("\n") == 1
    code = main(["follow", "--setup", str(table / "setup.jsonl"), "--geometry", str(table / "geometry.json"),
                 "--model", str(table / "model.npz"), "--reference", str(table / "empty.png"),
                 "--record", str(tmp_path / "o.jsonl"), str(tmp_path / "no-frames")])
    err = capsys.readouterr().err
    assert code == 2 and "no-frames: no such file or folder" in err


def test_follow_inputs_take_a_typed_heroes_as_the_service_does(table, capsys, tmp_path):
    # Heroes are placed after the troop redeployment: the redeployment the camera last saw comes first
    setup = setup_with("heroic ratmen")
    game = Game(setup)
    game.apply(parse_notation("pick ratmen"))
    write(tmp_path / "setup.jsonl", setup, game.history)
    inputs = tmp_path / "inputs.jsonl"
    inputs.write_text(json.dumps({"after": "frame-017.png", "input": "heroes 4"}) + "\n"
                      + json.dumps({"after": "frame-017.png", "input": "pick alchemist"}) + "\n")
    code = main(["follow", "--setup", str(tmp_path / "setup.jsonl"), "--geometry", str(table / "geometry.json"),
                 "--model", str(table / "model.npz"), "--reference", str(table / "empty.png"),
                 "--record", str(tmp_path / "out.jsonl"), "--inputs", str(inputs), str(table / "frames")])
    out = capsys.readouterr().out
    assert code == 0
    notations = [a.notation() for a in read(tmp_path / "out.jsonl").actions]
    assert notations[:2] == ["pick ratmen", "conquer 4"]
    assert notations[2].startswith("redeploy 4:") and notations[3] == "heroes 4"
    assert "REFUSED pick alchemist" in out  # a typed action that does not fit: said, the record kept


def test_follow_inputs_that_cannot_be_read_say_which_line(table, capsys, tmp_path):
    inputs = tmp_path / "inputs.jsonl"
    inputs.write_text(json.dumps({"after": "frame-017.png", "input": "die 3"}) + "\n"
                      + json.dumps({"after": "frame-017.png", "input": "conquer x"}) + "\n")
    code = main(["follow", "--setup", str(table / "setup.jsonl"), "--geometry", str(table / "geometry.json"),
                 "--model", str(table / "model.npz"), "--reference", str(table / "empty.png"),
                 "--record", str(tmp_path / "out.jsonl"), "--inputs", str(inputs), str(table / "frames")])
    err = capsys.readouterr().err
    assert code == 2 and "inputs.jsonl:2: input 'conquer x'" in err and err.count("\n") == 1


def test_follow_explain_traces_each_sight(table, capsys, tmp_path):
    code = main(["follow", "--setup", str(table / "setup.jsonl"), "--geometry", str(table / "geometry.json"),
                 "--model", str(table / "model.npz"), "--reference", str(table / "empty.png"),
                 "--record", str(tmp_path / "o.jsonl"), "--explain", str(table / "frames")])
    out = capsys.readouterr().out
    assert code == 0
    assert "explain: differences: region 4 ratmen game 0 camera 2" in out
    assert "explain: hypothesis: conquer 4 leaves 0 difference(s)" in out
    assert "explain: chosen: conquer 4" in out
