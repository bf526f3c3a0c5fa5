"""The 5 Artifacts and 7 Legendary Places: revealed when entered, changing hands with the region."""
import json

from companion.rules import Game, Setup

from .helpers import finish, game_with, income, play, put, setup_with, why


def with_marker(g, region, item):
    g.wc.faces_left.remove(item)
    g.regions[region].add_marker(item)


def test_a_face_down_marker_is_revealed_when_its_region_is_entered():
    g = play(game_with("farmer orcs"), "pick orcs", "conquer 101", "conquer 107")
    assert g.wc.pending == [["discover", 107]] and g.current_player == -1
    assert {a.marker for a in g.legal_actions()} == set(g.wc.faces_left) and len(g.wc.faces_left) == 12
    assert why(g, "discover 107 ashbringer") == "not-in-box"
    assert why(g, "discover 101 doomhammer") == "nothing-to-discover"
    play(g, "discover 107 doomhammer")
    assert g.regions[107].marker("doomhammer") and not g.regions[107].marker("face-down")
    assert "doomhammer" not in g.wc.faces_left


def test_the_well_of_eternity_moves_to_the_islands_lake():
    g = play(game_with("farmer orcs"), "pick orcs", "conquer 101", "conquer 107", "discover 107 well-of-eternity")
    assert g.regions[109].marker("well-of-eternity") and not g.regions[107].marker("face-down")


def test_on_a_dry_island_the_well_is_replaced_by_another_marker(tmp_path):
    dry = {"format": "smallworld-island/1", "name": "dry", "size": "S", "regions": [
        {"id": 1, "terrain": "fields", "entry": True, "marker": True, "adjacent": [2]},
        {"id": 2, "terrain": "hill", "entry": True, "adjacent": [1]}]}
    path = tmp_path / "dry.json"
    path.write_text(json.dumps(dry))
    s = setup_with("farmer orcs")
    g = Game(Setup(s.players, s.races, s.powers, f"sample-large-1+{path}", "warcraft", s.options))
    play(g, "pick orcs", "conquer 201", "discover 201 well-of-eternity")
    assert g.wc.pending == [["discover", 201]] and g.wc.gone == ["well-of-eternity"]
    play(g, "discover 201 dark-portal")
    assert g.regions[201].marker("dark-portal")


def test_aegis_of_aggramar_protects_a_region_unless_paid():
    g = game_with("farmer orcs", "ranger trolls")
    play(g, "pick orcs", "conquer 101", "conquer 102")
    with_marker(g, 102, "aegis-of-aggramar")
    play(g, "redeploy 101:1 102:8")
    assert why(g, "place aegis-of-aggramar 203") == "not-yours"
    play(g, "place aegis-of-aggramar 101", "end")
    play(g, "pick trolls")
    ann, ben = g.players[0].coins, g.players[1].coins
    g.players[1].coins = 1
    assert why(g, "conquer 101") == "cannot-pay"
    g.players[1].coins = ben
    play(g, "conquer 101")
    assert g.players[0].coins == ann + 2 and g.players[1].coins == ben - 2


def test_ashes_of_alar_conquer_any_region_once_a_turn():
    g = play(game_with("farmer orcs"), "pick orcs", "conquer 101")
    with_marker(g, 101, "ashes-of-alar")
    assert why(g, "conquer 111") == "not-adjacent"
    play(g, "use ashes-of-alar 111")
    assert g.regions[111].race == "orcs" and g.regions[111].tokens == 2
    assert g.regions[111].marker("ashes-of-alar")  # it stays where it was last used
    assert why(g, "use ashes-of-alar 203") == "once-per-turn"


def test_doomhammer_conquers_with_one_token_paying_the_previous_owner():
    g = game_with("farmer orcs", "ranger trolls")
    play(g, "pick orcs", "conquer 101")
    with_marker(g, 101, "doomhammer")
    play(g, "use doomhammer 106")  # Murlocs: no owner, the 2 coins go to the stash
    assert g.regions[106].tokens == 1 and g.wc.transfers[-1] == [0, None, 2, "Doomhammer"]
    finish(g, "redeploy 101:8 106:1")
    play(g, "pick trolls", "conquer 112")
    finish(g, "redeploy 112:9")
    ann, ben = g.players[0].coins, g.players[1].coins
    play(g, "use doomhammer 112")
    assert g.regions[112].race == "orcs" and g.players[0].coins == ann - 2 and g.players[1].coins == ben + 2
    assert why(g, "use doomhammer 105") == "once-per-turn"


def test_frostmourne_two_tokens_cheaper_once_a_turn():
    g = play(game_with("farmer orcs"), "pick orcs", "conquer 101")
    with_marker(g, 101, "frostmourne")
    put(g, 102, "murloc", 2)
    hand = g.tribes["orcs"].hand
    play(g, "use frostmourne 102")
    assert g.tribes["orcs"].hand == hand - 2  # 2 + 2 Murlocs - 2
    assert why(g, "use frostmourne 108") == "once-per-turn"
    assert why(g, "use doomhammer 108") == "not-holder"


def test_heart_of_azeroth_payment():
    g = game_with("farmer orcs", "ranger trolls")
    play(g, "pick orcs", "conquer 101")
    finish(g)
    play(g, "pick trolls", "conquer 107")
    play(g, "discover 107 heart-of-azeroth")
    play(g, "redeploy 107:9")
    assert why(g, "place frostmourne 107") == "not-placeable"
    ann = g.players[0].coins
    play(g, "place heart-of-azeroth 107", "end")  # the Orcs in 101 are next to it
    assert g.players[0].coins == ann - 1
    assert g.wc.transfers[-1] == [0, 1, 1, "Heart of Azeroth"]


def _faction_fight(place: str | None, neutral=False):
    attacker = "naga" if neutral else "orcs"
    g = game_with(f"farmer {attacker}", "ranger humans")
    play(g, f"pick {attacker}", "conquer 208")
    if place:
        with_marker(g, 208, place)
    finish(g)
    play(g, "pick humans", "conquer 101", "conquer 102")
    finish(g, "redeploy 101:1 102:8")
    put(g, 102, "humans", 1)
    return g


def test_battleground_grants_the_faction_bonus_twice_per_race():
    g = _faction_fight("battleground")
    play(g, "conquer 101", "conquer 102")
    finish(g)
    assert income(g, 0)["Faction Bonus"] == 2


def test_battleground_lets_a_neutral_race_choose_a_side():
    g = _faction_fight("battleground", neutral=True)
    assert why(g, "side scourge") == "faction"
    play(g, "side horde", "conquer 101", "conquer 102")
    assert why(g, "side alliance") == "once-per-turn"
    finish(g)
    assert income(g, 0)["Faction Bonus"] == 2
    g2 = _faction_fight(None, neutral=True)
    assert why(g2, "side horde") == "not-holder"


def test_dark_portal_two_coins():
    g = play(game_with("farmer orcs"), "pick orcs", "conquer 101")
    with_marker(g, 101, "dark-portal")
    finish(g)
    assert income(g, 0)["Dark Portal"] == 2


def test_karazhan_coin_per_other_region_of_its_terrain():
    g = play(game_with("farmer orcs"), "pick orcs", "conquer 101", "conquer 208")
    with_marker(g, 101, "karazhan")
    finish(g)
    assert income(g, 0)["Karazhan"] == 1  # 208 is a Forest like 101


def test_lights_hope_chapel_no_loss_when_attacked():
    g = game_with("farmer orcs", "ranger trolls")
    play(g, "pick orcs", "conquer 101")
    with_marker(g, 101, "lights-hope-chapel")
    finish(g, "redeploy 101:9")
    put(g, 101, "orcs", 2)
    play(g, "pick trolls")
    hand = g.tribes["orcs"].hand
    play(g, "conquer 101")
    assert g.tribes["orcs"].hand == hand + 2  # no token discarded, even on the last use


def test_meeting_stone_no_travel_cost():
    g = play(game_with("farmer orcs"), "pick orcs", "conquer 101")
    assert g.conquest_cost(g.tribes["orcs"], 208) == 3
    with_marker(g, 101, "meeting-stone")
    assert g.conquest_cost(g.tribes["orcs"], 208) == 2


def test_spirit_healer_bonus_token_at_redeployment():
    g = play(game_with("farmer orcs"), "pick orcs", "conquer 101")
    with_marker(g, 101, "spirit-healer")
    assert g.tokens_to_redeploy(g.tribes["orcs"]) == 10
    assert why(g, "redeploy 101:9") == "token-count"
    play(g, "redeploy 101:10")


def test_well_of_eternity_most_neighbours_two_coins_even_in_decline_none_on_a_tie():
    g = game_with("farmer orcs", "ranger trolls")
    play(g, "pick orcs", "conquer 102", "conquer 103")
    with_marker(g, 109, "well-of-eternity")
    finish(g)
    assert income(g, 0)["most regions by the Well of Eternity"] == 2
    play(g, "pick trolls", "conquer 208")
    finish(g)
    play(g, "decline")
    assert income(g, 0)["most regions by the Well of Eternity"] == 2  # in decline too
    put(g, 108, "trolls", 1)
    put(g, 110, "trolls", 1)
    finish(g)
    assert "most regions by the Well of Eternity" not in income(g, 1)  # 2 against 2: a tie


def test_in_decline_races_do_not_benefit_from_artifacts_and_places():
    g = game_with("farmer orcs", "ranger trolls")
    play(g, "pick orcs", "conquer 101")
    with_marker(g, 101, "dark-portal")
    finish(g)
    play(g, "pick trolls", "conquer 208")
    finish(g)
    play(g, "decline")
    assert "Dark Portal" not in income(g, 0)


def test_places_keep_the_base_limits():
    g = play(game_with("farmer orcs"), "pick orcs", "conquer 101")
    with_marker(g, 101, "meeting-stone")
    assert why(g, "conquer 111") == "not-adjacent"  # no travel cost, but not anywhere
    with_marker(g, 102, "karazhan")
    assert why(g, "place karazhan 101") == "not-placeable"
    assert why(g, "use karazhan 102") == "not-usable"
