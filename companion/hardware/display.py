"""What the table's hardware shows: one immutable snapshot the service hands to every adapter."""
from __future__ import annotations

from dataclasses import dataclass

DIE_FACES = (0, 1, 2, 3)  # the Reinforcement Die shows 0 (three faces), 1, 2 or 3


@dataclass(frozen=True)
class TableDisplay:
    """The state of the game as the panel LEDs and the scoring box present it.

    ``round`` counts from 1 (0 before the first turn); ``rounds`` is the game's length (8–10,
    the turn track's last round). ``colour`` is the active player's seat colour as (r, g, b)
    bytes. ``die`` is the last Reinforcement Die face or None. ``alert`` is set while an illegal
    conquest or a discrepancy is pending; ``agrees`` while the board on camera matches the game.
    """

    round: int = 0
    rounds: int = 10
    colour: tuple[int, int, int] = (0, 0, 0)
    die: int | None = None
    alert: bool = False
    agrees: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.rounds <= 10:
            raise ValueError(f"rounds must be 1-10 (the turn track has 10 spaces), got {self.rounds}")
        if not 0 <= self.round <= self.rounds:
            raise ValueError(f"round must be 0-{self.rounds}, got {self.round}")
        if len(self.colour) != 3 or not all(isinstance(c, int) and 0 <= c <= 255 for c in self.colour):
            raise ValueError(f"colour must be three bytes (r, g, b), got {self.colour!r}")
        if self.die is not None and self.die not in DIE_FACES:
            raise ValueError(f"die must be one of {DIE_FACES} or None, got {self.die!r}")

    @property
    def last_round(self) -> bool:
        """True during the game's final round."""
        return self.round == self.rounds
