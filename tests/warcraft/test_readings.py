"""Every "any region" rule against the Entry and First Conquest rules, the Well's redraw, and the
readings docs/warcraft.md decides (issue 24, findings 11, 12, 15 and the readings). Each test quotes
the rulebook sentence it checks."""
import json

from companion.rules import Game

from .helpers import finish, game_with, play, put, setup_with, why


def with_marker(g, region, item):
    g.wc.faces_left.remove(item)
    g.regions[region].add_marker(item)


def test_gnomes_airborne_assault_may_be_their_first_conquest():
    # "Gnomes can launch, once per turn, an airborne assault on any Region of any board. They may
    # treat this Region as though it were adjacent."
    g = play(game_with("farmer gnomes"), "pick gnomes")
    assert not g.board[105].entry
    play(g, "airborne 105", "roll 0")
    assert g.conquest_cost(g.tribes["gnomes"], 105) == 2  # as though adjacent: no travel cost
    play(g, "conquer 105")
    assert g.regions[105].race == "gnomes"
    assert why(g, "conquer 103") == "not-adjacent"  # the assault was once


def test_ashes_of_alar_cost_is_the_adjacent_cost_with_its_minimum():
    # "The owner must still pay the normal conquest cost as if this Region was adjacent"; "a minimum of
    # 1 token is still required"
    g = play(game_with("blacksmith dwarves"), "pick dwarves", "conquer 101")
    with_marker(g, 101, "ashes-of-alar")
    dwarves = g.tribes["dwarves"]
    assert g.conquest_cost(dwarves, 202, adjacent=True) == 1  # 2 + Mountain - 2 (Dwarves) - 1 (Blacksmith)
    play(g, "use ashes-of-alar 202")
    assert g.regions[202].race == "dwarves" and g.regions[202].tokens == 1
    g2 = play(game_with("blacksmith dwarves"), "pick dwarves", "conquer 101")
    with_marker(g2, 101, "ashes-of-alar")
    play(g2, "use ashes-of-alar 202", "redeploy 101:7 202:2")  # redeploying into it works


def test_ashes_of_alar_reach_any_region_but_doomhammer_follows_the_usual_reach():
    # Ashes: "conquer any Region on any board"; Doomhammer: "may conquer any 1 region with only 1 token"
    # (the reading: "any" says what it may hold, not how far it may be: see docs/warcraft.md)
    g = play(game_with("farmer orcs"), "pick orcs", "conquer 101")
    with_marker(g, 101, "ashes-of-alar")
    with_marker(g, 101, "doomhammer")
    assert not g.board[203].entry
    assert why(g, "use doomhammer 203") == "not-adjacent"
    assert why(g, "use doomhammer 102") is None
    assert why(g, "use ashes-of-alar 203") is None


def test_a_well_drawn_on_a_dry_island_is_replaced_by_a_legendary_place(tmp_path):
    # "move the Well of Eternity token to the Sea or Lake Region on the same board (if any, otherwise
    # draw another Legendary Place token)"
    island = {"format": "smallworld-island/1", "name": "dry", "size": "S", "regions": [
        {"id": 1, "terrain": "forest", "entry": True, "marker": True, "adjacent": [2]},
        {"id": 2, "terrain": "hill", "entry": True, "adjacent": [1]}]}
    path = tmp_path / "dry.json"
    path.write_text(json.dumps(island))
    setup = setup_with("farmer orcs")
    setup = type(setup)(**{**setup.__dict__, "map": f"sample-large-1+{path}"})
    g = play(Game(setup), "pick orcs", "conquer 201", "discover 201 well-of-eternity")
    assert g.awaiting() == ("discover", 201)
    assert why(g, "discover 201 doomhammer") == "not-a-place"
    assert {a.marker for a in g.legal_actions()} == {"battleground", "dark-portal", "karazhan",
                                                     "lights-hope-chapel", "meeting-stone", "spirit-healer"}
    play(g, "discover 201 karazhan")
    assert g.regions[201].marker("karazhan") and g.awaiting() is None


def test_worgen_choose_their_form_before_anything_else():
    # "At the beginning of each of their turns, Worgen must choose between their human form ... or
    # Worgen form"
    g = play(game_with("farmer worgen"), "pick worgen")
    assert why(g, "redeploy -") == "form-first"
    assert why(g, "conquer 101") == "form-first"
    play(g, "form human", "conquer 101")
    assert why(g, "form worgen") == "form-chosen"


def test_military_objectives_may_go_on_a_sea_or_lake():
    # "they place their 2 Military Objective tokens ... in up to 2 different non-Alliance regions";
    # "Seas and Lakes ... give the standard 1 VC per Region": a Sea or a Lake is a Region
    g = play(game_with("farmer humans"), "pick humans", "conquer 101", "redeploy 101:9")
    assert g.board[109].water
    assert why(g, "objectives 109 206") is None


def test_the_champion_ransomed_is_redeployed_like_a_race_token():
    # "The owner of the Champion must immediately pay their opponent a 1 Victory Coin ransom and
    # retrieve it. They then redeploy it like a regular Race token"
    g = game_with("championing orcs", "ranger trolls")
    play(g, "pick orcs", "conquer 101")
    put(g, 108, "murloc", 3)
    play(g, "champion 108")
    finish(g, "redeploy 101:8 108:1")
    play(g, "pick trolls", "conquer 102", "conquer 108")
    assert g.wc.loose_champion == "orcs" and not any(rs.marker("champion") for rs in g.regions.values())
    play(g, f"redeploy 102:{g.tokens_to_redeploy(g.tribes['trolls']) - 1} 108:1", "end")
    assert g.phase == "resettlement" and why(g, "place champion 102") == "not-yours"
    assert why(g, "herd 101:1") == "nothing-to-redeploy"
    assert why(g, "place champion 101") is None
    play(g, "place champion 101", "resettle orcs 101:1")
    assert g.regions[101].marker("champion") == 1
    assert g.conquest_cost(g.tribes["trolls"], 101) == 2 + 9 + 1 - 1  # the Champion defends: 1 token


def test_ethereals_legendary_place_discount_spends_their_once_a_turn_choice():
    # "Once per turn, they can steal an Artifact ... OR they may conquer any adjacent Region that
    # contains a Legendary Place at a cost of 2 tokens less than normal"
    g = play(game_with("farmer ethereals"), "pick ethereals", "conquer 101")
    with_marker(g, 102, "karazhan")
    with_marker(g, 108, "doomhammer")
    eth = g.tribes["ethereals"]
    assert g.conquest_cost(eth, 102) == 1  # 2, less 2, at least 1
    play(g, "conquer 102")
    assert why(g, "steal 108 101") == "once-per-turn"
