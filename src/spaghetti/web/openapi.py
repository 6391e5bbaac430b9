"""The OpenAPI description of the HTTP routes (served at ``GET /api/openapi.json``).

The request bodies come from the pydantic models that check them (:mod:`.schemas`), so the
description cannot drift from what the server accepts; the answers are described here, as
docs/web.md words them. The engine still decides what the schema cannot say (a variant's levels,
whether a token is known), with the errors of docs/web.md. The WebSocket of each game is not
HTTP: docs/web.md describes it.
"""

from __future__ import annotations

import functools
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from .schemas import Analyse, Claim, CreateGame, Join, Me, NewPlayer, Rematch, Seek, Sit

REF = "#/components/schemas/{model}"
MODELS: tuple[type[BaseModel], ...] = (CreateGame, Claim, NewPlayer, Me, Seek, Join, Rematch,
                                       Sit, Analyse)

STRING: dict = {"type": "string"}
INT: dict = {"type": "integer"}
BOOL: dict = {"type": "boolean"}
NUMBER: dict = {"type": "number"}
OBJECT: dict = {"type": "object"}


def _null(schema: dict) -> dict:
    return {"anyOf": [schema, {"type": "null"}]}


def _obj(required: dict[str, dict], **optional: dict) -> dict:
    """An object with these fields (each one there), and maybe the optional ones."""
    return {"type": "object", "required": list(required),
            "properties": {**required, **optional}}


def _ref(name: str) -> dict:
    return {"$ref": REF.format(model=name)}


def _list(item: dict) -> dict:
    return {"type": "array", "items": item}


WORDS = _obj({"en": STRING, "ja": STRING})
SEAT = _obj({"seat": INT, "kind": {"enum": ["human", "computer"]},
             "difficulty": _null(STRING), "name": _null(STRING), "rating": _null(INT),
             "provisional": _null(BOOL)},
            claimed=BOOL, online=BOOL, flag_fell=BOOL, player=_null(STRING), free=BOOL)
ANALYSIS_ROW = _obj({"option": STRING, "label": STRING, "visits": INT, "chance": NUMBER})

#: The answers, by name (components/schemas, beside the request models).
ANSWERS: dict[str, dict] = {
    "Error": _obj({"error": STRING, "code": STRING}),
    "Meta": _obj({"cards": {"type": "object", "additionalProperties": _obj(
        {"name": WORDS, "text": WORDS, "level": INT, "params": _list(INT)},
        tips=_null(WORDS))},
        "variants": _list(STRING), "games": OBJECT, "options": OBJECT, "extras": OBJECT,
        "difficulties": _list(STRING), "difficulty_words": OBJECT,
        "colours": _list(_obj({"en": STRING, "ja": STRING, "mark": STRING}))}),
    "Created": _obj({"id": STRING, "you": _null(INT), "token": _null(STRING),
                     "invites": {"type": "object", "additionalProperties": STRING}}),
    "Seat": _obj({"id": STRING, "seat": INT, "token": STRING}),
    "SeatNamed": _obj({"id": STRING, "seat": INT, "player": STRING}),
    "PlayNow": _obj({"id": STRING, "seat": INT, "token": _null(STRING), "paired": BOOL}),
    "Summary": _obj({"id": STRING, "level": INT, "players": INT, "options": OBJECT,
                     "moves": INT, "over": BOOL, "winner": _null(INT), "clock": _null(NUMBER),
                     "seats": _list(_ref("SeatOut"))}),
    "SeatOut": SEAT,
    "Record": _obj({"format": STRING, "variant": STRING, "level": INT, "players": INT}),
    "Replay": _obj({"frames": _list(_obj({"view": OBJECT, "text": STRING})), "status": STRING,
                    "record": _ref("Record")}),
    "Analysis": _obj({"to_move": _null(INT), "moves": INT, "options": _list(ANALYSIS_ROW)}),
    "Puzzle": _obj({"n": INT, "total": INT, "turns": INT, "to_move": INT, "view": OBJECT,
                    "legal": _list(STRING),
                    "labels": {"type": "object", "additionalProperties": STRING}}),
    "PuzzleAnswer": _obj({"right": BOOL}, line=_list(STRING), said=_list(STRING),
                         answer=STRING, why=STRING),
    "PuzzleTry": {**_obj({"option": STRING}, n=INT), "additionalProperties": True},
    "Player": _obj({"id": STRING, "name": STRING, "rating": INT, "games": INT,
                    "provisional": BOOL}),
    "Profile": {"allOf": [_ref("Player"), _obj({"finished": _list(_obj(
        {"game": STRING, "seat": INT, "outcome": {"enum": ["win", "loss", "draw"]},
         "rated": BOOL, "ended": NUMBER, "before": _null(INT), "after": _null(INT),
         "others": _list(_obj({"seat": INT, "kind": STRING, "difficulty": _null(STRING),
                               "name": _null(STRING)}))}))})]},
    "NewPlayerOut": {"allOf": [_ref("Profile"), _obj({"token": STRING})]},
    "Lobby": _obj({"open": _list(_obj({"id": STRING, "variant": STRING, "level": INT,
                                       "players": INT, "rated": BOOL, "clock": _null(NUMBER),
                                       "created": NUMBER, "seats": _list(_ref("SeatOut"))})),
                   "best": _list(_ref("Player"))}),
}

#: What each refusal means, for the routes that can give it.
REFUSALS = {
    400: "outside the schema, refused by the engine, or not JSON (docs/web.md)",
    403: "a token or invite this server does not know, or not yours to use",
    404: "no such game or player",
    409: "not now (the game is over, or not yet; the seat is taken)",
    413: "the body is over 1 MB",
    429: "too many requests from this address: wait Retry-After seconds",
}
LANG = {"name": "lang", "in": "query", "required": False, "schema": STRING,
        "description": "en or ja: the language of the words (anything else: en)"}
GAME_ID = {"name": "id", "in": "path", "required": True, "schema": STRING}


def _op(summary: str, answer: str | None, status: int = 200, body: str | None = None,
        refusals: tuple[int, ...] = (), params: tuple[dict, ...] = (),
        media: str = "application/json", optional: bool = False) -> dict:
    """One operation: its answer (a schema's name; None for a page) and the refusals it gives
    (a body is also refused as too large, or as not JSON). ``optional``: no body is an empty
    object."""
    content = {media: {"schema": _ref(answer)}} if answer else {media: {"schema": STRING}}
    responses: dict[str, Any] = {str(status): {"description": summary, "content": content}}
    codes = set(refusals) | ({400, 413} if body else set())
    for code in sorted(codes):
        responses[str(code)] = {"description": REFUSALS[code],
                                "content": {"application/json": {"schema": _ref("Error")}}}
    op: dict[str, Any] = {"summary": summary, "responses": responses}
    if params:
        op["parameters"] = list(params)
    if body:
        op["requestBody"] = {"required": not optional,
                             "content": {"application/json": {"schema": _ref(body)}}}
    return op


def _page(summary: str, *params: dict) -> dict:
    return {"get": _op(summary, None, params=params, media="text/html")}


def _paths() -> dict:
    pid = {"name": "pid", "in": "path", "required": True, "schema": STRING}
    n = {"name": "n", "in": "query", "required": False, "schema": {"type": "integer"},
         "description": "the puzzle's number (default: the puzzle of the day)"}
    return {
        "/": _page("the home page"),
        "/g/{id}": _page("a game's table", GAME_ID),
        "/replay": _page("the replay page"),
        "/puzzle": _page("the puzzle page"),
        "/api/openapi.json": {"get": _op("this description", "OpenAPI")},
        "/api/meta": {"get": _op("cards, games, options and colours, for the page", "Meta")},
        "/api/games": {"post": _op("create a game", "Created", 201, "CreateGame", (403,),
                                   optional=True)},
        "/api/games/{id}": {"get": _op("a game's public summary", "Summary", refusals=(404,),
                                       params=(GAME_ID,))},
        "/api/games/{id}/claim": {"post": _op("take the seat an invite opens", "Seat",
                                              body="Claim", refusals=(403, 404, 409),
                                              params=(GAME_ID,))},
        "/api/games/{id}/record": {"get": _op("the record, once the game is over", "Record",
                                              refusals=(404, 409), params=(GAME_ID,))},
        "/api/games/{id}/replay": {"get": _op("every position, once the game is over", "Replay",
                                              refusals=(404, 409), params=(GAME_ID, LANG))},
        "/api/replay": {"post": _op("every position of the record sent", "Replay",
                                    body="Record", params=(LANG,))},
        "/api/analyse": {"post": _op("the computer's analysis of a position of a record",
                                     "Analysis", body="Analyse", refusals=(429,),
                                     params=(LANG,))},
        "/api/puzzle": {"get": _op("a proven puzzle", "Puzzle", refusals=(400,),
                                   params=(n, LANG))},
        "/api/puzzle/answer": {"post": _op("check an answer to a puzzle", "PuzzleAnswer",
                                           body="PuzzleTry", params=(LANG,))},
        "/api/players": {"post": _op("a new player (its token, this once)", "NewPlayerOut", 201,
                                     "NewPlayer", (429,))},
        "/api/players/me": {"post": _op("the player's own profile, renamed first", "Profile",
                                        body="Me", refusals=(403,))},
        "/api/players/{pid}": {"get": _op("a player's public profile", "Profile",
                                          refusals=(404,), params=(pid,))},
        "/api/lobby": {"get": _op("the games waiting for people, and the best players",
                                  "Lobby")},
        "/api/lobby/play": {"post": _op("play now", "PlayNow", body="Seek", refusals=(403,))},
        "/api/games/{id}/join": {"post": _op("a free seat of a game of the lobby", "Seat",
                                             body="Join", refusals=(403, 404, 409),
                                             params=(GAME_ID,))},
        "/api/games/{id}/rematch": {"post": _op("the same seat in the rematch", "Seat",
                                                body="Rematch", refusals=(403, 404, 409),
                                                params=(GAME_ID,))},
        "/api/games/{id}/player": {"post": _op("name the player of a seat", "SeatNamed",
                                               body="Sit", refusals=(403, 404, 409),
                                               params=(GAME_ID,))},
    }


@functools.cache
def description() -> dict:
    """The OpenAPI 3.1 document of the server's HTTP routes."""
    _, models = models_json_schema([(m, "validation") for m in MODELS], ref_template=REF)
    schemas = {**models["$defs"], **ANSWERS, "OpenAPI": _obj({"openapi": STRING,
                                                              "paths": OBJECT})}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Spaghetti Code in the browser", "version": "1",
                 "description": "The HTTP routes of `spaghetti serve` (docs/web.md). Each game "
                                "is played over the WebSocket `/ws/{id}?token=...&lang=...`, "
                                "which docs/web.md describes."},
        "paths": _paths(),
        "components": {"schemas": schemas},
    }


__all__ = ["description"]
