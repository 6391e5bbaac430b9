"""Where a level-1 program's difficulty lies: its positions after some placements, one by one.

    python benchmarks/post_placement.py --program AddFlag,ForkBomb,MoveFlag,Bug,RemoveFlag \
        --depth 8 --stages 0.3,3,30 --table-mb 1500
    python benchmarks/post_placement.py --program MoveFlag,Bug,ForkBomb,RemoveFlag,AddFlag \
        --depth 1 --stages 1800,3600 --table-mb 8000 --out docs/solved/level1-subresults.jsonl \
        --tables .tables
    python benchmarks/post_placement.py --out docs/solved/level1-subresults.jsonl --report

Every distinct position after ``--depth`` placements (1: each first placement of seat 0; 8: the
positions where execution begins) is solved with a time limit per position; those left open get
the next, longer limit (one table is shared by all, so work carries over). After each position
the program's value is worked out over the placement tree from the positions proven so far
(unknown while it still depends on an open one), and the run stops once it is known.

With ``--out`` each attempt is a line of a JSON Lines file (the program, the placements that
lead to the position, its winner or null, the seconds it took and the limit), so a run that
stops goes on where it was: proven positions are not searched again, and an open one only with
a limit larger than any it had. ``--tables DIR`` keeps the search table between runs (saved when
a run ends, loaded when the next one of the same program and table size starts). ``--report``
prints, from the file, each program's positions and what they decide, in Markdown.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from spaghetti.cli.common import SetupError, check_table_mb  # noqa: E402
from spaghetti.solver.fast import Model  # noqa: E402
from spaghetti.solver.search import Solver, Timeout  # noqa: E402

SEATS = ("first (seat 0)", "second (seat 1)")


def positions(model: Model, depth: int) -> dict:
    """The distinct positions after ``depth`` placements, each with the first line of
    placements (in the engine's order) that reaches it."""
    found: dict = {}

    def walk(ppos, line):
        for option, child in model.place_moves(ppos):
            here = line + (option,)
            if len(here) == depth or child[0] != "place":
                found.setdefault(child, ", ".join(here))
            else:
                walk(child, here)

    walk(model.start(), ())
    return found


def tree_value(model: Model, depth: int, known: dict, ppos=None, done: int = 0):
    """The winner over the placement tree down to ``depth`` from the positions in ``known``
    (position -> winner or None), or None while it depends on an open one."""
    ppos = model.start() if ppos is None else ppos
    values = [known[c] if done + 1 == depth or c[0] != "place"
              else tree_value(model, depth, known, c, done + 1)
              for _, c in model.place_moves(ppos)]
    mover = model.placement_order[ppos[2]]
    if mover in values:
        return mover
    return 1 - mover if all(v == 1 - mover for v in values) else None


def load(path: pathlib.Path | None) -> list[dict]:
    if path is None or not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def report(rows: list[dict]) -> str:
    """Per program and depth: each position's winner (or open, with the seconds spent on it)."""
    out = []
    groups: dict[tuple, dict[str, dict]] = {}
    for r in rows:
        g = groups.setdefault((r["program"], r["depth"]), {})
        best = g.setdefault(r["placements"], {"winner": None, "spent": 0.0})
        best["spent"] += r["seconds"]
        if r["winner"] is not None:
            best["winner"] = r["winner"]
    for (program, depth), found in groups.items():
        model = Model(program.split(","))
        known = {pos: found.get(line, {}).get("winner")
                 for pos, line in positions(model, depth).items()}
        value = tree_value(model, depth, known)
        proven = sum(v is not None for v in known.values())
        out.append(f"**{program.replace(',', ', ')}**, after {depth} placement(s): "
                   f"{proven} of {len(known)} positions proven; the program: "
                   f"{'open' if value is None else 'won by the ' + SEATS[value].split()[0] + ' player'}.")
        if depth <= 2:
            out += ["", "| placements | winner | search (s, all attempts) |", "|---|---|---|"]
            for line, r in sorted(found.items()):
                who = "open" if r["winner"] is None else SEATS[r["winner"]]
                out.append(f"| {line} | {who} | {r['spent']:.0f} |")
        out.append("")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--program", default="AddFlag,ForkBomb,MoveFlag,Bug,RemoveFlag",
                    help="the five level-1 cards in order, separated by commas")
    ap.add_argument("--depth", type=int, default=8, help="placements made before a position "
                    "is solved (1-8; default 8, where execution begins)")
    ap.add_argument("--stages", default="0.3,3,30", help="seconds per position, stage by stage")
    ap.add_argument("--table-mb", type=int, default=1500)
    ap.add_argument("--out", type=pathlib.Path, help="JSON Lines file of results (resumable)")
    ap.add_argument("--tables", help="a folder to keep the search table in between runs")
    ap.add_argument("--only", help="solve only these positions: placements such as "
                    "'place 2' (semicolon-separated), in this order")
    ap.add_argument("--report", action="store_true", help="print the results of --out and stop")
    args = ap.parse_args()
    if args.report:
        if args.out is None:
            ap.error("--report needs --out")
        print(report(load(args.out)))
        return
    if not 1 <= args.depth <= 8:
        ap.error("--depth is 1 to 8")
    try:
        check_table_mb(args.table_mb)
        model = Model(args.program.split(","))
    except (SetupError, ValueError) as exc:
        ap.error(str(exc))
    leaves = positions(model, args.depth)
    line_of = dict(leaves)
    known: dict = {pos: None for pos in leaves}
    tried: dict = {pos: 0.0 for pos in leaves}
    by_line = {line: pos for pos, line in leaves.items()}
    for r in load(args.out):
        if r["program"] == args.program and r["depth"] == args.depth and r["placements"] in by_line:
            pos = by_line[r["placements"]]
            if r["winner"] is not None:
                known[pos] = r["winner"]
            tried[pos] = max(tried[pos], r["limit"])
    order = list(leaves)
    if args.only:
        wanted = [w.strip() for w in args.only.split(";")]
        unknown = [w for w in wanted if w not in by_line]
        if unknown:
            ap.error(f"--only: no position after {args.depth} placement(s) is reached by "
                     f"{unknown[0]!r}")
        order = [by_line[w] for w in wanted]
    print(f"program {args.program}: {len(leaves)} distinct positions after {args.depth} "
          f"placement(s), {sum(v is not None for v in known.values())} proven before; a table of "
          f"{args.table_mb:,} MB fits the memory available", flush=True)
    solver = Solver(model, backend="c", table_mb=args.table_mb)
    saved = None
    if args.tables:
        saved = os.path.join(args.tables, f"{args.program}.{args.table_mb}mb.table")
        if os.path.exists(saved):
            solver.load_table(saved)
            print(f"search table loaded from {saved}", flush=True)
    start = time.monotonic()
    program_value = tree_value(model, args.depth, known)
    try:
        for limit in (float(x) for x in args.stages.split(",")):
            if program_value is not None:
                break
            for pos in [p for p in order if known[p] is None and tried[p] < limit]:
                began = time.monotonic()
                solver.deadline = began + limit
                try:
                    known[pos] = solver.value(pos)
                except Timeout:
                    pass
                tried[pos] = limit
                row = {"program": args.program, "depth": args.depth, "placements": line_of[pos],
                       "winner": known[pos], "seconds": round(time.monotonic() - began, 1),
                       "limit": limit}
                if args.out is not None:
                    with args.out.open("a") as sink:
                        sink.write(json.dumps(row) + "\n")
                print(json.dumps(row), flush=True)
                program_value = tree_value(model, args.depth, known)
                if program_value is not None:
                    break
            open_ = sum(v is None for v in known.values())
            won0 = sum(v == 0 for v in known.values())
            print(f"{limit:g} s a position: {len(leaves) - open_} proven ({won0} won by seat 0), "
                  f"{open_} open; the program: {program_value}; "
                  f"{time.monotonic() - start:.0f} s so far", flush=True)
    finally:
        if saved is not None and program_value is None:
            os.makedirs(args.tables, exist_ok=True)
            solver.save_table(saved)
            print(f"search table saved to {saved}", flush=True)


if __name__ == "__main__":
    main()
