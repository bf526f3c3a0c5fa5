"""The demo plays every game to its end: its simulated table and the camera path never wait on each
other in silence, the players answer what the companion asks as a table would, and a watchdog says
when a game stops moving."""
from __future__ import annotations

import logging
import random
import threading
import time

import pytest

import maps
from companion import inputs as hw
from companion.reconcile import expected_view
from companion.rules import Game
from companion.rules.actions import parse_notation
from companion.service.camera_demo import Camera, CameraDemo
from companion.service.config import DemoSettings
from companion.service.demo import DemoDriver
from companion.service.inputs import Declare, NewGame, Observation, Play, RollDie, Undo
from companion.service.owner import GameOwner
from companion.service.store import Store
from vision.observe import Observation as Sight
from vision.observe import RegionView

from ..rules.helpers import game_with, play as act


class ReadsRight:
    """A camera whose vision reads every region as the board has it: what is left to go wrong is
    between the table and the camera path (who waits for what), not vision."""

    def look(self, board: dict):
        self.board = board
        return Sight(True, {rid: RegionView(dict(labels)) for rid, labels in board.items()})

    def again(self):
        """The next still frame of the board last looked at (the follower holds for another look)."""
        return self.look(self.board)


@pytest.fixture
def owner(tmp_path):
    o = GameOwner(Store(tmp_path / "companion.sqlite3")).start()
    yield o
    o.stop()


def play_to_the_end(owner, driver_class, map_name: str, seed: int, players: int | None = None, **kwargs):
    """One demo game played in this thread (pace 0) with its watchdog on; the driver when it ends."""
    settings = DemoSettings(map=map_name, seed=seed, pace_s=0.0, ruleset=kwargs.pop("ruleset", "smallworld"))
    driver = driver_class(owner, settings, players or maps.load(map_name).players, **kwargs)
    game_id = driver.new_game(seed)
    driver.playing = True
    watchdog = threading.Thread(target=driver._watch, daemon=True)
    watchdog.start()
    try:
        driver.play(game_id, random.Random(seed))
    finally:
        driver._stop.set()
        watchdog.join(2)
    return driver


def assert_final_scores_shown(owner):
    public = owner.published.public
    assert public["finished"] and public["end"] is not None
    assert len(public["end"]["coins"]) == len(public["players"]) and public["end"]["winners"]


# 4p seeds 1 and 2 are the README's game and the one after it: they stopped at actions 19 and 82
@pytest.mark.parametrize("map_name", ["2p", "3p", "4p", "5p"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_camera_demo_plays_every_map_to_the_end(owner, map_name, seed):
    driver = play_to_the_end(owner, CameraDemo, map_name, seed, camera=ReadsRight())
    assert_final_scores_shown(owner)
    game = Game.replay(owner.stored.setup, owner.store.actions(owner.stored.id))
    assert game.finished and owner.published.public["actions"] == len(game.history)
    # vision reading right, the camera path followed every move: nothing was entered by hand
    assert "entered-by-hand" not in driver.answers, driver.answers
    assert driver.stalls == 0


@pytest.mark.slow
def test_the_camera_demo_plays_to_the_end_through_rendering_and_vision(owner, tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_CACHE", str(tmp_path / "cache"))
    driver = play_to_the_end(owner, CameraDemo, "2p", 1, camera=Camera("2p", 1))
    assert_final_scores_shown(owner)
    sources = {entry["source"] for entry in owner.published.log}
    assert "camera" in sources  # the board reached the companion through the camera
    assert driver.stalls == 0
    assert sorted((tmp_path / "cache").iterdir())  # the layout and the token model kept for the next start


@pytest.mark.parametrize("ruleset, map_name, players", [("smallworld", "2p", 2), ("smallworld", "5p", 5),
                                                         ("warcraft", None, 2), ("warcraft", None, 4)])
def test_the_demo_without_camera_plays_both_rulesets_to_the_end(owner, ruleset, map_name, players):
    if ruleset == "warcraft":
        from companion.rules import ruleset as rulesets
        map_name = rulesets.get("warcraft").default_map(players)
    play_to_the_end(owner, DemoDriver, map_name, 1, players, ruleset=ruleset)
    assert_final_scores_shown(owner)


def test_a_die_rolled_after_a_declared_final_attempt_is_that_attempt_even_for_berserk(owner):
    """The Berserk may roll before any conquest: the die after a declared attempt was taken for that
    (the attempt lost, the game and the table apart)."""
    g = act(game_with("swamp ratmen", "berserk sorcerers"), "pick ratmen", "conquer 4", "conquer 9",
            "redeploy 4:1 9:11", "end", "pick sorcerers", "conquer 1", "conquer 2", "conquer 3")
    owner.handle(NewGame(g.setup))
    for action in g.history:
        assert owner.handle(Play(action, None, "table")).ok
    owner.handle(Observation(ReadsRight().look(expected_view(g))))
    assert owner.handle(Declare(5, None, "web")).ok  # 2 Sorcerers in hand: short of region 5
    out = owner.handle(RollDie(3, None, "scoring-box"))
    assert out.ok and out.data["die"] == 3
    assert [a.notation() for a in owner.game.history[-2:]] == ["attempt 5", "roll 3"]


def test_a_redeployment_entered_by_hand_after_an_undo_is_not_amended_back_by_the_camera(owner):
    """The table corrects a count the camera misread (undo, enter by hand); the camera, still reading
    the stack the same, amended the hand-entered redeployment back to its misread."""
    g = act(game_with("alchemist ratmen", "swamp humans"), "pick ratmen", "conquer 4", "conquer 9")
    owner.handle(NewGame(g.setup))
    for action in g.history:
        owner.handle(Play(action, None, "table"))
    camera = ReadsRight()
    misread = {**expected_view(g), 4: {"ratmen": 6}, 9: {"ratmen": 5}}  # a token under the stack on 9
    owner.handle(Observation(camera.look(misread)))
    owner.handle(hw.Confirm(source="panel"))
    assert [a.notation() for a in owner.game.history[-2:]] == ["redeploy 4:7 9:5", "end"]
    owner.handle(Undo(source="table"))
    owner.handle(Undo(source="table"))
    for notation in ("redeploy 4:6 9:6", "end", "pick humans"):
        assert owner.handle(Play(parse_notation(notation), None, "table")).ok
    for _ in range(3):  # the camera keeps reading the stacks as before
        owner.handle(Observation(camera.look({**expected_view(owner.game), 4: {"ratmen": 6}, 9: {"ratmen": 5}})))
    assert "redeploy 4:6 9:6" in [a.notation() for a in owner.game.history]


def test_the_watchdog_says_when_the_game_has_not_moved_and_what_the_players_wait_for(owner, caplog):
    driver = DemoDriver(owner, DemoSettings(map="2p", seed=1, pace_s=0.05), 2, stall_s=0.3)
    driver.new_game(1)
    driver.playing, driver.doing = True, "waiting for the camera to answer"
    watchdog = threading.Thread(target=driver._watch, daemon=True)
    caplog.set_level(logging.INFO, logger="companion.service.demo")
    watchdog.start()
    try:
        notice = wait_for(lambda: owner.published.public.get("notice"))
        assert notice["level"] == "warning" and "has not moved" in notice["text"]
        assert "waiting for the camera to answer" in notice["text"] and "action 0" in notice["text"]
        assert any("has not moved" in r.getMessage() for r in caplog.records if r.levelno == logging.WARNING)
        assert driver.stalls == 1
        mirror = Game(owner.stored.setup)
        owner.submit(Play(mirror.legal_actions()[0], None, "demo")).result(5)
        assert "moves again" in wait_for(lambda: (owner.published.public.get("notice") or {}).get("text", "")
                                         if "moves" in (owner.published.public.get("notice") or {}).get("text", "")
                                         else None)
    finally:
        driver._stop.set()
        watchdog.join(2)


@pytest.mark.parametrize("pace_s, playing", [(0.05, False), (0.5, True)])
def test_a_finished_game_or_a_slow_pace_is_no_stall(owner, pace_s, playing):
    driver = DemoDriver(owner, DemoSettings(map="2p", seed=1, pace_s=pace_s), 2, stall_s=0.2)
    driver.new_game(1)
    driver.playing = playing  # not playing: the final scores are shown, the players have no move to make
    watchdog = threading.Thread(target=driver._watch, daemon=True)
    watchdog.start()
    time.sleep(0.8)
    driver._stop.set()
    watchdog.join(2)
    assert driver.stalls == 0 and owner.published.public.get("notice") is None


def wait_for(probe, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = probe()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("timed out")
