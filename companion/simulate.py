"""Play complete games from a seed: a weighted choice of the kind of legal action, then a uniform one."""
from __future__ import annotations

import random

from .rules.actions import Encamp, EndTurn, Heroes, Roll
from .rules.game import CHANCE, Game
from .rules.setup import Setup
from .shuffle import roll_die


KIND_WEIGHTS = {"conquer": 8, "dragon": 2, "convert": 2}
# placements a table makes once a turn: the rules let a player move them again before the turn
# ends, but nobody does, and a record of Heroes moved six times is not a game anyone plays
ONCE_A_TURN = (Heroes, Encamp)


def choose(game: Game, rng: random.Random):
    """One action: a die face rolled for a declared final attempt, else a uniform legal choice."""
    if game.phase == "final-roll":
        return Roll(roll_die(rng))
    actions = game.legal_actions()
    weight = getattr(game, "chance_weight", None)  # a ruleset's hidden faces, drawn in proportion
    if weight is not None and game.current_player == CHANCE:
        return rng.choices(actions, weights=[weight(a) for a in actions])[0]
    rolls = [a for a in actions if isinstance(a, Roll)]
    if rolls and len(rolls) < len(actions) and rng.random() < 0.5:
        return Roll(roll_die(rng))  # Berserk rolls before a conquest: the face is chance, not a choice
    actions = [a for a in actions if not isinstance(a, Roll)] or actions
    placed = _placed_this_turn(game)
    actions = [a for a in actions if type(a) not in placed] or actions
    kinds: dict[str, list] = {}
    for a in actions:
        kinds.setdefault(a.act, []).append(a)
    # a kind of action first (conquests weighted up, like a table that means to expand), then one
    # action of that kind uniformly: placements have many variants and would otherwise end every turn
    names = sorted(kinds)
    kind = rng.choices(names, weights=[KIND_WEIGHTS.get(n, 1) for n in names])[0]
    return rng.choice(kinds[kind])


def _placed_this_turn(game: Game) -> set[type]:
    placed = set()
    for action in reversed(game.history):
        if isinstance(action, EndTurn):
            break
        if isinstance(action, ONCE_A_TURN):
            placed.add(type(action))
    return placed


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
