"""The compiled rules core against the Python one over many random games (the larger run of
tests/test_compiled_core.py).

    python benchmarks/differential.py [--games 2000] [--seed 0]

Each game draws a game of the family, a level, a player count and options at random (the
property tests' choices), then plays both paths in lockstep with random options, checking the
legal options, the position key and every field at every decision. Stops at the first
difference with the game's description, so that it can become a named regression test.
"""

from __future__ import annotations

import argparse
import random
import sys

from rich.progress import Progress

from spaghetti import Game
from spaghetti.core import engines
from spaghetti.core import notation as N

EXPANSIONS = ("reverse_priority", "memory", "reverse_flips_priority", "instant_cards",
              "interrupt", "sequential_open", "fair_first")


def random_game(rng: random.Random) -> tuple[str, int, int, dict]:
    variant = rng.choice(["spaghetti-code", "spaghetti-monsters", "pasta-logic", "nightmare"])
    level, players = rng.randint(1, 3), rng.randint(2, 5)
    options: dict = {"placement_order": rng.choice(["round_robin", "snake"]),
                     "stalemate": rng.choice(["auto", "manual"])}
    if variant == "pasta-logic":
        level, players = 1, 2
        options.update(sequential_open=rng.random() < 0.5, fair_first=rng.random() < 0.5)
    elif variant == "nightmare":
        level = 1
        options["coin_flip"] = rng.random() < 0.5
    else:
        options.update({name: rng.random() < 0.5 for name in EXPANSIONS})
        if players != 2:
            options.update(instant_cards=False, fair_first=False)
        if players < 3:
            options["interrupt"] = False
    return variant, level, players, options


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if not engines.COMPILED:
        sys.exit("no compiled rules core is built here: nothing to compare")
    rng = random.Random(args.seed)
    decisions = 0
    with Progress(transient=True) as progress:
        task = progress.add_task("games in lockstep", total=args.games)
        for g in range(args.games):
            variant, level, players, options = random_game(rng)
            game = Game(level=level, players=players, variant=variant, options=options)
            fast = game.new_state(seed=g)
            play = random.Random(g)

            def choose(state, play=play):
                legal = state.legal_actions()
                if N.DECLARE in legal and play.random() < 0.5:
                    return N.DECLARE
                return legal[play.randrange(len(legal))]

            try:
                decisions += engines.lockstep(fast, engines.python_twin(fast), choose)
            except AssertionError as exc:
                sys.exit(f"game {g} ({variant}, level {level}, {players} players, "
                         f"options {options}, seed {g}): {exc}")
            progress.advance(task)
    print(f"{args.games} games, {decisions:,} decisions: the two paths agree at every one")


if __name__ == "__main__":
    main()
