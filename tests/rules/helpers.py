"""Building games for scenario tests: chosen combos on top of the column, actions by notation
(``column``, ``play``, ``why`` and ``finish`` serve the Warcraft tests too)."""
from __future__ import annotations

from companion.rules import Game, Setup, parse_notation
from companion.rules import ruleset as rulesets

RULES = rulesets.get("smallworld")


def column(rules, combos) -> tuple[list[str], list[str]]:
    """(races, powers) of a ruleset with the given 'power race' combos heading them, in that order."""
    races, powers = [], []
    for combo in combos:
        power, race = combo.split()
        powers.append(power)
        races.append(race)
    races += [r for r in rules.race_names() if r not in races]
    powers += [p for p in rules.power_names() if p not in powers]
    return races, powers


def setup_with(*combos: str, players=("Ann", "Ben"), map="2p") -> Setup:
    """Combos as 'power race' strings, e.g. 'flying ratmen'; they head the column in this order."""
    races, powers = column(RULES, combos)
    return Setup(players=tuple(players), races=tuple(races), powers=tuple(powers), map=map)


def game_with(*combos: str, **kw) -> Game:
    return Game(setup_with(*combos, **kw))


def play(game: Game, *texts: str) -> Game:
    for text in texts:
        game.apply(parse_notation(text))
    return game


def why(game: Game, text: str) -> str | None:
    reason = game.explain(parse_notation(text))
    return None if reason is None else reason.code


def end_turn(game: Game, redeploy: str | None = None) -> None:
    """Pick the first combo if needed, then ``finish`` the turn."""
    if game.phase == "pick":
        play(game, f"pick {game.column[0].race}")
    finish(game, redeploy)


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
