"""Our exact solver against OpenSpiel's alpha_beta_search on the same late positions.

    python benchmarks/solver_vs_openspiel.py --positions 5 --seed 0

Positions: late turn decisions of random level-1 games (few lives left in all, ``--lives``; and
with ``--flags``, few flags on the cards, small enough for OpenSpiel to finish). OpenSpiel searches
the adapter (spaghetti.interop.openspiel) to the end of the game (no depth limit; the decision cap
is set high enough not to matter); our solver uses its own model. Values must agree.
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import time

import pyspiel
from open_spiel.python.algorithms.minimax import alpha_beta_search

import spaghetti
from spaghetti.interop import openspiel as adapter
from spaghetti.core import notation as N
from spaghetti.core.state import D_TURN
from spaghetti.solver.api import solve


def late_positions(seed: int, count: int, lives: int, flags: int):
    rng = random.Random(seed)
    found = 0
    while found < count:
        state = spaghetti.new_game(level=1, seed=rng.randrange(10**6))
        while not state.is_over:
            on_cards = sum(len(q) for q in state.queues)
            if state.decision == D_TURN and sum(state.lives) <= lives and on_cards <= flags:
                yield state
                found += 1
                break
            acts = state.legal_actions()
            run = [a for a in acts if a != N.PASS]
            state.apply_action(rng.choice(run if run and rng.random() < 0.8 else acts))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--lives", type=int, default=2, help="positions with at most this many "
                    "lives left in all")
    ap.add_argument("--flags", type=int, default=99, help="positions with at most this many "
                    "flags on the cards")
    ap.add_argument("--limit", type=int, default=20, help="seconds for OpenSpiel per position")
    args = ap.parse_args()
    sys.setrecursionlimit(100_000)

    def alarm(*_):
        raise TimeoutError

    signal.signal(signal.SIGALRM, alarm)
    ours_t = theirs_t = 0.0
    agreed = compared = 0
    for state in late_positions(args.seed, args.positions, args.lives, args.flags):
        game = pyspiel.load_game(adapter.SHORT_NAME, {"program": ",".join(state.program),
                                                      "max_moves": 100_000})
        os_state = adapter.SpaghettiState(game, state.copy())
        t = time.perf_counter()
        signal.alarm(args.limit)
        try:
            value, _ = alpha_beta_search(game, os_state, maximum_depth=100_000,
                                         maximizing_player_id=0)
        except TimeoutError:
            value = None
        finally:
            signal.alarm(0)
        theirs = time.perf_counter() - t
        t = time.perf_counter()
        ours = solve(state, line=False)
        mine = time.perf_counter() - t
        ours_t += mine
        theirs_t += theirs
        agree = None if value is None else (value > 0) == (ours.winner == 0)
        if agree is not None:
            compared += 1
            agreed += agree
        shown = (f"> {args.limit} s (no result)" if value is None
                 else f"{value:+.0f} in {theirs:.3f} s")
        print(f"{','.join(state.program):45s} openspiel {shown}; "
              f"ours seat {ours.winner} in {mine:.4f} s; agree {agree}", flush=True)
    print(f"total: openspiel {theirs_t:.2f} s (at least: unfinished searches count their "
          f"limit), ours {ours_t:.3f} s, ratio >= {theirs_t / max(ours_t, 1e-9):.0f}x; "
          f"same value on {agreed} of {compared} positions both solved")


if __name__ == "__main__":
    main()
