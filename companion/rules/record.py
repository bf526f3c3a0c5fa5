"""The game record: JSON Lines, a header (the setup) then one action per line.

``read`` refuses a malformed line with ``RecordError("FILE:LINE: ...")``; ``replay`` raises
``RecordReplayError`` carrying the line of the first illegal action.
"""
from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from pathlib import Path

import maps
from maps import files

from . import ruleset as rulesets
from .actions import Action, from_json
from .errors import IllegalAction, RecordError
from .game import Game
from .setup import Setup


@dataclass
class Record:
    setup: Setup
    actions: list[Action]
    lines: list[int]  # the file line of each action
    source: str = "<record>"


class IllegalRecordLine(IllegalAction):
    """The first illegal action of a record, with where it stands."""

    def __init__(self, source: str, line: int, error: IllegalAction):
        super().__init__(error.reason, error.sentence)
        self.source, self.line = source, line


def dumps(setup: Setup, actions: list[Action]) -> str:
    lines = [json.dumps(setup.to_json())]
    lines += [json.dumps(a.to_json()) for a in actions]
    return "\n".join(lines) + "\n"


def write(path: str | Path, setup: Setup, actions: list[Action]) -> None:
    Path(path).write_text(dumps(setup, actions), encoding="utf-8")


def loads(text: str, source: str = "<record>") -> Record:
    setup = None
    actions: list[Action] = []
    lines: list[int] = []
    board = rules = None
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = files.loads(line, source, number)
        except files.BadInput as exc:
            raise RecordError(str(exc)) from None
        try:
            if setup is None:
                setup = Setup.from_json(data)
                rules = rulesets.get(setup.ruleset)
                try:
                    board = rules.load_board(setup.map)
                except maps.MapError as exc:
                    raise RecordError(f"map: {exc}") from None
                continue
            action = from_json(data)
            check_names(action, board, rules)
        except RecordError as exc:
            raise RecordError(f"{source}:{number}: {exc}") from None
        actions.append(action)
        lines.append(number)
    if setup is None:
        raise RecordError(f"{source}:1: the record is empty (it starts with a header line)")
    return Record(setup, actions, lines, source)


def read(path: str | Path) -> Record:
    try:
        text = files.read_text(path, "game record")
    except files.BadInput as exc:
        raise RecordError(str(exc)) from None
    return loads(text, str(path))


def check_names(action: Action, board: maps.Board, rules: rulesets.Ruleset) -> None:
    """Refuse a region id not on the map, or a race or power name not in the ruleset."""
    for name in ("region",):
        rid = getattr(action, name, None)
        if rid is not None and rid not in board:
            raise RecordError(f"{action.act}: unknown region {rid} (this map's regions are "
                              f"{min(board.ids)} to {max(board.ids)})")
    for name in ("tokens", "encampments", "beasts"):
        for rid, _ in getattr(action, name, None) or ():
            if rid not in board:
                raise RecordError(f"{action.act}: unknown region {rid} in {name}")
    for rid in getattr(action, "regions", None) or ():
        if rid not in board:
            raise RecordError(f"{action.act}: unknown region {rid}")
    race = getattr(action, "race", None)
    if race is not None and not rules.is_race(race):
        raise RecordError(f"{action.act}: unknown race {race!r}{_nearest(race, rules.race_names())}")
    power = getattr(action, "power", None)
    if power is not None and not rules.is_power(power):
        raise RecordError(f"{action.act}: unknown special power {power!r}{_nearest(power, rules.power_names())}")


def _nearest(name: object, known: list[str]) -> str:
    """A typo's likely meaning: " (did you mean 'trolls'?)", or nothing."""
    near = difflib.get_close_matches(str(name), known, n=1, cutoff=0.6)
    return f" (did you mean {near[0]!r}?)" if near else ""


def replay(record: Record) -> Game:
    """The state the record leads to; raises IllegalRecordLine at the first illegal action."""
    game = Game(record.setup)
    for action, line in zip(record.actions, record.lines):
        try:
            game.apply(action)
        except IllegalAction as exc:
            raise IllegalRecordLine(record.source, line, exc) from None
    return game
