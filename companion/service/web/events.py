"""Server-Sent Events: /events/table for everyone, /events/seat for a joined phone."""
from __future__ import annotations

import json

from flask import Blueprint, Response, abort, current_app, request, stream_with_context

from ..hub import SLOT
from . import security

bp = Blueprint("events", __name__, url_prefix="/events")


def _stream(channel: str, game: int | None = None) -> Response:
    slot = request.environ.get("asgi.scope", {}).get(SLOT)
    if slot is not None:  # the server's front writes the events itself, on its event loop (asgi.py)
        slot.update(channel=channel, game=game)
        body = iter(())
    else:  # a plain WSGI server (and Flask's test client): the stream holds a thread
        body = stream_with_context(current_app.config["SERVICE"].hub.stream(channel, game))
    response = Response(body, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response


def _gone(code: str, sentence: str) -> Response:
    """One ``gone`` event and the end of the stream: this seat's game is over (a new game began)."""
    data = json.dumps({"error": code, "sentence": sentence})
    response = Response(f"retry: 60000\nevent: gone\ndata: {data}\n\n", mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/table")
def table():
    return _stream("table")


@bp.get("/seat")
def seat():
    me = security.my_seat()
    if me is None:
        code, sentence = security.why_no_seat()
        if code == "new-game":  # said in the stream: a browser cannot read why a stream was refused
            return _gone(code, sentence)
        abort(403, description=sentence)
    return _stream(f"seat:{me}", current_app.config["SERVICE"].owner.published.game_id)
