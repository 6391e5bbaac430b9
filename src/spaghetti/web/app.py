"""The web application (Starlette): pages, a small JSON API and the WebSocket of each game.

Routes (the protocol is documented in docs/web.md):

- ``GET /``, ``GET /g/{id}``, ``GET /replay``: the single page (static files, no build step);
- ``GET /api/meta``: cards, options, difficulties, colours, for the page;
- ``POST /api/games``: create a game; ``POST /api/games/{id}/claim``: take a seat by invite;
- ``GET /api/games/{id}``: public summary; ``GET /api/games/{id}/record``,
  ``GET /api/games/{id}/replay``: the record and every position, once the game is over;
- ``POST /api/replay``: the positions of any record sent in the body;
- ``POST /api/analyse``: the computer's analysis of one position of a record;
- ``WS /ws/{id}?token=...&lang=...``: live play (a seat with its token; without, a spectator).
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import records
from ..ai import LEVELS
from ..core.cards import EXTRA_CARDS, SPAGHETTI_CODE_CARDS
from ..core.game import OPTIONS
from ..core.variants import VARIANTS
from ..errors import RecordError
from ..i18n import COLOURS, LANGS
from .store import Store
from .tables import Connection, Hall, WebError, replay_frames

STATIC = Path(__file__).parent / "static"
MAX_BODY = 1_000_000  # bytes: a record of a very long game is still far below this


def _error(exc: WebError) -> JSONResponse:
    return JSONResponse({"error": str(exc), "code": exc.code}, status_code=exc.status)


DEPTH = records.MAX_DEPTH + 1  # a record, wrapped in a request ({"record": ...})


def _decode(raw: str | bytes, not_json: str = "not JSON"):
    """A request's or message's JSON. Lists and objects nested more than :data:`DEPTH` deep are
    refused before anything reads them (no record is that deep)."""
    try:
        data = json.loads(raw)
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
    for card in SPAGHETTI_CODE_CARDS + tuple(EXTRA_CARDS.values()):
        cards[card.name] = {"name": {"en": card.name, "ja": card.name_ja},
                            "text": {"en": card.text, "ja": card.text_ja},
                            "level": card.level, "params": list(card.params)}
    games = {name: {"title": {"en": v.title, "ja": v.title_ja}, "vocabulary": v.vocabulary,
                    "options": list(v.options), "levels": list(v.levels),
                    "players": list(v.players)} for name, v in VARIANTS.items()}
    return {
        "cards": cards,
        "variants": list(VARIANTS),
        "games": games,
        "options": {name: list(values) for name, values in OPTIONS.items()},
        "extras": {option: card.name for option, card in EXTRA_CARDS.items()},
        "difficulties": list(LEVELS),
        "colours": [{"en": en, "ja": ja, "mark": m} for en, ja, m, _ in COLOURS],
    }


def create_app(db_path: str = "spaghetti.db", autoplay_delay: float = 0.4,
               workers: int | None = None) -> Starlette:
    """The application serving the games stored in the SQLite file ``db_path``.

    ``autoplay_delay``: seconds before a computer or forced move is played (so people can follow);
    ``workers``: processes for the computer players (default: the cores less one, at least one).
    """
    store = Store(db_path)
    hall = Hall(store, autoplay_delay=autoplay_delay, workers=workers)

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def api_meta(request: Request) -> Response:
        return JSONResponse(meta())

    async def api_create(request: Request) -> Response:
        try:
            return JSONResponse(hall.create(await _json_body(request)), status_code=201)
        except WebError as exc:
            return _error(exc)

    async def api_claim(request: Request) -> Response:
        try:
            body = await _json_body(request)
            invite = body.get("invite") if isinstance(body, dict) else None
            return JSONResponse(hall.claim(request.path_params["id"], invite))
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
                             "over": s.is_over, "winner": s.winner, "clock": table.settings["clock"],
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

    async def api_analyse(request: Request) -> Response:
        """The computer's analysis (MCTS) of one position of a record: ``{"record": ...,
        "upto": n}``, the position after the first n actions."""
        lang = _lang(request.query_params.get("lang"))
        try:
            body = await _json_body(request)
            if not isinstance(body, dict) or "record" not in body:
                raise WebError("send {\"record\": a record, \"upto\": a move number}")
            upto = body.get("upto")
            if upto is not None and (isinstance(upto, bool) or not isinstance(upto, int)
                                     or upto < 0):
                raise WebError("upto must be a whole number of moves")
            return JSONResponse(await hall.analyse(body["record"], upto, lang))
        except WebError as exc:
            return _error(exc)
        except RecordError as exc:
            return JSONResponse({"error": str(exc), "code": "bad_record"}, status_code=400)

    async def ws_game(ws: WebSocket) -> None:
        await ws.accept()
        try:
            table = hall.get(ws.path_params["id"])
            seat = hall.viewer(table, ws.query_params.get("token"))
        except WebError as exc:
            await ws.send_text(json.dumps({"type": "error", "code": exc.code,
                                           "message": str(exc)}))
            await ws.close(code=4000 + exc.status % 1000)
            return
        conn = Connection(ws.send_text, seat, _lang(ws.query_params.get("lang")))
        table.conns.append(conn)
        try:
            await table.broadcast()  # everyone sees who is online; the newcomer gets the state
            hall.kick(table)  # a game loaded after a restart resumes its computer players
            while True:
                text = await ws.receive_text()
                await _handle(table, conn, text)
        except WebSocketDisconnect:
            pass
        finally:
            hall.leave(table, conn)
            with contextlib.suppress(Exception):
                await table.broadcast()

    async def _handle(table, conn: Connection, text: str) -> None:
        """One message from a client. A bad one gets an error back and changes nothing."""
        try:
            msg = _decode(text, "a message must be JSON, e.g. {\"type\": \"play\", "
                                "\"option\": \"run\"}")
            if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
                raise WebError("a message must be a JSON object with a 'type'", "malformed")
            kind = msg["type"]
            if kind == "play":
                moves = msg.get("moves")
                if moves is not None and (isinstance(moves, bool) or not isinstance(moves, int)):
                    raise WebError("moves must be a whole number", "malformed")
                await hall.play(table, conn.seat, msg.get("option"), moves)
            elif kind == "lang":
                conn.lang = _lang(msg.get("lang"))
                await table.send_state(conn)
            elif kind == "state":
                await table.send_state(conn)
            elif kind == "hint":
                await conn.send(json.dumps(await hall.hint(table, conn.seat, conn.lang),
                                           ensure_ascii=False))
            elif kind == "ping":
                await conn.send(json.dumps({"type": "pong"}))
            else:
                raise WebError(f"unknown message type {kind!r}: play, lang, state, hint, ping",
                               "malformed")
        except WebError as exc:
            await conn.send(json.dumps({"type": "error", "code": exc.code, "message": str(exc)},
                                       ensure_ascii=False))

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        await hall.close()
        store.close()

    routes = [
        Route("/", page),
        Route("/g/{id}", page),
        Route("/replay", page),
        Route("/api/meta", api_meta),
        Route("/api/games", api_create, methods=["POST"]),
        Route("/api/games/{id}", api_game),
        Route("/api/games/{id}/claim", api_claim, methods=["POST"]),
        Route("/api/games/{id}/record", api_record),
        Route("/api/games/{id}/replay", api_game_replay),
        Route("/api/replay", api_replay, methods=["POST"]),
        Route("/api/analyse", api_analyse, methods=["POST"]),
        WebSocketRoute("/ws/{id}", ws_game),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hall = hall
    return app
