"""How the engine writes a flag: one small integer, ``owner << OWNER_SHIFT | marks``.

Flags are interchangeable apart from their owner and marks, which is exactly what C9 says a
position is made of, so a queue of these codes is a queue as the position key sees it. The
encoding is public for the programs that model the game with the engine's own codes (the
level-1 solver); everything else reads flags through ``State.owners`` and ``State.pending``.

>>> code = 2 << OWNER_SHIFT | PENDING
>>> owner(code), bool(code & PENDING), bool(code & RUNNING)
(2, True, False)
"""

from __future__ import annotations

from typing import Final

#: Still to get its turn in this visit (C1).
PENDING: Final = 1
#: Already moved by the MoveFlag in progress (C5: distinct targets).
MOVED: Final = 2
#: The flag that ran the command, kept only while the command can still refer to it (ForkBomb).
RUNNING: Final = 4
#: The owner's seat is the code shifted right by this.
OWNER_SHIFT: Final = 3


def owner(code: int) -> int:
    """The seat that owns the flag with this code."""
    return code >> OWNER_SHIFT
