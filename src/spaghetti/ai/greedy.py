"""The greedy player: one ply of lookahead, where a ply is all of the seat's own decisions.

A turn's command is several decisions of the same seat (``run``, then its targets one at a
time), so judging ``run`` alone by the position right after it would judge a Bug before anyone
is hurt. The greedy player therefore looks through every sequence of its own consecutive
decisions, until another seat is to move or the game ends, and evaluates the positions reached
(:func:`spaghetti.ai.evaluate.evaluate`). The search is capped in nodes: each option gets an
equal share of what is left, and a position reached with no budget left is evaluated as it is.
"""

from __future__ import annotations

import random

from ..core import notation as N
from ..core.state import State
from .evaluate import evaluate

MAX_NODES = 3000
_EPS = 1e-9


class GreedyPlayer:
    """Picks the option whose own-decision continuation evaluates best; ties at random.

    >>> import spaghetti
    >>> state = spaghetti.new_game(seed=1)
    >>> GreedyPlayer(seed=5).choose(state) in state.legal()
    True
    """

    def __init__(self, seed: int | None = None, max_nodes: int = MAX_NODES):
        self.rng = random.Random(seed)
        self.max_nodes = max_nodes

    def choose(self, state: State) -> str:
        return N.to_string(self.choose_action(state))

    def choose_action(self, state: State) -> int:
        legal = state.legal_actions()
        if not legal:
            raise ValueError("the game is over: there is nothing to choose")
        if len(legal) == 1:
            return legal[0]
        scores = self.scores(state)
        best = max(scores.values())
        ties = [a for a in legal if scores[a] >= best - _EPS]
        return ties[self.rng.randrange(len(ties))]

    def scores(self, state: State) -> dict[int, float]:
        """The value of each legal option for the seat to move."""
        seat = state.to_move
        legal = state.legal_actions()
        share = max(self.max_nodes - len(legal), 0) // len(legal)
        return {a: self._after(state, a, seat, share) for a in legal}

    def _after(self, state: State, action: int, seat: int, budget: int) -> float:
        """The value for ``seat`` of playing ``action``, then its best own continuation."""
        child = state.copy()
        child.apply_action(action)
        if child.is_over or child.to_move != seat or budget <= 0:
            return evaluate(child, seat)
        legal = child.legal_actions()
        if budget < len(legal):
            return evaluate(child, seat)
        share = (budget - len(legal)) // len(legal)
        return max(self._after(child, a, seat, share) for a in legal)
