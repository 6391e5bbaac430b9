"""Nodes of the history-keyed df-pn search against the epoch method (attractors where the
stalemate winner is fixed), on whole small programs and on positions right after placement.

    python benchmarks/solver_epochs.py
    python benchmarks/solver_epochs.py --program AddFlag,MoveFlag,RemoveFlag,ForkBomb,Bug \\
        --positions 20 --time-limit 20 --whole 0

A node is a position expanded: df-pn's node count (the same in Python and in C while the C
table keeps every entry), and for the epoch method the positions of the epoch graphs it built
plus the nodes of the df-pn search it keeps for the epochs whose winner is not fixed (shown
apart as ``graph + df-pn``). Each measurement uses a fresh solver. A search that runs out of
time is shown with ``>`` and the nodes it had reached.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from spaghetti.solver.epochs import EpochSolver
from spaghetti.solver.fast import Model
from spaghetti.solver.search import Solver, Timeout, c_unsupported_reason

#: whole programs from the empty board: (cards, placement order, life, supply)
SMALL = [
    (("MoveFlag", "RemoveFlag", "Bug"), (0, 1), 2, 0),
    (("ForkBomb", "MoveFlag", "AddFlag"), (0, 1), 2, 1),
    (("MoveFlag", "Bug", "RemoveFlag"), (0, 1, 0), 2, 0),
    (("MoveFlag", "Bug", "RemoveFlag", "AddFlag"), (0, 1), 2, 1),
    (("Bug", "MoveFlag", "ForkBomb", "RemoveFlag"), (0, 1, 0, 1), 2, 0),
    (("MoveFlag", "Bug", "RemoveFlag", "AddFlag"), (0, 1, 0, 1), 2, 1),
    (("AddFlag", "MoveFlag", "RemoveFlag", "Bug"), (0, 1, 0, 1), 3, 1),
]


def measure(make, pos, time_limit):
    """(winner or None, nodes, seconds, detail) of one fresh solver on ``pos``."""
    solver = make()
    if time_limit is not None:
        solver.deadline = time.monotonic() + time_limit
    start = time.monotonic()
    try:
        winner = solver.value(pos)
    except Timeout:
        winner = None
    seconds = time.monotonic() - start
    detail = ""
    if isinstance(solver, EpochSolver):
        detail = f"{solver.expanded} + {solver.search.nodes}"
    return winner, solver.nodes, seconds, detail


def methods(model: Model):
    out = [("df-pn Python", lambda: Solver(model, backend="python"))]
    if c_unsupported_reason(model) is None:
        out.append(("df-pn C", lambda: Solver(model, backend="c")))
    out.append(("epochs", lambda: EpochSolver(model)))
    return out


def row(label, model, pos, time_limit):
    cells = [label]
    winners = set()
    for name, make in methods(model):
        winner, nodes, seconds, detail = measure(make, pos, time_limit)
        if winner is None:
            cells.append(f"{name}: >{nodes:,} nodes ({seconds:.1f} s, open)")
        else:
            winners.add(winner)
            extra = f" = {detail}" if detail else ""
            cells.append(f"{name}: {nodes:,}{extra} nodes ({seconds:.2f} s)")
    if len(winners) > 1:
        raise SystemExit(f"the methods disagree on {label}: {winners}")
    cells.insert(1, f"winner {winners.pop()}" if winners else "open")
    print(" | ".join(cells), flush=True)


def after_placement(model: Model):
    out = set()
    stack = [model.start()]
    while stack:
        for _, child in model.place_moves(stack.pop()):
            (stack.append if child[0] == "place" else out.add)(child)
    return sorted(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--program", default="AddFlag,MoveFlag,RemoveFlag,ForkBomb,Bug",
                    help="a five-card program whose positions after placement are measured")
    ap.add_argument("--positions", type=int, default=10,
                    help="positions after placement of --program, drawn at random (seeded)")
    ap.add_argument("--time-limit", type=float, default=20.0,
                    help="seconds per position and method")
    ap.add_argument("--whole", type=float, default=0.0,
                    help="seconds for --program from the empty board by each method (0: skip)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--skip-small", action="store_true")
    args = ap.parse_args()
    sys.setrecursionlimit(200_000)
    if not args.skip_small:
        print("## Whole small programs from the empty board\n", flush=True)
        for cards, order, life, supply in SMALL:
            model = Model(cards, order, life, supply)
            label = f"{','.join(cards)} order {''.join(map(str, order))} life {life} " \
                    f"supply {supply}"
            row(label, model, model.start(), None)
    model = Model(args.program.split(","))
    if args.positions:
        print(f"\n## Positions right after placement of {args.program} "
              f"({args.time_limit:g} s each)\n", flush=True)
        leaves = after_placement(model)
        for pos in random.Random(args.seed).sample(leaves, min(args.positions, len(leaves))):
            row(str(pos[0]), model, pos, args.time_limit)
    if args.whole:
        print(f"\n## {args.program} from the empty board ({args.whole:g} s each)\n", flush=True)
        row(args.program, model, model.start(), args.whole)


if __name__ == "__main__":
    main()
