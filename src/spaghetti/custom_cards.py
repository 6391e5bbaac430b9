"""Custom command cards written in TOML, without code (the rulebook's Blank card).

The rulebook's Blank card is a card whose command the players write. Here they write it as data,
in the same terms as every built-in card (:mod:`spaghetti.core.cards`): names, texts, parameters,
and an effect made of primitives::

    [[card]]
    name = "Detour"                  # English name: a letter, then letters, digits, - or _
    name_ja = "迂回"                  # optional (default: name)
    text = "Move {0} flag(s) not on this card to another card, then reverse the cursor."
    text_ja = "..."                  # optional (default: text)
    params = [1]                     # printed values; {0} in the texts is params[0]
    effect = [{choose = "move_flag", count = 0, other = true}, {do = "reverse"}]

:func:`loads` reads TOML text, :func:`from_data` the same structure already decoded (a record's
``"cards"`` field), :func:`to_data` and :func:`dumps` write cards back. Everything here is pure
(text in, cards out); every problem raises :class:`~spaghetti.errors.CardFileError` with a one-line
message naming the card and the field. docs/custom-cards.md gives the exact rule of each primitive.

>>> cards = loads('[[card]]\\nname = "Jolt"\\ntext = "Lose {0} life."\\nparams = [1]\\n'
...               'effect = [{do = "damage_self", amount = 0}]\\n')
>>> cards[0].name, cards[0].text_for()
('Jolt', 'Lose {1} life.')
"""

from __future__ import annotations

import json
import re
import string
import tomllib
from typing import Any

from .core.cards import EXTRA, STEP_FLAGS, CardType, Choose, Do
from .core.notation import whole_number
from .core.primitives import PRIMITIVES
from .errors import CardFileError, too_many_digits

# Every table below is read from the primitives themselves (spaghetti.core.primitives).
_OPEN = [p for p in PRIMITIVES.values() if p.custom]
#: Primitives of a ``choose`` step (docs/custom-cards.md).
CHOOSE_PRIMITIVES = tuple(p.name for p in _OPEN if p.chooses)
#: Primitives of a ``do`` step. Memory's ``recall`` is not among them: it lives on the record of
#: arrivals that only the Memory option keeps (C11).
DO_PRIMITIVES = tuple(sorted(p.name for p in _OPEN if not p.chooses))
#: Primitives that need an ``amount`` (a parameter index); the others take none.
NEEDS_AMOUNT = frozenset(p.name for p in _OPEN if p.needs_amount)
#: Choose primitives that may take a ``count`` ("up to n" distinct targets, C5).
TAKES_COUNT = frozenset(p.name for p in _OPEN if p.chooses and p.takes_count)
#: Choose primitives that may take ``other = true``: a card other than this one, a flag not on
#: this card, a player other than the actor. (swap_card and call always choose another card.)
TAKES_OTHER = frozenset(p.name for p in _OPEN if p.takes_other)
#: The keys of one primitive's own (head, same_card, adjacent, later), and whose they are.
FLAGS_OF = {key: p.name for key in STEP_FLAGS[1:-1] for p in _OPEN if key in p.keys}

CARD_KEYS = ("name", "name_ja", "text", "text_ja", "params", "effect")
STEP_KEYS = ("choose", "do", "count", "amount", "other", *FLAGS_OF)
NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*\Z")
MAX_NAME, MAX_TEXT, MAX_PARAM, MAX_PARAMS, MAX_STEPS, MAX_CARDS = 20, 300, 99, 9, 12, 50


def loads(text: str | bytes, source: str = "cards") -> tuple[CardType, ...]:
    """The cards declared in TOML text (``[[card]]`` tables). ``source`` names the text in
    messages (a file name)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise CardFileError(f"{source}: not UTF-8 text: {exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)  # tomllib says "(at line L, column C)", or "(at end of document)"
        last = text.count("\n") + (not text.endswith("\n"))
        message = message.replace("(at end of document)", f"(at the end, line {last})")
        raise CardFileError(f"{source}: bad TOML: {message}") from None
    except ValueError:
        raise CardFileError(f"{source}: bad TOML: {too_many_digits()}") from None
    except RecursionError:  # hundreds of brackets: deeper than the decoder goes
        raise CardFileError(f"{source}: bad TOML: arrays or tables nested too deeply") from None
    unknown = sorted(set(data) - {"card"})
    if unknown:
        raise CardFileError(f"{source}: unknown key {unknown[0]!r} at the top level "
                            "(cards are [[card]] tables)")
    if "card" not in data:
        raise CardFileError(f"{source}: no card: write each card as a [[card]] table")
    return from_data(data["card"], source)


def from_data(entries: Any, source: str = "cards") -> tuple[CardType, ...]:
    """The cards declared by a list of tables (decoded TOML's ``card``, a record's ``cards``)."""
    if not isinstance(entries, list) or not entries:
        raise CardFileError(f"{source}: expected a non-empty list of cards")
    if len(entries) > MAX_CARDS:
        raise CardFileError(f"{source}: {len(entries)} cards; at most {MAX_CARDS}")
    cards: list[CardType] = []
    names: set[str] = set()
    for i, entry in enumerate(entries, 1):
        card = _card(entry, f"{source}: card {i}")
        key = card.name.lower()
        if key in names:
            raise CardFileError(f"{source}: card {i} {card.name!r}: name: another card of the "
                                "file has this name")
        names.add(key)
        cards.append(card)
    return tuple(cards)


def _card(entry: Any, where: str) -> CardType:
    if not isinstance(entry, dict):
        raise CardFileError(f"{where}: a card must be a table, not {entry!r}")
    name = entry.get("name")
    if name is None:
        raise CardFileError(f"{where}: missing name")
    if not isinstance(name, str) or not NAME.match(name) or len(name) > MAX_NAME:
        raise CardFileError(f"{where}: name: {name!r} is not a card name (a letter, then letters, "
                            f"digits, '-' or '_', at most {MAX_NAME} characters)")
    where = f"{where} {name!r}"
    unknown = [key for key in entry if key not in CARD_KEYS]
    if unknown:
        raise CardFileError(f"{where}: unknown key {unknown[0]!r} (keys: {', '.join(CARD_KEYS)})")
    name_ja = _line(entry.get("name_ja", name), f"{where}: name_ja", MAX_NAME)
    params = entry.get("params", [])
    if not isinstance(params, list):
        raise CardFileError(f"{where}: params: must be a list of whole numbers, like [1, 2]")
    if len(params) > MAX_PARAMS:
        raise CardFileError(f"{where}: params: {len(params)} parameters; at most {MAX_PARAMS}")
    for j, value in enumerate(params):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_PARAM:
            raise CardFileError(f"{where}: params[{j}]: must be a whole number from 0 to "
                                f"{MAX_PARAM}, not {value!r}")
    if "text" not in entry:
        raise CardFileError(f"{where}: missing text")
    text = _text(entry["text"], f"{where}: text", len(params))
    text_ja = _text(entry.get("text_ja", text), f"{where}: text_ja", len(params))
    effect = entry.get("effect")
    if effect is None:
        raise CardFileError(f"{where}: missing effect")
    if not isinstance(effect, list) or not effect:
        raise CardFileError(f"{where}: effect: must be a non-empty list of steps, like "
                            '[{choose = "damage", amount = 0}]')
    if len(effect) > MAX_STEPS:
        raise CardFileError(f"{where}: effect: {len(effect)} steps; at most {MAX_STEPS}")
    steps = tuple(_step(step, f"{where}: effect[{k}]", len(params))
                  for k, step in enumerate(effect))
    return CardType(name, name_ja, text, text_ja, level=EXTRA, params=tuple(params), effect=steps)


def _line(value: Any, where: str, limit: int) -> str:
    if not isinstance(value, str) or not value.strip() or "\n" in value or len(value) > limit:
        raise CardFileError(f"{where}: must be one line of 1 to {limit} characters, not {value!r}")
    return value


def _text(value: Any, where: str, n_params: int) -> str:
    """A card text: ``{i}`` stands for parameter i, and each parameter is printed once."""
    value = _line(value, where, MAX_TEXT)
    try:
        parsed = [(f, spec, conv) for _, f, spec, conv in string.Formatter().parse(value)
                  if f is not None]
        fields = [f for f, _, _ in parsed]
        bad = [f if not (spec or conv) else f"{f}{'!' + conv if conv else ''}"
               f"{':' + spec if spec else ''}"
               for f, spec, conv in parsed
               if spec or conv or (n := whole_number(f)) is None or n >= n_params]
    except ValueError as exc:
        raise CardFileError(f"{where}: {exc} (write parameters as {{0}}, {{1}}; a brace itself "
                            "as {{ or }})") from None
    if bad:
        has = ("none" if not n_params else "one: {0}" if n_params == 1 else
               f"{n_params}: {{0}} to {{{n_params - 1}}}")
        raise CardFileError(f"{where}: {{{bad[0]}}} is not a parameter (parameters: {has})")
    missing = [j for j in range(n_params) if str(j) not in fields]
    if missing:
        raise CardFileError(f"{where}: parameter {{{missing[0]}}} is not in the text (every "
                            "parameter is printed, so players can see and change it)")
    try:
        value.format(*range(n_params))
    except (ValueError, IndexError) as exc:
        raise CardFileError(f"{where}: {exc}") from None
    return value


def _step(step: Any, where: str, n_params: int) -> Choose | Do:
    if not isinstance(step, dict):
        raise CardFileError(f"{where}: a step must be a table like {{do = \"reverse\"}}, "
                            f"not {step!r}")
    unknown = [key for key in step if key not in STEP_KEYS]
    if unknown:
        raise CardFileError(f"{where}: unknown key {unknown[0]!r} (keys: {', '.join(STEP_KEYS)})")
    if ("choose" in step) == ("do" in step):
        raise CardFileError(f"{where}: a step has either 'choose' or 'do'")
    kind = "choose" if "choose" in step else "do"
    action = step[kind]
    known = CHOOSE_PRIMITIVES if kind == "choose" else DO_PRIMITIVES
    if action not in known:
        hint = " (Memory's own; not for custom cards)" if action == "recall" else ""
        raise CardFileError(f"{where}: {kind}: unknown primitive {action!r}{hint}; "
                            f"{kind} primitives: {', '.join(known)}")

    def index(key: str) -> int | None:
        value = step.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n_params:
            shown = f"0 to {n_params - 1}" if n_params else "none: the card has no params"
            raise CardFileError(f"{where}: {key}: {value!r} is not a parameter index ({shown})")
        return value

    count, amount = index("count"), index("amount")
    other = step.get("other", False)
    if not isinstance(other, bool):
        raise CardFileError(f"{where}: other: must be true or false, not {other!r}")
    if action in NEEDS_AMOUNT and amount is None:
        raise CardFileError(f"{where}: {action} needs an amount (a parameter index)")
    if action not in NEEDS_AMOUNT and "amount" in step:
        raise CardFileError(f"{where}: {action} takes no amount")
    if "count" in step and action not in TAKES_COUNT:
        raise CardFileError(f"{where}: {action} takes no count (it always chooses one target)"
                            if kind == "choose" else f"{where}: a do step takes no count")
    if "other" in step and action not in TAKES_OTHER:
        raise CardFileError(f"{where}: {action} takes no 'other'")
    flags = {}
    for key, primitive in FLAGS_OF.items():
        if key in step:
            if action != primitive:
                raise CardFileError(f"{where}: '{key}' is for {primitive} only")
            if not isinstance(step[key], bool):
                raise CardFileError(f"{where}: {key}: must be true or false, not {step[key]!r}")
            flags[key] = step[key]
    if kind == "do":
        return Do(action, amount=amount)
    return Choose(action, count=count, amount=amount, other=other, **flags)


# ---------------------------------------------------------------------- writing


def to_data(card: CardType) -> dict[str, Any]:
    """A card as the plain structure :func:`from_data` reads (what a record's ``cards`` holds)."""
    data: dict[str, Any] = {"name": card.name}
    if card.name_ja != card.name:
        data["name_ja"] = card.name_ja
    data["text"] = card.text
    if card.text_ja != card.text:
        data["text_ja"] = card.text_ja
    data["params"] = list(card.params)
    steps = []
    for step in card.effect:
        if isinstance(step, Do):
            s: dict[str, Any] = {"do": step.action}
        else:
            s = {"choose": step.action}
            if step.count is not None:
                s["count"] = step.count
            if step.other:
                s["other"] = True
            for key in FLAGS_OF:
                if getattr(step, key):
                    s[key] = True
        if step.amount is not None:
            s["amount"] = step.amount
        steps.append(s)
    data["effect"] = steps
    return data


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + "}"
    return str(value)


def dumps(cards) -> str:
    """Cards as TOML text that :func:`loads` reads back (built-in cards too, as a template)."""
    blocks = []
    for card in cards:
        lines = ["[[card]]"] + [f"{key} = {_toml(value)}" for key, value in to_data(card).items()]
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)
