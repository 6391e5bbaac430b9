"""A player that picks uniformly among the legal options."""

from __future__ import annotations

import random

from ..core.state import State


class RandomPlayer:
    """Chooses a legal option at random; the same seed gives the same choices (or the same
    state of the generator ``rng``, when one is handed over).

    >>> import spaghetti
    >>> state = spaghetti.new_game(seed=1)
    >>> RandomPlayer(seed=5).choose(state) in state.legal()
    True
    """

    def __init__(self, seed: int | None = None, rng: random.Random | None = None):
        # (``rng``: draw from a generator shared with its owner, which a new game then
        # need not seed again: the environments' opponents.)
        self.rng = rng if rng is not None else random.Random(seed)

    def choose(self, state: State) -> str:
        options = state.legal()
        if not options:
            raise ValueError("the game is over: there is nothing to choose")
        return options[self.rng.randrange(len(options))]
