"""The demo plays every game to its end: its simulated table and the camera path never wait on each
other in silence, the players answer what the companion asks as a table would, and a watchdog says
when a game stops moving."""
from __future__ import annotations

import pytest

from companion import inputs as hw
from companion.reconcile import expected_view
from companion.rules.actions import parse_notation
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
        return Sight(True, {rid: RegionView(dict(labels)) for rid, labels in board.items()})


@pytest.fixture
def owner(tmp_path):
    o = GameOwner(Store(tmp_path / "companion.sqlite3")).start()
    yield o
    o.stop()


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
