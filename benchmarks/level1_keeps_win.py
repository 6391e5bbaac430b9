"""Benchmark: does a computer player keep a proven win during placement at level 1?

    python benchmarks/level1_keeps_win.py [--player hard] [--deals 20] [--first-deal 750000]
                                          [--proof-seconds 20] [--workers 2]

Plays ``--player`` against itself at level 1 with two players on fresh deals (seed
``--first-deal`` + i, announced before play), both seats the same level, without the seconds
caps. At every placement decision with a choice, the level-1 solver (``--proof-seconds`` a proof)
asks whether the seat to move can force a win; where it can, it asks again of the position the
player's option leads to. A win is kept when that position is still a proven win for the seat.
Positions the solver does not settle in time are counted apart. Prints each player's share of
kept wins, with its 95 % Wilson interval, and the positions where the proof was left open.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "src"))

from spaghetti import Game  # noqa: E402
from spaghetti.ai import make_player  # noqa: E402
from spaghetti.ai.arena import wilson  # noqa: E402
from spaghetti.solver.api import Timeout, solve  # noqa: E402


def wins(state, seat: int, seconds: float) -> bool | None:
    """Can ``seat`` force a win from ``state``? None when the proof takes longer."""
    if state.is_over:
        return state.winner == seat
    try:
        return solve(state, seat=seat, time_limit=seconds, line=False).value == 1.0
    except Timeout:
        return None


def play(job: tuple[str, int, float]) -> dict:
    """One game's placement decisions: kept wins, lost wins, open proofs, think time."""
    name, deal, seconds = job
    state = Game(level=1, players=2).new_state(seed=deal)
    players = [make_player(name, deal * 10 + s, clock=False) for s in range(2)]
    found = {"kept": 0, "lost": 0, "open": 0, "think": 0.0, "decisions": 0}
    while not state.is_over and state.phase == "placement":
        seat = state.to_move
        assert seat is not None
        choice = len(state.legal_actions()) > 1
        start = time.perf_counter()
        option = players[seat].choose(state)
        found["think"] += time.perf_counter() - start
        if choice:
            found["decisions"] += 1
            before = wins(state, seat, seconds)
            if before is None:
                found["open"] += 1
            elif before:
                after = state.copy()
                after.apply(option)
                kept = wins(after, seat, seconds)
                found["open" if kept is None else "kept" if kept else "lost"] += 1
        state.apply(option)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--player", default="hard", help="a level of make_player")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--first-deal", type=int, default=750000)
    parser.add_argument("--proof-seconds", type=float, default=20.0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    print(f"{args.player} at level 1, deals {args.first_deal}-"
          f"{args.first_deal + args.deals - 1}, proofs of {args.proof_seconds:g} s", flush=True)
    jobs = [(args.player, args.first_deal + d, args.proof_seconds) for d in range(args.deals)]
    with ProcessPoolExecutor(args.workers) as pool:
        rows = list(pool.map(play, jobs))
    kept, lost = sum(r["kept"] for r in rows), sum(r["lost"] for r in rows)
    opened = sum(r["open"] for r in rows)
    decisions = sum(r["decisions"] for r in rows)
    lo, hi = wilson(kept, kept + lost) if kept + lost else (0.0, 0.0)
    print(f"{args.player}: kept {kept} of {kept + lost} proven wins during placement "
          f"({kept / max(kept + lost, 1):.1%}, {lo:.1%}-{hi:.1%}); {opened} proofs left open; "
          f"{decisions} placement decisions with a choice, "
          f"{sum(r['think'] for r in rows) / max(decisions, 1):.2f} s each")


if __name__ == "__main__":
    main()
