"""Solve an engine state: its value under perfect play and a principal line in notation.

:func:`solve` accepts any state of any game. Two-player level-1 Spaghetti Code with the rulebook
options (:func:`fast_covers`) goes to the level-1 solver: in the placement phase and at a turn
decision the fast model of :mod:`.fast` and the proof-number search of :mod:`.search`, in the
middle of a command the remaining choices expanded through the engine's door.
Everything else (every variant, option, draw and chance event, any number of players) goes to
the general solver of :mod:`.general`, which proves positions near the end of a game.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..core import notation as N
from ..core.game import OPTIONS
from ..core.state import D_TURN, EXECUTION, PLACEMENT, State
from ..errors import SetupError
from .fast import KIND_OF, Model, from_state
from .general import GeneralSolver
from .search import TABLE_MB, Solver, Timeout, cycles_left_alone

__all__ = ["Result", "Timeout", "fast_covers", "solve"]


@dataclass
class Result:
    """What :func:`solve` found."""

    winner: int | None  #: the seat that wins under perfect play (None: a draw, or chance)
    line: list[str] = field(default_factory=list)  #: a principal line from the position
    nodes: int = 0  #: positions searched
    seconds: float = 0.0
    seat: int = 0  #: the seat whose value :attr:`value` is
    value: float = 0.0  #: +1 win, -1 loss, 0 draw for :attr:`seat`; an expectation with chance
    solver: str = "level1"  #: which solver proved it: "level1" or "general"


def fast_covers(state) -> bool:
    """Does the level-1 solver cover this game: two players, the level-1 cards only, the
    rulebook's options (automatic stalemate, no expansions)?"""
    game = state.game
    if game.players != 2 or game.variant != "spaghetti-code":
        return False
    if any(name not in KIND_OF for name in state.program):
        return False
    # The placement order and the seat favoured by a bare stalemate are in the model; every
    # other option must be the rulebook's.
    return all(value == OPTIONS[name].default for name, value in game.options.items()
               if name not in ("placement_order", "remove_all_winner"))


class _Run:
    """One solve: a model and a solver whose table every sub-search shares."""

    def __init__(self, state, time_limit, on_progress, backend, max_nodes=None,
                 table_mb=TABLE_MB):
        self.model = Model(state.program, state.game.placement_order, state.game.life,
                           state.game.supply)
        self.solver = Solver(self.model, time_limit, on_progress, backend, max_nodes, table_mb)

    # Any engine state.
    def value_line(self, state, want_line: bool) -> tuple[int | None, list[str]]:
        """The winner under perfect play (None: a draw) and, if wanted, a principal line."""
        if state.is_over:
            return state.winner, []
        if state.phase == PLACEMENT:
            ppos = ("place", tuple(state.queues), state.place_index)
            if want_line:
                return self.solver.principal_line(ppos)
            return self.solver.value(ppos), []
        if state.phase == EXECUTION and state.decision == D_TURN:
            _, pos, history = from_state(state)
            if want_line:
                return self.solver.principal_line(pos, history)
            return self.solver.value(pos, history), []
        # In the middle of a command: the same seat makes every choice up to the next turn
        # decision. Its outcomes are searched together, as one node of the search above them.
        mover = state.to_move
        leaves = _outcomes(state, mover)
        if leaves is not None:
            roots: list = []
            for _, child in leaves:
                if child.is_over:
                    roots.append(child.winner)
                else:
                    _, pos, history = from_state(child)
                    roots.append((pos, history))
            won, i = self.solver.value_of_choice(mover, roots)
            if not want_line:
                return won, []
            options, end = leaves[i]
            _, rest = self.value_line(end, True)
            return won, options + rest
        # (not met at level 1: the rest of the command goes through the engine, choice by choice)
        best = None
        for action in state.legal_actions():
            child = state.copy()
            child.apply_action(action)
            w, _ = self.value_line(child, False)
            if best is None or (w == mover and best[0] != mover):
                best = (w, action, child)
            if w == mover:
                break
        assert best is not None, "a game not over has a legal action"
        w, action, child = best
        if not want_line:
            return w, []
        _, rest = self.value_line(child, True)
        return w, [N.to_string(action)] + rest


def _outcomes(state: State, mover: int) -> list[tuple[list[str], State]] | None:
    """The ends of the command under way: ``(options, state)`` for every way to finish it,
    each a finished game or a turn decision; None if one is neither, or is another seat's."""
    out: list[tuple[list[str], State]] = []
    for action in state.legal_actions():
        child = state.copy()
        child.apply_action(action)
        option = N.to_string(action)
        if child.is_over or (child.phase == EXECUTION and child.decision == D_TURN):
            out.append(([option], child))
            continue
        if child.to_move != mover or child.phase != EXECUTION:
            return None
        rest = _outcomes(child, mover)
        if rest is None:
            return None
        out.extend(([option] + options, end) for options, end in rest)
    return out


def solve(state, time_limit: float | None = None, on_progress=None, line: bool = True,
          seat: int = 0, backend: str = "auto", max_nodes: int | None = None,
          table_mb: int = TABLE_MB) -> Result:
    """Solve an engine state for ``seat`` (with more than two players: can that seat force a
    win against all the others?). Raises :class:`Timeout` when ``time_limit`` (seconds) runs
    out, or when more than ``max_nodes`` positions were searched (a budget that, unlike time,
    gives the same answer on every machine); the exception says how far the search got
    (``nodes``, ``seconds``). ``backend`` and ``table_mb``: the level-1 search's, see
    :class:`~.search.Solver`.

    >>> import spaghetti
    >>> s = spaghetti.new_game(level=1, program=["Bug", "MoveFlag", "AddFlag", "RemoveFlag",
    ...                                          "ForkBomb"])
    >>> for o in "place 0,place 3,place 4,place 0,place 1,place 2,place 3,place 4".split(","):
    ...     s.apply(o)
    >>> solve(s).winner in (0, 1)
    True
    """
    if not 0 <= seat < state.game.players:
        raise SetupError(f"seat {seat} is not in this game (seats 0-{state.game.players - 1})")
    start = time.monotonic()
    searcher: Solver | GeneralSolver
    try:
        with cycles_left_alone():
            if fast_covers(state):
                run = _Run(state, time_limit, on_progress, backend, max_nodes, table_mb)
                searcher = run.solver
                winner, pv = run.value_line(state, line)
                return Result(winner, pv, run.solver.nodes, time.monotonic() - start, seat,
                              1.0 if winner == seat else -1.0)
            searcher = general = GeneralSolver(seat, time_limit, on_progress, max_nodes=max_nodes)
            value = general.value(state)
    except Timeout as exc:
        exc.nodes, exc.seconds = searcher.nodes, time.monotonic() - start
        raise
    pv = general.principal_line(state) if line else []
    winner = None
    if value == 1.0:
        winner = seat
    elif value == -1.0 and state.game.players == 2:
        winner = 1 - seat
    return Result(winner, pv, general.nodes, time.monotonic() - start, seat, value, "general")

