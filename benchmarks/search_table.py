"""Benchmark: the positions the ``normal`` search takes to finish the same depth with and
without its table of values (:mod:`spaghetti.ai.alphabeta`), and the value it finds.

    python benchmarks/search_table.py [--seeds 0-5] [--after 40] [--nodes 20000]

For each seeded game (random decisions until ``--after`` decisions of the execution phase), the
search first runs with ``--nodes`` positions to find the depth it completes; both searches then
run to that depth with no budget. The table never changes the value (it serves only a position
met again at the same depth, under the same history), so the ratio of positions is the saving.
"""

from __future__ import annotations

import argparse
import random
import time

import spaghetti
from spaghetti.ai.alphabeta import AlphaBetaPlayer

SETUPS = ((1, 2), (3, 2), (3, 3), (3, 4))


def position(level: int, players: int, seed: int, after: int):
    rng = random.Random(seed)
    state = spaghetti.new_game(level, players, seed=seed)
    while not state.is_over and (state.phase != "execution" or len(state.history) < after):
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    while not state.is_over and len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    return None if state.is_over else state


def seeds(text: str) -> list[int]:
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="0-5", help="a seed or a range, e.g. 0-5")
    parser.add_argument("--after", type=int, default=40, help="random decisions before")
    parser.add_argument("--nodes", type=int, default=20_000, help="the budget that sets the depth")
    args = parser.parse_args()
    print("| level | players | seed | depth | positions without | with | ratio | "
          "time without | with | same value |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    total = {True: 0, False: 0}
    for level, players in SETUPS:
        for seed in seeds(args.seeds):
            state = position(level, players, seed, args.after)
            if state is None:
                continue
            probe = AlphaBetaPlayer(max_nodes=args.nodes, seed=1)
            probe.scores(state)
            depth = probe.last_depth
            found = {}
            for table in (False, True):
                player = AlphaBetaPlayer(max_nodes=10**9, seed=1, table=table, max_depth=depth)
                start = time.perf_counter()
                value = max(player.scores(state).values())
                found[table] = (player.nodes, time.perf_counter() - start, value)
                total[table] += player.nodes
            (n0, t0, v0), (n1, t1, v1) = found[False], found[True]
            print(f"| {level} | {players} | {seed} | {depth} | {n0:,} | {n1:,} | {n1 / n0:.2f} | "
                  f"{t0:.2f} s | {t1:.2f} s | {'yes' if abs(v0 - v1) < 1e-9 else 'NO'} |",
                  flush=True)
    print(f"\nall positions: {total[True]:,} with the table, {total[False]:,} without "
          f"({total[True] / total[False]:.2f})")


if __name__ == "__main__":
    main()
