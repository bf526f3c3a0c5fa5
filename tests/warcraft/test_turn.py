"""The Warcraft turn: Entry Regions and the travel cost, Murlocs, banner and badge values, the Faction
Bonus, records; and the rulebook's worked examples as golden tests."""

import pytest

from companion.rules import Game, RecordError, Setup
from companion.rules.record import dumps, loads, replay

from .helpers import finish, game_with, income, play, put, setup_with, why


def test_setup_murlocs_mountains_and_face_down_markers():
    g = game_with("farmer orcs")
    murlocs = [rid for rid, rs in g.regions.items() if rs.race == "murloc"]
    assert murlocs == [r.id for r in g.board if r.murloc] and all(g.regions[r].tokens == 1 for r in murlocs)
    assert g.lost_tribe_tray == 15 - len(murlocs)
    assert g.regions[104].marker("mountain") and g.regions[202].marker("mountain")
    assert [rid for rid, rs in g.regions.items() if rs.marker("face-down")] == [107, 205]
    assert g.rounds == 10


def test_first_conquest_is_an_entry_region_with_the_travel_cost():
    g = play(game_with("farmer orcs"), "pick orcs")
    tribe = g.tribes["orcs"]
    assert why(g, "conquer 105") == "not-entry"
    assert g.conquest_cost(tribe, 101) == 3  # 2 + travel cost
    assert g.conquest_cost(tribe, 106) == 4  # 2 + travel cost + 1 Murloc
    play(g, "conquer 101")
    assert tribe.hand == 9 - 3 and g.regions[101].tokens == 3


def test_later_conquests_adjacent_or_any_entry_region_paying_the_travel_cost():
    g = play(game_with("farmer orcs"), "pick orcs", "conquer 101")
    tribe = g.tribes["orcs"]
    assert g.conquest_cost(tribe, 102) == 2  # an Entry Region adjacent: no travel cost
    assert g.conquest_cost(tribe, 208) == 3  # an Entry Region of another island
    assert why(g, "conquer 110") == "not-adjacent"
    play(g, "conquer 208")
    assert g.regions[208].tokens == 3


def test_murlocs_are_an_in_decline_race_of_no_player():
    g = play(game_with("farmer orcs"), "pick orcs", "conquer 101", "conquer 102")
    assert g.conquest_cost(g.tribes["orcs"], 103) == 3  # 2 + 1 Murloc
    tray = g.lost_tribe_tray
    play(g, "conquer 103")
    assert g.lost_tribe_tray == tray + 1 and g.regions[103].race == "orcs"
    assert g.faction_of("murloc") == "neutral"


def test_values_are_asked_the_first_time_a_combo_is_picked_then_remembered():
    g = game_with("herbalist forsaken", "farmer orcs", values=False)
    play(g, "pick forsaken")
    assert g.legal_actions()[0].act == "values" and g.current_player == 0
    assert why(g, "conquer 101") == "input-first"
    assert why(g, "values forsaken 4 99") == "bad-value"
    assert why(g, "values orcs 4 6") == "no-values-wanted"
    play(g, "values forsaken 4 6")
    assert g.known_values() == {"races": {"forsaken": 4}, "powers": {"herbalist": 6}}


def test_known_values_must_match():
    g = game_with("herbalist forsaken", values=False)
    g.wc.values_races["forsaken"] = 4
    play(g, "pick forsaken")
    assert why(g, "values forsaken 5 6") == "values-mismatch"
    assert why(g, "values forsaken 4 6") is None


def test_golden_forsaken_combo_4_plus_6_is_10_tokens():
    """"The player's chosen Race and Special Power combo and its corresponding 4+6=10 Race tokens.\""""
    g = play(game_with("herbalist forsaken", values=False), "pick forsaken", "values forsaken 4 6")
    assert g.tribes["forsaken"].hand == 10


def test_golden_faction_bonus_of_2_coins():
    """Archaeologist Blood Elves (Horde) conquer a Dwarves' Entry Region, then two neighbouring regions
    held by Humans: "a Faction Bonus of 2 Victory Coins: 1 for each Alliance Race"."""
    g = game_with("archaeologist blood-elves", "farmer dwarves", "ranger humans", players=("Ann", "Ben", "Cleo"),
                  races={"blood-elves": 6})
    play(g, "pick blood-elves", "conquer 301")
    finish(g)
    play(g, "pick dwarves", "conquer 101")
    finish(g)
    play(g, "pick humans", "conquer 102", "conquer 108")
    finish(g)
    put(g, 101, "dwarves", 1)
    put(g, 102, "humans", 1)
    put(g, 108, "humans", 1)
    play(g, "abandon 301", "conquer 101", "conquer 102", "conquer 108")
    finish(g)
    assert income(g, 0)["Faction Bonus"] == 2


def test_faction_bonus_counts_races_not_regions_and_decline_is_another_race():
    g = game_with("farmer orcs", "ranger humans", "mining dwarves")
    play(g, "pick orcs", "conquer 208")
    finish(g)
    play(g, "pick humans", "conquer 101", "conquer 102")
    finish(g, "redeploy 101:5 102:4")
    put(g, 101, "humans", 1)
    put(g, 102, "humans", 1)
    play(g, "abandon 208", "conquer 101", "conquer 102")
    finish(g)
    assert income(g, 0)["Faction Bonus"] == 1  # two Human regions, one race


def test_neutral_races_neither_give_nor_get_the_bonus():
    g = game_with("farmer naga", "ranger humans")
    play(g, "pick naga", "conquer 208")
    finish(g)
    play(g, "pick humans", "conquer 101")
    finish(g)
    put(g, 101, "humans", 1)
    play(g, "abandon 208", "conquer 101")
    finish(g)
    assert "Faction Bonus" not in income(g, 0)


def test_a_table_corrects_a_faction_in_the_header():
    g = game_with("farmer naga", factions={"naga": "horde"})
    assert g.faction_of("naga") == "horde" and g.faction_of("orcs") == "horde"


def test_header_options_are_checked():
    base = setup_with("farmer orcs").to_json()
    for options, message in (({"colour": 1}, "unknown field 'colour'"),
                             ({"factions": {"orcs": "scourge"}}, "alliance, horde or neutral"),
                             ({"values": {"races": {"murlocs": 3}}}, "unknown name 'murlocs'"),
                             ({"values": {"powers": {"farmer": -1}}}, "from 0 to 20")):
        with pytest.raises(RecordError, match=message):
            Setup.from_json({**base, "options": options})
    from companion.rules import get
    sw = get("smallworld")
    plain = Setup(("A", "B"), tuple(sw.race_names()), tuple(sw.power_names()), "2p").to_json()
    with pytest.raises(RecordError, match="takes no options"):
        Setup.from_json({**plain, "options": {"factions": {}}, "races": plain["races"]} | {"options": {"x": 1}})


def test_player_count_must_match_the_islands():
    s = setup_with("farmer orcs")
    with pytest.raises(RecordError, match="2 islands"):
        Game(Setup(("A", "B", "C"), s.races, s.powers, s.map, "warcraft", s.options))


def test_a_warcraft_record_round_trips_and_replays():
    g = play(game_with("farmer orcs", values=False), "pick orcs", "values orcs 5 4", "conquer 101", "conquer 107")
    play(g, g.legal_actions()[0].notation())  # the marker's face
    text = dumps(g.setup, g.history)
    assert '"ruleset": "warcraft"' in text.splitlines()[0]
    assert replay(loads(text)).fingerprint() == g.fingerprint()
    g.undo()
    assert g.wc.pending == [["discover", 107]]


def test_golden_forsaken_redeployment_and_herbalist_scoring():
    """The Forsaken force the loss of 2 tokens (1 Murloc, 1 Kobold), may buy up to 2 and buy 1, which joins
    the redeployment; with 3 regions they score 3 coins plus 1 for their Herbalist Hill."""
    g = game_with("herbalist forsaken", "farmer kobolds", values=False)
    play(g, "pick forsaken", "values forsaken 4 6", "conquer 208")
    finish(g)
    play(g, "pick kobolds", "values kobolds 5 4", "conquer 102")
    finish(g)
    put(g, 102, "kobolds", 1)
    play(g, "abandon 208", "conquer 101", "conquer 102", "conquer 103")
    assert g.wc.turn.kills == 2 and why(g, "enlist 3") == "too-many"
    coins = g.players[0].coins
    play(g, "enlist 1", "redeploy 101:4 102:4 103:3", "end")
    assert g.players[0].coins == coins - 1 + 3 + 1
    assert income(g, 0) == {"regions of the Herbalist Forsaken": 3, "Hill regions (Herbalist)": 1}


def test_copy_is_an_independent_warcraft_game():
    g = play(game_with("farmer orcs"), "pick orcs", "conquer 101")
    c = g.copy()
    assert type(c) is type(g) and c.fingerprint() == g.fingerprint()
    play(c, "conquer 102")
    assert c.fingerprint() != g.fingerprint() and g.regions[102].race is None


def test_bomb_faces_weigh_a_seeded_draw_by_what_is_left():
    g = game_with("farmer orcs")
    g.wc.bomb_faces = {"exploding": 1, "dud": 5}
    from companion.rules.warcraft.actions import Detonate
    assert g.chance_weight(Detonate(101, "dud")) == 5 and g.chance_weight(Detonate(101, "exploding")) == 1


def test_golden_blood_elves_active_forsaken_in_decline():
    """"The Blood Elves Race Power is Active; the player ... receives one bonus Victory coin, since the Blood
    Elves occupy a Magic Region. The same player's Forsaken's Herbalist Special Power is no longer Active
    ... The player receives one Victory coin per Region their Forsaken occupy, but no bonus\""""
    g = game_with("herbalist forsaken", "farmer orcs", "archaeologist blood-elves")
    play(g, "pick forsaken", "conquer 101", "conquer 102")
    finish(g)
    play(g, "pick orcs", "conquer 208")
    finish(g)
    play(g, "decline")
    finish(g)
    play(g, "pick blood-elves", "conquer 101")  # a player may conquer their own In Decline region
    finish(g)
    assert income(g, 0) == {"regions of the Archaeologist Blood Elves": 1, "Magic regions (Blood Elves)": 1,
                            "regions of the Herbalist Forsaken (in decline)": 1}
