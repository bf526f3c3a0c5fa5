"""The hooks Small World of Warcraft adds to the base game's neutral hooks (``rules.traits``).

Each race banner and power badge is a small class; the engine asks these questions and sums the
answers, never comparing names. Conquest and coin hooks are asked while the tribe is active.
"""
from __future__ import annotations

from typing import ClassVar

from ..traits import Power, Race, Trait


class WarcraftTrait(Trait):
    def travel_cost_waived(self, game, tribe, region) -> bool:
        """No +1 travel cost for a non-adjacent Entry Region (Sailing)."""
        return False

    def entry_ok(self, game, tribe, region) -> bool:
        """Beyond Entry Regions, a region a first conquest may take (Naga: Seas; Kobolds: Caverns)."""
        return False

    def travel_cost_for_entry(self, game, tribe, region) -> bool:
        """Whether a first conquest on this non-Entry region still pays the travel cost."""
        return True

    def min_tokens_per_region(self) -> int:
        """Fewest tokens the race may leave in a region (Tauren: 2)."""
        return 1

    def conquest_coins(self, game, tribe, region, defenders: int, defender) -> list[tuple[str, int]]:
        """Bonus coins earned by one conquest, counted at the end of the turn (Battle Master)."""
        return []

    def turn_start(self, game, tribe) -> None:
        """At the beginning of the owner's turn, while active (Beast Master, Pandaren)."""

    def turn_end(self, game, tribe) -> None:
        """At the end of the owner's turn, before scoring, while active (Watch Towers, Forts, Harmony)."""

    def holy_light(self) -> bool:
        """The first token to discard in each opponent's turn stays in hand (Draenei)."""
        return False

    def enlists(self) -> bool:
        """May buy a token for each loss forced this turn (Forsaken)."""
        return False

    def attack_fee(self, game, tribe, region) -> int:
        """Coins an opponent pays this tribe's owner before conquering ``region`` (asked in decline too)."""
        return 0

    def needs_form(self) -> bool:
        """Must choose a form at the start of each turn (Worgen)."""
        return False

    def tames_beasts(self) -> bool:
        """Takes Beast tokens at the start of each turn (Beast Master)."""
        return False

    def steals(self) -> bool:
        """Ethereals: steal an Artifact, or conquer a Legendary Place 2 tokens cheaper, once a turn."""
        return False


class WarcraftRace(WarcraftTrait, Race):
    """A Warcraft race banner. ``tokens`` stays 0: the banner value is read off the piece (``values``)."""

    faction: ClassVar[str] = "neutral"


class WarcraftPower(WarcraftTrait, Power):
    """A Warcraft special power badge; its value is read off the piece (``values``)."""
