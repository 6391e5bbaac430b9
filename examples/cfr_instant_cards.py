"""CFR on Spaghetti Code with instant cards, through OpenSpiel (not a test).

    pip install -e '.[openspiel]'
    python examples/cfr_instant_cards.py [--iterations 30] [--max-moves 16] [--plus]

The game is ``python_spaghetti_code_imperfect`` (spaghetti.interop.openspiel) at level 1 with
the instant cards: a program of four cards, the draft and the placement fixed by ``opening``, and
the three instant cards dealt face down by chance, so that each seat knows its own card and not
the other's. The game is cut after ``--max-moves`` decisions and adjudicated by the stalemate
tie-break. OpenSpiel's CFR (or CFR+ with ``--plus``) runs on it; after every iteration the
exploitability of the average policy is printed (0 at a Nash equilibrium; the game's returns are
+1/-1, so 1 is as exploitable as a policy can be on average over both seats). At the end, the
first decision of the execution, by seat 0, for each instant card it may hold: how the average
policy plays pass, run and instant with it.

The figures of one run are in docs/envs.md.
"""

from __future__ import annotations

import argparse
import time

import pyspiel

from spaghetti.interop import openspiel as adapter

PROGRAM = "Bug;AddFlag;MoveFlag;RemoveFlag"
#: Seat 1 (the second player) takes face-down card 0, seat 0 card 1; then each card gets one
#: flag of each colour: seat 0 first on cards 0 and 2, seat 1 first on cards 1 and 3.
OPENING = "take 0;take 1;place 0;place 1;place 1;place 0;place 2;place 3;place 3;place 2"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--max-moves", type=int, default=16,
                        help="decisions before the game is adjudicated (the opening's 10 count)")
    parser.add_argument("--plus", action="store_true", help="CFR+ instead of CFR")
    args = parser.parse_args()
    game = pyspiel.load_game(adapter.IMPERFECT_NAME, {
        "options": "instant_cards:true", "program": PROGRAM, "opening": OPENING,
        "max_moves": args.max_moves})
    print(game)
    start = time.perf_counter()
    solver = pyspiel.CFRPlusSolver(game) if args.plus else pyspiel.CFRSolver(game)
    print("iteration  exploitability  seconds")
    for iteration in range(1, args.iterations + 1):
        solver.evaluate_and_update_policy()
        value = pyspiel.exploitability(game, solver.average_policy())
        print(f"{iteration:9d}  {value:14.4f}  {time.perf_counter() - start:7.1f}", flush=True)
    policy = solver.average_policy()
    print("\nseat 0's first turn (card 0, Bug), by the instant card it holds:")
    for outcomes in ((0, 1), (1, 0), (0, 2)):  # seat 0 holds MoveFlag, MoveCommand, Bug
        state = game.new_initial_state()
        for outcome in outcomes:
            state.apply_action(outcome)
        mine = state.information_state_string(0).split(" | ")[1]
        shown = ", ".join(f"{state.action_to_string(a)} {p:.2f}"
                          for a, p in policy.get_state_policy(state))
        print(f"  {mine}: {shown}")


if __name__ == "__main__":
    main()
