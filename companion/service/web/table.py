"""The table view (the shared screen), unlocking it with the table code, join codes (past games: games.py)."""
from __future__ import annotations

from flask import Blueprint, abort, current_app, jsonify, redirect, render_template, request, url_for

from .. import address, codes, qr
from . import security

bp = Blueprint("table", __name__)


def service():
    return current_app.config["SERVICE"]


@bp.get("/")
def index():
    return render_template("table.html", address_warning=phone_address().warning)


@bp.get("/unlock")
def unlock_form():
    return render_template("unlock.html", next=_safe_next(request.args.get("next")), wrong=False)


@bp.post("/unlock")
def unlock():
    """The table code: a few typos cost nothing; guessing is slowed down per device (docs/service.md)."""
    nxt = _safe_next(request.form.get("next"))
    wait = security.backoff_wait()
    if wait:
        security.too_many_guesses(wait)
    if not codes.same(request.form.get("code", "")[:64], service().table_code):
        current_app.config["BACKOFF"].failed(security.client())
        return render_template("unlock.html", next=nxt, wrong=True), 403
    current_app.config["BACKOFF"].succeeded(security.client())
    security.unlock_table()
    return redirect(nxt)


@bp.post("/lock")
def lock():
    security.lock_table()
    return redirect(url_for("table.index"))


def _safe_next(value: str | None) -> str:
    return value if value and value.startswith("/") and not value.startswith("//") else "/"


def phone_address() -> address.PhoneAddress:
    """Where phones reach this table: never 127.0.0.1 because this screen runs on the Pi itself."""
    return address.for_phones(current_app.config["PUBLIC_URL"], service().config.service.host, request.host_url)


def base_url() -> str:
    return phone_address().url


@bp.get("/api/join-codes")
def join_codes():
    """Each seat's join code, address and QR code (SVG): only for the unlocked table screen."""
    security.require_table()
    published = service().owner.published
    if published.game_id is None:
        abort(404, description="No game is set up yet.")
    out = []
    for seat, code in enumerate(published.codes):
        url = f"{base_url()}/join/{code}"
        out.append({"seat": seat, "name": published.public["players"][seat]["name"], "code": code,
                    "url": url, "qr": qr.svg(url)})
    return jsonify(out)
