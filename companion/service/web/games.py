"""Past games: the list (dates, winners, the combos played, the win rate of each race and power), a
finished game's end (scores, chart, each player's coins round by round), its record, and resuming an
unfinished game."""
from __future__ import annotations

import datetime

from flask import Blueprint, Response, abort, current_app, redirect, render_template, request, url_for

from ...rules import ruleset as rulesets
from ...rules.game import Game
from ...rules.record import dumps
from .. import views, wording
from ..inputs import Resume
from . import security
from .setup import in_progress

bp = Blueprint("games", __name__)


def service():
    return current_app.config["SERVICE"]


def _listing() -> tuple[list[dict], list[dict]]:
    rows, rates = [], {}
    current = service().owner.published.game_id
    for g in service().store.games():
        row = {"id": g.id, "players": list(g.setup.players), "finished": g.finished,
               "where": _where(g.setup),
               "date": datetime.datetime.fromtimestamp(g.created).strftime("%a %d %b %Y, %H:%M"),
               "iso": datetime.datetime.fromtimestamp(g.created).strftime("%Y-%m-%dT%H:%M"),
               "current": g.id == current}
        summary = _summary(g)
        row.update(summary)
        if g.finished:
            for combo, won in summary["played"]:
                for piece in combo:
                    seen = rates.setdefault(piece, [0, 0])
                    seen[0] += won
                    seen[1] += 1
        rows.append(row)
    table = sorted(({"kind": k[0], "piece": k[1], "won": w, "played": n, "rate": round(100 * w / n)}
                    for k, (w, n) in rates.items()), key=lambda r: (-r["rate"], -r["played"], r["piece"]))
    return rows, {kind: [r for r in table if r["kind"] == kind] for kind in ("race", "power")} if table else {}


def _where(setup) -> str:
    """The ruleset and the map by its name ("Small World, 3 players"; "Small World of Warcraft, SAMPLE ...")."""
    rules = rulesets.get(setup.ruleset)
    try:
        title = rules.board(setup.map).title
    except Exception:  # a map file gone since: its name still says which
        title = setup.map
    return title if title.startswith(rules.title) else f"{rules.title}, {title}"


@bp.get("/games")
def games():
    rows, rates = _listing()
    return render_template("games.html", games=rows, rates=rates, confirm=None)


_SUMMARIES: dict = {}


def _summary(stored) -> dict:
    """A game in a line: its winners (when over), each player's combos, how far it got (kept per
    length of its record: a finished game never changes)."""
    actions = service().store.actions(stored.id)
    key = (stored.id, len(actions))
    if key not in _SUMMARIES:
        game = Game.replay(stored.setup, actions)
        outcome = game.outcome() if game.finished else None
        winners = set(outcome["winners"]) if outcome else set()
        combos, played = [], []
        for seat, p in enumerate(game.players):
            titles = [t.title() for t in game.tribes_of(seat)]
            combos.append(f"{p.name}: {', '.join(titles) or 'no race yet'}")
            for t in game.tribes_of(seat):
                played.append(((("race", t.race.title), ("power", wording.power_title(game, t.power.name))),
                               int(seat in winners)))
        _SUMMARIES[key] = {"winners": [game.players[i].name for i in sorted(winners)], "combos": combos,
                           "played": played, "round": game.round, "rounds": game.rounds, "actions": len(actions)}
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
    players = [{"name": p.name, "colour": views.SEAT_COLOURS[i % len(views.SEAT_COLOURS)]}
               for i, p in enumerate(game.players)]
    return render_template("game.html", game_id=game_id, setup=stored.setup, end=end, map_title=game.board.title,
                           ruleset=rulesets.get(stored.setup.ruleset).title, players=players,
                           actions=len(game.history), state={"game": game_id, "players": players, "end": end})


@bp.get("/games/<int:game_id>/record.jsonl")
def record(game_id: int):
    stored = _stored(game_id)
    text = dumps(stored.setup, service().store.actions(game_id))
    return Response(text, mimetype="application/jsonl",
                    headers={"Content-Disposition": f"attachment; filename=game-{game_id}.jsonl"})


@bp.post("/games/<int:game_id>/resume")
def resume(game_id: int):
    """Play an unfinished game again; the game in progress, if another, stays unfinished in this list."""
    security.require_table()
    stored = service().store.game(game_id)
    if stored is None:
        abort(404, description=f"There is no game {game_id}.")
    playing = in_progress()
    current = service().owner.published.game_id
    if playing and current != game_id and request.form.get("confirm") != "yes":
        rows, rates = _listing()
        return render_template("games.html", games=rows, rates=rates,
                               confirm={"id": game_id, "playing": playing, "current": current})  # a question, not an error
    outcome = service().owner.submit(Resume(game_id, source="web")).result(timeout=10)
    if not outcome.ok:
        abort(outcome.status, description=outcome.sentence)
    # a phone's seat pass names its game: the seats of the game left are out until it is resumed, and
    # the phones that joined the game resumed (still standing) are back in, or join with its codes
    return redirect(url_for("table.index"))
