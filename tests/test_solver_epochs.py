"""The epoch method of the level-1 solver: the same values as the history-keyed df-pn search on
every reachable position of small programs, and the claim it rests on (an epoch's first position
has a history-free value, the attractor of the exits, when the stalemate winner is fixed)."""

from __future__ import annotations

import random
import sys

import pytest

from spaghetti.solver.epochs import EpochSolver, Timeout, fixed_winner
from spaghetti.solver.fast import END, IRR, REV, Model
from spaghetti.solver.search import Solver, _csearch
from test_solver import minimax_fast  # plain exhaustive minimax over the same model

pytestmark = pytest.mark.solver

BACKENDS = [pytest.param("c", marks=pytest.mark.skipif(
    _csearch is None, reason="the C extension spaghetti.solver._csearch is not built")), "python"]

# (program, placement order, life, supply): 3 and 4 cards, both balanced placements (the first
# epoch's winner is not fixed) and an odd one (seat 0 has more flags from the start)
SMALL = [
    (["MoveFlag", "RemoveFlag", "Bug"], (0, 1), 2, 0),
    (["ForkBomb", "MoveFlag", "AddFlag"], (0, 1), 2, 1),
    (["MoveFlag", "Bug", "RemoveFlag"], (0, 1, 0), 2, 0),
    (["MoveFlag", "Bug", "RemoveFlag", "AddFlag"], (0, 1), 2, 1),
    (["Bug", "MoveFlag", "ForkBomb", "RemoveFlag"], (0, 1, 0, 1), 2, 0),
]


@pytest.fixture(autouse=True)
def deep_recursion():
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 50_000))  # the references recurse along lines of play
    yield
    sys.setrecursionlimit(old)


def first_positions(model):
    """The turn positions right after placement."""
    out = set()
    stack = [model.start()]
    while stack:
        for _, child in model.place_moves(stack.pop()):
            (stack.append if child[0] == "place" else out.add)(child)
    return out


def reachable(model):
    """Every turn position reachable from the empty board, in a fixed order."""
    seen = first_positions(model)
    stack = list(seen)
    while stack:
        for _, tag, res in model.moves(stack.pop()):
            if tag != END and res not in seen:
                seen.add(res)
                stack.append(res)
    return sorted(seen)


@pytest.mark.parametrize("program,order,life,supply", SMALL)
def test_epoch_values_match_the_search_on_every_reachable_position(program, order, life,
                                                                   supply):
    """Every reachable turn position as the first of its epoch: the epoch method against
    df-pn, in Python and in C, one solver for all positions (so memos are shared across
    positions, as in a whole game)."""
    model = Model(program, order, life, supply)
    positions = reachable(model)
    positions = positions[::1 + len(positions) // 800]  # a spread of at most 800: seconds
    epochs = EpochSolver(model)
    searches = [Solver(model, backend="python")]
    if _csearch is not None:
        searches.append(Solver(model, backend="c"))
    kinds = {True: 0, False: 0}
    for pos in positions:
        value = epochs.value(pos)
        for search in searches:
            assert search.value(pos) == value, (pos, search.backend)
        kinds[fixed_winner(pos) is not None] += 1
    assert kinds[True] and kinds[False]  # fixed and unfixed epochs both met
    assert epochs.nodes == epochs.expanded + epochs.search.nodes > 0


@pytest.mark.parametrize("program,order,life,supply", SMALL)
def test_epoch_solver_solves_whole_programs_from_the_empty_board(program, order, life,
                                                                 supply, ):
    model = Model(program, order, life, supply)
    expected = Solver(model, backend="python").value(model.start())
    assert EpochSolver(model).value(model.start()) == expected


def epoch_graph(model, p0):
    """The positions reachable from ``p0`` by reversible turns (every turn kept)."""
    seen = {p0}
    stack = [p0]
    while stack:
        for _, tag, res in model.moves(stack.pop()):
            if tag == REV and res not in seen:
                seen.add(res)
                stack.append(res)
    return seen


def attractor(model, nodes, loser, exit_value):
    """``loser``'s attractor of the exits good for it, written plainly: add positions until
    none can be added."""
    inside: set = set()
    grew = True
    while grew:
        grew = False
        for pos in nodes - inside:
            outcomes = []
            for _, tag, res in model.moves(pos):
                if tag == END:
                    outcomes.append(res == loser)
                elif tag == IRR:
                    outcomes.append(exit_value(res) == loser)
                else:
                    outcomes.append(res in inside)
            if (any if pos[2] == loser else all)(outcomes):
                inside.add(pos)
                grew = True
    return inside


@pytest.mark.parametrize("program,order,life,supply", SMALL[:3])
def test_epoch_value_is_history_free_when_tiebreak_fixed(program, order, life, supply):
    """The claim: when lives differ, or lives tie and the flag counts differ, every stalemate
    of the epoch has the same winner W, and the other seat L wins from the epoch's first
    position p0 (history {p0}) exactly when p0 is in L's attractor of the exits good for L,
    a property of p0 and the graph reachable from it, with no history in it. Checked here
    with a plain attractor, independent of the epoch solver, whose exits and result are valued
    by the history-keyed df-pn search (itself checked against minimax in test_solver.py)."""
    model = Model(program, order, life, supply)
    search = Solver(model, backend="python")

    def exit_value(q):
        return search.value(q)

    checked = 0
    for p0 in reachable(model):
        w = fixed_winner(p0)
        if w is None:
            continue
        nodes = epoch_graph(model, p0)
        assert {model.tiebreak(q) for q in nodes} == {w}  # every stalemate: the same winner
        inside = attractor(model, nodes, 1 - w, exit_value)
        assert (1 - w if p0 in inside else w) == exit_value(p0)
        checked += 1
    assert checked > 20


def lines(model, seed, count=40, length=10):
    """Positions along random lines of play with the history of their epoch before them."""
    rng = random.Random(seed)
    starts = sorted(first_positions(model))
    for _ in range(count):
        pos = rng.choice(starts)
        seen = [model.rep_key(pos)]
        for _ in range(length):
            yield pos, set(seen[:-1])
            moves = [m for m in model.moves(pos) if m[1] == IRR
                     or (m[1] == REV and model.rep_key(m[2]) not in seen)]
            if not moves:
                break
            _, tag, pos = rng.choice(moves)
            seen = [model.rep_key(pos)] if tag == IRR else seen + [model.rep_key(pos)]


@pytest.mark.parametrize("program,order,life,supply", SMALL[:4])
def test_mid_epoch_positions_with_their_history_match_minimax(program, order, life, supply):
    """In the middle of an epoch the value depends on the positions already seen: the epoch
    method takes them as removed from the graph (a return to one is W's stalemate), and
    agrees with the history-keyed search given the same history, in fixed and unfixed
    epochs (and with plain minimax on the smallest program)."""
    model = Model(program, order, life, supply)
    solver = EpochSolver(model)
    search = Solver(model, backend="python")
    compared = with_history = 0
    for pos, history in lines(model, seed=len(program) + len(order)):
        if program == SMALL[0][0]:
            expected = minimax_fast(model, pos, history | {model.rep_key(pos)})
        else:
            expected = search.value(pos, history)
        assert solver.value(pos, history) == expected, (pos, history)
        compared += 1
        with_history += bool(history) and fixed_winner(pos) is not None
    assert compared > 50 and with_history > 5


def test_mid_epoch_values_still_depend_on_history():
    """Only an epoch's first position is history-free: positions in the middle of an epoch
    with a fixed stalemate winner change value with the positions seen before them (those are
    W's stalemates now, so L may have lost its way through them), and the epoch method
    follows the history-keyed search on each."""
    model = Model(["ForkBomb", "MoveFlag", "AddFlag"], (0, 1), 2, 1)
    solver = EpochSolver(model)
    search = Solver(model, backend="python")
    found = 0
    for pos, history in lines(model, seed=0, count=80):
        if not history or fixed_winner(pos) is None:
            continue
        with_h, alone = search.value(pos, history), search.value(pos)
        assert solver.value(pos, history) == with_h
        assert solver.value(pos) == alone
        found += with_h != alone
    assert found >= 10


def test_a_repeated_root_is_the_stalemate_and_a_budget_stops_the_search():
    model = Model(["MoveFlag", "Bug", "RemoveFlag", "AddFlag"], (0, 1), 2, 1)
    pos = sorted(first_positions(model))[0]
    assert EpochSolver(model).value(pos, {model.rep_key(pos)}) == model.tiebreak(pos)
    with pytest.raises(Timeout):
        EpochSolver(model, max_nodes=10).value(model.start())
