"""The player view: join with a seat code (typed or from the QR code), then the seat's own page."""
from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, request, url_for

from . import security

bp = Blueprint("player", __name__)


def _join(code: str) -> int | None:
    """Join the seat whose code this is (behind the per-device backoff on wrong codes)."""
    wait = security.backoff_wait()
    if wait:
        security.too_many_guesses(wait)
    owner = current_app.config["SERVICE"].owner
    seat = owner.seat_of_code(code[:64])
    if seat is None:
        current_app.config["BACKOFF"].failed(security.client())
        return None
    security.join_seat(owner.published.game_id, seat)
    return seat


@bp.get("/join")
def join_form():
    new_game = request.args.get("why") == "new-game"  # the phone of a seat in a game now over
    return render_template("join.html", wrong=False, code="", new_game=security.NEW_GAME if new_game else "")


@bp.post("/join")
def join():
    """Joining changes the session: a POST with the CSRF token (the QR code's page has one button)."""
    code = request.form.get("code", "")
    if _join(code) is None:
        return render_template("join.html", wrong=True, code=""), 403
    return redirect(url_for("player.seat_page"))


@bp.get("/join/<code>")
def join_link(code: str):
    """The QR code's address: a page with one button that joins (a GET never changes the session,
    and says nothing about whether the code is right)."""
    return render_template("join.html", wrong=False, code=code[:64])


@bp.get("/seat")
def seat_page():
    if security.my_seat() is None:
        return redirect(url_for("player.join_form", why=security.why_no_seat()[0]))
    return render_template("seat.html")


@bp.post("/leave")
def leave():
    security.leave_seat()  # the pass is revoked: a copy of this cookie no longer joins
    return redirect(url_for("player.join_form"))
