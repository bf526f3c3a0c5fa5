"""Following whole games from what the camera sees."""
import pytest

from companion.reconcile import Follower, differences, expected_view
from companion.reconcile.hypotheses import resettlement
from companion.rules.actions import Conquer, EndTurn, Pick, Redeploy, parse_notation
from companion.shuffle import seeded_setup
from companion.simulate import play

from ..rules.helpers import game_with, play as act
from .harness import follow


@pytest.mark.parametrize("map_name, seed", [("2p", 1), ("3p", 2), ("4p", 3), ("5p", 4)])
def test_a_whole_game_is_followed_from_the_board_alone(map_name, seed):
    setup = seeded_setup(map_name, int(map_name[0]), seed)
    truth = play(setup, seed)
    run = follow(truth)
    # the same actions (a Fortress and a redeployment seen together may come in either order)
    assert sorted(a.notation() for a in run.ours.history) == sorted(a.notation() for a in truth.history)
    assert run.alerts == []
    assert run.ours.fingerprint() == truth.fingerprint()


def test_a_still_board_that_matches_the_game_needs_nothing():
    g = act(game_with("alchemist ratmen"), "pick ratmen", "conquer 4")
    out = Follower().see(g, expected_view(g))
    assert out.actions == [] and out.in_sync


def test_a_conquest_and_its_cost_come_from_the_board():
    g = act(game_with("alchemist ratmen"), "pick ratmen")
    seen = expected_view(g)
    seen[3] = {"ratmen": 1}  # a stack: only the top token shows; the Lost Tribe is gone
    out = Follower().see(g, seen)
    assert [a.notation() for a in out.actions] == ["conquer 3"] and out.alerts == []
    act(g, "conquer 3")
    assert g.regions[3].tokens == 3  # the rules count the stack


def test_more_tokens_seen_than_the_game_has_is_a_discrepancy_not_a_correction():
    g = act(game_with("alchemist ratmen"), "pick ratmen", "conquer 4")
    seen = expected_view(g)
    seen[4] = {"ratmen": 14}  # the Ratmen have 12 tokens in all
    f = Follower()
    out = f.see(g, seen)
    assert out.raised == [] and out.actions == []  # the board alone disagrees: a second sight is asked
    out = f.see(g, seen)
    assert [a.code for a in out.raised] == ["count"] and out.actions == []
    assert "14 Ratmen tokens on region 4" in out.raised[0].sentence


def test_an_unregistered_board_says_why():
    class Obs:
        registered, reason, regions = False, "marker 2 not found", {}
    out = Follower().observe(game_with("alchemist ratmen"), Obs())
    assert out.note == "board not registered: marker 2 not found" and out.actions == []


def test_occluded_regions_are_not_judged():
    g = act(game_with("alchemist ratmen"), "pick ratmen", "conquer 4")
    seen = expected_view(g)
    seen[4] = {}
    assert differences(g, seen, {4}) == []
    out = Follower().see(g, seen, {4})
    assert out.in_sync and out.actions == []


def test_the_die_from_a_button_feeds_the_declared_final_conquest():
    g = act(game_with("alchemist ratmen"), "pick ratmen", "conquer 4")
    g.tribes["ratmen"].hand = 1
    f = Follower()
    assert f.declare(g, 3).actions == []
    out = f.die(g, 2)
    assert [a.notation() for a in out.actions] == ["attempt 3", "roll 2"]


def _ghouls_with_two_in_hand():
    """Ann's Ghouls in decline still conquering, two tokens in hand; region 8 takes three."""
    return act(game_with("alchemist ghouls", "swamp humans"), "pick ghouls", "conquer 4", "redeploy 4:9", "end",
               "pick humans", "redeploy -", "end", "decline", "redeploy -", "end", "conquer 3 ghouls",
               "conquer 10 ghouls")


def test_the_ghouls_in_decline_make_the_final_conquest_attempt_declared_then_rolled():
    g = _ghouls_with_two_in_hand()
    f = Follower()
    assert f.declare(g, 8).actions == []
    assert [a.notation() for a in f.die(g, 1).actions] == ["attempt 8 ghouls", "roll 1"]


def test_the_ghouls_final_conquest_attempt_is_read_from_the_board_after_the_die():
    g = _ghouls_with_two_in_hand()
    f = Follower()
    assert f.die(g, 2).actions == []
    seen = expected_view(g)
    seen[8] = {"ghouls-decline": 2}
    out = f.see(g, seen)
    assert [a.notation() for a in out.actions] == ["attempt 8 ghouls", "roll 2"] and out.raised == []


def test_a_die_before_the_target_waits_for_the_region_to_show():
    g = act(game_with("alchemist ratmen"), "pick ratmen", "conquer 4")
    g.tribes["ratmen"].hand = 1
    f = Follower()
    assert f.die(g, 3).actions == [] and f.hints.die == 3
    seen = expected_view(g)
    seen[3] = {"ratmen": 1}
    out = f.see(g, seen)
    assert [a.notation() for a in out.actions] == ["attempt 3", "roll 3"]


def test_a_final_attempt_declared_after_a_turn_the_camera_saw_nothing_of_ends_that_turn_first():
    truth = act(game_with("alchemist ratmen", "swamp humans"), "pick ratmen", "conquer 4", "conquer 9", "conquer 10",
                "redeploy 4:2 9:5 10:5", "end", "pick humans", "conquer 4", "conquer 3", "conquer 2",
                "redeploy 2:1 3:1 4:7", "end",
                "resettle ratmen 10:1",  # under the stack on region 10: the camera sees no change
                "redeploy 9:5 10:6", "end",  # Ann's turn puts every token back: End Turn, taken for the resettlement
                "attempt 9", "roll 3")  # Ben's final attempt, the first thing in his turn

    def seen_of(g):  # region 10 shows five tokens side by side, no more
        view = expected_view(g)
        return {**view, 10: {label: min(n, 5) for label, n in view[10].items()}}

    run = follow(truth, seen_of)  # (where the hidden token lies, under 9 or 10, the camera cannot tell)
    assert [a.notation() for a in run.ours.history[-3:]] == ["end", "attempt 9", "roll 3"]
    assert run.ours.turn.player == truth.turn.player and run.alerts == []


def test_confirm_takes_the_redeployment_as_seen_and_ends_the_turn():
    g = act(game_with("alchemist ratmen"), "pick ratmen", "conquer 4", "conquer 9")
    f = Follower()
    seen = expected_view(g)
    seen[4], seen[9] = {"ratmen": 3}, {"ratmen": 9}
    f.see(g, seen)
    out = f.confirm(g)
    assert [a.notation() for a in out.actions][-2:] == ["redeploy 4:3 9:9", "end"]


def test_two_explanations_that_fit_equally_are_asked_not_guessed():
    g = act(game_with("swamp ratmen", "berserk sorcerers"), "pick ratmen", "conquer 4", "conquer 9",
            "redeploy 4:1 9:11", "end", "pick sorcerers", "conquer 3", "roll 3")
    f = Follower()
    seen = expected_view(g)
    seen[4] = {"sorcerers": 1}  # a conquest with the Berserk die, or a conversion: the camera cannot tell
    out = f.see(g, seen)
    assert out.question is not None and out.actions == []
    options = [" ".join(a.notation() for a in o) for o in out.question.options]
    assert sorted(options) == ["conquer 4", "convert 4"]
    chosen = f.answer(g, options.index("convert 4"))
    assert [a.notation() for a in chosen.actions] == ["convert 4"]


def test_a_conversion_and_a_conquest_hidden_by_a_stack_are_asked_not_guessed():
    g = act(game_with("swamp ratmen", "alchemist sorcerers"), "pick ratmen", "conquer 4", "conquer 9",
            "redeploy 4:1 9:11", "end", "pick sorcerers", "conquer 3")
    seen = expected_view(g)
    seen[4] = {"sorcerers": 1}  # one token on top: a conversion, or a conquest of 3 tokens stacked
    out = Follower().see(g, seen)
    assert out.question is not None and out.actions == []
    assert sorted(" ".join(a.notation() for a in o) for o in out.question.options) == ["conquer 4", "convert 4"]
    seen[4] = {"sorcerers": 3}  # three tokens seen: only a conquest puts them there
    assert [a.notation() for a in Follower().see(g, seen).actions] == ["conquer 4"]
    seen[4] = {"sorcerers": 2}  # two, the third under them: a conversion puts one, so a conquest
    out = Follower().see(g, seen)
    assert out.question is None and [a.notation() for a in out.actions] == ["conquer 4"]


def test_the_table_can_accept_a_region_the_camera_misreads():
    g = act(game_with("alchemist ratmen"), "pick ratmen", "conquer 4")
    f = Follower()
    assert f.see(g, expected_view(g)).in_sync
    seen = expected_view(g)
    seen[10] = {"lost-tribe": 2}  # a misread
    assert f.see(g, seen).raised == []
    assert [a.code for a in f.see(g, seen).raised] == ["board-differs"]
    f.accept(g, 10)
    assert f.see(g, seen).in_sync
    seen[10] = {"lost-tribe": 1}
    assert f.see(g, seen).in_sync and f.evidence.accepted == {}


def test_encampments_resettled_under_a_stack_are_all_counted():
    g = act(game_with("bivouacking ratmen", "commando humans"), "pick ratmen", "conquer 4", "conquer 9",
            "redeploy 4:1 9:12", "encamp 4:1 9:4", "end", "pick humans")
    g.tribes["humans"].hand = 10
    act(g, "conquer 4", "redeploy 4:10", "end")
    seen = expected_view(g)
    seen[9] = {"ratmen": 3, "encampment": 4}  # the fifth Encampment under the tokens
    assert resettlement(g, g.tribes["ratmen"], seen).notation() == "resettle ratmen - 9:5"


def test_a_hero_under_a_stack_is_placed_where_the_camera_cannot_see_it():
    g = act(game_with("heroic ratmen"), "pick ratmen", "conquer 4", "conquer 9", "redeploy 4:12 9:1")
    seen = expected_view(g)
    seen[9] = {"ratmen": 1, "hero": 1}  # the other Hero lies under the big stack on region 4
    out = Follower().see(g, seen)
    assert [a.notation() for a in out.actions] == ["heroes 4 9"] and out.alerts == []


def test_an_alert_stands_while_a_hand_hides_its_region():
    g = act(game_with("alchemist ratmen"), "pick ratmen", "conquer 4")
    f = Follower()
    assert f.see(g, expected_view(g)).in_sync
    seen = expected_view(g)
    seen[4] = {"ratmen": 14}
    f.see(g, seen)
    assert [a.code for a in f.see(g, seen).raised] == ["count"]
    out = f.see(g, seen, hidden={4})  # a hand over region 4: not judged, the alert stands
    assert out.raised == [] and [a.code for a in out.alerts] == ["count"]
    assert f.see(g, seen).raised == []  # seen again: still the same alert, not a new one
    assert not f.see(g, expected_view(g)).in_sync  # put right: read so twice before the alert goes
    assert f.see(g, expected_view(g)).in_sync


def test_a_resettlement_seen_with_more_tokens_than_the_hand_is_taken_and_the_count_flagged():
    g = act(game_with("alchemist ratmen", "commando humans"), "pick ratmen", "conquer 4", "conquer 9",
            "redeploy 4:3 9:9", "end", "pick humans")
    g.tribes["humans"].hand = 10
    act(g, "conquer 4", "redeploy 4:10")
    f = Follower()
    assert f.see(g, expected_view(g)).in_sync
    act(g, "end")
    assert g.phase == "resettlement" and g.tribes["ratmen"].hand == 2
    seen = expected_view(g)
    seen[9] = {"ratmen": 12}  # one more than the 9 + 2 there can be (a token of another stack counted twice)
    assert resettlement(g, g.tribes["ratmen"], seen).notation() == "resettle ratmen 9:2"
    out = f.see(g, seen)
    assert [a.notation() for a in out.actions] == ["resettle ratmen 9:2"]
    out.apply_to(g)
    assert [a.code for a in f.see(g, seen).raised] == ["count"]  # the count, once a second sight agrees


def test_a_table_that_answers_alerts_puts_the_game_back_on_track():
    truth = play(seeded_setup("3p", 3, 4), 4)
    conquered = [a.region for a in truth.history if isinstance(a, Conquer)]
    blind, sights = conquered[3], [0]

    def seen_of(live):  # for a few sights the camera cannot see the tokens on one conquered region
        sights[0] += 1
        seen = expected_view(live)
        if 4 <= sights[0] <= 12:
            seen[blind] = {}
        return seen

    ignored = follow(truth, seen_of)
    sights[0] = 0
    answered = follow(truth, seen_of, table_reacts=True)
    assert ignored.ours.fingerprint() != truth.fingerprint()
    assert answered.corrections >= 1 and answered.entered >= 1
    assert answered.ours.fingerprint() == truth.fingerprint()
    assert len(answered.alerts) < len(ignored.alerts)


def test_a_hero_seen_during_the_conquests_does_not_end_them():
    g = act(game_with("heroic ratmen"), "pick ratmen", "conquer 4")
    f = Follower()
    assert f.see(g, expected_view(g)).in_sync
    seen = expected_view(g)
    seen[4] = {**seen[4], "hero": 1}  # a Hero the camera sees that the game does not place yet
    out = f.see(g, seen)
    assert out.actions == [] and out.raised == []  # no alert either: the end of the step places Heroes
    seen[9] = {"ratmen": 2}  # the conquests go on
    out = f.see(g, seen)
    assert [a.notation() for a in out.actions] == ["conquer 9"] and out.raised == []
    act(g, "conquer 9")
    assert [a.notation() for a in f.confirm(g).actions][-2:] == ["heroes 4 9", "end"]


def test_the_ghouls_redeployment_is_taken_as_seen_when_a_new_combo_is_picked():
    g = act(game_with("alchemist ghouls", "swamp humans"), "pick ghouls", "conquer 4", "redeploy 4:9", "end",
            "pick humans", "redeploy -", "end", "decline", "redeploy -", "end")
    f = Follower()
    seen = expected_view(g)
    seen[4] = {"ghouls-decline": 6}
    seen[9] = {"ghouls-decline": 2}
    act(g, *[a.notation() for a in f.see(g, seen).actions])
    seen[4], seen[9] = {"ghouls-decline": 4}, {"ghouls-decline": 5}  # the Ghouls redeployed, then a pick on a phone
    f.see(g, seen)
    assert g.explain(Pick("ratmen")) is not None  # the pick waits for the Ghouls' redeployment
    assert [a.notation() for a in f.redeployed(g).actions] == ["redeploy 4:4 9:5 ghouls"]


def _turn_ended_with_markers_unseen(power: str):
    """The Ratmen with ``power`` conquer regions 4, 9 and 10 and end their turn, every marker they placed
    under the stacks (none seen): (game, follower, the last sight)."""
    g = act(game_with(f"{power} ratmen", "swamp humans"), "pick ratmen", "conquer 4", "conquer 9", "conquer 10")
    f = Follower()
    seen = {**expected_view(g), 4: {"ratmen": 2}, 9: {"ratmen": 3}, 10: {"ratmen": 4}}
    f.see(g, seen)
    act(g, *[a.notation() for a in f.confirm(g).actions])
    return g, f, seen


def test_a_hero_first_hidden_under_a_stack_moves_the_heroes_when_it_shows():
    g = act(game_with("heroic ratmen", "swamp humans"), "pick ratmen", "conquer 4", "conquer 9", "conquer 10")
    f = Follower()
    seen = expected_view(g)
    seen[4], seen[9], seen[10] = {"ratmen": 1, "hero": 1}, {"ratmen": 3}, {"ratmen": 4}  # a Hero under a stack
    f.see(g, seen)
    act(g, *[a.notation() for a in f.confirm(g).actions])
    placed = next(k for k, a in enumerate(g.history) if a.notation().startswith("heroes"))
    assert g.history[placed].notation() == "heroes 4 10"  # the other Hero: under the biggest stack
    seen = {**seen, 9: {"ratmen": 3, "hero": 1}}  # the next player's turn: it shows on region 9
    first = f.see(g, seen)
    assert first.amend == [] and first.raised == []  # once may be a misread; the Hero may be either
    out = f.see(g, dict(seen))
    assert [(i, a.notation()) for i, a in out.amend] == [(placed, "heroes 4 9")]


def test_both_heroes_hidden_when_placed_are_put_into_that_turn_when_they_show_even_at_the_end_of_a_step():
    """Both Heroes under the stacks when placed (none seen, none placed in the game): when both show
    later, the placement missed goes into the turn it was made in; the second sight that agrees may be
    the one the End Turn button takes (``confirm``), which keeps it too."""
    g, f, seen = _turn_ended_with_markers_unseen("heroic")
    assert not any(a.notation().startswith("heroes") for a in g.history)
    end = len(g.history) - 1
    act(g, "pick humans")
    seen = {**seen, 4: {"ratmen": 2, "hero": 1}, 9: {"ratmen": 3, "hero": 1}}
    assert f.see(g, seen).missed == []  # once may be a misread
    out = f.confirm(g)  # the Humans end their turn: the second sight that agrees
    assert [(i, a.notation()) for i, a in out.missed] == [(end, "heroes 4 9")] and out.raised == []
    out.apply_to(g)
    assert g.regions[4].marker("hero") == 1 and g.regions[9].marker("hero") == 1


def fortress_hidden():
    """The Ratmen end their turn with a Fortress under their stack on region 9: the camera saw none.
    Returns the game, the follower, the sight and the index of that end of turn."""
    g = act(game_with("fortified ratmen", "swamp humans"), "pick ratmen", "conquer 4", "conquer 9")
    f = Follower()
    seen = {**expected_view(g), 4: {"ratmen": 5}, 9: {"ratmen": 5}}  # the Fortress lies under the Ratmen on 9
    f.see(g, seen)
    act(g, *[a.notation() for a in f.confirm(g).actions])
    end = len(g.history) - 1
    assert g.history[end].notation() == "end" and g.regions[9].marker("fortress") == 0
    return g, f, seen, end


def test_a_fortress_first_hidden_under_a_stack_is_put_into_the_turn_it_was_placed_in():
    g, f, seen, end = fortress_hidden()
    act(g, "pick humans")
    coins = g.players[0].coins
    seen = {**expected_view(g), 4: {"ratmen": 5}, 9: {"ratmen": 4, "fortress": 1}}
    first = f.see(g, seen)
    assert first.missed == [] and first.raised == []  # once may be a misread
    out = f.see(g, dict(seen))
    assert [(i, a.notation()) for i, a in out.missed] == [(end, "fortify 9")] and out.raised == []
    g.insert(*out.missed[0])
    assert g.regions[9].marker("fortress") == 1 and g.players[0].coins == coins + 1  # it scored that turn
    assert f.see(g, dict(seen)).in_sync
    seen[4] = {"ratmen": 4, "fortress": 1}  # a second one, never placed: only one a turn
    f.see(g, seen)
    assert [a.code for a in f.see(g, seen).alerts] == ["no-such-power"]


def test_a_fortress_found_in_a_sight_that_waits_for_another_look_is_put_in_with_the_move_it_waited_for():
    """The second sight that shows the hidden Fortress also shows a conquest read unsurely, so it
    waits for another look: the Fortress is not lost with it, the next look puts it into its turn."""
    from .test_unsure import observation

    g, f, seen, end = fortress_hidden()
    act(g, "pick humans")
    seen = {**expected_view(g), 4: {"ratmen": 5}, 9: {"ratmen": 4, "fortress": 1}}
    assert f.see(g, seen).missed == []  # once may be a misread
    seen[2] = expected_view(act(g.copy(), "conquer 2"))[2]
    out = f.observe(g, observation(seen, {2: 0.1}))
    assert out.hold and out.missed == []
    out = f.observe(g, observation(seen, {2: 0.1}))
    assert [(i, a.notation()) for i, a in out.missed] == [(end, "fortify 9")]
    assert [a.notation() for a in out.actions] == ["conquer 2"] and out.raised == []


def ratmen_guessed(on4: int, on9: int, *then: str):
    """Ratmen on regions 4 and 9, seen with ``on4`` and ``on9`` tokens at the end of their turn (a
    token under a stack: the camera guesses the biggest stack), then the Humans' moves ``then``, the
    camera seeing the Ratmen the same. Returns the game, the follower, the sight and the index of
    the Ratmen's redeployment."""
    g = act(game_with("alchemist ratmen", "swamp humans"), "pick ratmen", "conquer 4", "conquer 9")
    f = Follower()
    f.see(g, {**expected_view(g), 4: {"ratmen": on4}, 9: {"ratmen": on9}})
    act(g, *[a.notation() for a in f.confirm(g).actions])
    index = next(k for k, a in enumerate(g.history) if a.notation().startswith("redeploy"))
    act(g, *then)
    seen = {**expected_view(g), 4: {"ratmen": on4}, 9: {"ratmen": on9}}
    f.see(g, seen)
    return g, f, seen, index


def test_a_final_attempt_that_failed_in_the_game_but_not_on_the_table_corrects_the_defenders_redeployment():
    # one more under the stack on 9: the camera guesses 4
    g, f, seen, index = ratmen_guessed(6, 5, "pick humans", "conquer 3")
    assert g.history[index].notation() == "redeploy 4:7 9:5"
    f.declare(g, 4)
    act(g, *[a.notation() for a in f.die(g, 2).actions])
    assert g.regions[4].race == "ratmen"  # 6 Humans and a 2 against 7 Ratmen: failed, in the game
    out = f.see(g, {**seen, 4: {"humans": 6}})  # on the table the Humans hold region 4
    assert [(i, a.notation()) for i, a in out.amend] == [(index, "redeploy 4:6 9:6")]
    assert out.raised == []
    g.replace(index, out.amend[0][1])
    assert g.regions[4].race == "humans"


def test_a_final_attempt_declared_where_the_game_has_tokens_enough_makes_the_conquered_defence_heavier():
    """The Ratmen's third token on region 9 lay under the stack (the camera guessed 4:10 9:2); the
    Humans conquer 9 and declare a final attempt on 2: in the game they have tokens enough to take
    it outright, so the conquest of 9 cost more than the game says. The Ratmen's redeployment gets a
    token more on 9 (from their biggest stack) and the attempt and its die are played."""
    g, f, seen, index = ratmen_guessed(8, 2, "pick humans", "conquer 3", "conquer 9")
    assert g.history[index].notation() == "redeploy 4:10 9:2" and g.explain(parse_notation("attempt 2")).code == "not-short"
    out = f.declare(g, 2)
    assert [(i, a.notation()) for i, a in out.amend] == [(index, "redeploy 4:9 9:3")]
    out.apply_to(g)
    act(g, *[a.notation() for a in f.die(g, 3).actions])
    assert [a.notation() for a in g.history[-2:]] == ["attempt 2", "roll 3"] and g.regions[2].race == "humans"


def test_a_final_attempt_declared_where_the_game_has_tokens_enough_makes_its_own_region_s_defence_heavier():
    """The camera read 3 Ratmen on region 4 and 4 on region 9 and guessed the 5 it could not see on 9;
    the Humans declare a final attempt on region 4: in the game they have tokens enough to take it
    outright, so region 4 held more. The Ratmen's redeployment moves tokens from 9 onto 4 (never
    under the 4 read on 9) until the attempt fits, and the attempt and its die are played."""
    g, f, seen, index = ratmen_guessed(3, 4, "pick humans")
    assert g.history[index].notation() == "redeploy 4:3 9:9" and g.explain(parse_notation("attempt 4")).code == "not-short"
    out = f.declare(g, 4)
    assert [(i, a.notation()) for i, a in out.amend] == [(index, "redeploy 4:8 9:4")]
    out.apply_to(g)
    act(g, *[a.notation() for a in f.die(g, 0).actions])
    assert [a.notation() for a in g.history[-2:]] == ["attempt 4", "roll 0"] and g.regions[4].race == "ratmen"


def test_a_final_attempt_declared_where_the_game_has_no_token_left_makes_the_conquered_defence_lighter():
    """The camera read 4 Ratmen on region 9 (one was a token over its outline: 3 lay there); the
    Humans conquer 9 and declare a final attempt on 2: in the game they have no token left for it,
    so the conquest of 9 cost less than the game says. The Ratmen's redeployment gets a token fewer
    on 9 (onto their biggest stack) and the attempt and its die are played."""
    g, f, seen, index = ratmen_guessed(8, 4, "pick humans", "conquer 3", "conquer 9")
    assert g.history[index].notation() == "redeploy 4:8 9:4" and g.explain(parse_notation("attempt 2")).code == "no-tokens"
    out = f.declare(g, 2)
    assert [(i, a.notation()) for i, a in out.amend] == [(index, "redeploy 4:9 9:3")]
    out.apply_to(g)
    act(g, *[a.notation() for a in f.die(g, 3).actions])
    assert [a.notation() for a in g.history[-2:]] == ["attempt 2", "roll 3"]


def test_a_pick_waiting_for_a_resettlement_takes_the_resettlement_as_seen():
    g = act(game_with("alchemist ratmen", "swamp humans"), "pick ratmen", "conquer 4", "conquer 9", "redeploy 4:2 9:10",
            "end", "pick humans", "conquer 3", "conquer 4", "redeploy 3:4 4:5", "end")
    assert g.phase == "resettlement"
    f = Follower()
    seen = expected_view(g)
    seen[9] = {"ratmen": 10}  # the Ratmen's token back on their region, a hand still over it
    assert f.see(g, seen, hidden={9}).actions == []
    assert g.explain(Pick(g.column[0].race)).code == "resettle-first"  # a pick on a phone waits for it
    assert [a.notation() for a in f.redeployed(g).actions] == ["resettle ratmen 9:1"]


def test_a_die_rolled_while_a_resettlement_hides_under_a_stack_takes_the_resettlement_first():
    g = act(game_with("berserk ratmen", "swamp humans"), "pick ratmen", "conquer 4", "conquer 9", "redeploy 4:2 9:10",
            "end", "pick humans", "conquer 3", "conquer 4", "redeploy 3:4 4:5", "end")
    assert g.phase == "resettlement"
    f = Follower()
    # the Ratmen's token back under their stack on 9, a hand still over it: not taken yet
    assert f.see(g, expected_view(g), hidden={9}).actions == []
    out = f.die(g, 2)  # the Ratmen's turn: Berserk rolls before a conquest
    assert [a.notation() for a in out.actions] == ["resettle ratmen 9:1", "roll 2"]


def test_a_resettlement_under_a_stack_is_taken_at_the_first_sight_that_shows_no_hand_over_it():
    g = act(game_with("berserk ratmen", "swamp humans"), "pick ratmen", "conquer 4", "conquer 9", "redeploy 4:2 9:10",
            "end", "pick humans", "conquer 3", "conquer 4", "redeploy 3:4 4:5", "end")
    f = Follower()
    assert [a.notation() for a in f.see(g, expected_view(g)).actions] == ["resettle ratmen 9:1"]


def test_a_die_face_kept_in_one_turn_is_not_used_in_the_next():
    g = act(game_with("alchemist ratmen", "swamp humans"), "pick ratmen", "conquer 4")
    f = Follower()
    seen = {**expected_view(g), 4: {"ratmen": 11}}
    f.see(g, seen)
    assert f.die(g, 3).actions == [] and f.hints.die == 3  # no attempt the camera saw: the face is kept
    act(g, *[a.notation() for a in f.confirm(g).actions])  # the turn ends
    assert f.hints.die is None


def test_a_resettled_token_first_hidden_under_a_stack_moves_in_the_record_when_it_shows():
    g = act(game_with("alchemist ratmen", "swamp humans"), "pick ratmen", "conquer 4", "conquer 9", "conquer 10",
            "redeploy 4:2 9:5 10:5", "end", "pick humans", "conquer 3", "conquer 4", "redeploy 3:4 4:5", "end")
    f = Follower()
    seen = expected_view(g)  # the Ratmen's one token back under a stack: the camera guesses region 9
    act(g, *[a.notation() for a in f.see(g, seen).actions])
    index = next(k for k, a in enumerate(g.history) if a.notation().startswith("resettle"))
    assert g.history[index].notation() == "resettle ratmen 9:1"
    seen = {**expected_view(g), 9: {"ratmen": 5}, 10: {"ratmen": 6}}  # a later sight: six on region 10
    out = f.see(g, seen)
    assert [(i, a.notation()) for i, a in out.amend] == [(index, "resettle ratmen 10:1")]
    g.replace(index, out.amend[0][1])
    assert f.see(g, seen).amend == []  # once


def test_a_conquest_the_game_finds_too_costly_corrects_the_defenders_redeployment_first():
    g, f, seen, index = ratmen_guessed(7, 4, "pick humans")  # one more under the stack on 9: the camera guesses 4
    assert g.history[index].notation() == "redeploy 4:8 9:4"
    out = f.see(g, {**seen, 4: {"humans": 9}})  # 9 Humans take region 4: 2 + 7 Ratmen, not 2 + 8
    assert [(i, a.notation()) for i, a in out.amend] == [(index, "redeploy 4:7 9:5")]
    assert [a.notation() for a in out.actions] == ["conquer 4"] and out.raised == []
    g.replace(index, out.amend[0][1])
    act(g, "conquer 4")
    out = f.see(g, {**expected_view(g), 9: {"humans": 1}})  # no lighter defence makes this one legal
    assert [a.code for a in out.raised] == ["no-tokens"] and out.amend == [] and out.actions == []


def test_a_conquest_seen_as_a_small_stack_corrects_the_defenders_redeployment_the_camera_guessed():
    g, f, seen, index = ratmen_guessed(7, 4, "pick humans")  # one more under the stack on 9: the camera guesses 4
    out = f.see(g, {**seen, 4: {"humans": 3}})  # 9 Humans take region 4, six of them under the top three
    assert [(i, a.notation()) for i, a in out.amend] == [(index, "redeploy 4:7 9:5")]
    assert [a.notation() for a in out.actions] == ["conquer 4"] and out.raised == []
    g, f, seen, index = ratmen_guessed(8, 4, "pick humans")  # the camera read the 8 Ratmen on region 4
    out = f.see(g, {**seen, 4: {"humans": 3}})
    assert [a.code for a in out.raised] == ["too-few-tokens"] and out.amend == [] and out.actions == []


def ghouls_against_a_guessed_stack():
    """The camera read 6 Humans on region 5 and 2 on region 6 and guessed the one it could not see
    on 5 (it lay on 6); then the Ghouls in decline, 8 in hand, are at play. Returns the game, the
    follower, the sight with region 5 still to read and the index of the Humans' redeployment."""
    g = act(game_with("alchemist ghouls", "swamp humans", "hill elves", players=("Ann", "Ben", "Cat"), map="3p"),
            "pick ghouls", "conquer 4", "redeploy 4:9", "end", "pick humans", "redeploy -", "end", "pick elves",
            "redeploy -", "end", "decline", "conquer 5", "conquer 6")
    f = Follower()
    f.see(g, {**expected_view(g), 5: {"humans": 6}, 6: {"humans": 2}})
    act(g, *[a.notation() for a in f.confirm(g).actions])
    index = next(k for k, a in enumerate(g.history) if a.notation().startswith("redeploy 5"))
    act(g, "conquer 17", "redeploy 17:10", "end")
    return g, f, {**expected_view(g), 4: {"ghouls-decline": 1}, 6: {"humans": 2}}, index


def test_the_ghouls_in_decline_conquering_a_region_the_game_finds_too_costly_correct_the_defenders_redeployment():
    """The Ghouls take region 5 (2 + 6 Humans), three of them showing: the Humans' redeployment is
    corrected and the Ghouls' conquest taken; one Ghoul put there stays an illegal move."""
    g, f, seen, index = ghouls_against_a_guessed_stack()
    assert g.history[index].notation() == "redeploy 5:7 6:2"
    assert g.explain(parse_notation("conquer 5 ghouls")).code == "too-few-tokens"
    out = f.see(g, {**seen, 5: {"ghouls-decline": 3}})
    assert [(i, a.notation()) for i, a in out.amend] == [(index, "redeploy 5:6 6:3")]
    assert [a.notation() for a in out.actions] == ["conquer 5 ghouls"] and out.raised == []
    g, f, seen, index = ghouls_against_a_guessed_stack()
    out = f.see(g, {**seen, 5: {"ghouls-decline": 1}})
    assert [a.code for a in out.raised] == ["too-few-tokens"] and out.amend == [] and out.actions == []


def test_the_last_turns_redeployment_is_amended_by_the_sights_after_the_game_ends():
    """The game ends with the Humans' turn (one round): the camera then reads the stack it had read
    short on region 9; nobody readies troops any more, so that is a better sight of the last
    redeployment (it used to count as the Humans' player at play again, and was never amended)."""
    g = game_with("alchemist ratmen", "swamp humans")
    g.rounds = 1
    act(g, "pick ratmen", "conquer 4", "redeploy 4:12", "end", "pick humans", "conquer 3", "conquer 9")
    f = Follower()
    f.see(g, {**expected_view(g), 3: {"humans": 4}, 9: {"humans": 3}})
    act(g, *[a.notation() for a in f.confirm(g).actions])
    index = next(k for k, a in enumerate(g.history) if a.notation().startswith("redeploy 3"))
    assert g.history[index].notation() == "redeploy 3:6 9:3" and g.finished
    out = f.see(g, {**expected_view(g), 3: {"humans": 4}, 9: {"humans": 5}})
    assert [(i, a.notation()) for i, a in out.amend] == [(index, "redeploy 3:4 9:5")]


def flying_humans_after_a_guessed_stack():
    """The camera read 6 Ratmen on region 4 and 5 on region 9 and guessed the one it could not see on
    4 (it lay on 9); the Flying Humans (10) take region 4: 2 + 6 Ratmen on the table, 2 + 7 in the
    game, which leaves them one token. Returns the game, the follower, the Ratmen's redeployment's
    index and an empty region that takes two tokens."""
    g = act(game_with("alchemist ratmen", "flying humans"), "pick ratmen", "conquer 4", "conquer 9")
    f = Follower()
    f.see(g, {**expected_view(g), 4: {"ratmen": 6}, 9: {"ratmen": 5}})
    act(g, *[a.notation() for a in f.confirm(g).actions])
    index = next(k for k, a in enumerate(g.history) if a.notation().startswith("redeploy"))
    assert g.history[index].notation() == "redeploy 4:7 9:5"
    act(g, "pick humans")
    f.see(g, {**expected_view(g), 4: {"ratmen": 6}, 9: {"ratmen": 5}})
    act(g, *[a.notation() for a in f.see(g, {**expected_view(g), 4: {"humans": 3}, 9: {"ratmen": 5}}).actions])
    assert g.history[-1].notation() == "conquer 4" and g.tribes["humans"].hand == 1
    assert g.explain(parse_notation("conquer 1")).code == "too-few-tokens"
    return g, f, index


def test_a_conquest_the_game_finds_too_costly_after_another_this_turn_makes_that_defence_lighter():
    """The Humans put two tokens on region 1, and the camera now reads 6 Ratmen on region 9: the
    conquest of region 4 cost a token less than the game says, which lay on 9 all along."""
    g, f, index = flying_humans_after_a_guessed_stack()
    out = f.see(g, {**expected_view(g), 4: {"humans": 3}, 9: {"ratmen": 6}, 1: {"humans": 2}})
    assert [(i, a.notation()) for i, a in out.amend] == [(index, "redeploy 4:6 9:6")]
    assert [a.notation() for a in out.actions] == ["conquer 1"] and out.raised == []
    # with the Ratmen read as the game has them, nothing says the defence was lighter: an illegal move
    g, f, index = flying_humans_after_a_guessed_stack()
    out = f.see(g, {**expected_view(g), 4: {"humans": 3}, 1: {"humans": 2}})
    assert [a.code for a in out.raised] == ["too-few-tokens"] and out.amend == [] and out.actions == []


def test_one_token_put_on_a_strong_region_is_not_taken_for_a_conquest_hidden_by_a_stack():
    g, f, seen, _ = ratmen_guessed(7, 4, "pick humans")
    out = f.see(g, {**seen, 4: {"humans": 1}})  # a lighter defence would make it legal, but one Human shows
    assert [a.code for a in out.raised] == ["too-few-tokens"] and out.amend == [] and out.actions == []


def test_declining_again_takes_the_race_in_decline_off_the_map():
    g = act(game_with("alchemist ratmen", "swamp humans", "hill elves"), "pick ratmen", "conquer 4",
            "redeploy 4:12", "end", "pick humans", "redeploy -", "end", "decline", "redeploy -", "end",
            "pick elves", "redeploy -", "end", "redeploy -", "end")
    f = Follower()
    assert f.see(g, expected_view(g)).in_sync
    seen = {**expected_view(g), 4: {}}  # the Elves hold no region: only the Ratmen in decline go
    assert f.see(g, seen).hold  # a region read empty: the next still frame must agree
    out = f.see(g, seen)
    assert [a.notation() for a in out.actions] == ["decline"] and out.raised == []


def test_a_redeployment_is_not_amended_once_its_player_readies_troops_again():
    g = act(game_with("alchemist ratmen", "swamp humans"), "pick ratmen", "conquer 4", "conquer 9")
    f = Follower()
    f.evidence.room = {4: 2, 9: 12}  # region 4 shows two tokens side by side at most
    seen = expected_view(g)
    # four under a stack: region 4 shows all it can hold whatever lies there, region 9 shows six
    # side by side (six tokens all seen is less likely than six of ten): under region 9's
    seen[4], seen[9] = {"ratmen": 2}, {"ratmen": 6}
    act(g, *[a.notation() for a in f.see(g, seen).actions + f.confirm(g).actions])
    assert [a.notation() for a in g.history[-2:]] == ["redeploy 4:2 9:10", "end"]
    act(g, "pick humans", "conquer 20", "redeploy 20:9", "end")
    seen = {**expected_view(g), 4: seen[4], 9: seen[9]}  # the Humans on region 20 as the game has them
    assert f.see(g, seen).amend == []
    seen[4], seen[9] = {"ratmen": 1}, {"ratmen": 8}  # Ann's turn: her troops readied, all but one to region 9
    assert f.see(g, seen).amend == []  # a move of this turn, not a better sight of the last one
    assert [a.notation() for a in f.confirm(g).actions] == ["redeploy 4:1 9:11", "end"]


def test_a_redeployment_stays_open_to_amendment_through_the_resettlement_that_ends_its_turn():
    from companion.reconcile.corrections import _turn_again
    g = act(game_with("alchemist ratmen", "commando humans"), "pick ratmen", "conquer 4", "conquer 9",
            "redeploy 4:3 9:9", "end", "pick humans")
    g.tribes["humans"].hand = 10
    act(g, "conquer 4", "conquer 10", "redeploy 4:6 10:4")
    index = len(g.history) - 1
    act(g, "end")
    assert g.phase == "resettlement" and g.turn.player == 1
    assert not _turn_again(g, "humans", index)  # Bob's turn is over, his next one has not begun
    act(g, "resettle ratmen 9:2", "redeploy 9:11", "end")
    assert _turn_again(g, "humans", index)  # Bob readies his troops: what moves now is this turn's


def test_a_typed_ally_takes_the_redeployment_the_camera_last_saw_first():
    g = act(game_with("diplomat ratmen", "swamp humans"), "pick ratmen", "conquer 4")
    f = Follower()
    seen = {**expected_view(g), 4: {"ratmen": 4}, 9: {"ratmen": 2}}
    act(g, *[a.notation() for a in f.see(g, seen).actions])
    out = f.typed(g, parse_notation("ally 1"))  # the Diplomat names an ally after the redeployment
    assert out.refused is None and [a.notation() for a in out.actions][-1] == "ally 1"
    assert isinstance(out.actions[0], Redeploy)
    out.apply_to(g)
    assert g.history[-1].notation() == "ally 1"


def test_a_typed_action_that_does_not_fit_is_refused_in_the_engines_words():
    g = act(game_with("alchemist ratmen", "swamp humans"), "pick ratmen")
    out = Follower().typed(g, parse_notation("pick humans"))
    assert out.actions == [] and out.refused is not None and out.refused.code in out.note


def test_the_board_is_right_takes_back_a_misread_conquest_and_plays_what_the_board_shows():
    g = act(game_with("alchemist ratmen"), "pick ratmen", "conquer 4")
    f = Follower()
    truth = act(game_with("alchemist ratmen"), "pick ratmen", "conquer 3")  # region 3, not 4, was conquered
    f.see(g, expected_view(truth))
    out = f.board_is_right(g)
    q = out.question
    assert q is not None and q.regions and "Is the board right?" in q.text and "region 3" in q.text
    assert q.rewind(0) == 1 and [a.notation() for a in q.options[0]] == ["conquer 3"]
    assert "take back conquer 4" in q.to_json()["options"][0]
    f.answer(g, 0).apply_to(g)
    assert [a.notation() for a in g.history] == ["pick ratmen", "conquer 3"]
    assert f.see(g, expected_view(g)).in_sync



def test_the_search_stops_when_its_budget_is_spent():
    from companion.reconcile.hypotheses import Budget, Hints, search
    g = act(game_with("alchemist ratmen"), "pick ratmen")
    truth = act(game_with("alchemist ratmen"), "pick ratmen", "conquer 3", "conquer 4")
    full = search(g, expected_view(truth), set(), Hints())[0]
    assert [a.notation() for a in full.actions] == ["conquer 3", "conquer 4"] and not full.remaining
    budget = Budget(2)
    cut = search(g, expected_view(truth), set(), Hints(), budget=budget)[0]
    assert budget.nodes <= 0 and cut.remaining  # two states tried: not enough for both conquests


def test_the_board_is_right_looks_back_no_longer_than_its_budget(monkeypatch):
    from companion.reconcile import resync
    g = act(game_with("alchemist ratmen"), "pick ratmen", "conquer 4")
    truth = act(game_with("alchemist ratmen"), "pick ratmen", "conquer 3")
    monkeypatch.setattr(resync, "NODES_MOST", 1)  # one state: the record as it is, nothing taken back
    found = resync.resync(g, expected_view(truth), set())
    assert found.rewind == 0 and found.left > 0
    monkeypatch.setattr(resync, "SECONDS_MOST", 0.0)  # no time at all: the same
    assert resync.resync(g, expected_view(truth), set()).rewind == 0


def test_the_board_is_right_with_no_correction_found_says_so_and_points_to_the_log(monkeypatch):
    from companion.reconcile import resync
    g = act(game_with("alchemist ratmen"), "pick ratmen", "conquer 4")
    truth = act(game_with("alchemist ratmen"), "pick ratmen", "conquer 3")
    monkeypatch.setattr(resync, "NODES_MOST", 1)  # the search finds nothing to change
    f = Follower()
    f.see(g, expected_view(truth))
    q = f.board_is_right(g).question
    assert q is not None and q.rewind(0) == 0 and q.options[0] == ()
    said = q.to_json()
    assert "No legal moves" in said["text"] and "correct its log" in said["text"]
    assert said["options"][0] == "the board is right: no legal moves found that explain it"


def test_a_stout_race_declining_is_taken_after_its_redeployment_and_scoring():
    """Stout declines after the turn's scoring: the board is the same as a decline at the start of the
    turn, but the race scores as an active race first, so a Stout player who declines does so."""
    g = act(game_with("stout ratmen", "swamp humans"), "pick ratmen", "conquer 4", "conquer 9",
            "redeploy 4:6 9:6", "end", "pick humans", "redeploy -", "end")
    f = Follower()
    assert f.see(g, expected_view(g)).in_sync
    seen = {**expected_view(g), 4: {"ratmen-decline": 1}, 9: {"ratmen-decline": 1}}
    out = f.see(g, seen)
    assert [a.notation() for a in out.actions] == ["redeploy 4:6 9:6", "decline"] and out.raised == []
    trial = g.copy()
    for action in out.actions:
        trial.apply(action)
    assert expected_view(trial) == seen and trial.current_player == 1


def test_a_stout_race_declining_is_redeployed_as_the_camera_read_it_before_the_tokens_turned():
    """The tokens turned over show one a region: the redeployment is the one the sight before read
    (a stack of five on region 4 hides the rest, fewer on region 9 than the game had there)."""
    g = act(game_with("stout ratmen", "swamp humans"), "pick ratmen", "conquer 4", "conquer 9",
            "redeploy 4:6 9:6", "end", "pick humans", "redeploy -", "end")
    f = Follower()
    assert f.see(g, expected_view(g)).in_sync
    assert f.see(g, {**expected_view(g), 4: {"ratmen": 5}, 9: {"ratmen": 3}}).actions == []
    out = f.see(g, {**expected_view(g), 4: {"ratmen-decline": 1}, 9: {"ratmen-decline": 1}})
    assert [a.notation() for a in out.actions] == ["redeploy 4:9 9:3", "decline"] and out.raised == []


def test_a_stout_race_holding_no_region_declines_when_its_older_race_in_decline_leaves_the_map():
    """A Stout race whose only conquest failed (no region, nothing to flip) goes into decline after
    its redeployment: the camera sees only the player's older race in decline leave the map."""
    g = act(game_with("alchemist ratmen", "swamp humans", "stout elves"), "pick ratmen", "conquer 4",
            "redeploy 4:12", "end", "pick humans", "redeploy -", "end", "decline", "redeploy -", "end",
            "pick elves")
    f = Follower()
    assert f.see(g, expected_view(g)).in_sync
    assert f.see(g, {**expected_view(g), 4: {}}).hold  # a region read empty: the next still frame must agree
    out = f.see(g, {**expected_view(g), 4: {}})
    assert [a.notation() for a in out.actions] == ["redeploy -", "decline"] and out.raised == []


def test_a_race_declining_at_the_start_of_a_turn_needs_no_redeployment():
    g = act(game_with("alchemist ratmen", "swamp humans"), "pick ratmen", "conquer 4", "conquer 9",
            "redeploy 4:6 9:6", "end", "pick humans", "redeploy -", "end")
    out = Follower().see(g, {**expected_view(g), 4: {"ratmen-decline": 1}, 9: {"ratmen-decline": 1}})
    assert [a.notation() for a in out.actions] == ["decline"] and out.raised == []


def test_a_resettlement_whose_tokens_show_no_more_is_taken_from_that_sight():
    """The defender's tokens went under stacks (no more seen than the game has): the resettlement is
    taken from this sight, the hidden tokens under the fullest stack it reads, not from a later sight
    after its player lifted the tokens to conquer (one on each region then)."""
    g = act(game_with("alchemist ratmen", "commando humans"), "pick ratmen", "conquer 4", "conquer 9", "conquer 3",
            "redeploy 3:1 4:3 9:8", "end", "pick humans")
    g.tribes["humans"].hand = 10
    act(g, "conquer 4", "redeploy 4:10")
    f = Follower()
    f.evidence.room = {3: 2, 9: 4}
    assert f.see(g, expected_view(g)).in_sync
    act(g, "end")
    assert g.phase == "resettlement" and g.tribes["ratmen"].hand == 2
    out = f.see(g, {**expected_view(g), 3: {"ratmen": 1}, 9: {"ratmen": 4}})  # region 9 shows all it can
    assert [a.notation() for a in out.actions] == ["resettle ratmen 9:2"] and out.raised == []


def test_the_ghouls_in_decline_redeployed_where_they_lay_are_entered_on_a_phone_and_followed():
    """Nothing on the board shows it and no button gives it (End Turn gives the active race's): the
    table enters it like a pick, and the follower takes it as typed before the pick."""
    g = act(game_with("alchemist ghouls", "swamp humans", "hill elves"), "pick ghouls", "conquer 4", "redeploy 4:9",
            "end", "pick humans", "redeploy -", "end", "decline", "redeploy -", "end", "redeploy 4:9 ghouls",
            "pick elves", "conquer 3")
    run = follow(g)
    assert [a.notation() for a in run.ours.history] == [a.notation() for a in g.history] and run.alerts == []
    assert run.ours.fingerprint() == g.fingerprint()


def test_a_stout_decline_with_no_token_on_the_map_is_seen_as_its_race_in_decline_taken_off():
    """4p seed 502, action 89: a player picks the Stout Elves, redeploys nothing, and goes into decline
    at the end of the turn: the camera sees only the player's Amazons in decline leave the map."""
    truth = play(seeded_setup("4p", 4, 502), 502)
    assert [a.notation() for a in truth.history[87:90]] == ["pick elves", "redeploy -", "decline"]
    run = follow(truth)
    assert run.alerts == [] and run.drifts == []
    assert run.ours.fingerprint() == truth.fingerprint()


def test_a_costly_conquest_read_unsurely_as_a_small_stack_corrects_the_defenders_redeployment():
    """Vision unsure of a region (glare, blur) counts fewer tokens than lie there: two Humans read
    unsurely where nine took the region are the conquest; one Human is still a token put on it."""
    from vision.observe import Observation, RegionView

    def unsurely(seen):
        return Observation(True, {rid: RegionView(dict(labels), False, 0.1 if rid == 4 else 0.9, 0)
                                  for rid, labels in seen.items()})

    g, f, seen, index = ratmen_guessed(7, 4, "pick humans")
    out = f.observe(g, unsurely({**seen, 4: {"humans": 1}}))
    out = f.observe(g, unsurely({**seen, 4: {"humans": 1}})) if out.hold else out
    assert [a.code for a in out.raised] == ["too-few-tokens"] and out.amend == [] and out.actions == []
    g, f, seen, index = ratmen_guessed(7, 4, "pick humans")
    out = f.observe(g, unsurely({**seen, 4: {"humans": 2}}))
    out = f.observe(g, unsurely({**seen, 4: {"humans": 2}})) if out.hold else out
    assert [(i, a.notation()) for i, a in out.amend] == [(index, "redeploy 4:7 9:5")]
    assert [a.notation() for a in out.actions] == ["conquer 4"] and out.raised == []


def _drifted():
    """The record took a misread conquest of region 9 where the Ratmen took region 10."""
    truth = act(game_with("alchemist ratmen", "swamp humans"), "pick ratmen", "conquer 4", "conquer 10")
    ours = act(game_with("alchemist ratmen", "swamp humans"), "pick ratmen", "conquer 4", "conquer 9")
    f = Follower()
    f.see(ours, expected_view(truth)).apply_to(ours)
    return truth, ours, f


def test_the_end_turn_button_compares_the_whole_board_and_offers_the_corrections_that_make_it_agree():
    truth, ours, f = _drifted()
    out = f.confirm(ours)
    q = out.question
    assert out.actions == [] and q is not None and set(q.regions) == {9} and "region 9" in q.text
    assert q.labels[0].startswith("the board is right: take back") and q.labels[0].endswith("then end the turn")
    f.answer(ours, 0).apply_to(ours)  # the board is right: the record now holds what the board shows, the turn ended
    assert ours.regions[9].race == truth.regions[9].race and ours.regions[10].race == "ratmen"
    assert isinstance(ours.history[-1], EndTurn) and ours.current_player == 1
    assert f.confirm(ours).question is None  # asked once a turn


def test_the_end_turn_question_answered_the_game_is_right_ends_the_step_as_seen():
    truth, ours, f = _drifted()
    assert f.confirm(ours).question is not None
    f.answer(ours, 1).apply_to(ours)
    assert ours.regions[9].race == "ratmen" and isinstance(ours.history[-1], EndTurn)


def test_one_hero_of_two_hidden_when_placed_goes_in_with_the_other_under_the_race_s_biggest_stack():
    """Both Heroes under the stacks when placed; later sights show one of them only: the placement
    missed goes into that turn, the other Hero under the biggest stack (a later sight moves it), and
    no alert is raised for the Hero shown."""
    g, f, seen = _turn_ended_with_markers_unseen("heroic")
    end = len(g.history) - 1
    stacks = {r: g.regions[r].tokens for r in (4, 9, 10)}
    act(g, "pick humans")
    seen = {**seen, 9: {"ratmen": 3, "hero": 1}}
    first = f.see(g, seen)
    out = f.see(g, seen)
    biggest = max((4, 10), key=lambda r: (stacks[r], -r))
    assert first.raised == [] and out.raised == []
    assert [(i, a.notation()) for i, a in out.missed] == [(end, f"heroes {' '.join(map(str, sorted((9, biggest))))}")]


def test_a_fortress_its_race_uncovers_when_its_turn_begins_was_placed_the_turn_before():
    """Placed on a stack's region as the turn ended, a Fortress lies under the tokens until its
    player lifts them to conquer again: then it is last turn's placement the camera missed, not a
    Fortress placed now (its race may still place one this turn)."""
    g, f, seen, end = fortress_hidden()
    act(g, "pick humans", "conquer 20")
    f.see(g, {**seen, 20: {"humans": 2}})
    act(g, *[a.notation() for a in f.confirm(g).actions])
    assert g.current_player == 0 and g.phase == "conquest"
    coins = g.players[0].coins
    lifted = {**expected_view(g), 4: {"ratmen": 1}, 9: {"ratmen": 1, "fortress": 1}}  # Ann readies her troops
    out = f.see(g, lifted)
    assert [(i, a.notation()) for i, a in out.missed] == [(end, "fortify 9")]
    assert out.actions == [] and out.raised == []
    out.apply_to(g)
    assert g.players[0].coins == coins + 1  # it scored that turn
    out = f.see(g, {**lifted, 4: {"ratmen": 1, "fortress": 1}})  # and one more this turn
    assert [a.notation() for a in out.actions] == ["fortify 4"] and out.raised == []


def test_a_lone_token_missed_in_one_frame_is_no_abandonment():
    """Vision loses a lone token in the light's noise for a frame: the next still frame shows it."""
    g = act(game_with("alchemist ratmen", "swamp humans"), "pick ratmen", "conquer 4", "conquer 9",
            "redeploy 4:11 9:1", "end", "pick humans", "conquer 20", "redeploy 20:9", "end")
    f = Follower()
    assert f.see(g, expected_view(g)).in_sync
    missed = {**expected_view(g), 9: {}}
    out = f.see(g, missed)
    assert out.hold and out.actions == []
    out = f.see(g, expected_view(g))  # the next still frame: the token is there
    assert out.actions == [] and out.in_sync
    assert f.see(g, missed).hold  # gone in two frames running: abandoned
    assert [a.notation() for a in f.see(g, missed).actions] == ["abandon 9"]


def test_encampments_hidden_when_placed_go_into_that_turn_where_they_show():
    """Bivouacking's Encampments all under the stacks when placed (none in the game): when later
    sights show some, the placement missed goes into that turn, those not seen under the most seen,
    with no alert."""
    g, f, seen = _turn_ended_with_markers_unseen("bivouacking")
    assert not any(a.notation().startswith("encamp") for a in g.history)
    end = len(g.history) - 1
    act(g, "pick humans")
    seen = {**seen, 10: {"ratmen": 4, "encampment": 3}}
    first = f.see(g, seen)
    out = f.see(g, seen)
    assert first.raised == [] and out.raised == []
    assert [(i, a.notation()) for i, a in out.missed] == [(end, "encamp 10:5")]


def test_the_bench_table_corrects_the_log_as_a_table_would_the_latest_moves_until_the_game_is_right():
    """--table-reacts counts what a table types in the game log: a conquest just missed is put in; an
    old redeployment's counts that the race's next redeployment set anew are left as they are (the
    game's state does not show them); the log corrections go through the service's own edits."""
    from companion.rules.game import Game
    from companion.rules.errors import IllegalAction
    from .harness import corrected_in_the_log
    truth = play(seeded_setup("4p", 4, 500), 500)
    history = truth.history
    last_conquest = max(k for k, a in enumerate(history) if isinstance(a, Conquer))
    live = Game.replay(truth.setup, history[:last_conquest + 1], truth.board)
    for k, action in enumerate(history[:last_conquest - 40]):  # an old redeployment with other counts
        if not isinstance(action, Redeploy) or len(action.tokens) < 2:
            continue
        (r1, n1), (r2, n2) = sorted(action.tokens)[:2]
        if n1 < 2:
            continue
        other = Redeploy(tuple(sorted({**dict(action.tokens), r1: n1 - 1, r2: n2 + 1}.items())), action.race)
        wrong = history[:k] + [other] + history[k + 1:last_conquest]  # ... and the last conquest missed
        try:
            ours = Game.replay(truth.setup, wrong, truth.board)
        except IllegalAction:
            continue
        if Game.replay(truth.setup, wrong + [history[last_conquest]], truth.board).fingerprint() == live.fingerprint():
            break
    else:
        pytest.fail("no old redeployment that a later one set anew")
    game, edits = corrected_in_the_log(ours, live)
    assert [(e.how, e.seq, e.action) for e in edits] == [("insert", last_conquest, history[last_conquest])]
    assert game.fingerprint() == live.fingerprint() and game.history[k] == other  # the old one left
    ours_right_but_old = Game.replay(truth.setup, wrong[:last_conquest], truth.board)
    ours_right_but_old.apply(history[last_conquest])
    assert corrected_in_the_log(ours_right_but_old, live)[1] == []  # nothing the table needs to type


def test_the_board_is_right_takes_out_a_misread_conquest_where_it_stands_and_plays_the_rest_again():
    """A conquest the camera misread two turns' moves ago (the record went on from it, its player's
    redeployment named the region): "the board is right" takes that conquest out, plays the moves
    after it again, the redeployment as the camera shows it now, then what explains the rest."""
    from companion.reconcile import resync
    from companion.rules.game import Game
    truth = play(seeded_setup("4p", 4, 502), 502)
    history = truth.history
    k = next(i for i in range(40, 52) if history[i].notation() == "conquer 2")
    assert [a.notation() for a in history[k:k + 7]] == [
        "conquer 2", "conquer 11", "dragon 12", "redeploy 2:4 5:1 8:1 9:1 10:1 11:1 12:1 14:1", "end", "conquer 36",
        "redeploy 30:3 34:1 36:1"]
    misread = history[:k + 1] + [parse_notation("conquer 3")] + history[k + 1:k + 3] \
        + [parse_notation("redeploy 2:3 3:1 5:1 8:1 9:1 10:1 11:1 12:1 14:1")] + history[k + 4:k + 6]
    ours = Game.replay(truth.setup, misread, truth.board)
    board = Game.replay(truth.setup, history[:k + 7], truth.board)
    found = resync.resync(ours, expected_view(board), set())
    assert found.out == parse_notation("conquer 3") and found.left == 0
    assert found.describe(ours) == ("take out conquer 3; redeploy 2:3 3:1 5:1 8:1 9:1 10:1 11:1 12:1 14:1 becomes "
                                    "redeploy 2:4 5:1 8:1 9:1 10:1 11:1 12:1 14:1; then redeploy 30:3 34:1 36:1")
    fixed = Game.replay(truth.setup, ours.history[:len(ours.history) - found.rewind] + found.actions, truth.board)
    assert fixed.fingerprint() == board.fingerprint()
    f = Follower()
    f.see(ours, expected_view(board))
    question = f.board_is_right(ours).question  # offered to the table as one question
    assert question.labels[0].startswith("the board is right: take out conquer 3;")
    f.answer(ours, 0).apply_to(ours)
    assert ours.fingerprint() == board.fingerprint()


def test_a_resettlement_amendment_left_out_beside_another_difference_is_made_at_the_next_sight():
    # the sight that shows the resettled token also shows a count no action explains elsewhere: the
    # amendment is left out then (the sight is not all explained), and made when the next sight agrees
    g = act(game_with("alchemist ratmen", "swamp humans"), "pick ratmen", "conquer 4", "conquer 9", "conquer 10",
            "redeploy 4:2 9:5 10:5", "end", "pick humans", "conquer 3", "conquer 4", "redeploy 3:4 4:5", "end")
    f = Follower()
    act(g, *[a.notation() for a in f.see(g, expected_view(g)).actions])  # the camera guesses region 9
    index = next(k for k, a in enumerate(g.history) if a.notation().startswith("resettle"))
    assert g.history[index].notation() == "resettle ratmen 9:1"
    shown = {**expected_view(g), 9: {"ratmen": 5}, 10: {"ratmen": 6}}
    out = f.see(g, {**shown, 3: {"humans": 9}})  # nine Humans read where the game has four
    assert out.amend == [] and out.actions == []
    out = f.see(g, shown)
    assert [(i, a.notation()) for i, a in out.amend] == [(index, "resettle ratmen 10:1")]


def test_the_end_turn_asks_nothing_when_only_counts_differ_on_the_regions_the_races_hold():
    """The races hold the regions as the game has it, only a stack's count differs (the redeployment
    split otherwise): the End Turn ends the step at once (the split is the amendments' to see to), no
    question."""
    g = act(game_with("alchemist ratmen", "swamp humans"), "pick ratmen", "conquer 4", "conquer 9", "redeploy 4:10 9:2")
    f = Follower()
    f.see(g, expected_view(g))
    seen = {**expected_view(g), 4: {"ratmen": 6}, 9: {"ratmen": 6}}
    f.see(g, seen)
    out = f.confirm(g)
    assert out.question is None and [a.notation() for a in out.actions] == ["end"]
    out.apply_to(g)
    assert g.current_player == 1
