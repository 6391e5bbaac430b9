"""Benchmark: the learned evaluation's search, adding only what changed against summing whole.

    python benchmarks/learned_speed.py [--nodes 20000] [--rounds 3]

For each game a network ships for, the alpha-beta search of ``normal`` and ``hard``
(``AlphaBetaPlayer(learned=True)``) from the first turn of six seeded deals, ``--nodes``
positions each, two ways in interleaved rounds, CPU time of one process:

- as it ships: each seat's first-layer sums of its last observation kept, and only the
  features that changed added (``ValueNet.evaluation``, exact where ``exact_sums`` holds);
- the network on the whole observation at every position (``ValueNet.value_raw``);
- with 3 players and more, where max-n judges each leaf for every seat: as it ships (the
  position written once, for seat 0, and read by each seat's first layer renumbered:
  ``LearnedJudge.every_seat``) against each seat's observation written apart, as before.

All must search the same positions and choose the same options (the values are the same to
the last bit), or it stops. Figures go to docs/performance.md ("The learned evaluation").
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from spaghetti import Game
from spaghetti.ai.alphabeta import AlphaBetaPlayer
from spaghetti.ai.evaluate import LearnedJudge
from spaghetti.ai.value import SCALE, ValueNet, shipped
from spaghetti.envs.encoding import Encoder, program_length

#: The deals whose first turn the searches start from.
DEALS = (4, 5, 6, 7, 8, 9)
GAMES = ((2, 2), (3, 2), (3, 3))


def first_turn(game: Game, seed: int) -> Any:
    """The first decision after placement of a seeded deal, placed at random."""
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    while state.phase == "placement":
        options = state.legal_actions()
        state.apply_action(options[rng.randrange(len(options))])
    return state


def whole(net: ValueNet, game: Game) -> Callable[[Any, int], float]:
    """The network on the whole observation at every position (card blocks kept, as the
    shipped evaluation keeps them)."""
    encoder = Encoder(game, program_length(game, None))
    blocks = [encoder.card_blocks() for _ in range(game.players)]
    raw, value = encoder.raw, net.value_raw
    return lambda state, seat: SCALE * value(raw(state, seat, blocks[seat]))


def apart(net: ValueNet, game: Game) -> LearnedJudge:
    """As it ships, but each seat's observation written apart where a leaf is judged for
    every seat (the learned evaluation before ``every_seat`` wrote one for all)."""
    judge = net.evaluation(game)
    assert isinstance(judge, LearnedJudge)
    judge.rotated = []
    return judge


def search(game: Game, evaluation: Callable[[Any, int], float], nodes: int
           ) -> tuple[int, float, list[int]]:
    """Positions searched, CPU seconds and the options chosen, from every deal's first turn."""
    positions, seconds, chosen = 0, 0.0, []
    for seed in DEALS:
        state = first_turn(game, seed)
        player = AlphaBetaPlayer(max_nodes=nodes, seed=1, evaluation=evaluation)
        start = time.process_time()
        chosen.append(player.choose_action(state))
        seconds += time.process_time() - start
        positions += player.nodes
    return positions, seconds, chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"the learned search, {args.nodes:,} positions from each of {len(DEALS)} deals, "
          f"{args.rounds} interleaved rounds: positions a second")
    print(f"{'game':24} {'whole':>10} {'changes':>10} {'ratio':>7} {'apart':>10} "
          f"{'one write':>10}")
    for level, players in GAMES:
        game = Game(level=level, players=players)
        net = shipped(game)
        if net is None:
            continue
        ways = {"whole": whole(net, game), "changes": net.evaluation(game)}
        if players > 2:
            ways["apart"] = apart(net, game)
        totals = {name: [0, 0.0] for name in ways}
        for _ in range(args.rounds):
            chosen = {}
            for name, evaluation in ways.items():
                positions, seconds, chosen[name] = search(game, evaluation, args.nodes)
                totals[name][0] += positions
                totals[name][1] += seconds
            if any(chosen[name] != chosen["changes"] or totals[name][0] != totals["changes"][0]
                   for name in ways):
                sys.exit(f"level {level}, {players} players: the searches differ")
        rates = {name: p / s for name, (p, s) in totals.items()}
        line = (f"{f'level {level}, {players} players':24} {rates['whole']:>10,.0f} "
                f"{rates['changes']:>10,.0f} {rates['changes'] / rates['whole']:>6.2f}x")
        if "apart" in rates:
            line += f" {rates['apart']:>10,.0f} {rates['changes'] / rates['apart']:>9.2f}x"
        print(line, flush=True)


if __name__ == "__main__":
    main()
