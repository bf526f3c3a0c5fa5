"""The JSON API: state, layout, actions, the die, undo, alerts, the log."""
from __future__ import annotations

from functools import lru_cache

from flask import Blueprint, Response, abort, current_app, jsonify, request

import maps

from ...rules.actions import Pick, from_json, parse_notation
from ...rules import ruleset as rulesets
from ...rules.errors import RecordError
from ...rules.record import check_names
from .. import layout
from ..inputs import Answer, BoardIsRight, Correct, Declare, Edit, Play, Resolve, RollDie, Undo
from ..log_edits import HOWS
from . import bodies, security

bp = Blueprint("api", __name__, url_prefix="/api")
WAIT_S = 10.0


def service():
    return current_app.config["SERVICE"]


def submit(item):
    """Queue an input for the game owner and answer with its outcome."""
    outcome = service().owner.submit(item).result(timeout=WAIT_S)
    body = {"ok": outcome.ok, "code": outcome.code, "sentence": outcome.sentence, **outcome.data}
    return jsonify(body), outcome.status


def body() -> dict:
    return bodies.json_object()


def actor() -> int | None:
    """The seat acting (a phone), or None for the table screen; 403 for anybody else."""
    seat = security.my_seat()
    if seat is not None:
        return seat
    if security.is_table():
        return None
    abort(403, description="Join a seat with its code (or unlock the table) to play.")


@bp.get("/state")
def state():
    return jsonify(service().owner.published.public)


@bp.get("/layout")
def board_layout():
    """The drawing of a map: the current game's (default), or a shipped map of a ruleset
    (``?map=4p``, ``?map=sample-large-1+sample-small-1&ruleset=warcraft``)."""
    game = service().owner.game
    name = request.args.get("map") or (game.board.name if game else None)
    if not name:
        abort(404, description="No game is set up yet.")
    if game is not None and name == game.board.name and request.args.get("ruleset", game.rules.name) == game.rules.name:
        return jsonify(drawing(game.board))
    try:
        rules = rulesets.get(request.args.get("ruleset") or (game.rules.name if game else "smallworld"))
    except ValueError as exc:
        abort(404, description=f"{str(exc)[:1].upper()}{str(exc)[1:]}.")
    if not rules.shipped_map(name):
        abort(404, description=f"Unknown map {name!r}.")
    try:
        board = _board(rules.name, name)
    except maps.MapError as exc:
        abort(404, description=str(exc))
    return jsonify(drawing(board))


def drawing(board: maps.Board) -> dict:
    """The board's drawing over the best picture ready (``pending``: a better one is being made)."""
    picture, pending = service().pictures.get(board)
    return layout.geometry(board, picture, pending)


@bp.get("/board/<name>.jpg")
def board_picture(name: str):
    """The picture under the board's drawing: the calibrated photo of the empty board, or the demo's."""
    data = service().pictures.image(name)
    if data is None:
        abort(404, description=f"No picture of map {name!r} is ready.")
    return Response(data, mimetype="image/jpeg", headers={"Cache-Control": "max-age=3600"})


@bp.get("/seat")
def seat():
    me = security.my_seat()
    if me is None:  # the phone's stream was refused: it shows why (a new game began) and how to join
        code, sentence = security.why_no_seat()
        return jsonify({"error": code, "sentence": sentence}), 403
    return jsonify(service().owner.published.seats[me])


@bp.get("/ping")
def ping():
    """Is the companion there? (pages without an event stream ask now and then)"""
    return jsonify({"ok": True, "version": service().owner.published.version})


@bp.get("/log")
def game_log():
    return jsonify(list(service().owner.published.log))


@bp.post("/action")
def action():
    who = actor()
    data = body().get("action")
    try:
        if isinstance(data, str):
            act = parse_notation(data)
        elif isinstance(data, dict):
            act = from_json(data)
        else:
            abort(400, description="Send {\"action\": \"conquer 12\"} or the action's JSON form.")
        game = service().owner.game
        if game is not None:
            check_names(act, game.board, game.rules)  # the game's own map and ruleset
    except RecordError as exc:
        abort(400, description=unknown_word(data) or str(exc))
    if who is None and isinstance(act, Pick):
        _paid_pick_on_phone(act)
    return submit(Play(act, who, "web"))


def unknown_word(data) -> str | None:
    """For typed notation whose first word is no action: a short suggestion (the nearest action, and
    what the game takes now), not the list of every action the record format knows."""
    import difflib
    from ...rules.actions import ACTIONS
    if not isinstance(data, str) or not data.split():
        return None
    word = data.split()[0].lower()
    if word in ACTIONS:
        return None
    game = service().owner.game
    now = sorted({a.act for a in game.legal_actions()}) if game is not None and not game.finished else []
    near = (difflib.get_close_matches(word, now, n=1, cutoff=0.5)  # what the game takes now first
            or difflib.get_close_matches(word, list(ACTIONS), n=1, cutoff=0.7))
    shown = word if len(word) <= 20 else word[:17] + "..."
    out = f"'{shown}' is not an action" + (f": did you mean '{near[0]}'?" if near else ".")
    if now:
        out += f" Now the game takes: {', '.join(now)}."
    return out


def _paid_pick_on_phone(act: Pick) -> None:
    """A combo that costs coins, picked from the table screen for a player whose phone has joined, is
    refused whatever their coins: its answer (and a pick-then-undo) would tell the table whether they
    can pay. They pick it on their own phone. The free combo, and a player without a phone, are not
    concerned (the table enters everything for them)."""
    public = service().owner.published.public
    seat, game_id = public.get("current"), service().owner.published.game_id
    cost = next((c.get("cost", 0) for c in public.get("combos", ()) if c.get("race") == act.race), 0)
    if cost and isinstance(seat, int) and seat in service().passes.seats_joined(game_id):
        name = public["players"][seat]["name"]
        abort(409, description=f"{name} picks a combo that costs coins on their own phone (the table would "
                              f"learn whether {name} can pay).")


@lru_cache(maxsize=8)
def _board(ruleset: str, name: str) -> maps.Board:
    """A shipped map of a ruleset (never a file path a request names)."""
    return rulesets.get(ruleset).load_board(name)


@bp.post("/roll")
def roll():
    who = actor()
    face = body().get("face")
    if face in (None, ""):
        return submit(RollDie(None, who, "web"))
    try:
        face = int(face)
    except (TypeError, ValueError):
        abort(400, description="A die face is 0, 1, 2 or 3.")
    if face not in (0, 1, 2, 3):
        abort(400, description="A die face is 0, 1, 2 or 3.")
    return submit(RollDie(face, who, "web"))


@bp.post("/undo")
def undo():
    security.require_table()
    return submit(Undo("web"))


@bp.post("/log")
def correct_log():
    """The table corrects past actions of the game log in place: ``{"edits": [{"seq": 12, "how":
    "replace", "action": "redeploy 3:2 7:1"}, {"seq": 15, "how": "remove"}, {"seq": 20, "how":
    "insert", "action": "conquer 4"}]}`` (``seq`` counts the log from 0, as it is before the edits)."""
    security.require_table()
    edits = body().get("edits")
    if not isinstance(edits, list) or not edits or len(edits) > 200:
        abort(400, description="Send {\"edits\": [{\"seq\": N, \"how\": \"replace\", \"action\": \"...\"}]}: "
                               "how is replace, insert or remove.")
    game = service().owner.game
    out = []
    for k, e in enumerate(edits, 1):
        if not isinstance(e, dict):
            abort(400, description=f"Correction {k} is not an object with seq, how and action.")
        how, seq, data = e.get("how"), e.get("seq"), e.get("action")
        if how not in HOWS:
            abort(400, description=f"Correction {k}: how is replace, insert or remove, not {str(how)[:20]!r}.")
        if isinstance(seq, bool) or not isinstance(seq, int):
            abort(400, description=f"Correction {k}: seq is the action's number in the log (from 0).")
        act = None
        if how != "remove":
            if not isinstance(data, (str, dict)) or not data:
                abort(400, description=f"Correction {k}: say the action, e.g. \"redeploy 3:2 7:1\".")
            try:
                act = parse_notation(data) if isinstance(data, str) else from_json(data)
                if game is not None:
                    check_names(act, game.board, game.rules)
            except RecordError as exc:
                abort(400, description=f"Correction {k}: {unknown_word(data) or exc}")
        out.append(Edit(how, seq, act))
    return submit(Correct(tuple(out), "web"))


@bp.post("/alerts/<int:alert_id>")
def resolve(alert_id: int):
    """Settle an alert (the table code): accept the correction, or override (the camera misread)."""
    if not security.is_table():
        abort(403, description="Settling an alert needs the table code: unlock the table screen.")
    accept = body().get("accept", True) not in ("0", "false", False)
    return submit(Resolve(alert_id, accept, "web"))


@bp.post("/declare")
def declare():
    """The final conquest attempt's region, before (or after) the die is rolled."""
    who = actor()
    try:
        region = int(body().get("region"))
    except (TypeError, ValueError):
        abort(400, description="Send {\"region\": N}: the region of the final conquest attempt.")
    game = service().owner.game
    if game is not None and region not in game.board:
        abort(400, description=f"There is no region {region} on this map.")
    return submit(Declare(region, who, "web"))


@bp.post("/answer")
def answer():
    """The table answers the camera's question: which explanation was played."""
    security.require_table()
    try:
        option = int(body().get("option"))
    except (TypeError, ValueError):
        abort(400, description="Send {\"option\": N}: the number of the answer.")
    return submit(Answer(option, "web"))


@bp.post("/board-right")
def board_right():
    """The table says the board is right: the camera offers its corrections to the game as a question."""
    security.require_table()
    return submit(BoardIsRight("web"))


@bp.get("/values")
def piece_values():
    """The banner and badge values this table has read off its pieces (``?ruleset=warcraft``; default:
    the current game's ruleset)."""
    game = service().owner.game
    try:
        rules = rulesets.get(request.args.get("ruleset") or (game.rules.name if game else "warcraft"))
    except ValueError as exc:
        abort(404, description=f"{str(exc)[:1].upper()}{str(exc)[1:]}.")
    if not rules.reads_values:
        abort(404, description=f"{rules.title} keeps no banner or badge values: its numbers are in the rulebook.")
    return jsonify(service().store.piece_values(rules.name))


@bp.post("/values")
def set_piece_values():
    """The table corrects values it keeps for the next games: ``{"ruleset": "warcraft", "races":
    {"orcs": 5}, "powers": {"farmer": null}}`` (null forgets). The game in progress keeps its own."""
    security.require_table()
    data = body()
    game = service().owner.game
    from .setup import parse_values
    try:
        rules = rulesets.get(data.get("ruleset") or (game.rules.name if game else "warcraft"))
        changes = parse_values(rules, data)
    except ValueError as exc:
        abort(400, description=str(exc))
    service().store.set_piece_values(rules.name, changes)
    return jsonify(service().store.piece_values(rules.name))
