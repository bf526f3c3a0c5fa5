"""Rulesets: the races, powers and numbers of one game family, found by name in a registry."""
from __future__ import annotations

import maps

from .errors import RecordError
from .powers import POWERS
from .races import RACES
from .traits import Power, Race


class Ruleset:
    """The base game. A variant subclasses it and overrides what differs."""

    name = "smallworld"
    title = "Small World"
    races: tuple[type[Race], ...] = RACES
    powers: tuple[type[Power], ...] = POWERS
    # whether the table reads the token numbers off its banners and badges (a ``values`` action the
    # first time a combo is picked), so that a service remembers them from game to game
    reads_values = False

    def __init__(self):
        self._races = {cls.name: cls for cls in self.races}
        self._powers = {cls.name: cls for cls in self.powers}

    def race_names(self) -> list[str]:
        return list(self._races)

    def power_names(self) -> list[str]:
        return list(self._powers)

    def race(self, name: str) -> Race:
        return self._races[name]()

    def power(self, name: str) -> Power:
        return self._powers[name]()

    def box(self, race: str) -> int:
        """Tokens of the race physically in the box."""
        return self._races[race].box

    def race_title(self, race: str) -> str:
        return self._races[race].title

    def is_race(self, name: str) -> bool:
        return name in self._races

    def is_power(self, name: str) -> bool:
        return name in self._powers

    def game_class(self):
        """The class of a game of this ruleset (None: the base ``Game``)."""
        return None

    def load_board(self, name: str) -> maps.Board:
        """The map a record's ``"map"`` names (raises ``maps.MapError``)."""
        return maps.load(name)

    def board(self, name: str) -> maps.Board:
        """``load_board(name)``, read once per process for a shipped map (boards never change; a
        file path is read each time, since the table may correct it)."""
        if not self.shipped_map(name):
            return self.load_board(name)
        key = (self.name, name)
        board = _SHIPPED_BOARDS.get(key)
        if board is None:
            board = _SHIPPED_BOARDS[key] = self.load_board(name)
        return board

    def map_names(self) -> list[str]:
        """The shipped maps, for a setup form."""
        return maps.builtin_names()

    def map_for_players(self, players: int) -> str:
        """The map the rulebook lays out for this many players (each board side is for one number)."""
        return f"{players}p"

    def shipped_map(self, name: str) -> bool:
        """Whether ``name`` is made only of maps shipped with the companion (no file path)."""
        return name in maps.builtin_names()

    def check_options(self, options: object) -> None:
        """Refuse header ``options`` this ruleset does not understand (``RecordError``)."""
        if options:
            raise RecordError(f"options: the {self.name} ruleset takes no options")

    def describe(self) -> dict:
        """What ``companion rules --json`` prints."""
        return {
            "ruleset": self.name,
            "title": self.title,
            "races": [{"name": c.name, "title": c.title, "banner": c.tokens, "in_box": c.box,
                       **({"extra_tokens": c().extra_tokens()} if c().extra_tokens() else {})}
                      for c in self.races],
            "powers": [{"name": c.name, "title": c.title, "badge": c.tokens} for c in self.powers],
        }


RULESETS: dict[str, Ruleset] = {}
_SHIPPED_BOARDS: dict[tuple[str, str], maps.Board] = {}


def register(ruleset: Ruleset) -> Ruleset:
    RULESETS[ruleset.name] = ruleset
    return ruleset


def get(name: str) -> Ruleset:
    if not isinstance(name, str):
        raise ValueError(f"a ruleset is a name such as \"smallworld\" (known: {', '.join(RULESETS)})")
    try:
        return RULESETS[name]
    except KeyError:
        raise ValueError(f"unknown ruleset {name!r} (known: {', '.join(RULESETS)})") from None


register(Ruleset())
