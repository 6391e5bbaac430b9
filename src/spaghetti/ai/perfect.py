"""Players that play the exact solver's move wherever it proves one, and search elsewhere.

At each decision the solver (:func:`spaghetti.solver.api.solve`) gets a budget of positions (not
seconds, so a seeded game replays exactly). When it proves the value within it and the value is
not a loss, the player plays the first option of the principal line, which keeps that value: a
proven win is never let go, a proven draw never lost. Where the budget runs out, or every option
loses against perfect play (then the hope is an imperfect opponent), it plays by alpha-beta
search. ``hard`` is such a player with a small budget (a solver inside the search near the end
of a game), ``perfect`` one with a budget ten times as large.

The solver sees everything, so in games that hide something (instant cards, face-down cards)
these players do not use it: it would peek. There they play by the search alone, which never does.
"""

from __future__ import annotations

from ..core import notation as N
from ..core.state import State
from .base import ActionPlayer
from .alphabeta import AlphaBetaPlayer

SOLVER_NODES = 200_000  # about 1-3 s of search a decision
#: The time a hint's solver may search for a proof before the hint falls back to MCTS. A time,
#: not a number of positions: the level-1 search visits about 150,000 positions a second and the
#: general one a few thousand, and a hint should be quick on both.
HINT_SECONDS = 1.5


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
    """Plays the solver's proven move when it finds one within ``max_nodes`` positions, else the
    alpha-beta search's within ``fallback_nodes``.

    >>> import spaghetti
    >>> state = spaghetti.new_game(seed=1)
    >>> ProvingPlayer(seed=5, fallback_nodes=300, max_nodes=1000).choose(state) in state.legal()
    True
    """

    def __init__(self, seed: int | None = None, fallback_nodes: int = 200_000,
                 fallback_seconds: float | None = None, max_nodes: int = SOLVER_NODES):
        self.fallback = AlphaBetaPlayer(max_nodes=fallback_nodes, seconds=fallback_seconds,
                                        seed=seed)
        self.rng = self.fallback.rng
        self.max_nodes = max_nodes
        self.proven = 0  # decisions played from a proof, for benchmarks

    def best_action(self, state: State, legal: tuple[int, ...]) -> int:
        if not state.hidden:
            found = proven_option(state, self.max_nodes)
            if found is not None and found[1] > -1.0:
                self.proven += 1
                return N.parse(found[0])
        return self.fallback.best_action(state, legal)
