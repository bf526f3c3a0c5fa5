"""What each screen may see, as plain JSON-able data.

``public_view`` is for the table and every phone: it never holds a player's coin total (until the
game is over). ``seat_view`` adds one player's private part: their coins and income.
"""
from __future__ import annotations

from ..rules import actions as A
from ..rules import pieces
from ..rules.game import CHANCE, Game
from . import wording

SEAT_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff9f1c", "#9467bd")
SEAT_RGB = ((214, 39, 40), (31, 119, 180), (44, 160, 44), (255, 159, 28), (148, 103, 189))
CONQUESTS = (A.Conquer, A.Attempt, A.DragonConquer)


def last_die(game: Game) -> int | None:
    for action in reversed(game.history):
        if isinstance(action, A.Roll):
            return action.face
        if isinstance(action, (A.EndTurn, A.Decline)):
            return None
    return None


def conquerable(game: Game) -> list[dict]:
    """The regions the active race may conquer now, with their cost in tokens."""
    if game.finished or game.phase != "conquest" or game.current_player == CHANCE:
        return []
    tribe = game.active_tribe(game.turn.player)
    if tribe is None:
        return []
    return [{"region": rid, "cost": game.conquest_cost(tribe, rid)} for rid in game.board.ids
            if game.explain(A.Conquer(rid)) is None or game.explain(A.Attempt(rid)) is None]


def _tribe(game: Game, name: str) -> dict:
    t = game.tribes[name]
    return {"race": t.race.name, "power": t.power.name, "title": t.title(), "in_decline": t.in_decline}


def public_view(game: Game) -> dict:
    """The state the table shows. No coin totals while the game goes on."""
    seat = game.current_player if not game.finished else None
    players = []
    for i, p in enumerate(game.players):
        active = game.active_tribe(i)
        players.append({
            "seat": i, "name": p.name, "colour": SEAT_COLOURS[i % len(SEAT_COLOURS)],
            "combos": [_tribe(game, t.name) for t in game.tribes_of(i)],
            "tokens_in_hand": active.hand if active else 0,
        })
    regions = {}
    for rid, rs in game.regions.items():
        tribe = game.tribes.get(rs.race) if rs.race else None
        regions[str(rid)] = {
            "owner": tribe.owner if tribe else None,
            "race": rs.race,
            "race_title": (tribe.race.title if tribe else ("Lost Tribe" if rs.race else None)),
            "tokens": rs.tokens,
            "in_decline": bool(tribe and tribe.in_decline),
            "markers": {pieces.MARKER_NAMES.get(k, k): n for k, n in sorted(rs.markers.items())},
            "immune": any(rs.marker(m) for m in pieces.IMMUNITY_MARKERS),
        }
    combos = [{"cost": i, "coins": s.coins, "race": s.race, "power": s.power,
               "title": f"{wording.power_title(game, s.power)} {game.rules.race_title(s.race)}"}
              for i, s in enumerate(game.column)]
    view = {
        "map": game.board.name, "map_title": game.board.title,
        "round": game.round, "rounds": game.rounds, "last_round": game.round == game.rounds,
        "phase": game.phase, "step": wording.step(game),
        "current": None if seat is None or seat == CHANCE else seat,
        "players": players, "regions": regions, "combos": combos,
        "conquerable": conquerable(game),
        "die": last_die(game), "die_due": not game.finished and game.explain(A.Roll(0)) is None,
        "actions": len(game.history), "finished": game.finished,
        "setup": setup_instructions(game) if not game.history else None,
        "end": end_view(game) if game.finished else None,
    }
    return view


def setup_instructions(game: Game) -> list[str]:
    """What the table places before the first turn."""
    lines = [f"Board: {game.board.title} ({game.rounds} rounds on the turn track)."]
    mountains = [rid for rid, rs in game.regions.items() if rs.marker(pieces.MOUNTAIN)]
    lost = [rid for rid, rs in game.regions.items() if rs.race == pieces.LOST_TRIBE]
    if mountains:
        lines.append(f"A Mountain on regions {', '.join(map(str, mountains))}.")
    if lost:
        lines.append(f"A Lost Tribe token on regions {', '.join(map(str, lost))}.")
    for i, s in enumerate(game.column):
        lines.append(f"Combo {i + 1} (costs {i}): {wording.power_title(game, s.power)} badge beside the "
                     f"{game.rules.race_title(s.race)} banner.")
    lines.append(f"The race stack, top first: {', '.join(game.rules.race_title(r) for r in game.race_stack)}.")
    lines.append(f"Each player takes {pieces.STARTING_COINS} Victory coins.")
    return lines


def coins_over_rounds(game: Game) -> list[dict]:
    """Each player's coins after each round (revealed at the end)."""
    out = []
    for i, p in enumerate(game.players):
        points = [pieces.STARTING_COINS]
        total = pieces.STARTING_COINS
        by_round: dict[int, int] = {}
        for entry in p.income:
            by_round[entry["round"]] = by_round.get(entry["round"], 0) + entry["total"]
        for r in range(1, game.rounds + 1):
            total += by_round.get(r, 0)
            points.append(total)
        out.append({"seat": i, "name": p.name, "colour": SEAT_COLOURS[i % len(SEAT_COLOURS)], "coins": points})
    return out


def end_view(game: Game) -> dict:
    out = game.outcome()
    return {
        "coins": out["coins"], "winners": [game.players[i].name for i in out["winners"]],
        "tie_break": out["tie_break"], "tokens_on_board": out["tokens_on_board"],
        "chart": coins_over_rounds(game),
    }


def seat_view(game: Game, seat: int) -> dict:
    """One player's private part: their coins and income, their combos, what they may do now."""
    p = game.players[seat]
    income = [{"round": e["round"], "items": [list(i) for i in e["items"]], "total": e["total"]} for e in p.income]
    view = {
        "seat": seat, "name": p.name, "colour": SEAT_COLOURS[seat % len(SEAT_COLOURS)],
        "coins": p.coins, "income": income, "last_income": income[-1] if income else None,
        "combos": [_tribe(game, t.name) for t in game.tribes_of(seat)],
        "my_turn": not game.finished and game.current_player == seat,
        "choices": [], "held": {}, "resettles": None,
    }
    if view["my_turn"]:
        choices = []
        for action in game.legal_actions():
            if isinstance(action, (A.Redeploy, A.Resettle, A.Encamp)):
                continue  # placements: entered with the redeployment form
            choices.append({"notation": action.notation(), "words": wording.describe(game, action)})
        view["choices"] = choices
        if game.phase == "resettlement":
            view["resettles"] = game.resettle_queue[0][1]
        for tribe in game.tribes_of(seat):
            view["held"][tribe.name] = {str(r): game.regions[r].tokens for r in game.regions_of(tribe.name)}
    return view
