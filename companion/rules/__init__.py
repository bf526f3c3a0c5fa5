"""The rules of Small World: pure Python, no I/O, no clock, no randomness.

``Game(setup)`` is a game; ``legal_actions()``, ``explain(action)``, ``apply(action)``, ``undo()``.
"""
from .actions import ACTIONS, Action, from_json, parse_notation
from .errors import IllegalAction, Reason, RecordError
from .game import CHANCE, Game
from .ruleset import RULESETS, Ruleset, get
from .setup import Setup

__all__ = ["ACTIONS", "Action", "from_json", "parse_notation", "IllegalAction", "Reason", "RecordError",
           "CHANCE", "Game", "RULESETS", "Ruleset", "get", "Setup"]

from . import warcraft  # noqa: E402,F401  (registers the Small World of Warcraft ruleset)
