"""Each of the 16 Warcraft races: its effect, and an illegal use with its reason (SAMPLE islands, 2 players)."""
from .helpers import finish, game_with, income, play, put, why


def test_blood_elves_earn_a_coin_per_magic_region():
    g = play(game_with("farmer blood-elves"), "pick blood-elves", "conquer 101", "conquer 102")
    assert why(g, "conquer 109") == "water"
    finish(g)
    assert income(g, 0)["Magic regions (Blood Elves)"] == 1


def _draenei_attacked():
    g = game_with("farmer orcs", "ranger draenei")
    play(g, "pick orcs", "conquer 208")
    finish(g)
    play(g, "pick draenei", "conquer 101", "conquer 102")
    finish(g)
    put(g, 101, "draenei", 1)
    put(g, 102, "draenei", 1)
    return g


def test_draenei_holy_light_spares_the_first_loss_of_each_opponent_turn():
    g = _draenei_attacked()
    draenei = g.tribes["draenei"]
    hand = draenei.hand
    play(g, "abandon 208", "conquer 101")
    assert draenei.hand == hand + 1  # the first token to discard stays with the player
    play(g, "conquer 102")
    assert draenei.hand == hand + 1  # the next casualty is discarded as usual
    assert why(g, "conquer 999") == "unknown-region"


def test_dwarves_conquer_mountains_two_tokens_cheaper():
    g = play(game_with("farmer dwarves"), "pick dwarves", "conquer 101", "conquer 102", "conquer 103")
    assert g.conquest_cost(g.tribes["dwarves"], 104) == 1  # 2 + Mountain - 2
    play(g, "conquer 104")
    assert g.tribes["dwarves"].hand == 0
    assert why(g, "conquer 110") == "no-tokens"


def _with_artifact(g, region, item):
    g.wc.faces_left.remove(item)
    g.regions[region].add_marker(item)


def test_ethereals_steal_an_artifact_once_a_turn():
    g = play(game_with("farmer ethereals"), "pick ethereals", "conquer 101")
    _with_artifact(g, 108, "doomhammer")
    assert why(g, "steal 102 101") == "no-artifact"
    assert why(g, "steal 108 205") == "not-adjacent"
    play(g, "steal 108 101")
    assert g.regions[101].marker("doomhammer") and not g.regions[108].marker("doomhammer")
    _with_artifact(g, 102, "frostmourne")
    assert why(g, "steal 102 101") == "once-per-turn"


def test_ethereals_conquer_an_adjacent_legendary_place_two_tokens_cheaper():
    g = play(game_with("farmer ethereals"), "pick ethereals", "conquer 101")
    _with_artifact(g, 108, "dark-portal")
    assert g.conquest_cost(g.tribes["ethereals"], 108) == 1
    play(g, "conquer 108")
    _with_artifact(g, 102, "karazhan")
    assert g.conquest_cost(g.tribes["ethereals"], 102) == 2  # once a turn


def test_forsaken_enlist_a_token_per_loss_for_a_coin_each():
    g = play(game_with("farmer forsaken"), "pick forsaken", "conquer 101", "conquer 102", "conquer 103")
    assert g.wc.turn.kills == 1
    assert why(g, "enlist 2") == "too-many"
    coins = g.players[0].coins
    play(g, "enlist 1")
    assert g.players[0].coins == coins - 1
    assert why(g, "conquer 104") == "conquests-over"
    assert g.tokens_to_redeploy(g.tribes["forsaken"]) == 10
    finish(g)
    assert sum(g.regions[r].tokens for r in g.regions_of("forsaken")) == 10


def test_gnomes_airborne_assault_once_a_turn_with_a_free_die():
    g = play(game_with("farmer gnomes"), "pick gnomes", "conquer 101", "airborne 203")
    assert why(g, "conquer 203") == "input-first"
    play(g, "roll 2")
    assert g.conquest_cost(g.tribes["gnomes"], 203) == 1  # 2 (as though adjacent) - 2 on the die, 1 at least
    play(g, "conquer 203")
    assert why(g, "airborne 204") == "once-per-turn"


def _goblins_next_to_orcs():
    g = game_with("farmer goblins", "ranger orcs")
    play(g, "pick goblins", "conquer 101")
    finish(g)
    play(g, "pick orcs", "conquer 102")
    finish(g)
    play(g, "redeploy 101:9")
    return g


def test_goblins_bomb_an_adjacent_opponent_and_it_explodes_next_turn():
    g = _goblins_next_to_orcs()
    assert why(g, "bombs 203") == "bomb-target"
    assert why(g, "bombs 102 102") == "one-bomb-per-region"
    play(g, "bombs 102", "end")
    assert g.wc.bomb_stack == 11 and g.regions[102].marker("bomb")
    finish(g)  # Ben's turn
    assert g.wc.pending == [["detonate", 102]]
    orcs = g.tribes["orcs"]
    on_102, hand = g.regions[102].tokens, orcs.hand
    play(g, "detonate 102 exploding")
    assert g.regions[102].race is None and orcs.hand == hand + on_102 - 1
    assert g.wc.bomb_faces == {"exploding": 5, "dud": 6}


def test_a_dud_bomb_does_nothing():
    g = _goblins_next_to_orcs()
    play(g, "bombs 102", "end")
    finish(g)
    play(g, "detonate 102 dud")
    assert g.regions[102].race == "orcs" and not g.regions[102].marker("bomb")


def test_humans_military_objectives_pay_a_non_horde_conqueror_and_the_humans():
    g = game_with("farmer humans", "ranger naga")
    play(g, "pick humans", "conquer 101", "redeploy 101:9")
    assert why(g, "objectives 101") == "alliance-region"
    play(g, "objectives 102 103", "end")
    ann, ben = g.players[0].coins, g.players[1].coins
    play(g, "pick naga", "conquer 102")
    assert g.players[1].coins == ben + 2  # the Naga slid to the top (free), then the Objective
    assert g.players[0].coins == ann + 2 and not g.regions[102].marker("military-objective")


def test_horde_conquest_leaves_the_military_objective():
    g = game_with("farmer humans", "ranger orcs")
    play(g, "pick humans", "conquer 101", "redeploy 101:9", "objectives 102 103", "end")
    play(g, "pick orcs", "conquer 102")
    assert g.regions[102].marker("military-objective")


def test_kobolds_pop_up_in_any_cavern():
    g = play(game_with("farmer kobolds"), "pick kobolds")
    assert why(g, "conquer 105") == "not-entry"
    assert g.conquest_cost(g.tribes["kobolds"], 102) == 2  # a Cavern: no travel cost
    play(g, "conquer 102")
    assert g.conquest_cost(g.tribes["kobolds"], 205) == 2  # a Cavern on another island, as though adjacent


def test_naga_conquer_seas_and_lakes_and_may_start_there():
    g = play(game_with("farmer naga"), "pick naga")
    assert g.conquest_cost(g.tribes["naga"], 109) == 2
    play(g, "conquer 109", "conquer 110")
    assert g.regions[109].race == "naga"


def test_night_elves_forests_cheaper_and_wisp_walls():
    g = play(game_with("farmer night-elves", "ranger orcs"), "pick night-elves")
    assert g.conquest_cost(g.tribes["night-elves"], 101) == 2  # 2 + travel - 1
    play(g, "conquer 101")
    assert g.regions[101].marker("wisp-wall") == 1
    finish(g, "redeploy 101:9")
    play(g, "pick orcs")
    assert g.conquest_cost(g.tribes["orcs"], 101) == 2 + 9 + 1 + 1  # tokens, Wisp Wall, travel
    assert why(g, "conquer 101") == "too-few-tokens"


def test_orcs_earn_a_coin_per_alliance_region_conquered():
    g = game_with("farmer humans", "ranger orcs")
    play(g, "pick humans", "conquer 101", "conquer 102")
    finish(g, "redeploy 101:1 102:8")
    play(g, "pick orcs", "conquer 101")
    finish(g)
    assert income(g, 1)["Alliance regions conquered (Orcs)"] == 1
    assert income(g, 1)["Faction Bonus"] == 1


def test_pandaren_give_harmony_and_are_paid_before_an_attack():
    g = game_with("farmer pandaren", "ranger orcs")
    play(g, "pick pandaren", "conquer 101")
    finish(g, "redeploy 101:9")
    assert g.wc.harmony == {1: "pandaren"}
    put(g, 101, "pandaren", 1)
    play(g, "pick orcs")
    ben = g.players[1].coins
    g.players[1].coins = 1
    assert why(g, "conquer 101") == "cannot-pay"
    g.players[1].coins = ben
    ann = g.players[0].coins
    play(g, "conquer 101", "conquer 102")
    assert g.players[0].coins == ann + 2 and g.players[1].coins == ben - 2  # paid once
    assert g.wc.transfers[-1] == [1, 0, 2, "Harmony"]


def test_pandaren_retrieve_harmony_at_the_start_of_their_turn():
    g = game_with("farmer pandaren", "ranger orcs")
    play(g, "pick pandaren", "conquer 101")
    finish(g)
    play(g, "pick orcs", "conquer 208")
    finish(g)
    assert g.wc.harmony == {}


def test_tauren_never_leave_a_token_alone():
    g = play(game_with("farmer tauren"), "pick tauren", "conquer 101", "conquer 108")
    assert g.regions[108].tokens == 2
    assert why(g, "redeploy 101:8 108:1") == "tauren-alone"
    finish(g, "redeploy 101:5 108:4")


def test_tauren_never_attempt_a_final_conquest_alone():
    g = play(game_with("farmer tauren"), "pick tauren", "conquer 101", "conquer 108", "conquer 102")
    g.tribes["tauren"].hand = 1
    assert why(g, "attempt 103") == "tauren-alone"
    g.tribes["tauren"].hand = 2
    assert why(g, "attempt 103") is None


def test_tauren_leave_two_tokens_per_region_in_decline():
    g = game_with("farmer tauren", "ranger orcs")
    play(g, "pick tauren", "conquer 101", "conquer 108")
    finish(g, "redeploy 101:5 108:4")
    play(g, "pick orcs", "conquer 208")
    finish(g)
    play(g, "decline")
    assert g.regions[101].tokens == 2 and g.regions[108].tokens == 2


def test_trolls_conquer_non_empty_regions_one_token_cheaper():
    g = play(game_with("farmer trolls"), "pick trolls")
    assert g.conquest_cost(g.tribes["trolls"], 106) == 3  # 2 + Murloc + travel - 1
    assert g.conquest_cost(g.tribes["trolls"], 101) == 3  # empty: no discount


def test_worgen_choose_a_form_each_turn():
    g = play(game_with("farmer worgen"), "pick worgen")
    assert why(g, "conquer 101") == "form-first"
    assert why(g, "form wolf") == "form"
    coins = g.players[0].coins
    play(g, "form human")
    assert g.players[0].coins == coins + 2
    assert why(g, "form worgen") == "form-chosen"
    play(g, "conquer 101")
    assert why(g, "form human") == "form-chosen"


def test_worgen_form_costs_a_coin_and_conquers_cheaper():
    g = play(game_with("farmer worgen"), "pick worgen")
    coins = g.players[0].coins
    g.players[0].coins = 0
    assert why(g, "form worgen") == "not-enough-coins"
    g.players[0].coins = coins
    play(g, "form worgen")
    assert g.players[0].coins == coins - 1
    assert g.conquest_cost(g.tribes["worgen"], 101) == 2


def test_draenei_holy_light_and_lights_hope_chapel_spare_a_bomb_loss():
    """Holy Light: "the first Race token they should discard (due to conquests or any type of power)";
    a Bomb's explosion "is treated as a successful conquest"."""
    for defender, place in (("draenei", None), ("orcs", "lights-hope-chapel")):
        g = game_with("farmer goblins", f"ranger {defender}")
        play(g, "pick goblins", "conquer 101")
        finish(g)
        play(g, f"pick {defender}", "conquer 102")
        if place:
            g.wc.faces_left.remove(place)
            g.regions[102].add_marker(place)
        finish(g)
        play(g, "redeploy 101:9", "bombs 102", "end")
        finish(g)
        tribe = g.tribes[defender]
        on_102, hand = g.regions[102].tokens, tribe.hand
        assert why(g, "conquer 103") == "input-first"
        play(g, "detonate 102 exploding")
        assert g.regions[102].race is None and tribe.hand == hand + on_102, defender


def test_draenei_holy_light_keeps_an_intimidated_token_that_would_be_discarded():
    g = game_with("intimidating orcs", "ranger draenei")
    play(g, "pick orcs", "conquer 208")
    finish(g)
    play(g, "pick draenei", "conquer 101")
    finish(g, "redeploy 101:9")
    put(g, 101, "draenei", 2)
    hand = g.tribes["draenei"].hand
    play(g, "abandon 208", "conquer 102")
    assert why(g, "intimidate 101 205") == "intimidate-to"  # the Draenei hold no other region: discarded
    play(g, "intimidate 101 0")
    assert g.regions[101].tokens == 1 and g.tribes["draenei"].hand == hand + 1
    play(g, "intimidate 101 0")  # the next one is discarded as usual
    assert g.regions[101].race is None and g.tribes["draenei"].hand == hand + 1
