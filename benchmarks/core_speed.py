"""Benchmark: the compiled rules core against the readable Python one, as ratios in one run.

    python benchmarks/core_speed.py [--games 200] [--rounds 3] [--only spaghetti-code]

Random play (every decision a uniformly random legal option through the integer door,
placement and the repetition check included) of the same deals on both paths, interleaved in
rounds so that the machine's load falls on both alike; CPU time of this process. Twice: driven
by a loop of this script (Python calling the core), and by
:func:`spaghetti.ai.playout.play_at_random` on the same path as the core (the compiled driver
calls the compiled core directly, as the searches and the vector environment do). Also MCTS
iterations and alpha-beta positions a second (levels 1 and 3, from the first turn of six deals,
interleaved in rounds alike), copies a second and the bytes
of a copied state (level 3, 3 players, as random_play.py measures them). Without a compiled core
(spaghetti.core.engines.COMPILED false) both sides are Python and the ratios are about 1.
Figures go to docs/performance.md.

    python benchmarks/core_speed.py --reference 4ebaba9 [--games 500] [--rounds 3]

measures the compiled core against the engine of another commit instead (by default the one the
compiled core was asked to beat: the last commit before it, pure Python, read from git into a
temporary folder and run in a process of its own by reference_play.py), on the same deals in
the same rounds, and says whether both played the same number of decisions (identical games,
unless a rule was mended since).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from spaghetti import Game
from spaghetti.ai.alphabeta import AlphaBetaPlayer
from spaghetti.ai import playout
from spaghetti.ai.mcts import MCTSPlayer
from spaghetti.core import engines

from random_play import copies  # (this folder: the scripts run from it)

#: (label, variant, level, players, options): every game of the family, every level and player
#: count, and the expansions that take the expanded visit path.
SETUPS = [
    *[(f"Spaghetti Code L{lv} {p}p", "spaghetti-code", lv, p, {})
      for lv in (1, 2, 3) for p in (2, 3, 4, 5)],
    ("Spaghetti Code L3 2p, Memory + ReversePriority", "spaghetti-code", 3, 2,
     {"memory": True, "reverse_priority": True}),
    ("Spaghetti Code L3 2p, instant cards", "spaghetti-code", 3, 2, {"instant_cards": True}),
    ("Spaghetti Code L3 4p, interrupt", "spaghetti-code", 3, 4, {"interrupt": True}),
    *[(f"Monsters L{lv} {p}p", "spaghetti-monsters", lv, p, {}) for lv in (1, 3) for p in (2, 5)],
    ("Monsters L3 2p, every option", "spaghetti-monsters", 3, 2,
     {"memory": True, "reverse_priority": True, "instant_cards": True}),
    ("Pasta Logic", "pasta-logic", 1, 2, {}),
    ("Nightmare 2p", "nightmare", 1, 2, {}),
    ("Nightmare 4p, coin flip", "nightmare", 1, 4, {"coin_flip": True}),
]


def play_compiled(game: Game, games: int, python: bool, seed: int) -> tuple[int, float]:
    """As :func:`play`, the same games, driven by :func:`spaghetti.ai.playout.play_at_random`
    on the same path as the rules core: compiled code calling the compiled core (as the
    searches and the vector environment do), against the same loop as Python on the Python
    core."""
    driver = (engines.python_module("ai.playout") if python else playout).play_at_random
    random_ = random.Random(seed).random
    decisions = 0
    start = time.process_time()
    for g in range(games):
        decisions += driver(game.new_state(seed=seed + g, python=python), random_)
    return decisions, time.process_time() - start


def play(game: Game, games: int, python: bool, seed: int) -> tuple[int, float]:
    """Decisions played and CPU seconds, random play of ``games`` deals."""
    rng = random.Random(seed)
    random_ = rng.random
    decisions = 0
    start = time.process_time()
    for g in range(games):
        state = game.new_state(seed=seed + g, python=python)
        legal_actions, apply_action = state.legal_actions, state.apply_action
        while not state.is_over:
            options = legal_actions()
            apply_action(options[int(random_() * len(options))])
            decisions += 1
    return decisions, time.process_time() - start


class StandIn:
    """An engine that does nothing: two options, 95 decisions a game. Random play of it costs
    what the benchmark's own loop costs, the floor under every figure above."""

    def __init__(self) -> None:
        self.decisions = 0
        self.is_over = False

    def legal_actions(self) -> tuple[int, ...]:
        return (0, 1)

    def apply_action(self, action: int) -> None:
        self.decisions += 1
        self.is_over = self.decisions >= 95


def loop_alone(games: int) -> float:
    """Microseconds a decision of the random-play loop itself (StandIn for the engine)."""
    rng = random.Random(0)
    random_ = rng.random
    decisions = 0
    start = time.process_time()
    for _ in range(games):
        state = StandIn()
        legal_actions, apply_action = state.legal_actions, state.apply_action
        while not state.is_over:
            options = legal_actions()
            apply_action(options[int(random_() * len(options))])
            decisions += 1
    return (time.process_time() - start) / decisions * 1e6


def first_turn(level: int, python: bool, seed: int = 4) -> Any:
    """The first decision after placement of a seeded deal (2 players)."""
    state = Game(level=level).new_state(seed=seed, python=python)
    rng = random.Random(seed)
    while state.phase == "placement":
        options = state.legal_actions()
        state.apply_action(options[rng.randrange(len(options))])
    return state


#: The deals whose first turn the searches start from: several, so that one position's tree
#: does not decide the figure.
SEARCH_DEALS = (4, 5, 6, 7, 8, 9)


def mcts(level: int, python: bool, iterations: int = 2_000) -> tuple[int, float]:
    """MCTS iterations and CPU seconds, ``iterations`` from the first turn of each of
    SEARCH_DEALS, the search itself on the same path as the rules core."""
    player = (engines.python_module("ai.mcts").MCTSPlayer if python else MCTSPlayer)
    seconds = 0.0
    for seed in SEARCH_DEALS:
        state = first_turn(level, python, seed)
        start = time.process_time()
        player(iterations=iterations, seed=1).search(state)
        seconds += time.process_time() - start
    return iterations * len(SEARCH_DEALS), seconds


def alphabeta(level: int, python: bool, nodes: int = 20_000) -> tuple[int, float]:
    """Positions and CPU seconds of the alpha-beta search (normal's and hard's), ``nodes``
    positions from the first turn of each of SEARCH_DEALS, the search on the same path as the
    rules core."""
    player_class = (engines.python_module("ai.alphabeta").AlphaBetaPlayer if python
                    else AlphaBetaPlayer)
    positions, seconds = 0, 0.0
    for seed in SEARCH_DEALS:
        state = first_turn(level, python, seed)
        player = player_class(max_nodes=nodes, seed=1)
        start = time.process_time()
        player.choose(state)
        seconds += time.process_time() - start
        positions += player.nodes
    return positions, seconds


def chosen_setups(only: str | None) -> Iterator[tuple[str, str, int, int, dict, Game]]:
    """The setups whose label contains ``only`` (all where None), each with its game."""
    for label, variant, level, players, options in SETUPS:
        if not only or only in label:
            yield label, variant, level, players, options, Game(
                level=level, players=players, variant=variant, options=options)


def reference_tree(revision: str, folder: str) -> str:
    """The ``src`` folder of ``revision``, read from this repository's git into ``folder``."""
    root = Path(__file__).resolve().parent.parent
    archive = subprocess.run(["git", "archive", "--format=tar", revision, "src"], cwd=root,
                             capture_output=True, check=False)
    if archive.returncode:
        sys.exit(f"--reference {revision}: {archive.stderr.decode().strip()}")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tree:
        tree.extractall(folder, filter="data")
    return str(Path(folder) / "src")


def reference_play(src: str, variant: str, level: int, players: int, options: dict,
                   games: int, seed: int) -> tuple[int, float]:
    """Decisions and CPU seconds of random play on the engine in ``src`` (reference_play.py)."""
    script = Path(__file__).resolve().parent / "reference_play.py"
    env = dict(os.environ, PYTHONPATH=src)
    done = subprocess.run([sys.executable, str(script), variant, str(level), str(players),
                           json.dumps(options), str(games), str(seed)],
                          env=env, cwd=src, capture_output=True, text=True, check=False)
    if done.returncode:
        sys.exit(f"the reference engine failed: {done.stderr.strip()[-2000:]}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    return out["decisions"], out["seconds"]


def against_reference(args: argparse.Namespace) -> None:
    """Random play of the compiled core (both drivers) against another commit's engine."""
    with tempfile.TemporaryDirectory() as folder:
        src = reference_tree(args.reference, folder)
        print(f"rules core: {engines.path()}; against the engine of {args.reference} (its own "
              f"process); {args.games} games x {args.rounds} rounds a setup")
        print(f"{'setup':50} {'reference/s':>11} {'loop/s':>10} {'ratio':>6}"
              f" {'driver/s':>10} {'ratio':>6}  games")
        for label, variant, level, players, options, game in chosen_setups(args.only):
            play(game, 2, False, seed=0)  # warm up
            play_compiled(game, 2, False, seed=0)
            totals = [[0, 0.0], [0, 0.0], [0, 0.0]]
            for r in range(args.rounds):
                order = range(3) if r % 2 == 0 else reversed(range(3))
                for i in order:
                    seed = 1000 * r
                    decisions, seconds = (
                        reference_play(src, variant, level, players, options, args.games, seed)
                        if i == 0 else play(game, args.games, False, seed) if i == 1
                        else play_compiled(game, args.games, False, seed))
                    totals[i][0] += decisions
                    totals[i][1] += seconds
            rates = [d / s for d, s in totals]
            same = "identical" if totals[0][0] == totals[1][0] == totals[2][0] else (
                f"{totals[0][0]:,} against {totals[1][0]:,} decisions")
            print(f"{label:50} {rates[0]:11,.0f} {rates[1]:10,.0f} {rates[1] / rates[0]:5.2f}x"
                  f" {rates[2]:10,.0f} {rates[2] / rates[0]:5.2f}x  {same}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="deals per setup and round")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds")
    parser.add_argument("--only", help="only the setups whose label contains this text")
    parser.add_argument("--reference", metavar="REVISION",
                        help="against another commit's engine (e.g. 4ebaba9, the last before "
                        "the compiled core) instead of this commit's Python path")
    args = parser.parse_args()
    if args.reference:
        against_reference(args)
        return
    print(f"rules core: {engines.path()}; {args.games} games x {args.rounds} rounds a setup")
    print("random play driven from a Python loop, and from play_at_random (compiled code on "
          "the compiled path): decisions a second")
    print(f"{'setup':50} {'python/s':>10} {'compiled/s':>11} {'ratio':>6}"
          f" {'python/s':>10} {'compiled/s':>11} {'ratio':>6}")
    for label, _, _, _, _, game in chosen_setups(args.only):
        rates = []
        for driver in (play, play_compiled):
            totals = {False: [0, 0.0], True: [0, 0.0]}
            driver(game, 2, True, seed=0)  # warm up: load the Python core, fill the caches
            driver(game, 2, False, seed=0)
            for r in range(args.rounds):
                for python in (r % 2 == 0, r % 2 != 0):  # alternate which goes first
                    decisions, seconds = driver(game, args.games, python, seed=1000 * r)
                    totals[python][0] += decisions
                    totals[python][1] += seconds
            if totals[False][0] != totals[True][0]:
                sys.exit(f"{label}: the two paths played different games")
            slow = totals[True][0] / totals[True][1]
            fast = totals[False][0] / totals[False][1]
            rates.append(f"{slow:10,.0f} {fast:11,.0f} {fast / slow:5.2f}x")
        print(f"{label:50} {' '.join(rates)}", flush=True)
    print(f"the loop alone (a stand-in engine): {loop_alone(args.games * 3):.2f} us a decision")
    for search, what in ((mcts, "MCTS iterations/s"), (alphabeta, "alpha-beta positions/s")):
        for level in (1, 3):
            if args.only and f"L{level} 2p" not in args.only:
                continue
            search(level, True)  # warm up, as the random play above
            search(level, False)
            done = {False: [0, 0.0], True: [0, 0.0]}
            for r in range(args.rounds):
                for python in (r % 2 == 0, r % 2 != 0):
                    count, seconds = search(level, python)
                    done[python][0] += count
                    done[python][1] += seconds
            slow = done[True][0] / done[True][1]
            fast = done[False][0] / done[False][1]
            print(f"{what}, level {level}, 2 players ({len(SEARCH_DEALS)} deals): "
                  f"python {slow:,.0f}, compiled {fast:,.0f} ({fast / slow:.2f}x)", flush=True)
    (fast_copies, fast_size), (slow_copies, slow_size) = (
        copies(3, 3, python=False), copies(3, 3, python=True))
    print(f"copies/s: python {slow_copies:,.0f}, compiled {fast_copies:,.0f} "
          f"({fast_copies / slow_copies:.2f}x); bytes a state: python {slow_size:,}, "
          f"compiled {fast_size:,}")


if __name__ == "__main__":
    main()
