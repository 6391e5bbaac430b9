"""Benchmark: the alpha-beta search with the cyclic garbage collector paused, as it ships,
against the same search with the collector running.

    python benchmarks/search_gc.py [--nodes 40000] [--rounds 3]

For level 1 (the hand-written evaluation) and each game a network ships for (the learned
evaluation), the search of ``normal`` and ``hard`` (``AlphaBetaPlayer``) from the first turn of
six seeded deals, ``--nodes`` positions each, two ways in interleaved rounds, CPU time of one
process: ``scores`` as it ships (``solver.search.cycles_left_alone`` around the search), and the
search's body with the collector on. Both must visit the same positions and value every option
alike, or it stops. Figures go to docs/performance.md ("The learned evaluation").
"""

from __future__ import annotations

import argparse
import gc
import time

from spaghetti import Game
from spaghetti.ai.alphabeta import AlphaBetaPlayer

from learned_speed import DEALS, first_turn  # (this folder: the scripts run from it)

GAMES = ((1, 2), (2, 2), (3, 2), (3, 3))


def search(game: Game, nodes: int, paused: bool) -> tuple[float, int, list[dict[int, float]]]:
    """CPU seconds, positions and every root's values of the searches from DEALS."""
    seconds, positions, values = 0.0, 0, []
    for seed in DEALS:
        state = first_turn(game, seed)
        player = AlphaBetaPlayer(max_nodes=nodes, seed=1, learned=True)
        gc.collect()
        start = time.process_time()
        if paused:
            found = player.scores(state)
        else:
            assert gc.isenabled()
            found = player._scores(state)
        seconds += time.process_time() - start
        positions += player.nodes
        values.append(found)
    return seconds, positions, values


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=40_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"alpha-beta, {args.nodes:,} positions from the first turn of deals "
          f"{DEALS[0]}-{DEALS[-1]}, {args.rounds} interleaved rounds, CPU time")
    print("| level | players | collector running, positions/s | paused (as shipped) | ratio |")
    print("|---|---|---|---|---|")
    for level, players in GAMES:
        game = Game(level=level, players=players)
        spent = {True: 0.0, False: 0.0}
        counted = {True: 0, False: 0}
        for _ in range(args.rounds):
            made = {paused: search(game, args.nodes, paused) for paused in (False, True)}
            for paused, (seconds, positions, _) in made.items():
                spent[paused] += seconds
                counted[paused] += positions
            if made[False][1:] != made[True][1:]:
                raise SystemExit(f"level {level}, {players} players: the two searches differ")
        on, off = counted[False] / spent[False], counted[True] / spent[True]
        print(f"| {level} | {players} | {on:,.0f} | {off:,.0f} | {off / on:.2f}x |")


if __name__ == "__main__":
    main()
