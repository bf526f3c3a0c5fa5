"""Building Small World of Warcraft games for scenario tests on the SAMPLE islands."""
from __future__ import annotations

from companion.rules import Game, Setup, parse_notation
from companion.rules import ruleset as rulesets
from maps import islands

RULES = rulesets.get("warcraft")
BANNER, BADGE = 5, 4  # test values (the real ones are read off the pieces)


def setup_with(*combos: str, players=("Ann", "Ben"), values=True, factions=None, races=None, powers=None) -> Setup:
    """Combos as 'power race' strings ('battle-master orcs'); they head the column in this order."""
    rs, ps = [], []
    for combo in combos:
        power, race = combo.split()
        ps.append(power)
        rs.append(race)
    rs += [r for r in RULES.race_names() if r not in rs]
    ps += [p for p in RULES.power_names() if p not in ps]
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


def play(game: Game, *texts: str) -> Game:
    for text in texts:
        game.apply(parse_notation(text))
    return game


def why(game: Game, text: str) -> str | None:
    reason = game.explain(parse_notation(text))
    return None if reason is None else reason.code


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


def finish(game: Game, redeploy: str | None = None) -> None:
    """Redeploy as given (default: everything into the first held region), end the turn, resettle."""
    tribe = game.active_tribe(game.turn.player)
    if redeploy is None:
        held = game.regions_of(tribe.name)
        total = game.tokens_to_redeploy(tribe)
        spread = {r: 1 for r in held}
        if held:
            spread[held[0]] += total - len(held)
        redeploy = "redeploy " + (" ".join(f"{r}:{n}" for r, n in spread.items() if n) or "-")
    play(game, redeploy, "end")
    while game.phase == "resettlement":
        game.apply(game.legal_actions()[0])


def income(game: Game, seat: int) -> dict[str, int]:
    """The last turn's scoring items of a player."""
    return {what: n for what, n in game.players[seat].income[-1]["items"]}
