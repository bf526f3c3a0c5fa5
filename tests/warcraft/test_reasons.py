"""Reasons not covered elsewhere; and every Warcraft reason code is documented and tested."""
import re
from pathlib import Path

from .helpers import finish, game_with, play, put, why

ROOT = Path(__file__).resolve().parents[2]


def test_die_face_of_the_gnomes_free_roll():
    g = play(game_with("farmer gnomes"), "pick gnomes", "conquer 101", "airborne 203")
    assert why(g, "roll 5") == "die-face"


def test_worgen_form_first_then_once():
    g = play(game_with("farmer worgen"), "pick worgen")
    assert why(g, "redeploy -") == "form-first"
    play(g, "form worgen", "redeploy -")
    assert why(g, "form human") == "form-chosen"


def test_intimidated_token_goes_to_a_region_of_its_own_race():
    g = game_with("intimidating orcs", "ranger trolls")
    play(g, "pick orcs", "conquer 208")
    finish(g)
    play(g, "pick trolls", "conquer 101")
    finish(g)
    put(g, 203, "trolls", 2)
    assert why(g, "intimidate 203 204") == "intimidate-to"
    assert why(g, "intimidate 203") == "intimidate-to"  # discarded only when they have no other region
    assert why(g, "intimidate 203 101") is None


def test_no_bombs_left_and_nothing_to_detonate():
    g = game_with("farmer goblins", "ranger orcs")
    play(g, "pick goblins", "conquer 101")
    finish(g)
    play(g, "pick orcs", "conquer 102")
    finish(g)
    play(g, "redeploy 101:9")
    assert why(g, "detonate 102 exploding") == "nothing-to-detonate"
    g.wc.bomb_stack = 0
    assert why(g, "bombs 102") == "no-bombs-left"


def test_powers_and_artifacts_the_race_does_not_have():
    g = play(game_with("farmer orcs"), "pick orcs", "conquer 101")
    assert why(g, "enlist 1") == "no-such-power"
    assert why(g, "steal 102 101") == "no-such-power"
    assert why(g, "use heart-of-azeroth 102") == "not-usable"
    assert why(g, "conquer 101") == "own-region"


def test_forsaken_enlist_limits():
    g = play(game_with("farmer forsaken"), "pick forsaken", "conquer 101", "conquer 102", "conquer 103")
    tribe = g.tribes["forsaken"]
    saved = tribe.hand
    tribe.hand = 20 - sum(g.regions[r].tokens for r in g.regions_of("forsaken"))
    assert why(g, "enlist 1") == "tray-empty"
    tribe.hand = saved
    play(g, "redeploy 101:3 102:2 103:4")
    assert why(g, "enlist 1") == "wrong-phase"


def test_every_warcraft_reason_code_is_documented_and_tested():
    codes = set()
    for path in ROOT.joinpath("companion", "rules", "warcraft").glob("*.py"):
        codes |= set(re.findall(r'(?:Reason|IllegalAction)\("([a-z-]+)"', path.read_text()))
    base = set(re.findall(r"^\| `([a-z-]+)` \|", ROOT.joinpath("docs", "reasons.md").read_text(), re.M))
    documented = set(re.findall(r"^\| `([a-z-]+)` \|", ROOT.joinpath("docs", "warcraft.md").read_text(), re.M))
    assert codes - base - documented == set(), "reason codes missing from docs/warcraft.md"
    assert documented - codes == set(), "docs/warcraft.md lists codes the Warcraft rules no longer have"
    tests = " ".join(p.read_text() for p in ROOT.joinpath("tests", "warcraft").glob("test_*.py"))
    assert {c for c in codes if f'"{c}"' not in tests} == set(), "reason codes no test asserts"
