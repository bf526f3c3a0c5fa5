"""Each of the 14 races: its effect, and an illegal use with its reason code."""
from .helpers import end_turn, game_with, play, why


def test_amazons_conquer_with_four_extra_tokens_held_back_after_redeployment():
    g = play(game_with("merchant amazons", "swamp ratmen"), "pick amazons")
    amazons = g.tribes["amazons"]
    assert amazons.hand == 6 + 2 + 4
    play(g, "conquer 4", "conquer 9", "conquer 10")
    assert why(g, "redeploy 4:1 9:1 10:10") == "token-count"  # 4 must leave the map
    play(g, "redeploy 4:1 9:1 10:6")
    assert amazons.reserve == 4 and amazons.hand == 0 and g.tray("amazons") == 15 - 12
    play(g, "end")
    end_turn(g, "redeploy -")  # Ben
    assert amazons.reserve == 4
    play(g, "conquer 14")  # ready troops: 5 from the map and the 4 held back, 3 used
    assert amazons.reserve == 0 and amazons.hand == 5 + 4 - 3


def test_amazons_short_of_tokens_leave_a_region_empty():
    g = play(game_with("merchant amazons"), "pick amazons")
    g.tribes["amazons"].hand = 5
    play(g, "conquer 4", "conquer 9")  # 1 token left: 5 in all, 4 leave the map
    assert why(g, "redeploy 4:1 9:1") == "token-count"
    play(g, "redeploy 9:1")
    assert g.regions[4].race is None and g.tribes["amazons"].reserve == 4


def test_dwarves_score_mines_even_in_decline():
    g = play(game_with("merchant dwarves", "swamp ratmen"), "pick dwarves")
    g.tribes["dwarves"].hand = 8
    play(g, "conquer 2", "conquer 3", "redeploy 2:4 3:4", "end")  # Forest with a Mine, Swamp
    assert g.players[0].income[-1]["total"] == 2 + 1 + 2  # regions, the Mine, Merchant
    end_turn(g, "redeploy -")
    play(g, "decline")
    assert g.players[0].income[-1]["total"] == 2 + 1  # in decline: regions and the Mine, no Merchant


def test_elves_lose_no_token_when_conquered():
    g = play(game_with("merchant elves", "commando ratmen"), "pick elves", "conquer 4", "redeploy 4:8", "end",
             "pick ratmen")
    g.tribes["ratmen"].hand = 12
    play(g, "conquer 4")
    assert g.tribes["elves"].hand == 8 and g.tray("elves") == 11 - 8


def test_ghouls_in_decline_keep_all_tokens_and_conquer_first():
    g = play(game_with("merchant ghouls", "swamp ratmen", "hill humans"), "pick ghouls", "conquer 4", "conquer 9",
             "redeploy 4:4 9:3", "end")
    end_turn(g, "redeploy -")
    play(g, "decline")
    assert g.regions[4].tokens == 4 and g.regions[9].tokens == 3  # all stay on the map
    end_turn(g, "redeploy -")
    play(g, "conquer 10 ghouls")  # before picking: Ghouls in decline conquer at the start of the turn
    assert g.regions[10].race == "ghouls"
    assert why(g, "pick humans") == "redeploy-first"
    play(g, "redeploy 4:2 9:2 10:3 ghouls", "pick humans")
    assert why(g, "conquer 3 ghouls") == "conquests-over"
    play(g, "conquer 21")
    assert why(g, "conquer 3 ghouls") == "ghouls-first"


def test_a_race_in_decline_other_than_ghouls_cannot_conquer():
    g = play(game_with("merchant ratmen", "swamp humans"), "pick ratmen", "conquer 4", "redeploy 4:10", "end")
    end_turn(g, "redeploy -")
    play(g, "decline")
    end_turn(g, "redeploy -")
    assert why(g, "conquer 9 ratmen") == "race-in-decline"


def test_giants_conquer_next_to_their_mountain_for_one_less():
    g = play(game_with("merchant giants"), "pick giants", "conquer 15")
    assert g.conquest_cost(g.tribes["giants"], 10) == 2  # Lost Tribe: 3, less 1 next to a held Mountain
    assert g.conquest_cost(g.tribes["giants"], 21) == 1
    play(g, "conquer 21")
    assert g.conquest_cost(g.tribes["giants"], 20) == 2  # next to the Giants, not to their Mountain


def test_halflings_enter_anywhere_and_dig_holes_in_their_first_two_regions():
    g = play(game_with("merchant halflings", "commando ratmen"), "pick halflings")
    assert why(g, "conquer 6") is None  # not a border region
    g.tribes["halflings"].hand = 11
    play(g, "conquer 6", "conquer 12", "conquer 11")
    assert [g.regions[r].marker("hole") for r in (6, 12, 11)] == [1, 1, 0]
    play(g, "redeploy 6:2 12:2 11:7", "end", "pick ratmen", "conquer 5")
    assert why(g, "conquer 6") == "immune"
    assert why(g, "conquer 11") is None


def test_halflings_holes_leave_on_decline():
    g = play(game_with("merchant halflings", "commando ratmen"), "pick halflings", "conquer 6", "conquer 12",
             "redeploy 6:4 12:4", "end")
    end_turn(g, "redeploy -")
    play(g, "decline")
    assert g.markers_supply["hole"] == 2 and g.regions[6].marker("hole") == 0


def test_humans_score_farmland():
    g = play(game_with("merchant humans"), "pick humans", "conquer 1", "conquer 2", "redeploy 1:3 2:4", "end")
    assert g.players[0].income[-1]["items"] == [["regions of the Merchant Humans", 2],
                                               ["Farmland regions (Humans)", 1], ["regions (Merchant)", 2]]


def test_orcs_score_non_empty_regions_conquered_this_turn():
    g = play(game_with("forest orcs"), "pick orcs", "conquer 4", "conquer 3", "conquer 10", "redeploy 4:1 3:3 10:5",
             "end")
    # 3 regions; 3 and 10 held Lost Tribes (non-empty), 4 was empty; 10 is a Forest
    assert g.players[0].income[-1]["total"] == 3 + 2 + 1


def test_ratmen_have_eight_tokens_and_no_other_benefit():
    g = play(game_with("forest ratmen"), "pick ratmen")
    assert g.tribes["ratmen"].hand == 8 + 4


def test_skeletons_take_one_token_per_two_non_empty_regions_within_the_box():
    g = play(game_with("forest skeletons"), "pick skeletons", "conquer 3", "conquer 4", "conquer 10")
    assert g.tribes["skeletons"].conquered_nonempty == 2
    assert why(g, "redeploy 3:3 4:3 10:4") == "token-count"  # 10 tokens, +1 new one: 11 to place
    play(g, "redeploy 3:3 4:3 10:5")
    assert g.tray("skeletons") == 20 - 11


def test_skeletons_get_nothing_when_the_tray_is_empty():
    g = play(game_with("forest skeletons"), "pick skeletons", "conquer 3", "conquer 4", "conquer 10")
    g.tribes["skeletons"].hand += g.tray("skeletons")  # every Skeleton token is in play
    total = g.tokens_to_redeploy(g.tribes["skeletons"])
    assert total == sum(g.regions[r].tokens for r in (3, 4, 10)) + g.tribes["skeletons"].hand == 20


def test_sorcerers_replace_a_lone_active_token_once_per_turn_per_opponent():
    g = play(game_with("forest ratmen", "merchant sorcerers"), "pick ratmen", "conquer 4", "conquer 9",
             "redeploy 4:1 9:11", "end", "pick sorcerers", "conquer 3")
    assert why(g, "convert 9") == "not-alone"
    play(g, "convert 4")
    assert g.regions[4].race == "sorcerers" and g.regions[4].tokens == 1
    assert g.tribes["ratmen"].hand == 0 and g.tray("ratmen") == 13 - 11  # to the tray, none in hand
    assert g.tray("sorcerers") == 18 - 7 - 1
    assert why(g, "convert 9") in ("once-per-opponent", "not-alone")


def test_sorcerers_convert_an_elf_who_loses_the_token_and_an_encampment_protects():
    g = play(game_with("bivouacking elves", "merchant sorcerers"), "pick elves", "conquer 4", "conquer 9",
             "redeploy 4:1 9:10", "encamp 9:1", "end", "pick sorcerers", "conquer 3")
    play(g, "convert 4")
    assert g.tray("elves") == 11 - 10
    g2 = play(game_with("bivouacking elves", "merchant sorcerers"), "pick elves", "conquer 4", "conquer 9",
              "redeploy 4:1 9:10", "encamp 4:1", "end", "pick sorcerers", "conquer 3")
    assert why(g2, "convert 4") == "not-alone"


def test_sorcerers_a_lair_does_not_protect_and_an_immune_region_cannot_be_targeted():
    g = play(game_with("forest trolls", "merchant sorcerers"), "pick trolls", "conquer 4", "conquer 9",
             "redeploy 4:1 9:8", "end", "pick sorcerers", "conquer 3")
    assert g.regions[4].marker("troll-lair") == 1
    assert why(g, "convert 4") is None
    g.regions[4].markers["hero"] = 1
    g.markers_supply["hero"] -= 1
    assert why(g, "convert 4") == "immune"


def test_sorcerers_need_a_token_in_the_tray():
    g = play(game_with("forest ratmen", "merchant sorcerers"), "pick ratmen", "conquer 4", "conquer 9",
             "redeploy 4:1 9:11", "end", "pick sorcerers", "conquer 3")
    g.tribes["sorcerers"].hand += g.tray("sorcerers")
    assert why(g, "convert 4") == "tray-empty"


def test_tritons_conquer_coastal_regions_for_one_less():
    g = play(game_with("forest tritons"), "pick tritons")
    assert g.conquest_cost(g.tribes["tritons"], 1) == 1
    assert g.conquest_cost(g.tribes["tritons"], 4) == 2


def test_trolls_lairs_defend_never_score_stay_in_decline_and_go_when_conquered():
    g = play(game_with("forest trolls", "commando ratmen"), "pick trolls", "conquer 4", "conquer 9",
             "redeploy 4:1 9:8", "end")
    assert g.regions[4].marker("troll-lair") == 1 and g.regions[9].marker("troll-lair") == 1
    assert g.players[0].income[-1]["total"] == 2  # Lairs give no coin
    play(g, "pick ratmen")
    assert g.conquest_cost(g.tribes["ratmen"], 4) == 2 + 1 + 1 - 1
    play(g, "conquer 4")
    assert g.regions[4].marker("troll-lair") == 0
    play(g, "redeploy 4:12", "end")
    assert g.phase == "conquest"  # the lone Troll was discarded: nothing to resettle
    play(g, "decline")
    assert g.regions[9].marker("troll-lair") == 1  # stays after decline


def test_trolls_lair_goes_when_the_region_is_abandoned():
    g = play(game_with("forest trolls", "commando ratmen"), "pick trolls", "conquer 4", "conquer 9",
             "redeploy 4:1 9:8", "end")
    end_turn(g, "redeploy -")
    play(g, "abandon 4")
    assert g.regions[4].marker("troll-lair") == 0 and g.markers_supply["troll-lair"] == 9


def test_wizards_score_magic_sources():
    g = play(game_with("forest wizards"), "pick wizards", "conquer 1", "conquer 5", "redeploy 1:3 5:6", "end")
    assert g.players[0].income[-1]["total"] == 2 + 1
