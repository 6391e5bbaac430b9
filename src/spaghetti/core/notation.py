"""Options: the notation of decisions (SPEC section 7), as strings and as compact integers.

Every decision offers a finite list of *options*. At the edge of the engine an option is a short
string such as ``"flag 2.0"``; inside, the same option is an integer *action id*, which is what
search and the random player use because it is much cheaper to make and compare. The two forms are
in one-to-one correspondence::

    >>> parse("flag 2.0") == flag(2, 0)
    True
    >>> to_string(flag(2, 0))
    'flag 2.0'
"""

from __future__ import annotations

from ..errors import NotationError

# The ids' layout: the constants live in .codes (compiled with the core); they are this
# module's names too.
from .codes import (AT, ARRANGE, CARD, COIN, DECLARE, DONE, FLAG, ICARD, INSTANT,  # noqa: F401
                    INTERRUPT, IPARAM, KIND_MASK, PARAM, PASS, PLACE, PLAYER, RUN, SEAT, TAKE,
                    TO)

_BARE = {PASS: "pass", RUN: "run", DONE: "done", DECLARE: "declare", INSTANT: "instant"}
_BARE_BY_WORD = {word: action for action, word in _BARE.items()}
_ONE_ARG = {PLACE: "place", CARD: "card", TO: "to", AT: "at", PLAYER: "player",
            INTERRUPT: "interrupt", TAKE: "take"}
_ONE_ARG_BY_WORD = {word: kind for kind, word in _ONE_ARG.items()}
_TWO_ARGS = {FLAG: "flag", PARAM: "param"}
_TWO_ARGS_BY_WORD = {word: kind for kind, word in _TWO_ARGS.items()}
_SEATS = ("first", "second")
_COIN = ("head", "tail")
_MAX_INDEX = 255

# Card names for ``arrange NAME``: every card declaration registers its name here when it is made
# (built-in and custom alike), so an action id can carry a name as a small number.
_CARD_NAMES: list[str] = []
_CARD_IDS: dict[str, int] = {}


def register_card_name(name: str) -> int:
    """The number standing for a card name in ``arrange NAME`` (letter case ignored)."""
    key = name.lower()
    if key not in _CARD_IDS:
        _CARD_IDS[key] = len(_CARD_NAMES)
        _CARD_NAMES.append(name)
    return _CARD_IDS[key]


def arrange(name: str) -> int:
    """The option ``arrange NAME`` (fair first player: the next card of the program)."""
    key = name.strip().lower()
    if key not in _CARD_IDS:
        raise NotationError(f"'arrange {name}': no card is named {name!r}")
    return ARRANGE | _CARD_IDS[key]


def flag(card: int, position: int) -> int:
    """The option ``flag N.K``: the flag at queue position K (0 = head) of card N."""
    return FLAG | card << 8 | position


def param(card: int, index: int) -> int:
    """The option ``param N.I``: parameter I (0-based) of card N."""
    return PARAM | card << 8 | index


def kind(action: int) -> int:
    """The kind of an action id (``PLACE``, ``FLAG``, ...; a bare option is its own kind)."""
    return action & KIND_MASK if action >= PLACE else action


def argument(action: int) -> int:
    """The single argument of a one-argument option (``card 3`` -> 3)."""
    return action & 0xFFFF


def pair(action: int) -> tuple[int, int]:
    """The two arguments of ``flag N.K`` or ``param N.I``."""
    return (action >> 8) & 0xFF, action & 0xFF


def to_string(action: int) -> str:
    """The notation of an action id."""
    if isinstance(action, bool) or not isinstance(action, int):
        raise NotationError(f"not an action id: {action!r}")
    if action in _BARE:
        return _BARE[action]
    k = action & KIND_MASK
    if k in _ONE_ARG:
        return f"{_ONE_ARG[k]} {action & 0xFFFF}"
    if k in _TWO_ARGS:
        return f"{_TWO_ARGS[k]} {(action >> 8) & 0xFF}.{action & 0xFF}"
    arg = action & 0xFFFF
    if k == ARRANGE and arg < len(_CARD_NAMES):
        return f"arrange {_CARD_NAMES[arg]}"
    if k == SEAT and arg < 2:
        return f"seat {_SEATS[arg]}"
    if k == COIN and arg < 2:
        return f"coin {_COIN[arg]}"
    if k == ICARD:
        return f"card i{arg}"
    if k == IPARAM:
        return f"param i{arg >> 8}.{arg & 0xFF}"
    raise NotationError(f"not an action id: {action!r}")


def whole_number(text: str) -> int | None:
    """``text`` as a whole number when it is one written in decimal digits, else None: not
    ``²`` (a digit that ``int`` refuses), nor more digits than Python converts."""
    if not text.isdecimal():
        return None
    try:
        return int(text)
    except ValueError:
        return None


def _index(text: str, option: str) -> int:
    number = whole_number(text) if len(text) <= 3 else None
    if number is None or number > _MAX_INDEX:
        raise NotationError(f"{option!r}: {text!r} is not an index (a whole number 0-{_MAX_INDEX})")
    return number


def parse(option: str) -> int:
    """The action id of an option string; raises :class:`NotationError` if it is not notation.

    Spaces around and between the words are forgiven, and so is letter case.
    """
    if not isinstance(option, str):
        raise NotationError(f"an option must be a string, not {type(option).__name__}")
    words = option.strip().lower().split()
    if not words:
        raise NotationError("empty option")
    head, args = words[0], words[1:]
    if head == "arrange" and args:
        return arrange(" ".join(option.split()[1:]))
    if head == "seat" and len(args) == 1 and args[0] in _SEATS:
        return SEAT | _SEATS.index(args[0])
    if head == "coin" and len(args) == 1 and args[0] in _COIN:
        return COIN | _COIN.index(args[0])
    if head in ("card", "param") and len(args) == 1 and args[0].startswith("i"):
        # An instant card (C12): card iS, param iS.I.
        if head == "card":
            return ICARD | _index(args[0][1:], option)
        if args[0].count(".") == 1:
            first, second = args[0][1:].split(".")
            return IPARAM | _index(first, option) << 8 | _index(second, option)
    if head in _BARE_BY_WORD and not args:
        return _BARE_BY_WORD[head]
    if head in _ONE_ARG_BY_WORD and len(args) == 1:
        return _ONE_ARG_BY_WORD[head] | _index(args[0], option)
    if head in _TWO_ARGS_BY_WORD and len(args) == 1 and args[0].count(".") == 1:
        first, second = args[0].split(".")
        return _TWO_ARGS_BY_WORD[head] | _index(first, option) << 8 | _index(second, option)
    raise NotationError(
        f"{option!r} is not an option; options look like: pass, run, done, declare, place N, "
        "card N, flag N.K, to N, at N, player S, param N.I, instant, take N, interrupt N, "
        "arrange NAME, seat first, seat second, card iS, param iS.I, coin head, coin tail")
