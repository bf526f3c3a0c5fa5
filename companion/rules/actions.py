"""Every action of a Small World game, as frozen dataclasses with a JSON form and a short notation.

JSON form (one record line): ``{"act": "conquer", "region": 12}``. Notation: ``conquer 12``.
Token placements are written ``{"3": 2, "5": 4}`` in JSON and ``3:2 5:4`` in notation.
"""
from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import ClassVar

from .errors import RecordError

Placement = tuple[tuple[int, int], ...]


def placement(mapping: dict[int, int] | Placement) -> Placement:
    """A canonical, hashable placement: ((region, tokens), ...) sorted by region, zeros dropped."""
    items = mapping.items() if isinstance(mapping, dict) else mapping
    return tuple(sorted((int(r), int(n)) for r, n in items if int(n) != 0))


@dataclass(frozen=True)
class Action:
    """Base class: ``act`` names the action in the record."""

    act: ClassVar[str] = ""

    def to_json(self) -> dict:
        out: dict = {"act": self.act}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None:
                continue
            if f.name in _PLACEMENT_FIELDS:
                value = {str(r): n for r, n in value}
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out

    def notation(self) -> str:
        parts = [self.act]
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None:
                continue
            if f.name in _PLACEMENT_FIELDS:
                parts.append(" ".join(f"{r}:{n}" for r, n in value) or "-")
            elif isinstance(value, tuple):
                parts.extend(str(v) for v in value)
            else:
                parts.append(str(value))
        return " ".join(parts)

    def __str__(self) -> str:
        return self.notation()

    def __deepcopy__(self, memo) -> "Action":
        """An action never changes (frozen, its fields ints, strings and tuples): a copy of a game shares it."""
        return self


@dataclass(frozen=True)
class Pick(Action):
    """Pick the race and special power combo whose race banner is ``race``."""

    act: ClassVar[str] = "pick"
    race: str


@dataclass(frozen=True)
class Decline(Action):
    """Put the active race in decline (Stout: after scoring, at the end of a turn of conquests)."""

    act: ClassVar[str] = "decline"


@dataclass(frozen=True)
class Abandon(Action):
    """While readying troops: take the last tokens out of a region; it is no longer yours."""

    act: ClassVar[str] = "abandon"
    region: int
    race: str | None = None


@dataclass(frozen=True)
class Conquer(Action):
    """Conquer a region (``race`` only for a race in decline that still conquers: Ghouls)."""

    act: ClassVar[str] = "conquer"
    region: int
    race: str | None = None


@dataclass(frozen=True)
class Attempt(Action):
    """Declare the final conquest attempt on a region; the Reinforcement Die roll follows."""

    act: ClassVar[str] = "attempt"
    region: int
    race: str | None = None


@dataclass(frozen=True)
class Roll(Action):
    """The Reinforcement Die's face (0, 1, 2 or 3): after an attempt, or before a Berserk conquest."""

    act: ClassVar[str] = "roll"
    face: int


@dataclass(frozen=True)
class DragonConquer(Action):
    """Dragon Master: conquer a region with a single token and place the Dragon there."""

    act: ClassVar[str] = "dragon"
    region: int


@dataclass(frozen=True)
class Convert(Action):
    """Sorcerers: replace a lone active opponent token in an adjacent region with one from the tray."""

    act: ClassVar[str] = "convert"
    region: int


@dataclass(frozen=True)
class Redeploy(Action):
    """Troop redeployment: how many tokens end in each region the race holds."""

    act: ClassVar[str] = "redeploy"
    tokens: Placement
    race: str | None = None


@dataclass(frozen=True)
class Encamp(Action):
    """Bivouacking: where the Encampments stand now (at most 5 in all)."""

    act: ClassVar[str] = "encamp"
    encampments: Placement


@dataclass(frozen=True)
class Fortify(Action):
    """Fortified: place a Fortress in a region you occupy (once per turn)."""

    act: ClassVar[str] = "fortify"
    region: int


@dataclass(frozen=True)
class Heroes(Action):
    """Heroic: place the two Heroes in two different regions you occupy."""

    act: ClassVar[str] = "heroes"
    regions: tuple[int, ...]


@dataclass(frozen=True)
class Ally(Action):
    """Diplomat: choose an opponent (seat number, 0-based) whose active race you did not attack."""

    act: ClassVar[str] = "ally"
    player: int


@dataclass(frozen=True)
class EndTurn(Action):
    """End the turn: score Victory coins; then the defenders resettle."""

    act: ClassVar[str] = "end"


@dataclass(frozen=True)
class Resettle(Action):
    """A defender puts the tokens (and Encampments) they hold in hand back into regions they hold."""

    act: ClassVar[str] = "resettle"
    race: str
    tokens: Placement
    encampments: Placement | None = None


@dataclass(frozen=True)
class Reveal(Action):
    """Chance: the special power badge that comes up from the reshuffled discard pile."""

    act: ClassVar[str] = "reveal"
    power: str


ACTIONS: dict[str, type[Action]] = {cls.act: cls for cls in (
    Pick, Decline, Abandon, Conquer, Attempt, Roll, DragonConquer, Convert, Redeploy, Encamp,
    Fortify, Heroes, Ally, EndTurn, Resettle, Reveal)}
_PLACEMENT_FIELDS = {"tokens", "encampments"}
_INT_FIELDS = {"region", "face", "player"}
_STR_FIELDS = {"race", "power"}


def register_action(cls: type[Action], ints: tuple[str, ...] = (), strs: tuple[str, ...] = (),
                    placements: tuple[str, ...] = ()) -> type[Action]:
    """Make a ruleset's own action readable from records: its ``act`` and the kinds of its fields."""
    ACTIONS[cls.act] = cls
    _INT_FIELDS.update(ints)
    _STR_FIELDS.update(strs)
    _PLACEMENT_FIELDS.update(placements)
    return cls


def from_json(data: object) -> Action:
    """Parse one record line's object; raises RecordError naming the field that is wrong."""
    if not isinstance(data, dict):
        raise RecordError("an action is a JSON object such as {\"act\": \"conquer\", \"region\": 3}")
    name = data.get("act")
    cls = ACTIONS.get(name) if isinstance(name, str) else None
    if cls is None:
        raise RecordError(f"unknown act {name!r} (known: {', '.join(ACTIONS)})")
    known = {f.name: f for f in fields(cls)}
    unknown = set(data) - set(known) - {"act", "player_name"}
    if unknown:
        raise RecordError(f"{name}: unknown field {sorted(unknown)[0]!r}")
    kwargs = {}
    for fname, f in known.items():
        if fname not in data or data[fname] is None:
            if f.default is not MISSING:
                continue
            raise RecordError(f"{name}: missing field {fname!r}")
        kwargs[fname] = _field(name, fname, data[fname])
    return cls(**kwargs)


MAX_NUMBER = 9999  # no region id, token count, value or seat reaches it
MAX_NAME = 40  # characters of a race or power name
MAX_ITEMS = 100  # regions listed in one action


def _shown(value: object) -> str:
    """A wrong value as an error line shows it: short, whatever it is."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _field(act: str, name: str, value: object):
    if name in _INT_FIELDS:
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_NUMBER:
            raise RecordError(f"{act}: field {name!r} must be a whole number from 0 to {MAX_NUMBER}, "
                              f"found {_shown(value)}")
        return value
    if name in _STR_FIELDS:
        if not isinstance(value, str) or not value or len(value) > MAX_NAME:
            raise RecordError(f"{act}: field {name!r} must be a name such as \"ratmen\", found {_shown(value)}")
        return value
    if name in _PLACEMENT_FIELDS:
        if not isinstance(value, dict):
            raise RecordError(f"{act}: field {name!r} must map regions to counts, e.g. {{\"3\": 2}}")
        if len(value) > MAX_ITEMS:
            raise RecordError(f"{act}: field {name!r} lists {len(value)} regions (at most {MAX_ITEMS})")
        out = []
        for key, count in value.items():
            region = int(key) if isinstance(key, str) and key.isascii() and key.isdigit() and len(key) <= 4 else None
            if region is None:
                raise RecordError(f"{act}: {name}: {_shown(key)} is not a region id")
            if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= MAX_NUMBER:
                raise RecordError(f"{act}: {name}: region {key} needs a count from 0 to {MAX_NUMBER}, "
                                  f"found {_shown(count)}")
            out.append((region, count))
        if len({r for r, _ in out}) != len(out):
            raise RecordError(f"{act}: {name}: a region is listed twice")
        return placement(out)
    if name == "regions":
        if not isinstance(value, list) or len(value) > MAX_ITEMS or not all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_NUMBER for v in value):
            raise RecordError(f"{act}: field 'regions' must be a list of region ids")
        return tuple(value)
    raise RecordError(f"{act}: field {name!r} is not understood")  # pragma: no cover


def parse_notation(text: str) -> Action:
    """The short text form back into an action: ``conquer 12``, ``redeploy 3:2 5:4``, ``end``."""
    words = text.split()
    if not words:
        raise RecordError("empty action")
    name, args = words[0], words[1:]
    cls = ACTIONS.get(name)
    if cls is None:
        raise RecordError(f"unknown act {name!r} (known: {', '.join(ACTIONS)})")
    data: dict = {"act": name}
    names = [f.name for f in fields(cls)]
    try:
        if names == ["regions"]:
            data["regions"], args = [int(a) for a in args], []
        else:
            for fname in names:
                if not args:
                    break
                if fname in _PLACEMENT_FIELDS:
                    pairs = {}
                    if args and args[0] == "-":  # an empty placement
                        args.pop(0)
                    else:
                        while args and ":" in args[0]:
                            r, n = args.pop(0).split(":")
                            pairs[r] = int(n)
                    data[fname] = pairs
                elif fname in _INT_FIELDS:
                    data[fname] = int(args.pop(0))
                else:
                    data[fname] = args.pop(0)
    except ValueError:
        raise RecordError(f"{name}: cannot read {' '.join(words[1:])!r}") from None
    if args:
        raise RecordError(f"{name}: unexpected {' '.join(args)!r}")
    return from_json(data)
