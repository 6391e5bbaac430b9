"""Where a level-1 program's difficulty lies: its positions right after placement, one by one.

    python benchmarks/post_placement.py --program AddFlag,ForkBomb,MoveFlag,Bug,RemoveFlag \
        --stages 0.3,3,30 --table-mb 1500

Every distinct position after the eight placements is solved with a time limit per position;
those left open get the next, longer limit (one table is shared by all, so work carries over).
After each stage the program's value is worked out over the placement tree from the positions
proven so far (unknown while it still depends on an open one), and the run stops once it is
known.
"""

from __future__ import annotations

import argparse
import time

from spaghetti.solver.fast import Model
from spaghetti.solver.search import Solver, Timeout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--program", default="AddFlag,ForkBomb,MoveFlag,Bug,RemoveFlag",
                    help="the five level-1 cards in order, separated by commas")
    ap.add_argument("--stages", default="0.3,3,30", help="seconds per position, stage by stage")
    ap.add_argument("--table-mb", type=int, default=1500)
    args = ap.parse_args()
    model = Model(args.program.split(","))
    leaves: dict = {}

    def walk(ppos):
        for _, child in model.place_moves(ppos):
            if child[0] == "place":
                walk(child)
            else:
                leaves[child] = None

    def value(ppos):
        """The winner over the placement tree, or None while it depends on an open position."""
        values = [value(c) if c[0] == "place" else leaves[c] for _, c in model.place_moves(ppos)]
        mover = model.placement_order[ppos[2]]
        if mover in values:
            return mover
        return 1 - mover if all(v == 1 - mover for v in values) else None

    walk(model.start())
    print(f"program {args.program}: {len(leaves)} distinct positions after placement")
    solver = Solver(model, backend="c", table_mb=args.table_mb)
    start = time.monotonic()
    program_value = None
    for limit in (float(x) for x in args.stages.split(",")):
        for pos in [p for p, v in leaves.items() if v is None]:
            solver.deadline = time.monotonic() + limit
            try:
                leaves[pos] = solver.value(pos)
            except Timeout:
                pass
            program_value = value(model.start())
            if program_value is not None:
                break
        open_ = sum(v is None for v in leaves.values())
        won0 = sum(v == 0 for v in leaves.values())
        print(f"{limit:g} s a position: {len(leaves) - open_} proven ({won0} won by seat 0), "
              f"{open_} open; the program: {program_value}; "
              f"{time.monotonic() - start:.0f} s so far", flush=True)
        if program_value is not None:
            break


if __name__ == "__main__":
    main()
