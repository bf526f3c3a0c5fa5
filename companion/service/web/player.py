"""The player view: join with a seat code (typed or from the QR code), then the seat's own page."""
from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, request, url_for

from . import security

bp = Blueprint("player", __name__)


def _join(code: str) -> tuple[int | None, object]:
    owner = current_app.config["SERVICE"].owner
    seat = owner.seat_of_code(code)
    if seat is not None:
        security.join_seat(owner.published.game_id, seat)
    return seat, owner.published


@bp.get("/join")
def join_form():
    return render_template("join.html", wrong=False)


@bp.post("/join")
def join():
    seat, _ = _join(request.form.get("code", ""))
    if seat is None:
        return render_template("join.html", wrong=True), 403
    return redirect(url_for("player.seat_page"))


@bp.get("/join/<code>")
def join_link(code: str):
    """The QR code's address. Answers a page (not a redirect) so the SameSite=Strict cookie is sent next."""
    seat, published = _join(code)
    if seat is None:
        return render_template("join.html", wrong=True), 403
    return render_template("joined.html", name=published.public["players"][seat]["name"])


@bp.get("/seat")
def seat_page():
    if security.my_seat() is None:
        return redirect(url_for("player.join_form"))
    return render_template("seat.html")


@bp.post("/leave")
def leave():
    from flask import session
    session.pop("seat", None)
    return redirect(url_for("player.join_form"))
