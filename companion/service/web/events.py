"""Server-Sent Events: /events/table for everyone, /events/seat for a joined phone."""
from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, stream_with_context

from . import security

bp = Blueprint("events", __name__, url_prefix="/events")


def _stream(channel: str, game: int | None = None) -> Response:
    hub = current_app.config["SERVICE"].hub
    response = Response(stream_with_context(hub.stream(channel, game)), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response


@bp.get("/table")
def table():
    return _stream("table")


@bp.get("/seat")
def seat():
    me = security.my_seat()
    if me is None:
        abort(403, description="Join a seat with its code first.")
    return _stream(f"seat:{me}", current_app.config["SERVICE"].owner.published.game_id)
