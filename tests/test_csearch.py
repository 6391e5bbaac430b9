"""The C search (extension ``_csearch``) against the Python one: the same winners and the same
node counts (the same search, move for move), tables kept between calls, histories, timeouts."""

from __future__ import annotations

import random
import time

import pytest

import spaghetti
from spaghetti.core import notation as N
from spaghetti.core.state import D_TURN
from spaghetti.solver.fast import Model, from_state
from spaghetti.solver.search import Solver, Timeout, _csearch

pytestmark = [pytest.mark.solver, pytest.mark.skipif(
    _csearch is None, reason="the C extension spaghetti.solver._csearch is not built")]

PROGRAMS = [
    ["Bug", "MoveFlag", "AddFlag", "RemoveFlag", "ForkBomb"],
    ["ForkBomb", "RemoveFlag", "MoveFlag", "Bug", "AddFlag"],
    ["MoveFlag", "MoveFlag", "Bug", "ForkBomb"],
    ["AddFlag", "RemoveFlag", "ForkBomb", "MoveFlag", "Bug", "Bug"],
    ["RemoveFlag", "MoveFlag", "ForkBomb", "AddFlag", "Bug"],
    ["MoveFlag", "Bug", "ForkBomb", "RemoveFlag", "AddFlag"],
    ["ForkBomb", "AddFlag", "MoveFlag", "Bug", "RemoveFlag"],
]


def late_positions(seed: int, games: int, max_lives: int):
    """(game number, state) at turn decisions of random games once few lives are left; their
    repetition histories are often not empty (passes and MoveFlag keep the epoch)."""
    rng = random.Random(seed)
    for g in range(games):
        state = spaghetti.new_game(level=1, players=2, program=PROGRAMS[g % len(PROGRAMS)])
        while not state.is_over:
            if state.decision == D_TURN and sum(state.lives) <= max_lives:
                yield g, state
            acts = state.legal_actions()
            run = [a for a in acts if a != N.PASS]
            state.apply_action(rng.choice(run if run and rng.random() < 0.7 else acts))


def test_c_and_python_give_the_same_winners_and_node_counts():
    """A few hundred positions of many programs, each game's positions solved one after the
    other by one solver per backend (so the tables carry over between calls)."""
    compared = with_history = 0
    solvers = None
    for g, state in late_positions(seed=7, games=100, max_lives=4):
        model, pos, history = from_state(state)
        if solvers is None or solvers[0] != g:
            solvers = (g, Solver(model, backend="python"), Solver(model, backend="c"))
        _, py, c = solvers
        py.deadline = time.monotonic() + 0.5
        try:
            expected = py.value(pos, history)
        except Timeout:  # too big for the Python search: fresh solvers for what follows
            solvers = None
            continue
        assert c.value(pos, history) == expected
        assert c.nodes == py.nodes
        compared += 1
        with_history += bool(history)
    assert compared >= 200 and with_history >= 50


def test_a_whole_program_from_the_empty_board_same_winner_and_nodes_on_both_backends():
    """The C core hashes history sets into 64 bits; the Python search keeps them exact. On a
    whole game (placement included, about 90,000 positions) they agree position for position."""
    model = Model(["AddFlag", "RemoveFlag", "MoveFlag", "Bug", "ForkBomb"])
    c, py = Solver(model, backend="c"), Solver(model, backend="python")
    assert c.value(model.start()) == py.value(model.start()) == 0
    assert c.nodes == py.nodes > 10_000


def test_a_full_table_replaces_entries_and_keeps_the_value():
    """A table far too small for the search (32,768 slots for about 70,000 entries) forces
    replacement: lost entries cost re-searches, never the value."""
    model = Model(PROGRAMS[0])
    small, big = Solver(model, table_mb=1), Solver(model, table_mb=64)
    assert small.value(model.start()) == big.value(model.start())
    assert small.table_size < big.table_size and small.nodes > big.nodes


def test_c_table_persists_between_calls():
    _, state = next(late_positions(seed=3, games=10, max_lives=4))
    model, pos, history = from_state(state)
    solver = Solver(model, backend="c")
    w = solver.value(pos)
    nodes = solver.nodes
    assert solver.table_size > 0
    assert solver.value(pos) == w and solver.nodes == nodes  # answered by the table


def test_c_timeout_raises_the_solvers_timeout_and_progress_is_called():
    # a whole game from the empty board that takes the search minutes
    model = Model(["AddFlag", "MoveFlag", "RemoveFlag", "Bug", "ForkBomb"])
    seen = []
    solver = Solver(model, time_limit=0.5, on_progress=lambda s: seen.append(s.nodes),
                    backend="c")
    with pytest.raises(Timeout):
        solver.value(model.start())
    assert seen and solver.nodes > 0


def test_node_budget_stops_both_backends_at_the_same_count():
    """A budget of positions, unlike a time limit, gives the same answer on every machine: the
    perfect player relies on it for seeded games that replay exactly."""
    model = Model(PROGRAMS[0])
    counts = []
    for backend in ("c", "python"):
        solver = Solver(model, backend=backend, max_nodes=40_000)
        with pytest.raises(Timeout):
            solver.value(model.start())
        counts.append(solver.nodes)
    assert counts[0] == counts[1] and 40_000 < counts[0] <= 40_000 + 0x4000


def test_backend_choice():
    model = Model(PROGRAMS[0])
    assert Solver(model).backend == "c"
    assert Solver(model, backend="python").backend == "python"
    big = Model(["Bug"] * 7)
    assert Solver(big).backend == "python"  # more cards than the C search packs
    with pytest.raises(ValueError, match="cards"):
        Solver(big, backend="c")
    with pytest.raises(ValueError, match="backend"):
        Solver(model, backend="fortran")
