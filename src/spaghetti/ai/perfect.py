"""Players that play the exact solver's move wherever it proves one, and search elsewhere.

At each decision the solver (:func:`spaghetti.solver.api.solve`) gets a budget of positions (not
seconds, so a seeded game replays exactly). When it proves the value within it and the value is
not a loss, the player plays the first option of the principal line, which keeps that value: a
proven win is never let go, a proven draw never lost. Where the budget runs out, or every option
loses against perfect play (then the hope is an imperfect opponent), it plays by alpha-beta
search. ``hard`` is such a player with a small budget (a solver inside the search near the end
of a game), ``perfect`` one with a budget ten times as large, and where the level-1 solver
applies (level 1, two players) one of :data:`LEVEL1_NODES`, about five seconds of its search.

A lost position is not given up: ``perfect`` plays the option whose refutation is hardest to
prove (:meth:`ProvingPlayer.swindle`). An opponent that proves its win plays it, so the hope is
an opponent that has to judge by search instead, and a refutation that takes the solver more
positions is beyond more opponents' proofs.

The solver sees everything, so in games that hide something (instant cards, face-down cards)
these players do not use it: it would peek. There they play by the search alone, which never does.
"""

from __future__ import annotations

import time
from collections.abc import Container, Mapping

from ..core import notation as N
from ..core.state import State
from .base import ActionPlayer
from .alphabeta import AlphaBetaPlayer

SOLVER_NODES = 200_000  # about 1-3 s of the general solver's search a decision
#: ``perfect``'s budget where the level-1 solver applies: about 5 s of its search, in which it
#: proves the placements of 96 of the 117 proven level-1 programs from the empty board (200,000
#: positions: 58; docs/solved/level1.json holds what each proof took).
LEVEL1_NODES = 5_000_000
#: How far :meth:`ProvingPlayer.swindle` follows each refutation: 25 times ``hard``'s proofs.
SWINDLE_NODES = 500_000
#: The time a hint's solver may search for a proof before the hint falls back to MCTS. A time,
#: not a number of positions: the level-1 search visits about 150,000 positions a second and the
#: general one a few thousand, and a hint should be quick on both.
HINT_SECONDS = 1.5
#: The least time the search keeps after a long failed proof, so it still reads a turn or two.
MIN_SEARCH_SECONDS = 0.5


def proven_option(state: State, max_nodes: int | None = SOLVER_NODES,
                  time_limit: float | None = None):
    """``(option, value)`` for the seat to move when the solver proves within ``max_nodes``
    positions and ``time_limit`` seconds (None: no limit of that kind) that ``option`` keeps
    the value ``value`` (+1 win, 0 draw, -1 loss, or an expectation over coin flips); None when
    it does not."""
    from ..solver.api import Timeout, solve

    seat = state.to_move
    if seat is None:  # the game is over, or a coin flip is due: no seat has an option
        return None
    try:
        result = solve(state, seat=seat, max_nodes=max_nodes, time_limit=time_limit)
    except Timeout:
        return None
    if not result.line:
        return None
    return result.line[0], result.value


def proven_hint(state: State, seconds: float | None = None):
    """What a hint may say for sure: :func:`proven_option` with a time budget of ``seconds``
    (None: :data:`HINT_SECONDS`, read at each call) and no budget of positions.

    >>> import spaghetti
    >>> s = spaghetti.new_game(level=1, program=["Bug", "MoveFlag", "AddFlag", "RemoveFlag",
    ...                                          "ForkBomb"])
    >>> proven_hint(s, seconds=60)[1]
    1.0
    """
    return proven_option(state, max_nodes=None,
                         time_limit=HINT_SECONDS if seconds is None else seconds)


class ProvingPlayer(ActionPlayer):
    """Plays the solver's proven move when it finds one within ``max_nodes`` positions
    (``level1_nodes`` where the level-1 solver applies, when given) and ``proof_seconds``
    (None: no cap of time), else the alpha-beta search's within ``fallback_nodes`` (judging by
    the learned evaluation where one ships for the game, if ``learned``; its max-n hedged by
    ``soft``); in a position proven lost, with ``swindle_nodes``, the option of
    :meth:`swindle`.

    >>> import spaghetti
    >>> state = spaghetti.new_game(seed=1)
    >>> ProvingPlayer(seed=5, fallback_nodes=300, max_nodes=1000).choose(state) in state.legal()
    True
    """

    def __init__(self, seed: int | None = None, fallback_nodes: int = 200_000,
                 fallback_seconds: float | None = None, max_nodes: int = SOLVER_NODES,
                 level1_nodes: int | None = None, swindle_nodes: int | None = None,
                 learned: bool | Container[int] = False, proof_seconds: float | None = None,
                 soft: float | Mapping[int, float] = 0.0):
        self.fallback = AlphaBetaPlayer(max_nodes=fallback_nodes, seconds=fallback_seconds,
                                        seed=seed, learned=learned, soft=soft)
        self.fallback_seconds = fallback_seconds  # for the solver and the search together
        self.rng = self.fallback.rng
        self.max_nodes = max_nodes
        self.level1_nodes = level1_nodes
        self.proof_seconds = proof_seconds
        self.swindle_nodes = swindle_nodes
        self.proven = 0  # decisions played from a proof, for benchmarks

    def best_action(self, state: State, legal: tuple[int, ...]) -> int:
        from ..solver.api import fast_covers

        start = time.perf_counter()
        if not state.hidden:
            fast = fast_covers(state)  # else the general solver: a thousand times slower
            found = proven_option(state, self.level1_nodes if fast and self.level1_nodes
                                  else self.max_nodes, self.proof_seconds)
            if found is not None:
                if found[1] > -1.0:
                    self.proven += 1
                    return N.parse(found[0])
                if fast and self.swindle_nodes is not None:
                    return self.swindle(state, legal)
        if self.fallback_seconds is not None:  # the search has what the proof left of the time
            spent = time.perf_counter() - start
            self.fallback.seconds = max(self.fallback_seconds - spent, MIN_SEARCH_SECONDS)
        return self.fallback.best_action(state, legal)

    def swindle(self, state: State, legal: tuple[int, ...]) -> int:
        """In a position proven lost for the seat to move (where the level-1 solver applies,
        so two players): the option whose refutation takes the solver the most positions to
        prove, up to ``swindle_nodes`` (a refutation not proven within them counts as
        hardest); ties go to the search. An option found not to lose after all is played at
        once."""
        from ..solver.api import Timeout, solve

        seat = state.to_move
        assert seat is not None, "a decision with options has a seat to move"
        budget = self.swindle_nodes or 0
        effort: dict[int, int] = {}
        for action in legal:
            child = state.copy()
            child.apply_action(action)
            if child.is_over:
                if child.winner == seat:
                    return action
                effort[action] = 0
                continue
            try:
                result = solve(child, seat=seat, max_nodes=budget, line=False)
            except Timeout:
                effort[action] = budget + 1
                continue
            if result.value > -1.0:
                return action
            effort[action] = result.nodes
        hardest = max(effort.values())
        ties = [a for a in legal if effort[a] == hardest]
        if len(ties) == 1:
            return ties[0]
        scores = self.fallback.scores(state)
        return max(ties, key=lambda a: scores.get(a, -2.0))  # below any value
