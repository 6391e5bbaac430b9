"""Storage of games in SQLite (the standard library's ``sqlite3``): one file, no server.

A game is a row holding its settings (who sits where, the clock) and its record, the engine's
JSON (:func:`spaghetti.records.dumps`). The record is rewritten and committed after every accepted
action, before anyone hears of the action, so a restarted server finds every game exactly as its
players last saw it. Seat tokens and invite codes are stored only as SHA-256 digests: the
database alone does not let anyone act for a seat.

The journal is WAL with ``synchronous=NORMAL``: a commit survives the server process being killed
(``kill -9``); only a power cut may lose the last few commits.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from collections.abc import Mapping

from ..errors import SetupError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       TEXT PRIMARY KEY,
    created  REAL NOT NULL,
    updated  REAL NOT NULL,
    settings TEXT NOT NULL,   -- JSON: seats, clock, autoplay
    record   TEXT NOT NULL,   -- the game record (spaghetti-record/1)
    clocks   TEXT             -- JSON: seconds left per seat, or null without a clock
);
CREATE TABLE IF NOT EXISTS seats (
    game    TEXT NOT NULL REFERENCES games(id),
    seat    INTEGER NOT NULL,
    invite  TEXT,             -- digest of the invite code (null: no invite, e.g. a computer)
    token   TEXT,             -- digest of the seat token, once the seat is claimed
    PRIMARY KEY (game, seat)
);
"""


def digest(secret: str) -> str:
    """The SHA-256 digest (hex) under which a secret is stored."""
    return hashlib.sha256(secret.encode()).hexdigest()


class Store:
    """The games database. Safe to call from several threads (one lock around one connection)."""

    def __init__(self, path: str):
        self.path = path
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
        except sqlite3.Error as exc:
            raise SetupError(f"{path}: cannot use this file as the games database ({exc})") from None

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def create(self, game_id: str, settings: dict, record: str, clocks: list | None,
               invites: Mapping[int, str | None]) -> None:
        """Store a new game with its seats' invite codes (plain; stored as digests)."""
        now = time.time()
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.execute(
                "INSERT INTO games (id, created, updated, settings, record, clocks) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, now, now, json.dumps(settings), record, json.dumps(clocks)))
            self._db.executemany(
                "INSERT INTO seats (game, seat, invite, token) VALUES (?, ?, ?, NULL)",
                [(game_id, seat, digest(code) if code else None)
                 for seat, code in invites.items()])

    def save(self, game_id: str, record: str, clocks: list | None) -> None:
        """Commit a game's record (after an action)."""
        with self._lock:
            self._db.execute("UPDATE games SET record = ?, clocks = ?, updated = ? WHERE id = ?",
                             (record, json.dumps(clocks), time.time(), game_id))

    def save_settings(self, game_id: str, settings: dict) -> None:
        """Commit a game's settings (a seat taken over by the computer when its clock ran out)."""
        with self._lock:
            self._db.execute("UPDATE games SET settings = ?, updated = ? WHERE id = ?",
                             (json.dumps(settings), time.time(), game_id))

    def load(self, game_id: str) -> tuple[dict, str, list | None] | None:
        """``(settings, record, clocks)`` of a game, or None if there is no such game."""
        with self._lock:
            row = self._db.execute("SELECT settings, record, clocks FROM games WHERE id = ?",
                                   (game_id,)).fetchone()
        if row is None:
            return None
        return json.loads(row[0]), row[1], json.loads(row[2]) if row[2] else None

    def claim(self, game_id: str, invite: str, token: str) -> int | None:
        """Claim the seat an invite code opens, once: its seat; None for an unknown code; -1 when
        the seat was already claimed."""
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            row = self._db.execute(
                "SELECT seat, token FROM seats WHERE game = ? AND invite = ?",
                (game_id, digest(invite))).fetchone()
            if row is None or row[1] is not None:
                return None if row is None else -1
            self._db.execute("UPDATE seats SET token = ? WHERE game = ? AND seat = ?",
                             (digest(token), game_id, row[0]))
            return row[0]

    def seat_of(self, game_id: str, token: str) -> int | None:
        """The seat a token holds in a game, or None."""
        with self._lock:
            row = self._db.execute("SELECT seat FROM seats WHERE game = ? AND token = ?",
                                   (game_id, digest(token))).fetchone()
        return None if row is None else row[0]

    def claimed(self, game_id: str) -> set[int]:
        """The seats whose invite has been used."""
        with self._lock:
            rows = self._db.execute("SELECT seat FROM seats WHERE game = ? AND token IS NOT NULL",
                                    (game_id,)).fetchall()
        return {r[0] for r in rows}

    def game_ids(self) -> list[str]:
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT id FROM games ORDER BY created")]
