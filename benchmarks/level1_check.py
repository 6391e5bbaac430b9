"""The second check of the level-1 proofs: the proven winner's strategy plays from the empty
board against many opponents and must never lose (:mod:`spaghetti.lab.level1_check`).

    python benchmarks/level1_check.py [--max-seconds 120] [--table-mb 512]
                                      [--only PROGRAM] [--tables DIR]
                                      [--results docs/solved/level1.json]
                                      [--out docs/solved/level1-check.jsonl]

Programs are taken quickest proof first (``--max-seconds``: only those proven within that many
seconds, since the winner's first decision repeats the proof from the empty board). Every game
is one line of ``--out``, written as it ends; a stopped run goes on where it was. At the end it
prints the counts; ``spaghetti solve-level1 --output docs/solved/level1.json --markdown
docs/solved/level1.md --limit 0`` puts them in docs/solved/level1.md.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import signal
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from rich.progress import Progress  # noqa: E402

from spaghetti.lab import level1_check  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", default=str(ROOT / "docs/solved/level1.json"))
    parser.add_argument("--out", default=str(ROOT / "docs/solved/level1-check.jsonl"))
    parser.add_argument("--max-seconds", type=float, default=None)
    parser.add_argument("--table-mb", type=int, default=512)
    parser.add_argument("--tables", metavar="DIR",
                        help="keep the search table of a check that is stopped (Ctrl-C or "
                             "SIGTERM) in DIR, and take it up when the check starts again")
    parser.add_argument("--only", action="append", metavar="PROGRAM",
                        help="check only this program (cards joined by commas; repeatable), "
                             "e.g. to check two programs at once in two processes")
    args = parser.parse_args()
    with open(args.results, encoding="utf-8") as f:
        results = json.load(f)
    unknown = [p for p in args.only or () if p not in results["results"]]
    if unknown:
        parser.error(f"not a program of {args.results}: {', '.join(unknown)}")
    proven = level1_check.to_check(results, args.max_seconds, args.only)
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # stopped: keep the table
    with Progress() as progress:
        task = progress.add_task("second check", total=len(proven))
        programs: set[str] = set()
        for game in level1_check.check(results, args.out, args.max_seconds, args.table_mb,
                                           args.only, args.tables):
            if not game["held"]:
                progress.console.print(f"[red]not held[/red]: {game}")
            if game["program"] not in programs:
                programs.add(game["program"])
                progress.update(task, completed=len(programs))
    s = level1_check.summary(args.out)
    print(f"{s['programs']} programs, {s['games']} games, {s['failed']} not won by the proven "
          f"winner; by opponent: {s['by_kind']}")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit("stopped: the games so far are kept (and the search table, with --tables)")
