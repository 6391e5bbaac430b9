"""Game records (SPEC section 7): JSON anyone can read and write.

A record holds the setup and the list of options played::

    {"format": "spaghetti-record/1", "variant": "spaghetti-code", "level": 1, "players": 2,
     "options": {}, "program": ["Bug", "AddFlag", ...], "actions": ["place 0", ...]}

:func:`loads` checks everything, replays every action and reports the first problem with its
position; :func:`dumps` writes a state's record. Both are pure (strings in, strings out).

A game with custom cards carries their definitions in a ``"cards"`` field (the structure of the
TOML file's ``[[card]]`` tables, as JSON), so anyone can replay the record without the file.
"""

from __future__ import annotations

import json
from typing import Any

from .core.game import Game
from .custom_cards import from_data, to_data
from .core.options import OPTIONS
from .core.notation import to_string
from .core.state import State
from .core.view import REFEREE, check_viewer, knows_card, knows_instant
from .errors import IllegalOptionError, RecordError, SetupError, too_many_digits

FORMAT = "spaghetti-record/1"
_KEYS = {"format", "variant", "level", "players", "options", "cards", "program", "seed",
         "instant_deal", "actions", "meta", "masked_for"}
#: How deeply a record's lists and objects may nest (a record with custom cards needs 5).
MAX_DEPTH = 32
TOO_DEEP = f"lists and objects nested more than {MAX_DEPTH} deep: not a record"


def record_of(state: State, meta: dict | None = None) -> dict[str, Any]:
    """The record of a game so far, with its program written out."""
    game = state.game
    record: dict[str, Any] = {
        "format": FORMAT,
        "variant": game.variant,
        "level": game.level,
        "players": game.players,
        # Only those that differ from their default: a record says what was chosen, and reads
        # the same when a later version adds an option.
        "options": {name: value for name, value in game.options.items()
                    if value != OPTIONS[name].default},
    }
    if game.custom_cards:  # their definitions travel with the record
        record["cards"] = [to_data(card) for card in game.custom_cards]
    record["program"] = list(state.program)
    if state.deal:
        record["instant_deal"] = [card.name for card in state.deal]
    record["actions"] = [to_string(a) for a in state.history]
    if meta:
        record["meta"] = meta
    return record


def masked_record_of(state: State, seat: int | str, meta: dict | None = None) -> dict[str, Any]:
    """The record as ``seat`` may know it: what is hidden from that seat is ``null`` (instant
    cards it may not know, face-down cards not yet opened) or ``arrange ?``. Such a record says
    ``masked_for`` and can be read but not replayed."""
    check_viewer(state, seat)
    record = record_of(state, meta)
    if seat == REFEREE:
        return record
    record["masked_for"] = seat
    if state.deal:
        known = {index for index, s in state.drawn_by().items()
                 if knows_instant(state, seat, s)}
        record["instant_deal"] = [card.name if i in known or state.is_over else None
                                  for i, card in enumerate(state.deal)]
    if state.game.option("sequential_open"):
        if state.game.option("fair_first"):  # the program is the set of cards (public)
            arranged = 0
            for i, action in enumerate(record["actions"]):
                if action.startswith("arrange "):
                    if not knows_card(state, seat, arranged):
                        record["actions"][i] = "arrange ?"
                    arranged += 1
        else:
            record["program"] = [name if knows_card(state, seat, i) else None
                                 for i, name in enumerate(record["program"])]
    return record


def dumps(state: State, meta: dict | None = None, seat: int | str = REFEREE) -> str:
    """The record of a game as JSON text (one action a line, easy to read and diff); for a
    seat, with what it may not know masked (:func:`masked_record_of`)."""
    record = masked_record_of(state, seat, meta)
    actions = record.pop("actions")
    head = json.dumps(record, ensure_ascii=False)[:-1]
    body = ",\n".join("  " + json.dumps(a) for a in actions)
    return head + (', "actions": [\n' + body + "\n]}\n" if actions else ', "actions": []}\n')


def too_deep(data: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether decoded JSON nests lists and objects more than ``limit`` deep (the top one is 1).
    Walks without recursion, so that any depth is answered."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth > limit:
                return True
            items = value.values() if isinstance(value, dict) else value
            stack.extend((item, depth + 1) for item in items)
    return False


def decode(text: str | bytes) -> Any:
    """A record's JSON text, decoded and checked not to nest too deeply (not yet a record:
    :func:`parse` checks its fields); :class:`RecordError` if it is not that."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError(f"not JSON: {exc}") from None
    except ValueError:
        raise RecordError(f"{too_many_digits()}: not a record") from None
    except RecursionError:  # thousands of brackets: deeper than the decoder goes
        raise RecordError(TOO_DEEP) from None
    if too_deep(data):
        raise RecordError(TOO_DEEP)
    return data


def parse(data: Any) -> tuple[Game, list[str] | None, int | None, list[str] | None, list[str]]:
    """Check a decoded record's fields: its game, program or seed, and actions (not yet played)."""
    if too_deep(data):  # before any message quotes a value of it
        raise RecordError(TOO_DEEP)
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise RecordError(f"unknown field {unknown[0]!r} (fields: {', '.join(sorted(_KEYS))})")
    if data.get("format") != FORMAT:
        raise RecordError(f"format: expected {FORMAT!r}, got {data.get('format')!r}")
    for name in ("variant", "level", "players"):
        if name not in data:
            raise RecordError(f"missing field {name!r}")
    if not isinstance(data.get("meta", {}), dict):
        raise RecordError("meta: must be an object")
    if "masked_for" in data:
        raise RecordError(f"this record is masked for seat {data['masked_for']!r} (hidden parts "
                          "are null): it can be read, not replayed")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RecordError("options: must be an object")
    try:
        custom = from_data(data["cards"], "cards") if "cards" in data else ()
        game = Game(level=data["level"], players=data["players"], options=options,
                    variant=data["variant"], custom_cards=custom)
    except SetupError as exc:
        raise RecordError(str(exc)) from None
    program, seed = data.get("program"), data.get("seed")
    if program is None and seed is None:
        raise RecordError("a record needs a 'program' (card names) or a 'seed'")
    if program is not None:
        if not isinstance(program, list):
            raise RecordError("program: must be a list of card names")
        for i, name in enumerate(program):
            try:
                game.card(name)
            except SetupError as exc:
                raise RecordError(f"program[{i}]: {exc}") from None
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise RecordError(f"seed: must be a whole number, not {seed!r}")
    deal = data.get("instant_deal")
    if deal is not None:
        if not game.option("instant_cards"):
            raise RecordError("instant_deal: the record's options do not have instant_cards on")
        try:
            game.instant_deal(deal)
        except SetupError as exc:
            raise RecordError(f"instant_deal: {exc}") from None
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError("actions: must be a list of option strings")
    for i, action in enumerate(actions):
        if not isinstance(action, str):
            raise RecordError(f"actions[{i}]: must be a string, not {action!r}")
    return game, program, seed, deal, actions


def start(data: Any) -> tuple[State, list[str]]:
    """A decoded record's first state (before any action) and its actions, not yet played."""
    game, program, seed, deal, actions = parse(data)
    try:
        return game.new_state(program, seed, deal), actions
    except SetupError as exc:
        raise RecordError(str(exc)) from None


def replay(data: Any, upto: int | None = None) -> State:
    """The state after a decoded record's actions (the first ``upto`` of them if given)."""
    state, actions = start(data)
    for i, option in enumerate(actions[:upto]):
        try:
            state.apply(option)
        except IllegalOptionError as exc:
            raise RecordError(f"actions[{i}] {option!r}: {exc}") from None
    return state


def loads(text: str | bytes) -> State:
    """The state after a record given as JSON text; :class:`RecordError` names the first problem."""
    return replay(decode(text))
