"""The standard library's random draws, made the same way in compiled code.

``random.Random.shuffle`` and ``randrange`` are Python code over the C method ``getrandbits``;
a deal shuffles its program with them, and that Python was half of a deal's time. These make
exactly the same calls to ``getrandbits`` and give exactly the same results (a test holds them
to the standard library's), so a seed deals what it always dealt. Compiled with the rules core
(setup.py).
"""

from __future__ import annotations

import random
from typing import Any


def below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)``, for ``n > 0``."""
    k = n.bit_length()
    r: int = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """``rng.shuffle(items)``: the same order from the same state of ``rng``."""
    for i in range(len(items) - 1, 0, -1):
        j = below(rng, i + 1)
        items[i], items[j] = items[j], items[i]
