"""The setup page: players and seats, the map, a seeded shuffle or the physical stacks typed in."""
from __future__ import annotations

import re
import secrets

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for

import maps

from ...rules import ruleset as rulesets
from ...rules.errors import RecordError
from ...rules.setup import Setup
from ...shuffle import seeded_setup
from ..inputs import NewGame
from . import security

bp = Blueprint("setup", __name__)


def _names(text: str) -> list[str]:
    return [w.strip() for w in re.split(r"[,\n]", text or "") if w.strip()]


def _form_context(error: str | None = None, form=None):
    rules = rulesets.get("smallworld")
    return dict(maps=maps.builtin_names(), races=rules.race_names(), powers=rules.power_names(),
                error=error, form=form or {})


@bp.get("/setup")
def form():
    if not security.is_table():
        return redirect(url_for("table.unlock_form", next="/setup"))
    return render_template("setup.html", **_form_context())


def setup_from_form(form) -> Setup:
    """The Setup the form describes; a ValueError says what is wrong in one sentence."""
    players = _names(form.get("players", ""))
    map_name = form.get("map", "")
    if map_name not in maps.builtin_names():
        raise ValueError(f"Unknown map {map_name!r}.")
    if not 2 <= len(players) <= 5:
        raise ValueError(f"Small World is for 2 to 5 players; {len(players)} named.")
    if len(set(players)) != len(players):
        raise ValueError("Each player needs a different name.")
    if any(len(p) > 24 for p in players):
        raise ValueError("Keep player names under 25 characters.")
    if form.get("order") == "typed":
        data = {"format": "smallworld-record", "version": 1, "ruleset": "smallworld", "map": map_name,
                "players": players, "races": _names(form.get("races", "").lower()),
                "powers": _names(form.get("powers", "").lower())}
        try:
            return Setup.from_json(data)
        except RecordError as exc:
            raise ValueError(str(exc)) from None
    seed_text = (form.get("seed") or "").strip()
    if seed_text and not seed_text.isdigit():
        raise ValueError("The seed is a whole number (or leave it empty).")
    seed = int(seed_text) if seed_text else secrets.randbelow(10**6)
    return seeded_setup(map_name, players, seed)


@bp.post("/setup")
def create():
    security.require_table()
    try:
        setup = setup_from_form(request.form)
    except ValueError as exc:
        return render_template("setup.html", **_form_context(str(exc), request.form)), 400
    outcome = current_app.config["SERVICE"].owner.submit(NewGame(setup, source="web")).result(timeout=10)
    if not outcome.ok:
        abort(outcome.status, description=outcome.sentence)
    return redirect(url_for("table.index"))
