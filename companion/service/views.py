"""What each screen may see, as plain JSON-able data.

``public_view`` is for the table and every phone: it never holds a player's coin total (until the
game is over). ``seat_view`` adds one player's private part: their coins and income.
"""
from __future__ import annotations

from ..rules import actions as A
from ..rules import pieces
from ..rules.game import CHANCE, Game
from ..rules.warcraft import actions as W
from . import ledger, wording

# Okabe and Ito's palette, which colour-blind players tell apart; each seat also has its own shape of
# token chip on the board and a letter, so no one needs the colour alone.
SEAT_COLOURS = ("#d55e00", "#0072b2", "#009e73", "#e69f00", "#cc79a7")
SEAT_RGB = ((213, 94, 0), (0, 114, 178), (0, 158, 115), (230, 159, 0), (204, 121, 167))
SEAT_SHAPES = ("circle", "square", "diamond", "triangle", "hexagon")
REGION_ACTIONS = (A.Conquer, A.Attempt, A.DragonConquer, A.Abandon, A.Convert, A.Fortify, A.Heroes)
CONQUESTS = (A.Conquer, A.Attempt, A.DragonConquer)


def seat_letters(names) -> list[str]:
    """A letter per player (two where two names share the first)."""
    firsts = [n[:1].upper() or "?" for n in names]
    return [f if firsts.count(f) == 1 else (n[:2].title() or f) for f, n in zip(firsts, names)]


def last_move(game: Game) -> dict | None:
    """The last action that touched regions (a conquest, an abandon, a Fortress...): the board shows it."""
    for action in reversed(game.history):
        if isinstance(action, REGION_ACTIONS):
            regions = list(action.regions) if isinstance(action, A.Heroes) else [action.region]
            return {"regions": regions, "notation": action.notation()}
        if isinstance(action, A.EndTurn):
            return None
    return None


def die_roll(game: Game) -> dict | None:
    """The last roll of the Reinforcement Die this turn: its face (0 is a blank face), who rolled it,
    for which region (a final conquest attempt's), and its place in the game (a new roll, a new number)."""
    for i in range(len(game.history) - 1, -1, -1):
        action = game.history[i]
        if isinstance(action, A.Roll):
            before = game.history[i - 1] if i else None
            region = before.region if isinstance(before, A.Attempt) else None
            return {"face": action.face, "seq": i + 1, "region": region, "seat": game.turn.player}
        if isinstance(action, (A.EndTurn, A.Decline)):
            return None
    return None


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
    return {"race": t.race.name, "power": t.power.name, "title": t.title(), "in_decline": t.in_decline,
            "faction": game.faction_of(t.race.name)}


def marker_symbols(game: Game) -> dict[str, str]:
    """A short symbol for each marker title, drawn on the board (the legend says which is which)."""
    out: dict[str, str] = {}
    for kind in game.marker_kinds():
        title = game.marker_title(kind)
        symbol = _SYMBOLS.get(title) or "".join(w[0] for w in title.replace("-", " ").split() if w[0].isalpha())
        while symbol in out.values():
            symbol += "'"
        out[title] = symbol
    return out


_SYMBOLS = {"Mountain": "M", "Troll's Lair": "L", "Fortress": "F", "Encampment": "E", "Hero": "H", "Dragon": "D",
            "Hole-in-the-Ground": "O",
            # Small World of Warcraft
            "face-down marker": "?", "Bomb": "B", "Wisp Wall": "W", "Fort": "F", "Watch Tower": "T",
            "Military Objective": "MO", "Champion": "C", "Beast": "Be", "Aegis of Aggramar": "Aegis",
            "Ashes of Al'ar": "Ashes", "Doomhammer": "Doom", "Frostmourne": "Frost", "Heart of Azeroth": "Heart",
            "Battleground": "BG", "Dark Portal": "DP", "Karazhan": "Kz", "Light's Hope Chapel": "LHC",
            "Meeting Stone": "MS", "Spirit Healer": "SH", "Well of Eternity": "Well"}


def awaiting(game: Game) -> dict | None:
    """The table input the game waits for (a ruleset's own): who gives it and what the form asks."""
    wanted = game.awaiting()
    if wanted is None:
        return None
    kind, arg = wanted
    out = {"kind": kind, "text": wording.awaiting(game), "seat": game.turn.player}
    if kind == "values":
        tribe = game.tribes[arg]
        known = game.known_values()
        out.update(race=tribe.race.name, race_title=tribe.race.title, power=tribe.power.name,
                   power_title=tribe.power.title, banner=known["races"].get(tribe.race.name),
                   badge=known["powers"].get(tribe.power.name))
    else:
        out["region"] = arg
    return out


def table_choices(game: Game) -> list[dict]:
    """What the table may say when chance speaks (a badge from the reshuffled pile, a marker's or a
    Bomb's face, a die): each possible face, in words."""
    if game.finished or game.current_player != CHANCE:
        return []
    return [{"notation": a.notation(), "words": wording.describe(game, a)} for a in game.legal_actions()]


def public_view(game: Game) -> dict:
    """The state the table shows. No coin totals while the game goes on."""
    seat = game.current_player if not game.finished else None
    players = []
    letters = seat_letters([p.name for p in game.players])
    for i, p in enumerate(game.players):
        active = game.active_tribe(i)
        players.append({
            "seat": i, "name": p.name, "colour": SEAT_COLOURS[i % len(SEAT_COLOURS)],
            "shape": SEAT_SHAPES[i % len(SEAT_SHAPES)], "letter": letters[i],
            "combos": [_tribe(game, t.name) for t in game.tribes_of(i)],
            "tokens_in_hand": active.hand if active else 0,
        })
    regions = {}
    for rid, rs in game.regions.items():
        tribe = game.tribes.get(rs.race) if rs.race else None
        regions[str(rid)] = {
            "owner": tribe.owner if tribe else None,
            "race": rs.race,
            "race_title": (tribe.race.title if tribe else (game.PRIMITIVE_TITLE if rs.race else None)),
            "tokens": rs.tokens,
            "in_decline": bool(tribe and tribe.in_decline),
            "markers": {game.marker_title(k): n for k, n in sorted(rs.markers.items()) if n},
            "immune": any(rs.marker(m) for m in game.IMMUNITY_MARKERS),
        }
    combos = [{"cost": i, "coins": s.coins, "race": s.race, "power": s.power, "faction": game.faction_of(s.race),
               "title": f"{wording.power_title(game, s.power)} {game.rules.race_title(s.race)}",
               "race_title": game.rules.race_title(s.race), "power_title": wording.power_title(game, s.power)}
              for i, s in enumerate(game.column)]
    view = {
        "ruleset": game.rules.name, "ruleset_title": game.rules.title,
        "map": game.board.name, "map_title": game.board.title,
        "round": game.round, "rounds": game.rounds, "last_round": game.round == game.rounds and not game.finished,
        "phase": game.phase, "step": wording.step(game),
        "current": None if seat is None or seat == CHANCE else seat,
        "players": players, "regions": regions, "combos": combos,
        "conquerable": conquerable(game), "last_move": last_move(game),
        "die": last_die(game), "die_roll": die_roll(game), "die_due": not game.finished and game.explain(A.Roll(0)) is None,
        "actions": len(game.history), "finished": game.finished,
        "awaiting": awaiting(game), "table_choices": table_choices(game), "marker_symbols": marker_symbols(game),
        "setup": setup_instructions(game) if not game.history else None,
        "end": end_view(game) if game.finished else None,
    }
    return view


def setup_instructions(game: Game) -> list[str]:
    """What the table places before the first turn."""
    lines = [f"Board: {game.board.title} ({game.rounds} rounds on the turn track)."]
    by_kind: dict[str, list[int]] = {}
    for rid, rs in game.regions.items():
        for kind, n in rs.markers.items():
            if n:
                by_kind.setdefault(kind, []).append(rid)
    primitive = [rid for rid, rs in game.regions.items() if rs.race == game.PRIMITIVE]
    for kind, where in by_kind.items():
        lines.append(f"{_cap(game.marker_title(kind))}: one on each region the board shows it on "
                     f"(regions {', '.join(map(str, where))}).")
    if primitive:
        lines.append(f"{game.PRIMITIVE_TITLE}: one token on each region the board shows one on "
                     f"(regions {', '.join(map(str, primitive))}).")
    for i, s in enumerate(game.column):
        lines.append(f"Combo {i + 1} (costs {i}): {wording.power_title(game, s.power)} badge beside the "
                     f"{game.rules.race_title(s.race)} banner.")
    lines.append(f"The race stack, top first: {', '.join(game.rules.race_title(r) for r in game.race_stack)}.")
    if game.power_stack:
        lines.append(f"The badge pile, top first: {', '.join(wording.power_title(game, p) for p in game.power_stack)}.")
    lines.append(f"Each player takes {pieces.STARTING_COINS} Victory coins.")
    return lines


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def coins_over_rounds(game: Game) -> list[dict]:
    """Each player's coins at the start and after each round (revealed at the end): the record
    replayed, so coins paid between players and to the stash (Small World of Warcraft) count too."""
    points = ledger.ledger(game)["points"]
    return [{"seat": i, "name": p.name, "colour": SEAT_COLOURS[i % len(SEAT_COLOURS)],
             "coins": [row[i] for row in points]} for i, p in enumerate(game.players)]


def end_view(game: Game) -> dict:
    """The end as the table reveals it: the scores with the tie-break, the chart, and each player's
    coins round by round with where they came from."""
    out = game.outcome()
    return {
        "coins": out["coins"], "winners": [game.players[i].name for i in out["winners"]],
        "tie_break": out["tie_break"], "tokens_on_board": out["tokens_on_board"],
        "chart": coins_over_rounds(game), "income": ledger.ledger(game)["rounds"],
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
        "transfers": transfers(game, seat), "values_wanted": None,
    }
    wanted = awaiting(game)
    if wanted and wanted["kind"] == "values" and wanted["seat"] == seat:
        view["values_wanted"] = wanted  # a form, not a button: the numbers are read off the pieces
    elif view["my_turn"]:
        choices, placing, sets = [], [], {}
        for action in game.legal_actions():
            if isinstance(action, (A.Redeploy, A.Resettle, A.Encamp)):
                if action.act not in placing:
                    placing.append(action.act)  # placements: entered with +/- per region
                continue
            if type(action) in REGION_SETS:  # one form: the regions tapped on the map, not every set a button
                sets.setdefault(type(action), []).append(action)
                continue
            choices.append(choice(game, action))
        choices += [region_set(game, kind, actions) for kind, actions in sets.items()]
        view["choices"] = choices
        view["placing"] = placing
        if game.phase == "resettlement":
            view["resettles"] = game.resettle_queue[0][1]
        for tribe in game.tribes_of(seat):
            view["held"][tribe.name] = {str(r): game.regions[r].tokens for r in game.regions_of(tribe.name)}
    return view


# What a phone's button says for the actions that need a region tapped on the map.
REGION_MODES = {"conquer": "Conquer", "attempt": "Final conquest attempt", "abandon": "Abandon a region",
                "dragon": "Dragon attack", "convert": "Convert", "fortify": "Place a Fortress",
                "heroes": "Place the Heroes"}


# Placements of markers on a set of regions, chosen by tapping them on the map (up to a number): the
# engine lists every region alone and the largest sets, and any set of the regions listed is legal.
REGION_SETS = {W.Objectives: "Place the Military Objectives", W.PlaceBombs: "Place Bombs"}


def region_set(game: Game, kind: type, actions: list) -> dict:
    """One choice for all the sets of regions a placement may take: the regions, and how many at most."""
    regions = sorted({r for a in actions for r in a.regions})
    most = max(len(a.regions) for a in actions)
    empty = next((a for a in actions if not a.regions), None)
    return {"act": kind.act, "mode": REGION_SETS[kind], "regions": regions, "up_to": most, "set": True,
            "notation": kind.act, "none": choice(game, empty) if empty else None,
            "words": f"{REGION_SETS[kind]}: tap up to {most} region{'s' if most > 1 else ''} on the map."}


def choice(game: Game, action: A.Action) -> dict:
    """One thing the player may do now: its notation, its sentence, and what a phone draws for it (the
    regions to tap; for a pick its cost, the coins on it and both pieces' titles)."""
    out = {"notation": action.notation(), "words": wording.describe(game, action), "act": action.act}
    if isinstance(action, A.Heroes):
        out["regions"] = list(action.regions)
    elif hasattr(action, "region"):
        out["regions"] = [action.region]
    if out.get("regions") is not None and action.act in REGION_MODES:
        out["mode"] = REGION_MODES[action.act]
    if isinstance(action, A.Pick):
        slot = next((i for i, s in enumerate(game.column) if s.race == action.race), None)
        if slot is not None:
            s = game.column[slot]
            out.update(cost=slot, coins=s.coins, race_title=game.rules.race_title(s.race),
                       power_title=wording.power_title(game, s.power), race_text=game.rules.race(s.race).text,
                       power_text=game.rules.power(s.power).text if s.power else "")
    return out


def transfers(game: Game, seat: int) -> list[dict]:
    """The coins this seat paid or received outside scoring, latest first (private to the seat)."""
    out = []
    for frm, to, coins, why in game.coin_transfers():
        if seat not in (frm, to):
            continue
        other = to if frm == seat else frm
        out.append({"coins": coins if to == seat else -coins, "why": why,
                    "with": game.players[other].name if other is not None else "the stash"})
    return out[::-1]
