"""The illegal uses of the races, powers, artifacts and places whose own tests (test_races, test_powers,
test_markers) show only the effect: what a player might think the piece allows, refused with its reason."""
import pytest

from companion.rules.warcraft import pieces

from .helpers import finish, game_with, play, put, why


def _short_of(g, race, region):
    """Leave the race one token short of conquering ``region``."""
    tribe = g.tribes[race]
    tribe.hand = g.conquest_cost(tribe, region) - 1
    return tribe


def test_orcs_conquer_alliance_regions_at_the_usual_cost():
    g = game_with("farmer humans", "ranger orcs")
    play(g, "pick humans", "conquer 101")
    finish(g, "redeploy 101:9")
    play(g, "pick orcs")
    assert g.conquest_cost(g.tribes["orcs"], 101) == 2 + 9 + 1  # tokens, travel: the bonus is coins only
    assert why(g, "conquer 101") == "too-few-tokens"


def test_trolls_pay_the_full_cost_of_an_empty_region():
    g = play(game_with("farmer trolls"), "pick trolls")
    assert g.conquest_cost(g.tribes["trolls"], 101) == 3  # empty: no discount
    _short_of(g, "trolls", 101)
    assert why(g, "conquer 101") == "too-few-tokens"


def test_naga_start_on_water_or_an_entry_region_only():
    g = play(game_with("farmer naga"), "pick naga")
    assert why(g, "conquer 103") == "not-entry"  # land without an anchor


@pytest.mark.parametrize("power, region", [
    ("farmer", 112), ("herbalist", 102), ("ranger", 101), ("swamp-walker", 101), ("mountaineer", 202),
    ("mining", 102), ("fishing", 102), ("battle-master", 106), ("enraged", 106), ("explorer", 101)])
def test_scoring_powers_make_no_conquest_cheaper(power, region):
    g = play(game_with(f"{power} orcs"), "pick orcs")
    put(g, 106, "murloc", 2)
    cost = g.conquest_cost(g.tribes["orcs"], region)
    assert cost == 2 + 1 + g.regions[region].marker(pieces.MOUNTAIN) + g.regions[region].tokens
    _short_of(g, "orcs", region)
    assert why(g, f"conquer {region}") == "too-few-tokens"


def test_fishing_does_not_conquer_the_water_and_explorer_does_not_fly():
    g = play(game_with("fishing orcs"), "pick orcs", "conquer 102")
    assert why(g, "conquer 109") == "water"
    g = play(game_with("explorer orcs"), "pick orcs", "conquer 101")
    assert why(g, "conquer 203") == "not-adjacent"  # another island: through an Entry Region only


def test_a_fort_adds_one_to_the_defence():
    g = game_with("garrisoned orcs", "ranger trolls")
    play(g, "pick orcs", "conquer 101")
    finish(g, "redeploy 101:9")
    play(g, "pick trolls")
    assert g.conquest_cost(g.tribes["trolls"], 101) == 2 + 9 + 1 + 1 - 1  # tokens, Fort, travel, Trolls
    _short_of(g, "trolls", 101)
    assert why(g, "conquer 101") == "too-few-tokens"


def test_doomhammer_needs_two_coins_first():
    g = play(game_with("farmer orcs"), "pick orcs", "conquer 101")
    g.wc.faces_left.remove("doomhammer")
    g.regions[101].add_marker("doomhammer")
    g.players[0].coins = 1
    assert why(g, "use doomhammer 106") == "cannot-pay"


def test_heart_of_azeroth_goes_in_a_region_of_the_holder():
    g = game_with("farmer orcs", "ranger trolls")
    play(g, "pick orcs", "conquer 101")
    finish(g)
    play(g, "pick trolls", "conquer 107", "discover 107 heart-of-azeroth", "redeploy 107:9")
    assert why(g, "place heart-of-azeroth 101") == "not-yours"


@pytest.mark.parametrize("place", pieces.PLACES)
def test_a_legendary_place_is_neither_moved_nor_used_to_conquer(place):
    """"Places markers cannot be moved (except the Well of Eternity ... when revealed)"."""
    g = play(game_with("farmer orcs"), "pick orcs", "conquer 101", "conquer 102")
    g.wc.faces_left.remove(place)
    g.regions[101].add_marker(place)
    assert why(g, f"use {place} 108") == "not-usable"
    play(g, f"redeploy 101:1 102:{g.tokens_to_redeploy(g.tribes['orcs']) - 1}")  # (Spirit Healer: one more)
    assert why(g, f"place {place} 102") == "not-placeable"
