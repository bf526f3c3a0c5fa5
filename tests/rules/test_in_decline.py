"""Hooks that belong to the active race (or to the race holding the power), never to a race in
decline, and the other way round (issue 24, findings 1-4 and the audit of that class)."""
from .helpers import game_with, play, why


def test_elves_in_decline_lose_their_lone_token():
    # "Race benefits no longer apply once the race is put In Decline"; "When a Region defended by a
    # single token is captured, the defending token is discarded."
    g = play(game_with("merchant elves", "commando ratmen"), "pick elves", "conquer 4", "redeploy 4:8", "end",
             "pick ratmen", "conquer 3", "redeploy 3:12", "end", "decline")
    assert g.tribes["elves"].in_decline and g.regions[4].tokens == 1
    play(g, "conquer 4")
    assert g.regions[4].race == "ratmen"
    assert "elves" not in g.tribes and g.tray("elves") == 11  # discarded: their last token, the race leaves


def test_active_elves_still_keep_their_token():
    g = play(game_with("merchant elves", "commando ratmen"), "pick elves", "conquer 4", "redeploy 4:8", "end",
             "pick ratmen")
    g.tribes["ratmen"].hand = 14
    play(g, "conquer 4")
    assert g.tribes["elves"].hand == 8


def test_ghouls_in_decline_may_still_attack_a_diplomats_race():
    # Diplomat: "Tokens In Decline are not impacted (so Ghouls In Decline are immune to this power and
    # may still attack you)."
    g = play(game_with("diplomat ratmen", "merchant ghouls", "hill humans"),
             "pick ratmen", "conquer 4", "redeploy 4:13", "end",
             "pick ghouls", "conquer 3", "redeploy 3:7", "end",
             "conquer 9", "redeploy 4:12 9:1", "ally 1", "end",
             "decline", "redeploy 4:12 9:1", "ally 1", "end")
    assert g.turn.player == 1 and g.allies == {0: 1} and g.tribes["ghouls"].in_decline
    assert why(g, "conquer 9 ghouls") is None
    play(g, "conquer 9 ghouls", "redeploy 3:4 9:3 ghouls", "pick humans")
    assert why(g, "conquer 4") == "ally"  # Ben's active race is still at peace with Ann


def test_an_attack_by_your_own_ghouls_in_decline_does_not_spoil_your_diplomats_ally():
    # "select one opponent whose Active race you did not attack this turn"; in the Special Powers,
    # "you" means "the Race tokens of your race associated with this Special Power ... this usually
    # excludes any token In Decline from your earlier race".
    g = play(game_with("merchant ghouls", "hill humans", "diplomat ratmen"),
             "pick ghouls", "conquer 3", "redeploy 3:7", "end",
             "pick humans", "conquer 4", "conquer 9", "redeploy 4:1 9:8", "end",
             "decline", "redeploy 4:1 9:8", "end",
             "conquer 4 ghouls", "redeploy 3:3 4:4 ghouls", "pick ratmen", "conquer 10", "redeploy 10:13")
    assert g.regions[4].race == "ghouls"  # Ann's Ghouls in decline took a region of Ben's active Humans
    assert why(g, "ally 1") is None


def test_a_failed_attempt_is_an_attack_for_the_diplomat():
    # the ally is an opponent "whose Active race you did not attack this turn": attempting to conquer
    # their region attacks them, whatever the die says
    g = play(game_with("hill humans", "diplomat ratmen"), "pick humans", "conquer 4", "redeploy 4:9", "end",
             "pick ratmen", "conquer 3")
    g.tribes["ratmen"].hand = 10  # 4 costs 2 + 9 Humans = 11
    play(g, "attempt 4", "roll 0")
    assert g.regions[4].race == "humans"
    play(g, f"redeploy 3:{g.tokens_to_redeploy(g.tribes['ratmen'])}")
    assert why(g, "ally 0") == "attacked-this-turn"


def test_your_own_tokens_in_decline_do_not_raise_the_cost():
    # "+1 additional Race token for each Lost Tribe or other player's Race token already present in the
    # Region" (the summary: "each opponent's Race token"); "A player may choose to conquer a Region
    # occupied by his own In Decline token ... He will lose that token"
    g = play(game_with("merchant ghouls", "hill humans", "commando ratmen"),
             "pick ghouls", "conquer 3", "redeploy 3:7", "end", "pick humans", "conquer 10", "redeploy 10:9", "end",
             "decline", "redeploy 10:9", "end", "redeploy 3:7 ghouls", "pick ratmen")
    assert g.regions[3].tokens == 7 and g.tribes["ghouls"].in_decline
    ratmen = g.tribes["ratmen"]
    assert g.conquest_cost(ratmen, 3) == 2 - 1  # 2, less Commando's 1: seven of your own Ghouls count for none
    assert g.conquest_cost(ratmen, 10) == 2 + 9 - 1  # Ben's Humans count
    play(g, "conquer 3")
    assert g.tribes["ghouls"].hand == 6 and g.tray("ghouls") == 10 - 6  # one Ghoul lost, six to resettle


def test_your_own_ghouls_in_decline_ignore_the_heroes_of_your_active_race():
    # Heroic: "These 2 Regions are immune to enemy conquests": your own Ghouls are not an enemy ("You may
    # even attack your own currently Active race with your In Decline Ghouls")
    g = play(game_with("merchant ghouls", "hill humans", "heroic ratmen"),
             "pick ghouls", "conquer 3", "redeploy 3:7", "end", "pick humans", "conquer 10", "redeploy 10:9", "end",
             "decline", "redeploy 10:9", "end", "redeploy 3:7 ghouls", "pick ratmen", "conquer 4",
             "redeploy 4:13", "heroes 4", "end", "redeploy 10:9", "end")
    assert g.regions[4].marker("hero") == 1
    assert why(g, "conquer 4 ghouls") is None
