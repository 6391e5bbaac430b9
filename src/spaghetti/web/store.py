"""Storage of games in SQLite (the standard library's ``sqlite3``): one file, no server.

A game is a row holding its settings (who sits where, the clock) and its record, the engine's
JSON (:func:`spaghetti.records.dumps`). The record is rewritten and committed after every accepted
action, before anyone hears of the action, so a restarted server finds every game exactly as its
players last saw it. Seat tokens and invite codes are stored only as SHA-256 digests: the
database alone does not let anyone act for a seat.

Players (a display name and a rating, :mod:`.ratings`) live in the same file: a player is known
by a secret token kept in the browser, stored here, like the seat tokens, only as a digest. The
tables added for them (``players``, ``lobby``, ``results``, and the ``player`` column of
``seats``) are created when missing, so a database written before them opens as it was.

The journal is WAL with ``synchronous=NORMAL``: a commit survives the server process being killed
(``kill -9``); only a power cut may lose the last few commits.
"""

from __future__ import annotations

import hashlib
import json
import secrets
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
CREATE TABLE IF NOT EXISTS players (
    id      TEXT PRIMARY KEY,
    token   TEXT NOT NULL UNIQUE, -- digest of the player token
    name    TEXT NOT NULL,
    mu      REAL NOT NULL,        -- the rating model's estimate of skill
    sigma   REAL NOT NULL,        -- and its uncertainty
    rated   INTEGER NOT NULL DEFAULT 0, -- rated games finished
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS lobby (  -- games listed as waiting for people
    game    TEXT PRIMARY KEY REFERENCES games(id),
    variant TEXT NOT NULL,
    level   INTEGER NOT NULL,
    players INTEGER NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS results (  -- one row per named player of a finished game
    game    TEXT NOT NULL REFERENCES games(id),
    seat    INTEGER NOT NULL,
    player  TEXT NOT NULL REFERENCES players(id),
    outcome TEXT NOT NULL,        -- win, loss or draw
    before  REAL,                 -- mu before and after; null: the game was not rated
    after   REAL,
    ended   REAL NOT NULL,
    PRIMARY KEY (game, seat)
);
CREATE INDEX IF NOT EXISTS results_player ON results(player, ended);
"""


def new_token() -> str:
    """A fresh secret token (a seat's or a player's): 24 random bytes, URL-safe."""
    return secrets.token_urlsafe(24)


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
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(seats)")}
            if "player" not in columns:  # a database from before players: every seat unnamed
                self._db.execute("ALTER TABLE seats ADD COLUMN player TEXT")
        except sqlite3.Error as exc:
            raise SetupError(f"{path}: cannot use this file as the games database "
                             f"({exc})") from None

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

    # ------------------------------------------------------------------ players

    def add_player(self, player_id: str, token: str, name: str, mu: float, sigma: float) -> None:
        with self._lock:
            self._db.execute("INSERT INTO players (id, token, name, mu, sigma, created) "
                             "VALUES (?, ?, ?, ?, ?, ?)",
                             (player_id, digest(token), name, mu, sigma, time.time()))

    def player(self, player_id: str) -> dict | None:
        """A player's public row: ``id``, ``name``, ``mu``, ``sigma``, ``rated``."""
        with self._lock:
            row = self._db.execute("SELECT id, name, mu, sigma, rated FROM players WHERE id = ?",
                                   (player_id,)).fetchone()
        return None if row is None else dict(zip(("id", "name", "mu", "sigma", "rated"), row))

    def player_by_token(self, token: str) -> dict | None:
        with self._lock:
            row = self._db.execute("SELECT id FROM players WHERE token = ?",
                                   (digest(token),)).fetchone()
        return None if row is None else self.player(row[0])

    def best(self, limit: int) -> list[dict]:
        """The players with at least one rated game, highest ``mu`` first."""
        with self._lock:
            rows = self._db.execute("SELECT id, name, mu, sigma, rated FROM players "
                                    "WHERE rated > 0 ORDER BY mu DESC, created LIMIT ?",
                                    (limit,)).fetchall()
        return [dict(zip(("id", "name", "mu", "sigma", "rated"), r)) for r in rows]

    def rename(self, player_id: str, name: str) -> None:
        with self._lock:
            self._db.execute("UPDATE players SET name = ? WHERE id = ?", (name, player_id))

    def seat_players(self, game_id: str) -> dict[int, dict]:
        """The named players of a game's seats: seat -> the player's public row."""
        with self._lock:
            rows = self._db.execute(
                "SELECT s.seat, p.id, p.name, p.mu, p.sigma, p.rated FROM seats s "
                "JOIN players p ON p.id = s.player WHERE s.game = ?", (game_id,)).fetchall()
        return {r[0]: dict(zip(("id", "name", "mu", "sigma", "rated"), r[1:])) for r in rows}

    def bind(self, game_id: str, seat: int, player_id: str) -> bool:
        """Name a seat's player, once: False if the seat already has another player."""
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            row = self._db.execute("SELECT player FROM seats WHERE game = ? AND seat = ?",
                                   (game_id, seat)).fetchone()
            if row is None or row[0] not in (None, player_id):
                return False
            self._db.execute("UPDATE seats SET player = ? WHERE game = ? AND seat = ?",
                             (player_id, game_id, seat))
            return True

    def take(self, game_id: str, seat: int, token: str, player_id: str | None) -> bool:
        """Take a free seat without its invite (the lobby, a rematch): False if it is taken."""
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            done = self._db.execute(
                "UPDATE seats SET token = ?, player = ? WHERE game = ? AND seat = ? "
                "AND token IS NULL AND invite IS NOT NULL",
                (digest(token), player_id, game_id, seat)).rowcount
            return done == 1

    # ------------------------------------------------------------------ the lobby

    def list_game(self, game_id: str, variant: str, level: int, players: int) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO lobby (game, variant, level, players, "
                             "created) VALUES (?, ?, ?, ?, ?)",
                             (game_id, variant, level, players, time.time()))

    def unlist(self, game_id: str) -> None:
        with self._lock:
            self._db.execute("DELETE FROM lobby WHERE game = ?", (game_id,))

    def listed(self) -> list[dict]:
        """The games waiting for people, oldest first: ``game``, ``variant``, ``level``,
        ``players``, ``created``."""
        with self._lock:
            rows = self._db.execute("SELECT game, variant, level, players, created FROM lobby "
                                    "ORDER BY created").fetchall()
        return [dict(zip(("game", "variant", "level", "players", "created"), r)) for r in rows]

    # ------------------------------------------------------------------ results

    def record_results(self, game_id: str, rows: list[tuple[int, str, str, float | None,
                                                            float | None]],
                       ratings: Mapping[str, tuple[float, float]]) -> bool:
        """Store the outcome of a finished game for its named players, ``(seat, player, outcome,
        mu before, mu after)`` each, and their new ratings (player -> (mu, sigma)), in one
        transaction; False (and nothing changed) if the game's results are already stored."""
        now = time.time()
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            if self._db.execute("SELECT 1 FROM results WHERE game = ?", (game_id,)).fetchone():
                return False
            self._db.executemany(
                "INSERT INTO results (game, seat, player, outcome, before, after, ended) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)", [(game_id, *row, now) for row in rows])
            self._db.executemany(
                "UPDATE players SET mu = ?, sigma = ?, rated = rated + 1 WHERE id = ?",
                [(mu, sigma, pid) for pid, (mu, sigma) in ratings.items()])
            self._db.execute("DELETE FROM lobby WHERE game = ?", (game_id,))
            return True

    def results_of(self, player_id: str, limit: int = 50) -> list[dict]:
        """A player's finished games, newest first, each with its seats (``settings``) and the
        names of its named seats (``names``: seat -> name)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT r.game, r.seat, r.outcome, r.before, r.after, r.ended, g.settings FROM "
                "results r JOIN games g ON g.id = r.game WHERE r.player = ? "
                "ORDER BY r.ended DESC LIMIT ?", (player_id, limit)).fetchall()
            names = self._db.execute(
                "SELECT o.game, o.seat, p.name FROM results o JOIN players p ON p.id = o.player "
                "WHERE o.game IN (SELECT game FROM results WHERE player = ? "
                "ORDER BY ended DESC LIMIT ?)", (player_id, limit)).fetchall()
        out = []
        for r in rows:
            row = dict(zip(("game", "seat", "outcome", "before", "after", "ended"), r))
            row["seats"] = json.loads(r[6])["seats"]
            row["names"] = {seat: name for game, seat, name in names if game == r[0]}
            out.append(row)
        return out
