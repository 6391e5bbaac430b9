"""Benchmark: this engine and its MCTS against OpenSpiel's, side by side (not a test).

    python benchmarks/openspiel_compare.py [--games 40] [--seconds 0.05] [--level 1]

1. Random playouts per second: the engine directly, and the same game through OpenSpiel's API
   (the adapter in spaghetti.interop.openspiel), clone included as MCTS uses it.
2. This project's MCTS against OpenSpiel's MCTSBot (random rollouts) at equal thinking time per
   move: MCTSBot's simulation count is set from its measured rate so that a move takes the same
   time. Both seat orders, games dealt by seed; win rate with its 95% Wilson interval.

Needs open_spiel (pip install -e '.[openspiel]'). Figures go to docs/performance.md.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from spaghetti import Game
from spaghetti.ai import MCTSPlayer
from spaghetti.ai.arena import wilson
from spaghetti.interop import openspiel as adapter


def playouts(level: int, seconds: float) -> tuple[float, float]:
    """Random playouts per second: the engine's door, and OpenSpiel's (clone + apply)."""
    rng = random.Random(0)
    game = Game(level=level)
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_state(seed=done)
        while not state.is_over:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        done += 1
    ours = done / (time.perf_counter() - start)
    spiel = pyspiel.load_game(adapter.SHORT_NAME, {"level": level})
    root = spiel.new_initial_state()
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = root.clone()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        done += 1
    return ours, done / (time.perf_counter() - start)


def mcts_match(level: int, games: int, seconds: float) -> tuple[int, int, int, float]:
    """Our MCTS against MCTSBot at equal time per move: (our wins, theirs, draws, sims/move)."""
    rate_game = pyspiel.load_game(adapter.SHORT_NAME, {"level": level, "seed": 99})
    probe = mcts.MCTSBot(rate_game, 2.0, 50,
                         mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                         random_state=np.random.RandomState(0))
    state = rate_game.new_initial_state()
    start = time.perf_counter()
    for _ in range(3):
        probe.step(state)
    sims = max(10, int(50 * 3 * seconds / (time.perf_counter() - start)))
    ours = theirs = draws = 0
    for i in range(games):
        seed, our_seat = i // 2, i % 2
        spiel = pyspiel.load_game(adapter.SHORT_NAME, {"level": level, "seed": seed})
        state = spiel.new_initial_state()
        me = MCTSPlayer(seconds=seconds, seed=i)
        bot = mcts.MCTSBot(spiel, 2.0, sims, mcts.RandomRolloutEvaluator(
            1, np.random.RandomState(i)), random_state=np.random.RandomState(i))
        while not state.is_terminal():
            if state.current_player() == our_seat:
                action = adapter.encode(me.choose_action(state.state))
            else:
                action = bot.step(state)
            state.apply_action(action)
        result = state.returns()[our_seat]
        ours += result > 0
        theirs += result < 0
        draws += result == 0
        print(f"  game {i + 1}/{games}: "
              f"{'win' if result > 0 else 'loss' if result < 0 else 'draw'}",
              flush=True)
    return ours, theirs, draws, sims


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=0.05, help="thinking time per move")
    parser.add_argument("--level", type=int, default=1)
    args = parser.parse_args()
    ours, theirs = playouts(args.level, 5.0)
    print(f"random playouts/s, level {args.level}: engine {ours:,.0f}, through OpenSpiel "
          f"{theirs:,.0f} ({ours / theirs:.1f}x)")
    won, lost, drawn, sims = mcts_match(args.level, args.games, args.seconds)
    lo, hi = wilson(won + drawn / 2, args.games)
    print(f"our MCTS vs MCTSBot ({sims} simulations a move), {args.seconds} s a move, "
          f"{args.games} games: {won}-{lost}-{drawn}, win rate {won / args.games:.0%} "
          f"(95% {lo:.0%}-{hi:.0%})")


if __name__ == "__main__":
    main()
