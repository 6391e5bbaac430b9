"""The web application (Starlette): pages, a small JSON API and the WebSocket of each game.

Routes (the protocol is documented in docs/web.md):

- ``GET /``, ``GET /g/{id}``, ``GET /replay``: the single page (static files, no build step);
- ``GET /api/meta``: cards, options, difficulties, colours, for the page;
- ``GET /api/openapi.json``: the OpenAPI description of these HTTP routes (:mod:`.openapi`);
- ``POST /api/games``: create a game; ``POST /api/games/{id}/claim``: take a seat by invite;
- ``GET /api/games/{id}``: public summary; ``GET /api/games/{id}/record``,
  ``GET /api/games/{id}/replay``: the record and every position, once the game is over;
- ``POST /api/replay``: the positions of any record sent in the body;
- ``POST /api/analyse``: the computer's analysis of one position of a record;
- ``WS /ws/{id}?token=...&lang=...``: live play (a seat with its token; without, a spectator);
- the lobby (:mod:`.lobby`): ``POST /api/players``, ``POST /api/players/me``,
  ``GET /api/players/{id}``: players, names, ratings, finished games; ``GET /api/lobby``: the
  games waiting for people and the best players; ``POST /api/lobby/play``: play now;
  ``POST /api/games/{id}/join``, ``/rematch``, ``/player``: take a free seat, the rematch,
  name a seat's player.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
from pathlib import Path

from pydantic import BaseModel, ValidationError

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from .. import records
from ..ai import LEVELS
from ..core.cards import EXTRA_CARDS, SPAGHETTI_CODE_CARDS
from ..core.game import OPTIONS
from ..core.variants import VARIANTS
from ..errors import RecordError
from ..i18n import COLOURS, LANGS, t
from .store import Store
from .lobby import Lobby
from .schemas import (MESSAGE, Analyse, Claim, Join, Lang, Me, NewPlayer, Play, Rematch, Seek,
                      Sit, cap, explain)
from .openapi import description
from .puzzles import puzzle_answer, puzzle_view
from .tables import Connection, Hall, WebError, replay_frames
from .tips import TIPS

log = logging.getLogger("spaghetti.web")
STATIC = Path(__file__).parent / "static"
MAX_BODY = 1_000_000  # bytes: a record of a very long game is still far below this
MAX_MESSAGE = 65_536  # characters: the longest message a client needs is far below this


def _error(exc: WebError) -> JSONResponse:
    headers = {"Retry-After": str(max(1, round(exc.retry_after)))} if exc.retry_after else None
    return JSONResponse({"error": str(exc), "code": exc.code}, status_code=exc.status,
                        headers=headers)


def _ws_error(exc: WebError) -> str:
    return json.dumps({"type": "error", "code": exc.code, "message": str(exc)},
                      ensure_ascii=False)


def _client(conn) -> str:
    """Who is asking, for the rate limits: the address the request came from."""
    return conn.client.host if conn.client else "?"


def _parse(model: type[BaseModel], data) -> BaseModel:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise WebError(explain(exc, ", ".join(model.model_fields))) from None


DEPTH = records.MAX_DEPTH + 1  # a record, wrapped in a request ({"record": ...})


#: Digits a whole number may have: far more than any field needs, and below Python's own limit
#: on turning text into a number (past which the decoder fails with no word for the client).
MAX_DIGITS = 1000


def _number_refused(text: str) -> WebError:
    return WebError(f"the number {cap(text, 40)} is not allowed: send a finite number of at most "
                    f"{MAX_DIGITS} digits", "malformed")


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _number_refused(text)
    return int(text)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e400: a float too large is infinite
        raise _number_refused(text)
    return value


def _constant(text: str):  # NaN, Infinity, -Infinity: Python's decoder takes them, JSON has none
    raise _number_refused(text)


def _decode(raw: str | bytes, not_json: str = "not JSON"):
    """A request's or message's JSON. Lists and objects nested more than :data:`DEPTH` deep are
    refused before anything reads them (no record is that deep), and so are numbers that are not
    finite or have more than :data:`MAX_DIGITS` digits."""
    try:
        data = json.loads(raw, parse_int=_whole, parse_float=_finite, parse_constant=_constant)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise WebError(f"{not_json}: {exc}", "malformed") from None
    except RecursionError:  # thousands of brackets: deeper than the decoder goes
        data = None
    else:
        if not records.too_deep(data, DEPTH):
            return data
    raise WebError(f"lists and objects nested more than {DEPTH} deep: too deep to read",
                   "malformed")


async def _json_body(request: Request):
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise WebError("the request is too large", "too_large", 413)
    return _decode(raw or b"{}")


def _lang(value: str | None) -> str:
    return value if value in LANGS else "en"


def meta() -> dict:
    """What the page needs to draw cards and the new-game form, in both languages."""
    cards = {}
    every = SPAGHETTI_CODE_CARDS + tuple(EXTRA_CARDS.values()) + tuple(
        c for v in VARIANTS.values() for c in v.all_cards() + v.instant)
    for card in every:  # each game's cards, its instant cards too (the first of a name wins)
        if card.name in cards:
            continue
        cards[card.name] = {"name": {"en": card.name, "ja": card.name_ja},
                            "text": {"en": card.text, "ja": card.text_ja},
                            "level": card.level, "params": list(card.params),
                            "tips": TIPS.get(card.name)}
    games = {name: {"title": {"en": v.title, "ja": v.title_ja}, "vocabulary": v.vocabulary,
                    "options": list(v.options), "levels": list(v.levels),
                    "players": list(v.players)} for name, v in VARIANTS.items()}
    return {
        "cards": cards,
        "variants": list(VARIANTS),
        "games": games,
        "options": {name: option.describe() for name, option in OPTIONS.items()},
        "extras": {option: card.name for option, card in EXTRA_CARDS.items()},
        "difficulties": list(LEVELS),
        "difficulty_words": {level: {lang: t(f"ai.{level}", lang) for lang in LANGS}
                             for level in LEVELS},
        "colours": [{"en": en, "ja": ja, "mark": m} for en, ja, m, _ in COLOURS],
    }


def create_app(db_path: str = "spaghetti.db", autoplay_delay: float = 0.4,
               workers: int | None = None, seed: int | None = None) -> Starlette:
    """The application serving the games stored in the SQLite file ``db_path``.

    ``autoplay_delay``: seconds before a computer or forced move is played (so people can follow);
    ``workers``: processes for the computer players (default: the cores less one, at least one);
    ``seed``: the server's draws from a fixed start (tests), else from the system's randomness.
    """
    store = Store(db_path)
    hall = Hall(store, autoplay_delay=autoplay_delay, workers=workers, seed=seed)
    lobby = Lobby(hall, store)

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def api_meta(request: Request) -> Response:
        return JSONResponse(meta())

    async def api_openapi(request: Request) -> Response:
        return JSONResponse(description())

    async def api_create(request: Request) -> Response:
        try:
            return JSONResponse(hall.create(await _json_body(request)), status_code=201)
        except WebError as exc:
            return _error(exc)

    async def api_claim(request: Request) -> Response:
        try:
            claim = _parse(Claim, await _json_body(request))
            assert isinstance(claim, Claim)
            return JSONResponse(hall.claim(request.path_params["id"], claim.invite))
        except WebError as exc:
            return _error(exc)

    async def api_game(request: Request) -> Response:
        try:
            table = hall.get(request.path_params["id"])
        except WebError as exc:
            return _error(exc)
        s = table.state
        return JSONResponse({"id": table.id, "level": s.game.level, "players": s.players,
                             "options": dict(s.game.options), "moves": len(s.history),
                             "over": s.is_over, "winner": s.winner,
                             "clock": table.settings["clock"],
                             "seats": table.message("observer", "en")["seats"]})

    def _finished(request: Request):
        table = hall.get(request.path_params["id"])
        if not table.state.is_over:
            raise WebError("the record is available once the game is over", "not_over", 409)
        return table

    async def api_record(request: Request) -> Response:
        try:
            table = _finished(request)
        except WebError as exc:
            return _error(exc)
        return Response(table.record(), media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="spaghetti-{table.id}.json"'})

    async def api_game_replay(request: Request) -> Response:
        try:
            table = _finished(request)
            data = json.loads(table.record())
            return JSONResponse(replay_frames(data, _lang(request.query_params.get("lang"))))
        except WebError as exc:
            return _error(exc)

    async def api_replay(request: Request) -> Response:
        try:
            data = await _json_body(request)
            return JSONResponse(replay_frames(data, _lang(request.query_params.get("lang"))))
        except WebError as exc:
            return _error(exc)
        except RecordError as exc:
            return JSONResponse({"error": str(exc), "code": "bad_record"}, status_code=400)

    async def api_puzzle(request: Request) -> Response:
        """A proven puzzle of the built-in set: ``?n=`` its number (default: the puzzle of the
        day), as a view of its position with its options."""
        lang = _lang(request.query_params.get("lang"))
        try:
            return JSONResponse(puzzle_view(request.query_params.get("n"), lang))
        except WebError as exc:
            return _error(exc)

    async def api_puzzle_answer(request: Request) -> Response:
        """``{"n": number, "option": "..."}``: right or not, with the winning line or the
        refutation."""
        try:
            data = await _json_body(request)
            return JSONResponse(puzzle_answer(data, _lang(request.query_params.get("lang"))))
        except WebError as exc:
            return _error(exc)

    async def api_analyse(request: Request) -> Response:
        """The computer's analysis (MCTS) of one position of a record: ``{"record": ...,
        "upto": n}``, the position after the first n actions."""
        lang = _lang(request.query_params.get("lang"))
        try:
            hall.buckets.take(_client(request))
            body = await _json_body(request)
            if not isinstance(body, dict) or "record" not in body:
                raise WebError("send {\"record\": a record, \"upto\": a move number}")
            req = _parse(Analyse, body)
            assert isinstance(req, Analyse)
            return JSONResponse(await hall.analyse(req.record, req.upto, lang))
        except WebError as exc:
            return _error(exc)
        except RecordError as exc:
            return JSONResponse({"error": str(exc), "code": "bad_record"}, status_code=400)

    def lobby_route(method, model: type[BaseModel] | None, status: int = 200):
        """A route of the lobby: the body checked against ``model`` (none for a GET), then
        ``method(body, request)``; a refusal is the usual JSON error."""
        async def endpoint(request: Request) -> Response:
            try:
                body = _parse(model, await _json_body(request)) if model else None
                return JSONResponse(method(body, request), status_code=status)
            except WebError as exc:
                return _error(exc)
        return endpoint

    lobby_routes = [
        Route("/api/players", lobby_route(
            lambda body, r: lobby.new_player(body, _client(r)), NewPlayer, 201), methods=["POST"]),
        Route("/api/players/me", lobby_route(lambda body, r: lobby.me(body), Me),
              methods=["POST"]),
        Route("/api/players/{pid}", lobby_route(
            lambda body, r: lobby.profile(r.path_params["pid"]), None)),
        Route("/api/lobby", lobby_route(lambda body, r: {"open": lobby.open_games(),
                                                         "best": lobby.best()}, None)),
        Route("/api/lobby/play", lobby_route(lambda body, r: lobby.play_now(body), Seek),
              methods=["POST"]),
        Route("/api/games/{id}/join", lobby_route(
            lambda body, r: lobby.join(r.path_params["id"], body), Join), methods=["POST"]),
        Route("/api/games/{id}/rematch", lobby_route(
            lambda body, r: lobby.rematch(r.path_params["id"], body), Rematch), methods=["POST"]),
        Route("/api/games/{id}/player", lobby_route(
            lambda body, r: lobby.sit(r.path_params["id"], body), Sit), methods=["POST"]),
    ]

    async def ws_game(ws: WebSocket) -> None:
        await ws.accept()
        try:
            table = hall.get(ws.path_params["id"])
            seat = hall.viewer(table, ws.query_params.get("token"))
        except WebError as exc:
            await ws.send_text(_ws_error(exc))
            await ws.close(code=4000 + exc.status % 1000)
            return
        conn = Connection(ws.send_text, seat, _lang(ws.query_params.get("lang")), _client(ws))
        conn.start()
        table.conns.append(conn)
        reader = asyncio.ensure_future(_read(ws, table, conn))
        dropped = asyncio.ensure_future(conn.dropped.wait())
        try:
            table.broadcast()  # everyone sees who is online; the newcomer gets the state
            hall.kick(table)  # a game loaded after a restart resumes its computer players
            await asyncio.wait({reader, dropped}, return_when=asyncio.FIRST_COMPLETED)
            if reader.done() and not reader.cancelled() and reader.exception() is not None:
                log.error("game %s: a connection failed", table.id, exc_info=reader.exception())
        finally:
            reader.cancel()
            dropped.cancel()
            was_dropped = conn.dropped.is_set()
            conn.stop()
            hall.leave(table, conn)
            table.broadcast()
            if was_dropped:  # a client too far behind: close (if the socket takes it at all)
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(ws.close(code=1013, reason="too far behind"), 1.0)

    async def _read(ws: WebSocket, table, conn: Connection) -> None:
        """The messages of one client, each answered in turn, until it leaves."""
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if text is None:
                conn.send(_ws_error(WebError(
                    "binary frames are not understood: send JSON text, e.g. {\"type\": "
                    "\"ping\"}", "malformed")))
                continue
            await _handle(table, conn, text)
            await asyncio.sleep(0)  # let this connection's sender (and everyone) run between

    def _allowed(conn: Connection) -> bool:
        """May this connection have the whole state again now? Beyond its allowance the first
        request gets a ``rate_limited`` error, and the rest nothing until the allowance is back
        (a client asking without reading must not cost an answer each)."""
        try:
            conn.asks.take("")
        except WebError:
            if conn.told:
                return False
            conn.told = True
            raise
        conn.told = False
        return True

    async def _handle(table, conn: Connection, text: str) -> None:
        """One message from a client. A bad one gets an error back and changes nothing."""
        try:
            if len(text) > MAX_MESSAGE:
                raise WebError(f"a message is at most {MAX_MESSAGE} characters", "too_large")
            data = _decode(text, "a message must be JSON, e.g. {\"type\": \"play\", "
                                 "\"option\": \"run\", \"moves\": 3}")
            try:
                msg = MESSAGE.validate_python(data)
            except ValidationError as exc:
                raise WebError(explain(exc, tagged=True), "malformed") from None
            if isinstance(msg, Play):
                await hall.play(table, conn.seat, msg.option, msg.moves, conn)
            elif isinstance(msg, Lang):
                if _allowed(conn):
                    conn.lang = msg.lang
                    table.send_state(conn)
            elif msg.type == "state":
                if _allowed(conn):
                    table.send_state(conn)
            elif msg.type == "hint":
                conn.send(json.dumps(await hall.hint(table, conn.seat, conn.lang, conn.client),
                                     ensure_ascii=False))
            else:
                conn.send(json.dumps({"type": "pong"}))
        except WebError as exc:
            conn.send(_ws_error(exc))

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        await hall.close()
        store.close()

    routes = [
        Route("/", page),
        Route("/g/{id}", page),
        Route("/replay", page),
        Route("/puzzle", page),
        Route("/api/puzzle", api_puzzle),
        Route("/api/puzzle/answer", api_puzzle_answer, methods=["POST"]),
        Route("/api/meta", api_meta),
        Route("/api/openapi.json", api_openapi),
        Route("/api/games", api_create, methods=["POST"]),
        Route("/api/games/{id}", api_game),
        Route("/api/games/{id}/claim", api_claim, methods=["POST"]),
        Route("/api/games/{id}/record", api_record),
        Route("/api/games/{id}/replay", api_game_replay),
        Route("/api/replay", api_replay, methods=["POST"]),
        Route("/api/analyse", api_analyse, methods=["POST"]),
        *lobby_routes,
        WebSocketRoute("/ws/{id}", ws_game),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hall = hall
    return app
