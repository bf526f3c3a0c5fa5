"""Seeded playouts of Small World of Warcraft on the SAMPLE islands, 2 to 5 players: every invariant
after every action (coins between players summing to zero), replay and undo exact, records round-trip."""
import random

import pytest

from companion.rules import Game
from companion.rules.record import dumps, loads, replay
from companion.shuffle import seeded_setup
from companion.simulate import choose
from maps import islands

from . import invariants

GAMES = 12
DEEP = 1


def playout(players: int, seed: int, deep: bool) -> Game:
    setup = seeded_setup(islands.sample_map(players), players, seed, "warcraft")
    rng = random.Random(seed)
    game = Game(setup)
    seen = invariants.check(game)
    sample = set(rng.sample(range(1, 300), 6))
    while not game.finished:
        action = choose(game, rng)
        before_fp = game.fingerprint()
        bonus = invariants.redeploy_bonus(game, action)
        game.apply(action)
        seen = invariants.check(game, seen, action, bonus)
        n = len(game.history)
        if deep or n in sample:
            assert Game.replay(setup, game.history).fingerprint() == game.fingerprint(), f"replay differs at {n}"
            after_fp = game.fingerprint()
            game.undo()
            assert game.fingerprint() == before_fp, f"undo of {action} at {n} is not exact"
            game.apply(action)
            assert game.fingerprint() == after_fp
    record = loads(dumps(setup, game.history))
    assert replay(record).fingerprint() == game.fingerprint()
    return game


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
