"""The Small World of Warcraft ruleset: its races, powers, islands and header options."""
from __future__ import annotations

import maps
from maps import islands

from ..errors import RecordError
from ..ruleset import Ruleset
from . import pieces
from .powers import POWERS
from .races import RACES

# SAMPLE values for simulations and the demo ONLY: the real numbers are printed on the banners and
# badges and are read off the pieces by the table (the ``values`` action), never taken from here.
SAMPLE_BANNER = 5
SAMPLE_BADGE = 4


class WarcraftRuleset(Ruleset):
    name = "warcraft"
    title = "Small World of Warcraft"
    races = RACES
    powers = POWERS
    reads_values = True

    def game_class(self):
        from .game import WarcraftGame
        return WarcraftGame

    def load_board(self, name: str) -> maps.Board:
        return islands.load(name)

    def default_map(self, players: int) -> str:
        return islands.sample_map(players)

    def map_for_players(self, players: int) -> str:
        return self.default_map(players)

    def map_names(self) -> list[str]:
        return [islands.sample_map(n) for n in sorted(islands.SETS)]

    def shipped_map(self, name: str) -> bool:
        return all(part in islands.builtin_names() for part in name.split(islands.SEPARATOR))

    def check_options(self, options: object) -> None:
        """``{"values": {"races": {...}, "powers": {...}}, "factions": {race: side}}``, both optional."""
        if options is None:
            return
        if not isinstance(options, dict):
            raise RecordError("options must be a JSON object")
        unknown = set(options) - {"values", "factions"}
        if unknown:
            raise RecordError(f"options: unknown field {sorted(unknown)[0]!r} (known: values, factions)")
        values = options.get("values", {})
        if not isinstance(values, dict) or set(values) - {"races", "powers"}:
            raise RecordError("options.values must be {\"races\": {name: number}, \"powers\": {name: number}}")
        for kind, known in (("races", self.is_race), ("powers", self.is_power)):
            table = values.get(kind, {})
            if not isinstance(table, dict):
                raise RecordError(f"options.values.{kind} must map names to numbers")
            for n, v in table.items():
                if not known(n):
                    raise RecordError(f"options.values.{kind}: unknown name {n!r}")
                if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= pieces.MAX_VALUE:
                    raise RecordError(f"options.values.{kind}.{n} must be a number from 0 to {pieces.MAX_VALUE}")
        factions = options.get("factions", {})
        if not isinstance(factions, dict):
            raise RecordError("options.factions must map race names to alliance, horde or neutral")
        for n, side in factions.items():
            if not self.is_race(n):
                raise RecordError(f"options.factions: unknown race {n!r}")
            if side not in pieces.FACTIONS:
                raise RecordError(f"options.factions.{n} must be alliance, horde or neutral, found {side!r}")

    def describe(self) -> dict:
        return {
            "ruleset": self.name, "title": self.title,
            "races": [{"name": c.name, "title": c.title, "banner": "(read off the banner)", "in_box": c.box,
                       "faction": c.faction} for c in self.races],
            "powers": [{"name": c.name, "title": c.title, "badge": "(read off the badge)"} for c in self.powers],
            "note": "banner and badge values are read off the pieces (the values action); not printed in the rulebook",
        }
