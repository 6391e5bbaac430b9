"""Benchmark: MCTS whose playouts end in the learned evaluation against MCTS with playouts alone.

    python benchmarks/mcts_learned.py [--iterations 1000] [--judged-after 10] [--deals 20]
                                      [--first-deal 730000] [--workers 2]

Both sides search the same number of iterations (``spaghetti.ai.mcts.MCTSPlayer``, as the hints
and the analysis do); the learned side's playouts stop at the first turn of the execution phase
after ``--judged-after`` decisions, where the network that ships for level 3 with 2 players
judges them (``learned=True``). Each deal is played twice, the learned side first and second.
Prints the learned side's score with its 95 % Wilson interval and each side's think time.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "src"))

from spaghetti import Game  # noqa: E402
from spaghetti.ai.arena import wilson  # noqa: E402
from spaghetti.ai.mcts import MCTSPlayer  # noqa: E402


def play(job: tuple[int, bool, int, int]) -> tuple[float, float, float]:
    """One game: the learned side's score, its think time and the other side's."""
    deal, learned_first, iterations, after = job
    state = Game(level=3, players=2).new_state(seed=deal)
    learned_seat = 0 if learned_first else 1
    players = [MCTSPlayer(iterations=iterations, seed=deal * 10 + s, learned=s == learned_seat,
                          judged_after=after) for s in range(2)]
    think = [0.0, 0.0]
    while not state.is_over and len(state.history) < 500:
        seat = state.to_move
        assert seat is not None
        start = time.perf_counter()
        option = players[seat].choose(state)
        think[seat] += time.perf_counter() - start
        state.apply(option)
    winner = state.winner if state.is_over else state.tiebreak_winner()
    score = 0.5 if winner is None else float(winner == learned_seat)
    return score, think[learned_seat], think[1 - learned_seat]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--judged-after", type=int, default=10)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--first-deal", type=int, default=730000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    jobs = [(args.first_deal + d, first, args.iterations, args.judged_after)
            for d in range(args.deals) for first in (True, False)]
    print(f"deals {args.first_deal}-{args.first_deal + args.deals - 1}, {len(jobs)} games",
          flush=True)
    with ProcessPoolExecutor(args.workers) as pool:
        rows = list(pool.map(play, jobs))
    n, score = len(rows), sum(r[0] for r in rows)
    lo, hi = wilson(score, n)
    print(f"learned playouts (judged after {args.judged_after}) against playouts alone, "
          f"{args.iterations} iterations: {score:g} of {n} = {score / n:.0%} ({lo:.0%}-{hi:.0%}); "
          f"think {sum(r[1] for r in rows):.0f} s against {sum(r[2] for r in rows):.0f} s")


if __name__ == "__main__":
    main()
