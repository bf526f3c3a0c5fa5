"""The setup page: the ruleset, players and seats, the map, a seeded shuffle or the physical stacks typed
in; for a ruleset whose token numbers are read off the pieces, the values this table has kept."""
from __future__ import annotations

import difflib
import random
import re
import secrets
from pathlib import Path

from flask import Blueprint, abort, current_app, jsonify, redirect, render_template, request, url_for

import maps
from maps import islands

from ...rules import ruleset as rulesets
from ...rules.errors import RecordError
from ...rules.setup import Setup
from ...shuffle import seeded_setup
from .. import datadir
from ..inputs import NewGame
from . import security

bp = Blueprint("setup", __name__)


def _names(text: str) -> list[str]:
    return [w.strip() for w in re.split(r"[,\n]", text or "") if w.strip()]


def _rules(name: str | None) -> rulesets.Ruleset:
    try:
        return rulesets.get(name or "smallworld")
    except ValueError:
        raise ValueError(f"Unknown ruleset {name!r} (known: {', '.join(rulesets.RULESETS)}).") from None


def _form_context(rules: rulesets.Ruleset, error: str | None = None, form=None, message: str | None = None):
    store = current_app.config["SERVICE"].store
    values = store.piece_values(rules.name) if rules.reads_values else None
    return dict(in_progress=in_progress(), rulesets=[(r.name, r.title) for r in rulesets.RULESETS.values()], ruleset=rules.name,
                ruleset_title=rules.title, islands=getattr(rules, "default_map", None) is not None,
                maps=map_choices(rules), races=rules.race_names(), powers=rules.power_names(), error=error,
                form=form or {}, values=values, message=message, visible=VISIBLE,
                race_titles={n: rules.race_title(n) for n in rules.race_names()},
                power_titles={n: rules.power(n).title for n in rules.power_names()})


VISIBLE = 6  # combos face up on the table: five in the column and the one on top of the stacks


def map_label(rules: rulesets.Ruleset, name: str) -> str:
    """A map as the table knows it: by its name, never "4p"."""
    board = rules.board(name)
    if getattr(rules, "default_map", None) is None:
        return board.title
    parts = [p.replace("sample-", "").replace("-", " ") for p in name.split(islands.SEPARATOR)]
    return f"SAMPLE islands for {board.players} players: {', '.join(parts)}"


def map_choices(rules: rulesets.Ruleset) -> list[dict]:
    """The shipped maps for the form: name, label and the number of players each is laid out for."""
    return [{"name": m, "label": map_label(rules, m), "players": rules.board(m).players} for m in rules.map_names()]


def in_progress() -> str | None:
    """The game a new one would leave unfinished, in words (None: none, or nothing played yet)."""
    game = current_app.config["SERVICE"].owner.game
    if game is None or game.finished or not game.history:
        return None
    names = ", ".join(p.name for p in game.players)
    return f"{names}: round {game.round} of {game.rounds}, {len(game.history)} actions"


@bp.get("/setup")
def form():
    if not security.is_table():
        return redirect(url_for("table.unlock_form", next=request.full_path.rstrip("?")))
    try:
        rules = _rules(request.args.get("ruleset"))
    except ValueError as exc:
        abort(404, description=str(exc))
    return render_template("setup.html", **_form_context(rules))


@bp.get("/api/rules/<name>/texts")
def texts(name: str):
    """What each banner and badge of a ruleset does, in its rulebook's words (public: the rulebook's)."""
    try:
        rules = rulesets.get(name)
    except ValueError as exc:
        abort(404, description=str(exc))
    return jsonify({"races": {n: rules.race(n).text for n in rules.race_names()},
                    "powers": {n: rules.power(n).text for n in rules.power_names()}})


ISLAND_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")


def known_islands(folder: Path) -> dict[str, str]:
    """The islands this companion knows, by name: the shipped SAMPLES and the table's own, entered into
    its data folder (``companion islands new DATA/islands/NAME.json``); each with what a map names it by."""
    known = {name: name for name in islands.builtin_names()}
    try:
        own = sorted(p for p in folder.glob("*.json") if p.is_file() and ISLAND_NAME.fullmatch(p.stem))
    except OSError:
        own = []
    for path in own[:200]:
        known.setdefault(path.stem, str(path))
    return known


def island_map(text: str, folder: Path) -> str:
    """The map of islands a form names ('sample-large-1+attic'): each a name the companion knows,
    never a path a request gives (the server reads its own files only)."""
    known = known_islands(folder)
    parts = [p.strip() for p in text.split(islands.SEPARATOR)][:6]
    for part in parts:
        if part not in known:
            shown = part if len(part) <= 40 else part[:37] + "..."
            raise ValueError(f"Unknown island {shown!r}: choose among {', '.join(known)} (a board of your own "
                             f"is entered with 'companion islands new {folder}/NAME.json').")
    return islands.SEPARATOR.join(known[p] for p in parts)


def setup_from_form(form) -> Setup:
    """The Setup the form describes; a ValueError says what is wrong in one sentence."""
    rules = _rules(form.get("ruleset"))
    players = _names(form.get("players", ""))
    if not 2 <= len(players) <= 5:
        raise ValueError(f"{rules.title} is for 2 to 5 players; {len(players)} named.")
    if len(set(players)) != len(players):
        raise ValueError("Each player needs a different name.")
    if any(len(p) > 24 for p in players):
        raise ValueError("Keep player names under 25 characters.")
    map_name = (form.get("islands") or "").strip() or form.get("map", "")
    by_islands = getattr(rules, "default_map", None) is not None
    if not map_name:  # the map follows the number of players
        map_name = rules.map_for_players(len(players))
    elif by_islands:
        map_name = island_map(map_name, datadir.island_folder(current_app.config["SERVICE"].data))
    if not by_islands and not rules.shipped_map(map_name):
        raise ValueError(f"Unknown map {map_name!r}.")
    try:
        board = rules.load_board(map_name)
    except maps.MapError as exc:
        raise ValueError(f"Map: {exc}") from None
    if board.players != len(players):
        if by_islands:
            raise ValueError(f"The map {board.name} is for {board.players} players; {len(players)} named.")
        if form.get("any_map") != "yes":
            raise ValueError(f"{board.title} is laid out for {board.players} players and {len(players)} are named: "
                             f"choose the board for the number of players, or tick 'Play this board with "
                             f"{len(players)} players anyway'.")
    seed_text = (form.get("seed") or "").strip()
    if seed_text and not (seed_text.isdigit() and len(seed_text) <= 9):
        raise ValueError("The seed is a whole number (or leave it empty).")
    seed = int(seed_text) if seed_text else secrets.randbelow(10**6)
    if form.get("order") == "typed":
        rng = random.Random(seed)
        data = {"format": "smallworld-record", "version": 1, "ruleset": rules.name, "map": map_name,
                "players": players,
                "races": stack(_names(form.get("races", "").lower()), rules.race_names(), "race banners", rng),
                "powers": stack(_names(form.get("powers", "").lower()), rules.power_names(), "special power badges", rng)}
        try:
            return Setup.from_json(data)
        except RecordError as exc:
            raise ValueError(str(exc)) from None
    return seeded_setup(map_name, players, seed, rules.name)


def stack(names: list[str], known: list[str], what: str, rng: random.Random) -> list[str]:
    """The order of a physical stack, top first, as the table entered it: at least the visible combos
    (the rest, if left out, are ordered by the companion, and the table screen says how to stack them)."""
    unknown = [n for n in names if n not in known]
    if unknown:
        near = difflib.get_close_matches(unknown[0], known, n=1)
        raise ValueError(f"{what.capitalize()}: there is no {unknown[0]!r}" + (f"; did you mean {near[0]!r}?" if near else "."))
    twice = next((n for n in names if names.count(n) > 1), None)
    if twice:
        raise ValueError(f"{what.capitalize()}: {twice!r} is listed twice.")
    need = min(VISIBLE, len(known))
    if len(names) < need:
        raise ValueError(f"Enter at least the {need} {what} of the visible combos, top first ({len(names)} entered).")
    rest = [n for n in known if n not in names]
    rng.shuffle(rest)
    return names + rest


@bp.post("/setup")
def create():
    security.require_table()
    try:
        rules = _rules(request.form.get("ruleset"))
    except ValueError as exc:
        abort(400, description=str(exc))
    try:
        setup = setup_from_form(request.form)
    except ValueError as exc:
        return render_template("setup.html", **_form_context(rules, str(exc), request.form)), 400
    playing = in_progress()
    if playing and request.form.get("abandon") != "yes":
        return render_template("setup.html", **_form_context(
            rules, f"A game is in progress ({playing}). Tick 'Leave it unfinished' to start a new one "
                   "(it stays in Games), or go back to the table.", request.form))  # a question, not an error
    outcome = current_app.config["SERVICE"].owner.submit(NewGame(setup, source="web")).result(timeout=10)
    if outcome.status == 400:
        return render_template("setup.html", **_form_context(rules, outcome.sentence, request.form)), 400
    if not outcome.ok:
        abort(outcome.status, description=outcome.sentence)
    # a new game: every seat joined before and every other unlocked screen must join or unlock again
    current_app.config["SERVICE"].passes.revoke_all(keep=security.table_pass())
    return redirect(url_for("table.index"))


def parse_values(rules: rulesets.Ruleset, data: dict) -> dict:
    """``{"races": {name: n or None}, "powers": {...}}`` checked for this ruleset (None: forget)."""
    if not rules.reads_values:
        raise ValueError(f"{rules.title} prints its token numbers in the rulebook: there are no values to keep.")
    if not isinstance(data, dict) or set(data) - {"races", "powers", "ruleset"}:
        raise ValueError("Send {\"races\": {\"orcs\": 5}, \"powers\": {\"farmer\": 4}} (null forgets a value).")
    out: dict = {"races": {}, "powers": {}}
    for kind, known, what in (("races", rules.is_race, "race"), ("powers", rules.is_power, "special power")):
        table = data.get(kind) or {}
        if not isinstance(table, dict):
            raise ValueError(f"{kind} maps names to numbers.")
        for name, value in table.items():
            if not known(name):
                raise ValueError(f"Unknown {what} {name!r}.")
            if value in (None, ""):
                out[kind][name] = None
                continue
            try:
                value = int(value)
            except (TypeError, ValueError):
                raise ValueError(f"The value of {name} is a whole number, not {value!r}.") from None
            out[kind][name] = value
    try:
        rules.check_options({"values": {k: {n: v for n, v in t.items() if v is not None} for k, t in out.items()}})
    except RecordError as exc:
        raise ValueError(f"{str(exc)[:1].upper()}{str(exc)[1:]}.") from None
    return out


@bp.post("/setup/values")
def values():
    """The table corrects (or forgets) a banner or badge value it keeps, for the next games."""
    security.require_table()
    try:
        rules = _rules(request.form.get("ruleset"))
    except ValueError as exc:
        abort(400, description=str(exc))
    name = (request.form.get("name") or "").strip().lower()
    kind = "races" if rules.is_race(name) else "powers" if rules.is_power(name) else None
    try:
        if kind is None:
            raise ValueError(f"{name!r} is neither a race nor a special power of {rules.title}.")
        changes = parse_values(rules, {kind: {name: (request.form.get("value") or "").strip()}})
    except ValueError as exc:
        return render_template("setup.html", **_form_context(rules, str(exc))), 400
    current_app.config["SERVICE"].store.set_piece_values(rules.name, changes)
    value = changes[kind][name]
    said = f"{name}: {value} kept for the next games." if value is not None else f"{name}: forgotten."
    return render_template("setup.html", **_form_context(rules, message=said))
