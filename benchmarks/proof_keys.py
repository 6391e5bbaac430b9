"""Benchmark: the general solver's proofs (``hard``'s, near a game's end) with its table keyed by
the seen positions' signature, as it ships, against the same keyed by the set itself.

    python benchmarks/proof_keys.py [--games 12] [--rounds 2]

Positions 6, 12 and 20 decisions before the end of random games at level 3 with 2 and 3
players (the execution phase, no chance to draw), each proven for the seat to move within
20,000 positions (``hard``'s budget for a proof): CPU seconds of both ways, interleaved in one
process. It stops if the two differ in any value or count of positions searched.
"""

from __future__ import annotations

import argparse
import random
import time

import spaghetti
from spaghetti.solver import api, general
from spaghetti.solver.api import solve
from spaghetti.solver.search import Timeout


def positions(games: int) -> list:
    rng = random.Random(5)
    found = []
    for players in (2, 3):
        for g in range(games):
            state = spaghetti.new_game(3, players, seed=g)
            history = []
            while not state.is_over:
                history.append(state.copy())
                options = state.legal_actions()
                state.apply_action(options[rng.randrange(len(options))])
            for back in (6, 12, 20):
                if len(history) > back:
                    earlier = history[-back]
                    if not earlier.is_chance and earlier.phase == "execution":
                        found.append(earlier)
    return found


class WholeSet(general.GeneralSolver):
    @staticmethod
    def _key(state):
        return state.position_key(), state.seen_positions


def proofs(states: list, solver: type) -> tuple[list, float]:
    shipped = api.GeneralSolver
    api.GeneralSolver = solver  # (solve() makes the solver by this name)
    try:
        results = []
        start = time.process_time()
        for state in states:
            try:
                result = solve(state.copy(), seat=state.to_move, max_nodes=20_000, line=False)
                results.append((result.value, result.nodes))
            except Timeout as exc:
                results.append(("open", exc.nodes))
        return results, time.process_time() - start
    finally:
        api.GeneralSolver = shipped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    states = positions(args.games)
    print(f"{len(states)} positions")
    for _ in range(args.rounds):
        whole, slow = proofs(states, WholeSet)
        signed, fast = proofs(states, general.GeneralSolver)
        if whole != signed:
            raise SystemExit("the two keys searched differently")
        proven = sum(value != "open" for value, _ in signed)
        print(f"the set {slow:.2f} s, the signature {fast:.2f} s ({slow / fast:.2f}x); "
              f"{sum(n for _, n in signed):,} positions, {proven} proven")


if __name__ == "__main__":
    main()
