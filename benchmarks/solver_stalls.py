"""Time the exact solver on MoveFlag-heavy positions in the middle of a command (program
Bug,MoveFlag,MoveFlag,MoveFlag), against the way it solved them before.

    python benchmarks/solver_stalls.py --seeds 0-29 --at 144 --time-limit 60

The positions: a record whose last action is ``run`` on a MoveFlag card (seat 0 to choose a flag
and a card), and, for each seed, the position after ``--at`` actions of a game of uniformly
random play (seeded), when that game is still on and in the middle of a command. Each position
is solved twice, alternating, each time with a fresh table:

- ``before``: every way to finish the command solved on its own, in the engine's order, until
  one wins for the seat choosing (the solver's way before the choice became a node of the
  search: it could spend its whole budget refuting the first outcome);
- ``after``: :func:`spaghetti.solver.api.solve`, which searches the outcomes together;
- with ``--general``, also ``general``: :class:`spaghetti.solver.general.GeneralSolver`, a
  second method (iterative deepening over value intervals through the engine, with a
  repetition-safe table), to tell a position hard in itself from one the df-pn search misreads.

``--only 16,22`` keeps only the games of those seeds (and the record).
"""

from __future__ import annotations

import argparse
import random
import time

import spaghetti
from spaghetti import records
from spaghetti.core.state import D_TURN, EXECUTION
from spaghetti.solver.api import Timeout, _outcomes, solve
from spaghetti.solver.fast import Model, from_state
from spaghetti.solver.general import GeneralSolver
from spaghetti.solver.search import Solver
from search_table import seeds  # the same reading of A-B as that benchmark's

PROGRAM = ["Bug", "MoveFlag", "MoveFlag", "MoveFlag"]
RECORD = {
    "format": "spaghetti-record/1", "variant": "spaghetti-code", "level": 1, "players": 2,
    "program": PROGRAM,
    "actions": (
        "place 1,place 3,place 0,place 0,place 3,place 1,place 2,place 2,pass,run,player 1,"
        "run,flag 3.0,to 2,run,flag 0.1,to 2,run,flag 0.0,to 3,run,flag 1.1,to 0,run,flag 2.3,"
        "to 1,pass,pass,pass,pass,run,flag 2.1,to 1,run,flag 3.1,to 0,run,flag 1.2,to 2,run,"
        "flag 2.2,to 3,run,player 1,run,player 0,run,flag 2.0,to 1,run,flag 3.1,to 1,run,"
        "flag 1.0,to 3,run,flag 1.2,to 3,pass,run,player 1,pass,run,flag 3.1,to 0,run,"
        "flag 1.1,to 0,run,flag 0.1,to 2,run").split(","),
}


def random_game(seed: int, upto: int):
    """A game of uniformly random play, seeded, stopped after ``upto`` actions."""
    rng = random.Random(seed)
    state = spaghetti.new_game(level=1, program=PROGRAM, seed=seed)
    while not state.is_over and len(state.history) < upto:
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def before(state, time_limit: float, table_mb: int) -> tuple[int, int]:
    """The winner and positions searched, the outcomes solved one by one (one table)."""
    mover = state.to_move
    ends = _outcomes(state, mover)
    assert ends is not None
    game = state.game
    model = Model(state.program, game.placement_order, game.life, game.supply)
    solver = Solver(model, time_limit=time_limit, table_mb=table_mb)
    for _, end in ends:
        if end.is_over:
            w = end.winner
        else:
            _, pos, history = from_state(end)
            w = solver.value(pos, history)
        if w == mover:
            break
    else:
        w = 1 - mover
    return w, solver.nodes


def after(state, time_limit: float, table_mb: int) -> tuple[int, int]:
    result = solve(state, time_limit=time_limit, line=False, table_mb=table_mb)
    assert result.winner is not None
    return result.winner, result.nodes


def general(state, time_limit: float, table_mb: int) -> tuple[int, int]:
    solver = GeneralSolver(seat=state.to_move, time_limit=time_limit)
    value = solver.value(state)
    return (state.to_move if value > 0 else 1 - state.to_move), solver.nodes


def timed(fn, state, args) -> tuple[int | None, int | None, float]:
    start = time.perf_counter()
    try:
        w, nodes = fn(state, args.time_limit, args.table_mb)
    except Timeout:
        return None, None, time.perf_counter() - start
    return w, nodes, time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", default="0-29",
                    help="a seed or a range A-B of game seeds, both included")
    ap.add_argument("--at", type=int, default=144, help="the action to stop each game at")
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--table-mb", type=int, default=512)
    ap.add_argument("--general", action="store_true", help="also time the general solver")
    ap.add_argument("--only", help="seeds to keep, comma-separated")
    args = ap.parse_args()
    only = None if args.only is None else {int(x) for x in args.only.split(",")}
    cases = [("record", records.replay(RECORD))]
    for seed in seeds(args.seeds):
        if only is not None and seed not in only:
            continue
        state = random_game(seed, args.at)
        if not state.is_over and state.phase == EXECUTION and state.decision != D_TURN:
            cases.append((f"seed {seed}", state))
    print(f"{len(cases)} positions; limit {args.time_limit:g} s each")
    methods = [("before", before), ("after", after)] + [("general", general)] * args.general
    totals = {label: [0, 0.0] for label, _ in methods}
    for name, state in cases:
        row = []
        for label, fn in methods:
            w, nodes, dt = timed(fn, state, args)
            if w is not None:
                totals[label][0] += 1
                totals[label][1] += dt
                row.append(f"{label}: winner {w} {dt:7.2f} s {nodes:>12,} positions")
            else:
                row.append(f"{label}: > {args.time_limit:g} s")
            if label == "before":
                won_before = w
            elif won_before is not None and w is not None:
                assert w == won_before, f"{name}: the two disagree"
        print(f"{name:9s} {state.deciding:6s} | " + " | ".join(row), flush=True)
    for label, (solved, spent) in totals.items():
        print(f"{label}: {solved}/{len(cases)} solved within {args.time_limit:g} s, "
              f"{spent:.1f} s on those")


if __name__ == "__main__":
    main()
