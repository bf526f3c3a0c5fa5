"""Each step of the base turn, with the rulebook's numbers."""
import pytest

from companion.rules import IllegalAction, parse_notation
from companion.rules.actions import Reveal

from .helpers import end_turn, game_with, play, why


def test_setup_places_lost_tribes_mountains_and_gives_five_coins():
    g = game_with("merchant skeletons")
    lost = [rid for rid, rs in g.regions.items() if rs.race == "lost-tribe"]
    assert lost == [r.id for r in g.board if r.lost_tribe]
    assert all(g.regions[r.id].marker("mountain") == 1 for r in g.board if r.mountain)
    assert [p.coins for p in g.players] == [5, 5]
    assert len(g.column) == 6 and g.column[0].race == "skeletons" and g.column[0].power == "merchant"
    assert g.phase == "pick" and g.current_player == 0


def test_merchant_skeletons_come_with_6_plus_2_tokens():
    g = play(game_with("merchant skeletons"), "pick skeletons")
    assert g.tribes["skeletons"].hand == 8


def test_picking_a_lower_combo_costs_one_coin_on_each_combo_above_and_takes_coins_lying_on_it():
    g = game_with("merchant skeletons", "hill tritons", "flying ratmen")
    play(g, "pick ratmen")
    assert g.players[0].coins == 3
    assert [s.coins for s in g.column[:2]] == [1, 1]
    assert g.column[2].race not in ("ratmen",) and len(g.column) == 6  # slid up and refilled
    end_turn(g, "redeploy -")
    play(g, "pick tritons")  # the second combo now costs 1 and carries 1 coin
    assert g.players[1].coins == 5 - 1 + 1
    assert g.column[0].coins == 2


def test_not_enough_coins_and_not_in_column():
    g = game_with("merchant skeletons")
    g.players[0].coins = 2
    assert why(g, f"pick {g.column[3].race}") == "not-enough-coins"
    assert why(g, f"pick {g.column[2].race}") is None
    assert why(g, f"pick {g.race_stack[0]}") == "not-in-column"


def test_first_conquest_must_be_a_border_region_and_costs_two_plus_defenders():
    g = play(game_with("merchant ratmen"), "pick ratmen")
    assert why(g, "conquer 6") == "not-entry"  # a Hill inside the board
    assert g.conquest_cost(g.tribes["ratmen"], 1) == 2
    assert g.conquest_cost(g.tribes["ratmen"], 3) == 3  # a Lost Tribe
    assert g.conquest_cost(g.tribes["ratmen"], 5) == 3  # a Mountain marker
    play(g, "conquer 3")
    assert g.regions[3].race == "ratmen" and g.regions[3].tokens == 3 and g.tribes["ratmen"].hand == 7
    assert g.lost_tribe_tray == 18 - sum(1 for r in g.board if r.lost_tribe) + 1


def test_following_conquests_must_be_adjacent():
    g = play(game_with("merchant ratmen"), "pick ratmen", "conquer 4")
    assert why(g, "conquer 20") == "not-adjacent"
    assert why(g, "conquer 9") is None


def test_seas_and_lake_cannot_be_conquered_without_seafaring():
    g = play(game_with("merchant ratmen"), "pick ratmen", "conquer 1")
    assert why(g, "conquer 0") == "water"


def test_too_few_tokens_and_no_token_in_hand():
    g = play(game_with("merchant ratmen"), "pick ratmen")
    g.tribes["ratmen"].hand = 2
    assert why(g, "conquer 3") == "too-few-tokens"
    play(g, "conquer 4")
    assert why(g, "conquer 9") == "no-tokens"


def test_own_region_and_unknown_region():
    g = play(game_with("merchant ratmen"), "pick ratmen", "conquer 4")
    assert why(g, "conquer 4") == "own-region"
    assert g.explain(parse_notation("conquer 99")).code == "unknown-region"


def test_enemy_losses_one_token_discarded_the_rest_resettled_clockwise():
    g = play(game_with("merchant ratmen", "alchemist humans", players=("Ann", "Ben", "Cleo")),
             "pick ratmen", "conquer 4", "conquer 9", "redeploy 4:5 9:5", "end")
    play(g, "pick humans")
    ratmen = g.tribes["ratmen"]
    g.tribes["humans"].hand = 9
    assert g.conquest_cost(g.tribes["humans"], 4) == 7
    play(g, "conquer 4")
    assert ratmen.hand == 4 and g.tray("ratmen") == 13 - 5 - 4  # one discarded, four in hand
    play(g, "redeploy 4:9", "end")
    assert g.phase == "resettlement" and g.current_player == 0
    assert why(g, "resettle ratmen 4:4") == "not-yours"
    assert why(g, "resettle ratmen 9:3") == "token-count"
    play(g, "resettle ratmen 9:4")
    assert g.regions[9].tokens == 9 and g.phase == "pick" and g.current_player == 2


def test_final_conquest_attempt_with_the_reinforcement_die():
    g = play(game_with("merchant ratmen"), "pick ratmen")
    g.tribes["ratmen"].hand = 2
    play(g, "conquer 4")  # 2 tokens, nothing left
    assert why(g, "attempt 9") == "no-tokens"
    g.tribes["ratmen"].hand = 1
    assert why(g, "attempt 3") is None  # 3 needed, 1 in hand: 2 short
    assert why(g, "attempt 10") == "out-of-reach" or g.conquest_cost(g.tribes["ratmen"], 10) - 1 <= 3
    g.tribes["ratmen"].hand = 3
    assert why(g, "attempt 3") == "not-short"
    g.tribes["ratmen"].hand = 1
    play(g, "attempt 3")
    assert g.phase == "final-roll" and why(g, "conquer 9") == "roll-pending"
    assert why(g, "roll 4") == "die-face"
    play(g, "roll 1")  # 1 + 1 < 3: failed, the token stays in hand
    assert g.regions[3].race == "lost-tribe" and g.tribes["ratmen"].hand == 1
    assert why(g, "conquer 9") == "conquests-over"
    play(g, "redeploy 4:3")


def test_final_conquest_success_places_every_remaining_token():
    g = play(game_with("merchant ratmen"), "pick ratmen")
    g.tribes["ratmen"].hand = 3
    play(g, "conquer 4")
    g.tribes["ratmen"].hand = 2
    play(g, "attempt 3", "roll 2")
    assert g.regions[3].race == "ratmen" and g.regions[3].tokens == 2 and g.tribes["ratmen"].conquests_over


def test_die_is_rolled_only_after_a_declared_attempt():
    g = play(game_with("merchant ratmen"), "pick ratmen", "conquer 4")
    assert why(g, "roll 2") == "no-attempt"


def test_redeployment_keeps_one_token_per_region_and_counts_every_token():
    g = play(game_with("merchant ratmen"), "pick ratmen", "conquer 4", "conquer 9")
    assert why(g, "redeploy 4:10") == "empty-region"
    assert why(g, "redeploy 4:5 9:4") == "token-count"
    assert why(g, "redeploy 4:5 9:4 10:1") == "not-yours"
    play(g, "redeploy 4:9 9:1")
    assert why(g, "redeploy 4:9 9:1") == "already-redeployed"
    assert why(g, "conquer 10") == "conquests-over"


def test_scoring_three_regions_scores_three_coins():
    g = play(game_with("swamp ratmen"), "pick ratmen", "conquer 4", "conquer 9", "conquer 10",
             "redeploy 4:1 9:1 10:10", "end")
    assert g.players[0].coins == 5 + 3
    assert g.players[0].income[-1]["total"] == 3


def test_ready_troops_leaves_one_token_per_region_and_abandon_only_before_conquest():
    g = play(game_with("merchant ratmen"), "pick ratmen", "conquer 4", "conquer 9", "redeploy 4:5 9:5", "end")
    play(g, f"pick {g.column[0].race}", "redeploy -", "end")  # Ben picks and passes
    play(g, "abandon 9")
    assert g.regions[9].race is None and g.tribes["ratmen"].hand == 9 and g.regions[4].tokens == 1
    play(g, "conquer 3")
    assert why(g, "abandon 4") == "abandon-after-conquest"
    assert why(g, "decline") == "decline-at-start"


def test_decline_flips_one_token_per_region_scores_and_ends_the_turn():
    g = play(game_with("merchant ratmen", "hill humans"), "pick ratmen", "conquer 4", "conquer 9",
             "redeploy 4:5 9:5", "end", "pick humans", "conquer 21", "redeploy 21:9", "end")
    coins = g.players[0].coins
    play(g, "decline")
    assert g.regions[4].tokens == 1 and g.regions[9].tokens == 1 and g.tribes["ratmen"].in_decline
    assert g.tray("ratmen") == 13 - 2
    assert g.players[0].coins == coins + 2  # one per in-decline region, no Merchant bonus
    assert g.current_player == 1 and g.players[0].active is None
    assert "merchant" in g.power_discard


def test_previous_decline_race_leaves_and_its_banner_goes_to_the_bottom_of_the_stack():
    g = play(game_with("merchant ratmen", "hill humans", "forest elves", "merchant orcs"),
             "pick ratmen", "conquer 4", "redeploy 4:10", "end", "pick humans", "redeploy -", "end",
             "decline", "redeploy -", "end", "pick elves", "conquer 21", "redeploy 21:10", "end",
             "redeploy -", "end", "decline")
    assert "ratmen" not in g.tribes and g.race_stack[-1] == "ratmen" and g.regions[4].race is None
    assert g.tribes["elves"].in_decline and g.tray("ratmen") == 13


def test_a_race_picked_this_turn_cannot_decline_and_a_declining_race_cannot_conquer():
    g = play(game_with("merchant ratmen"), "pick ratmen")
    assert why(g, "decline") == "decline-at-start"
    g = play(game_with("merchant ratmen", "hill humans"), "pick ratmen", "conquer 4", "redeploy 4:10", "end",
             "pick humans", "redeploy -", "end", "decline")
    assert g.current_player == 1


def test_the_game_ends_after_the_last_round_and_the_tie_break_counts_tokens_on_the_board():
    g = play(game_with("merchant ratmen", "hill humans"), "pick ratmen", "conquer 4", "redeploy 4:10", "end",
             "pick humans", "redeploy -", "end")
    while not g.finished:
        end_turn(g, f"redeploy 4:{g.tokens_to_redeploy(g.tribes['ratmen'])}" if g.turn.player == 0 else None)
    assert g.round == 10 and g.phase == "over"
    assert why(g, "end") == "game-over"
    assert g.legal_actions() == []
    g.players[1].coins = g.players[0].coins
    out = g.outcome()
    assert out["winners"] == [0] and "tied" in out["tie_break"]


def test_an_illegal_action_raises_a_value_error_with_its_reason():
    g = game_with("swamp ratmen")
    with pytest.raises(ValueError) as info:
        g.apply(parse_notation("conquer 4"))
    assert isinstance(info.value, IllegalAction) and info.value.reason == "pick-first"


def test_power_badges_are_reshuffled_when_the_stack_runs_out_and_revealed_by_chance():
    g = game_with("swamp ratmen")
    g.power_stack = []
    g.power_discard = ["stout", "hill"]
    play(g, "pick ratmen")
    end_turn(g, "redeploy -")
    assert g.current_player == -1 and g.column[-1].power is None
    assert set(a.power for a in g.legal_actions()) == {"stout", "hill"}
    assert why(g, "reveal flying") == "not-in-pile"
    assert why(g, f"pick {g.column[0].race}") == "reveal-first"
    g.apply(Reveal("hill"))
    assert g.column[-1].power == "hill" and g.current_player == 1 and g.power_pile == ["stout"]


def test_undo_restores_the_previous_state_exactly():
    g = play(game_with("swamp ratmen"), "pick ratmen", "conquer 4")
    before = g.fingerprint()
    play(g, "conquer 9")
    assert g.undo() == parse_notation("conquer 9")
    assert g.fingerprint() == before


def test_replace_corrects_a_past_redeployment_and_replays_the_rest():
    g = play(game_with("swamp ratmen"), "pick ratmen", "conquer 4", "conquer 9", "redeploy 4:11 9:1", "end")
    after = len(g.history)
    assert g.replace(3, parse_notation("redeploy 4:6 9:6")) == parse_notation("redeploy 4:11 9:1")
    assert (g.regions[4].tokens, g.regions[9].tokens) == (6, 6) and len(g.history) == after
    before = g.fingerprint()
    with pytest.raises(IllegalAction) as info:
        g.replace(3, parse_notation("redeploy 4:9 9:9"))  # more tokens than the Ratmen have
    assert info.value.reason == "token-count" and g.fingerprint() == before
    with pytest.raises(IllegalAction) as info:
        g.replace(after, parse_notation("redeploy 4:4 9:4"))
    assert info.value.reason == "no-such-action"


def test_insert_puts_a_missed_fortress_into_the_past_and_scores_it():
    g = play(game_with("fortified ratmen", "swamp humans"), "pick ratmen", "conquer 4", "conquer 9",
             "redeploy 4:6 9:5", "end", "pick humans", "conquer 20")
    coins = g.players[0].coins
    g.insert(4, parse_notation("fortify 9"))  # placed before Ann ended her turn, under a stack
    assert [a.notation() for a in g.history[3:6]] == ["redeploy 4:6 9:5", "fortify 9", "end"]
    assert g.regions[9].marker("fortress") == 1 and g.players[0].coins == coins + 1
    before = g.fingerprint()
    with pytest.raises(IllegalAction) as info:
        g.insert(6, parse_notation("fortify 4"))  # in Bob's turn: the Humans have no Fortresses
    assert info.value.reason == "no-such-power" and g.fingerprint() == before
    assert g.remove(4) == parse_notation("fortify 9") and g.regions[9].marker("fortress") == 0
