"""The store: every game's setup and accepted actions in SQLite (WAL, synchronous writes).

An action is committed before anyone is told about it, so a pulled plug loses nothing shown. The
last action of a game and its finished flag are one transaction (and an undo and the flag too). The
state of a game is always the replay of its stored record; several games are kept, and the one the
table plays (the newest, or one resumed from the list of games) is resumed at start. The alerts and the camera's question that stand are kept with their
game, so a restart shows them again. The numbers a table has read off its banners and badges (Small
World of Warcraft) are kept too, from one game to the next.
"""
from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from ..rules.actions import Action, from_json
from ..rules.setup import Setup

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created REAL NOT NULL,
    setup TEXT NOT NULL,
    die_seed INTEGER NOT NULL,
    seat_codes TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS actions (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    source TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game, seq)
);
CREATE TABLE IF NOT EXISTS standing (
    game INTEGER PRIMARY KEY REFERENCES games(id),
    alerts TEXT NOT NULL,
    question TEXT
);
CREATE TABLE IF NOT EXISTS piece_values (
    ruleset TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('races', 'powers')),
    name TEXT NOT NULL,
    value INTEGER NOT NULL,
    PRIMARY KEY (ruleset, kind, name)
);
"""


@dataclass(frozen=True)
class StoredGame:
    id: int
    created: float
    setup: Setup
    die_seed: int
    seat_codes: tuple[str, ...]
    finished: bool


class Store:
    """One SQLite file. Thread-safe: one connection behind a lock (writes come from the game owner)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=10)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")  # the commit is on disk when it returns
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # ---------------------------------------------------------------- meta
    def meta(self, key: str, default: str | None = None) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else default

    def set_meta(self, key: str, value: str) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def meta_or_create(self, key: str, make) -> str:
        """The stored value, or ``make()`` stored now (the first start)."""
        value = self.meta(key)
        if value is None:
            value = make()
            self.set_meta(key, value)
        return value

    # ---------------------------------------------------------------- the table's piece values
    def piece_values(self, ruleset: str) -> dict:
        """``{"races": {name: n}, "powers": {name: n}}``: the values this table has read off its pieces."""
        out: dict = {"races": {}, "powers": {}}
        with self._lock:
            rows = self._db.execute("SELECT kind, name, value FROM piece_values WHERE ruleset = ? "
                                    "ORDER BY kind, name", (ruleset,)).fetchall()
        for kind, name, value in rows:
            out[kind][name] = value
        return out

    def set_piece_values(self, ruleset: str, values: dict) -> None:
        """Remember values (same shape as ``piece_values``); a value of None forgets that name."""
        with self._lock, self._transaction():
            for kind in ("races", "powers"):
                for name, value in (values.get(kind) or {}).items():
                    if value is None:
                        self._db.execute("DELETE FROM piece_values WHERE ruleset = ? AND kind = ? AND name = ?",
                                         (ruleset, kind, name))
                    else:
                        self._db.execute("INSERT OR REPLACE INTO piece_values (ruleset, kind, name, value) "
                                         "VALUES (?, ?, ?, ?)", (ruleset, kind, name, int(value)))

    # ---------------------------------------------------------------- games
    def new_game(self, setup: Setup, die_seed: int, seat_codes: list[str]) -> int:
        with self._lock:
            with self._transaction():
                cur = self._db.execute(
                    "INSERT INTO games (created, setup, die_seed, seat_codes) VALUES (?, ?, ?, ?)",
                    (time.time(), json.dumps(setup.to_json()), die_seed, json.dumps(seat_codes)))
                self._db.execute("DELETE FROM meta WHERE key = 'current_game'")  # the newest is played
            return int(cur.lastrowid)

    def game(self, game_id: int) -> StoredGame | None:
        with self._lock:
            row = self._db.execute("SELECT id, created, setup, die_seed, seat_codes, finished FROM games "
                                   "WHERE id = ?", (game_id,)).fetchone()
        return _game(row) if row else None

    def games(self) -> list[StoredGame]:
        with self._lock:
            rows = self._db.execute("SELECT id, created, setup, die_seed, seat_codes, finished FROM games "
                                    "ORDER BY id").fetchall()
        return [_game(r) for r in rows]

    def latest(self) -> StoredGame | None:
        games = self.games()
        return games[-1] if games else None

    def current(self) -> StoredGame | None:
        """The game the table plays: the one last resumed (``set_current``), else the newest."""
        chosen = self.meta("current_game")
        if chosen is not None and chosen.isdigit():
            game = self.game(int(chosen))
            if game is not None:
                return game
        return self.latest()

    def set_current(self, game_id: int | None) -> None:
        """Resume ``game_id`` at the next start (None: the newest game)."""
        with self._lock:
            if game_id is None:
                self._db.execute("DELETE FROM meta WHERE key = 'current_game'")
            else:
                self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('current_game', ?)", (str(game_id),))

    def set_finished(self, game_id: int, finished: bool) -> None:
        with self._lock:
            self._db.execute("UPDATE games SET finished = ? WHERE id = ?", (int(finished), game_id))

    # ---------------------------------------------------------------- alerts and question standing
    def standing(self, game_id: int) -> tuple[list[dict], dict | None]:
        """The alerts (as the table screen shows them) and the camera's question that stood last."""
        with self._lock:
            row = self._db.execute("SELECT alerts, question FROM standing WHERE game = ?", (game_id,)).fetchone()
        if row is None:
            return [], None
        return json.loads(row[0]), (json.loads(row[1]) if row[1] else None)

    def set_standing(self, game_id: int, alerts: list[dict], question: dict | None) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO standing (game, alerts, question) VALUES (?, ?, ?)",
                             (game_id, json.dumps(alerts), json.dumps(question) if question else None))

    # ---------------------------------------------------------------- actions
    def append(self, game_id: int, seq: int, action: Action, source: str, *, finished: bool | None = None) -> None:
        """Commit one accepted action (``seq`` counts from 0); durable when this returns. With
        ``finished``, the game's finished flag is set in the same transaction (the game's last action)."""
        with self._lock, self._transaction():
            self._db.execute("INSERT INTO actions (game, seq, action, source, at) VALUES (?, ?, ?, ?, ?)",
                             (game_id, seq, json.dumps(action.to_json()), source, time.time()))
            if finished is not None:
                self._db.execute("UPDATE games SET finished = ? WHERE id = ?", (int(finished), game_id))

    def remove_last(self, game_id: int, seq: int, *, finished: bool | None = None) -> None:
        """Undo: forget the action at ``seq`` (the last one); with ``finished``, the flag too, in one transaction."""
        with self._lock, self._transaction():
            self._db.execute("DELETE FROM actions WHERE game = ? AND seq = ?", (game_id, seq))
            if finished is not None:
                self._db.execute("UPDATE games SET finished = ? WHERE id = ?", (int(finished), game_id))

    def replace(self, game_id: int, seq: int, action: Action, source: str) -> None:
        """A past action corrected (a redeployment seen better later); durable when this returns."""
        with self._lock:
            self._db.execute("UPDATE actions SET action = ?, source = ?, at = ? WHERE game = ? AND seq = ?",
                             (json.dumps(action.to_json()), source, time.time(), game_id, seq))

    def insert(self, game_id: int, seq: int, action: Action, source: str) -> None:
        """A missed action put into the past before the one at ``seq`` (a Fortress seen later);
        the later actions move one on. One transaction: durable, or nothing changed, when this returns."""
        with self._lock, self._transaction():
            # two steps, so no two rows share a number on the way: s -> -s-2 -> s+1
            self._db.execute("UPDATE actions SET seq = -seq - 2 WHERE game = ? AND seq >= ?", (game_id, seq))
            self._db.execute("UPDATE actions SET seq = -seq - 1 WHERE game = ? AND seq < 0", (game_id,))
            self._db.execute("INSERT INTO actions (game, seq, action, source, at) VALUES (?, ?, ?, ?, ?)",
                             (game_id, seq, json.dumps(action.to_json()), source, time.time()))

    def rewrite(self, game_id: int, start: int, actions: list[Action], sources: list[str], *,
                finished: bool) -> None:
        """The table corrected its log: the actions from ``start`` on become ``actions`` (each with its
        source), the finished flag with them. One transaction: durable, or nothing changed."""
        with self._lock, self._transaction():
            self._db.execute("DELETE FROM actions WHERE game = ? AND seq >= ?", (game_id, start))
            now = time.time()
            self._db.executemany("INSERT INTO actions (game, seq, action, source, at) VALUES (?, ?, ?, ?, ?)",
                                 [(game_id, start + k, json.dumps(a.to_json()), src, now)
                                  for k, (a, src) in enumerate(zip(actions, sources))])
            self._db.execute("UPDATE games SET finished = ? WHERE id = ?", (int(finished), game_id))

    @contextlib.contextmanager
    def _transaction(self):
        """BEGIN IMMEDIATE ... COMMIT (held under ``_lock``): all of it is on disk, or none of it."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def actions(self, game_id: int) -> list[Action]:
        with self._lock:
            rows = self._db.execute("SELECT action FROM actions WHERE game = ? ORDER BY seq", (game_id,)).fetchall()
        return [from_json(json.loads(r[0])) for r in rows]


def _game(row) -> StoredGame:
    return StoredGame(id=row[0], created=row[1], setup=Setup.from_json(json.loads(row[2])), die_seed=row[3],
                      seat_codes=tuple(json.loads(row[4])), finished=bool(row[5]))
