"""Seeded random playouts on all four maps: every invariant after every action, replay and undo exact."""
import pytest

from companion.rules import Game
from companion.shuffle import seeded_setup

from . import playout as harness
from .helpers import RULES

MAPS = ("2p", "3p", "4p", "5p")
GAMES_PER_MAP = 60
DEEP = 3  # games per map checked with replay and undo after every single action


def playout(map_name: str, seed: int, deep: bool) -> Game:
    return harness.playout(seeded_setup(map_name, int(map_name[0]), seed), seed, deep)


@pytest.mark.parametrize("map_name", MAPS)
def test_random_playouts_hold_every_invariant(map_name):
    kinds = set()
    combos = set()
    for seed in range(GAMES_PER_MAP):
        game = playout(map_name, seed, deep=seed < DEEP)
        assert game.finished and game.round == game.rounds
        out = game.outcome()
        assert out["winners"] and all(game.players[w].coins == max(out["coins"]) for w in out["winners"]) \
            or out["tie_break"]
        kinds.update(a.act for a in game.history)
        combos.update(picked(game))
    # the playouts reach every kind of action, every race and every power, on every map
    assert {"pick", "conquer", "attempt", "roll", "redeploy", "end", "decline", "resettle", "abandon",
            "dragon", "convert", "encamp", "fortify", "heroes", "ally"} <= kinds
    assert {race for race, _ in combos} == set(RULES.race_names())
    assert {power for _, power in combos} == set(RULES.power_names())


def picked(game):
    """The combos picked in a game, replayed: (race, power)."""
    replay = Game(game.setup)
    out = set()
    for action in game.history:
        replay.apply(action)
        if action.act == "pick":
            out.add((action.race, replay.tribes[action.race].power.name))
    return out


def test_same_seed_same_record():
    a = playout("4p", 11, deep=False)
    b = playout("4p", 11, deep=False)
    assert a.history == b.history
