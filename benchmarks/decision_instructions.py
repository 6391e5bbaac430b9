"""Benchmark: random play on one path, for counting its instructions under callgrind.

    PYTHONHASHSEED=0 valgrind --tool=callgrind python benchmarks/decision_instructions.py \
        --level 3 --games 600
    PYTHONHASHSEED=0 valgrind --tool=callgrind python benchmarks/decision_instructions.py \
        --level 3 --games 0

The loop is core_speed.py's (the same deals and options); the run of no games counts the start,
so the difference over the decisions printed is a decision's cost, load-independent.
callgrind_annotate (``--inclusive=yes``) of the two runs splits it by function
(docs/performance.md, "Where levels 2 and 3 stand").
"""

from __future__ import annotations

import argparse

from spaghetti import Game

from core_speed import SETUPS, play, play_compiled  # (this folder: the scripts run from it)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", type=int, default=3)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--setup", help="a setup of core_speed.py by its label (with "
                        "options): overrides --level and --players")
    parser.add_argument("--python", action="store_true", help="the readable Python path")
    parser.add_argument("--compiled-driver", action="store_true",
                        help="drive the games from compiled code (ai/playout.py), as searches do")
    args = parser.parse_args()
    game = Game(level=args.level, players=args.players)
    if args.setup:
        chosen = [s for s in SETUPS if s[0] == args.setup]
        if not chosen:
            parser.error(f"no setup {args.setup!r}: one of " + "; ".join(s[0] for s in SETUPS))
        _, variant, level, players, options = chosen[0]
        game = Game(level=level, players=players, variant=variant, options=options)
    driver = play_compiled if args.compiled_driver else play
    decisions, _ = driver(game, args.games, args.python, 0)
    print(f"{decisions} decisions")


if __name__ == "__main__":
    main()
