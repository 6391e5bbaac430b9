"""Perft: the number of lines of play a few decisions deep from fixed positions of every game of
the family (spaghetti.core.engines.perft), on both paths of the rules core. The counts are
golden: any change to what is legal, or to what a decision leads to, on either path, changes
one of them. A change of rules that is meant must say so here, with the counts made anew by

    python tests/test_perft.py

which prints the table below from the engine as it is."""

from __future__ import annotations

import random

import pytest

from spaghetti import Game
from spaghetti.core.engines import perft

#: (game, level, players, options): every game of the family, the expansions in play.
SETUPS = {
    "code-L1-2p": ("spaghetti-code", 1, 2, {}),
    "code-L3-3p": ("spaghetti-code", 3, 3, {}),
    "code-L3-2p-extras-instant": ("spaghetti-code", 3, 2, {
        "memory": True, "reverse_priority": True, "instant_cards": True}),
    "code-L2-4p-interrupt-flip": ("spaghetti-code", 2, 4, {
        "interrupt": True, "reverse_flips_priority": True}),
    "code-L1-2p-open-fair": ("spaghetti-code", 1, 2, {
        "sequential_open": True, "fair_first": True}),
    "monsters-L3-2p-memory": ("spaghetti-monsters", 3, 2, {"memory": True}),
    "pasta-logic": ("pasta-logic", 1, 2, {}),
    "nightmare-3p-coin": ("nightmare", 1, 3, {"coin_flip": True}),
}
#: Perft from the deal (depth 3) and from the position reached by the seeded random line
#: (``position``), depths 1-6.
GOLDEN = {
    'code-L1-2p': (100, (2, 6, 14, 36, 77, 219)),
    'code-L3-3p': (1000, (2, 5, 10, 28, 141, 926)),
    'code-L3-2p-extras-instant': (72, (2, 4, 8, 26, 74, 424)),
    'code-L2-4p-interrupt-flip': (512, (2, 8, 18, 50, 122, 332)),
    'code-L1-2p-open-fair': (60, (2, 4, 8, 16, 34, 85)),
    'monsters-L3-2p-memory': (1210, (2, 14, 37, 280, 1829, 8143)),
    'pasta-logic': (448, (2, 12, 74, 148, 296, 644)),
    'nightmare-3p-coin': (5832, (2, 4, 34, 544, 1564, 9764)),
}


def position(name: str, python: bool):
    """The deal (seed 7), and the position after a seeded random line 12 decisions into
    execution."""
    variant, level, players, options = SETUPS[name]
    game = Game(level=level, players=players, variant=variant, options=options)
    start = game.new_state(seed=7, python=python)
    state = start.copy()
    rng = random.Random(7)
    executed = 0
    while executed < 12:
        executed += state.phase == "execution"
        legal = state.legal_actions()
        child = state.copy()
        child.apply_action(legal[rng.randrange(len(legal))])
        if child.is_over:  # keep the game going: the line stops short of its end
            break
        state = child
    return start, state


def counts(name: str, python: bool) -> tuple[int, tuple[int, ...]]:
    start, state = position(name, python)
    return perft(start, 3), tuple(perft(state, depth) for depth in range(1, 7))


@pytest.mark.parametrize("python", [False, True], ids=["default path", "python path"])
@pytest.mark.parametrize("name", list(SETUPS))
def test_perft_counts_are_the_golden_ones(name, python):
    assert counts(name, python) == GOLDEN[name]


if __name__ == "__main__":
    for setup in SETUPS:
        print(f"    {setup!r}: {counts(setup, False)},")
