"""Misreads: a region vision read with a low confidence never moves the game alone nor raises an alert,
and one misread never ends a turn the table did not end."""
from companion.reconcile import Follower, expected_view
from companion.reconcile.corrections import _as_read
from companion.rules.actions import Conquer
from vision.observe import Observation, RegionView

from ..rules.helpers import game_with, play


def observation(view, confidence=None, room=None):
    confidence, room = confidence or {}, room or {}
    return Observation(True, {rid: RegionView(dict(labels), False, confidence.get(rid, 0.7), room.get(rid, 0))
                              for rid, labels in view.items()})


def still(f, g, obs):
    """The follower looks at still frames of one board (the same reading) as long as it holds for
    another: the outcome that decides, with every alert raised on the way."""
    raised = []
    for _ in range(3):
        out = f.observe(g, obs)
        raised += out.raised
        if not out.hold:
            break
    out.raised = raised
    return out


def test_a_low_confidence_misread_is_neither_acted_on_nor_flagged():
    g = play(game_with("dragon-master ratmen"), "pick ratmen", "conquer 4")
    seen = expected_view(g)
    f = Follower()
    assert f.see(g, expected_view(g)).in_sync  # region 3 was read right before
    seen[3] = {"dragon": 1}  # the Lost Tribe token read as the Dragon
    out = f.observe(g, observation(seen, {3: 0.05}))
    assert out.actions == [] and out.raised == [] and out.alerts == []
    f.observe(g, observation(seen, {3: 0.9}))
    out = f.observe(g, observation(seen, {3: 0.9}))
    assert [a.code for a in out.raised] == ["board-differs"]


def test_the_active_race_on_a_new_region_is_trusted_even_when_vision_is_unsure():
    g = play(game_with("alchemist ratmen"), "pick ratmen", "conquer 4")
    seen = expected_view(g)
    seen[20] = {"ratmen": 2}  # not adjacent: an illegal conquest is flagged by the last still frame
    f = Follower()
    out = f.observe(g, observation(seen, {20: 0.15}))
    assert out.hold and out.raised == [] and out.actions == []  # read too unsurely: another look
    out = still(f, g, observation(seen, {20: 0.15}))
    assert [a.code for a in out.raised] == ["not-adjacent"] and out.actions == []


def test_an_illegal_conquest_read_faintly_is_flagged_when_the_next_sight_reads_it_the_same():
    """Read at 0.06 a frame (a lamp's glare reads a misread so), two frames are too faint to flag; the
    tokens still lie there at the next sight, whose frames add up (``ALERT_SURE``)."""
    g = play(game_with("alchemist ratmen"), "pick ratmen", "conquer 4")
    seen = expected_view(g)
    seen[20] = {"ratmen": 2}
    f = Follower()
    out = still(f, g, observation(seen, {20: 0.06}))
    assert out.raised == [] and out.actions == [] and out.alerts == []
    out = still(f, g, observation(seen, {20: 0.06}))
    assert [a.code for a in out.raised] == ["not-adjacent"] and out.actions == []


def test_another_race_on_a_region_read_right_before_is_trusted_even_when_vision_is_unsure():
    g = play(game_with("alchemist ratmen", "swamp humans"), "pick ratmen", "conquer 4", "redeploy 4:12", "end",
             "pick humans")
    seen = expected_view(g)
    f = Follower()
    assert f.see(g, seen).in_sync  # region 9 (a Lost Tribe) read right before
    seen[9] = {"ratmen": 2}  # Ann moves during Ben's turn, under the lamp's glare
    out = still(f, g, observation(seen, {9: 0.1}))
    assert [(a.code, a.player) for a in out.raised] == [("not-your-race", "Ann")]


def test_another_race_on_a_region_never_read_right_is_not_trusted_when_vision_is_unsure():
    g = play(game_with("alchemist ratmen", "swamp humans"), "pick ratmen", "conquer 4", "redeploy 4:12", "end",
             "pick humans")
    seen = expected_view(g)
    seen[9] = {"ratmen": 2}  # what this camera has always read there: a blind spot, not a move
    f = Follower()
    assert f.observe(g, observation(seen, {9: 0.1})).raised == []
    assert f.observe(g, observation(seen, {9: 0.1})).raised == []


def test_a_low_confidence_region_confirms_a_move_that_fits_it_exactly():
    g = play(game_with("alchemist ratmen"), "pick ratmen")
    seen = expected_view(g)
    seen[4] = {"ratmen": 2}  # the only change on the board: a legal conquest
    out = still(Follower(), g, observation(seen, {4: 0.1}))
    assert [a.notation() for a in out.actions] == ["conquer 4"] and out.alerts == []


def test_a_low_confidence_region_does_not_bend_a_move_seen_elsewhere():
    g = play(game_with("alchemist ratmen"), "pick ratmen", "conquer 4")
    seen = expected_view(g)
    seen[4] = {"ratmen": 1}
    seen[3] = {"ratmen": 1}  # a conquest, read surely
    seen[20] = {"elves": 1}  # a misread, unsure
    out = Follower().observe(g, observation(seen, {20: 0.05}))
    assert [a.notation() for a in out.actions] == ["conquer 3"] and out.raised == []


def test_one_misread_of_the_next_players_race_does_not_end_the_turn():
    g = play(game_with("alchemist ratmen", "berserk amazons", players=("Ann", "Bob")), "pick ratmen", "conquer 4",
             "redeploy 4:12", "end", "pick amazons", "conquer 20", "redeploy 20:10", "end")
    assert g.turn.player == 0 and g.phase == "conquest"
    seen = expected_view(g)
    seen[19] = {"amazons": 1}  # a misread next to the Amazons while Ann still plays
    out = Follower().see(g, seen)
    assert not any(a.notation() == "end" for a in out.actions)
    assert g.turn.player == 0


def test_a_redeployment_seen_under_a_stack_is_amended_when_a_later_sight_shows_more():
    g = play(game_with("alchemist ratmen", "berserk amazons"), "pick ratmen", "conquer 4", "conquer 9")
    f = Follower()
    seen = expected_view(g)
    f.evidence.last_seen = {**expected_view(g), 4: {"ratmen": 3}, 9: {"ratmen": 1}}  # truly 4:3 9:9: stacks hide
    redeploy = f.redeployed(g).actions
    assert [a.notation() for a in redeploy] == ["redeploy 4:11 9:1"]  # the unseen ones on the biggest stack
    play(g, "redeploy 4:11 9:1", "end", "pick amazons")
    later = expected_view(g)
    later[4], later[9] = {"ratmen": 2}, {"ratmen": 6}  # the same tokens, seen from a better angle
    out = f.see(g, later)
    # at least the most read on each (3 and 6), the rest under the biggest stack read
    assert out.alerts == [] and [(i, a.notation()) for i, a in out.amend] == [(3, "redeploy 4:3 9:9")]
    g.replace(*out.amend[0])
    assert f.see(g, later).amend == []  # nothing more to correct
    later[4], later[9] = {"ratmen": 3}, {"ratmen": 5}
    assert f.see(g, later).amend == []  # the most read on each still fits: no flicker


def test_tokens_put_on_a_region_the_camera_could_not_read_move_when_it_reads_fewer():
    g = play(game_with("alchemist ratmen", "berserk amazons"), "pick ratmen", "conquer 4", "conquer 9")
    f = Follower()
    f.observe(g, observation({**expected_view(g), 4: {"ratmen": 5}, 9: {}}, {9: 0.05}))  # a glare on 9
    redeploy = f.redeployed(g).actions
    assert [a.notation() for a in redeploy] == ["redeploy 4:5 9:7"]
    play(g, "redeploy 4:5 9:7", "end", "pick amazons")
    out = f.see(g, {**expected_view(g), 4: {"ratmen": 5}, 9: {"ratmen": 1}})  # 9 read: one token
    assert [(i, a.notation()) for i, a in out.amend] == [(3, "redeploy 4:11 9:1")]


def test_a_redeployment_touched_since_is_not_amended():
    g = play(game_with("alchemist ratmen", "berserk amazons"), "pick ratmen", "conquer 4", "conquer 9")
    f = Follower()
    f.evidence.last_seen = {**expected_view(g), 4: {"ratmen": 3}, 9: {"ratmen": 1}}
    play(g, *(a.notation() for a in f.redeployed(g).actions), "end", "pick amazons", "conquer 20", "conquer 13")
    assert (g.regions[13].race, g.regions[9].race) == ("amazons", "ratmen")
    play(g, "redeploy 13:1 20:9", "end", "conquer 3")  # the Ratmen move on: their redeployment is history
    later = expected_view(g)
    later[9] = {"ratmen": 6}
    assert f.see(g, later).amend == []


def test_tokens_a_stack_hides_go_to_a_region_the_camera_cannot_read():
    g = play(game_with("alchemist ratmen"), "pick ratmen", "conquer 4", "conquer 9", "conquer 10")
    seen = {**expected_view(g), 4: {"ratmen": 3}, 9: {"elves": 2}, 10: {"ratmen": 1}}  # 9 misread
    f = Follower()
    f.observe(g, observation(seen, {9: 0.05}))
    assert [a.notation() for a in f.redeployed(g).actions] == ["redeploy 4:3 9:8 10:1"]



def test_a_region_never_read_right_is_a_blind_spot_not_an_alert():
    g = play(game_with("alchemist ratmen"), "pick ratmen", "conquer 4")
    seen = expected_view(g)
    seen[3] = {}  # this camera never sees the Lost Tribe token on region 3 (its colour is the board's)
    f = Follower()
    out = f.observe(g, observation(seen, {3: 1.0}))
    assert out.raised == [] and out.actions == [] and 3 in f.evidence.last_unknown
    out = f.observe(g, observation(expected_view(g), {3: 1.0}))  # read right at last
    seen = expected_view(g)
    seen[3] = {}
    out = f.observe(g, observation(seen, {3: 1.0}))  # now the token is gone: that is news
    out = f.observe(g, observation(seen, {3: 1.0}))  # (a board disagreement: when a second sight agrees)
    assert [a.code for a in out.raised] == ["board-differs"]


def test_a_standing_misread_of_the_active_race_is_no_conquest():
    g = game_with("alchemist ratmen")
    seen = expected_view(g)
    seen[20] = {"ratmen": 1}  # the Lost Tribe token there has always read as a Ratman
    f = Follower()
    assert f.observe(g, observation(seen, {20: 0.05})).raised == []
    play(g, "pick ratmen")
    seen[4] = {"ratmen": 2}  # the real conquest
    out = f.observe(g, observation(seen, {20: 0.05}))
    assert [a.notation() for a in out.actions] == ["conquer 4"] and out.alerts == []


def test_a_glared_region_that_turns_into_more_tokens_is_conquered_when_that_is_legal():
    g = play(game_with("alchemist ratmen"), "pick ratmen", "conquer 4")
    f = Follower()
    seen = expected_view(g)
    seen[3] = {"dragon": 1}  # under the lamp the Lost Tribe token reads as anything
    assert f.observe(g, observation(seen, {3: 0.05})).actions == []
    seen[3] = {"halflings-decline": 2}  # more tokens, none of them the Lost Tribe's: the Ratmen came
    out = still(f, g, observation(seen, {3: 0.05}))
    assert [a.notation() for a in out.actions] == ["conquer 3"] and out.raised == []
    play(g, "conquer 3")
    seen[20] = {"hero": 3}  # not adjacent: a conquest there is illegal, so it is no guess (and no alert)
    out = still(f, g, observation(seen, {3: 0.05, 20: 0.05}))
    assert out.actions == [] and out.raised == []


def test_a_glared_region_that_flickers_is_no_conquest():
    g = play(game_with("alchemist ratmen"), "pick ratmen", "conquer 4")
    f = Follower()
    seen = expected_view(g)
    seen[3] = {"dragon": 1}
    f.observe(g, observation(seen, {3: 0.05}))
    seen[3] = {"dragon": 1, "hero": 1}  # one more reading of the same glare, not a new occupant
    assert f.observe(g, observation(seen, {3: 0.05})).actions == []


def test_a_glared_region_changing_beside_a_conquest_read_surely_is_no_second_conquest():
    """A still moment shows one move: with a conquest read surely elsewhere, or two regions turning
    unreadably at once (the light, a bump), an unreadable region's new reading is a misread, not a
    conquest nobody saw (the Halflings' hand went 7 -> 1 for two such guesses, and the game was lost)."""
    g = play(game_with("alchemist ratmen"), "pick ratmen", "conquer 4")
    f = Follower()
    seen = expected_view(g)
    seen[3] = {"dragon": 1}  # under the lamp the Lost Tribe token reads as anything
    assert f.observe(g, observation(seen, {3: 0.05})).actions == []
    seen[9] = expected_view(play(g.copy(), "conquer 9"))[9]  # the move of this still moment, read surely
    seen[3] = {"halflings-decline": 2}  # more tokens, none of them the Lost Tribe's
    out = still(f, g, observation(seen, {3: 0.05, 9: 0.9}))
    assert [a.notation() for a in out.actions] == ["conquer 9"] and out.raised == []
    play(g, "conquer 9")
    seen[3] = {"dragon": 1}
    seen[10] = {"hero": 1}
    f.observe(g, observation(seen, {3: 0.05, 10: 0.05}))
    seen[3], seen[10] = {"halflings-decline": 2}, {"elves-decline": 3}  # both turn at once: the light
    assert still(f, g, observation(seen, {3: 0.05, 10: 0.05})).actions == []


def test_the_player_at_play_seen_next_to_the_defenders_is_no_conquest_yet():
    g = play(game_with("alchemist ratmen", "swamp humans"), "pick ratmen", "conquer 4", "redeploy 4:12", "end",
             "pick humans", "conquer 3")
    f = Follower()
    seen = expected_view(g)
    seen[4] = {"ratmen": 5, "humans": 1}  # a Human token read among the Ratmen: too few to take region 4
    out = f.see(g, seen)
    assert out.actions == [] and out.raised == []
    seen[4] = {"humans": 1}  # the Ratmen are gone: an illegal conquest, flagged
    assert [a.code for a in f.see(g, seen).raised] == ["too-few-tokens"]


def test_a_race_in_decline_read_on_its_active_side_is_still_that_race():
    g = play(game_with("alchemist ratmen", "swamp humans", "hill elves"), "pick ratmen", "conquer 4",
             "redeploy 4:12", "end", "pick humans", "redeploy -", "end", "decline", "redeploy -", "end")
    f = Follower()
    assert f.observe(g, observation(expected_view(g))).in_sync
    # a Ratmen token put on region 9: vision, unsure, reads the side that is no longer in play
    out = still(f, g, observation({**expected_view(g), 9: {"ratmen": 1}}, {9: 0.15}))
    assert [(a.code, a.region) for a in out.raised] == [("race-in-decline", 9)] and out.actions == []
    seen = expected_view(g)
    seen[4] = {"ratmen": 1}  # the standing in-decline token, read on its other side: nothing moved
    assert f.observe(g, observation(seen, {4: 0.01})).alerts == []


def test_tokens_a_stack_hides_lie_on_the_region_that_shows_all_it_can_hold():
    g = play(game_with("alchemist ratmen", "berserk amazons"), "pick ratmen", "conquer 4", "conquer 9")
    f = Follower()
    seen = {**expected_view(g), 4: {"ratmen": 4}, 9: {"ratmen": 2}}
    f.observe(g, observation(seen))  # vision does not say how many tokens fit: the biggest stack
    assert [a.notation() for a in f.redeployed(g).actions] == ["redeploy 4:10 9:2"]
    # 13 tokens lie side by side on region 4, 2 on region 9: region 4 would show more if it held
    # more; region 9 shows all it can hold, the rest lie under them
    f.observe(g, observation(seen, room={4: 13, 9: 2}))
    assert [a.notation() for a in f.redeployed(g).actions] == ["redeploy 4:4 9:8"]
    play(g, "redeploy 4:10 9:2", "end", "pick amazons")  # the first guess stored: the next sight amends it
    out = f.observe(g, observation({**expected_view(g), 4: {"ratmen": 4}, 9: {"ratmen": 2}}, room={4: 13, 9: 2}))
    assert [(i, a.notation()) for i, a in out.amend] == [(3, "redeploy 4:4 9:8")]


def test_a_redeployment_taken_while_hands_were_moving_is_amended_to_the_board_once_still():
    g = play(game_with("alchemist ratmen", "berserk amazons"), "pick ratmen", "conquer 4", "conquer 9")
    f = Follower()
    f.evidence.last_seen = {**expected_view(g), 4: {"ratmen": 5}, 9: {"ratmen": 1}}  # tokens on their way to 9
    assert [a.notation() for a in f.redeployed(g).actions] == ["redeploy 4:11 9:1"]
    play(g, "redeploy 4:11 9:1", "end", "pick amazons")
    # 5 read on 4 before and 10 on 9 now are more than the 12 Ratmen: the earlier sight is stale
    out = f.see(g, {**expected_view(g), 4: {"ratmen": 2}, 9: {"ratmen": 10}})
    assert out.alerts == [] and [(i, a.notation()) for i, a in out.amend] == [(3, "redeploy 4:2 9:10")]


def test_a_count_most_sights_contradict_does_not_move_a_redeployment():
    g = play(game_with("alchemist ratmen", "berserk amazons"), "pick ratmen", "conquer 4", "conquer 9")
    f = Follower()
    f.evidence.last_seen = {**expected_view(g), 4: {"ratmen": 7}, 9: {"ratmen": 5}}
    assert [a.notation() for a in f.redeployed(g).actions] == ["redeploy 4:7 9:5"]
    play(g, "redeploy 4:7 9:5", "end", "pick amazons")
    for _ in range(2):
        assert f.see(g, {**expected_view(g), 4: {"ratmen": 7}, 9: {"ratmen": 5}}).amend == []
    # a token of region 4 read on region 9: 7 and 6 are more than the 12 Ratmen, and two sights
    # against one say 5 lie on region 9 (the one that reads more than the game has is flagged)
    out = f.see(g, {**expected_view(g), 4: {"ratmen": 6}, 9: {"ratmen": 6}})
    assert out.amend == [] and out.raised == []
    out = f.see(g, {**expected_view(g), 4: {"ratmen": 6}, 9: {"ratmen": 6}})
    assert out.amend == [] and [(a.code, a.region) for a in out.raised] == [("count", 9)]


def test_a_region_vision_is_unsure_of_still_counts_its_tokens_for_a_redeployment():
    g = play(game_with("alchemist ratmen", "berserk amazons"), "pick ratmen", "conquer 4", "conquer 9")
    f = Follower()
    room = {4: 13, 9: 4}
    seen = {**expected_view(g), 4: {"ratmen": 5}, 9: {"ratmen": 4}}
    f.observe(g, observation(seen, {4: 0.1}, room))  # region 4 unsure: the tokens not seen may lie there
    assert [a.notation() for a in f.redeployed(g).actions] == ["redeploy 4:8 9:4"]
    play(g, "redeploy 4:8 9:4", "end", "pick amazons")
    # region 4 still unsure, but it shows 5 Ratmen in each sight: the hidden ones are under the
    # stacks of region 9, which shows all it can hold
    out = f.observe(g, observation({**expected_view(g), 4: {"ratmen": 5}, 9: {"ratmen": 4}}, {4: 0.1}, room))
    assert [(i, a.notation()) for i, a in out.amend] == [(3, "redeploy 4:5 9:7")]
    # and a sight that reads no Ratmen there (a hand's shadow, a misread) says nothing of them
    out = f.observe(g, observation({**expected_view(g), 4: {}, 9: {"ratmen": 4}}, {4: 0.1}, room))
    assert out.amend == []


def test_a_count_read_unsurely_weighs_beside_the_counts_read_surely():
    g = play(game_with("alchemist ratmen", "berserk amazons"), "pick ratmen", "conquer 4", "conquer 9")
    f = Follower()
    room = {4: 13, 9: 13}
    f.observe(g, observation({**expected_view(g), 4: {"ratmen": 5}, 9: {"ratmen": 4}}, {}, room))
    assert [a.notation() for a in f.redeployed(g).actions] == ["redeploy 4:8 9:4"]
    play(g, "redeploy 4:8 9:4", "end", "pick amazons")
    # region 9 read surely with 4 once, then unsurely with 7 twice: vision doubts what the tokens
    # are there, not that they lie there (the Ratmen the game has there): 7 lie on region 9
    out = f.observe(g, observation({**expected_view(g), 4: {"ratmen": 5}, 9: {"ratmen": 7}}, {9: 0.1}, room))
    out = f.observe(g, observation({**expected_view(g), 4: {"ratmen": 5}, 9: {"ratmen": 7}}, {9: 0.1}, room))
    assert [(i, a.notation()) for i, a in out.amend] == [(3, "redeploy 4:5 9:7")]


def test_a_redeployment_is_amended_on_the_regions_nothing_has_touched_since():
    g = play(game_with("alchemist ratmen", "swamp humans", "hill elves", players=("Ann", "Ben", "Cat")),
             "pick ratmen", "conquer 4", "conquer 9", "conquer 10", "conquer 15")
    f = Follower()
    room = {4: 4, 9: 4, 10: 3, 15: 6}
    seen = {**expected_view(g), 4: {"ratmen": 2}, 9: {"ratmen": 2}, 10: {"ratmen": 3}, 15: {"ratmen": 3}}
    f.observe(g, observation(seen, {15: 0.1}, room))  # region 15 unsure: the 2 tokens not seen may lie there
    assert [a.notation() for a in f.redeployed(g).actions] == ["redeploy 4:2 9:2 10:3 15:5"]
    play(g, "redeploy 4:2 9:2 10:3 15:5", "end", "pick humans")
    # the Humans take region 4 in the sight that shows the Ratmen better: region 15 reads 3 and
    # region 10 shows all it can hold (the 2 lie there); region 4 had what the conquest took. The
    # Ratmen token in hand shows nowhere yet (no more read than the redeployment gave): amended
    seen = {**expected_view(play(g.copy(), "conquer 4")), 10: {"ratmen": 3}, 15: {"ratmen": 3}}
    out = f.observe(g, observation(seen, room=room))
    assert [a.notation() for a in out.actions] == ["conquer 4"]
    assert [(i, a.notation()) for i, a in out.amend] == [(5, "redeploy 4:2 9:2 10:5 15:3")]
    out.apply_to(g)
    play(g, f"redeploy 4:{g.regions[4].tokens + g.active_tribe(1).hand}", "end", "resettle ratmen 9:1")
    # region 9 has had a token more since: the redeployment stands
    seen = {**expected_view(g), 10: {"ratmen": 3}, 15: {"ratmen": 3}}
    assert f.observe(g, observation(seen, room=room)).amend == []


def test_a_redeployment_is_not_amended_while_its_hand_shows_on_the_board_already():
    """The Humans take region 4; the Ratmen token in hand is put down at once on region 9 (the rules
    keep it in hand until the end of the turn): more read on the Ratmen's other regions together
    than the redeployment gave them is a resettlement under way, not a better sight of it."""
    g = play(game_with("alchemist ratmen", "swamp humans", "hill elves", players=("Ann", "Ben", "Cat")),
             "pick ratmen", "conquer 4", "conquer 9", "conquer 10", "conquer 15")
    f = Follower()
    room = {4: 4, 9: 4, 10: 3, 15: 6}
    seen = {**expected_view(g), 4: {"ratmen": 2}, 9: {"ratmen": 2}, 10: {"ratmen": 3}, 15: {"ratmen": 3}}
    f.observe(g, observation(seen, {15: 0.1}, room))
    play(g, "redeploy 4:2 9:2 10:3 15:5", "end", "pick humans")
    seen = {**expected_view(play(g.copy(), "conquer 4")), 9: {"ratmen": 3}, 10: {"ratmen": 3}, 15: {"ratmen": 5}}
    out = f.observe(g, observation(seen, room=room))
    assert [a.notation() for a in out.actions] == ["conquer 4"] and out.amend == []


def test_the_counts_read_on_region_0_weigh_like_any_other():
    # (a sea on the maps here, a land region on others: region numbers start at 0)
    given = {0: 1, 5: 2}
    readings = {0: {2: [1, 2]}, 5: {1: [1, 2]}}  # two sights read 2 tokens on region 0, 1 on region 5
    assert _as_read(given, {0: 1, 5: 1}, readings, room={0: 10, 5: 1}) == {0: 2, 5: 1}


def test_a_piece_no_race_in_play_brings_is_a_misread_not_an_alert():
    g = play(game_with("alchemist ratmen", "swamp humans"), "pick ratmen", "conquer 4")
    f = Follower()
    assert f.see(g, expected_view(g)).in_sync
    seen = expected_view(g)
    seen[3] = {"dragon": 1}  # the Lost Tribe token read as the Dragon, sure of it: no Dragon Master in play
    seen[5] = {"mountain": 1, "elves-decline": 1}  # a Mountain read as a race in decline no player has
    seen[6] = {"mountain": 1}  # a Mountain where the map has none
    out = f.observe(g, observation(seen, {3: 0.9, 5: 0.9, 6: 0.9}))
    assert out.actions == [] and out.raised == [] and out.alerts == []


def test_a_dragon_is_no_misread_when_the_dragon_master_is_in_play():
    g = play(game_with("dragon-master ratmen", "swamp humans"), "pick ratmen", "conquer 4")
    f = Follower()
    assert f.see(g, expected_view(g)).in_sync
    seen = expected_view(g)
    seen[3] = {"dragon": 1}
    assert f.observe(g, observation(seen, {3: 0.9})).raised == []
    out = f.observe(g, observation(seen, {3: 0.9}))
    assert [a.code for a in out.raised] == ["board-differs"]


def test_a_decline_read_as_another_races_grey_side_is_the_decline():
    g = play(game_with("alchemist ratmen", "swamp humans"), "pick ratmen", "conquer 4", "conquer 3",
             "redeploy 4:6 3:6", "end", "pick humans", "conquer 20", "redeploy 20:9", "end")
    f = Follower()
    assert f.see(g, expected_view(g)).in_sync
    seen = {**expected_view(g), 3: {"elves-decline": 1}, 4: {"humans-decline": 1}}  # the sides look alike
    out = f.see(g, seen)
    assert [a.notation() for a in out.actions] == ["decline"] and out.raised == []
    out.apply_to(g)
    assert f.see(g, seen).in_sync  # and later sights of those sides are the Ratmen in decline


def test_a_misread_of_one_still_frame_is_outvoted_by_the_next():
    g = play(game_with("alchemist ratmen"), "pick ratmen", "conquer 4")
    f = Follower()
    assert f.see(g, expected_view(g)).in_sync
    seen = {**expected_view(g), 20: {"ratmen": 2}}  # noise: an illegal conquest read in one frame only
    out = f.observe(g, observation(seen, {20: 0.2}))
    assert out.hold and out.raised == [] and out.actions == []
    out = f.observe(g, observation(expected_view(g), {20: 0.9}))  # the next still frame reads it right
    assert not out.hold and out.raised == [] and out.actions == [] and out.in_sync


def test_a_move_read_surely_is_taken_at_the_first_still_frame():
    g = play(game_with("alchemist ratmen"), "pick ratmen", "conquer 4")
    seen = {**expected_view(g), 3: {"ratmen": 1}}
    out = Follower().observe(g, observation(seen, {3: 0.8}))
    assert not out.hold and [a.notation() for a in out.actions] == ["conquer 3"]


def test_frames_read_unsurely_but_alike_add_up_to_a_move():
    g = play(game_with("alchemist ratmen"), "pick ratmen", "conquer 4")
    seen = {**expected_view(g), 3: {"ratmen": 1}}
    f = Follower()
    assert f.observe(g, observation(seen, {3: 0.3})).hold  # 0.3: not sure alone
    out = f.observe(g, observation(seen, {3: 0.3}))  # 0.6 over two frames that agree: sure
    assert not out.hold and [a.notation() for a in out.actions] == ["conquer 3"]


def test_a_misread_that_stands_on_regions_never_read_right_ends_no_turn():
    """Two Lost Tribe tokens read as Humans (a race in the column) in every sight: the next player's
    pick and conquests would explain them, but a misread never ends a turn the table did not end."""
    truth = play(game_with("alchemist ratmen", "swamp humans"), "pick ratmen", "conquer 4")
    g = truth.copy()
    f = Follower()

    def sight():
        seen = expected_view(truth)
        seen[11] = seen[16] = {"humans": 1}  # never read right: adjacent, both open to a Humans' first conquest
        out = still(f, g, observation(seen))
        out.apply_to(g)
        return out

    assert sight().actions == []
    play(truth, "conquer 3")
    assert [a.notation() for a in sight().actions] == ["conquer 3"]
    assert g.current_player == truth.current_player == 0


def test_a_redeployment_taken_before_the_end_of_the_turn_is_taken_back_when_the_race_conquers_again():
    """Both Heroes seen early (set down as the conquests went on) made the follower take the troop
    redeployment; the Ratmen then conquer again: the redeployment and the Heroes are taken back
    (``rewind``) and the conquest is played, not flagged as one after the conquests were over."""
    truth = play(game_with("heroic ratmen", "swamp humans"), "pick ratmen", "conquer 4", "conquer 3")
    g = truth.copy()
    f = Follower()

    def sight():
        seen = expected_view(truth)
        seen[3], seen[4] = {**seen[3], "hero": 1}, {**seen[4], "hero": 1}
        out = still(f, g, observation(seen))
        out.apply_to(g)
        return out

    assert [a.notation() for a in sight().actions] == ["redeploy 3:11 4:2", "heroes 3 4"]
    play(truth, "conquer 10")
    out = sight()
    assert out.rewind == 2 and out.raised == []
    assert [a.notation() for a in g.history] == ["pick ratmen", "conquer 4", "conquer 3", "conquer 10",
                                                 "redeploy 3:8 4:2 10:3", "heroes 3 4"]



def test_a_final_attempt_declared_takes_back_a_redeployment_taken_before_the_end_of_the_turn():
    """Both Heroes seen early made the follower take the troop redeployment; the table then declares
    a final conquest attempt (the conquests go on): the redeployment and the Heroes are taken back
    and the attempt and its die are played, not left out as an attempt after the conquests."""
    truth = play(game_with("heroic ratmen", "swamp humans"), "pick ratmen", "conquer 4", "conquer 3",
                 "conquer 2", "conquer 1", "conquer 5")
    g = truth.copy()
    f = Follower()
    seen = expected_view(truth)
    seen[3], seen[4] = {**seen[3], "hero": 1}, {**seen[4], "hero": 1}
    out = still(f, g, observation(seen))
    out.apply_to(g)
    assert [type(a).__name__ for a in out.actions] == ["Redeploy", "Heroes"]
    out = f.declare(g, 9)
    assert out.rewind == 2 and "taken back" in out.note
    out.apply_to(g)
    f.die(g, 3).apply_to(g)
    assert [a.notation() for a in g.history][-2:] == ["attempt 9", "roll 3"] and g.phase == "conquest"


def resettled_under_a_stack():
    """The Ratmen redeployed 4:2 9:2 10:3 15:5, then their one token in hand resettled under a stack
    (the camera guesses region 15, where it shows no more). Returns the game, the follower, the sight."""
    g = play(game_with("alchemist ratmen", "swamp humans", "hill elves", players=("Ann", "Ben", "Cat")),
             "pick ratmen", "conquer 4", "conquer 9", "conquer 10", "conquer 15")
    f = Follower()
    seen = {**expected_view(g), 4: {"ratmen": 2}, 9: {"ratmen": 2}, 10: {"ratmen": 3}, 15: {"ratmen": 5}}
    f.see(g, seen)
    f.confirm(g).apply_to(g)
    play(g, "pick humans")
    seen = {**seen, 4: {"humans": 4}}
    f.see(g, seen).apply_to(g)
    f.confirm(g).apply_to(g)
    out = f.see(g, seen)
    assert [a.notation() for a in out.actions] == ["resettle ratmen 15:1"]
    out.apply_to(g)
    return g, f, seen


def resettled_then_conquered(region=15, elves=3):
    """The Ratmen's one token in hand resettled under a stack (the camera guesses region 15, where it
    shows no more), then the Elves conquer ``region`` (15, or another Ratmen region) with ``elves``
    tokens. Returns the game, the follower, the sight and the index of the resettlement."""
    g, f, seen = resettled_under_a_stack()
    index = len(g.history) - 1
    play(g, "pick elves")
    seen = {**seen, region: {"elves": elves}}
    out = f.see(g, seen)
    assert [a.notation() for a in out.actions] == [f"conquer {region}"] and out.amend == []  # nothing shows it yet
    out.apply_to(g)
    return g, f, seen, index


def test_a_resettlement_is_amended_after_a_conquest_of_the_region_it_was_guessed_on():
    """Region 9 then shows the token: the resettlement put it on 9, and the Elves' conquest took one
    Ratmen token fewer."""
    g, f, seen, index = resettled_then_conquered()
    out = f.see(g, {**seen, 9: {"ratmen": 3}})
    assert [(i, a.notation()) for i, a in out.amend] == [(index, "resettle ratmen 9:1")] and out.raised == []
    out.apply_to(g)
    assert g.regions[9].tokens == 3 and g.tribes["ratmen"].hand == 4  # 5 on region 15, one lost


def test_a_resettlement_is_not_amended_while_the_others_show_more_than_the_hand_could_have_left():
    """Regions 9 and 10 then show a Ratmen token more each than the game has: more than the
    resettlement could have put there (one token); the hand is being put down early."""
    g, f, seen, index = resettled_then_conquered()
    out = f.see(g, {**seen, 9: {"ratmen": 3}, 10: {"ratmen": 4}})
    assert out.amend == []


def test_a_token_shown_more_after_a_resettlement_is_the_resettlement_s_not_the_redeployment_s():
    """The Ratmen's token in hand resettled under a stack (guessed on region 15); later sights read a
    token more on region 9 and one fewer on region 10 (a stack there). The resettlement put it on 9:
    the redeployment before it, which a whole turn's sights placed, stays (it used to move a token from
    10 to 9, and the resettlement then onto 10: two corrections where one says it)."""
    g, f, seen = resettled_under_a_stack()
    redeploy, index = g.history[5].notation(), len(g.history) - 1
    play(g, "pick elves")
    out = f.see(g, {**seen, 9: {"ratmen": 3}, 10: {"ratmen": 2}})
    assert [(i, a.notation()) for i, a in out.amend] == [(index, "resettle ratmen 9:1")] and out.raised == []
    out.apply_to(g)
    assert g.history[5].notation() == redeploy == "redeploy 4:2 9:2 10:3 15:5"


def test_a_token_hidden_among_the_markers_its_race_keeps_there_is_not_missing():
    """A Troll's Lair read alone where the game has one Troll token and its Lair: the rules take the
    Lair off with the last token ("Remove the Lair if you abandon the Region or when an enemy conquers
    it"), so the Trolls hold the region and their token lies under or beside it, unread: no alert (on
    another printing the token beside a Lair and a Fortress went unread sight after sight, each time
    a `tokens-missing`). A region read empty, its Lair gone too, is still a board that differs."""
    g = play(game_with("alchemist trolls", "swamp humans"), "pick trolls", "conquer 4", "conquer 9",
             "redeploy 4:1 9:8", "end", "pick humans")
    assert expected_view(g)[4] == {"trolls": 1, "troll-lair": 1}
    f = Follower()
    assert f.see(g, expected_view(g)).in_sync
    for _ in range(3):
        out = f.see(g, {**expected_view(g), 4: {"troll-lair": 1}})
        assert out.in_sync and out.raised == [] and out.actions == []
    raised = [a for _ in range(2) for a in f.see(g, {**expected_view(g), 4: {}}).raised]
    assert [a.region for a in raised] == [4]


def test_a_region_s_bias_coming_back_after_another_reading_is_no_conquest_the_glare_hid():
    """A Lost Tribe token this camera reads as a Human, unsurely, sight after sight (the region's
    bias); a sight that reads nothing there, then the bias again: a misread coming back, not the
    player at play's conquest of a region the glare hides."""
    g = play(game_with("alchemist ratmen", "swamp humans"), "pick ratmen", "conquer 4", "redeploy 4:12", "end",
             "pick humans", "conquer 20", "redeploy 20:9", "end")
    assert g.regions[3].race == "lost-tribe" and g.explain(Conquer(3)) is None  # Ann may conquer it
    f = Follower()
    board = expected_view(g)
    for reading in ({"humans": 1}, {"humans": 1}, {"humans": 1}, {}, {"humans": 1}):
        out = still(f, g, observation({**board, 3: reading}, {3: 0.1}))
        assert out.actions == [] and out.raised == []


def test_a_resettlement_is_amended_after_a_conquest_of_another_of_its_regions():
    """The Ratmen's token resettled under a stack (guessed on region 15), then the Elves conquer
    region 10, another Ratmen region: that conquest says nothing of where the resettled token lies,
    so region 9 showing it still moves it there."""
    g, f, seen, index = resettled_then_conquered(10, 4)
    out = f.see(g, {**seen, 9: {"ratmen": 3}})
    assert [(i, a.notation()) for i, a in out.amend] == [(index, "resettle ratmen 9:1")] and out.raised == []
    out.apply_to(g)
    assert g.regions[9].tokens == 3 and g.regions[15].tokens == 5


def observation_by_label(view, confidences):
    """Vision's reading with a confidence per label (``RegionView.confidences``); a region's own is the lowest."""
    return Observation(True, {rid: RegionView(dict(labels), False, min(confidences.get(rid, {}).values(), default=0.7),
                                              0, dict(confidences.get(rid, {})))
                              for rid, labels in view.items()})


def test_a_conquest_onto_a_mountain_is_judged_on_the_conquerors_confidence_not_the_mountains():
    """On another printing vision reads the Mountain at a confidence near 0 and the tokens beside it
    surely: the region's lowest confidence would hide the illegal conquest (never sure enough to flag)."""
    g = play(game_with("alchemist ratmen", "swamp humans", "hill elves"), "pick ratmen", "conquer 4",
             "redeploy 4:12", "end", "pick humans", "redeploy -", "end", "decline", "redeploy -", "end")
    f = Follower()
    mountain = {5: {"mountain": 0.02}}
    assert f.observe(g, observation_by_label(expected_view(g), mountain)).in_sync
    seen = {**expected_view(g), 5: {"mountain": 1, "ratmen-decline": 1}}  # a Ratmen in decline put on region 5
    out = still(f, g, observation_by_label(seen, {5: {"mountain": 0.02, "ratmen-decline": 0.8}}))
    assert [(a.code, a.region) for a in out.raised] == [("race-in-decline", 5)] and out.actions == []


def test_a_mountain_read_alone_keeps_its_doubt():
    """Read alone, the Mountain's confidence is the region's: the tokens that lie on it may be what
    vision read as the Mountain, so a region the game holds tokens on that shows only an unsure
    Mountain is no move and no alert."""
    g = play(game_with("alchemist ratmen"), "pick ratmen", "conquer 5")
    assert expected_view(g)[5] == {"ratmen": 3, "mountain": 1}
    f = Follower()
    assert f.observe(g, observation_by_label(expected_view(g), {})).in_sync
    seen = {**expected_view(g), 5: {"mountain": 1}}
    for _ in range(2):
        out = still(f, g, observation_by_label(seen, {5: {"mountain": 0.02}}))
        assert out.raised == [] and out.actions == [] and out.alerts == []


def test_a_region_s_bias_beside_a_conquest_read_surely_is_no_second_conquest():
    """A Lost Tribe token this lamp reads as a Human, sight after sight: when the Humans come into
    play and conquer elsewhere, that standing misread is still no conquest of its region (a Skeleton
    in decline read as a Human once cost a game its Humans' hand this way)."""
    g = play(game_with("alchemist ratmen", "swamp humans"), "pick ratmen", "conquer 4")
    f = Follower()
    seen = {**expected_view(g), 3: {"humans": 1}}
    for _ in range(3):
        assert f.observe(g, observation(seen, {3: 0.05})).raised == []
    play(g, "redeploy 4:12", "end", "pick humans")
    assert g.explain(Conquer(3)) is None  # the Humans could take region 3
    seen = {**expected_view(g), 3: {"humans": 1}, 2: expected_view(play(g.copy(), "conquer 2"))[2]}
    out = still(f, g, observation(seen, {3: 0.05, 2: 0.9}))
    assert [a.notation() for a in out.actions] == ["conquer 2"] and out.raised == []


def test_more_tokens_read_than_the_race_has_are_taken_off_the_region_the_camera_cannot_read():
    """A stack read too high on a region vision is unsure of does not make the redeployment impossible:
    the excess is that region's misread."""
    g = play(game_with("alchemist ratmen"), "pick ratmen", "conquer 4", "conquer 9", "conquer 10")
    seen = {**expected_view(g), 4: {"ratmen": 3}, 9: {"ratmen": 10}, 10: {"ratmen": 1}}  # 12 Ratmen, 14 read
    f = Follower()
    f.observe(g, observation(seen, {9: 0.05}))
    assert [a.notation() for a in f.redeployed(g).actions] == ["redeploy 4:3 9:8 10:1"]


def test_the_end_of_the_turn_is_taken_when_the_counts_read_do_not_fit_the_race():
    """The table ended the turn: counts read surely that the race cannot have (more tokens than it
    owns) leave the troops as the game has them, and the turn still ends (before, the End Turn was
    lost and the follower stayed a turn behind)."""
    g = play(game_with("alchemist ratmen", "berserk amazons"), "pick ratmen", "conquer 4", "conquer 9", "conquer 10")
    f = Follower()
    f.observe(g, observation({**expected_view(g), 4: {"ratmen": 6}, 9: {"ratmen": 6}, 10: {"ratmen": 6}},
                             {4: 0.9, 9: 0.9, 10: 0.9}))
    out = f.confirm(g)
    assert [type(a).__name__ for a in out.actions] == ["Redeploy", "EndTurn"]
    out.apply_to(g)
    assert g.current_player == 1


def test_an_active_races_in_decline_side_off_its_regions_is_a_misread_not_a_conquest():
    """This printing's Lost Tribe token read as the grey side of the Ratmen, who are active: an active
    race conquers on its active side and turns over only where it lies, so it is another token's
    picture (unsure), not an illegal conquest."""
    g = play(game_with("alchemist ratmen"), "pick ratmen", "conquer 4")
    f = Follower()
    assert f.see(g, expected_view(g)).in_sync
    seen = {**expected_view(g), 3: {"ratmen-decline": 1}}
    for _ in range(3):
        out = f.observe(g, observation(seen, {3: 0.9}))
        assert out.raised == [] and out.actions == []
