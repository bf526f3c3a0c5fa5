"""Plain-text descriptions of a game for the command line, in the rulebook's words."""
from __future__ import annotations

from .rules.game import Game


def one_line(game: Game) -> str:
    out = game.outcome()
    coins = ", ".join(f"{p.name} {p.coins}" for p in game.players)
    if out is None:
        return f"round {game.round} of {game.rounds}, {len(game.history)} actions; coins: {coins}"
    winners = " and ".join(game.players[i].name for i in out["winners"])
    tie = f" ({out['tie_break']})" if out["tie_break"] else ""
    return (f"{game.board.name}: {len(game.players)} players, {game.rounds} rounds, {len(game.history)} actions; "
            f"coins: {coins}; winner: {winners}{tie}")


def describe_state(game: Game) -> str:
    lines = [one_line(game)]
    if not game.finished:
        lines.append(f"round {game.round} of {game.rounds}; {game.players[game.turn.player].name}'s turn, "
                     f"phase: {game.phase}")
    for i, p in enumerate(game.players):
        races = []
        for t in game.tribes_of(i):
            held = game.regions_of(t.name)
            races.append(f"{t.title()} in {len(held)} regions" + (f", {t.hand} in hand" if t.hand else ""))
        lines.append(f"  {p.name}: {p.coins} coins; " + ("; ".join(races) or "no race"))
    return "\n".join(lines)
