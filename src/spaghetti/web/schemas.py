"""What a client may send: the request bodies and WebSocket messages as pydantic models.

Each model holds the documented ranges (docs/web.md); the engine still decides what a game
allows (a variant's levels, player counts and option values). A refused request gets one
sentence naming the field, never the value sent back whole: :func:`explain` quotes at most
:data:`ECHO` characters of anything a client wrote.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Literal

from pydantic import (AfterValidator, BaseModel, ConfigDict, Field, StrictBool, StrictInt,
                      StringConstraints, TypeAdapter, ValidationError, WithJsonSchema)

from ..ai import LEVELS

#: At most this many characters of a client's own text are echoed in an error.
ECHO = 100
#: Seconds per player on a chess clock: at least one, at most a day.
MIN_CLOCK, MAX_CLOCK = 1, 24 * 3600
#: Longest option a client may send (the longest legal one is far shorter).
MAX_OPTION = 100

#: Longest display name of a player, in characters (after trimming).
MAX_NAME = 24

Name = Annotated[str, StringConstraints(min_length=1, max_length=40)]
OptionValue = StrictBool | StrictInt | Name | None
#: A secret handed out by the server: a seat's or a player's token, an invite code.
Secret = Annotated[str, StringConstraints(min_length=1, max_length=100)]


def display_name(text: str) -> str:
    """A display name as it is kept: NFC, trimmed, 1 to :data:`MAX_NAME` characters, without
    control or invisible format characters (which could hide or reorder what others read)."""
    text = unicodedata.normalize("NFC", text).strip()
    if not text or len(text) > MAX_NAME:
        raise ValueError("bad length")
    if any(unicodedata.category(c).startswith("C") for c in text):
        raise ValueError("control character")
    return text


DisplayName = Annotated[str, StringConstraints(max_length=4 * MAX_NAME),
                        AfterValidator(display_name)]


def cap(text: str, limit: int = ECHO) -> str:
    """``text`` cut to ``limit`` characters (with an ellipsis when cut)."""
    return text if len(text) <= limit else text[:limit] + "…"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class SeatIn(_Strict):
    kind: Literal["human", "computer"]
    difficulty: Literal[LEVELS] = "easy"  # type: ignore[valid-type]


class CreateGame(_Strict):
    """``POST /api/games``; every field optional."""

    variant: Name = "spaghetti-code"
    level: StrictInt = Field(1, ge=1, le=3)
    players: StrictInt = Field(2, ge=2, le=5)
    options: dict[Name, OptionValue] = Field(default_factory=dict, max_length=40)
    seats: list[SeatIn] | None = Field(None, min_length=2, max_length=5)
    you: StrictInt | None = Field(None, ge=0, le=4)
    # pydantic words bounds on a union as keywords JSON Schema does not know: say them plainly
    clock: Annotated[StrictInt | float | None, WithJsonSchema({"anyOf": [
        {"type": "number", "minimum": MIN_CLOCK, "maximum": MAX_CLOCK}, {"type": "null"}],
        "default": None})] = Field(None, ge=MIN_CLOCK, le=MAX_CLOCK)
    seed: StrictInt | None = Field(None, ge=0, le=2**63 - 1)
    program: list[Name] | None = Field(None, min_length=1, max_length=30)
    autoplay: StrictBool = True
    player: Secret | None = None
    rated: StrictBool = False
    lobby: StrictBool = False


class Claim(_Strict):
    invite: Secret


class NewPlayer(_Strict):
    """``POST /api/players``."""

    name: DisplayName


class Me(_Strict):
    """``POST /api/players/me``: the player's own profile; with ``name``, renamed first."""

    token: Secret
    name: DisplayName | None = None


class Seek(_Strict):
    """``POST /api/lobby/play``: a game of this kind with whoever is waiting for one."""

    player: Secret
    variant: Name = "spaghetti-code"
    level: StrictInt = Field(1, ge=1, le=3)
    players: StrictInt = Field(2, ge=2, le=5)


class Join(_Strict):
    """``POST /api/games/{id}/join``: a free seat of a game of the lobby."""

    player: Secret


class Rematch(_Strict):
    """``POST /api/games/{id}/rematch``: a seat of the game asks for (or joins) the next one."""

    token: Secret


class Sit(_Strict):
    """``POST /api/games/{id}/player``: name the player of the seat a token holds."""

    token: Secret
    player: Secret


class Analyse(_Strict):
    """``POST /api/analyse``: a record (checked by the engine) and a move number."""

    record: dict
    upto: StrictInt | None = Field(None, ge=0)


class Play(_Strict):
    type: Literal["play"]
    option: Annotated[str, StringConstraints(min_length=1, max_length=MAX_OPTION)]
    moves: StrictInt = Field(ge=0)


class Lang(_Strict):
    type: Literal["lang"]
    lang: Literal["en", "ja"]


class Plain(_Strict):
    type: Literal["state", "hint", "ping"]


Message = Annotated[Play | Lang | Plain, Field(discriminator="type")]
MESSAGE: TypeAdapter[Play | Lang | Plain] = TypeAdapter(Message)
TYPES = "play, lang, state, hint, ping"

#: What a field must be, in words, where pydantic's own sentence would say less.
_HINTS = {
    "kind": "kind is 'human' or 'computer'",
    "difficulty": f"difficulty is one of {', '.join(LEVELS)}",
    "clock": f"clock is seconds per player, {MIN_CLOCK} to {MAX_CLOCK}, or null",
    "you": "you is the creator's seat (a seat number of a human seat) or null",
    "options": "options is an object of option names and values, e.g. {\"memory\": true}",
    "upto": "upto must be a whole number of moves (0 or more)",
    "moves": "moves is the number of moves of the position the player saw (a whole number)",
    "option": f"option is a string such as 'run' or 'flag 2.0' (at most {MAX_OPTION} "
              "characters)",
    "lang": "lang is 'en' or 'ja'",
    "seed": "seed is a whole number (0 or more)",
    "program": "program is a list of card names",
    "autoplay": "autoplay must be true or false",
    "invite": "an invite code is needed",
    "level": "level must be one of 1, 2, 3",
    "players": "players must be 2 to 5",
    "seats": "seats must list one seat per player, e.g. [{\"kind\": \"human\"}, ...]",
    "variant": "variant is the name of a game",
    "name": f"name is 1 to {MAX_NAME} characters (spaces around it are dropped), without "
            "control characters",
    "player": "player is the player token that POST /api/players gave",
    "token": "token is the seat token of this game",
    "rated": "rated must be true or false",
    "lobby": "lobby must be true or false",
}


_TYPE_TAGS = {"str", "int", "float", "bool", "none", "constrained-str", "function-after",
              "[key]"}


def explain(exc: ValidationError, fields: str = "", tagged: bool = False) -> str:
    """The first problem of a refused request, in one sentence that names the field.
    ``tagged``: a WebSocket message (the first place in the error is the message type)."""
    err = exc.errors(include_input=False, include_url=False)[0]
    loc = list(err["loc"][1:] if tagged and err["type"] not in (
        "union_tag_invalid", "union_tag_not_found") else err["loc"])
    loc = [cap(p, 40) if isinstance(p, str) else p for p in loc if p not in _TYPE_TAGS]
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc).lstrip(".")
    if err["type"] == "extra_forbidden":
        return f"unknown field {str(loc[-1])!r}" + (f"; fields: {fields}" if fields else "")
    if err["type"] == "union_tag_invalid":
        tag = str(err.get("ctx", {}).get("tag", "?"))
        return f"unknown message type {cap(tag, 40)!r}: {TYPES}"
    if err["type"] == "union_tag_not_found" or (tagged and not loc):
        return f"a message must be a JSON object with a 'type': {TYPES}"
    if not loc:
        return "the request must be a JSON object"
    name = next((str(p) for p in reversed(loc) if isinstance(p, str)), "")
    hint = _HINTS.get(name) or f"{path}: {err['msg']}"
    if err["type"] == "missing":
        return f"{path} is missing: {hint}"
    prefix = path[: -len(name)].rstrip(".") if name and path.endswith(name) else path
    return f"{prefix}: {hint}" if prefix and name in _HINTS else hint


__all__ = ["Analyse", "CreateGame", "Claim", "DisplayName", "ECHO", "Join", "MAX_NAME",
           "MESSAGE", "MAX_CLOCK", "MIN_CLOCK", "Lang", "Me", "NewPlayer", "Play", "Plain",
           "Rematch", "SeatIn", "Seek", "Sit", "cap", "display_name", "explain"]
