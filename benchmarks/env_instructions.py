"""Benchmark: the vector environment's steps, or the learned search, for counting their
instructions and cache misses under callgrind.

    PYTHONHASHSEED=0 valgrind --tool=callgrind --cache-sim=yes \
        python benchmarks/env_instructions.py --steps 150
    PYTHONHASHSEED=0 valgrind --tool=callgrind --cache-sim=yes \
        python benchmarks/env_instructions.py --search 5000

The first: ``SpaghettiVectorEnv`` of 64 games (random opponents), seeded, ``--steps`` steps,
each game's action a random legal one drawn from the masks (as env_speed.py draws it; with
``--draw ids`` the same action, drawn from the batch's legal ids, so that a run of ``--steps N``
less one of ``--steps 0`` counts the environment's steps nearly alone; ``--dtype int8``: its
observations as ``int8``). The
second: the learned alpha-beta as it ships (``ValueNet.evaluation``) from the first turn of deals
4, 5 and 6 (learned_speed.py's), ``--search`` positions each; with ``--hand``, the same search
judged by the hand-written evaluation. The third (``--engine N``): the engine's own random
play until ``N`` decisions, as env_speed.py times it, to set beside the first. ``callgrind_annotate
--inclusive=yes`` splits the count by function (``Batch.step``, ``Writer.write``); instructions
and simulated misses, which the machine's load cannot move (docs/performance.md, "Research
environments").
"""

from __future__ import annotations

import argparse
import random

import numpy as np

from spaghetti import Game
from spaghetti.ai.alphabeta import AlphaBetaPlayer
from spaghetti.ai.value import shipped
from spaghetti.envs.encoding import NUM_ACTIONS, OBSERVATION_DTYPES
from spaghetti.envs.vector import SpaghettiVectorEnv

from env_speed import random_game  # (this folder: the scripts run from it)
from learned_speed import first_turn


def steps(count: int, level: int, players: int, draw: str, dtype: str = "float32") -> None:
    vec = SpaghettiVectorEnv(64, variant="spaghetti-code", level=level, players=players,
                             opponents="random", observation_dtype=dtype)
    vec.reset(seed=0)
    rng = np.random.default_rng(0)
    # Each game's decisions, counted when it ends and at the close (as env_speed.py counts).
    states = [env.state for env in vec.envs]
    decisions = -sum(len(state.history) for state in states)
    for _ in range(count):
        if draw == "masks":
            rows, ids = np.nonzero(vec.action_masks())
        else:  # (the same rows and ids, from the few legal ids rather than the whole masks)
            legal = np.sort(np.frombuffer(vec._batch.legal_ids(), dtype="<i4"))
            rows, ids = np.divmod(legal, NUM_ACTIONS)
        counts = np.bincount(rows, minlength=64)
        firsts = np.cumsum(counts) - counts
        _, _, terminated, truncated, _ = vec.step(
            ids[firsts + (rng.random(64) * counts).astype(np.int64)])
        for i in np.flatnonzero(terminated | truncated).tolist():
            decisions += len(states[i].history)
            states[i] = vec.envs[i].state
    decisions += sum(len(state.history) for state in states)
    print(f"{count} steps of 64 games, {decisions} decisions")


def engine(count: int, level: int, players: int) -> None:
    """The engine's random play as env_speed.py times it (its loop, the deals included),
    until ``count`` decisions."""
    game = Game(level=level, players=players)
    rng = random.Random(0)
    decisions, deals = 0, 0
    while decisions < count:
        decisions += random_game(game, deals, rng)
        deals += 1
    print(f"{decisions} decisions of random play, {deals} deals")


def search(nodes: int, level: int, players: int, hand: bool) -> None:
    game = Game(level=level, players=players)
    evaluation = None  # (the hand-written evaluation)
    if not hand:
        net = shipped(game)
        if net is None:
            raise SystemExit(f"no network ships for level {level} with {players} players")
        evaluation = net.evaluation(game)
    positions = 0
    for seed in (4, 5, 6):
        player = AlphaBetaPlayer(max_nodes=nodes, seed=1, evaluation=evaluation)
        player.choose_action(first_turn(game, seed))
        positions += player.nodes
    print(f"{positions} positions searched")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=150)
    parser.add_argument("--search", type=int, default=0,
                        help="positions a search instead (0: the vector environment)")
    parser.add_argument("--level", type=int, default=3)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--draw", choices=("masks", "ids"), default="masks",
                        help="the learner's random draw: from the masks' nonzeros (as "
                             "env_speed.py), or the same draw from the batch's legal ids, whose "
                             "cost is small beside the step's (with --steps 0 as a baseline, "
                             "the difference is the steps' own)")
    parser.add_argument("--dtype", choices=tuple(OBSERVATION_DTYPES), default="float32",
                        help="the vector environment's observations (default float32)")
    parser.add_argument("--engine", type=int, default=-1, metavar="DECISIONS",
                        help="the engine's random play instead, until this many decisions "
                             "(0: none, the baseline)")
    parser.add_argument("--hand", action="store_true",
                        help="the search judged by the hand-written evaluation, not the network")
    args = parser.parse_args()
    if args.engine >= 0:
        engine(args.engine, args.level, args.players)
    elif args.search:
        search(args.search, args.level, args.players, args.hand)
    else:
        steps(args.steps, args.level, args.players, args.draw, args.dtype)


if __name__ == "__main__":
    main()
