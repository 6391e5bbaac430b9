"""The layout of action ids (SPEC section 7's options as integers; :mod:`.notation` reads and
writes them as text and re-exports these names).

An option without an argument is a small number; one with arguments has its kind above bit 16
and its arguments below. The names are ``Final`` so that the compiled core (architecture.md)
reads them as constants.

>>> FLAG | 2 << 8 | 0 == FLAG + 512
True
"""

from __future__ import annotations

from typing import Any, Final

# Options without an argument.
PASS: Final = 0
RUN: Final = 1
DONE: Final = 2
DECLARE: Final = 3
INSTANT: Final = 4

# Options with arguments: the kind sits above bit 16, the arguments below it.
PLACE: Final = 1 << 16
CARD: Final = 2 << 16
TO: Final = 3 << 16
AT: Final = 4 << 16
PLAYER: Final = 5 << 16
FLAG: Final = 6 << 16
PARAM: Final = 7 << 16
INTERRUPT: Final = 8 << 16
TAKE: Final = 9 << 16
ARRANGE: Final = 10 << 16
SEAT: Final = 11 << 16
ICARD: Final = 12 << 16  # card iS: seat S's unused instant card (RemoveCommand, C12)
IPARAM: Final = 13 << 16  # param iS.I: a parameter of seat S's unused instant card (C12)
COIN: Final = 14 << 16  # coin head / coin tail: the chance of the Nightmare notes' coin flip
KIND_MASK: Final = ~((1 << 16) - 1)

# The ids of options with arguments, each made once. They lie above CPython's cached small
# integers, so code that computed them (``FLAG | card << 8 | k``) made a new integer object for
# every option offered, and freed it after: compiled, that was about a tenth of a decision.
# Reading them here hands out the same objects on both paths. A card's index fills 8 bits of
# an id, so a program has at most MAX_CARDS cards (Game.new_state checks it); a card holds at
# most 5 x 10 flags and 4 parameters.
MAX_CARDS: Final = 256
_MAX_FLAGS: Final = 50
_MAX_PARAMS: Final = 8
_MAX_SEATS: Final = 8


def _ids(kind: int, n: int) -> tuple[Any, ...]:
    return tuple([kind | i for i in range(n)])


def _pairs(kind: int, n: int, m: int) -> tuple[tuple[Any, ...], ...]:
    return tuple([tuple([kind | i << 8 | j for j in range(m)]) for i in range(n)])


#: ``PLACE_ID[i]`` is the option ``place i``; and so on for each kind with one argument.
PLACE_ID: Final = _ids(PLACE, MAX_CARDS)
CARD_ID: Final = _ids(CARD, MAX_CARDS)
TO_ID: Final = _ids(TO, MAX_CARDS)
AT_ID: Final = _ids(AT, MAX_CARDS)
INTERRUPT_ID: Final = _ids(INTERRUPT, MAX_CARDS)
PLAYER_ID: Final = _ids(PLAYER, _MAX_SEATS)
ICARD_ID: Final = _ids(ICARD, _MAX_SEATS)
TAKE_ID: Final = _ids(TAKE, _MAX_SEATS)
#: ``FLAG_ID[card][k]`` is the option ``flag card.k``; ``PARAM_ID[card][j]``, ``param card.j``.
FLAG_ID: Final = _pairs(FLAG, MAX_CARDS, _MAX_FLAGS)
PARAM_ID: Final = _pairs(PARAM, MAX_CARDS, _MAX_PARAMS)
IPARAM_ID: Final = _pairs(IPARAM, _MAX_SEATS, _MAX_PARAMS)
