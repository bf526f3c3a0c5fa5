"""Security on a shared LAN: Host check, CSRF on every POST, who the browser is (table or seat).

The session cookie is signed, HttpOnly and SameSite=Strict. It holds a CSRF token, whether the
table code was given (``table``), and the seat joined with a seat code (``seat``, per game).
"""
from __future__ import annotations

import hmac
import ipaddress
import secrets
import socket

from flask import abort, current_app, request, session

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def csrf_token() -> str:
    token = session.get("csrf")
    if not token:
        token = session["csrf"] = secrets.token_urlsafe(24)
    return token


def check_csrf() -> None:
    if request.method in SAFE_METHODS:
        return
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token") or ""
    token = session.get("csrf") or ""
    if not token or not hmac.compare_digest(sent.encode(), token.encode()):
        abort(403, description="Missing or wrong CSRF token: reload the page and try again.")


def machine_names() -> set[str]:
    name = socket.gethostname().lower()
    return {"localhost", name, f"{name}.local", name.split(".")[0] + ".local"}


def check_host() -> None:
    """Refuse a Host header that is not this machine (DNS rebinding): 400."""
    host = (request.host or "").lower()
    if host.startswith("["):
        name = host[1:].split("]", 1)[0]
    else:
        name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    allowed = current_app.config["ALLOWED_HOSTS"]
    if name in allowed:
        return
    try:
        ipaddress.ip_address(name)
        return
    except ValueError:
        pass
    abort(400, description=f"Unknown host {name!r}: open the companion by its address or name "
                           "(add the name to [service] allowed_hosts).")


def _service():
    return current_app.config["SERVICE"]


def is_table() -> bool:
    """The table code was given in this browser (for the current table code), and its pass stands
    (locking, or a new game set up on another screen, revokes it)."""
    given = session.get("table")
    return (isinstance(given, dict) and given.get("mark") == _table_mark()
            and _service().passes.valid(given.get("pass"), "table"))


def _table_mark() -> str:
    code = current_app.config["SERVICE"].table_code
    return hmac.new(current_app.secret_key.encode(), code.encode(), "sha256").hexdigest()[:16]


def unlock_table() -> None:
    session["table"] = {"mark": _table_mark(), "pass": _service().passes.issue("table")}


def lock_table() -> None:
    given = session.pop("table", None)
    if isinstance(given, dict):
        _service().passes.revoke(given.get("pass"))


def table_pass() -> str | None:
    given = session.get("table")
    return given.get("pass") if isinstance(given, dict) else None


def my_seat() -> int | None:
    """The seat this browser joined in the current game (its pass standing), or None."""
    joined = session.get("seat")
    published = _service().owner.published
    if not isinstance(joined, dict) or published.game_id is None or joined.get("game") != published.game_id:
        return None
    seat = joined.get("seat")
    if not isinstance(seat, int) or not _service().passes.valid(joined.get("pass"), "seat", published.game_id, seat):
        return None
    return seat


NEW_GAME = ("A new game began (or the table resumed another one), and this phone's seat was in the last one. "
            "Join the game with your seat's code: scan its QR code on the table screen, or type the code below.")


def why_no_seat() -> tuple[str, str]:
    """Why this browser has no seat now, as (code, sentence): a seat of an earlier game (a new game
    began since: its codes are new), or never joined (or left)."""
    joined = session.get("seat")
    game = _service().owner.published.game_id
    if isinstance(joined, dict) and game is not None and joined.get("game") != game:
        return "new-game", NEW_GAME
    return "not-joined", "Join a seat with its code first."


def join_seat(game: int, seat: int) -> None:
    leave_seat()
    session["seat"] = {"game": game, "seat": seat, "pass": _service().passes.issue("seat", game, seat)}


def leave_seat() -> None:
    joined = session.pop("seat", None)
    if isinstance(joined, dict):
        _service().passes.revoke(joined.get("pass"))


def client() -> str:
    """Who is guessing, for the backoff: the address the request came from."""
    return request.remote_addr or "?"


def backoff_wait() -> float:
    return current_app.config["BACKOFF"].wait(client())


def too_many_guesses(wait: float):
    """The 429 a guessing client gets, without its code being looked at."""
    abort(429, description=f"Too many wrong codes from this device: try again in {int(wait) + 1} s.")


def require_table() -> None:
    if not is_table():
        abort(403, description="This needs the table code: unlock the table screen first.")


def headers(response):
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    response.headers.setdefault("Content-Security-Policy",
                                "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                                "frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
    if request.path.startswith(("/api/", "/events/", "/seat", "/join")):
        response.headers.setdefault("Cache-Control", "no-store")
    return response
