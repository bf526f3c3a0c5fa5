"""The setup of one game: ruleset, map, players in seat order, the order of the race and power stacks.

It is the record's header line. Chance is an input: the stack orders are data, shuffled outside the
engine (``companion.shuffle``) or typed in from the physical stacks.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import ruleset as rulesets
from .errors import RecordError

FORMAT = "smallworld-record"
VERSION = 1


@dataclass(frozen=True)
class Setup:
    players: tuple[str, ...]
    races: tuple[str, ...]  # top of the column first: 5 in the column, then the stack
    powers: tuple[str, ...]
    map: str = "5p"
    ruleset: str = "smallworld"
    options: dict | None = field(default=None, hash=False)  # a ruleset's own header data (Warcraft)

    def to_json(self) -> dict:
        out = {"format": FORMAT, "version": VERSION, "ruleset": self.ruleset, "map": self.map,
               "players": list(self.players), "races": list(self.races), "powers": list(self.powers)}
        if self.options is not None:
            out["options"] = self.options
        return out

    @classmethod
    def from_json(cls, data: object) -> "Setup":
        """Read and check a header; a RecordError names the field that is wrong."""
        if not isinstance(data, dict):
            raise RecordError("the header is a JSON object with format, ruleset, map, players, races, powers")
        if data.get("format") != FORMAT:
            raise RecordError(f"format must be {FORMAT!r}, found {data.get('format')!r}")
        if data.get("version") != VERSION:
            raise RecordError(f"version {data.get('version')!r} is not supported (this companion reads {VERSION})")
        unknown = set(data) - {"format", "version", "ruleset", "map", "players", "races", "powers", "note", "options"}
        if unknown:
            raise RecordError(f"unknown header field {sorted(unknown)[0]!r}")
        ruleset_name = data.get("ruleset", "smallworld")
        try:
            rs = rulesets.get(ruleset_name)
        except ValueError as exc:
            raise RecordError(str(exc)) from None
        for key in ("map", "players", "races", "powers"):
            if key not in data:
                raise RecordError(f"missing header field {key!r}")
        if not isinstance(data["map"], str) or not data["map"] or len(data["map"]) > MAX_MAP:
            raise RecordError("map must be a map name such as \"4p\" or a map file path")
        players = _names(data["players"], "players")
        if not 2 <= len(players) <= 5:
            raise RecordError(f"players: Small World is for 2 to 5 players, found {len(players)}")
        races = _names(data["races"], "races")
        powers = _names(data["powers"], "powers")
        _permutation(races, rs.race_names(), "races", "race")
        _permutation(powers, rs.power_names(), "powers", "special power")
        rs.check_options(data.get("options"))
        return cls(players=tuple(players), races=tuple(races), powers=tuple(powers), map=data["map"],
                   ruleset=ruleset_name, options=data.get("options"))


MAX_NAME = 40  # characters of a player, race or power name
MAX_MAP = 1024  # characters of a map name (islands joined by '+', or a file path)


def _names(value: object, field: str) -> list[str]:
    if not isinstance(value, list) or len(value) > 100 or not all(
            isinstance(v, str) and v.strip() and len(v) <= MAX_NAME for v in value):
        raise RecordError(f"{field} must be a list of names (each up to {MAX_NAME} characters)")
    if len(set(value)) != len(value):
        dup = next(v for v in value if value.count(v) > 1)
        raise RecordError(f"{field}: {dup!r} is listed twice")
    return list(value)


def _permutation(names: list[str], known: list[str], field: str, what: str) -> None:
    for n in names:
        if n not in known:
            raise RecordError(f"{field}: unknown {what} {n!r} (known: {', '.join(known)})")
    missing = [k for k in known if k not in names]
    if missing:
        raise RecordError(f"{field}: the stack order must list every {what}; missing {missing[0]!r}")
