"""Random play on another commit's engine, for core_speed.py --reference (run in its own process).

    python benchmarks/reference_play.py VARIANT LEVEL PLAYERS OPTIONS_JSON GAMES SEED

Run with that commit's ``src`` first on ``sys.path`` (core_speed.py does so), it plays the
deals SEED to SEED + GAMES - 1 as core_speed.py's loop does (every decision a uniformly random
legal option through the integer door, one generator seeded with SEED for all of them) and
prints the decisions and the CPU seconds of the loop alone, as JSON. It uses only the public
API that every commit since the integer door has had: ``Game``, ``new_state(seed=...)``,
``legal_actions``, ``apply_action`` and ``is_over``.
"""

from __future__ import annotations

import json
import random
import sys
import time

from spaghetti import Game


def main() -> None:
    variant, level, players, options, games, seed = sys.argv[1:]
    game = Game(level=int(level), players=int(players), variant=variant,
                options=json.loads(options))
    rng = random.Random(int(seed))
    random_ = rng.random
    decisions = 0
    start = time.process_time()
    for g in range(int(games)):
        state = game.new_state(seed=int(seed) + g)
        legal_actions, apply_action = state.legal_actions, state.apply_action
        while not state.is_over:
            options_ = legal_actions()
            apply_action(options_[int(random_() * len(options_))])
            decisions += 1
    print(json.dumps({"decisions": decisions, "seconds": time.process_time() - start}))


if __name__ == "__main__":
    main()
