"""The layout of action ids (SPEC section 7's options as integers; :mod:`.notation` reads and
writes them as text and re-exports these names).

An option without an argument is a small number; one with arguments has its kind above bit 16
and its arguments below. The names are ``Final`` so that the compiled core (architecture.md)
reads them as constants.

>>> FLAG | 2 << 8 | 0 == FLAG + 512
True
"""

from __future__ import annotations

from typing import Final

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
