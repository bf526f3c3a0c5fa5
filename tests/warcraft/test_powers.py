"""Each of the 20 Warcraft special powers: its effect, and an illegal use with its reason."""
from .helpers import finish, game_with, income, play, put, why


def with_marker(g, region, item):
    g.wc.faces_left.remove(item)
    g.regions[region].add_marker(item)


def test_archaeologist_coins_per_artifact_and_place():
    g = play(game_with("archaeologist orcs"), "pick orcs", "conquer 101", "conquer 102")
    with_marker(g, 101, "doomhammer")
    with_marker(g, 102, "karazhan")
    finish(g)
    assert income(g, 0)["Artifacts and Legendary Places (Archaeologist)"] == 2


def test_battle_master_coin_per_non_empty_conquest():
    g = play(game_with("battle-master orcs"), "pick orcs", "conquer 106", "conquer 105")
    finish(g)
    assert income(g, 0)["non-empty regions conquered (Battle Master)"] == 1


def test_beast_master_beasts_conquer_and_defend():
    g = game_with("beast-master orcs", "ranger trolls")
    play(g, "pick orcs", "conquer 101", "conquer 102")
    finish(g, "redeploy 101:1 102:8")
    play(g, "pick trolls", "conquer 208")
    finish(g)
    assert g.wc.beasts == 1  # one Hill region (102)
    play(g, "abandon 101")
    g.tribes["orcs"].hand = 0
    g.regions[102].tokens = 1
    assert why(g, "conquer 108") == "no-tokens"  # Beasts need a race token beside them
    g.tribes["orcs"].hand = 1
    play(g, "conquer 108")  # 2 tokens: 1 Orc and 1 Beast
    assert g.regions[108].tokens == 1 and g.regions[108].marker("beast") == 1
    assert g.conquest_cost(g.tribes["trolls"], 108) == 2 + 1 + 1 - 1  # Orc, Beast; Trolls -1


def test_blacksmith_conquers_one_token_cheaper():
    g = play(game_with("blacksmith orcs"), "pick orcs")
    assert g.conquest_cost(g.tribes["orcs"], 101) == 2


def test_championing_free_adjacent_conquest_once_a_turn_and_ransom():
    g = game_with("championing orcs", "ranger trolls")
    play(g, "pick orcs", "conquer 101")
    assert why(g, "champion 110") == "not-adjacent"
    put(g, 108, "murloc", 3)
    play(g, "champion 108")
    assert g.regions[108].race == "orcs" and g.regions[108].tokens == 1 and g.regions[108].marker("champion")
    assert why(g, "champion 102") == "once-per-turn"
    finish(g, "redeploy 101:8 108:1")
    play(g, "pick trolls")
    assert g.conquest_cost(g.tribes["trolls"], 108) == 2 + 1 + 1 + 0  # Orc + Champion; not an Entry Region
    ann, ben = g.players[0].coins, g.players[1].coins
    play(g, "conquer 102", "conquer 108")
    orcs = g.tribes["orcs"]
    assert orcs.hand == 1  # taken prisoner: no defending token discarded
    assert g.players[0].coins == ann - 1 and g.players[1].coins == ben + 1


def test_defensive_watch_tower_makes_a_fields_region_immune():
    g = game_with("defensive orcs", "ranger trolls")
    play(g, "pick orcs", "conquer 112", "conquer 106")
    finish(g, "redeploy 112:6 106:3")
    assert g.regions[112].marker("watch-tower") == 1 and not g.regions[106].marker("watch-tower")
    play(g, "pick trolls")
    assert why(g, "conquer 112") == "immune"


def test_enraged_coins_per_defender_of_a_strong_region():
    g = play(game_with("enraged orcs"), "pick orcs")
    put(g, 106, "murloc", 2)
    play(g, "conquer 106")
    finish(g)
    assert income(g, 0)["defenders of regions conquered (Enraged)"] == 2


def test_explorer_coin_per_island():
    g = play(game_with("explorer orcs"), "pick orcs", "conquer 101", "conquer 208")
    finish(g)
    assert income(g, 0)["islands occupied (Explorer)"] == 2


def test_terrain_bonuses():
    for power, conquests, item in (
            ("farmer", ("conquer 112",), "Fields regions (Farmer)"),
            ("herbalist", ("conquer 102",), "Hill regions (Herbalist)"),
            ("ranger", ("conquer 101",), "Forest regions (Ranger)"),
            ("swamp-walker", ("conquer 101", "conquer 108"), "Swamp regions (Swamp Walker)"),
            ("mountaineer", ("conquer 202",), "Mountain regions (Mountaineer)"),
            ("mining", ("conquer 102",), "Cavern regions (Mining)"),
            ("fishing", ("conquer 102",), "regions by a Lake or Sea (Fishing)")):
        g = play(game_with(f"{power} orcs"), "pick orcs", *conquests)
        finish(g)
        assert income(g, 0)[item] == 1, power


def test_garrisoned_forts_defend_and_stay_in_decline():
    g = game_with("garrisoned orcs", "ranger trolls")
    play(g, "pick orcs", "conquer 101")
    finish(g, "redeploy 101:9")
    assert g.regions[101].marker("fort") == 1
    play(g, "pick trolls", "conquer 208")
    finish(g)
    play(g, "decline")
    assert g.regions[101].marker("fort") == 1


def test_intimidating_moves_an_opponent_token_three_times_a_turn():
    g = game_with("intimidating orcs", "ranger trolls")
    play(g, "pick orcs", "conquer 208")
    finish(g)
    play(g, "pick trolls", "conquer 101", "conquer 102")
    finish(g, "redeploy 101:1 102:8")
    play(g, "conquer 204")
    assert why(g, "intimidate 102 101") == "not-neighbour"
    put(g, 203, "trolls", 3)
    play(g, "intimidate 203 102")
    assert g.regions[203].tokens == 2 and g.regions[102].tokens == 9
    put(g, 207, "murloc", 1)
    tray = g.lost_tribe_tray
    play(g, "intimidate 207")
    assert g.regions[207].race is None and g.lost_tribe_tray == tray + 1  # Murlocs are always discarded
    play(g, "intimidate 203 102")
    assert why(g, "intimidate 203 102") == "three-per-turn"


def test_marshdweller_swamps_cost_a_coin_even_in_decline():
    g = game_with("marshdweller orcs", "ranger trolls")
    play(g, "pick orcs", "conquer 101", "conquer 108")
    finish(g, "redeploy 101:1 108:8")
    put(g, 108, "orcs", 1)
    play(g, "pick trolls")
    ann, ben = g.players[0].coins, g.players[1].coins
    play(g, "conquer 101", "conquer 108")
    assert g.players[1].coins == ben - 1 and g.players[0].coins == ann + 1
    g2 = game_with("marshdweller orcs", "ranger trolls")
    play(g2, "pick orcs", "conquer 101", "conquer 108")
    finish(g2, "redeploy 101:1 108:8")
    play(g2, "pick trolls", "conquer 208")
    finish(g2)
    play(g2, "decline")
    assert g2.tribes["orcs"].in_decline
    assert any(w == "Marshdweller" for _, _, w in g2.fees(g2.tribes["trolls"], 108))
    g2.players[1].coins = 0
    assert g2.immunity_problem(g2.tribes["trolls"], 108).code == "cannot-pay"


def test_portal_mage_exchanges_two_magic_regions_twice_a_turn():
    g = play(game_with("portal-mage orcs"), "pick orcs", "conquer 101")
    assert why(g, "portal 101 102") == "not-magic"
    play(g, "portal 101 105")
    assert g.regions[105].race == "orcs" and g.regions[101].race is None
    play(g, "portal 105 203")
    assert why(g, "portal 203 101") == "twice-per-turn"


def test_sailing_pays_no_travel_cost():
    g = play(game_with("sailing orcs"), "pick orcs")
    assert g.conquest_cost(g.tribes["orcs"], 101) == 2


def test_beasts_join_the_final_conquest_attempt():
    g = game_with("beast-master orcs", "ranger trolls")
    play(g, "pick orcs", "conquer 101", "conquer 102")
    finish(g, "redeploy 101:1 102:8")
    play(g, "pick trolls", "conquer 208")
    finish(g)
    play(g, "abandon 101")
    g.tribes["orcs"].hand = 1
    g.regions[102].tokens = 1
    put(g, 108, "murloc", 2)
    play(g, "attempt 108", "roll 1")  # 1 Orc + 1 Beast + 1 on the die = 3, short of 2 + 2 Murlocs
    assert g.regions[108].race == "murloc"
    g2 = game_with("beast-master orcs", "ranger trolls")
    play(g2, "pick orcs", "conquer 101", "conquer 102")
    finish(g2, "redeploy 101:1 102:8")
    play(g2, "pick trolls", "conquer 208")
    finish(g2)
    play(g2, "abandon 101")
    g2.tribes["orcs"].hand = 1
    g2.regions[102].tokens = 1
    put(g2, 108, "murloc", 2)
    play(g2, "attempt 108", "roll 2")  # 1 Orc + 1 Beast + 2 = 4 = 2 + 2 Murlocs
    assert g2.regions[108].race == "orcs" and g2.regions[108].marker("beast") == 1


def test_passive_powers_keep_the_base_limits():
    g = play(game_with("blacksmith dwarves"), "pick dwarves", "conquer 101", "conquer 102", "conquer 103")
    assert g.conquest_cost(g.tribes["dwarves"], 104) == 1  # 3 - 2 - 1, but 1 at least
    assert why(g, "conquer 109") == "water"
    g = play(game_with("sailing orcs"), "pick orcs")
    assert why(g, "conquer 105") == "not-entry"  # no travel cost, but still an Entry Region first
    assert why(g, "decline") == "decline-at-start"
    g = play(game_with("archaeologist orcs"), "pick orcs", "conquer 101")
    assert why(g, "use doomhammer 102") == "not-holder"


def test_an_intimidated_tauren_is_never_left_alone():
    g = game_with("intimidating orcs", "ranger tauren")
    play(g, "pick orcs", "conquer 208")
    finish(g)
    play(g, "pick tauren", "conquer 101")
    finish(g)
    g.tribes["tauren"].hand = 2
    put(g, 203, "tauren", 2)
    play(g, "intimidate 203 101")
    assert g.regions[203].race is None and g.regions[101].tokens == 10 and g.tribes["tauren"].hand == 1


def test_beast_master_redeploys_its_beasts():
    g = game_with("beast-master orcs", "ranger trolls")
    play(g, "pick orcs", "conquer 101", "conquer 102")
    finish(g, "redeploy 101:1 102:8")
    play(g, "pick trolls", "conquer 208")
    finish(g)
    play(g, "conquer 108", "redeploy 101:1 102:1 108:7")  # race tokens were enough: the Beast is in hand
    assert g.wc.beasts == 1
    beasts = 1
    assert why(g, f"herd 101:{beasts + 1}") == "token-count"
    assert why(g, f"herd 208:{beasts}") == "not-yours"
    play(g, f"herd 101:{beasts}")
    assert g.regions[101].marker("beast") == beasts and not g.regions[108].marker("beast") and g.wc.beasts == 0
    assert why(g, f"herd 101:{beasts}") == "once-per-turn"


def test_a_watch_tower_region_takes_no_bomb():
    g = game_with("defensive orcs", "farmer goblins")
    play(g, "pick orcs", "conquer 112", "conquer 106")
    finish(g, "redeploy 112:6 106:3")
    assert g.regions[112].marker("watch-tower")
    play(g, "pick goblins", "conquer 106")
    play(g, f"redeploy 106:{g.tokens_to_redeploy(g.tribes['goblins'])}")
    assert why(g, "bombs 112") == "immune"  # "immune to all powers and conquest attempts"
    assert not [a for a in g.legal_actions() if a.act == "bombs"]
