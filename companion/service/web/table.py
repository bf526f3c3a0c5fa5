"""The table view (the shared screen), unlocking it with the table code, join codes, past games."""
from __future__ import annotations

from flask import (Blueprint, Response, abort, current_app, jsonify, redirect, render_template, request,
                   url_for)

from ...rules import ruleset as rulesets
from ...rules.game import Game
from ...rules.record import dumps
from .. import address, codes, qr, views, wording
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


@bp.get("/games")
def games():
    import datetime
    rows, rates = [], {}
    for g in service().store.games():
        row = {"id": g.id, "players": list(g.setup.players), "map": g.setup.map, "finished": g.finished,
               "ruleset": rulesets.get(g.setup.ruleset).title,
               "date": datetime.datetime.fromtimestamp(g.created).strftime("%Y-%m-%d %H:%M")}
        if g.finished:
            summary = _summary(g)
            row.update(summary)
            for combo, won in summary["played"]:
                for piece in combo:
                    seen = rates.setdefault(piece, [0, 0])
                    seen[0] += won
                    seen[1] += 1
        rows.append(row)
    table = sorted(({"piece": k, "won": w, "played": n, "rate": round(100 * w / n)} for k, (w, n) in rates.items()),
                   key=lambda r: (-r["rate"], -r["played"], r["piece"]))
    return render_template("games.html", games=rows, current=service().owner.published.game_id, rates=table)


_SUMMARIES: dict = {}


def _summary(stored) -> dict:
    """A finished game in a line: its winners and each player's combos (kept: a finished game stays)."""
    actions = service().store.actions(stored.id)
    key = (stored.id, len(actions))
    if key not in _SUMMARIES:
        game = Game.replay(stored.setup, actions)
        winners = set(game.outcome()["winners"])
        combos, played = [], []
        for seat, p in enumerate(game.players):
            titles = [t.title() for t in game.tribes_of(seat)]
            combos.append(f"{p.name}: {', '.join(titles) or 'no race'}")
            for t in game.tribes_of(seat):
                played.append(((f"race: {t.race.title}", f"power: {wording.power_title(game, t.power.name)}"),
                               int(seat in winners)))
        _SUMMARIES[key] = {"winners": [game.players[i].name for i in sorted(winners)], "combos": combos,
                           "played": played}
    return _SUMMARIES[key]


def _stored(game_id: int):
    stored = service().store.game(game_id)
    if stored is None:
        abort(404, description=f"There is no game {game_id}.")
    if not stored.finished and not security.is_table():
        abort(403, description="A game in progress is readable only at its end (its record reveals the coins).")
    return stored


@bp.get("/games/<int:game_id>")
def game_summary(game_id: int):
    stored = _stored(game_id)
    game = Game.replay(stored.setup, service().store.actions(game_id))
    end = views.end_view(game) if game.finished else None
    return render_template("game.html", game_id=game_id, setup=stored.setup, end=end,
                           ruleset=rulesets.get(stored.setup.ruleset).title,
                           players=list(stored.setup.players), actions=len(game.history))


@bp.get("/games/<int:game_id>/record.jsonl")
def record(game_id: int):
    stored = _stored(game_id)
    text = dumps(stored.setup, service().store.actions(game_id))
    return Response(text, mimetype="application/jsonl",
                    headers={"Content-Disposition": f"attachment; filename=game-{game_id}.jsonl"})
