"""``legal_actions()`` lists exactly what ``explain`` accepts, on many seeded random positions of
both rulesets (the differential check of issue 24; see ``differential.py``)."""
import random

import pytest

from companion.rules import Game
from companion.shuffle import seeded_setup
from companion.simulate import choose
from maps import islands

from . import differential


def positions(setup, seed, every):
    """The positions of one seeded random playout, every ``every``-th action (with a random offset)."""
    rng = random.Random(seed)
    game = Game(setup)
    offset = rng.randrange(every)
    while not game.finished:
        if len(game.history) % every == offset:
            yield game
        game.apply(choose(game, rng))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_legal_actions_equal_what_explain_accepts_in_the_base_game(players):
    asked = 0
    for seed in range(8):
        for game in positions(seeded_setup(f"{players}p", players, 100 + seed), seed, every=4):
            asked += differential.check(game)
    assert asked > 10000


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_legal_actions_equal_what_explain_accepts_in_warcraft(players):
    asked = 0
    for seed in range(4):
        setup = seeded_setup(islands.sample_map(players), players, 200 + seed, ruleset="warcraft")
        for game in positions(setup, seed, every=6):
            asked += differential.check(game)
    assert asked > 10000
