"""The JSON API: state, layout, actions, the die, undo, alerts, the log."""
from __future__ import annotations

from functools import lru_cache

from flask import Blueprint, abort, current_app, jsonify, request

import maps

from ...rules.actions import from_json, parse_notation
from ...rules import ruleset as rulesets
from ...rules.errors import RecordError
from ...rules.record import check_names
from .. import layout
from ..inputs import Answer, Declare, Play, Resolve, RollDie, Undo
from . import security

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
    data = request.get_json(silent=True)
    if data is None:
        data = request.form.to_dict()
    if not isinstance(data, dict):
        abort(400, description="Send a JSON object.")
    return data


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
    name = request.args.get("map") or service().owner.published.public.get("map")
    if not name:
        abort(404, description="No game is set up yet.")
    if name not in maps.builtin_names():
        abort(404, description=f"Unknown map {name!r}.")
    return jsonify(layout.geometry(maps.load(name)))


@bp.get("/seat")
def seat():
    me = security.my_seat()
    if me is None:
        abort(403, description="Join a seat with its code first.")
    return jsonify(service().owner.published.seats[me])


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
        name = service().owner.published.public.get("map")
        if name:
            check_names(act, _board(name), rulesets.get("smallworld"))
    except RecordError as exc:
        abort(400, description=str(exc))
    return submit(Play(act, who, "web"))


@lru_cache(maxsize=8)
def _board(name: str) -> maps.Board:
    return maps.load(name)


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


@bp.post("/alerts/<int:alert_id>")
def resolve(alert_id: int):
    accept = body().get("accept", True)
    if accept in ("0", "false", False):
        accept = False
    else:
        accept = True
    if not security.is_table():
        alert = next((a for a in service().owner.published.alerts if a["id"] == alert_id), None)
        if not accept or alert is None or alert["seat"] is None or alert["seat"] != security.my_seat():
            abort(403, description="Overriding needs the table code; a player may only accept a correction "
                                   "of their own alert.")
    return submit(Resolve(alert_id, accept, "web"))


@bp.post("/declare")
def declare():
    """The final conquest attempt's region, before (or after) the die is rolled."""
    who = actor()
    try:
        region = int(body().get("region"))
    except (TypeError, ValueError):
        abort(400, description="Send {\"region\": N}: the region of the final conquest attempt.")
    name = service().owner.published.public.get("map")
    if name and region not in _board(name):
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
