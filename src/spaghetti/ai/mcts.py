"""Monte Carlo tree search (UCT) for 2 to 5 players.

Each node stands for the position reached by a sequence of actions from the root. A child keeps
the statistics of the seat that chose the action leading to it (the seat to move at its parent):
its visits and the sum of that seat's rewards, a reward being a game's return mapped from
[-1, 1] to [0, 1], so that a child's mean is that seat's estimated chance of winning. Selection
at a node maximises, for the seat to move there, ``mean + c * sqrt(ln N / n)`` (UCB1). Every
iteration backs up the playout's whole returns vector, each node taking its own seat's entry,
which is what makes it work for any number of players.

Nodes hold no states: each iteration copies the root state and replays the actions down the
tree. Nothing is kept between moves. Where the game hides something (instant cards, face-down
cards), each iteration starts from a fresh determinization of the root
(:meth:`~spaghetti.core.state.State.determinize`), a world consistent with what the seat to move
knows, and a node offers only the options legal in the current world: the search never peeks
(single-observer information-set MCTS).

Playouts pick at random, with a little sense: at a turn, ``run`` is preferred to ``pass``
(``P_RUN``), and damage goes to an opponent rather than oneself (``P_HURT_OTHER``). A playout
stops after ``PLAYOUT_CAP`` decisions, and the position is then judged by
:func:`spaghetti.ai.evaluate.evaluate_all`. With ``learned=True``, where a network ships for the
game (:mod:`spaghetti.ai.value`), a playout stops sooner: at the first turn of the execution
phase after ``JUDGED_AFTER`` decisions, which the network judges for every seat.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable
from typing import Any, Callable, Final, cast

from ..core import notation as N
from ..core.draws import shuffle
from ..core.primitives import PRIMITIVES
from ..core.state import D_TARGET, State
from .base import ActionPlayer
from .evaluate import evaluate_all, every_seat

DEFAULT_ITERATIONS = 1000
PLAYOUT_CAP = 200
P_RUN: Final = 0.8  # (Final: a C number in compiled code, not a look-up a decision)
#: With the learned evaluation, how many decisions a playout plays before the network judges
#: (docs/performance.md: at 1,000 iterations 10 scored 82 % against playouts alone, 0 scored 60 %).
JUDGED_AFTER = 10
P_HURT_OTHER: Final = 0.9


class Node:
    __slots__ = ("seat", "visits", "total", "children", "untried")

    def __init__(self, seat: int | None):
        self.seat = seat  # the seat that chose the action leading here (None at the root)
        self.visits = 0
        self.total = 0.0  # sum of that seat's rewards in [0, 1]
        # Action ids as the state gave them (Any, not int: compiled code would unbox each one
        # and box it again to hand it back to the state).
        self.children: dict[Any, Node] = {}
        self.untried: list[Any] | None = None  # legal actions not yet expanded


class MCTSPlayer(ActionPlayer):
    """UCT search with a budget of ``iterations``, ``seconds``, or both (whichever ends first).

    >>> import spaghetti
    >>> state = spaghetti.new_game(seed=1)
    >>> MCTSPlayer(iterations=50, seed=5).choose(state) in state.legal()
    True
    """

    def __init__(self, iterations: int | None = None, seconds: float | None = None,
                 seed: int | None = None, c: float = 1.4, playout_cap: int = PLAYOUT_CAP,
                 learned: bool = False, judged_after: int = JUDGED_AFTER):
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.playout_cap = playout_cap
        # Where a network ships for the game searched and ``learned`` asks for it, a playout
        # stops after ``judged_after`` decisions and the network judges where it stopped.
        self.learned = learned
        self.judged_after = judged_after
        self._judge: Callable[[State, int], float] | None = None
        self.rng = random.Random(seed)
        self.last_iterations = 0  # iterations of the last search, for benchmarks

    # ------------------------------------------------------------------ public

    def best_action(self, state: State, legal: tuple[int, ...]) -> int:
        root = self.search(state)
        most = max(child.visits for child in root.children.values())
        best = [a for a, child in root.children.items() if child.visits == most]
        return best[self.rng.randrange(len(best))]

    def analyse(self, state: State) -> list[tuple[str, int, float]]:
        """Every legal option as ``(option, visits, estimated win chance in [0, 1])`` for the
        seat to move, most visited first."""
        if state.is_over:
            return []
        root = self.search(state.lookahead())
        rows = []
        for action in state.legal_actions():
            child = root.children.get(action)
            visits = child.visits if child else 0
            value = child.total / child.visits if child and child.visits else 0.0
            rows.append((N.to_string(action), visits, value))
        rows.sort(key=lambda row: (-row[1], -row[2]))
        return rows

    # ------------------------------------------------------------------ search

    def search(self, state: State) -> Node:
        root = Node(None)
        self._judge = None
        if self.learned:
            from .value import learned_evaluation

            self._judge = learned_evaluation(state.game)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        limit = self.iterations
        done = 0
        while limit is None or done < limit:
            self._iterate(root, state)
            done += 1
            if deadline is not None and done % 8 == 0 and time.perf_counter() >= deadline:
                break
        self.last_iterations = done
        return root

    def _iterate(self, root: Node, root_state: State) -> None:
        hidden = root_state.hidden
        if hidden:  # information-set MCTS: a fresh world consistent with the root seat's view
            seat = root_state.to_move
            assert seat is not None, "a position searched has a seat to move"
            state = root_state.determinize(seat, self.rng)
        else:
            state = root_state.copy()
        node = root
        path = [root]
        log, sqrt, c = math.log, math.sqrt, self.c
        children: Iterable[tuple[Any, Node]]
        legal: tuple
        # Selection: down the tree while every option of the node has been tried.
        while not state.is_over:
            if state.is_chance:  # a chance node: its outcome is drawn, not chosen
                action = N.parse(state.sample_chance(self.rng))
                child = node.children.get(action)
                if child is None:
                    child = node.children[action] = Node(None)
                node = child
                state.apply_action(action)
                path.append(node)
                continue
            if hidden:  # the options depend on the world: only those legal in this one
                legal = state.legal_actions()
                node.untried = [a for a in legal if a not in node.children]
                shuffle(self.rng, node.untried)  # (rng.shuffle's order, compiled)
                children = [(a, node.children[a]) for a in legal if a in node.children]
            elif node.untried is None:
                node.untried = list(state.legal_actions())
                shuffle(self.rng, node.untried)  # (rng.shuffle's order, compiled)
            if node.untried:
                break
            if not hidden:
                children = node.children.items()
            scale = c * sqrt(log(node.visits))
            best, best_score = None, -1.0
            for action, child in children:
                score = child.total / child.visits + scale / sqrt(child.visits)
                if score > best_score:
                    best, best_score = action, score
            assert best is not None, "a node with no untried option has children"
            node = node.children[best]
            state.apply_action(best)
            path.append(node)
        # Expansion: one new child.
        if not state.is_over:
            assert node.untried is not None, "the selection stopped at a node with untried options"
            action = node.untried.pop()
            child = Node(state.to_move)
            node.children[action] = child
            state.apply_action(action)
            node = child
            path.append(node)
        # Playout, then backpropagation of the whole returns vector.
        returns = self._playout(state)
        for n in path:
            n.visits += 1
            if n.seat is not None:
                n.total += (returns[n.seat] + 1.0) * 0.5

    def _playout(self, state: State) -> list[float]:
        random_ = self.rng.random
        legal: tuple  # (of ids as the state gave them: see Node)
        action: object
        judge, after = self._judge, self.judged_after
        for n in range(self.playout_cap):
            if state.is_over:
                return state.returns()
            if judge is not None and n >= after and state.phase == "execution" \
                    and state.decision != D_TARGET and not state.is_chance:
                # (where the network learned: a turn of the execution phase)
                return every_seat(judge, state)
            legal = state.legal_actions()
            if len(legal) == 1:
                action = legal[0]
            elif len(legal) == 2 and legal[1] == N.RUN:  # pass or run
                action = N.RUN if random_() < P_RUN else N.PASS
            elif legal[0] & N.KIND_MASK == N.PLAYER and random_() < P_HURT_OTHER:
                seat = state.to_move
                assert seat is not None, "a player is chosen by the seat to move"
                me = N.PLAYER | seat
                choosing = state.choosing
                if me in legal and choosing and PRIMITIVES[choosing].heals:  # heal oneself
                    action = me
                else:
                    others = [a for a in legal if a != me and a != N.DONE and a != N.DECLARE]
                    # (int(random() * n): randrange is Python code, a fifth of a playout)
                    action = others[int(random_() * len(others))] if others else legal[0]
            else:  # (the id as the state gave it: see ai/playout.py)
                action = cast(tuple, legal)[int(random_() * len(legal))]
            state.apply_action(action)
        if state.is_over:
            return state.returns()
        return evaluate_all(state)
