"""Time the exact solver on positions right after placement (level 1, 2 players).

    python benchmarks/solver_positions.py --positions 20 --time-limit 10 --seed 0

Each position: a program dealt by seed, then random placements; the solver starts afresh
(empty table) for each. A position not solved within the time limit counts as "> limit" (the
median is then a lower bound if more than half time out).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from spaghetti.core.game import Game
from spaghetti.solver.fast import from_state
from spaghetti.solver.search import Solver, Timeout


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    times, solved = [], 0
    for i in range(args.positions):
        state = Game(level=1).new_state(seed=rng.randrange(10**6))
        while state.phase == "placement":
            state.apply_action(rng.choice(state.legal_actions()))
        model, pos, history = from_state(state)
        solver = Solver(model, time_limit=args.time_limit)
        start = time.perf_counter()
        try:
            winner = solver.value(pos, history)
            solved += 1
        except Timeout:
            winner = None
        dt = time.perf_counter() - start
        times.append(dt if winner is not None else float("inf"))
        shown = f"{dt:.2f} s" if winner is not None else f"> {args.time_limit:g} s"
        print(f"{i:3d} {','.join(state.program):45s} winner {winner}  {shown}  "
              f"{solver.nodes:,} nodes", flush=True)
    med = statistics.median(times)
    print(f"solved {solved}/{args.positions}; median "
          f"{'> %g s' % args.time_limit if med == float('inf') else '%.2f s' % med}")


if __name__ == "__main__":
    main()
