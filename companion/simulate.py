"""Play complete games from a seed, choosing uniformly among the kinds of legal action, then among them."""
from __future__ import annotations

import random

from .rules.actions import Roll
from .rules.game import Game
from .rules.setup import Setup
from .shuffle import roll_die


def choose(game: Game, rng: random.Random):
    """One action: a die face rolled for a declared final attempt, else a uniform legal choice."""
    if game.phase == "final-roll":
        return Roll(roll_die(rng))
    actions = game.legal_actions()
    rolls = [a for a in actions if isinstance(a, Roll)]
    if rolls and len(rolls) < len(actions) and rng.random() < 0.5:
        return Roll(roll_die(rng))  # Berserk rolls before a conquest: the face is chance, not a choice
    actions = [a for a in actions if not isinstance(a, Roll)] or actions
    kinds: dict[str, list] = {}
    for a in actions:
        kinds.setdefault(a.act, []).append(a)
    # uniform over the kinds of legal action, then over the actions of that kind: placements have
    # many variants and would otherwise end every turn after its first conquest
    return rng.choice(kinds[rng.choice(sorted(kinds))])


def play(setup: Setup, seed: int, max_actions: int = 20000, on_action=None) -> Game:
    """A finished game from ``setup``; ``on_action(game, action)`` is called after each action."""
    rng = random.Random(seed)
    game = Game(setup)
    while not game.finished:
        if len(game.history) >= max_actions:  # pragma: no cover - a guard against an engine bug
            raise RuntimeError(f"game did not finish in {max_actions} actions")
        action = choose(game, rng)
        game.apply(action)
        if on_action is not None:
            on_action(game, action)
    return game
