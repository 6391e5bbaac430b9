"""Time the general solver on late positions of every game of the family.

    python benchmarks/general_solver.py --positions 10 --time-limit 10 --seed 0

For each game, random games (``run`` preferred to ``pass``) are played until a late position
(lives low, or HP near the end in Nightmare); the solver starts afresh on each. A position not
proven within the time limit counts as "> limit".
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from spaghetti.core import notation as N
from spaghetti.core.game import Game
from spaghetti.solver.general import GeneralSolver, Timeout

GAMES = {
    "spaghetti-code level 2": (Game(level=2), lambda s: max(s.lives) <= 2),
    "spaghetti-code level 1, 3 players": (Game(level=1, players=3), lambda s: sum(s.lives) <= 5),
    "pasta-logic": (Game(variant="pasta-logic"), lambda s: max(s.lives) <= 2),
    "spaghetti-monsters level 2": (Game(variant="spaghetti-monsters", level=2),
                                   lambda s: max(s.lives) <= 2),
    "nightmare, coin flips": (Game(variant="nightmare", options={"coin_flip": True}),
                              lambda s: min(s.lives) <= 3 or max(s.lives) >= 17),
}


def late_state(game: Game, rng: random.Random, late):
    while True:
        state = game.new_state(seed=rng.randrange(10**6))
        while not state.is_over:
            if late(state):
                return state
            if state.is_chance:
                state.apply(state.sample_chance(rng))
                continue
            acts = state.legal_actions()
            run = [a for a in acts if a != N.PASS]
            state.apply_action(rng.choice(run if run and rng.random() < 0.8 else acts))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=10)
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print(f"| game | proven within {args.time_limit:g} s | median | positions/s |")
    print("|---|---|---|---|")
    for name, (game, late) in GAMES.items():
        rng = random.Random(args.seed)
        times, nodes, spent = [], 0, 0.0
        for _ in range(args.positions):
            state = late_state(game, rng, late)
            solver = GeneralSolver(seat=0, time_limit=args.time_limit)
            start = time.perf_counter()
            try:
                solver.value(state)
                dt = time.perf_counter() - start
                times.append(dt)
            except Timeout:
                dt = time.perf_counter() - start
                times.append(float("inf"))
            nodes += solver.nodes
            spent += dt
        med = statistics.median(times)
        shown = f"> {args.time_limit:g} s" if med == float("inf") else f"{med:.2f} s"
        proven = sum(1 for t in times if t != float("inf"))
        print(f"| {name} | {proven}/{args.positions} | {shown} | {nodes / spent:,.0f} |",
              flush=True)


if __name__ == "__main__":
    main()
