"""One seeded random playout of any ruleset: every invariant after every action, replay and undo
exact (after every action when ``deep``, else at a few sampled ones), and the record round-trips."""
from __future__ import annotations

import random

from companion.rules import Game, Setup
from companion.rules.record import dumps, loads, replay
from companion.simulate import choose

from . import invariants


def playout(setup: Setup, seed: int, deep: bool, box: invariants.Box = invariants.SMALLWORLD,
            horizon: int = 400, samples: int = 8) -> Game:
    """Play ``setup`` to the end with ``random.Random(seed)``; ``samples`` action numbers below
    ``horizon`` get the replay and undo checks when not ``deep``."""
    rng = random.Random(seed)
    game = Game(setup)
    seen = invariants.check(game, box=box)
    sample = set(rng.sample(range(1, horizon), samples))
    while not game.finished:
        action = choose(game, rng)
        before_fp = game.fingerprint()
        bonus = invariants.redeploy_bonus(game, action)
        game.apply(action)
        seen = invariants.check(game, seen, action, bonus, box=box)
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
