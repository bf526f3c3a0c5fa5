"""``companion serve`` at a real table: the camera's frames are watched and the game follows the board."""
import json
import logging
import shutil

import cv2
import numpy as np
import pytest

from companion.reconcile import expected_view
from companion.rules.actions import Conquer
from companion.service import calibrated, watcher
from companion.service.runtime import Service

from .helpers import camera_config, mirror, new_game, play

SEED = 5  # the 2p game whose first combo is the Elves: a race the calibration enrolled


def write_frames(folder, table, boards, rng):
    """Each board still for three frames (one placement of its tokens, fresh camera noise), a hand
    passing before the next; a board given as an int repeats that earlier board's frames exactly."""
    folder.mkdir()
    n, shots = 0, []
    for board in boards:
        if shots:
            cv2.imwrite(str(folder / f"frame-{n:03d}.png"), table.session.frame(shots[-1][1], hand=True, rng=rng)[0])
            n += 1
        if isinstance(board, int):
            images, board = shots[board]
        else:
            tokens, _ = table.session.place(board, rng)
            images = [table.session.render(tokens, None, rng)[0] for _ in range(3)]
        shots.append((images, board))
        for image in images:
            cv2.imwrite(str(folder / f"frame-{n:03d}.png"), image)
            n += 1


def started_game(tmp_path, saved_folder):
    """A game of the Elves on the 2p map set up and picked on a service without the camera; the boards
    the players then lay: as it is, a conquest of region 1, and Elves on region 9 (not adjacent)."""
    service = Service(camera_config(tmp_path, saved_folder, load=False), hardware=False).start()
    try:
        new_game(service, seed=SEED)
        assert play(service, "pick elves", seat=0).ok
        game = mirror(service)
    finally:
        service.close()
    start = expected_view(game)
    game.apply(Conquer(1))
    conquered = expected_view(game)
    illegal = {**conquered, 9: {"elves": 2}}
    return start, conquered, illegal


def watching(tmp_path, saved_folder, source, **camera):
    service = Service(camera_config(tmp_path, saved_folder, source=str(source), **camera), hardware=False)
    return service.start()


def test_the_game_follows_the_board_the_camera_sees(tmp_path, saved_folder, calibration_table):
    start, conquered, illegal = started_game(tmp_path, saved_folder)
    frames = tmp_path / "frames"
    write_frames(frames, calibration_table, [start, conquered, illegal, 2], np.random.default_rng(4))
    service = watching(tmp_path, saved_folder, frames)
    try:
        assert service.camera_note == f"camera: watching {frames} for the game (map 2p)"
        assert service.watcher.wait_ended(1, timeout=60)  # the folder read to its end once
        game_id = service.owner.published.game_id
        assert service.store.actions(game_id)[-1] == Conquer(1)
        assert service.owner.published.public["log"][-1]["source"] == "camera"
        alerts = service.owner.published.public["alerts"]
        assert [(a["code"], a["region"], a["who"]) for a in alerts] == [("not-adjacent", 9, "Ann")]
        # the board as it was, the conquest, the Elves on region 9; the same board again is not resubmitted
        assert service.watcher.submitted == 3
    finally:
        service.close()
    assert not service.watcher.alive


def test_a_camera_that_cannot_be_opened_is_one_line_and_the_service_goes_on(tmp_path, saved_folder, caplog):
    caplog.set_level(logging.INFO, logger="companion.service.watcher")
    unplugged = tmp_path / "no-camera-here"
    service = watching(tmp_path, saved_folder, unplugged, retry_s=0.01)
    try:
        assert service.watcher.wait_ended(3, timeout=30)  # tried three times
        new_game(service)  # the table goes on by hand
        assert play(service, "pick tritons", seat=0).ok
    finally:
        service.close()
    assert not service.watcher.alive
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert warnings == [f"camera {unplugged}: cannot open it: {unplugged}: no such camera, folder or file; "
                        "trying again every 0.01 s"]


def test_no_game_no_observation(tmp_path, saved_folder, calibration_table):
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "empty.png"), calibration_table.session.empty())
    shutil.copy(frames / "empty.png", frames / "empty-2.png")
    service = watching(tmp_path, saved_folder, frames)
    try:
        assert service.watcher.wait_ended(1, timeout=30)
        assert service.watcher.submitted == 0 and service.owner.published.game_id is None
    finally:
        service.close()


@pytest.mark.parametrize("load, source, line", [
    (False, "picamera", "camera: not watched ([camera] load_calibration is off): enter the moves on the dashboard"),
    (True, "simulated:{map}:3", "camera: not watched: [camera] source is the simulated table ('simulated:2p:3'); "
                                "set picamera, camera:N or a folder of frames"),
    (True, "picamera", "camera: watching picamera for the game (map 2p)"),
])
def test_what_is_watched_and_why_not(tmp_path, saved_folder, load, source, line):
    config = camera_config(tmp_path, saved_folder, load=load, source=source)
    saved, _ = calibrated.load(config)
    assert watcher.plan(config, saved)[1] == line
    assert watcher.plan(config, None)[0] is None


def test_the_controls_locked_at_calibration_are_for_the_camera_they_were_locked_on(tmp_path, saved_folder):
    saved, _ = calibrated.load(camera_config(tmp_path, saved_folder))
    data = json.loads((saved_folder / "camera.json").read_text())
    assert watcher.recorded_controls(saved, "simulated:2p:3") == data["controls"] != {}
    assert watcher.recorded_controls(saved, "picamera") == {}


def test_the_demo_does_not_watch_the_real_camera(tmp_path, saved_folder):
    service = Service(camera_config(tmp_path, saved_folder, source="picamera"), hardware=False, camera=False).start()
    try:
        assert service.saved_calibration is not None and service.watcher is None and service.camera_note == ""
    finally:
        service.close()


def test_a_board_disagreement_is_looked_at_again_on_the_next_still_frame(tmp_path, saved_folder, calibration_table):
    start, conquered, illegal = started_game(tmp_path, saved_folder)
    # a Lost Tribe token more than region 2 has: the board alone disagrees, the follower holds for
    # another look, and the watcher gives it the next still frame of the same board (a vote)
    tribe = next(r for r, here in start.items() if here.get("lost-tribe") == 1 and r != 1)
    counted = {**start, tribe: {"lost-tribe": 2}}
    frames = tmp_path / "frames"
    write_frames(frames, calibration_table, [start, counted, 1], np.random.default_rng(4))
    service = watching(tmp_path, saved_folder, frames)
    try:
        assert service.watcher.wait_ended(1, timeout=60)
        alerts = service.owner.published.public["alerts"]
        assert [(a["code"], a["region"]) for a in alerts] == [("board-differs", tribe)]
        assert service.watcher.submitted == 3  # the first board, the count, and the same board looked at again
    finally:
        service.close()
