"""The neutral hooks every race banner and special power badge may override.

The engine asks these questions and sums the answers; it never compares names. A hook that is
about conquests or coins is only asked while the tribe is active, unless its name says otherwise.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:  # pragma: no cover
    from maps import Region

    from .actions import Action
    from .errors import Reason
    from .game import Game
    from .state import Tribe


class Trait:
    name: ClassVar[str] = ""  # the record's name: lower case, words joined by '-'
    title: ClassVar[str] = ""  # the rulebook's name
    tokens: ClassVar[int] = 0  # value printed on the banner or badge
    text: ClassVar[str] = ""  # what the banner or badge does, in the rulebook's words (its Appendix II)
    actions: ClassVar[tuple[type, ...]] = ()  # actions this trait makes possible
    markers_removed_on_decline: ClassVar[tuple[str, ...]] = ()
    # markers the tribe places on its own regions as it ends its conquests (the camera may see them
    # before the table ends the step)
    markers_placed: ClassVar[tuple[str, ...]] = ()

    # -- conquest ---------------------------------------------------------------------------
    def conquest_discount(self, game: Game, tribe: Tribe, region: Region) -> int:
        """Tokens fewer than normal needed to conquer ``region`` (a minimum of 1 always holds)."""
        return 0

    def enters_anywhere(self) -> bool:
        """Immune to the First Conquest rule."""
        return False

    def ignores_adjacency(self) -> bool:
        return False

    def also_adjacent(self, game: Game, tribe: Tribe, region: Region, held: set[int]) -> bool:
        """Whether ``region`` counts as adjacent to the tribe for its conquests, beyond the map."""
        return False

    def conquers_water(self) -> bool:
        return False

    def rolls_before_conquest(self) -> bool:
        return False

    def after_conquest(self, game: Game, tribe: Tribe, region_id: int) -> None:
        """Called after each conquest by this tribe (markers to place)."""

    # -- defence and tokens -------------------------------------------------------------------
    def losses_when_conquered(self) -> int:
        """Tokens discarded to the tray when one of the tribe's regions is conquered."""
        return 1

    def extra_tokens(self) -> int:
        """Tokens received beyond banner + badge when the combo is picked."""
        return 0

    def held_back_after_redeployment(self) -> int:
        """Tokens taken off the map at the end of each redeployment, back at the next ready."""
        return 0

    def redeployment_bonus_tokens(self, game: Game, tribe: Tribe) -> int:
        """Tokens taken from the tray to add to this turn's redeployment (before the box limit)."""
        return 0

    # -- decline -------------------------------------------------------------------------------
    def keeps_all_tokens_in_decline(self) -> bool:
        return False

    def conquers_in_decline(self) -> bool:
        return False

    def counts_toward_decline_limit(self) -> bool:
        return True

    def declines_after_scoring(self) -> bool:
        return False

    # -- coins -----------------------------------------------------------------------------------
    def coins(self, game: Game, tribe: Tribe) -> list[tuple[str, int]]:
        """Bonus coins at the end of an active turn: (what for, how many)."""
        return []

    def coins_in_decline(self, game: Game, tribe: Tribe) -> list[tuple[str, int]]:
        """Bonus coins a race in decline still earns (Dwarves)."""
        return []

    # -- actions of its own ----------------------------------------------------------------------
    def explain_action(self, game: Game, tribe: Tribe, action: Action) -> Reason | None:
        return None

    def apply_action(self, game: Game, tribe: Tribe, action: Action) -> None:
        raise NotImplementedError  # pragma: no cover

    def legal_own_actions(self, game: Game, tribe: Tribe) -> list[Action]:
        return []

    def resettles_markers(self, game: Game, tribe: Tribe) -> bool:
        """Whether this tribe has markers to put back during resettlement (Encampments)."""
        return False


class Race(Trait):
    """A race banner: ``tokens`` is the banner value, ``box`` the tokens physically in the box."""

    box: ClassVar[int] = 0


class Power(Trait):
    """A special power badge: ``tokens`` is the badge value."""

    def keeps_badge_in_decline(self) -> bool:
        return False


def count_regions(game: Game, tribe: Tribe, test) -> int:
    """How many regions the tribe holds whose board region passes ``test``."""
    board = game.board
    return sum(1 for rid in game.regions_of(tribe.name) if test(board[rid]))
