"""Exact values for every game of the family, through the engine's door.

The level-1 solver (:mod:`.fast`, :mod:`.search`) is built for one game. This one works on any
state the engine makes: every variant, every option, draws (Pasta Logic, C18), chance (the coin
flip of Nightmare, as an expectation over :meth:`~spaghetti.core.state.State.chance_outcomes`)
and any number of players. It pays for that generality in speed, so it proves positions near the
end of a game and says "open" for the others.

**The value** is that of one seat (``seat``): +1 when it wins, -1 when it loses, 0 for a draw;
every other seat plays against it (with two players, the usual zero-sum value; with more, whether
the seat can force a win against any coalition). Chance nodes take the expectation.

**The search** is iterative deepening over intervals: below the depth limit a position is only
known to lie in [-1, 1]; a decision node takes the max (the seat's own) or min (the others') of
its children's bounds, a chance node their expectation. The root is proven when its interval
closes. Closed intervals are exact whatever the depth, so they are kept between iterations.

**Repetition (C9)** needs no special care: a child is the engine's own copy, with the positions
seen in its epoch, and the engine ends the game at a repetition exactly as in play. The table of
exact values is keyed on the position *and* that set of seen positions, so a value never leaks
to a path on which another position would count as repeated. The set is keyed by its 64-bit
signature (:attr:`~spaghetti.core.state.State.seen_signature`, which copies keep up to date), as
the alpha-beta search's table is: equal sets have equal signatures, and two different ones share
one with odds of 2**-64. Building the set whole at every position had been more than half of a
proof's time (docs/performance.md).
"""

from __future__ import annotations

import time

from ..core import notation as N
from .search import Limited, Timeout

__all__ = ["GeneralSolver", "Timeout"]


class GeneralSolver(Limited):
    """Proves the value of engine states for ``seat`` (see the module docstring). The limits
    are those of :class:`~.search.Limited`; the budget is checked every 1,024 positions.

    >>> import spaghetti
    >>> s = spaghetti.new_game(level=1, program=["Bug", "MoveFlag", "AddFlag", "RemoveFlag",
    ...                                          "ForkBomb"])
    >>> for o in "place 0,place 3,place 4,place 0,place 1,place 2,place 3,place 4".split(","):
    ...     s.apply(o)
    >>> s.lives[:] = [1, 1]
    >>> GeneralSolver(seat=0).value(s) in (-1.0, 1.0)
    True
    """

    BUDGET_EVERY = 0x400

    def __init__(self, seat: int = 0, time_limit: float | None = None, on_progress=None,
                 max_depth: int = 400, max_nodes: int | None = None):
        self.seat = seat
        self.time_limit = time_limit
        self.on_progress = on_progress
        self.max_depth = max_depth
        self.max_nodes = max_nodes  # a budget of positions: past it, Timeout (deterministic)
        self.exact: dict = {}  # (position, seen's signature) -> value
        self.best: dict = {}  # the same key -> the action that did best last iteration
        self.nodes = 0
        self.depth = 0

    @property
    def table_size(self) -> int:  # what progress displays count (as search.Solver's)
        return len(self.exact)

    def value(self, state) -> float:
        """The exact value of ``state`` for :attr:`seat`; raises :class:`Timeout` when the time
        limit runs out first."""
        if self.time_limit is not None and self.deadline is None:
            self.deadline = time.monotonic() + self.time_limit
        if state.is_over:
            return self._outcome(state)
        for depth in range(1, self.max_depth + 1):
            self.depth = depth
            lo, hi = self._bounds(state, depth)
            if lo == hi:
                return lo
        raise Timeout()

    def principal_line(self, state, limit: int = 200) -> list[str]:
        """Options that keep the value, until the game ends, chance is to draw, or the table
        has no exact value to follow (then the line stops)."""
        line: list[str] = []
        while not state.is_over and not state.is_chance and len(line) < limit:
            target = self._known(state)
            if target is None:
                break
            for action in state.legal_actions():
                child = state.copy()
                child.apply_action(action)
                if self._known(child) == target:
                    line.append(N.to_string(action))
                    state = child
                    break
            else:
                break
        return line

    # ------------------------------------------------------------------ search

    def _outcome(self, state) -> float:
        if state.winner is None:
            return 0.0  # a draw (C18)
        return 1.0 if state.winner == self.seat else -1.0

    @staticmethod
    def _key(state):
        return state.position_key(), state.seen_signature

    def _known(self, state) -> float | None:
        if state.is_over:
            return self._outcome(state)
        return self.exact.get(self._key(state))

    def _bounds(self, state, depth: int) -> tuple[float, float]:
        self.nodes += 1
        self._tick()
        key = self._key(state)
        v = self.exact.get(key)
        if v is not None:
            return v, v
        if depth == 0:
            return -1.0, 1.0
        if state.is_chance:
            lo = hi = 0.0
            for option, p in state.chance_outcomes():
                child = state.copy()
                child.apply(option)
                a, b = self._child(child, depth)
                lo += p * a
                hi += p * b
        else:
            mine = state.to_move == self.seat
            actions = list(state.legal_actions())
            first = self.best.get(key)
            if first is not None and first in actions:
                actions.remove(first)
                actions.insert(0, first)
            lo = hi = -2.0 if mine else 2.0
            pick = actions[0]
            for action in actions:
                child = state.copy()
                child.apply_action(action)
                a, b = self._child(child, depth)
                if mine:
                    if a > lo or (a == lo and b > hi):
                        pick = action
                    lo, hi = max(lo, a), max(hi, b)
                    if lo == 1.0:  # nothing beats a proven win
                        hi = 1.0
                        break
                else:
                    if b < hi or (b == hi and a < lo):
                        pick = action
                    lo, hi = min(lo, a), min(hi, b)
                    if hi == -1.0:
                        lo = -1.0
                        break
            self.best[key] = pick
        if lo == hi:
            self.exact[key] = lo
        return lo, hi

    def _child(self, child, depth: int) -> tuple[float, float]:
        if child.is_over:
            v = self._outcome(child)
            return v, v
        return self._bounds(child, depth - 1)
