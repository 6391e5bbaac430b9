"""Solve an engine state: the winner under perfect play and a principal line in notation.

:func:`solve` accepts any state of a game the solver covers (:func:`check_supported`): in the
placement phase (a minimax over placements, with a table), in the middle of a command (the
remaining choices are expanded through the engine's door), or at a turn decision (the fast model
of :mod:`.fast` and the search of :mod:`.search`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..core import notation as N
from ..core.state import D_TURN, EXECUTION, PLACEMENT
from ..errors import SpaghettiError
from .fast import KIND_OF, Model, from_state
from .search import Solver, Timeout

__all__ = ["Result", "Timeout", "UnsupportedError", "check_supported", "solve", "solve_program"]


class UnsupportedError(SpaghettiError):
    """The solver does not cover this game."""


@dataclass
class Result:
    """What :func:`solve` found."""

    winner: int  #: the seat that wins under perfect play
    line: list[str] = field(default_factory=list)  #: a principal line from the position
    nodes: int = 0  #: positions searched
    seconds: float = 0.0


def check_supported(state) -> None:
    """Raise :class:`UnsupportedError` unless the solver covers this game: two players, cards
    of level 1 only, automatic stalemate, no expansions."""
    game = state.game
    if game.players != 2:
        raise UnsupportedError(f"the solver covers 2-player games; this one has {game.players}")
    other = [name for name in state.program if name not in KIND_OF]
    if other:
        raise UnsupportedError(f"the solver covers the level-1 cards only; this program has "
                               f"{', '.join(sorted(set(other)))}")
    opts = game.options
    if opts["stalemate"] != "auto":
        raise UnsupportedError("the solver needs option stalemate: auto (with manual, declaring "
                               "is a choice the search does not model)")
    for name in ("reverse_priority", "memory", "reverse_flips_priority"):
        if opts[name]:
            raise UnsupportedError(f"the solver does not cover the option {name}")


class _Run:
    """One solve: a model, a solver and a placement table shared by every sub-search."""

    def __init__(self, state, time_limit, on_progress, backend):
        self.model = Model(state.program, state.game.placement_order, state.game.life,
                           state.game.supply)
        self.solver = Solver(self.model, time_limit, on_progress, backend)
        self.place_table: dict = {}

    # Placement: a plain minimax with a table (there is no repetition before execution).
    def place_value(self, ppos) -> int:
        v = self.place_table.get(ppos)
        if v is not None:
            return v
        seat = self.model.placement_order[ppos[2]]
        result = 1 - seat
        children = self.model.place_moves(ppos)
        for _, child in children:
            w = self._child_value(child)
            if w == seat:
                result = seat
                break
        self.place_table[ppos] = result
        return result

    def _child_value(self, child) -> int:
        if child[0] == "place":
            return self.place_value(child)
        return self.solver.value(child)

    def place_line(self, ppos) -> list[str]:
        line: list[str] = []
        winner = self.place_value(ppos)
        while ppos[0] == "place":
            seat = self.model.placement_order[ppos[2]]
            for option, child in self.model.place_moves(ppos):
                if (self._child_value(child) == seat) == (winner == seat):
                    line.append(option)
                    ppos = child
                    break
        _, rest = self.solver.principal_line(ppos)
        return line + rest

    # Any engine state.
    def value_line(self, state, want_line: bool) -> tuple[int, list[str]]:
        if state.is_over:
            return state.winner, []
        if state.phase == PLACEMENT:
            ppos = ("place", tuple(state.queues), state.place_index)
            if want_line:
                return self.place_value(ppos), self.place_line(ppos)
            return self.place_value(ppos), []
        if state.phase == EXECUTION and state.decision == D_TURN:
            _, pos, history = from_state(state)
            if want_line:
                return self.solver.principal_line(pos, history)
            return self.solver.value(pos, history), []
        # In the middle of a command: the same seat chooses; expand through the engine.
        mover = state.to_move
        best = None
        for action in state.legal_actions():
            child = state.copy()
            child.apply_action(action)
            w, _ = self.value_line(child, False)
            if best is None or (w == mover and best[0] != mover):
                best = (w, action, child)
            if w == mover:
                break
        w, action, child = best
        if not want_line:
            return w, []
        _, rest = self.value_line(child, True)
        return w, [N.to_string(action)] + rest


def solve(state, time_limit: float | None = None, on_progress=None, line: bool = True,
          backend: str = "auto") -> Result:
    """Solve an engine state. Raises :class:`Timeout` when ``time_limit`` (seconds) runs out,
    :class:`UnsupportedError` for a game the solver does not cover. ``backend``: see
    :class:`~.search.Solver`.

    >>> import spaghetti
    >>> s = spaghetti.new_game(level=1, program=["Bug", "MoveFlag", "AddFlag", "RemoveFlag",
    ...                                          "ForkBomb"])
    >>> for o in "place 0,place 3,place 4,place 0,place 1,place 2,place 3,place 4".split(","):
    ...     s.apply(o)
    >>> solve(s).winner in (0, 1)
    True
    """
    check_supported(state)
    start = time.monotonic()
    run = _Run(state, time_limit, on_progress, backend)
    winner, pv = run.value_line(state, line)
    return Result(winner, pv, run.solver.nodes, time.monotonic() - start)


def solve_program(program, time_limit: float | None = None, on_progress=None,
                  line: bool = True, backend: str = "auto") -> Result:
    """Solve a level-1, 2-player game from the empty board with the program in this order."""
    from ..core.game import Game

    state = Game(level=1, players=2).new_state(program=list(program))
    return solve(state, time_limit, on_progress, line, backend)
