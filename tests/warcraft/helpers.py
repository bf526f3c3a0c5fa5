"""Building Small World of Warcraft games for scenario tests on the SAMPLE islands."""
from __future__ import annotations

from companion.rules import Game, Setup
from companion.rules import ruleset as rulesets
from maps import islands

from ..rules.helpers import column, finish, play, why

__all__ = ["RULES", "BANNER", "BADGE", "setup_with", "game_with", "play", "why", "put", "finish", "income"]

RULES = rulesets.get("warcraft")
BANNER, BADGE = 5, 4  # test values (the real ones are read off the pieces)


def setup_with(*combos: str, players=("Ann", "Ben"), values=True, factions=None, races=None, powers=None) -> Setup:
    """Combos as 'power race' strings ('battle-master orcs'); they head the column in this order."""
    rs, ps = column(RULES, combos)
    options = {}
    if values:
        options["values"] = {"races": {r: BANNER for r in rs}, "powers": {p: BADGE for p in ps}}
        options["values"]["races"].update(races or {})
        options["values"]["powers"].update(powers or {})
    if factions:
        options["factions"] = factions
    return Setup(players=tuple(players), races=tuple(rs), powers=tuple(ps), map=islands.sample_map(len(players)),
                 ruleset="warcraft", options=options or None)


def game_with(*combos: str, **kw) -> Game:
    return Game(setup_with(*combos, **kw))


def put(game: Game, region: int, race: str | None, tokens: int) -> None:
    """Scenario shortcut: set what a region holds, tokens from (or back to) that race's hand or tray."""
    rs = game.regions[region]
    if rs.race in game.tribes:
        game.tribes[rs.race].hand += rs.tokens
    elif rs.race == "murloc":
        game.lost_tribe_tray += rs.tokens
    rs.race, rs.tokens = race, tokens
    if race in game.tribes:
        game.tribes[race].hand -= tokens
    elif race == "murloc":
        game.lost_tribe_tray -= tokens
    if race is None:
        rs.tokens = 0


def income(game: Game, seat: int) -> dict[str, int]:
    """The last turn's scoring items of a player."""
    return {what: n for what, n in game.players[seat].income[-1]["items"]}
