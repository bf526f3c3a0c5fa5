"""The mutable state of one game: regions, tribes (a race with its power), players, the turn.

Only ``Game`` changes it. A *tribe* is one race banner in play with its special power badge; the
race name is its key, since each banner is unique in the box.
"""
from __future__ import annotations

from dataclasses import dataclass, field


# Bumped whenever any region's race or tokens are set, in any game: what a game remembers about
# who holds which regions (``Game.regions_of``) stays true while this number stays the same.
CHANGES = [0]


@dataclass
class RegionState:
    """What lies on a region: the race holding it (or the Lost Tribe), its tokens, its markers."""

    race: str | None = None
    tokens: int = 0
    markers: dict[str, int] = field(default_factory=dict)

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
        CHANGES[0] += 1

    def marker(self, kind: str) -> int:
        return self.markers.get(kind, 0)

    def add_marker(self, kind: str, count: int = 1) -> None:
        n = self.markers.get(kind, 0) + count
        if n > 0:
            self.markers[kind] = n
        else:
            self.markers.pop(kind, None)


@dataclass
class Tribe:
    """A race banner with its special power badge, owned by a player, active or in decline."""

    race: object  # rules.races.Race
    power: object  # rules.powers.Power
    owner: int
    in_decline: bool = False
    hand: int = 0
    reserve: int = 0  # tokens taken off the map after redeployment, back at the next ready (Amazons)
    turns_active: int = 0
    holes_placed: int = 0
    # this turn
    readied: bool = False
    conquests_over: bool = False
    redeployed: bool = False
    conquered: list[int] = field(default_factory=list)
    conquered_nonempty: int = 0

    @property
    def name(self) -> str:
        return self.race.name

    @property
    def active(self) -> bool:
        return not self.in_decline

    def title(self) -> str:
        side = " (in decline)" if self.in_decline else ""
        return f"{self.power.title} {self.race.title}{side}"

    def new_turn(self) -> None:
        self.readied = False
        self.conquests_over = False
        self.redeployed = False
        self.conquered = []
        self.conquered_nonempty = 0


@dataclass
class Player:
    """A seat at the table: a name, hidden coins, an active race and races in decline."""

    name: str
    coins: int
    active: str | None = None
    declined: list[str] = field(default_factory=list)
    income: list[dict] = field(default_factory=list)  # one entry per turn scored


@dataclass
class Turn:
    """What has happened so far in the current player's turn."""

    player: int
    declined: bool = False
    picked: bool = False  # the active race was picked this turn
    expanded: bool = False  # the active race has begun readying troops or conquering
    ghouls_started: bool = False
    redeployed: bool = False
    attempt: int | None = None  # region declared for the final conquest attempt
    attempt_race: str | None = None
    berserk_die: int | None = None
    dragon_used: bool = False
    fortified: bool = False
    heroes_placed: bool = False
    ally_chosen: bool = False
    encamped: bool = False
    converted: set[int] = field(default_factory=set)  # opponents already hit by the Sorcerers
    attacked: set[int] = field(default_factory=set)  # opponents whose active race was attacked
    last_die: int | None = None


@dataclass
class Slot:
    """A combo in the column: a race banner, its special power badge and the coins lying on it."""

    race: str
    power: str | None  # None while the badge is still to be revealed from the reshuffled pile
    coins: int = 0
