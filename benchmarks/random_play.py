"""Benchmark: random play, in decisions and games per second, one core.

    python benchmarks/random_play.py [--games 3000] [--players 2] [--levels 1,2,3]
                                     [--game spaghetti-code|spaghetti-monsters|pasta-logic]

Each game is dealt by seed (program shuffled), then every decision picks a uniformly random
legal option through the integer door (``legal_actions`` / ``apply_action``), including the
placement and the repetition check at every decision, exactly as the AI will use it.
Figures go to docs/performance.md.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time

from spaghetti import Game
from spaghetti.core import engines
from spaghetti.core.state import FIELDS


def run(level: int, players: int, games: int, seed: int = 0,
        variant: str = "spaghetti-code", python: bool = False) -> tuple[float, float, float]:
    game = Game(level=level, players=players, variant=variant)
    rng = random.Random(seed)
    random_ = rng.random
    decisions = 0
    start = time.perf_counter()
    for g in range(games):
        state = game.new_state(seed=g, python=python)
        legal_actions, apply_action = state.legal_actions, state.apply_action
        while not state.is_over:
            options = legal_actions()
            apply_action(options[int(random_() * len(options))])
            decisions += 1
    elapsed = time.perf_counter() - start
    return decisions / elapsed, games / elapsed, decisions / games


def copies(level: int, players: int, count: int = 100_000,
           python: bool = False) -> tuple[float, int]:
    """Copies per second of a state in mid-game, and its size in bytes (lists and tuples)."""
    state = Game(level=level, players=players).new_state(seed=1, python=python)
    rng = random.Random(1)
    while state.phase == "placement" or len(state.history) < 30:
        options = state.legal_actions()
        state.apply_action(options[rng.randrange(len(options))])
    start = time.perf_counter()
    for _ in range(count):
        state.copy()
    elapsed = time.perf_counter() - start
    size = sys.getsizeof(state) + sum(
        sys.getsizeof(v) + sum(sys.getsizeof(x) for x in v if isinstance(x, tuple))
        for name in FIELDS if isinstance(v := getattr(state, name), (list, tuple, set)))
    return count / elapsed, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--levels", default="1,2,3")
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    parser.add_argument("--game", default="spaghetti-code", help="the variant (Pasta Logic: "
                        "2 players, level 1, the rulebook's deal)")
    parser.add_argument("--no-copies", action="store_true", help="skip the copy benchmark")
    parser.add_argument("--python", action="store_true", help="the readable Python rules core "
                        "even where the compiled one is built (benchmarks/core_speed.py "
                        "compares the two)")
    args = parser.parse_args()
    core = "python" if args.python else engines.path()
    print(f"python {platform.python_version()}, {args.game}, {args.games} games per run, "
          f"best of {args.repeat}, rules core: {core}")
    print(f"{'level':>5} {'players':>7} {'decisions/s':>12} {'games/s':>9} {'decisions/game':>15}")
    for level in (int(x) for x in args.levels.split(",")):
        best = max((run(level, args.players, args.games, variant=args.game, python=args.python)
                    for _ in range(args.repeat)), key=lambda r: r[0])
        print(f"{level:>5} {args.players:>7} {best[0]:>12,.0f} {best[1]:>9,.0f} {best[2]:>15.1f}")
    if args.no_copies:
        return
    for level in (int(x) for x in args.levels.split(",")):
        rate, size = copies(level, args.players, python=args.python)
        print(f"level {level}: state.copy() {rate:,.0f} per second; a state in mid-game holds "
              f"about {size:,} bytes")


if __name__ == "__main__":
    main()
