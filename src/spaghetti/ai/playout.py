"""Random play to the end, driven from compiled code where the core is compiled.

A compiled caller (the searches, the vector environment) reaches the rules core's methods as
direct C calls; a Python loop reaches them through Python's call protocol, which costs about
a fifth of a decision on the compiled path. :func:`play_at_random` is such a caller: random
play at the speed the compiled consumers of the core see it (``benchmarks/core_speed.py``).
"""

from __future__ import annotations

from typing import Callable, cast

from ..core.state import State


def play_at_random(state: State, draw: Callable[[], float], limit: int = 1 << 30) -> int:
    """Play uniformly random legal options until the game ends or ``limit`` decisions have
    been played; ``draw()``, a float in [0, 1) (``random.Random(seed).random``), picks each,
    as ``options[int(draw() * len(options))]``. Returns the decisions played.

    >>> import random
    >>> from spaghetti import Game
    >>> state = Game(level=1).new_state(seed=1)
    >>> play_at_random(state, random.Random(2).random) > 0 and state.is_over
    True
    """
    n = 0
    while n < limit and not state.is_over:
        # (The ids as the state gave them: typed as ints, compiled code would unbox the one
        # drawn and box it anew, and the state would find it by value, not by identity.)
        legal = cast(tuple, state.legal_actions())
        x: float = draw()
        state.apply_action(legal[int(x * float(len(legal)))])  # (floats multiplied unboxed)
        n += 1
    return n
