"""Where every player's coins came from, round by round (revealed at the end of a game).

The record is replayed and every action's change to each player's coins is put in words: a turn's
scoring with its items as the rules count them (regions, a race's or a power's bonus), a pick's cost
and the coins taken from its combo, and any other move of coins (Small World of Warcraft's fees, a
Military Objective's bonus, a Forsaken's recruit) in the sentence of the action that moved them.
Each player's items add up to their total, so the end screen can say exactly where it came from.
"""
from __future__ import annotations

from ..rules import actions as A
from ..rules.game import Game
from . import wording

_CACHE: dict = {}


def ledger(game: Game) -> dict:
    """``{"points": [[coins per seat] at the start and after each round], "rounds": [per seat: [{"round",
    "items": [[what, coins]], "total"}]]}`` for a game (cached for the last game asked)."""
    key = (id(game), len(game.history), game.finished)
    if key not in _CACHE:
        _CACHE.clear()
        _CACHE[key] = _replay(game)
    return _CACHE[key]


def _replay(game: Game) -> dict:
    replayed = Game(game.setup, game.board)
    seats = range(len(replayed.players))
    points = [[p.coins for p in replayed.players]]
    rounds: list[dict[int, dict]] = [{} for _ in seats]
    for action in game.history:
        before = [p.coins for p in replayed.players]
        scored = [len(p.income) for p in replayed.players]
        picked = _pick_items(replayed, action)
        said = wording.describe(replayed, action).rstrip(".")
        round_before = replayed.round
        replayed.apply(action)
        for seat in seats:
            p = replayed.players[seat]
            change = p.coins - before[seat]
            items: list[list] = []
            if len(p.income) > scored[seat]:  # this action scored the seat's turn
                items += [[what, n] for what, n in p.income[-1]["items"]]
            if picked and seat == picked[0]:
                items += picked[1]
            rest = change - sum(n for _, n in items)
            if rest:
                items.append([said, rest])
            if items:
                row = rounds[seat].setdefault(round_before, {"round": round_before, "items": [], "total": 0})
                row["items"] += items
                row["total"] += change
        if replayed.round != round_before:
            points.append([p.coins for p in replayed.players])
    final = [p.coins for p in game.players]
    points = (points + [final] * game.rounds)[:game.rounds]
    points.append(final)
    return {"points": points, "rounds": [[rows[r] for r in sorted(rows)] for rows in rounds]}


def _pick_items(game: Game, action) -> tuple[int, list[list]] | None:
    """A pick's cost (a coin on each combo above it) and the coins lying on the combo taken."""
    if not isinstance(action, A.Pick):
        return None
    slot = next((i for i, s in enumerate(game.column) if s.race == action.race), None)
    if slot is None:
        return None
    s = game.column[slot]
    combo = f"the {wording.power_title(game, s.power)} {game.rules.race_title(s.race)}"
    items = []
    if slot:
        items.append([f"paid for {combo}", -slot])
    if s.coins:
        items.append([f"coins lying on {combo}", s.coins])
    return game.current_player, items
