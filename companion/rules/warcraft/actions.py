"""The actions Small World of Warcraft adds to the base game's, registered so records can carry them."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..actions import Action, Placement, register_action


@dataclass(frozen=True)
class Values(Action):
    """The numbers printed on the picked combo's Race banner and Special Power badge, read off the pieces."""

    act: ClassVar[str] = "values"
    race: str
    banner: int
    badge: int


@dataclass(frozen=True)
class Discover(Action):
    """Chance: the face of the Artifact or Legendary Place marker turned up in a region just entered."""

    act: ClassVar[str] = "discover"
    region: int
    marker: str


@dataclass(frozen=True)
class Detonate(Action):
    """Chance: the face of a Goblin Bomb revealed (``exploding`` or ``dud``)."""

    act: ClassVar[str] = "detonate"
    region: int
    result: str


@dataclass(frozen=True)
class Form(Action):
    """Worgen, at the start of their turn: ``human`` (2 coins) or ``worgen`` (pay 1, conquests 1 cheaper)."""

    act: ClassVar[str] = "form"
    form: str


@dataclass(frozen=True)
class Enlist(Action):
    """Forsaken, after the last conquest: buy ``count`` tokens at 1 coin each (one per loss forced)."""

    act: ClassVar[str] = "enlist"
    count: int


@dataclass(frozen=True)
class Objectives(Action):
    """Humans, at the end of their turn: the (up to 2) non-Alliance regions of the Military Objectives."""

    act: ClassVar[str] = "objectives"
    regions: tuple[int, ...]


@dataclass(frozen=True)
class PlaceBombs(Action):
    """Goblins, at the end of their turn: Bombs on adjacent regions of opponents' active races."""

    act: ClassVar[str] = "bombs"
    regions: tuple[int, ...]


@dataclass(frozen=True)
class Airborne(Action):
    """Gnomes, once a turn: the region of the airborne assault; the free Reinforcement Die roll follows."""

    act: ClassVar[str] = "airborne"
    region: int


@dataclass(frozen=True)
class Use(Action):
    """Conquer with an Artifact: ``ashes-of-alar``, ``doomhammer`` or ``frostmourne``."""

    act: ClassVar[str] = "use"
    item: str
    region: int


@dataclass(frozen=True)
class Place(Action):
    """At the end of the turn, the Aegis of Aggramar or the Heart of Azeroth into a region you control."""

    act: ClassVar[str] = "place"
    item: str
    region: int


@dataclass(frozen=True)
class Side(Action):
    """A neutral race on the Battleground fights this turn for ``alliance`` or ``horde``."""

    act: ClassVar[str] = "side"
    faction: str


@dataclass(frozen=True)
class ChampionConquer(Action):
    """Championing, once a turn: conquer an adjacent region for free (1 token goes in with the Champion)."""

    act: ClassVar[str] = "champion"
    region: int


@dataclass(frozen=True)
class Intimidate(Action):
    """Intimidating: move 1 token from an opponent's neighbouring region into ``to`` (0: discard)."""

    act: ClassVar[str] = "intimidate"
    region: int
    to: int = 0


@dataclass(frozen=True)
class Portal(Action):
    """Portal Mage: exchange every token (not Mountains nor Places) between two Magic regions."""

    act: ClassVar[str] = "portal"
    regions: tuple[int, ...]


@dataclass(frozen=True)
class Steal(Action):
    """Ethereals, once a turn: move an Artifact from ``region`` into ``to``, a region they occupy next to it."""

    act: ClassVar[str] = "steal"
    region: int
    to: int


@dataclass(frozen=True)
class Herd(Action):
    """Beast Master, after troop redeployment: where its Beasts stand now (those on the map and in hand)."""

    act: ClassVar[str] = "herd"
    beasts: Placement


register_action(Herd, placements=("beasts",))
for _cls, _ints, _strs in (
        (Values, ("banner", "badge"), ()), (Discover, (), ("marker",)), (Detonate, (), ("result",)),
        (Form, (), ("form",)), (Enlist, ("count",), ()), (Objectives, (), ()), (PlaceBombs, (), ()),
        (Airborne, (), ()), (Use, (), ("item",)), (Place, (), ("item",)), (Side, (), ("faction",)),
        (ChampionConquer, (), ()), (Intimidate, ("to",), ()), (Portal, (), ()), (Steal, ("to",), ())):
    register_action(_cls, _ints, _strs)
