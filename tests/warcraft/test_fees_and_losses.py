"""Every fee, immunity and loss rule against every way of attacking or removing tokens: conquest,
failed attempt, Bomb, Intimidating, theft, Portal Mage (issue 24, findings 5-10, 13, 14, 16 and the
audit of that class). Each test quotes the rulebook sentence it checks."""
from .helpers import finish, game_with, income, play, put, why


def with_marker(g, region, item):
    g.wc.faces_left.remove(item)
    g.regions[region].add_marker(item)


def paid(g, why_):
    return [t for t in g.wc.transfers if t[3] == why_]


# -- Light's Hope Chapel ------------------------------------------------------------------------------
def test_lights_hope_chapel_protects_every_region_of_the_race():
    # "A Race occupying the Light's Hope Chapel does not suffer any Race token loss when attacked."
    g = game_with("farmer orcs", "ranger trolls")
    play(g, "pick orcs", "conquer 101", "conquer 102")
    with_marker(g, 101, "lights-hope-chapel")
    finish(g, "redeploy 101:8 102:1")
    play(g, "pick trolls", "conquer 102")  # not the Chapel's region
    assert g.tribes["orcs"].hand == 1 and g.tray("orcs") == 11 - 8 - 1  # taken back, none discarded


def _bombed(race, marker=None):
    """Ann's Goblins (201) put a Bomb on 202 of Ben's ``race`` (202: 2 tokens, 203: 7, ``marker`` on
    203); it is Ann's next turn, the Bomb's face awaited."""
    g = game_with("farmer goblins", f"ranger {race}")
    play(g, "pick goblins", "conquer 201")
    finish(g)
    play(g, f"pick {race}", "conquer 202", "conquer 203")
    if marker:
        with_marker(g, 203, marker)
    finish(g, "redeploy 202:2 203:7")
    play(g, "redeploy 201:9", "bombs 202", "end")
    play(g, "redeploy 202:2 203:7", "end")
    assert g.awaiting() == ("detonate", 202)
    return g


def test_lights_hope_chapel_spares_a_bombs_loss():
    # a Bomb's explosion "is treated as a successful conquest (the opponent loses 1 Race token ...)"
    g = _bombed("orcs", "lights-hope-chapel")
    play(g, "detonate 202 exploding")
    assert g.regions[202].race is None and g.tribes["orcs"].hand == 2  # both retrieved


# -- Archaeologist -------------------------------------------------------------------------------------
def test_archaeologist_counts_each_artifact_and_place_not_each_region():
    # "1 bonus Victory Coin for each Artifact and each Legendary Place it controls at turn's end"
    g = play(game_with("archaeologist orcs"), "pick orcs", "conquer 101")
    with_marker(g, 101, "frostmourne")
    with_marker(g, 101, "dark-portal")
    finish(g)
    assert income(g, 0)["Artifacts and Legendary Places (Archaeologist)"] == 2


# -- Harmony -------------------------------------------------------------------------------------------
def _harmony():
    """Ann's Pandaren hold 101 with 9 tokens; Ben holds Ann's Harmony token and picks the Orcs."""
    g = game_with("farmer pandaren", "ranger orcs")
    play(g, "pick pandaren", "conquer 101")
    finish(g, "redeploy 101:9")
    assert g.wc.harmony == {1: "pandaren"}
    play(g, "pick orcs")
    return g


def test_harmony_is_paid_for_a_failed_attempt():
    # "must pay 2 Victory Coins to the Pandaren before attacking them (attempting to conquer their
    # regions ...)": the attempt is the attack, whatever the die says
    g = _harmony()
    ann, ben = g.players[0].coins, g.players[1].coins
    play(g, "attempt 101")  # 12 needed, 9 in hand
    assert (g.players[0].coins, g.players[1].coins) == (ann + 2, ben - 2)
    play(g, "roll 0")
    assert g.regions[101].race == "pandaren" and len(paid(g, "Harmony")) == 1


def test_harmony_is_paid_once_for_an_attempt_that_succeeds():
    # "These 2 Victory Coins are only paid once, even if the opponent attacks several Pandaren Regions."
    g = _harmony()
    play(g, "attempt 101", "roll 3")
    assert g.regions[101].race == "orcs" and len(paid(g, "Harmony")) == 1


def test_harmony_is_paid_before_intimidating_the_pandaren():
    # "... or forcing the removal of a Race token from their territory by any means"
    g = game_with("farmer pandaren", "intimidating orcs")
    play(g, "pick pandaren", "conquer 106", "conquer 105")
    finish(g, "redeploy 106:8 105:1")
    play(g, "pick orcs", "conquer 112")
    play(g, "intimidate 106 105")
    assert len(paid(g, "Harmony")) == 1 and g.regions[105].tokens == 2


def test_harmony_is_paid_when_a_bomb_explodes_on_the_pandaren():
    # "forcing the removal of a Race token from their territory by any means": a Bomb
    g = _bombed("pandaren")
    assert g.wc.harmony == {0: "pandaren"}  # given at the end of Ben's turns: Ann was not attacked
    ann, ben = g.players[0].coins, g.players[1].coins
    play(g, "detonate 202 exploding")
    assert g.regions[202].race is None
    assert (g.players[0].coins, g.players[1].coins) == (ann - 2, ben + 2)


def test_harmony_is_paid_when_a_portal_mage_moves_the_pandarens_tokens():
    # "forcing the removal of a Race token from their territory by any means"
    g = game_with("farmer pandaren", "portal-mage orcs")
    play(g, "pick pandaren", "conquer 202", "conquer 203")
    finish(g, "redeploy 202:1 203:8")
    play(g, "pick orcs", "conquer 101")
    play(g, "portal 101 203")
    assert g.regions[203].race == "orcs" and g.regions[101].race == "pandaren"
    assert len(paid(g, "Harmony")) == 1


# -- Aegis of Aggramar -------------------------------------------------------------------------------
def _aegis():
    """Ann's Orcs hold 101 (9 tokens, the Aegis) and 102; Ben picks the Trolls."""
    g = game_with("farmer orcs", "intimidating trolls")
    play(g, "pick orcs", "conquer 101", "conquer 102")
    with_marker(g, 101, "aegis-of-aggramar")
    finish(g, "redeploy 101:8 102:1")
    play(g, "pick trolls")
    return g


def test_aegis_is_paid_for_a_failed_attempt():
    # "This Region is immune to all powers and conquest attempts unless the opponent pays the owner of
    # the Aegis 2 Victory Coins."
    g = _aegis()
    play(g, "conquer 102")
    ann = g.players[0].coins
    play(g, "attempt 101", "roll 0")
    assert g.regions[101].race == "orcs" and g.players[0].coins == ann + 2


def test_aegis_is_paid_before_intimidating():
    # "immune to all powers ... unless the opponent pays"
    g = _aegis()
    play(g, "conquer 102")
    play(g, "intimidate 101")
    assert len(paid(g, "Aegis of Aggramar")) == 1


def test_aegis_is_paid_before_a_bomb_is_placed_on_it():
    # "This Region is immune to all powers ... unless the opponent pays the owner of the Aegis 2"
    g = game_with("farmer goblins", "ranger orcs")
    play(g, "pick goblins", "conquer 201")
    finish(g)
    play(g, "pick orcs", "conquer 202")
    with_marker(g, 202, "aegis-of-aggramar")
    finish(g, "redeploy 202:9")
    play(g, "redeploy 201:9")
    ann, ben = g.players[0].coins, g.players[1].coins
    g.players[0].coins = 1
    assert why(g, "bombs 202") == "cannot-pay"
    g.players[0].coins = ann
    play(g, "bombs 202")
    assert (g.players[0].coins, g.players[1].coins) == (ann - 2, ben + 2)


def test_aegis_is_paid_before_an_ethereal_theft():
    # "immune to all powers": stealing from the Aegis' region is a power acting on it
    g = game_with("farmer orcs", "ranger ethereals")
    play(g, "pick orcs", "conquer 101")
    with_marker(g, 101, "aegis-of-aggramar")
    finish(g, "redeploy 101:9")
    play(g, "pick ethereals", "conquer 102", "steal 101 102")
    assert g.regions[102].marker("aegis-of-aggramar") and len(paid(g, "Aegis of Aggramar")) == 1


# -- Marshdweller --------------------------------------------------------------------------------------
def _marsh(power):
    """Ann's Marshdweller Orcs hold the Swamp 108 and 101; Ben picks Trolls with ``power``."""
    g = game_with("marshdweller orcs", f"{power} trolls")
    play(g, "pick orcs", "conquer 101", "conquer 108")
    finish(g, "redeploy 101:8 108:1")
    play(g, "pick trolls")
    return g


def test_marshdweller_is_paid_for_a_conquest():
    # "Opponents must pay the Marshdweller Race 1 Victory Coin before conquering any Marshdweller's Swamp"
    g = _marsh("ranger")
    play(g, "conquer 107", "discover 107 karazhan", "conquer 108")
    assert len(paid(g, "Marshdweller")) == 1


def test_marshdweller_is_not_paid_for_intimidating_or_a_failed_attempt():
    # "before conquering": moving a token away is not conquering, nor is an attempt the die refuses
    g = _marsh("intimidating")
    play(g, "conquer 107", "discover 107 karazhan", "intimidate 108 101")
    assert not paid(g, "Marshdweller") and g.regions[108].race is None
    put(g, 108, "orcs", 5)
    g.tribes["trolls"].hand = 4
    play(g, "attempt 108", "roll 0")  # 2 + 5 = 7 needed, 4 in hand and the die
    assert not paid(g, "Marshdweller")


def test_marshdweller_is_paid_once_for_a_champions_conquest():
    # the Champion conquers "for free, regardless of the number of enemy tokens and defenses" but it
    # is a conquest: the coin is due once (it was charged twice)
    g = _marsh("championing")
    play(g, "conquer 107", "discover 107 karazhan", "champion 108")
    assert len(paid(g, "Marshdweller")) == 1


# -- Forsaken ------------------------------------------------------------------------------------------
def test_forsaken_count_a_murloc_discarded_by_intimidating():
    # "Each time they force the loss of a Race token (either Active or In Decline), they may spend 1
    # Victory Coin"; the rulebook's own example counts "1 Murloc token and 1 Kobold token"
    g = play(game_with("intimidating forsaken"), "pick forsaken", "conquer 102")
    assert g.regions[103].race == "murloc"
    play(g, "intimidate 103")
    assert g.regions[103].race is None and g.wc.turn.kills == 1
    assert why(g, "enlist 1") is None


# -- Beast Master --------------------------------------------------------------------------------------
def test_one_beast_is_the_loss_and_the_others_are_redeployed():
    # "when a Region with at least one Beast token is conquered, one Beast Token is discarded as a loss
    # while all other tokens are redeployed normally"
    g = game_with("beast-master orcs", "ranger trolls")
    play(g, "pick orcs", "conquer 101", "conquer 102")
    finish(g, "redeploy 101:1 102:8")
    play(g, "pick trolls", "conquer 208")
    finish(g)
    play(g, "redeploy 101:1 102:8")
    g.wc.beasts = 0
    g.place_marker(101, "beast", 2)
    play(g, "end")
    play(g, "conquer 204")
    g.tribes["trolls"].hand = 10
    play(g, "conquer 101")
    assert g.regions[101].race == "trolls" and g.tribes["orcs"].hand == 1  # the Orc is not lost
    assert g.supply("beast") == 5 and g.wc.loose_beasts == {"orcs": 1}
    play(g, f"redeploy 101:{g.tokens_to_redeploy(g.tribes['trolls']) - 2} 204:1 208:1", "end")
    assert g.phase == "resettlement"
    assert why(g, "herd 103:1") == "not-yours"
    play(g, "herd 102:1")
    assert g.regions[102].marker("beast") == 1 and g.phase == "resettlement"
    play(g, "resettle orcs 102:1")
    assert g.regions[102].tokens == 9


def test_a_bomb_on_the_pandaren_does_nothing_when_its_owner_cannot_pay_the_harmony():
    # "A player with a Harmony token must pay 2 Victory Coins to the Pandaren before attacking them":
    # a Bomb explodes when nobody chooses; a player who cannot pay cannot attack (docs/warcraft.md)
    g = _bombed("pandaren")
    g.players[0].coins = 1
    play(g, "detonate 202 exploding")
    assert g.regions[202].race == "pandaren" and g.regions[202].tokens == 2 and not g.regions[202].marker("bomb")
    assert g.players[0].coins == 1
