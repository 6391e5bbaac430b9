"""The greedy player: one ply of lookahead, where a ply is all of the seat's own decisions.

A turn's command is several decisions of the same seat (``run``, then its targets one at a
time), so judging ``run`` alone by the position right after it would judge a Bug before anyone
is hurt. The greedy player therefore looks through every sequence of its own consecutive
decisions, until another seat is to move or the game ends, and evaluates the positions reached
(:func:`spaghetti.ai.evaluate.evaluate`). The search is capped in nodes by iterative deepening:
depth 1, 2, 3, ... as long as a whole iteration fits, so every option is seen equally deep and
the quickest wins are found first. ``seconds`` caps it in time as well (depth 1 always
completes): a count keeps a seeded game exact, the time keeps ``easy`` quick on a busy machine.

``evaluation`` judges the positions reached: the hand-written evaluation unless another is
given. ``easy`` judges by lives and flags alone (:func:`spaghetti.ai.evaluate.material`), as a
beginner counts: judging by the whole evaluation, the greedy player held its own against the
``normal`` search with 4 players, and a player who moves up a difficulty must meet a stronger
opponent (docs/performance.md, the ladder).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from ..core.state import State
from .base import ActionPlayer
from .evaluate import evaluate

MAX_NODES = 3000
WIN_DELAY = 1e-3  # a win found deeper is worth this much less per decision (take the quickest)
_EPS = 1e-9


class GreedyPlayer(ActionPlayer):
    """Picks the option whose own-decision continuation evaluates best; ties at random.

    >>> import spaghetti
    >>> state = spaghetti.new_game(seed=1)
    >>> GreedyPlayer(seed=5).choose(state) in state.legal()
    True
    """

    def __init__(self, seed: int | None = None, max_nodes: int = MAX_NODES,
                 seconds: float | None = None,
                 evaluation: Callable[[State, int], float] = evaluate):
        self.evaluation = evaluation  # the value of an unfinished position for a seat
        self.rng = random.Random(seed)
        self.max_nodes = max_nodes
        self.seconds = seconds
        self._nodes = 0
        self._deeper = False
        self._deadline: float | None = None

    def best_action(self, state: State, legal: tuple[int, ...]) -> int:
        scores = self.scores(state)
        best = max(scores.values())
        ties = [a for a in legal if scores[a] >= best - _EPS]
        return ties[self.rng.randrange(len(ties))]

    def scores(self, state: State) -> dict[int, float]:
        """The value of each legal option for the seat to move.

        Iterative deepening over the seat's own consecutive decisions: depth 1, 2, 3, ... while
        a whole iteration fits in ``max_nodes``, keeping the scores of the deepest complete one.
        So the shortest wins are always seen first, and every option is looked at equally deep.
        """
        seat = state.to_move
        legal = state.legal_actions()
        if seat is None:  # no seat decides
            if legal:
                raise ValueError("a coin flip is due: chance decides it, not a seat")
            return {}  # the game is over: nothing to choose
        self._nodes = -len(legal)  # depth 1 always completes
        self._deeper = False
        self._deadline = None
        scores = {a: self._value(state, a, seat, 1) for a in legal}
        depth = 1
        if self.seconds is not None:
            self._deadline = time.perf_counter() + self.seconds
        while self._deeper and not self._late():
            depth += 1
            self._nodes = 0
            self._deeper = False
            try:
                deeper = {a: self._value(state, a, seat, depth) for a in legal}
            except _OutOfNodes:
                break
            scores = deeper
        return scores

    def _late(self) -> bool:
        return self._deadline is not None and time.perf_counter() > self._deadline

    def _value(self, state: State, action: int, seat: int, depth: int, ply: int = 1) -> float:
        """The value for ``seat`` of playing ``action``, then its best own continuation within
        ``depth`` decisions in all. A win is worth a little less the later it comes."""
        self._nodes += 1
        if self._nodes > self.max_nodes or (self._nodes % 64 == 0 and self._late()):
            raise _OutOfNodes
        child = state.copy()
        child.apply_action(action)
        if child.is_over:
            value = child.returns()[seat]
            return value - WIN_DELAY * ply if value > 0 else value
        if child.to_move != seat:
            return self.evaluation(child, seat)
        if depth <= 1:
            self._deeper = True  # there is more to see
            return self.evaluation(child, seat)
        return max(self._value(child, a, seat, depth - 1, ply + 1)
                   for a in child.legal_actions())


class _OutOfNodes(Exception):
    pass
