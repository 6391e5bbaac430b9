"""Benchmark: whole decisions of ``hard`` (its proof, then its search; no clock), as a game
asks them, CPU seconds and the choices made.

    python benchmarks/hard_decisions.py [--players 3] [--level 3] [--deals 4] [--hand]

From each of ``--deals`` seeded random games (deals 4 on), the positions 0, 25, 50, 75 and 100
decisions into the execution phase that the game reaches, each decided by a fresh ``hard``
(``make_player("hard", seed=1, clock=False)``; ``--hand``: judging by the hand-written
evaluation, ``learned=False``). It prints the CPU seconds and a digest of the choices: run it
on two builds (two checkouts, each installed in place) one after the other, a few times, to
compare their speed on the same decisions; equal digests show the same choices.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import time

from spaghetti.ai import make_player
from spaghetti.core.game import Game

AT = (0, 25, 50, 75, 100)


def positions(game: Game, deals: int) -> list:
    found = []
    for seed in range(4, 4 + deals):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        executed = 0
        while not state.is_over:
            if state.phase == "execution" and not state.is_chance:
                if executed in AT:
                    found.append(state.copy())
                executed += 1
            options = state.legal_actions()
            state.apply_action(options[rng.randrange(len(options))])
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--level", type=int, default=3)
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--hand", action="store_true")
    args = parser.parse_args()
    states = positions(Game(level=args.level, players=args.players), args.deals)
    digest = hashlib.sha256()
    start = time.process_time()
    for state in states:
        player = make_player("hard", seed=1, clock=False, learned=not args.hand)
        digest.update(player.choose(state).encode())
    seconds = time.process_time() - start
    print(f"{len(states)} decisions, {seconds:.2f} s of CPU, choices {digest.hexdigest()[:12]}")


if __name__ == "__main__":
    main()
