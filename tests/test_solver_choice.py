"""The exact solver in the middle of a command: the ways to finish the command are searched
together, as one node above the turn positions they lead to (``Solver.value_of_choice``).
Checked against plain minimax through the engine, against solving every outcome on its own (the
search before), and on the two MoveFlag positions that used to stall."""

from __future__ import annotations

import random
import sys

import pytest

import spaghetti
from spaghetti import records
from spaghetti.core import notation as N
from spaghetti.core.state import D_TURN, EXECUTION
from spaghetti.solver.api import Timeout, _outcomes, solve
from spaghetti.solver.fast import Model, from_state
from spaghetti.solver.search import Solver

from helpers import Budget, minimax_engine

pytestmark = pytest.mark.solver


#: A record whose last action is ``run`` on a MoveFlag card: seat 0 chooses a flag and a card.
#: Solving the ways to finish the command one by one took 162 s and 140 million positions.
STALLED_RECORD = {
    "format": "spaghetti-record/1", "variant": "spaghetti-code", "level": 1, "players": 2,
    "program": ["Bug", "MoveFlag", "MoveFlag", "MoveFlag"],
    "actions": (
        "place 1,place 3,place 0,place 0,place 3,place 1,place 2,place 2,pass,run,player 1,"
        "run,flag 3.0,to 2,run,flag 0.1,to 2,run,flag 0.0,to 3,run,flag 1.1,to 0,run,flag 2.3,"
        "to 1,pass,pass,pass,pass,run,flag 2.1,to 1,run,flag 3.1,to 0,run,flag 1.2,to 2,run,"
        "flag 2.2,to 3,run,player 1,run,player 0,run,flag 2.0,to 1,run,flag 3.1,to 1,run,"
        "flag 1.0,to 3,run,flag 1.2,to 3,pass,run,player 1,pass,run,flag 3.1,to 0,run,"
        "flag 1.1,to 0,run,flag 0.1,to 2,run").split(","),
}

SMALL = [
    ["Bug", "MoveFlag", "MoveFlag", "MoveFlag"],
    ["MoveFlag", "RemoveFlag", "Bug", "MoveFlag"],
    ["ForkBomb", "MoveFlag", "AddFlag", "Bug"],
    ["MoveFlag", "Bug", "MoveFlag", "RemoveFlag"],
]


def one_by_one(state, backend, budget):
    """The winner as the solver found it before: each way to finish the command solved on its
    own, a fresh search each."""
    mover = state.to_move
    for _, end in _outcomes(state, mover):
        if end.is_over:
            w = end.winner
        else:
            model, pos, history = from_state(end)
            w = Solver(model, backend=backend, max_nodes=budget, table_mb=16).value(pos,
                                                                                   history)
        if w == mover:
            return mover
    return 1 - mover


def mid_command_states(seed: int, games: int, life: int, programs=SMALL):
    """States in the middle of a command (a flag, a card or a player to choose) of random
    games of small programs, each player starting with ``life`` lives."""
    rng = random.Random(seed)
    for g in range(games):
        state = spaghetti.new_game(level=1, program=programs[g % len(programs)], seed=g)
        state.lives[:] = [life, life]
        while not state.is_over:
            if state.phase == EXECUTION and state.decision != D_TURN:
                yield state
            acts = state.legal_actions()
            run = [a for a in acts if a != N.PASS]
            state.apply_action(rng.choice(run if run and rng.random() < 0.7 else acts))


def test_outcomes_are_every_way_to_finish_the_command():
    """Each outcome is a finished game or a turn decision, reached by the seat to move alone."""
    seen = 0
    for state in mid_command_states(seed=1, games=10, life=2):
        ends = _outcomes(state, state.to_move)
        assert ends
        for options, end in ends:
            replay = state.copy()
            for option in options:
                assert replay.to_move == state.to_move
                replay.apply(option)
            assert replay.is_over or replay.decision == D_TURN
            assert replay.position_key() == end.position_key()
        seen += 1
    assert seen > 50


def test_mid_command_agrees_with_engine_minimax(backend):
    """Small positions in the middle of a command: the same winner as plain minimax through
    the engine, whatever the order the search takes the outcomes in."""
    compared = 0
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(50_000)
    try:
        for state in mid_command_states(seed=7, games=60, life=1):
            try:
                expected = minimax_engine(state.copy(), [1_500])
            except Budget:
                continue
            result = solve(state, backend=backend, table_mb=16)
            assert result.winner == expected
            replay = state.copy()
            for option in result.line:
                replay.apply(option)
            assert replay.is_over and replay.winner == result.winner
            compared += 1
            if compared >= 40:
                break
    finally:
        sys.setrecursionlimit(old)
    assert compared >= 40


def test_mid_command_agrees_with_solving_each_outcome_alone(backend):
    """Larger positions (lives of 2): the same winner as the search before, which solved each
    way to finish the command on its own (positions either one cannot prove within a budget
    are left out)."""
    compared = 0
    budget = 200_000 if backend == "c" else 20_000
    for i, state in enumerate(mid_command_states(seed=11, games=40, life=2)):
        if i % 3:
            continue
        try:
            before = one_by_one(state, backend, budget)
        except Timeout:
            continue
        assert solve(state, line=False, backend=backend, max_nodes=budget,
                     table_mb=16).winner == before
        compared += 1
        if compared >= (30 if backend == "c" else 10):
            break
    assert compared >= 10


def test_value_of_choice_names_an_outcome_that_keeps_the_value(backend):
    """The index it returns: a winning outcome when the mover wins, and the mover wins exactly
    when one outcome does (each checked by a fresh search; a fixed outcome is a winner)."""
    program = ["Bug", "MoveFlag", "MoveFlag", "MoveFlag"]
    model = Model(program)
    budget = 50_000 if backend == "c" else 3_000

    def alone(root):
        if isinstance(root, int):
            return root
        return Solver(model, backend=backend, max_nodes=budget, table_mb=16).value(*root)

    checked = 0
    for state in mid_command_states(seed=3, games=10, life=1, programs=[program]):
        mover = state.to_move
        roots = [end.winner if end.is_over else from_state(end)[1:]
                 for _, end in _outcomes(state, mover)]
        try:
            each = [alone(root) for root in roots]
        except Timeout:
            continue
        winner, i = Solver(model, backend=backend, table_mb=16).value_of_choice(mover, roots)
        assert (winner == mover) == (mover in each)
        if winner == mover:
            assert each[i] == mover
        checked += 1
        if checked >= (25 if backend == "c" else 10):
            break
    assert checked >= 10


def test_value_of_choice_with_fixed_outcomes_only(backend):
    model = Model(["Bug", "MoveFlag"])
    solver = Solver(model, backend=backend)
    assert solver.value_of_choice(0, [1, 0, 1]) == (0, 1)
    assert solver.value_of_choice(1, [0, 0])[0] == 0
    with pytest.raises(ValueError):
        solver.value_of_choice(0, [])


def random_game(program, seed: int, upto: int):
    """A game of uniformly random play, seeded, stopped after ``upto`` actions."""
    rng = random.Random(seed)
    state = spaghetti.new_game(level=1, program=program, seed=seed)
    while not state.is_over and len(state.history) < upto:
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("case", ["record", "seed 1, action 144"])
def test_moveflag_positions_that_stalled_are_proven_at_once(case, backend):
    """The issue's record (162 s, 140 million positions before) and a position of another game
    of the same program (no proof within 60 s before): a few thousand positions now."""
    if case == "record":
        state = records.replay(STALLED_RECORD)
        expected = 0
    else:
        state = random_game(["Bug", "MoveFlag", "MoveFlag", "MoveFlag"], 1, 144)
        assert state.deciding == "flag"
        expected = 1
    result = solve(state, backend=backend, max_nodes=100_000, table_mb=64)
    assert result.winner == expected
    replay = state.copy()
    for option in result.line:
        replay.apply(option)
    assert replay.is_over and replay.winner == expected
