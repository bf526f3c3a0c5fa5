"""Passes: what a signed cookie's "table" or "seat" is worth, kept in the store so that leaving,
locking and a new game revoke it for good (a copy of the cookie taken before is refused, even
after a restart).

A pass is a random token in the browser's session, and a row in the store's ``passes`` table. The
cookie alone (signed, but copyable) is never enough: its pass must still stand.
"""
from __future__ import annotations

import secrets
import sqlite3
import threading
import time
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS passes (
    token TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('table', 'seat')),
    game INTEGER,
    seat INTEGER,
    created REAL NOT NULL,
    revoked REAL
);
"""
KEEP_S = 30 * 24 * 3600  # revoked passes are forgotten after a month (their cookies expire in two days)


class Passes:
    """The passes of one store file (its own connection: a request thread asks, the owner never waits)."""

    def __init__(self, path: str | Path):
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None, timeout=10)
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)
        self._db.execute("DELETE FROM passes WHERE revoked IS NOT NULL AND revoked < ?", (time.time() - KEEP_S,))

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def issue(self, kind: str, game: int | None = None, seat: int | None = None) -> str:
        token = secrets.token_urlsafe(18)
        with self._lock:
            self._db.execute("INSERT INTO passes (token, kind, game, seat, created) VALUES (?, ?, ?, ?, ?)",
                             (token, kind, game, seat, time.time()))
        return token

    def valid(self, token: object, kind: str, game: int | None = None, seat: int | None = None) -> bool:
        """Whether ``token`` is a standing pass of this kind (and game and seat, for a seat)."""
        if not isinstance(token, str) or len(token) > 64:
            return False
        with self._lock:
            row = self._db.execute("SELECT kind, game, seat, revoked FROM passes WHERE token = ?",
                                   (token,)).fetchone()
        if row is None or row[3] is not None or row[0] != kind:
            return False
        return kind == "table" or (row[1] == game and row[2] == seat)

    def revoke(self, token: object) -> None:
        if isinstance(token, str):
            with self._lock:
                self._db.execute("UPDATE passes SET revoked = ? WHERE token = ? AND revoked IS NULL",
                                 (time.time(), token))

    def revoke_all(self, keep: object = None) -> int:
        """A new game: every seat pass, and every table pass but ``keep`` (the screen that set it up)."""
        with self._lock:
            cur = self._db.execute("UPDATE passes SET revoked = ? WHERE revoked IS NULL AND token IS NOT ?",
                                   (time.time(), keep if isinstance(keep, str) else None))
        return cur.rowcount

    def seats_joined(self, game: int) -> set[int]:
        """The seats of ``game`` with a phone joined (a standing seat pass)."""
        with self._lock:
            rows = self._db.execute("SELECT DISTINCT seat FROM passes WHERE kind = 'seat' AND game = ? AND "
                                    "revoked IS NULL", (game,)).fetchall()
        return {r[0] for r in rows}
