"""Reasons not covered by the turn, race and power tests; and every reason code is documented and tested."""
import re
from pathlib import Path

import pytest

from companion.rules import IllegalAction

from .helpers import game_with, play, why

ROOT = Path(__file__).resolve().parents[2]


def test_no_active_race_to_decline_while_picking():
    assert why(game_with("alchemist ratmen"), "decline") == "no-active-race"


def test_wrong_phase_for_a_pick_during_conquest():
    g = play(game_with("alchemist ratmen"), "pick ratmen")
    assert why(g, f"pick {g.column[0].race}") == "wrong-phase"


def test_not_your_race_and_unknown_race():
    g = play(game_with("alchemist ratmen", "swamp humans"), "pick ratmen", "conquer 4", "redeploy 4:12", "end",
             "pick humans")
    assert why(g, "conquer 9 ratmen") == "not-your-race"
    assert why(g, "conquer 9 dragons") == "unknown-race"


def test_nothing_to_reveal_and_nothing_to_undo():
    g = game_with("alchemist ratmen")
    assert why(g, "reveal flying") == "nothing-to-reveal"
    with pytest.raises(IllegalAction) as info:
        g.undo()
    assert info.value.reason == "nothing-to-undo"


def test_sorcerers_cannot_replace_a_lost_tribe():
    g = play(game_with("alchemist sorcerers"), "pick sorcerers", "conquer 4")
    assert why(g, "convert 3") == "not-active-opponent"


def _two_defenders():
    g = play(game_with("alchemist ratmen", "swamp humans", "commando giants", players=("Ann", "Ben", "Cleo")),
             "pick ratmen", "conquer 4", "conquer 9", "redeploy 4:6 9:6", "end",
             "pick humans", "conquer 21", "conquer 14", "redeploy 21:4 14:5", "end", "pick giants")
    g.tribes["giants"].hand = 11
    play(g, "conquer 15", "conquer 10")
    g.tribes["giants"].hand = 11 - g.regions[15].tokens - g.regions[10].tokens
    return g


def test_resettlement_goes_clockwise_from_the_attackers_left():
    g = _two_defenders()
    g.tribes["giants"].hand = 11
    play(g, "conquer 14")  # Ben's 5 Humans: 4 in hand
    g.tribes["giants"].hand = 20
    play(g, "conquer 9")  # Ann's 6 Ratmen: 5 in hand
    play(g, f"redeploy 10:1 15:1 14:1 9:{g.tokens_to_redeploy(g.tribes['giants']) - 3}", "end")
    assert [seat for seat, _ in g.resettle_queue] == [0, 1]  # Cleo's left is Ann
    assert why(g, "resettle humans 21:4") == "resettle-order"
    assert why(g, "conquer 3") == "resettle-first"
    assert why(g, "resettle ratmen - 4:1") == "no-encampments"
    play(g, "resettle ratmen 4:5", "resettle humans 21:4")
    assert g.phase == "conquest" and g.turn.player == 0


def test_every_reason_code_is_documented_and_tested():
    codes = set()
    for path in ROOT.joinpath("companion", "rules").glob("*.py"):
        codes |= set(re.findall(r'(?:Reason|IllegalAction)\("([a-z-]+)"', path.read_text()))
    documented = set(re.findall(r"^\| `([a-z-]+)` \|", ROOT.joinpath("docs", "reasons.md").read_text(), re.M))
    assert codes - documented == set(), "reason codes missing from docs/reasons.md"
    assert documented - codes == set(), "docs/reasons.md lists codes the engine no longer has"
    tests = " ".join(p.read_text() for p in ROOT.joinpath("tests", "rules").glob("test_*.py"))
    assert {c for c in codes if f'"{c}"' not in tests} == set(), "reason codes no test asserts"
