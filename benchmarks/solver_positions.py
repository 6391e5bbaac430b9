"""Time the exact solver on positions right after placement (level 1, 2 players).

    python benchmarks/solver_positions.py --positions 20 --time-limit 10 --seed 0

Each position: a program dealt by seed, then random placements; the solver starts afresh
(empty table) for each. A position not solved within the time limit counts as "> limit" (the
median is then a lower bound if more than half time out). ``--backend both`` (the default)
times the same positions with the C search and then the Python one, and compares them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from spaghetti.core.game import Game
from spaghetti.solver.fast import from_state
from spaghetti.solver.search import Solver, Timeout


def positions(count: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        state = Game(level=1).new_state(seed=rng.randrange(10**6))
        while state.phase == "placement":
            state.apply_action(rng.choice(state.legal_actions()))
        yield state


def run(backend: str, args) -> dict:
    """Time one backend on the positions; a summary of the run."""
    print(f"backend {backend}")
    times, winners, solved, nodes, busy = [], [], 0, 0, 0.0
    for i, state in enumerate(positions(args.positions, args.seed)):
        model, pos, history = from_state(state)
        solver = Solver(model, time_limit=args.time_limit, backend=backend)
        start = time.perf_counter()
        try:
            winner = solver.value(pos, history)
            solved += 1
        except Timeout:
            winner = None
        dt = time.perf_counter() - start
        nodes += solver.nodes
        busy += dt
        times.append(dt if winner is not None else float("inf"))
        winners.append(winner)
        shown = f"{dt:.2f} s" if winner is not None else f"> {args.time_limit:g} s"
        print(f"{i:3d} {','.join(state.program):45s} winner {winner}  {shown}  "
              f"{solver.nodes:,} nodes", flush=True)
    med = statistics.median(times)
    rate = nodes / busy if busy else 0.0
    print(f"{backend}: solved {solved}/{args.positions}; median "
          f"{'> %g s' % args.time_limit if med == float('inf') else '%.2f s' % med}; "
          f"{rate:,.0f} nodes/s")
    return {"times": times, "winners": winners, "rate": rate}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--backend", choices=("both", "c", "python"), default="both")
    args = ap.parse_args()
    backends = ("c", "python") if args.backend == "both" else (args.backend,)
    runs = {b: run(b, args) for b in backends}
    if len(runs) == 2:
        c, py = runs["c"], runs["python"]
        both = [(a, b) for a, b in zip(c["winners"], py["winners"])
                if a is not None and b is not None]
        agree = sum(a == b for a, b in both)
        ratios = [tp / tc for tc, tp in zip(c["times"], py["times"])
                  if tc != float("inf") and tp != float("inf") and tc > 0]
        print(f"same winner on {agree}/{len(both)} positions solved by both; "
              f"nodes/s ratio {c['rate'] / py['rate']:.0f}x" if py["rate"] else "")
        if ratios:
            print(f"time ratio on positions solved by both: median "
                  f"{statistics.median(ratios):.0f}x")


if __name__ == "__main__":
    main()
