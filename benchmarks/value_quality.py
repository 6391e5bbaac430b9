"""Benchmark: how well an evaluation foretells how a game ends, on games it did not learn from.

    python benchmarks/value_quality.py [--level 3] [--players 2] [--first-deal 507200] [--games 200]

Plays the self-play games of ``spaghetti lab train-value`` (``spaghetti.ai.training.play_one``,
alpha-beta of 1,000 positions, a decision in ten at random) on the deals given, keeps the same
positions it keeps, and compares three judgements of each with how the game ended for the seat
judged: the network that ships for the game, the hand-written evaluation (``ai/evaluate.py``)
and the value the self-play search found. The default deals are the held-out tenth of the
shipped network's 8,000 (500000-507999): the last 800, of which the first 200 here. Prints the
correlation with the end (+1 a win, -1 a loss), and how often the sign names the winner.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from spaghetti.ai.evaluate import evaluate  # noqa: E402
from spaghetti.ai.training import play_one  # noqa: E402
from spaghetti.ai.value import shipped  # noqa: E402
from spaghetti.core.game import Game  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", type=int, default=3)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--first-deal", type=int, default=507200)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    game = Game(level=args.level, players=args.players)
    net = shipped(game)
    if net is None:
        sys.exit(f"no network ships for {args.level}x{args.players}")
    learned_of = net.evaluation(game)
    learned, hand, searched, ends = [], [], [], []

    def judged(state, seat):  # (the positions play_one keeps, judged as it keeps them)
        learned.append(learned_of(state, seat))
        hand.append(evaluate(state, seat, "leader"))
        return None

    for deal in range(args.first_deal, args.first_deal + args.games):
        rows, results, values = play_one(game, deal, judge=judged)
        ends += results
        searched += values
    print(f"deals {args.first_deal}-{args.first_deal + args.games - 1}: "
          f"{len(ends):,} positions")
    end = np.array(ends)
    for name, values in (("learned", learned), ("hand-written", hand),
                         ("self-play search", searched)):
        v = np.array(values, dtype=float)
        print(f"| {name} | {np.corrcoef(v, end)[0, 1]:.3f} | "
              f"{np.mean(np.sign(v) == end):.1%} |")


if __name__ == "__main__":
    main()
