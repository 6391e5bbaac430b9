"""How the level-1 solver's table size changes the work of a whole program from the empty board.

    python benchmarks/solver_table.py --program AddFlag,Bug,MoveFlag,ForkBomb,RemoveFlag \
        --table-mb 16,32,64,256

For each size, a fresh C solver proves the program: the positions searched (more than the
least whenever the table is too small to keep what the proof re-reads), the time, the rate and
the entries the table held. The node count for a given size is exact and repeatable; times are
for comparison within one run.
"""

from __future__ import annotations

import argparse
import time

from spaghetti.solver.fast import Model
from spaghetti.solver.search import Solver, Timeout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--program", default="AddFlag,Bug,MoveFlag,ForkBomb,RemoveFlag",
                    help="the five level-1 cards in order, separated by commas")
    ap.add_argument("--table-mb", default="16,32,64,256",
                    help="table sizes in megabytes, separated by commas")
    ap.add_argument("--time-limit", type=float, default=600.0, help="seconds per size")
    args = ap.parse_args()
    model = Model(args.program.split(","))
    print(f"program {args.program}")
    for mb in (int(x) for x in args.table_mb.split(",")):
        solver = Solver(model, time_limit=args.time_limit, backend="c", table_mb=mb)
        start = time.perf_counter()
        try:
            winner = f"seat {solver.value(model.start())} wins"
        except Timeout:
            winner = f"open after {args.time_limit:g} s"
        dt = time.perf_counter() - start
        print(f"{mb:6d} MB  {winner:18s} {solver.nodes:>13,} nodes  {dt:7.1f} s  "
              f"{solver.nodes / dt:>11,.0f} nodes/s  {solver.table_size:>12,} entries",
              flush=True)


if __name__ == "__main__":
    main()
