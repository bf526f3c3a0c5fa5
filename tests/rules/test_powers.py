"""Each of the 20 special powers: its effect, and an illegal use with its reason code."""
from .helpers import end_turn, game_with, play, why


def income(g, seat=0):
    return g.players[seat].income[-1]["total"]


def test_alchemist_two_coins_every_turn_while_active_not_in_the_decline_turn():
    g = play(game_with("alchemist ratmen"), "pick ratmen", "conquer 4", "redeploy 4:12", "end")
    assert income(g) == 1 + 2
    end_turn(g)
    play(g, "decline")
    assert income(g) == 1


def test_berserk_rolls_before_the_conquest_then_chooses_the_region():
    g = play(game_with("berserk ratmen"), "pick ratmen", "conquer 4")  # 12 tokens, 10 left
    play(g, "roll 2")
    assert why(g, "roll 1") == "die-already-rolled"
    assert why(g, "attempt 3") == "die-already-rolled"
    play(g, "conquer 3")  # Lost Tribe: 3 less 2 = 1 token
    assert g.regions[3].tokens == 1 and g.tribes["ratmen"].hand == 9
    assert not g.tribes["ratmen"].conquests_over  # had enough tokens anyway


def test_berserk_conquest_that_needed_the_die_is_the_last():
    g = play(game_with("berserk ratmen"), "pick ratmen", "conquer 4")
    g.tribes["ratmen"].hand = 1
    play(g, "roll 2", "conquer 3")
    assert g.regions[3].race == "ratmen" and g.tribes["ratmen"].conquests_over
    assert why(g, "conquer 9") == "conquests-over"


def test_without_berserk_the_die_needs_a_declared_attempt():
    g = play(game_with("alchemist ratmen"), "pick ratmen", "conquer 4")
    assert why(g, "roll 2") == "no-attempt"


def test_bivouacking_encampments_defend_and_leave_on_decline():
    g = play(game_with("bivouacking ratmen", "commando humans"), "pick ratmen", "conquer 4", "conquer 9",
             "redeploy 4:6 9:7")
    assert why(g, "encamp 4:3 9:3") == "too-many-encampments"
    assert why(g, "encamp 4:3 10:2") == "not-yours"
    play(g, "encamp 4:3 9:2", "end", "pick humans")
    assert g.conquest_cost(g.tribes["humans"], 4) == 2 + 3 + 6 - 1
    end_turn(g, "redeploy -")
    play(g, "decline")
    assert g.markers_supply["encampment"] == 5


def test_bivouacking_encampments_lost_in_a_conquest_are_resettled():
    g = play(game_with("bivouacking ratmen", "commando humans"), "pick ratmen", "conquer 4", "conquer 9",
             "redeploy 4:1 9:12", "encamp 4:1 9:4", "end", "pick humans")
    g.tribes["humans"].hand = 10
    play(g, "conquer 4", "redeploy 4:10", "end")
    assert g.phase == "resettlement"
    assert why(g, "resettle ratmen - 9:6") == "too-many-encampments"
    play(g, "resettle ratmen - 9:5")
    assert g.regions[9].marker("encampment") == 5


def test_commando_conquers_with_one_token_less_but_at_least_one():
    g = play(game_with("commando ratmen"), "pick ratmen")
    assert g.conquest_cost(g.tribes["ratmen"], 4) == 1 and g.conquest_cost(g.tribes["ratmen"], 3) == 2


def test_diplomat_ally_cannot_attack_the_active_race_until_the_diplomats_next_turn():
    g = play(game_with("diplomat ratmen", "commando humans", players=("Ann", "Ben", "Cleo")),
             "pick ratmen", "conquer 4", "redeploy 4:13")
    assert why(g, "ally 0") == "not-opponent"
    play(g, "ally 1")
    assert why(g, "ally 2") == "once-per-turn"
    play(g, "end", "pick humans", "conquer 3")
    assert why(g, "conquer 4") == "ally"
    end_turn(g, "redeploy 3:9")
    end_turn(g)  # Cleo
    assert g.turn.player == 0 and g.allies == {}  # Ann's next turn: the peace is over


def test_diplomat_cannot_ally_with_an_opponent_attacked_this_turn():
    g = play(game_with("commando humans", "diplomat ratmen"), "pick humans", "conquer 4", "conquer 9",
             "redeploy 4:1 9:8", "end", "pick ratmen", "conquer 3", "conquer 4", "redeploy 3:6 4:7")
    assert why(g, "ally 0") == "attacked-this-turn"


def test_dragon_master_conquers_once_with_one_token_and_the_region_is_immune():
    g = play(game_with("dragon-master ratmen", "commando humans"), "pick ratmen", "conquer 4", "conquer 9")
    play(g, "dragon 10")
    assert g.regions[10].tokens == 1 and g.regions[10].marker("dragon") == 1
    assert why(g, "dragon 14") == "once-per-turn"
    play(g, "redeploy 4:1 9:1 10:11", "end", "pick humans", "conquer 15")
    assert why(g, "conquer 10") == "immune"
    end_turn(g, "redeploy 15:9")
    play(g, "dragon 14")  # the Dragon moves
    assert g.regions[10].marker("dragon") == 0 and g.regions[14].marker("dragon") == 1


def test_dragon_leaves_on_decline_and_cannot_enter_water():
    g = play(game_with("dragon-master ratmen"), "pick ratmen", "conquer 1")
    assert why(g, "dragon 0") == "water"
    play(g, "dragon 6", "redeploy 1:12 6:1", "end")
    end_turn(g)
    play(g, "decline")
    assert g.markers_supply["dragon"] == 1


def test_flying_ignores_adjacency_and_the_first_conquest_rule_but_not_water():
    g = play(game_with("flying ratmen"), "pick ratmen")
    play(g, "conquer 6", "conquer 19")
    assert why(g, "conquer 7") == "water"


def test_forest_hill_swamp_score_their_terrain():
    for power, region, terrain in (("forest", 2, "forest"), ("hill", 4, "hill"), ("swamp", 3, "swamp")):
        g = play(game_with(f"{power} ratmen"), "pick ratmen", f"conquer {region}")
        play(g, f"redeploy {region}:12", "end")
        assert income(g) == 2, terrain


def test_fortified_one_fortress_a_turn_defends_and_scores_only_while_active():
    g = play(game_with("fortified ratmen", "commando humans"), "pick ratmen", "conquer 4", "conquer 9",
             "fortify 4")
    assert why(g, "fortify 9") == "once-per-turn"
    play(g, "redeploy 4:5 9:6", "end")
    assert income(g) == 2 + 1
    end_turn(g)
    assert why(g, "fortify 4") == "fortress-here"
    assert why(g, "fortify 10") == "not-yours"
    play(g, "decline")
    assert income(g) == 2 and g.regions[4].marker("fortress") == 1  # stays, no coin
    end_turn(g, "redeploy -")
    assert g.conquest_cost(g.tribes["humans"], 4) == 2 + 1 + 1 - 1  # the Fortress still defends


def test_fortified_at_most_six_fortresses_on_the_map():
    g = play(game_with("fortified ratmen"), "pick ratmen", "conquer 4")
    g.markers_supply["fortress"] = 0
    assert why(g, "fortify 4") == "fortress-limit"


def test_heroic_two_heroes_make_two_regions_immune():
    g = play(game_with("heroic ratmen", "commando humans"), "pick ratmen", "conquer 4", "conquer 9", "conquer 10",
             "redeploy 4:4 9:4 10:5")
    assert why(g, "heroes 4") == "hero-count"
    assert why(g, "heroes 4 4") == "hero-count"
    play(g, "heroes 4 9", "end", "pick humans", "conquer 15")
    assert why(g, "conquer 10") is None and why(g, "conquer 9") == "immune"


def test_heroes_leave_on_decline_and_immunity_is_checked():
    g = play(game_with("heroic ratmen", "flying humans"), "pick ratmen", "conquer 4", "conquer 9",
             "redeploy 4:6 9:7", "heroes 4 9", "end", "pick humans")
    assert why(g, "conquer 4") == "immune"
    end_turn(g, "redeploy -")
    play(g, "decline")
    assert g.markers_supply["hero"] == 2


def test_merchant_skeletons_six_plus_two_tokens_score_three_plus_three_for_three_regions():
    g = play(game_with("merchant skeletons"), "pick skeletons", "conquer 4", "conquer 9", "conquer 14")
    assert g.tribes["skeletons"].hand == 8 - 2 - 2 - 3 + 0
    play(g, "redeploy 4:1 9:1 14:6", "end")  # 8 tokens: 14 held a Lost Tribe; one non-empty region, no new token
    assert g.players[0].income[-1]["items"] == [["regions of the Merchant Skeletons", 3], ["regions (Merchant)", 3]]


def test_hill_tritons_bonus_while_in_decline_skeletons_score_no_merchant_bonus():
    g = play(game_with("merchant skeletons", "commando humans", "hill tritons"), "pick skeletons", "conquer 4",
             "conquer 9", "redeploy 4:4 9:4", "end")
    end_turn(g, "redeploy -")
    play(g, "decline")
    end_turn(g, "redeploy -")
    play(g, "pick tritons", "conquer 15" if why(g, "conquer 15") is None else "conquer 21")
    held = g.regions_of("tritons")
    play(g, f"redeploy {held[0]}:{g.tokens_to_redeploy(g.tribes['tritons'])}", "end")
    items = dict((what, n) for what, n in g.players[0].income[-1]["items"])
    assert items["regions of the Merchant Skeletons (in decline)"] == 2
    assert "regions (Merchant)" not in items
    assert items.get("Hill regions (Hill)", 0) == sum(1 for r in held if g.board[r].terrain == "hill")


def test_mounted_conquers_hills_and_farmland_for_one_less():
    g = play(game_with("mounted ratmen"), "pick ratmen")
    assert g.conquest_cost(g.tribes["ratmen"], 4) == 1  # Hill
    assert g.conquest_cost(g.tribes["ratmen"], 2) == 2  # Forest


def test_pillaging_scores_non_empty_regions_conquered():
    g = play(game_with("pillaging ratmen"), "pick ratmen", "conquer 3", "conquer 4", "redeploy 3:6 4:7", "end")
    assert income(g) == 2 + 1


def test_seafaring_conquers_seas_as_empty_regions_and_keeps_them_in_decline():
    g = play(game_with("seafaring ratmen", "commando humans"), "pick ratmen", "conquer 0")
    assert g.regions[0].tokens == 2
    play(g, "conquer 1", "conquer 7" if why(g, "conquer 7") is None else "conquer 5")
    play(g, f"redeploy {' '.join(f'{r}:1' for r in g.regions_of('ratmen')[:-1])} "
            f"{g.regions_of('ratmen')[-1]}:{13 - len(g.regions_of('ratmen')) + 1}", "end")
    end_turn(g)
    play(g, "decline")
    assert g.regions[0].race == "ratmen" and income(g) == len(g.regions_of("ratmen"))


def test_only_seafaring_may_conquer_water():
    g = play(game_with("commando ratmen"), "pick ratmen", "conquer 1")
    assert why(g, "conquer 0") == "water"


def test_spirit_does_not_count_toward_the_one_race_in_decline_limit():
    g = play(game_with("spirit ratmen", "commando humans", "hill elves", "swamp orcs"), "pick ratmen",
             "conquer 4", "redeploy 4:13", "end")
    end_turn(g)
    play(g, "decline")  # Spirit Ratmen in decline
    end_turn(g)
    play(g, "pick elves" if any(s.race == "elves" for s in g.column) else f"pick {g.column[0].race}")
    active = g.players[0].active
    play(g, "conquer 21")
    play(g, f"redeploy 21:{g.tokens_to_redeploy(g.tribes[active])}", "end")
    end_turn(g)
    play(g, "decline")  # a second race in decline: the Spirits stay
    assert "ratmen" in g.tribes and g.tribes[active].in_decline
    assert income(g) == 2


def test_stout_declines_after_scoring_a_turn_of_conquests():
    g = play(game_with("stout ratmen"), "pick ratmen", "conquer 4", "redeploy 4:12", "end")
    end_turn(g)
    assert why(g, "decline") is None
    play(g, "conquer 9", "redeploy 4:6 9:6")
    play(g, "decline")
    assert income(g) == 2 and g.tribes["ratmen"].in_decline and g.regions[9].tokens == 1
    g2 = play(game_with("alchemist ratmen"), "pick ratmen", "conquer 4", "redeploy 4:12")
    assert why(g2, "decline") == "decline-at-start"


def test_underworld_caverns_are_adjacent_and_one_less():
    g = play(game_with("underworld ratmen"), "pick ratmen", "conquer 3")
    assert why(g, "conquer 14") is None  # a Cavern across the board
    assert g.conquest_cost(g.tribes["ratmen"], 14) == 2
    assert why(g, "conquer 13") == "not-adjacent"


def test_wealthy_seven_coins_at_the_end_of_the_first_turn_only():
    g = play(game_with("wealthy ratmen"), "pick ratmen")
    assert g.players[0].coins == 5
    play(g, "conquer 4", "redeploy 4:12", "end")
    assert income(g) == 1 + 7
    end_turn(g)
    end_turn(g, "redeploy 4:12")
    assert income(g) == 1


def test_an_action_no_race_or_power_of_yours_can_take():
    g = play(game_with("alchemist ratmen"), "pick ratmen", "conquer 4")
    assert why(g, "dragon 9") == "no-such-power"
    assert why(g, "convert 9") == "no-such-power"
