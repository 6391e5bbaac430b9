"""The tables of the server: each game in play, who sits where, and who is watching.

A :class:`Table` holds one game's :class:`~spaghetti.core.state.State` and the connections to it.
Every change goes through :meth:`Hall.commit`, which asks the engine (``State.apply``) and commits
the record to the :class:`~spaghetti.web.store.Store`; only then is everyone told. Each connection
hears only what its viewer may see: a seat gets ``view(state, seat)``, a spectator
``view(state, "observer")``.

The :class:`Hall` keeps the tables in memory, creates games, loads them back from the database
(after a restart, on first use), and runs the computer players in worker processes so that
the event loop keeps serving everyone else while they think.

Everything here runs on one asyncio event loop; between ``apply`` and the commit there is no
``await``, so two messages can never interleave inside one action. Every move of a game, a
player's, a forced one played by itself or the computer's, enters through one path under the
table's lock (:meth:`Hall.play`, :meth:`Hall._autoplay`), which checks again that the position is
the one the move was chosen in, and that the game is not over.

No client can hold up the others: each connection has its own bounded queue of outgoing
messages and a task that sends them (:class:`Connection`); sending to a connection never waits,
and a client that falls :data:`QUEUE_SIZE` messages behind is dropped (its page reconnects and
gets the state afresh).
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import os
import random
import secrets
import sqlite3
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from pydantic import ValidationError

from .. import records
from ..ai import MCTSPlayer, make_player
from ..core.game import Game
from ..core.state import State
from ..core.view import OBSERVER, view
from ..errors import IllegalOptionError, NotationError, SetupError
from ..i18n import LANGS, colour, describe, lang_for, option_label, t
from . import ratings
from .schemas import CreateGame, SeatIn, cap, explain
from .store import Store, new_token

log = logging.getLogger("spaghetti.web")

HUMAN, COMPUTER = "human", "computer"
LOG_SIZE = 12  # last moves sent with every state message
HINT_ITERATIONS = 3000
#: What passing means at a sequential-open decision (the engine's words say "do not run").
OPEN_PASS = {"code": ("place no flag on the open card", "公開されたカードにフラグを置かない"),
             "monsters": ("place no inhabitant on the open island", "公開された島に島民を置かない")}
#: Messages that may wait for one connection; a client further behind than this is dropped.
QUEUE_SIZE = 32
#: Requests for the whole state a connection may make at once, and how many a second after.
STATE_BURST, STATE_RATE = 10, 5.0
#: The expensive requests (a hint, an analysis) a client may make at once, and how many a
#: second after that.
BURST, REFILL = 4, 0.5


class WebError(Exception):
    """A request that cannot be served; ``code`` is a short machine-readable kind."""

    def __init__(self, message: str, code: str = "bad_request", status: int = 400,
                 retry_after: float | None = None):
        super().__init__(cap(message, 600))  # engine sentences quote what they were sent
        self.code = code
        self.status = status
        self.retry_after = retry_after


class Connection:
    """One open WebSocket: who is looking (a seat or the observer), in which language, and its
    own queue of messages to send.

    :meth:`send` never waits: it puts the message in the queue, which a task of this connection
    empties in order (:meth:`start`). A client that does not read falls behind; when
    ``limit`` messages wait, it is dropped (:attr:`dropped` is set; the server closes the
    socket, and the page reconnects and gets the state afresh).
    """

    def __init__(self, send: Callable[[str], Awaitable[None]], seat: int | str,
                 lang: str = "en", client: str = "?", limit: int = QUEUE_SIZE):
        self._send = send
        self.seat = seat
        self.lang = lang
        self.client = client  # the address it came from (for the rate limits)
        #: Requests for the whole state (``state``, ``lang``): each costs a full message.
        self.asks = Buckets(STATE_BURST, STATE_RATE, "state requests")
        self.told = False  # it has been told it asks too often (and not answered since)
        self.queue: asyncio.Queue[str] = asyncio.Queue(limit)
        self.dropped = asyncio.Event()
        self.task: asyncio.Task | None = None

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._sender())

    def send(self, text: str) -> bool:
        """Queue a message; False if the connection is (now) dropped."""
        if self.dropped.is_set():
            return False
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            log.info("dropped a connection %s messages behind", self.queue.maxsize)
            self.stop()
            return False
        return True

    def stop(self) -> None:
        self.dropped.set()
        if self.task is not None:
            self.task.cancel()

    async def _sender(self) -> None:
        try:
            while True:
                await self._send(await self.queue.get())
        except asyncio.CancelledError:
            raise
        except Exception:  # the socket went away: the reading side notices too
            self.dropped.set()


class Buckets:
    """A token bucket per client: ``burst`` requests at once, then ``rate`` a second (by
    default for the expensive requests: hints and analyses)."""

    def __init__(self, burst: float = BURST, rate: float = REFILL,
                 what: str = "hints and analyses"):
        self.burst, self.rate, self.what = burst, rate, what
        self.left: dict[str, tuple[float, float]] = {}  # client -> (tokens, when)

    def take(self, client: str) -> None:
        """Use one token of ``client``'s; raises :class:`WebError` (429) if none is left."""
        now = time.monotonic()
        tokens, then = self.left.get(client, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens < 1:
            wait = (1 - tokens) / self.rate
            raise WebError(f"too many {self.what}: wait {wait:.0f} s (at most "
                           f"{self.burst:g} at once, then one every {1 / self.rate:g} s)",
                           "rate_limited", 429, retry_after=wait)
        self.left[client] = (tokens - 1, now)
        if len(self.left) > 10_000:  # forget the clients whose bucket is full again
            self.left = {k: v for k, v in self.left.items()
                         if v[0] + (now - v[1]) * self.rate < self.burst}


@dataclass
class Table:
    """One game in play: its state, its seats and its audience."""

    id: str
    state: State
    settings: dict
    clocks: list[float] | None = None
    log: list[tuple[str, str]] = field(default_factory=list)  # each action in words (en, ja)
    conns: list[Connection] = field(default_factory=list)
    claimed: set[int] = field(default_factory=set)
    clock_since: float = field(default_factory=time.monotonic)
    busy: bool = False  # a computer player is thinking
    timer: asyncio.TimerHandle | None = None
    #: Who made each move and the option as it was sent (to know a repeated submission).
    movers: list[tuple[int | None, str]] = field(default_factory=list)
    #: Held while a move is checked, applied, committed and announced: the one way in.
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: The named player of each seat that has one (:func:`ratings.public`).
    people: dict[int, dict] = field(default_factory=dict)

    @property
    def seats(self) -> list[dict]:
        return self.settings["seats"]

    def kind(self, seat: int) -> str:
        """Who plays a seat now: a person, or the computer (also once a clock has run out)."""
        s = self.seats[seat]
        return COMPUTER if s["kind"] == COMPUTER or s.get("flag_fell") else HUMAN

    def record(self) -> str:
        return records.dumps(self.state, meta={"server": "spaghetti serve", "game": self.id})

    def clock_left(self) -> list[float] | None:
        """Seconds left on each seat's clock right now (the seat to move's is running)."""
        if self.clocks is None:
            return None
        left = list(self.clocks)
        mover = self.state.to_move
        if mover is not None and self.kind(mover) == HUMAN:
            left[mover] = max(0.0, left[mover] - (time.monotonic() - self.clock_since))
        return left

    # ------------------------------------------------------------------ messages

    def status(self, lang: str) -> str:
        """What is being decided, in words (or the result once the game is over)."""
        s = self.state
        lang = lang_for(lang, s)  # the words of the game on the table
        if s.is_over:
            if s.winner is None:
                return t("draw", lang)
            return t(f"won.{s.reason}", lang, p=colour(s.winner, lang))
        if s.is_chance:
            return t("decide.coin", lang)
        mover = s.to_move
        assert mover is not None, "a seat decides unless the game is over or a coin flip is due"
        p = colour(mover, lang)
        d = s.deciding
        if d == "place":
            # stacking (the Nightmare notes, N12) lets a bit go on any card
            key = "decide.place_any" if s.game.option("stacking") else "decide.place"
            return t(key, lang, p=p, n=s.hand[mover])
        if d == "open":  # sequential open: the card just opened, not the cursor's
            card: int | None = s.opened - 1
        else:
            card = s.running_card if s.running_card is not None else s.cursor
        name = s.kinds[card].display_name(lang) if card is not None and s.kinds else "?"
        if d == "turn":
            return t("decide.turn", lang, p=p, card=name)
        return t(f"decide.{d}", lang, p=p, card=name)

    def message(self, seat: int | str, lang: str) -> dict:
        """The state message for one viewer: only what ``view(state, seat)`` shows, plus words
        (the status, the last moves, and, for the seat to move, what each option means)."""
        s = self.state
        v = view(s, seat)
        labels = {}
        if v["legal"]:
            labels = {option: option_label(s, option, lang) for option in v["legal"]}
            if s.deciding == "open" and "pass" in labels:  # not "do not run the command"
                words = OPEN_PASS.get(s.game.rules.vocabulary, OPEN_PASS["code"])
                labels["pass"] = words[lang == "ja"]
        # C9 manual: at a repeated position any player still in may declare, not only the
        # seat to move; such a seat gets the meaning of "declare" too (public: the tie-break).
        may_declare = isinstance(seat, int) and s.may_declare(seat)
        if may_declare and "declare" not in labels:
            labels["declare"] = option_label(s, "declare", lang)
        start = max(0, len(self.log) - LOG_SIZE)
        return {
            "type": "state",
            "game": self.id,
            "you": seat if seat != OBSERVER else None,
            "view": v,
            "labels": labels,
            "may_declare": may_declare,
            "status": self.status(lang),
            "log": [{"n": i + 1, "text": self.log[i][lang == "ja"]}
                    for i in range(start, len(self.log))],
            "seats": [self._seat(i, x) for i, x in enumerate(self.seats)],
            "rated": bool(self.settings.get("rated")),
            "rematch": self.settings.get("rematch"),
            # Public facts the view does not spell out, for drawing the table: the flag that
            # has the turn, and the first half of a pair (announced in the log when chosen).
            "turn_flag": list(s.turn_flag) if s.turn_flag else None,
            "selected": _selected(s),
            "clock": self.clock_left(),
            "thinking": self.busy,
        }

    def _seat(self, i: int, x: dict) -> dict:
        """Who sits at seat ``i``, for everyone: its player's name and rating (a person's, or
        the fixed one of a computer level)."""
        person = self.people.get(i)
        shown = (ratings.computer(x.get("difficulty", "easy")) if x["kind"] == COMPUTER
                 else person)
        return {"seat": i, "kind": self.kind(i), "difficulty": x.get("difficulty"),
                "claimed": i in self.claimed or x["kind"] == COMPUTER,
                "online": any(c.seat == i for c in self.conns),
                "flag_fell": bool(x.get("flag_fell")),
                "player": person["id"] if person else None,
                "name": person["name"] if person else None,
                "rating": shown["rating"] if shown else None,
                "provisional": shown["provisional"] if shown else None}

    def broadcast(self) -> None:
        """Queue for every connection its own view (one message per kind of viewer). Never
        waits: a connection that is too far behind is dropped instead."""
        cache: dict[tuple, str] = {}
        for conn in list(self.conns):
            key = (conn.seat, conn.lang)
            if key not in cache:
                cache[key] = json.dumps(self.message(conn.seat, conn.lang), ensure_ascii=False)
            conn.send(cache[key])

    def send_state(self, conn: Connection) -> None:
        conn.send(json.dumps(self.message(conn.seat, conn.lang), ensure_ascii=False))


def _selected(state: State) -> dict | None:
    sel = state.selection
    if sel is None:
        return None
    return {"flag": list(sel)} if isinstance(sel, tuple) else {"card": sel}


class Hall:
    """All tables: creating, finding (from memory or the database), playing, computer players.

    ``autoplay_delay``: seconds a computer or forced move waits before it is played, so that
    people can follow the game (0 in tests and benchmarks). ``seed``: where the server's draws
    (deals, coin flips, the computer players' seeds) come from; None, the system's randomness
    (tests hand a number, so that a game over the wire plays the same every time).
    """

    def __init__(self, store: Store, executor: Executor | None = None,
                 autoplay_delay: float = 0.4, workers: int | None = None,
                 seed: int | None = None):
        self.store = store
        self.rng = random.SystemRandom() if seed is None else random.Random(seed)
        self.workers = workers or max(1, (os.cpu_count() or 2) - 1)
        self.executor: Executor | None = executor or self._pool()
        self.autoplay_delay = autoplay_delay
        self.tables: dict[str, Table] = {}
        self.tasks: set[asyncio.Task] = set()
        self.buckets = Buckets()  # hints and analyses per client
        #: Called once a move ends a game (after it is stored, before it is announced).
        self.on_over: Callable[[Table], None] | None = None

    def _pool(self) -> Executor:
        # Processes, not threads: a search holds the interpreter for seconds, and a thread would
        # starve the event loop (and every other game's moves) meanwhile. "spawn" because the
        # server process has threads, which fork does not copy safely.
        return ProcessPoolExecutor(max_workers=self.workers,
                                   mp_context=multiprocessing.get_context("spawn"))

    async def _in_worker(self, fn, *args):
        """Run ``fn(*args)`` in a worker process: again in a fresh pool if a worker died, and in
        a thread if processes cannot be started at all (then the server is slower while a
        computer thinks, but the game goes on)."""
        loop = asyncio.get_running_loop()
        if self.executor is not None:
            try:
                return await loop.run_in_executor(self.executor, fn, *args)
            except BrokenProcessPool:
                try:
                    self.executor = self._pool()
                    return await loop.run_in_executor(self.executor, fn, *args)
                except (BrokenProcessPool, OSError, RuntimeError) as exc:
                    log.warning("computer players think in a thread: no worker process (%s)", exc)
                    self.executor = None
            except (OSError, RuntimeError) as exc:
                log.warning("computer players think in a thread: no worker process (%s)", exc)
                self.executor = None
        return await loop.run_in_executor(None, fn, *args)

    # ------------------------------------------------------------------ create

    def create(self, body: dict) -> dict:
        """Create a game from a request body; returns its id, the creator's seat token, and the
        invite codes of the other human seats.

        ``body``: ``variant`` (one of ``VARIANTS``), ``level`` (1-3), ``players`` (2-5),
        ``options`` (see ``OPTIONS``), ``seats`` (one per player: ``{"kind": "human"}`` or
        ``{"kind": "computer", "difficulty": "easy"}``), ``you`` (the creator's seat, default the
        first human seat, or none when every seat is a computer), ``clock`` (seconds per player,
        or null), ``seed`` or ``program``, ``autoplay`` (play forced moves by themselves; default
        true), ``player`` (the creator's player token: names the creator's seat), ``rated`` (the
        result moves the ratings, :mod:`.lobby`), ``lobby`` (listed for anyone to take its free
        seats).
        """
        try:
            req = CreateGame.model_validate(body)
        except ValidationError as exc:
            raise WebError(explain(exc, ", ".join(CreateGame.model_fields))) from None
        level, players = req.level, req.players
        seed, program = req.seed, req.program
        if seed is None and program is None:
            seed = self.rng.randrange(1_000_000)
        options: dict = req.options  # the values are checked by the engine, per game
        try:
            game = Game(level=level, players=players, options=options, variant=req.variant)
            state = game.new_state(program, seed)
        except SetupError as exc:
            raise WebError(str(exc)) from None
        seats = req.seats or [SeatIn(kind="human")] + [SeatIn(kind="computer")] * (players - 1)
        if len(seats) != players:
            raise WebError(f"seats must list {players} seats, one per player")
        clean = [{"kind": COMPUTER, "difficulty": seat.difficulty} if seat.kind == COMPUTER
                 else {"kind": HUMAN} for seat in seats]
        humans = [i for i, s in enumerate(clean) if s["kind"] == HUMAN]
        you = req.you if "you" in req.model_fields_set else (humans[0] if humans else None)
        if you is not None and you not in humans:
            raise WebError(f"you must be a human seat: one of {humans}" if humans
                           else "every seat is a computer: 'you' must be null")
        player = self.player_of(req.player) if req.player is not None else None
        if req.rated and (req.seed is not None or program is not None):
            raise WebError("a rated game is dealt at random: leave seed and program out")
        if (req.rated or req.lobby) and (player is None or you is None):
            raise WebError("a rated game or a game of the lobby needs your seat ('you') and "
                           "your player token ('player')", "no_player", 403)
        if req.lobby and len(humans) < 2:
            raise WebError("a game of the lobby waits for people: leave a seat to a person")
        clock, autoplay = req.clock, req.autoplay
        settings = {"seats": clean, "clock": clock, "autoplay": autoplay, "rated": req.rated}
        clocks = [float(clock)] * players if clock else None

        game_id = secrets.token_urlsafe(8)
        invites = {i: secrets.token_urlsafe(12) for i in humans}
        self.store.create(game_id, settings, records.dumps(state), clocks, invites)
        token = None
        if you is not None:
            token = new_token()
            self.store.claim(game_id, invites.pop(you), token)
            if player is not None:
                self.store.bind(game_id, you, player["id"])
        if req.lobby:
            self.store.list_game(game_id, req.variant, level, players)
        table = Table(game_id, state, settings, clocks, claimed=self.store.claimed(game_id),
                      people=self.people(game_id))
        self.tables[game_id] = table
        self.kick(table)
        return {"id": game_id, "you": you, "token": token,
                "invites": {str(seat): code for seat, code in invites.items()}}

    def claim(self, game_id: str, invite: str) -> dict:
        """Use an invite code: the seat it opens and that seat's secret token (once)."""
        table = self.get(game_id)
        token = new_token()
        seat = self.store.claim(game_id, invite, token)
        if seat is None:
            raise WebError("this invite is not valid for this game", "bad_invite", 403)
        if seat < 0:
            raise WebError("this seat has already been taken: an invite can be used once",
                           "taken", 409)
        table.claimed.add(seat)
        return {"id": game_id, "seat": seat, "token": token}

    # ------------------------------------------------------------------ find

    def get(self, game_id: str) -> Table:
        """The table of a game, loaded from the database if it is not in memory."""
        table = self.tables.get(game_id)
        if table is not None:
            return table
        row = self.store.load(game_id) if isinstance(game_id, str) else None
        if row is None:
            raise WebError("no such game", "not_found", 404)
        settings, text, clocks = row
        state = records.loads(text)
        first, actions = records.start(json.loads(text))
        log, movers = [], []
        for option in actions:
            log.append((describe(first, option, "en"), describe(first, option, "ja")))
            movers.append((first.to_move, option))
            first.apply(option)
        table = Table(game_id, state, settings, clocks, log, claimed=self.store.claimed(game_id),
                      movers=movers, people=self.people(game_id))
        self.tables[game_id] = table
        self.kick(table)
        return table

    def people(self, game_id: str) -> dict[int, dict]:
        """The named players of a game's seats, as everyone may see them."""
        return {seat: ratings.public(row)
                for seat, row in self.store.seat_players(game_id).items()}

    def player_of(self, token: str) -> dict:
        """The player a player token stands for; :class:`WebError` (403) for none."""
        player = self.store.player_by_token(token)
        if player is None:
            raise WebError("this player token is not known here: choose a name again",
                           "bad_player", 403)
        return player

    def leave(self, table: Table, conn: Connection) -> None:
        """Forget a closed connection; a finished game nobody watches leaves memory (it is
        loaded again from the database if someone comes back)."""
        if conn in table.conns:
            table.conns.remove(conn)
        if not table.conns and table.state.is_over and not table.busy:
            self.tables.pop(table.id, None)

    def viewer(self, table: Table, token: str | None) -> int | str:
        """The seat a token holds, or the observer for no token."""
        if not token:
            return OBSERVER
        seat = self.store.seat_of(table.id, token)
        if seat is None:
            raise WebError("this seat token is not valid for this game", "bad_token", 403)
        return seat

    # ------------------------------------------------------------------ play

    async def play(self, table: Table, seat: int | str, option: str, moves: int,
                   conn: Connection | None = None) -> None:
        """Play ``option`` for ``seat`` in the position after ``moves`` moves: checked,
        committed, then broadcast.

        Raises :class:`WebError` (and changes nothing) for a spectator, a seat that is not to
        move, a stale move number, or an option the engine refuses. The same move sent again
        by the same seat (a second tab, a double click) is played once: the repeat only gets
        the state back (on ``conn``).

        ``declare`` (C9 ``manual``) may come from any seat still in the game while the position
        is a repeat, whoever is to move: the engine's ``State.declare(seat)`` decides.
        """
        async with table.lock:
            state = table.state
            if not isinstance(seat, int):
                raise WebError("spectators cannot play", "spectator", 403)
            option = option.strip()
            if moves != len(state.history):
                if moves < len(table.movers) and table.movers[moves] == (seat, option):
                    if conn is not None:  # already played: this is the same move again
                        table.send_state(conn)
                    return
                raise WebError(f"that move was for move {moves}; the game is at move "
                               f"{len(state.history)}", "stale", 409)
            if state.is_over:
                raise WebError("the game is over", "over", 409)
            if table.kind(seat) != HUMAN:
                raise WebError("the computer plays this seat now", "not_your_turn", 403)
            if option == "declare" and state.to_move != seat:
                self.commit(table, "declare", by=seat)
            elif state.to_move != seat:
                mover = state.to_move
                who = "the coin's" if state.is_chance or mover is None else f"{colour(mover)}'s"
                raise WebError(f"it is {who} turn, not yours", "not_your_turn", 403)
            else:
                self.commit(table, option)
            table.broadcast()
            self.kick(table)

    def commit(self, table: Table, option: str, by: int | None = None) -> None:
        """Apply one option and store the record; raises :class:`WebError` if it is refused.
        ``by``: a seat declaring a stalemate (``option`` is ``declare``) that is not to move."""
        state = table.state
        before = (state.copy(), list(table.clocks) if table.clocks else None, table.clock_since)
        mover = state.to_move
        try:
            if by is None:
                state.apply(option)
            else:
                state.declare(by)
        except (IllegalOptionError, NotationError) as exc:
            raise WebError(str(exc), "illegal") from None
        try:
            words = (describe(before[0], option, "en", by), describe(before[0], option, "ja", by))
        except Exception:  # the words are a courtesy: a fault in them must not stop the game
            log.exception("no words for %r in game %s", option, table.id)
            words = (option, option)
        now = time.monotonic()
        if table.clocks is not None and mover is not None and table.kind(mover) == HUMAN:
            table.clocks[mover] = max(0.0, table.clocks[mover] - (now - table.clock_since))
        table.clock_since = now
        table.log.append(words)
        table.movers.append((by if by is not None else mover, option.strip()))
        try:
            self.store.save(table.id, table.record(), table.clocks)
        except sqlite3.Error as exc:  # not stored, so not played: back to the position before
            table.state, table.clocks, table.clock_since = before
            table.log.pop()
            table.movers.pop()
            log.error("game %s: could not store a move: %s", table.id, exc)
            raise WebError("the server could not save the game: the move was not played; "
                           "try again", "storage", 503) from None
        if state.is_over and self.on_over is not None:
            try:
                self.on_over(table)
            except Exception:  # the ratings are stored apart: a fault there ends no game
                log.exception("game %s: could not store its result", table.id)

    def kick(self, table: Table) -> None:
        """Start whatever should happen by itself next: a computer move, a forced move, or the
        clock's flag falling."""
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        state = table.state
        if state.is_over or table.busy:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # not serving yet: the first connection or request will kick it
        mover = state.to_move  # None: the coin flip (the game is not over)
        forced = table.settings.get("autoplay", True) and len(state.legal_actions()) == 1
        if mover is None or table.kind(mover) == COMPUTER or forced:
            table.busy = True
            task = loop.create_task(self._autoplay(table))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        elif (clocks := table.clock_left()) is not None:
            left = clocks[mover]
            table.timer = loop.call_later(left + 0.05, self._flag_fall, table, len(state.history))

    def _flag_fall(self, table: Table, moves: int) -> None:
        """The clock of the seat to move ran out: from now on the computer plays that seat.

        (The rules know no loss on time, and every move of the record must be a move of the
        game; so the seat goes on, played at the 'random' level.)"""
        state = table.state
        if state.is_over or len(state.history) != moves:
            return
        mover = state.to_move
        # The timer runs only on the clock of a seat to move, and the position is unchanged.
        assert mover is not None and table.clocks is not None
        table.seats[mover].update(flag_fell=True, difficulty="random")
        table.clocks[mover] = 0.0
        self.store.save_settings(table.id, table.settings)
        self.store.save(table.id, table.record(), table.clocks)
        table.broadcast()
        self.kick(table)

    async def _autoplay(self, table: Table) -> None:
        """Play the computer's (or a forced) move, thinking in a worker process. The move is
        chosen outside the table's lock (a search takes seconds) and played under it, only if
        the position is still the one it was chosen in and the game is not over."""
        played = False
        try:
            chosen = await self._choose(table)
            if chosen is not None:
                option, moves = chosen
                async with table.lock:
                    if len(table.state.history) == moves and not table.state.is_over:
                        self.commit(table, option)
                        played = True
        except asyncio.CancelledError:
            raise
        except Exception:  # a bug must not take the server down; the next connection retries
            log.exception("the computer's move failed in game %s", table.id)
        finally:
            table.busy = False
        if played:
            table.broadcast()
        self.kick(table)

    async def _choose(self, table: Table) -> tuple[str, int] | None:
        """The option to play by itself and the move number it is for, or None if the position
        changed meanwhile (a forced move the player sent himself, a declared stalemate, the end
        of the game): then nobody is asked to choose."""
        state = table.state
        moves = len(state.history)
        if self.autoplay_delay:
            await asyncio.sleep(self.autoplay_delay)
        if len(state.history) != moves or state.is_over:
            return None
        mover = state.to_move
        legal = state.legal()
        if state.is_chance or mover is None:  # the coin flip: the server draws it
            option = state.sample_chance(self.rng)
        elif len(legal) == 1 and (table.settings.get("autoplay", True)
                                  or table.kind(mover) == COMPUTER):
            option = legal[0]
        elif table.kind(mover) != COMPUTER:
            return None  # a person's choice (the clock is what plays for a person)
        else:
            level = table.seats[mover].get("difficulty", "easy")
            seed = self.rng.randrange(1 << 30)
            if level == "random":  # no thinking to speak of: no need for a worker
                option = make_player(level, seed).choose(state.copy())
            else:
                table.broadcast()  # show "thinking"
                option = await self._in_worker(think, records.dumps(state), level, seed)
        return option, moves

    async def hint(self, table: Table, seat: int | str, lang: str,
                   client: str | None = None) -> dict:
        """The computer's analysis of the options of the seat to move, for that seat only.
        ``client``: who asks, for the rate limit (:attr:`buckets`)."""
        state = table.state
        if seat != state.to_move or not isinstance(seat, int):
            raise WebError("a hint is only for the seat to move", "not_your_turn", 403)
        if client is not None:
            self.buckets.take(client)
        snapshot = state.copy()
        rows = await self._in_worker(analyse, records.dumps(snapshot), HINT_ITERATIONS,
                                     self.rng.randrange(1 << 30))
        return {"type": "hint", "moves": len(snapshot.history),
                "options": [{"option": o, "label": option_label(snapshot, o, lang),
                             "visits": v, "chance": round(c, 3)} for o, v, c in rows]}

    async def analyse(self, data, upto: int | None, lang: str) -> dict:
        """The computer's analysis of the position after ``upto`` actions of a record (any
        record: the one who sends it already knows everything in it)."""
        state = records.replay(data, upto)
        if state.is_over:
            return {"to_move": None, "moves": len(state.history), "options": []}
        rows = await self._in_worker(analyse, records.dumps(state), HINT_ITERATIONS,
                                     self.rng.randrange(1 << 30))
        return {"to_move": state.to_move, "moves": len(state.history),
                "options": [{"option": o, "label": option_label(state, o, lang), "visits": v,
                             "chance": round(c, 3)} for o, v, c in rows]}

    async def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        if self.executor is None:
            return
        self.executor.shutdown(wait=False, cancel_futures=True)
        # A search still running would hold the exit up for seconds: its answer is not needed.
        for proc in list((getattr(self.executor, "_processes", None) or {}).values()):
            proc.terminate()


def think(record: str, level: str, seed: int) -> str:
    """In a worker process: the option a computer player of ``level`` chooses at the end of a
    record. (The state travels as its record: the engine rebuilds it exactly by replaying.)"""
    return make_player(level, seed).choose(records.loads(record))


def analyse(record: str, iterations: int, seed: int) -> list:
    """In a worker process: MCTS's analysis of the options at the end of a record."""
    searcher = MCTSPlayer(iterations=iterations, seed=seed, learned=True)
    return searcher.analyse(records.loads(record))


def replay_frames(data, lang: str) -> dict:
    """Every position of a record (the full view, nothing hidden) with each move in words."""
    if lang not in LANGS:
        lang = "en"
    state, actions = records.start(data)
    frames = [{"view": view(state), "text": ""}]
    for i, option in enumerate(actions):
        try:
            text = describe(state, option, lang)
            state.apply(option)
        except (IllegalOptionError, NotationError) as exc:
            raise WebError(f"actions[{i}] {option!r}: {exc}") from None
        frames.append({"view": view(state), "text": text})
    return {"frames": frames, "status": Table("", state, {"seats": []}).status(lang),
            "record": records.record_of(state)}


__all__ = ["COMPUTER", "HUMAN", "Buckets", "Connection", "Hall", "Table", "WebError", "analyse",
           "replay_frames", "think"]
