"""Search over decisions, with the readable evaluation at the horizon.

The greedy player looks at its own decisions only; this one also looks at the replies. A node is
a decision. With two players the game is zero-sum and the search is alpha-beta on
:func:`spaghetti.ai.evaluate.evaluate`: the seat at the root maximises it, the other minimises
it. With 3 to 5 players it is *max-n*: each seat picks what is best for itself by
:func:`~spaghetti.ai.evaluate.evaluate_all` (measured against the easy player at level 3, three
players, it scored 67 % where the *paranoid* reduction, everyone against the root, scored 46 %;
``paranoid=True`` searches that way, for the benchmarks that compare the two). ``soft=T`` hedges
max-n: a seat other than the root's is taken to choose each option with odds growing as
``exp(value / T)`` (its value by the root's own evaluation), so the root does not stake all on
the others judging as it does; the root's own decisions stay its best (a mapping gives T by
the number of players, as ``max_nodes`` may give the budget).
The horizon counts turns (a flag's run-or-pass, a placement): a command's targets are searched
through to the command's end, so the evaluation never judges a Bug whose damage is still to be
aimed, and a forced decision (one legal option) does not count at all. A chance event (the
Nightmare notes' coin) is the mean of its outcomes.

Iterative deepening, depth 1, 2, 3, ... while a whole iteration fits in ``max_nodes`` (a count,
so a seeded game replays exactly; ``seconds`` is a safety cap that only bites on a slow machine;
a mapping gives the count by the number of players, as a round of turns is more plies with more),
keeps the deepest complete answer; each iteration tries first the options that were best in the
one before, and every node tries first the option that was best there last time (a small table
keyed by position), so the cut-offs come early. A win is worth a little less the later it comes,
so the quickest is taken.

A table of values, as chess programs keep, spares the search a position it has already searched
as deep (the same targets chosen in another order, a pass that comes back): bounds with two
players, the whole vector with max-n. A value depends on more than the position: on the
positions seen since the last irreversible change, which decide a stalemate (C9), and on the
decisions since the root, by which a win is delayed. So the table's key holds the position, the
history's signature (:attr:`State.seen_signature`) and the ply; a value never crosses from one
history to another. It serves a position met again at the same remaining depth only, so it
changes no value the search finds, only the positions it takes to find it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Container, Mapping
from typing import Any

from ..core import notation as N
from ..core.state import D_TARGET, BoardKey, State
from ..solver.search import cycles_left_alone
from .base import ActionPlayer
from .evaluate import evaluate, evaluate_all, every_seat
from .greedy import WIN_DELAY

MAX_DEPTH = 64
_INF = 2.0
_TIE = 1e-7
_EXACT, _LOWER, _UPPER = 0, 1, 2  # what a value in the table is: the value, or a bound of it


class AlphaBetaPlayer(ActionPlayer):
    """Alpha-beta (max-n with 3+ players) with iterative deepening and a budget of positions.

    >>> import spaghetti
    >>> state = spaghetti.new_game(seed=1)
    >>> AlphaBetaPlayer(max_nodes=500, seed=5).choose(state) in state.legal()
    True
    """

    def __init__(self, max_nodes: int | Mapping[int, int] = 20_000, seconds: float | None = None,
                 seed: int | None = None, rival: str = "leader", table: bool = True,
                 max_depth: int = MAX_DEPTH,
                 evaluation: Callable[[State, int], float] | None = None,
                 learned: bool | Container[int] = False, paranoid: bool = False,
                 soft: float | Mapping[int, float] = 0.0):
        self.max_nodes = max_nodes
        self.max_depth = max_depth
        self.table = table  # keep values (see the module's docstring); off only to compare
        self.rival = rival  # whom a seat's evaluation is measured against (3+ players)
        # With 3+ players, alpha-beta on the root seat's value against all the others as one,
        # which cuts branches off as max-n cannot (so it sees deeper), instead of max-n.
        self.paranoid = paranoid
        temperatures = soft.values() if isinstance(soft, Mapping) else (soft,)
        if not all(t >= 0.0 for t in temperatures):
            raise ValueError(f"soft is a temperature, 0 (max-n) or more, not {soft!r}")
        # max-n hedged (see the module's docstring), by the number of players if a mapping; 0:
        # max-n
        self.soft = soft
        self._soft = 0.0  # for the game searched
        self._root_seat = 0  # the seat the search is for
        self.seconds = seconds
        # The value of an unfinished position for a seat, within (-1, 1): the hand-written
        # evaluation unless another is given, or ``learned`` asks for the network that ships
        # for the game searched where one does (ai/value.py); a collection of numbers of
        # players asks for it with those only.
        self.evaluation = evaluation
        self.learned = learned
        self._judge: Callable[[State, int], float] | None = evaluation  # for the game searched
        self.rng = random.Random(seed)
        self.last_depth = 0  # depth of the last complete iteration, for benchmarks
        self.last_value = 0.0  # the value of the last position chosen in, for its mover
        # With 3+ players (max-n), every seat's value of each option of the last search, as
        # ``scores`` holds the mover's, and of the option chosen last; empty with 2 players.
        self.vectors: dict[int, list[float]] = {}
        self.last_values: list[float] = []
        self._nodes = 0
        self._limit = max_nodes if isinstance(max_nodes, int) else 0  # for the game searched
        self._deadline: float | None = None
        # The best option a position had, as the state gave it (Any, not int: see _after).
        self._best: dict[BoardKey, Any] = {}
        self._table: dict[tuple, tuple] = {}
        self._deeper = False

    @property
    def nodes(self) -> int:
        """The positions the last search visited (for benchmarks)."""
        return self._nodes

    def best_action(self, state: State, legal: tuple[int, ...]) -> int:
        scores = self.scores(state)
        best = self.last_value = max(scores.values())
        ties = [a for a in legal if scores[a] >= best - _TIE / 2]
        chosen = ties[self.rng.randrange(len(ties))]
        self.last_values = self.vectors.get(chosen, [])
        return chosen

    def scores(self, state: State) -> dict[int, float]:
        """The value of each legal option for the seat to move, from the deepest iteration that
        fitted in the budget (options cut off by alpha-beta hold an upper bound)."""
        # (The collector's passes over the table and the states kept cost a tenth of a search.)
        with cycles_left_alone():
            return self._scores(state)

    def _scores(self, state: State) -> dict[int, float]:
        seat = state.to_move
        if seat is None:
            return {}
        legal = list(state.legal_actions())
        state.seen_signature  # noqa: B018 (from here on the copies keep it: see State)
        self._begin(state)
        scores: dict[int, float] = {}
        vectors: dict[int, list[float]] = {}
        for depth in range(1, self.max_depth + 1):
            self._deeper = False
            found: dict[int, float] = {}
            found_vectors: dict[int, list[float]] = {}
            try:
                self._root(state, seat, legal, depth, found, found_vectors)
            except _OutOfBudget:
                # An iteration cut short still counts for the options it finished: the first
                # is the best of the last iteration, so one of them beating it is better at
                # this depth too. The others keep their old value, below the best finished.
                if found and scores:
                    top = max(found.values())
                    scores = {a: found.get(a, min(scores[a], top)) for a in legal}
                    vectors = {**vectors, **found_vectors}
                break
            scores, vectors = found, found_vectors
            self.last_depth = depth
            legal.sort(key=lambda a: -scores[a])  # the best first next time
            if not self._deeper:  # the whole game was seen: deeper cannot change anything
                break
        if not scores:  # not even depth 1 fitted: judge each option where it lands
            if state.players > 2 and not self.paranoid:
                vectors = {}
                for a in legal:
                    after = _after(state, a)
                    vectors[a] = [self._leaf(after, p, 1) for p in range(state.players)]
                scores = {a: v[seat] for a, v in vectors.items()}
            else:
                scores = {a: self._leaf(_after(state, a), seat, 1) for a in legal}
        self.vectors = vectors
        return scores

    def _begin(self, state: State) -> None:
        """Sets up a search of ``state``: an empty table, the budget and what the settings
        given by the number of players resolve to for its game."""
        self._best = {}
        self._table = {} if self.table else _Forgetful()
        self._nodes = 0
        self._limit = (self.max_nodes if isinstance(self.max_nodes, int)
                       else self.max_nodes[state.players])
        self._deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        self._soft = (self.soft.get(state.players, 0.0) if isinstance(self.soft, Mapping)
                      else self.soft)
        self._judge = self.evaluation
        learned = (self.learned if isinstance(self.learned, bool)
                   else state.players in self.learned)
        if self._judge is None and learned:
            from .value import learned_evaluation

            self._judge = learned_evaluation(state.game)

    def _root(self, state: State, seat: int, legal: list[int], depth: int,
              scores: dict[int, float], vectors: dict[int, list[float]]) -> dict[int, float]:
        """Fills ``scores`` option by option (so a cut-short iteration keeps what it found),
        and with 3+ players (max-n) ``vectors`` with every seat's value of each."""
        depth -= state.decision != D_TARGET
        if state.players > 2 and not self.paranoid:
            self._root_seat = seat
            for action in legal:
                values = self._vector(_after(state, action), depth, 1)
                scores[action] = values[seat]
                vectors[action] = values
            return scores
        alpha = -_INF
        for action in legal:
            # Just below the best so far: an option as good is valued exactly (a fair tie),
            # one cut off is strictly worse, never a false tie.
            value = self._value(_after(state, action), seat, depth, 1, alpha - _TIE, _INF)
            scores[action] = value
            alpha = max(alpha, value)
        return scores

    def _vector(self, state: State, depth: int, ply: int) -> list[float]:
        """Max-n: every seat picks what is best for itself; the values of all seats."""
        self._count()
        if state.is_over:
            return [self._leaf(state, p, ply) for p in range(state.players)]
        legal: tuple = state.legal_actions()
        if state.is_chance:
            total = [0.0] * state.players
            for o, p in state.chance_outcomes():
                for i, v in enumerate(self._vector(_after(state, N.parse(o)), depth, ply + 1)):
                    total[i] += p * v
            return total
        if len(legal) == 1:
            return self._vector(_after(state, legal[0]), depth, ply + 1)
        mid = state.decision == D_TARGET
        if depth <= 0 and not mid:
            self._deeper = True
            if self._judge is not None:
                return every_seat(self._judge, state)
            return evaluate_all(state, self.rival)
        if not mid:
            depth -= 1
        seat = state.to_move
        assert seat is not None
        key, order = self._ordered(state, legal)
        slot = (key, state.repeated, state.seen_signature, ply)
        known = self._table.get(slot)
        if known is not None and known[0] == depth:
            self._deeper |= known[2]
            return known[1]
        outer, self._deeper = self._deeper, False
        best: list[float] | None = None
        best_action = order[0]
        hedged = self._soft > 0.0 and seat != self._root_seat
        seen: list[list[float]] = []
        for action in order:
            values = self._vector(_after(state, action), depth, ply + 1)
            if hedged:
                seen.append(values)
            if best is None or values[seat] > best[seat]:
                best, best_action = values, action
        self._best[key] = best_action
        assert best is not None
        if hedged:
            best = _softmax_mean(seen, seat, best[seat], self._soft)
        self._table[slot] = (depth, best, self._deeper)
        self._deeper |= outer
        return best

    def _ordered(self, state: State, legal: tuple) -> tuple[BoardKey, tuple]:
        """The position's key, and its options with the best of the last visit first."""
        # (With its hash kept: the search looks it up and stores it twice each, alone and in
        # the table's slot, where a tuple would be hashed whole each time.)
        key = BoardKey(state.position_key())
        first = self._best.get(key)
        return key, legal if first is None else (first, *(a for a in legal if a != first))

    def _count(self) -> None:
        self._nodes += 1
        if self._nodes > self._limit or (
                self._deadline is not None and self._nodes % 256 == 0
                and time.perf_counter() > self._deadline):
            raise _OutOfBudget

    def _leaf(self, state: State, seat: int, ply: int) -> float:
        if state.is_over:
            value = state.returns()[seat]
            return value - WIN_DELAY * ply if value > 0 else value + WIN_DELAY * ply
        if self._judge is not None:
            return self._judge(state, seat)
        return evaluate(state, seat, self.rival)

    def _value(self, state: State, seat: int, depth: int, ply: int,
               alpha: float, beta: float) -> float:
        self._count()
        if state.is_over:
            return self._leaf(state, seat, ply)
        legal: tuple = state.legal_actions()
        if state.is_chance:
            return sum(p * self._value(_after(state, N.parse(o)), seat, depth, ply + 1,
                                       -_INF, _INF)
                       for o, p in state.chance_outcomes())
        if len(legal) == 1:  # forced: not a choice, so not a step of the horizon
            return self._value(_after(state, legal[0]), seat, depth, ply + 1, alpha, beta)
        mid = state.decision == D_TARGET  # a command's targets: seen through to its end
        if depth <= 0 and not mid:
            self._deeper = True
            return self._leaf(state, seat, ply)
        if not mid:
            depth -= 1
        key, order = self._ordered(state, legal)
        slot = (key, state.repeated, state.seen_signature, ply)
        known = self._table.get(slot)
        if known is not None and known[0] == depth:
            _, bound, kind, cut = known
            if kind == _EXACT or (kind == _LOWER and bound >= beta) or (
                    kind == _UPPER and bound <= alpha):
                self._deeper |= cut
                return bound
        window = alpha, beta
        outer, self._deeper = self._deeper, False
        maximise = state.to_move == seat
        best_action = order[0]
        if maximise:
            value = -_INF
            for action in order:
                v = self._value(_after(state, action), seat, depth, ply + 1, alpha, beta)
                if v > value:
                    value, best_action = v, action
                alpha = max(alpha, value)
                if alpha >= beta:
                    break
        else:
            value = _INF
            for action in order:
                v = self._value(_after(state, action), seat, depth, ply + 1, alpha, beta)
                if v < value:
                    value, best_action = v, action
                beta = min(beta, value)
                if alpha >= beta:
                    break
        self._best[key] = best_action
        kind = _UPPER if value <= window[0] else _LOWER if value >= window[1] else _EXACT
        self._table[slot] = (depth, value, kind, self._deeper)
        self._deeper |= outer
        return value


def _softmax_mean(vectors: list[list[float]], seat: int, top: float,
                  temperature: float) -> list[float]:
    """The mean of ``vectors``, each weighted by ``exp(its value for seat / temperature)``
    (``top``: the largest such value, taken off so that no weight overflows)."""
    total = [0.0] * len(vectors[0])
    weights = 0.0
    for values in vectors:
        weight = math.exp((values[seat] - top) / temperature)
        weights += weight
        for i in range(len(total)):
            total[i] += weight * values[i]
    return [v / weights for v in total]


def _after(state: State, action: object) -> State:
    """The position after an option. (Ids stay objects through the search: compiled code
    would unbox an int and box it again for the state, a new object above 256.)"""
    child = state.copy()
    child.apply_action(action)
    return child


class _OutOfBudget(Exception):
    pass


class _Forgetful(dict):
    """A table of values that keeps none (``table=False``)."""

    def __setitem__(self, key, value) -> None:
        pass
