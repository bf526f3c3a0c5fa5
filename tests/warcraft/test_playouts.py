"""Seeded playouts of Small World of Warcraft on the SAMPLE islands, 2 to 5 players: every invariant
after every action (coins between players summing to zero), replay and undo exact, records round-trip."""
import pytest

from companion.rules import Game
from companion.shuffle import seeded_setup
from maps import islands

from ..rules import playout as harness
from .invariants import WARCRAFT

GAMES = 12
DEEP = 1


def playout(players: int, seed: int, deep: bool) -> Game:
    setup = seeded_setup(islands.sample_map(players), players, seed, "warcraft")
    return harness.playout(setup, seed, deep, WARCRAFT, horizon=300, samples=6)


@pytest.mark.parametrize("players", (2, 3, 4, 5))
def test_warcraft_playouts_hold_every_invariant(players):
    kinds = set()
    for seed in range(GAMES):
        game = playout(players, seed, deep=seed < DEEP)
        assert game.finished and game.round == game.rounds == islands.ROUNDS[players]
        kinds.update(a.act for a in game.history)
    assert {"pick", "values", "conquer", "redeploy", "end", "decline", "discover"} <= kinds


def test_every_race_and_power_is_played():
    races, powers, kinds = set(), set(), set()
    for seed in range(40):
        game = playout(2 + seed % 4, 100 + seed, deep=False)
        races |= {a.race for a in game.history if a.act == "values"}
        kinds |= {a.act for a in game.history}
        powers |= {t.power.name for t in game.tribes.values()}
    assert len(races) == 16
    assert {"detonate", "bombs", "form", "objectives", "airborne", "champion", "enlist", "intimidate", "portal",
            "place", "use", "side", "steal", "discover", "attempt", "resettle", "abandon", "herd"} <= kinds


def test_same_seed_same_record():
    assert playout(4, 7, deep=False).history == playout(4, 7, deep=False).history
