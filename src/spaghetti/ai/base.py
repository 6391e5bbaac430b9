"""What every searching player shares: notation out, action ids in, forced moves for free."""

from __future__ import annotations

import random

from ..core import notation as N
from ..core.state import State


class ActionPlayer:
    """A player that decides in action ids; subclasses implement :meth:`best_action` and have a
    ``rng`` (a :class:`random.Random`)."""

    rng: random.Random

    def choose(self, state: State) -> str:
        return N.to_string(self.choose_action(state))

    def choose_action(self, state: State) -> int:
        legal = state.legal_actions()
        if not legal:
            raise ValueError("the game is over: there is nothing to choose")
        if state.is_chance:  # not a choice: chance draws it
            return N.parse(state.sample_chance(self.rng))
        if len(legal) == 1:
            return legal[0]  # a forced move needs no thought
        if state.hidden:  # never peek: think in a world consistent with what this seat knows
            seat = state.to_move
            assert seat is not None, "a decision with options has a seat to move"
            state = state.determinize(seat, self.rng)
        return self.best_action(state.lookahead(), legal)  # (its copies share what came before)

    def best_action(self, state: State, legal: tuple[int, ...]) -> int:
        raise NotImplementedError
