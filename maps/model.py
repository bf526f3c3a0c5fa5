"""What a board is: regions with terrain, printed symbols and borders."""
from __future__ import annotations

from dataclasses import dataclass, field

TERRAINS = ("farmland", "forest", "hill", "mountain", "swamp", "sea", "lake")
WATER = frozenset({"sea", "lake"})
SYMBOLS = ("cavern", "magic", "mine")


@dataclass(frozen=True)
class Region:
    """One region of the board as printed."""

    id: int
    terrain: str
    symbols: frozenset[str] = frozenset()
    lost_tribe: bool = False
    border: bool = False
    entry: bool = False
    coastal: bool = False
    adjacent: frozenset[int] = frozenset()

    @property
    def water(self) -> bool:
        return self.terrain in WATER

    @property
    def mountain(self) -> bool:
        return self.terrain == "mountain"

    @property
    def cavern(self) -> bool:
        return "cavern" in self.symbols

    @property
    def magic(self) -> bool:
        return "magic" in self.symbols

    @property
    def mine(self) -> bool:
        return "mine" in self.symbols

    def describe(self) -> str:
        """Short words a player recognises on the board: 'region 12 (Hill, Cavern)'."""
        extra = [s.capitalize() for s in sorted(self.symbols)]
        return f"region {self.id} ({', '.join([self.terrain.capitalize()] + extra)})"


@dataclass(frozen=True)
class Board:
    """A whole map: its name, the player count it is for, the rounds on its turn track, its regions."""

    name: str
    title: str
    players: int
    rounds: int
    regions: tuple[Region, ...]
    ruleset: str = "smallworld"
    source: str = field(default="", compare=False)

    def __post_init__(self):
        object.__setattr__(self, "_by_id", {r.id: r for r in self.regions})
        object.__setattr__(self, "_ids", tuple(r.id for r in self.regions))

    def __getitem__(self, region_id: int) -> Region:
        return self._by_id[region_id]

    def __contains__(self, region_id: object) -> bool:
        return region_id in self._by_id

    def __iter__(self):
        return iter(self.regions)

    def __len__(self) -> int:
        return len(self.regions)

    @property
    def ids(self) -> tuple[int, ...]:
        return self._ids
