"""The application factory: ``create_app(service)`` with the table, player, setup, api and events blueprints."""
from __future__ import annotations

import logging
from pathlib import Path

from flask import Flask, Response, jsonify, render_template, request
from markupsafe import escape
from werkzeug.exceptions import HTTPException
from werkzeug.routing import IntegerConverter

from ... import floods
from . import bodies, security


class BoundedInt(IntegerConverter):
    """``<int:...>`` in a URL: at most 9 digits (a game, an alert, a region)."""

    def __init__(self, map, *args, **kwargs):
        kwargs.setdefault("max", 10 ** 9)
        super().__init__(map, *args, **kwargs)


PACKAGE = Path(__file__).resolve().parents[2]  # companion/
log = logging.getLogger(__name__)


def create_app(service, *, testing: bool = False) -> Flask:
    app = Flask(__name__, template_folder=str(PACKAGE / "templates"), static_folder=str(PACKAGE / "static"))
    app.json = bodies.BoundedJSON(app)
    app.url_map.converters["int"] = BoundedInt  # /games/99999999999999999999 is a 404, not an overflow
    app.secret_key = service.secret_key
    app.config.update(
        SERVICE=service, TESTING=testing,
        SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Strict", SESSION_COOKIE_NAME="companion",
        PERMANENT_SESSION_LIFETIME=60 * 60 * 24 * 2, MAX_CONTENT_LENGTH=64 * 1024,
        ALLOWED_HOSTS=security.machine_names() | set(h.lower() for h in service.config.service.allowed_hosts),
        PUBLIC_URL=service.config.service.public_url.rstrip("/"),
        BACKOFF=floods.Backoff(),  # wrong table and seat codes, per device (docs/service.md)
    )
    app.logger.disabled = False

    from .api import bp as api
    from .calibrate import bp as calibrate
    from .events import bp as events
    from .games import bp as games
    from .player import bp as player
    from .setup import bp as setup
    from .table import bp as table
    for bp in (table, games, player, setup, api, events, calibrate):
        app.register_blueprint(bp)

    @app.before_request
    def _guard():
        security.check_host()
        security.check_csrf()

    app.after_request(security.headers)

    @app.context_processor
    def _context():
        return {"csrf_token": security.csrf_token(), "is_table": security.is_table()}

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        return error(exc.code or 500, exc.name, exc.description or exc.name)

    @app.errorhandler(Exception)
    def _crash(exc: Exception):
        log.exception("request %s %s failed", request.method, request.path)  # the path only: no codes
        return error(500, "Internal error", "The companion failed on this request; the game is safe.")

    return app


def wants_json() -> bool:
    return (request.path.startswith(("/api/", "/events/")) or request.is_json
            or "application/json" in request.headers.get("Accept", ""))


def error(status: int, title: str, sentence: str):
    """A clear 4xx/5xx: JSON for the API, a small page for a browser; never a traceback."""
    if wants_json():
        return jsonify({"error": title.lower().replace(" ", "-"), "sentence": sentence}), status
    try:
        return render_template("error.html", status=status, title=title, sentence=sentence), status
    except Exception:  # the page itself must not fail (its template or base gone, a broken install)
        log.exception("the error page could not be drawn")
        return plain_error(status, title, sentence), status


def plain_error(status: int, title: str, sentence: str) -> Response:
    """The error page with nothing to load: no template, no stylesheet."""
    page = (f"<!doctype html><html lang=en><meta charset=utf-8><title>{status} {escape(title)}</title>"
            f"<h1>{escape(title)}</h1><p>{escape(sentence)}</p><p><a href=\"/\">Back to the table</a></p></html>")
    return Response(page, status=status, mimetype="text/html")
