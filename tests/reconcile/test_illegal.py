"""An illegal conquest seen on the board is flagged at once, with the engine's reason, and never applied."""
from companion.reconcile import Follower, expected_view

from ..rules.helpers import game_with, play


def flagged(g, region, labels, die=None):
    seen = expected_view(g)
    seen[region] = labels
    f = Follower()
    assert f.see(g, expected_view(g)).in_sync  # the camera has followed the game so far
    if die is not None:
        f.die(g, die)
    out = f.see(g, seen)
    assert all(getattr(a, "region", None) != region for a in out.actions), out.actions
    assert len(out.raised) == 1, out.raised
    alert = out.raised[0]
    assert alert.region == region and alert.sentence
    again = f.see(g, seen)
    assert again.raised == [] and again.alerts == [alert]  # flagged once, not at every frame
    return alert


def test_not_adjacent():
    g = play(game_with("alchemist ratmen"), "pick ratmen", "conquer 4")
    alert = flagged(g, 20, {"ratmen": 2})
    assert alert.code == "not-adjacent" and alert.player == "Ann"
    assert alert.sentence == "Region 20 (Swamp) is not adjacent to any region your Ratmen hold."


def test_not_an_entry_region_for_a_first_conquest():
    g = play(game_with("alchemist ratmen"), "pick ratmen")
    assert flagged(g, 6, {"ratmen": 3}).code == "not-entry"


def test_too_few_tokens():
    g = play(game_with("alchemist ratmen"), "pick ratmen", "conquer 4")
    g.tribes["ratmen"].hand = 2
    assert flagged(g, 3, {"ratmen": 2}).code == "too-few-tokens"


def test_a_sea_without_seafaring():
    g = play(game_with("alchemist ratmen"), "pick ratmen", "conquer 1")
    assert flagged(g, 0, {"ratmen": 2}).code == "water"


def test_an_immune_region():
    g = play(game_with("heroic ratmen", "alchemist humans"), "pick ratmen", "conquer 4", "conquer 9",
             "redeploy 4:6 9:7", "heroes 4 9", "end", "pick humans", "conquer 10")
    assert flagged(g, 9, {"humans": 3, "hero": 1}).code == "immune"


def test_an_ally_under_diplomat():
    g = play(game_with("diplomat ratmen", "alchemist humans"), "pick ratmen", "conquer 4", "redeploy 4:13",
             "ally 1", "end", "pick humans", "conquer 3")
    assert flagged(g, 4, {"humans": 2}).code == "ally"


def test_a_race_that_is_not_the_active_one():
    g = play(game_with("alchemist ratmen", "swamp humans"), "pick ratmen", "conquer 4", "redeploy 4:12", "end",
             "pick humans")
    alert = flagged(g, 9, {"ratmen": 2})  # Ann moves during Ben's turn
    assert alert.code == "not-your-race" and alert.player == "Ann"


def test_a_conquest_after_the_final_die_roll():
    g = play(game_with("alchemist ratmen"), "pick ratmen", "conquer 4")
    g.tribes["ratmen"].hand = 1
    play(g, "attempt 3", "roll 0")
    assert flagged(g, 9, {"ratmen": 1}).code == "conquests-over"


def test_a_conquest_by_a_race_in_decline():
    g = play(game_with("alchemist ratmen", "swamp humans", "hill elves"), "pick ratmen", "conquer 4",
             "redeploy 4:12", "end", "pick humans", "redeploy -", "end", "decline", "redeploy -", "end")
    assert flagged(g, 9, {"ratmen-decline": 1}).code == "race-in-decline"


def test_a_race_in_decline_put_on_the_region_of_another_race_in_decline_is_flagged():
    """The in-decline sides look alike, so another race's side read on most regions of a race in
    decline is taken for that race's own; not on a region the camera read that race's own side on
    before: there it is a move (Ben's Humans in decline hold one region only)."""
    g = play(game_with("alchemist ratmen", "swamp humans", "hill elves"), "pick ratmen", "conquer 4",
             "redeploy 4:12", "end", "pick humans", "conquer 1", "redeploy 1:9", "end", "decline", "decline",
             "pick elves")
    assert flagged(g, 1, {"ratmen-decline": 1}).code == "race-in-decline"


def test_a_race_in_decline_put_on_another_players_active_race_is_flagged():
    """An in-decline side read on the one region of another player's active race is no decline of
    that race (a race turns over in its player's turn only): it is a race in decline put there."""
    g = play(game_with("alchemist ratmen", "swamp humans", "hill elves"), "pick ratmen", "conquer 4",
             "redeploy 4:12", "end", "pick humans", "conquer 1", "redeploy 1:9", "end", "decline",
             "redeploy 1:9", "end", "pick elves")
    assert flagged(g, 1, {"ratmen-decline": 1}).code == "race-in-decline"  # on Ben's Humans, in Ann's turn


def test_another_race_in_decline_read_on_a_race_in_decline_never_read_right_is_its_own_side():
    g = play(game_with("alchemist ratmen", "swamp humans", "hill elves"), "pick ratmen", "conquer 4",
             "redeploy 4:12", "end", "pick humans", "conquer 1", "redeploy 1:9", "end", "decline", "decline",
             "pick elves")
    f = Follower()
    seen = {**expected_view(g), 1: {"ratmen-decline": 1}}  # this printing's grey sides: misread from the first sight
    for _ in range(3):
        out = f.see(g, seen)
        assert out.raised == [] and out.actions == [] and not out.hold


def test_ghouls_in_decline_may_conquer():
    g = play(game_with("alchemist ghouls", "swamp humans"), "pick ghouls", "conquer 4", "redeploy 4:9", "end",
             "pick humans", "redeploy -", "end", "decline", "redeploy -", "end")
    seen = expected_view(g)
    seen[4] = {"ghouls-decline": 7}  # two of the nine Ghouls moved on
    seen[9] = {"ghouls-decline": 2}
    out = Follower().see(g, seen)
    assert [a.notation() for a in out.actions] == ["conquer 9 ghouls"] and out.alerts == []


def test_a_legal_conquest_and_an_illegal_one_in_the_same_view():
    g = play(game_with("alchemist ratmen"), "pick ratmen", "conquer 4")
    seen = expected_view(g)
    seen[9] = {"ratmen": 2}
    seen[20] = {"ratmen": 2}
    out = Follower().see(g, seen)
    assert [a.notation() for a in out.actions] == ["conquer 9"]
    assert [a.code for a in out.raised] == ["not-adjacent"]


def test_the_alert_clears_when_the_board_is_put_right():
    g = play(game_with("alchemist ratmen"), "pick ratmen", "conquer 4")
    f = Follower()
    seen = expected_view(g)
    seen[20] = {"ratmen": 2}
    assert f.see(g, seen).alerts
    assert f.see(g, expected_view(g)).in_sync


def test_a_standing_alert_is_raised_once_while_the_counts_under_a_stack_flicker():
    g = play(game_with("alchemist ratmen"), "pick ratmen", "conquer 4")
    f = Follower()
    seen = expected_view(g)
    seen[20] = {"ratmen": 2}
    assert [a.code for a in f.see(g, seen).raised] == ["not-adjacent"]
    seen[20] = {"ratmen": 3}  # the same tokens, one more seen this time
    out = f.see(g, seen)
    assert out.raised == [] and [a.code for a in out.alerts] == ["not-adjacent"]


def test_another_race_on_a_region_of_the_active_one_is_no_abandonment():
    g = play(game_with("alchemist ratmen", "swamp humans"), "pick ratmen", "conquer 4", "redeploy 4:12", "end",
             "pick humans", "redeploy -", "end")
    alert = flagged(g, 4, {"humans": 1})  # Ben's Humans push onto Ann's region during her turn
    assert alert.code == "not-your-race" and alert.player == "Ben"


def test_a_region_redeployed_at_the_end_of_a_turn_is_judged_at_the_next_sight():
    g = play(game_with("alchemist ratmen", "swamp humans"), "pick ratmen", "conquer 4")
    f = Follower()
    seen = expected_view(g)
    seen[4] = {"ratmen": 12}  # all her tokens on region 4
    assert f.see(g, seen).in_sync
    for action in f.confirm(g).actions:  # the redeployment as seen, and the end of Ann's turn
        g.apply(action)
    play(g, "pick humans")
    seen = expected_view(g)
    seen[4] = {"ratmen": 14}  # the Ratmen have 12 tokens in all
    f.see(g, seen)
    assert [a.code for a in f.see(g, seen).raised] == ["count"]


def test_an_illegal_move_that_goes_and_comes_back_in_the_same_turn_is_raised_once():
    g = play(game_with("alchemist ratmen"), "pick ratmen", "conquer 1")
    f = Follower()
    assert f.see(g, expected_view(g)).in_sync
    wrong = {**expected_view(g), 0: {"ratmen": 2}}
    assert [a.code for a in f.see(g, wrong).raised] == ["water"]
    assert f.see(g, expected_view(g)).in_sync  # put right (or a flicker gone)
    out = f.see(g, wrong)  # the same move again this turn: it stands again, not raised again
    assert out.raised == [] and [a.code for a in out.alerts] == ["water"]


def test_another_illegal_move_on_the_same_region_is_raised_again():
    """The table put the first one right; another race's move onto the same Sea is news."""
    g = play(game_with("alchemist ratmen", "swamp humans"), "pick ratmen", "conquer 1")
    f = Follower()
    assert f.see(g, expected_view(g)).in_sync
    assert [a.code for a in f.see(g, {**expected_view(g), 0: {"ratmen": 2}}).raised] == ["water"]
    assert f.see(g, expected_view(g)).in_sync
    play(g, "redeploy 1:12", "end", "pick humans", "conquer 4")
    assert f.see(g, expected_view(g)).in_sync
    out = f.see(g, {**expected_view(g), 0: {"humans": 2}})
    assert [(a.code, a.region, a.player) for a in out.raised] == [("water", 0, "Ben")]


def test_the_same_illegal_move_made_again_after_the_table_put_it_right_is_raised_again():
    """Read right surely in two sights since (the table put it right), the same move is made again."""
    g = play(game_with("alchemist ratmen", "swamp humans"), "pick ratmen", "conquer 1")
    f = Follower()
    assert f.see(g, expected_view(g)).in_sync
    wrong = {**expected_view(g), 0: {"ratmen": 2}}
    assert [a.code for a in f.see(g, wrong).raised] == ["water"]
    assert f.see(g, expected_view(g)).in_sync
    assert f.see(g, expected_view(g)).in_sync
    out = f.see(g, wrong)
    assert [(a.code, a.region, a.player) for a in out.raised] == [("water", 0, "Ann")]


def test_an_illegal_move_onto_a_region_whose_count_alert_stands_is_raised():
    """A count the board alone disagrees on stands on the region; then another race is put there."""
    g = play(game_with("alchemist ratmen", "swamp humans"), "pick ratmen", "conquer 4", "redeploy 4:12", "end",
             "pick humans")
    f = Follower()
    assert f.see(g, expected_view(g)).in_sync
    seen = {**expected_view(g), 4: {"ratmen": 14}}  # the Ratmen have 12 tokens in all
    f.see(g, seen)
    assert [a.code for a in f.see(g, seen).raised] == ["count"]
    out = f.see(g, {**seen, 4: {"humans": 1}})  # the Humans' one token onto the Ratmen's 12
    assert [(a.code, a.region, a.player) for a in out.raised] == [("too-few-tokens", 4, "Ben")]


def test_a_race_in_decline_put_on_one_of_two_regions_of_the_active_race_is_flagged():
    """A grey side read on one of the two regions of the player's active race, the other still read on
    its active side, is no decline (a decline turns every region over): a race in decline put there."""
    g = play(game_with("alchemist ratmen", "swamp humans", "hill elves"), "pick ratmen", "conquer 4",
             "redeploy 4:12", "end", "pick humans", "conquer 1", "conquer 2", "redeploy 1:5 2:4", "end", "decline")
    assert g.regions_of("humans") == [1, 2]  # Ben's turn
    assert flagged(g, 1, {"ratmen-decline": 1}).code == "not-your-race"  # Ann's Ratmen, in Ben's turn
