"""Benchmark: the OpenSpiel game of imperfect information, steps per second (not a test).

    python benchmarks/openspiel_imperfect_speed.py [--seconds 3] [--repeat 3] [--max-moves 1000]

For each game with hidden information below, the best of ``--repeat`` runs of about
``--seconds`` seconds, one core, of random play from the root (chance dealing what is hidden):

- engine: the engine's own door (``legal_actions`` / ``apply_action``), dealt by seed:
  decisions per second;
- OpenSpiel: ``python_spaghetti_code_imperfect`` through pyspiel, ``legal_actions`` then
  ``apply_action`` (a chance node: an outcome drawn by its probability): steps per second,
  chance steps included; then the same reading, at each decision, what the seat to move knows:
  its information state string, its information state tensor, its observation tensor (each
  as pyspiel returns it, a Python list), and the information state tensor read in place into a
  numpy array (``open_spiel.python.observation.make_observation``, as learners read it).

Needs open_spiel (pip install -e '.[openspiel]'). Figures go to docs/performance.md.
"""

from __future__ import annotations

import argparse
import random
import time

import pyspiel
from open_spiel.python.observation import INFO_STATE_OBS_TYPE, make_observation

from env_speed import random_play_rate  # the same measure as the environments'
from spaghetti import Game
from spaghetti.interop import openspiel as adapter

GAMES = (("spaghetti-code", 1, "instant_cards:true"),
         ("spaghetti-code", 3, "instant_cards:true;sequential_open:true"),
         ("spaghetti-monsters", 1, "instant_cards:true"),
         ("pasta-logic", 1, "sequential_open:true"))
READS = ("", "information_state_string", "information_state_tensor", "observation_tensor",
         "make_observation")


def engine_rate(variant: str, level: int, options: str, seconds: float) -> float:
    return random_play_rate(Game(level=level, variant=variant,
                                 options=dict(o.split(":") for o in options.split(";"))), seconds)


def openspiel_rate(game, read: str, seconds: float) -> float:
    rng = random.Random(0)
    info = make_observation(game, INFO_STATE_OBS_TYPE)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, weights)[0])
            else:
                if read == "make_observation":
                    info.set_from(state, state.current_player())
                elif read:
                    getattr(state, read)(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
            steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--max-moves", type=int, default=adapter.MAX_MOVES)
    args = parser.parse_args()
    print("| game | level | options | engine decisions/s | OpenSpiel steps/s | "
          "+ information state string | + information state tensor | + observation tensor | "
          "+ information state tensor, in place |")
    print("|---|---|---|---|---|---|---|---|---|")
    for variant, level, options in GAMES:
        game = pyspiel.load_game(adapter.IMPERFECT_NAME, {
            "variant": variant, "level": level, "options": options,
            "max_moves": args.max_moves})
        ours = max(engine_rate(variant, level, options, args.seconds)
                   for _ in range(args.repeat))
        rates = [max(openspiel_rate(game, read, args.seconds) for _ in range(args.repeat))
                 for read in READS]
        print(f"| {variant} | {level} | {options.replace(':true', '')} | {ours:,.0f} | "
              + " | ".join(f"{r:,.0f}" for r in rates) + " |", flush=True)


if __name__ == "__main__":
    main()
